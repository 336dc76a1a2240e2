"""JSON Schema written by content: a deck's `fields`, and a card set's own schema document.

Both are checked against the JSON Schema meta-schema, and beyond it for unknown keywords (the
meta-schema allows any keyword, so `{tpye: integer}` would silently validate nothing).

A set's own schema is a whole document in the game folder (JSON or YAML), in the draft its
`$schema` names (2020-12 by default): `$defs`/`definitions`, `$ref` inside the document or to
another schema file in the game folder, `oneOf`/`allOf`/`if`-`then`.  A `$ref` to anything
else (a URL, a file outside the game folder) is refused: nothing is ever fetched.  Violations
are reported at the card's values; a failed `oneOf` names the branch that came closest and
what it lacked, a failed `then` the condition that asked for it.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from jsonschema.exceptions import SchemaError, UnknownType, ValidationError
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import specification_with
from jsonschema_specifications import REGISTRY as SPECIFICATIONS

from ..diagnostics import Report
from .load import Document, load_yaml, pointer_join
from .safeschema import SchemaDraftError, validator_class

# Keywords of drafts 4 to 2020-12 (validation, applicators, core, annotations, formats).
KEYWORDS = {
    "$schema", "$id", "id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor",
    "$defs", "definitions", "$comment", "$vocabulary",
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
    "maxProperties", "minProperties", "required", "dependentRequired", "dependencies",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
    "additionalItems", "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties",
    "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples", "format",
    "contentEncoding", "contentMediaType", "contentSchema",
}
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = ("not", "if", "then", "else", "contains", "additionalProperties", "propertyNames",
               "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema")


def walk(schema: Any, pointer: str = ""):
    """Every subschema (a mapping) of a schema, with its JSON pointer."""
    if not isinstance(schema, dict):
        return
    yield schema, pointer
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from walk(sub, pointer_join(pointer_join(pointer, key), name))
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from walk(sub, pointer_join(pointer_join(pointer, key), i))
        elif key == "items" and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from walk(sub, pointer_join(pointer_join(pointer, key), i))
        elif key in _SCHEMA_ONE or key == "items":
            yield from walk(value, pointer_join(pointer, key))
        elif key == "dependencies" and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, dict):
                    yield from walk(sub, pointer_join(pointer_join(pointer, key), name))


def unknown_keywords(schema: Any, pointer: str = ""):
    """(keyword, pointer of it, closest known keyword or None) for each keyword JSON Schema lacks."""
    for sub, at in walk(schema, pointer):
        for key in sub:
            if key not in KEYWORDS and not key.startswith(("x-", "$")):
                guess = difflib.get_close_matches(key, sorted(KEYWORDS), n=1, cutoff=0.6)
                yield key, pointer_join(at, key), guess[0] if guess else None


def check_field_schema(name: str, sub: Any, doc: Document, pointer: str, report: Report) -> bool:
    """One field of a deck: valid JSON Schema, no unknown keyword, no $ref."""
    ok = True
    try:
        validator_class({}).check_schema(sub)
    except SchemaError as exc:
        ok = False
        at = pointer + "".join("/" + str(p) for p in exc.absolute_path) if exc.absolute_path else pointer
        report.error("E-SCHEMA-DEF", f"field '{name}' has an invalid schema: {_short(exc.message)}", doc.pos(at),
                     help="a field is a JSON Schema such as {type: integer, minimum: 1}")
    for key, at, guess in unknown_keywords(sub, pointer):
        ok = False
        report.error("E-SCHEMA-DEF", f"field '{name}': unknown schema keyword '{key}'"
                     + (f", did you mean '{guess}'?" if guess else ""), doc.pos(at, key=True),
                     help=f"did you mean '{guess}'? " if guess else
                     "a field is a JSON Schema; put notes in 'description', or prefix your own keys with 'x-'")
    if any("$ref" in s or "$dynamicRef" in s for s, _ in walk(sub)):
        ok = False
        report.error("E-SCHEMA-DEF", f"field '{name}' uses $ref, which content may not use",
                     doc.pos(pointer), help="write the schema out in full, or give the deck a whole schema "
                     "document with 'schema:' (its $defs and $ref are allowed)")
    return ok


def _short(text: str) -> str:
    return text if len(text) < 160 else text[:157] + "..."


@dataclass
class SetSchema:
    """A card set's own schema document, ready to validate cards as published."""
    doc: Document
    validator: Any
    registry: Registry
    base: str
    documents: dict[str, Document]  # base URI -> document
    root_pointer: str = ""  # where the card's schema is inside the document ('' the whole)
    broken: bool = False  # a $ref failed while validating: reported once, the schema is not used again

    def property_names(self) -> list[str]:
        """Card fields the schema describes, in any branch (for 'absent' versus 'unknown')."""
        names: list[str] = []
        for doc in self.documents.values():
            for sub, _ in walk(doc.data):
                for name in (sub.get("properties") or {}) if isinstance(sub.get("properties"), dict) else {}:
                    if name not in names:
                        names.append(name)
        return names

    def validate(self, value: Any, doc: Document, pointer: str, report: Report, what: str) -> set[str]:
        """Report every violation of one card; returns the card fields they concern ('' the card)."""
        if self.broken:
            return {""}
        try:
            errors = list(self.validator.iter_errors(value))
        except (Unresolvable, RecursionError, UnknownType) as exc:  # refs are checked on loading: a last defence
            self.broken = True
            what_failed = "loops through its $refs" if isinstance(exc, RecursionError) else \
                f"cannot resolve a $ref: {_short(str(exc))}" if isinstance(exc, Unresolvable) else \
                f"names a type {exc.type!r} that JSON Schema does not have (a $ref to something that is no schema?)"
            report.error("E-SET-SCHEMA", f"the set's schema {what_failed}", self.doc.pos(""),
                         help="check the $ref values of the schema")
            return {""}
        fields: set[str] = set()
        for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
            if error.validator == "required" and not error.absolute_path:
                fields.update(k for k in error.validator_value if k not in value)  # absent: known to be wrong
            else:
                fields.add(str(error.absolute_path[0]) if error.absolute_path else "")
            message, at, help_ = self.explain(error, value)
            report.error("E-SET-SCHEMA", f"{what}: {message}", doc.pos(pointer + at), help=help_,
                         pointer=pointer + at)
        return fields

    # -- messages -------------------------------------------------------------------------

    def explain(self, error: ValidationError, card: Any) -> tuple[str, str, str | None]:
        """(message, pointer inside the card, help) for one violation; jsonschema's own wording when
        the schema is too odd to explain (a $ref to a mapping of schemas, such as '#/properties')."""
        try:
            return self._explain(error, card)
        except (LookupError, TypeError, AttributeError, ValueError):
            at = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path)
            return _short(error.message), at, "check the set's schema: a keyword there is not a schema of its kind"

    def _explain(self, error: ValidationError, card: Any) -> tuple[str, str, str | None]:
        at = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path)
        if error.validator in ("oneOf", "anyOf") and error.context:
            branch, errors = _closest_branch(error)
            options = error.validator_value if isinstance(error.validator_value, list) else []
            name = self._branch_name(options[branch] if branch < len(options) else {}, branch)
            lacks = "; ".join(self._plain(e) for e in errors[:3]) + ("; ..." if len(errors) > 3 else "")
            first = errors[0] if errors else error
            first_at = "".join("/" + str(p) for p in first.absolute_path)
            return (f"fits none of the {len(options)} kinds its schema allows ({error.validator}); the closest is "
                    f"{name}, which lacks: {lacks}", first_at if first.validator != "required" else at,
                    f"the set's schema is {self._where(error)}")
        message = self._plain(error)
        condition = self._condition(error, card)
        if condition is not None:
            text, cond_pointer, cond_pos = condition
            where = at if error.validator != "required" else (cond_pointer or at)
            return (f"{message}, which the set's schema asks for when {text}", where,
                    f"the rule is at {cond_pos}")
        return message, at, f"the set's schema is {self._where(error)}"

    def _where(self, error: ValidationError) -> str:
        from ..diagnostics import display_path
        return display_path(self.doc.path, None)

    @staticmethod
    def _plain(error: ValidationError) -> str:
        kind = error.validator
        if kind == "required":
            missing = error.message.split("'")[1] if "'" in error.message else error.message
            return f"missing '{missing}'"
        if kind == "const":
            return f"'{error.instance}' is not '{error.validator_value}'" if error.absolute_path else _short(error.message)
        if kind == "enum":
            return f"{error.instance!r} is not one of: {', '.join(map(str, error.validator_value))}"
        if kind == "type":
            return f"{'/'.join(map(str, error.absolute_path)) or 'the card'} must be {error.validator_value}, " \
                   f"got {type(error.instance).__name__.replace('str', 'text').replace('dict', 'a mapping')}"
        if kind == "additionalProperties":
            extra = [k for k in error.instance if k not in (error.schema.get("properties") or {})]
            return "unexpected " + ", ".join(f"'{k}'" for k in extra)
        if kind == "not":
            return f"{'/'.join(map(str, error.absolute_path)) or 'the card'} matches what the schema forbids"
        prefix = "/".join(map(str, error.absolute_path))
        return (f"{prefix}: " if prefix else "") + _short(error.message)

    def _branch_name(self, branch: Any, index: int) -> str:
        label = f"branch {index + 1}"
        if isinstance(branch, dict):
            target = branch
            if "$ref" in branch:
                ref = branch["$ref"]
                label += f" ({ref.rsplit('/', 1)[-1]})"
                try:
                    target = self.registry.resolver(self.base).lookup(ref).contents
                except Unresolvable:
                    target = {}
            if isinstance(target, dict) and target.get("title"):
                label += f" '{target['title']}'"
        return label

    def _condition(self, error: ValidationError, card: Any) -> tuple[str, str, str] | None:
        """For an error raised under `then`/`else`: the `if` it depends on, in words."""
        path = list(error.schema_path)
        if "then" not in path and "else" not in path:
            return None
        index = max(i for i, p in enumerate(path) if p in ("then", "else"))
        node, pointer, doc = self._descend(path[:index])
        if not isinstance(node, dict) or "if" not in node:
            return None
        words, field_pointer = _describe_if(node["if"], path[index] == "else")
        from ..diagnostics import display_path
        pos = doc.pos(pointer_join(pointer, "if"))
        return words, field_pointer, f"{display_path(pos.path, None)}:{pos.line}"

    def _descend(self, path: list) -> tuple[Any, str, Document]:
        """The subschema at a validation error's schema path (following $ref), with its pointer."""
        node, pointer, doc, base = self.doc.data, "", self.doc, self.base
        if self.root_pointer:
            node, pointer = _follow(self.doc.data, self.root_pointer)[0], self.root_pointer
        for step in path:
            if step == "$ref" and isinstance(node, dict):
                target = urljoin(base, node["$ref"])
                uri, fragment = urldefrag(target)
                doc = self.documents.get(uri, doc)
                base = uri or base
                try:
                    node = self.registry.resolver(base).lookup(target).contents
                except Unresolvable:
                    return None, pointer, doc
                pointer = fragment if fragment.startswith("/") else ""
                continue
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                return None, pointer, doc
            pointer = pointer_join(pointer, step)
        return node, pointer, doc


def _describe_if(condition: Any, negated: bool) -> tuple[str, str]:
    """An `if` schema in words ('type_code is "event"'), and the card pointer it looks at."""
    props = condition.get("properties") if isinstance(condition, dict) else None
    if isinstance(props, dict) and len(props) == 1:
        (name, sub), = props.items()
        if isinstance(sub, dict) and "const" in sub:
            return f"{name} is {'not ' if negated else ''}{sub['const']!r}", pointer_join("", name)
        if isinstance(sub, dict) and "enum" in sub:
            return (f"{name} is {'not ' if negated else ''}one of {', '.join(map(repr, sub['enum']))}",
                    pointer_join("", name))
    if isinstance(condition, dict) and isinstance(condition.get("required"), list) and len(condition) == 1:
        names = ", ".join(f"'{n}'" for n in condition["required"])
        return (f"{names} {'is not' if negated else 'is'} given", "")
    return ("its 'if' does not hold" if negated else "its 'if' holds"), ""


def _closest_branch(error: ValidationError) -> tuple[int, list[ValidationError]]:
    """The oneOf/anyOf branch with the fewest problems, preferring one whose discriminating
    constants (const/enum) matched: a card of the right kind missing a field, rather than another kind."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    n = len(error.validator_value) if isinstance(error.validator_value, list) else 0
    for i in range(n):
        branches.setdefault(i, [])

    def score(item):
        index, errors = item
        wrong_kind = any(e.validator in ("const", "enum", "type") and len(e.relative_path) <= 1 for e in errors)
        return (wrong_kind, len(errors), index)
    index, errors = min(branches.items(), key=score)
    return index, errors


# -- loading --------------------------------------------------------------------------------------

def load_set_schema(root: Path, rel: str, game_doc: Document, pointer: str, report: Report, safe_path,
                    documents: list[Document]) -> SetSchema | None:
    """Load a deck's `schema:` document and every schema file it refers to; None after reporting.
    `rel` may point into the document (`card_schema.json#/items`): a published schema of a whole
    pack file is used for one card without copying anything out of it."""
    rel, _, fragment = rel.partition("#")
    path = safe_path(root, rel)
    if path is None or not path.is_file():
        report.error("E-PATH" if path is None else "E-MISSING-FILE",
                     f"schema file '{rel}' " + ("is outside the game folder" if path is None else "does not exist"),
                     game_doc.pos(pointer), help="a deck's schema is a JSON Schema file inside the game folder")
        return None
    loaded: dict[str, Document] = {}
    ok = _load_schema_file(root, path, report, safe_path, loaded, documents)
    if not ok or not _pointers_resolve(root, loaded, report) or not _no_ref_cycles(root, loaded, report):
        return None
    doc = next(iter(loaded.values()))
    base = _base_of(doc, path, root)
    spec = validator_class(doc.data)  # its $schema was checked on loading
    specification = specification_with(spec.META_SCHEMA.get("$schema", ""),
                                       default=specification_with("https://json-schema.org/draft/2020-12/schema"))
    registry = Registry().with_resources(
        [(uri, Resource.from_contents(d.data, default_specification=specification)) for uri, d in loaded.items()])
    registry = SPECIFICATIONS.combine(registry)
    try:  # relative $refs resolve from the schema file's own place, not from the working directory
        resolved = registry.resolver(base).lookup("#" + fragment if fragment else base)
    except Unresolvable:
        node, names, _ = _follow(doc.data, fragment)
        report.error("E-SET-SCHEMA", f"schema '{rel}#{fragment}' points at nothing in the document",
                     game_doc.pos(pointer), help=("its top level holds: " + ", ".join(names)) if names else
                     "after '#' comes a JSON pointer such as /items or /definitions/card")
        return None
    if not isinstance(resolved.contents, (dict, bool)):
        report.error("E-SET-SCHEMA", f"schema '{rel}#{fragment}' is not a schema (a JSON object)",
                     game_doc.pos(pointer), help="point at the schema of one card, such as #/items")
        return None
    kind = resolved.contents.get("type") if isinstance(resolved.contents, dict) else None
    if kind == "array" or kind == ["array"]:  # every card would be "must be array": one error, at the deck's schema:
        inner = f"{fragment}/items" if isinstance(resolved.contents.get("items"), dict) else None
        report.error("E-SET-SCHEMA", f"schema '{rel}{'#' + fragment if fragment else ''}' describes a list "
                     "(a whole pack file), not one card", game_doc.pos(pointer),
                     help=f"point at the schema of one card: 'schema: {rel}#{inner}'" if inner else
                     "point at the schema of one card, after '#' (such as #/items)")
        return None
    validator = spec(resolved.contents, registry=registry, format_checker=spec.FORMAT_CHECKER,
                     _resolver=resolved.resolver)
    return SetSchema(doc, validator, registry, base, loaded, root_pointer=fragment)


def _base_of(doc: Document, path: Path, root: Path) -> str:
    """The URI a document's relative $refs resolve against: its own absolute $id (`id` in draft 4),
    else its place in the game folder."""
    data = doc.data if isinstance(doc.data, dict) else {}
    own_id = data.get("$id", data.get("id") if "draft-04" in str(data.get("$schema", "")) else None)
    if isinstance(own_id, str) and urlsplit(own_id).scheme:
        return urldefrag(own_id)[0]
    return _uri_of(path, root)


def _follow(data: Any, fragment: str) -> tuple[Any, list[str], str]:
    """The node a JSON pointer names (None if nothing), the names where it stopped, and the step
    that named nothing ('' when it was found)."""
    node = data
    for step in fragment.split("/")[1:] if fragment.startswith("/") else []:
        step = unquote(step).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return None, sorted(map(str, node)) if isinstance(node, dict) else [], step
    return node, sorted(map(str, node)) if isinstance(node, dict) else [], ""


# Keywords that apply a subschema to the same value: a $ref cycle through only these never ends.
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")


def _in_place_refs(node: Any, pointer: str):
    """(ref, pointer of its $ref key) for each $ref applied to the same value as `node`."""
    if not isinstance(node, dict):
        return
    if isinstance(node.get("$ref"), str):
        yield node["$ref"], pointer_join(pointer, "$ref")
    for key in _IN_PLACE_LISTS:
        if isinstance(node.get(key), list):
            for i, sub in enumerate(node[key]):
                yield from _in_place_refs(sub, pointer_join(pointer_join(pointer, key), i))
    for key in _IN_PLACE_ONE:
        yield from _in_place_refs(node.get(key), pointer_join(pointer, key))
    if isinstance(node.get("dependentSchemas"), dict):
        for name, sub in node["dependentSchemas"].items():
            yield from _in_place_refs(sub, pointer_join(pointer_join(pointer, "dependentSchemas"), name))


def _no_ref_cycles(root: Path, loaded: dict[str, Document], report: Report) -> bool:
    """A $ref that leads back to itself without looking inside the value (`a` -> `b` -> `a`) would
    make validation recurse forever; each such loop is reported once, at the $ref closing it."""
    bases = {id(d): _base_of(d, d.path, root) for d in loaded.values()}
    done: set[tuple[int, str]] = set()
    reported: set[frozenset] = set()
    ok = True

    def visit(doc: Document, pointer: str, trail: list[tuple[int, str]]):
        nonlocal ok
        node_key = (id(doc), pointer)
        if node_key in done:
            return
        node = _follow(doc.data, pointer)[0] if pointer else doc.data
        for ref, ref_at in _in_place_refs(node, pointer):
            uri, fragment = urldefrag(urljoin(bases[id(doc)], ref))
            target = loaded.get(uri) if uri else doc
            if target is None or (fragment and not fragment.startswith("/")):
                continue  # unreadable (reported already), or an anchor
            key = (id(target), fragment)
            keys = [k for k, _ in trail] + [node_key]
            if key in keys:
                loop = keys[keys.index(key):]
                if frozenset(loop) not in reported:
                    reported.add(frozenset(loop))
                    ok = False
                    report.error("E-SET-SCHEMA", f"$ref '{ref}' leads back to itself"
                                 + (f" through {len(loop)} references" if len(loop) > 1 else "")
                                 + ": checking a card against it would never end", doc.pos(ref_at),
                                 help="a $ref may come back to a schema only inside properties or items, "
                                 "where it checks a smaller part of the card")
                continue
            visit(target, fragment, trail + [(node_key, ref_at)])
        done.add(node_key)

    for doc in {id(d): d for d in loaded.values()}.values():
        visit(doc, "", [])
        for sub, at in walk(doc.data):
            if at and isinstance(sub.get("$ref"), str):
                visit(doc, at, [])
    return ok


def _pointers_resolve(root: Path, loaded: dict[str, Document], report: Report) -> bool:
    """Every `$ref` with a JSON pointer ('#/$defs/ship', 'common.schema.json#/$defs/credits') names
    something in its document; a wrong one is reported at the $ref, with the names that are there."""
    ok = True
    for doc in {id(d): d for d in loaded.values()}.values():
        base = _base_of(doc, doc.path, root)
        for sub, at in walk(doc.data):
            ref = sub.get("$ref") if isinstance(sub.get("$ref"), str) else None
            target, fragment = urldefrag(ref) if ref else ("", "")
            if ref is None or not fragment.startswith("/"):
                continue  # no pointer (a whole document, or an anchor)
            other = loaded.get(urljoin(base, target)) if target else doc
            if other is None:
                continue  # an unreadable file is already reported
            node, names, step = _follow(other.data, fragment)
            if node is None:
                guess = difflib.get_close_matches(step, names, n=1)
                report.error("E-SET-SCHEMA", f"$ref '{ref}' points at nothing: there is no '{step}'"
                             + (f", did you mean '{guess[0]}'?" if guess else ""), doc.pos(pointer_join(at, "$ref")),
                             help=("it holds: " + ", ".join(names)) if names else "check the path after '#'")
                ok = False
    return ok


def _uri_of(path: Path, root: Path) -> str:
    return "file:///game/" + path.resolve().relative_to(root.resolve()).as_posix()  # never fetched


def _load_schema_file(root: Path, path: Path, report: Report, safe_path, loaded: dict[str, Document],
                      documents: list[Document], alias: str | None = None) -> bool:
    doc = load_yaml(path, report)
    if doc is None:
        return False
    documents.append(doc)
    if not isinstance(doc.data, dict):
        report.error("E-SET-SCHEMA", "a schema document is a mapping (a JSON object)", doc.pos(""))
        return False
    loaded[_uri_of(path, root)] = doc
    base = _base_of(doc, path, root)
    loaded[base] = doc  # refs may name the document by its own $id
    if alias:
        loaded[alias] = doc
    ok = True
    try:
        spec = validator_class(doc.data)
    except SchemaDraftError as exc:
        report.error("E-SET-SCHEMA", str(exc), doc.pos("/$schema"),
                     help="write \"$schema\": \"https://json-schema.org/draft/2020-12/schema\", or leave it out")
        return False
    try:
        spec.check_schema(doc.data)
    except SchemaError as exc:
        at = "".join("/" + str(p) for p in exc.absolute_path)
        report.error("E-SET-SCHEMA", f"not a valid JSON Schema: {_short(exc.message)}", doc.pos(at),
                     help=f"the document is checked against the meta-schema of {spec.META_SCHEMA.get('$schema')}")
        ok = False
    for key, at, guess in unknown_keywords(doc.data):
        if guess is not None:
            report.warning("W-SCHEMA-KEYWORD", f"unknown schema keyword '{key}', did you mean '{guess}'?",
                           doc.pos(at, key=True), help="JSON Schema ignores keywords it does not know, so this "
                           "one checks nothing")
    folder = path.resolve().parent.relative_to(root.resolve())
    for sub, at in walk(doc.data):
        ref = sub.get("$ref") if isinstance(sub.get("$ref"), str) else None
        if ref is None:
            continue
        target = urldefrag(ref)[0]
        where = doc.pos(pointer_join(at, "$ref"))
        if not target or target in loaded:
            continue  # inside this document, or one already read
        if urlsplit(target).scheme:
            report.error("E-SET-SCHEMA", f"$ref '{ref}' points outside the game folder; nothing is fetched", where,
                         help="copy that schema into the game folder and refer to it by its relative file name")
            ok = False
            continue
        other = safe_path(root, (folder / target).as_posix())
        if other is None:
            report.error("E-SET-SCHEMA", f"$ref '{ref}' points outside the game folder", where,
                         help="schema files a set refers to must lie inside the game folder")
            ok = False
        elif not other.is_file():
            report.error("E-SET-SCHEMA", f"$ref '{ref}': no such schema file", where,
                         help="refer to a schema file by its name relative to this one")
            ok = False
        elif _uri_of(other, root) not in loaded:
            ok = _load_schema_file(root, other, report, safe_path, loaded, documents,
                                   alias=urljoin(base, target)) and ok
        else:
            loaded.setdefault(urljoin(base, target), loaded[_uri_of(other, root)])
    return ok


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False
