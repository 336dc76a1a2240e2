"""The documentation's reference pages, written from the code itself so that they cannot go stale:
the JSON Schemas that `check` validates against (game.yaml, card files, layouts, rules, force lists),
the frame registry of the layout stage, the rules language's helpers, every command's arguments as
argparse declares them, and every diagnostic code the source can report (read from the source's
calls, with the message they are raised with).  docs/hooks.py adds these pages to the MkDocs site
when it is built; `python -m cardforge.reference OUT` writes them to a folder.
"""
from __future__ import annotations

import ast
import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent
SCHEMAS = (("game", "game.yaml"), ("cards", "card files"), ("layout", "layouts"), ("rules", "rules.yaml"),
           ("force", "force lists"))
CODE = re.compile(r"^[EW]-[A-Z0-9]+(?:-[A-Z0-9]+)*$")


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _type(spec: dict, defs: dict) -> str:
    if not isinstance(spec, dict):
        return ""
    if "$ref" in spec:
        return spec["$ref"].rsplit("/", 1)[-1]
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    for key in ("oneOf", "anyOf"):
        if key in spec:
            return " or ".join(filter(None, (_type(s, defs) for s in spec[key])))
    kind = spec.get("type", "")
    kind = " or ".join(kind) if isinstance(kind, list) else kind
    if kind == "array" and isinstance(spec.get("items"), dict):
        inner = _type(spec["items"], defs)
        return f"list of {inner}" if inner else "list"
    return kind


def _properties(props: dict, defs: dict, required: list) -> list[str]:
    rows = ["| key | type | required | what it is |", "|---|---|---|---|"]
    for key, spec in props.items():
        if key == "$schema":
            continue
        description = spec.get("description", "") if isinstance(spec, dict) else ""
        rows.append(f"| `{key}` | {_cell(_type(spec, defs))} | {'yes' if key in required else ''} | {_cell(description)} |")
    return rows


def schema_page(name: str, what: str) -> str:
    from .frontend.schema import builtin_schema
    schema = builtin_schema(name)
    defs = schema.get("$defs", {})
    out = [f"# {what}: `{name}.schema.json`", "",
           f"Every key `cardforge check` accepts in {what}, from the JSON Schema it validates them against "
           f"(`cardforge/frontend/schemas/{name}.schema.json`). Editors use the same schema: `cardforge schema`.", ""]
    if schema.get("description"):
        out += [schema["description"], ""]
    out += ["## Top level", ""] + _properties(schema.get("properties", {}), defs, schema.get("required", [])) + [""]
    for def_name, spec in defs.items():
        if not isinstance(spec, dict):
            continue
        out += [f"## `{def_name}`", ""]
        if spec.get("description"):
            out += [spec["description"], ""]
        if isinstance(spec.get("properties"), dict):
            out += _properties(spec["properties"], defs, spec.get("required", [])) + [""]
        else:
            out += [f"Type: {_cell(_type(spec, defs)) or 'see the schema'}.", ""]
    return "\n".join(out)


def frames_page() -> str:
    from .layout.layouts import DEFAULTS, REQUIRED, TEMPLATED
    out = ["# Frame types", "",
           "A layout's `frames` are drawn in order. Each frame has a `type`; these are all of them, with the keys "
           "each requires and its defaults (from `cardforge/layout/layouts.py`). Every key is described in the "
           "[layout reference](layout.md).", "",
           "| type | requires | defaults |", "|---|---|---|"]
    for kind, required in REQUIRED.items():
        defaults = ", ".join(f"`{k}: {v}`" for k, v in DEFAULTS.get(kind, {}).items())
        out.append(f"| `{kind}` | {', '.join(f'`{k}`' for k in required) or '(none)'} | {defaults} |")
    out += ["", "Keys that take a template (`{{ card.field }}`) as well as a value: "
            + ", ".join(f"`{k}`" for k in TEMPLATED) + ".", ""]
    return "\n".join(out)


def rules_page() -> str:
    from .rules.expressions import HELPERS
    out = ["# Rules language", "",
           "Rules are sandboxed Jinja2 expressions over the cards (see the [rules.yaml reference](rules.md)). "
           "Besides Jinja2's own tests and filters, these helpers can be called (from "
           "`cardforge/rules/expressions.py` and the modules it gathers them from):", "",
           "| helper | signature | what it does |", "|---|---|---|"]
    for name, func in sorted(HELPERS.items()):
        try:
            signature = str(inspect.signature(func))
        except (TypeError, ValueError):
            signature = "(…)"
        doc = (inspect.getdoc(func) or "").split("\n\n")[0]
        out.append(f"| `{name}` | `{_cell(signature)}` | {_cell(doc)} |")
    return "\n".join(out) + "\n"


def commands_page() -> str:
    from .cli import parser
    top = parser()
    out = ["# Commands", "", "Every `cardforge` command and its options, as `cardforge COMMAND --help` prints them.",
           "Exit status: 0 clean (warnings allowed), 1 content errors, 2 usage errors, 130 interrupted.", ""]
    subparsers = next(a for a in top._actions if a.__class__.__name__ == "_SubParsersAction")  # noqa: SLF001
    helps = {choice.dest: choice.help for choice in subparsers._choices_actions}  # noqa: SLF001
    for name, sub in subparsers.choices.items():
        out += [f"## `cardforge {name}`", "", helps.get(name) or "", "", "```text", sub.format_help().rstrip(), "```", ""]
    return "\n".join(out)


def _codes() -> dict[str, list[tuple[str, str, str]]]:
    """code -> [(severity, module, message as written)] from every report.error/warning call."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        module = path.relative_to(PACKAGE.parent).as_posix()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
                continue
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str) and CODE.match(first.value)):
                continue
            severity = "warning" if first.value.startswith("W-") else "error"
            message = ""
            if len(node.args) > 1:
                message = ast.unparse(node.args[1])
                message = re.sub(r"^f?['\"]|['\"]$", "", message)
            found.setdefault(first.value, []).append((severity, module, message))
    return found


def diagnostics_page() -> str:
    out = ["# Diagnostic codes", "",
           "Every code `cardforge` can print as `path:line:col: severity[CODE]: message`, read from the source's own "
           "calls (`{…}` stands for a value filled in). Rule ids of a game's rules.yaml are that game's own.", "",
           "| code | severity | message | where |", "|---|---|---|---|"]
    for code, uses in sorted(_codes().items()):
        severity, module, message = uses[0]
        modules = sorted({m for _, m, _ in uses})
        out.append(f"| `{code}` | {severity} | {_cell(message[:160])} | {', '.join(f'`{m}`' for m in modules[:3])} |")
    return "\n".join(out) + "\n"


def pages() -> dict[str, str]:
    """Relative path inside the docs -> Markdown."""
    out = {f"reference/{name}.md": schema_page(name, what) for name, what in SCHEMAS}
    out["reference/frames.md"] = frames_page()
    out["reference/rules-language.md"] = rules_page()
    out["reference/commands.md"] = commands_page()
    out["reference/diagnostics.md"] = diagnostics_page()
    out["guides/icon-gallery.md"] = _icon_gallery()
    return out


def _icon_gallery() -> str:
    from .layout.iconsets import gallery_page
    return gallery_page()


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs-reference")
    for rel, text in pages().items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
