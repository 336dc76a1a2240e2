"""The mutation engine of the fuzzer (issue 17): one reproducible mutation of a shipped game.

A sandbox is a folder holding a copy of one game as cardforge sees it in the repository:

    <sandbox>/content/<game>/        the game (game.yaml, cards, tokens, tables, rules.yaml, icons)
    <sandbox>/layouts/<game>/        its layouts, and layouts/common (the shared base)
    <sandbox>/outside/               files outside the game folder, as targets of escaping symlinks
    <sandbox>/out/                   the output folder of a build

`mutate(sandbox, rng)` changes that copy in one way, chosen by `rng` (a `random.Random`, or the
shrinkable one that hypothesis draws), and returns a `Mutation` that says in one line what it
did.  The same seed always makes the same mutation.  Families:

- yaml: structure of a card, token, table or game file (delete or duplicate a key, another type,
  huge integers, deep nesting, long strings, unicode oddities, anchors and aliases), and values
  that pass the schema but not the rest: edge values of the same type, another value of the same
  file moved here, odd sizes;
- bytes: flipped, inserted or deleted bytes, a truncated file, a BOM, UTF-16, NUL bytes;
- files: deleted, emptied, replaced by a folder, a FIFO, a symlink loop or a symlink out of the
  folder, padded to a huge size, renamed;
- layouts: all of the above on the layouts the game uses, plus templates and frame geometry;
- rules: the same on rules.yaml, plus its expressions;
- icons: SVG mutations, and an image frame with a truncated, garbage or oversized PNG.

The engine is used by tests/test_fuzz.py (hypothesis) and bench/fuzz.py (many inputs).
"""
from __future__ import annotations

import os
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml

from fuzz_values import (BIG_INTS, EXPRESSIONS, GEOMETRY, PNG_KINDS, STRINGS, SVG_EDITS, TEMPLATES,
                         nested, png_bytes)

REPO = Path(__file__).resolve().parent.parent
GAMES = ("bomber-boys", "iron-rain", "bombs-away", "steel-rain", "war-eagles")
SETS = ("ember-vale", "star-courier")  # card sets as communities publish them (tests/fixtures/community)
ALL = GAMES + SETS
FAMILIES = ("yaml", "bytes", "files", "layouts", "rules", "icons", "sheets", "sets", "schema", "forces")


# libyaml parses the pristine files a mutation starts from 10x faster than PyYAML's Python parser
# (1-3 s of a child's CPU on the larger games), with the same nodes, marks and values.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def source_of(name: str) -> Path:
    return REPO / "tests" / "fixtures" / "community" / name if name in SETS else REPO / "content" / name


@dataclass(frozen=True)
class Sandbox:
    root: Path
    name: str

    @property
    def game(self) -> Path:
        return self.root / "content" / self.name

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    @property
    def out(self) -> Path:
        return self.root / "out"

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    def rel(self, path: Path) -> str:
        return Path(path).relative_to(self.root).as_posix()


def make_sandbox(root: Path, name: str, source: Path | None = None) -> Sandbox:
    """Copy game `name` (from the repository, or from `source`, a sandbox made before) into root."""
    root = Path(root)
    box = Sandbox(root, name)
    if source is not None:
        shutil.copytree(source, root, symlinks=True, dirs_exist_ok=True)
        return box
    shutil.copytree(source_of(name), box.game, ignore=shutil.ignore_patterns("*.md"))
    for part in (name, "common"):
        if (REPO / "layouts" / part).is_dir():
            shutil.copytree(REPO / "layouts" / part, box.layouts / part)
    box.outside.mkdir()
    (box.outside / "secret.yaml").write_text("cards:\n  - id: secret\n    title: outside the game\n", "utf-8")
    box.out.mkdir()
    return box


@dataclass(frozen=True)
class Mutation:
    family: str
    op: str
    target: str  # relative to the sandbox
    detail: str = ""

    def describe(self) -> str:
        return f"{self.family}/{self.op} {self.target}" + (f": {self.detail}" if self.detail else "")


def mutate(box: Sandbox, rng: random.Random, family: str | None = None) -> Mutation:
    """Apply one mutation of `family` (chosen by rng when None) to the sandbox."""
    family = family or rng.choice(FAMILIES)
    if family not in _FAMILY:  # the format families build on this module (no import cycle at load time)
        from fuzz_formats import FORMAT_FAMILIES
        _FAMILY.update(FORMAT_FAMILIES)
    return _FAMILY[family](box, rng)


# -- which files --------------------------------------------------------------------------------

def _files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and p.suffix in suffixes)


def data_files(box: Sandbox) -> list[Path]:
    return [p for p in _files(box.game, (".yaml", ".yml", ".csv", ".json")) if p.name != "rules.yaml"
            and p.parent.name != "layouts"]


def layout_files(box: Sandbox) -> list[Path]:
    return _files(box.layouts, (".yaml",)) + _files(box.game / "layouts", (".yaml",))


def icon_files(box: Sandbox) -> list[Path]:
    return _files(box.game / "icons", (".svg",))


# -- YAML structure -------------------------------------------------------------------------------

class _Doc:
    """A YAML file's text and its composed nodes, for edits at a node's exact span."""

    def __init__(self, path: Path):
        self.path = path
        self.text = path.read_text("utf-8")
        root = yaml.compose(self.text, Loader=LOADER)
        self.values: list[tuple[object, object, object]] = []  # (node, parent, key node or None)
        if root is not None:
            self._walk(root, None, None)

    def _walk(self, node, parent, key) -> None:
        self.values.append((node, parent, key))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                self._walk(v, node, k)
        elif isinstance(node, yaml.SequenceNode):
            for v in node.value:
                self._walk(v, node, None)

    def span(self, node) -> tuple[int, int]:
        start, end = node.start_mark.index, node.end_mark.index
        return start, start + len(self.text[start:end].rstrip())

    def replace(self, start: int, end: int, new: str) -> None:
        self.text = self.text[:start] + new + self.text[end:]

    def set(self, node, new: str) -> str:
        """Put `new` where `node` is; returns where that was, for the description."""
        where = self.pointer(node)
        start, end = self.span(node)
        if new and start and self.text[start - 1] in ":-,":  # `key:` with an empty value
            new = " " + new
        self.replace(start, end, new)
        return where

    def save(self) -> None:
        self.path.write_text(self.text, "utf-8")

    def pairs(self) -> list[tuple[object, object, object]]:
        return [t for t in self.values if t[2] is not None]

    def scalars(self, strings_only: bool = False) -> list[tuple[object, object, object]]:
        found = [t for t in self.values if isinstance(t[0], yaml.ScalarNode) and t[1] is not None]
        if strings_only:
            found = [t for t in found if t[0].tag == "tag:yaml.org,2002:str"]
        return found

    def pointer(self, node) -> str:
        """A short path to the node, for the one-line description (line:col and the key)."""
        for value, parent, key in self.values:
            if value is node:
                label = f"{key.value}" if key is not None and isinstance(key, yaml.ScalarNode) else "item"
                return f"{node.start_mark.line + 1}:{node.start_mark.column + 1} ({label})"
        return f"{node.start_mark.line + 1}:{node.start_mark.column + 1}"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _flow_inline(value: str) -> str:
    return value.replace("\n", " ")


def _delete_key(doc: _Doc, rng) -> str:
    pairs = doc.pairs()
    node, parent, key = rng.choice(pairs)
    start, end = key.start_mark.index, doc.span(node)[1]
    if parent.flow_style:
        tail = re.match(r"\s*,\s*", doc.text[end:])
        if tail:
            end += tail.end()
        else:
            head = re.search(r",\s*$", doc.text[:start])
            if head:
                start = head.start()
    doc.replace(start, end, "")
    return f"deleted key '{key.value}' at {key.start_mark.line + 1}:{key.start_mark.column + 1}"


def _duplicate_key(doc: _Doc, rng) -> str:
    node, parent, key = rng.choice(doc.pairs())
    start, end = key.start_mark.index, doc.span(node)[1]
    pair = doc.text[start:end]
    if parent.flow_style:
        doc.replace(end, end, ", " + _flow_inline(pair))
    else:
        doc.replace(end, end, "\n" + " " * key.start_mark.column + pair)
    return f"duplicated key '{key.value}' at {key.start_mark.line + 1}:{key.start_mark.column + 1}"


TYPED = {"str": "'fuzz'", "int": "7", "negative": "-3", "zero": "0", "float": "2.5", "bool": "true",
         "null": "null", "list": "[1, two]", "empty list": "[]", "map": "{a: 1}", "empty map": "{}",
         "empty string": "''", "inf": ".inf", "nan": ".nan", "date": "2020-01-01", "binary": "!!binary aGk="}


def _replace_value(doc: _Doc, rng, new: str, what: str, strings_only: bool = False) -> str:
    candidates = doc.scalars(True) if strings_only else [t for t in doc.values if t[1] is not None]
    if not candidates:
        candidates = [t for t in doc.values if t[1] is not None] or doc.values
    node, _, _ = rng.choice(candidates)
    return f"{what} at {doc.set(node, new)}"


def _swap_type(doc: _Doc, rng) -> str:
    kind = rng.choice(sorted(TYPED))
    return _replace_value(doc, rng, TYPED[kind], f"value replaced by {kind} {TYPED[kind]}")


def _huge_int(doc: _Doc, rng) -> str:
    label, text = rng.choice(BIG_INTS)
    return _replace_value(doc, rng, text, f"value replaced by {label}")


def _deep(doc: _Doc, rng) -> str:
    depth = rng.choice((50, 500, 2000, 50_000))
    kind = rng.choice(("list", "map"))
    return _replace_value(doc, rng, nested(kind, depth), f"value replaced by a {kind} nested {depth} deep")


def _long_string(doc: _Doc, rng) -> str:
    n = rng.choice((300, 5_000, 100_000, 1_000_000))
    word = rng.choice(("x", "word ", "Wide ", "**b** ", ":star: ", "\\n"))
    return _replace_value(doc, rng, '"' + (word * (n // len(word) + 1))[:n] + '"',
                          f"string of {n} characters ({word.strip() or 'spaces'!r} repeated)", strings_only=True)


def _unicode(doc: _Doc, rng) -> str:
    label, text = rng.choice(STRINGS)
    return _replace_value(doc, rng, text, f"string replaced by {label}", strings_only=True)


def _alias(doc: _Doc, rng) -> str:
    kind = rng.choice(("alias", "undefined alias", "recursive", "merge", "bomb", "anchor only"))
    scalars = doc.scalars()
    if kind == "bomb":
        lines = ["fuzz_bomb:", "  - &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        lines += [f"  - &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
        doc.text = doc.text.rstrip("\n") + "\n" + "\n".join(lines) + "\n"
        return "appended a billion-laughs alias bomb as key fuzz_bomb"
    if kind == "undefined alias":
        return _replace_value(doc, rng, "*nowhere", "value replaced by an alias to an undefined anchor")
    if kind == "recursive":
        return _replace_value(doc, rng, "&self [1, *self]", "value replaced by a recursive alias &self [1, *self]")
    if kind == "merge":
        flows = [t for t in doc.values if isinstance(t[0], yaml.MappingNode) and t[0].flow_style and t[0].value]
        if flows:
            node, _, _ = rng.choice(flows)
            start = node.start_mark.index + 1
            doc.replace(start, start, "<<: {merged: 1, id: merged}, ")
            return f"merge key <<: {{merged: 1, id: merged}} in the mapping at {doc.pointer(node)}"
        kind = "alias"
    if len(scalars) < 2:
        return _swap_type(doc, rng)
    first, second = sorted(rng.sample(range(len(scalars)), 2))
    a, b = scalars[first][0], scalars[second][0]
    if kind == "anchor only":
        doc.replace(a.start_mark.index, a.start_mark.index, "&fz ")
        return f"anchor &fz on the value at {doc.pointer(a)}"
    where_a = doc.pointer(a)
    where_b = doc.set(b, "*fz")  # the later one first, so that the earlier offsets stay valid
    doc.replace(a.start_mark.index, a.start_mark.index, "&fz ")
    return f"value at {where_b} replaced by an alias to the value at {where_a}"


def _boundary(doc: _Doc, rng) -> str:
    """A value of the same type at an edge: past schema checks, into rules, layout and drawing."""
    if not doc.scalars():
        return _swap_type(doc, rng)
    node, _, _ = rng.choice(doc.scalars())
    tag = node.tag.rsplit(":", 1)[-1]
    if tag == "int":
        new = rng.choice(("0", "-1", "1", "6", "99", "1000000", "50001", "-999999"))
    elif tag == "float":
        new = rng.choice(("0.0", "-0.0", "1e-9", "-1.5", "1e18"))
    elif tag == "bool":
        new = "false" if node.value.lower() == "true" else "true"
    else:
        value = node.value
        new = _quoted(rng.choice((value[::-1], value.upper(), value[:1], value + value, value + "-x",
                                  value.replace(" ", ""), value + " " + value)))
    return f"{tag} value {node.value[:30]!r} set to {new[:30]} at {doc.set(node, new)}"


def _transplant(doc: _Doc, rng) -> str:
    """Another value of the same file in this one's place: plausible, but inconsistent."""
    values = [t for t in doc.values if t[1] is not None]
    source, target = rng.sample(values, 2) if len(values) > 1 else (values[0], values[0])
    start, end = doc.span(source[0])
    text = doc.text[start:end]
    if "\n" in text or not isinstance(source[0], yaml.ScalarNode):
        text = _flow(source[0])
    where = doc.pointer(source[0])
    return f"value at {doc.set(target[0], text)} replaced by the value at {where}"


def _flow(node) -> str:
    """A node as one line of flow-style YAML."""
    if isinstance(node, yaml.ScalarNode):
        return _quoted(node.value) if node.tag.endswith(":str") else node.value
    if isinstance(node, yaml.SequenceNode):
        return "[" + ", ".join(_flow(v) for v in node.value) + "]"
    return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in node.value) + "}"


YAML_OPS = {"boundary": _boundary, "transplant": _transplant, "delete-key": _delete_key, "duplicate-key": _duplicate_key, "swap-type": _swap_type,
            "huge-int": _huge_int, "deep-nesting": _deep, "long-string": _long_string, "unicode": _unicode,
            "alias": _alias}


def yaml_edit(box: Sandbox, path: Path, rng, family: str, ops: dict | None = None) -> Mutation:
    ops = ops or YAML_OPS
    op = rng.choice(sorted(ops))
    try:
        doc = _Doc(path)
    except (yaml.YAMLError, UnicodeDecodeError, ValueError):  # an earlier mutation broke it: bytes instead
        return byte_edit(box, path, rng, family)
    if not doc.pairs():
        return byte_edit(box, path, rng, family)
    detail = ops[op](doc, rng)
    doc.save()
    return Mutation(family, op, box.rel(path), detail)


def _yaml_family(box: Sandbox, rng) -> Mutation:  # sizes too: card_size, bleed, boards, tokens
    return yaml_edit(box, rng.choice(data_files(box) + [box.game / "game.yaml"]), rng, "yaml",
                     dict(YAML_OPS, geometry=_geometry))


# -- bytes ------------------------------------------------------------------------------------------

def _flip(data: bytes, rng) -> tuple[bytes, str]:
    at = rng.randrange(len(data))
    bit = 1 << rng.randrange(8)
    return data[:at] + bytes([data[at] ^ bit]) + data[at + 1:], f"flipped bit {bit:#04x} of byte {at}"


def _insert(data: bytes, rng) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    junk = rng.choice((b"\x00", b"\xff\xfe", b"\xc3", b"\t", b"\r", b"{", b"]", b":", b"- ", b"'", b'"', b"&",
                       b"*", b"!", b"%", b"\xe2\x80\xae", b"\xef\xbb\xbf", bytes(rng.randrange(256) for _ in range(8))))
    return data[:at] + junk + data[at:], f"inserted {junk!r} at byte {at}"


def _delete(data: bytes, rng) -> tuple[bytes, str]:
    at = rng.randrange(len(data))
    n = rng.choice((1, 2, 7, 64))
    return data[:at] + data[at + n:], f"deleted {n} bytes at byte {at}"


def _truncate(data: bytes, rng) -> tuple[bytes, str]:
    at = rng.randrange(len(data))
    return data[:at], f"truncated to {at} of {len(data)} bytes"


def _encoding(data: bytes, rng) -> tuple[bytes, str]:
    kind = rng.choice(("utf-8 BOM", "utf-16", "utf-16-be", "utf-32", "latin-1", "crlf", "cr", "double BOM"))
    text = data.decode("utf-8", "replace")
    if kind == "utf-8 BOM":
        return b"\xef\xbb\xbf" + data, "UTF-8 BOM added"
    if kind == "double BOM":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + data, "two UTF-8 BOMs added"
    if kind == "crlf":
        return data.replace(b"\n", b"\r\n"), "line ends turned into CRLF"
    if kind == "cr":
        return data.replace(b"\n", b"\r"), "line ends turned into CR"
    if kind == "latin-1":
        return text.encode("latin-1", "replace"), "re-encoded as Latin-1"
    return text.encode(kind), f"re-encoded as {kind.upper()} (with its BOM)" if kind != "utf-16-be" else \
        "re-encoded as UTF-16-BE (no BOM)"


def _nul(data: bytes, rng) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    n = rng.choice((1, 1, 100))
    return data[:at] + b"\x00" * n + data[at:], f"{n} NUL byte(s) at byte {at}"


BYTE_OPS = {"flip": _flip, "insert": _insert, "delete": _delete, "truncate": _truncate, "encoding": _encoding,
            "nul": _nul}


def byte_edit(box: Sandbox, path: Path, rng, family: str) -> Mutation:
    op = rng.choice(sorted(BYTE_OPS))
    data = path.read_bytes() or b"\n"
    new, detail = BYTE_OPS[op](data, rng)
    path.write_bytes(new)
    return Mutation(family, op, box.rel(path), detail)


def _pool(box: Sandbox) -> list[Path]:
    """Every file of the game a byte or file mutation may hit (a card set has no rules.yaml)."""
    files = data_files(box) + [box.game / "game.yaml", box.game / "rules.yaml"] + layout_files(box) + icon_files(box)
    return [p for p in files if p.exists()]


def _bytes_family(box: Sandbox, rng) -> Mutation:
    pool = _pool(box)
    return byte_edit(box, rng.choice(pool), rng, "bytes")


# -- files ------------------------------------------------------------------------------------------

def _replace_by_link(path: Path, target: str | Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
    os.symlink(target, path)


FILE_OPS = ("delete", "empty", "folder", "fifo", "symlink-loop", "symlink-outside", "huge", "rename",
            "folder-link-outside")


def file_edit(box: Sandbox, path: Path, rng, family: str) -> Mutation:
    op = rng.choice(FILE_OPS)
    rel = box.rel(path)
    if op == "folder-link-outside" and path.parent in (box.game, box.layouts / "common"):
        op = "symlink-outside"  # the game folder itself, or the shared layouts: link the file instead
    if op == "delete":
        path.unlink()
        return Mutation(family, op, rel, "removed")
    if op == "empty":
        path.write_bytes(b"")
        return Mutation(family, op, rel, "emptied (0 bytes)")
    if op == "folder":
        path.unlink()
        path.mkdir()
        (path / "inner.yaml").write_text("a: 1\n", "utf-8")
        return Mutation(family, op, rel, "replaced by a folder")
    if op == "fifo":
        path.unlink()
        os.mkfifo(path)
        return Mutation(family, op, rel, "replaced by a named pipe (FIFO) that nobody writes")
    if op == "symlink-loop":
        if rng.random() < 0.5:
            _replace_by_link(path, path.name)
            return Mutation(family, op, rel, "replaced by a symlink to itself")
        other = path.with_name(path.stem + "-loop" + path.suffix)
        os.symlink(path.name, other)
        _replace_by_link(path, other.name)
        return Mutation(family, op, rel, f"symlink loop with {other.name}")
    if op == "symlink-outside":
        target = rng.choice(("copy", "secret", "/dev/null", "/dev/zero", "/nonexistent/file.yaml"))
        if target == "copy":
            copy = box.outside / path.name
            shutil.copyfile(path, copy)
            target = os.path.relpath(copy, path.parent)
        elif target == "secret":
            target = os.path.relpath(box.outside / "secret.yaml", path.parent)
        _replace_by_link(path, target)
        return Mutation(family, op, rel, f"replaced by a symlink to {target} (outside the game folder)")
    if op == "folder-link-outside":
        folder = path.parent
        copy = box.outside / folder.name
        shutil.copytree(folder, copy, symlinks=True, dirs_exist_ok=True)
        _replace_by_link(folder, os.path.relpath(copy, folder.parent))
        return Mutation(family, op, box.rel(folder), "folder replaced by a symlink to a copy outside the game folder")
    if op == "huge":
        mb = rng.choice((5, 30))
        with path.open("ab") as fh:
            line = b"# " + b"padding " * 16 + b"\n"
            fh.write(b"\n" + line * (mb * 1024 * 1024 // len(line)))
        return Mutation(family, op, rel, f"padded with {mb} MB of comment lines")
    new = rng.choice((path.with_suffix(".yml"), path.with_name(path.name.upper()), path.with_name(path.name + ".bak"),
                      path.with_name(" " + path.name), path.with_name("x" * 240 + path.suffix)))
    path.rename(new)
    return Mutation(family, "rename", rel, f"renamed to {new.name[:40]}{'...' if len(new.name) > 40 else ''}")


def _files_family(box: Sandbox, rng) -> Mutation:
    pool = _pool(box)
    return file_edit(box, rng.choice(pool), rng, "files")


# -- layouts ------------------------------------------------------------------------------------------

def _template(doc: _Doc, rng) -> str:
    found = [t for t in doc.scalars(True) if "{{" in t[0].value or "{%" in t[0].value] or doc.scalars(True)
    node, _, key = rng.choice(found)
    label, text = rng.choice(TEMPLATES)
    return f"template at {doc.set(node, _quoted(text))} replaced by {label}"


def _geometry(doc: _Doc, rng) -> str:
    keys = ("x", "y", "width", "height", "size", "min_size", "radius", "stroke_width", "margin", "bleed",
            "card_size", "gap", "cell", "columns", "rows", "quantity", "min_type", "copies")
    found = [t for t in doc.pairs() if isinstance(t[2], yaml.ScalarNode) and t[2].value in keys] or doc.scalars()
    node, _, key = rng.choice(found)
    value = rng.choice(GEOMETRY)
    return f"{getattr(key, 'value', 'value')} at {doc.set(node, value)} set to {value[:40]}"


def _extends(doc: _Doc, rng) -> str:
    name = doc.path.stem
    target = rng.choice((name, "nonexistent", "../common/card", "/etc/passwd", "x" * 400, "card"))
    doc.text = re.sub(r"(?m)^extends:.*\n", "", doc.text)
    doc.text = f"extends: \"{target}\"\n" + doc.text
    return f"extends: {target[:40]}"


LAYOUT_OPS = dict(YAML_OPS, template=_template, geometry=_geometry, extends=_extends)


def _layouts_family(box: Sandbox, rng) -> Mutation:
    path = rng.choice(layout_files(box))
    roll = rng.random()
    if roll < 0.15:
        return byte_edit(box, path, rng, "layouts")
    if roll < 0.25:
        return file_edit(box, path, rng, "layouts")
    ops = LAYOUT_OPS if roll < 0.5 else {k: LAYOUT_OPS[k] for k in ("template", "geometry", "extends")}
    return yaml_edit(box, path, rng, "layouts", ops)


# -- rules ----------------------------------------------------------------------------------------------

NOT_EXPRESSIONS = {"id", "section", "description", "rulebook", "name", "group", "scope", "severity", "deck",
                   "table", "board"}


def _expression(doc: _Doc, rng) -> str:
    """Mostly an expression or template of a rule (assert, where, let, values, message...)."""
    strings = doc.scalars(True)
    aimed = [t for t in strings if t[2] is not None and t[2].value not in NOT_EXPRESSIONS]
    node, _, key = rng.choice(aimed if aimed and rng.random() < 0.85 else strings)
    label, text = rng.choice(EXPRESSIONS)
    return f"expression at {doc.set(node, _quoted(text))} replaced by {label}"


def _rules_family(box: Sandbox, rng) -> Mutation:
    path = box.game / "rules.yaml"
    if not path.is_file():  # a card set without rules of its own
        return _yaml_family(box, rng)
    roll = rng.random()
    if roll < 0.1:
        return byte_edit(box, path, rng, "rules")
    if roll < 0.15:
        return file_edit(box, path, rng, "rules")
    ops = dict(YAML_OPS) if roll < 0.55 else {"expression": _expression, "template": _template}
    return yaml_edit(box, path, rng, "rules", ops)


# -- icons and images -------------------------------------------------------------------------------------

def _svg_edit(box: Sandbox, path: Path, rng) -> Mutation:
    label, edit = rng.choice(SVG_EDITS)
    text = path.read_text("utf-8")
    new = edit(text, rng)
    path.write_bytes(new if isinstance(new, bytes) else new.encode("utf-8"))
    return Mutation("icons", "svg", box.rel(path), label)


def _image_frame(box: Sandbox, rng) -> Mutation:
    """An image frame added to a layout the game uses, showing images/fuzz.png of some kind."""
    candidates = [p for p in layout_files(box) if p.parent.name != "common" and "frames:" in p.read_text("utf-8")]
    layout = rng.choice(candidates)
    text = layout.read_text("utf-8")
    fit = rng.choice(("contain", "cover", "stretch"))
    frame = (f"  fuzz-image: {{type: image, x: 5mm, y: 5mm, width: 20mm, height: 20mm, "
             f"src: images/fuzz.png, fit: {fit}}}\n")
    text = re.sub(r"(?m)^frames:[ \t]*\n", lambda m: m.group(0) + frame, text, count=1)
    layout.write_text(text, "utf-8")
    kind = rng.choice(sorted(PNG_KINDS))
    (box.game / "images").mkdir(exist_ok=True)
    target = box.game / "images" / "fuzz.png"
    data = png_bytes(kind, rng)
    if data is None:
        target.mkdir()
    else:
        target.write_bytes(data)
    return Mutation("icons", "image", box.rel(target), f"{kind} PNG in a {fit} image frame of {box.rel(layout)}")


def _icons_family(box: Sandbox, rng) -> Mutation:
    icons = icon_files(box)
    if not icons or rng.random() < 0.3:
        return _image_frame(box, rng)
    path = rng.choice(icons)
    if rng.random() < 0.15:
        return file_edit(box, path, rng, "icons")
    return _svg_edit(box, path, rng)


_FAMILY = {"yaml": _yaml_family, "bytes": _bytes_family, "files": _files_family, "layouts": _layouts_family,
           "rules": _rules_family, "icons": _icons_family}


def pool(family: str, games: tuple[str, ...] = ALL) -> tuple[str, ...]:
    """The games a family mutates: force lists and tables only where there are some, rules only in
    the five games; sets, schemas and sheets anywhere (a game's decks are converted first)."""
    if family == "forces":
        from fuzz_formats import forces_pool
        found = tuple(g for g in games if g in forces_pool(games))
    elif family == "rules":
        found = tuple(g for g in games if g in GAMES)
    else:
        found = tuple(games)
    return found or tuple(games)


def plan(seed: int, games: tuple[str, ...] = ALL, build_every: int = 10,
         family: str | None = None) -> tuple[str, bool, str, random.Random]:
    """What input `seed` is: its family, its game, whether it builds (1 in build_every), and the rng
    of its mutation.  The same seed (with the same games and family) is always the same input."""
    rng = random.Random(seed)
    family = family or rng.choice(FAMILIES)
    game = rng.choice(pool(family, games))
    build = rng.randrange(build_every) == 0
    return game, build, family, rng
