"""Stage 1: load YAML files into plain data, remembering where every value came from.

PyYAML's safe composer builds the node tree (no Python objects, no tags that run
code); we turn nodes into dicts, lists and scalars ourselves so that we can
* record the source position of every value and every mapping key by JSON pointer,
* reject duplicate mapping keys (PyYAML silently keeps the last one),
* bound alias expansion and document size (a "billion laughs" file is an error).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from .yamlerrors import explain
from .jsonload import (NONCHARACTER_HELP, NUMBER_HELP, load_json, noncharacter, noncharacter_message,
                       pointer_join)  # noqa: F401  (pointer_join: used across the front end)

from ..lazy import lazy_module
from ..limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_NODES, depth_message, read_bounded  # noqa: F401  (names used by sheets, tests)
# libyaml's C composer recurses once per level and crashes the process (SIGSEGV) at some tens of
# thousands of levels; a file that could nest deeper than this is first scanned event by event.
_SCAN_ABOVE = 2000

yaml = lazy_module("yaml")  # a warm check takes every document from the disk cache and never parses YAML


def _safe_loader():
    """libyaml's safe loader when PyYAML was built with it (20x faster); its nodes carry the same marks."""
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Document:
    path: Path
    data: Any
    positions: dict[str, Position] = field(default_factory=dict)  # pointer -> value
    key_positions: dict[str, Position] = field(default_factory=dict)  # pointer -> its key

    def pos(self, pointer: str = "", key: bool = False) -> Position:
        """Position of the value at `pointer` (or of its key), else of the nearest parent."""
        table = self.key_positions if key else self.positions
        probe = pointer
        while True:
            if probe in table:
                return table[probe]
            if probe in self.positions:
                return self.positions[probe]
            if not probe:
                return Position(self.path, 1, 1)
            probe = probe.rsplit("/", 1)[0]


class _Limits(Exception):
    def __init__(self, message: str, mark, code: str = "E-YAML"):
        self.message, self.mark, self.code = message, mark, code


def _depth_bound(text: str) -> int:
    """An upper bound of a YAML text's nesting depth: every flow level opens with '[' or '{', and
    every block level either indents or starts with '- ' or '? ' on a line (at most two a column)."""
    longest = max((len(line) for line in text.splitlines()), default=0)
    return text.count("[") + text.count("{") + 2 * longest + 2


def too_deep(text: str, loader=None):
    """The mark where a YAML text nests deeper than MAX_DEPTH, or None; parsed event by event
    (libyaml's parser keeps its own stack, so this never recurses)."""
    loader = loader or _safe_loader()
    depth = 0
    opening = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
    closing = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, opening):
            depth += 1
            if depth > MAX_DEPTH:
                return event.start_mark
        elif isinstance(event, closing):
            depth -= 1
    return None




class _Builder:
    """Turns a composed node tree into plain data with positions."""

    def __init__(self, doc: Document, report: Report):
        self.doc, self.report = doc, report
        self.count = 0
        self.constructor = yaml.SafeLoader("")  # for scalar resolution only
        # A loader refers to itself (its parser's next state is one of its bound methods): without
        # that cycle, it and what it holds go as soon as the builder does, not at a full collection.
        self.constructor.dispose()
        self.active: set[int] = set()
        self.depth = 0

    def _pos(self, mark) -> Position:
        return Position(self.doc.path, mark.line + 1, mark.column + 1)

    def build(self, node, pointer: str) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _Limits(f"document expands to more than {MAX_NODES} values (alias bomb?)", node.start_mark)
        self.doc.positions.setdefault(pointer, self._pos(node.start_mark))
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if id(node) in self.active:
            raise _Limits("recursive alias: a node contains itself", node.start_mark)
        if self.depth >= MAX_DEPTH:
            raise _Limits(depth_message(), node.start_mark, "E-LIMIT")
        self.active.add(id(node))
        self.depth += 1
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, pointer_join(pointer, i)) for i, item in enumerate(node.value)]
            return self._mapping(node, pointer)
        finally:
            self.active.discard(id(node))
            self.depth -= 1

    def _scalar(self, node) -> Any:
        if node.tag == "tag:yaml.org,2002:timestamp":
            return node.value  # keep dates as written ("1943-08-17"), JSON has no date type
        if node.tag in ("tag:yaml.org,2002:binary",):
            return node.value
        if node.tag == "tag:yaml.org,2002:int" and sum(ch.isalnum() for ch in node.value) > MAX_INT_DIGITS + 2:
            self.report.error("E-LIMIT", f"integer of {len(node.value)} characters is larger than the limit of "
                              f"integer size ({MAX_INT_DIGITS} digits)", self._pos(node.start_mark),
                              help="write it as a string in quotes if it is an identifier, not a number")
            return 0
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError):
            return node.value
        finally:
            # It remembers every node it constructed (for aliases, which a scalar does not need):
            # 10,000 cards' scalars and their marks stayed alive until a full collection found them.
            self.constructor.constructed_objects.pop(node, None)
            self.constructor.recursive_objects.pop(node, None)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_INT_DIGITS:
            self.report.error("E-LIMIT", f"integer {value} is larger than the limit of integer size "
                              f"({MAX_INT_DIGITS} digits)", self._pos(node.start_mark),
                              help="write it as a string in quotes if it is an identifier, not a number")
            return 0
        if isinstance(value, float) and not math.isfinite(value):
            self.report.error("E-YAML", f"'{node.value[:40]}' is not a finite number", self._pos(node.start_mark),
                              help=NUMBER_HELP)
            return node.value
        if isinstance(value, str):
            bad = noncharacter(value)
            if bad is not None:
                self.report.error("E-YAML", noncharacter_message(value[bad]), self._pos(node.start_mark),
                                  help=NONCHARACTER_HELP)
                return value.replace(value[bad], "")
        return value

    def _mapping(self, node, pointer: str) -> dict:
        result: dict[str, Any] = {}
        first_seen: dict[str, Position] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.report.error(
                    "E-YAML", "merge keys ('<<') are not supported",
                    self._pos(key_node.start_mark),
                    help="write the keys out, or use a layout's 'extends'")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.report.error("E-YAML", "a mapping key must be a plain scalar", self._pos(key_node.start_mark))
                continue
            key = str(self._scalar(key_node))
            key_pos = self._pos(key_node.start_mark)
            if key in first_seen:
                first = first_seen[key]
                self.report.error(
                    "E-DUPLICATE-KEY", f"duplicate key '{key}' (first defined at line {first.line})",
                    key_pos, help="remove one of the two; YAML would silently keep only the last")
                continue
            first_seen[key] = key_pos
            child = pointer_join(pointer, key)
            self.doc.key_positions[child] = key_pos
            result[key] = self.build(value_node, child)
        return result


class FileMemo:
    """Loaded files remembered while they are unchanged (same size and modification time), with
    the diagnostics they gave: the preview server reloads a game after every save, and only the
    file that was saved needs reading again.  Off unless a long-running process turns it on."""

    def __init__(self):
        self.entries: dict[tuple, tuple[Document | None, list]] = {}

    @staticmethod
    def stamp(path: Path) -> tuple | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (str(path), st.st_mtime_ns, st.st_size)

    def forget(self, path: str) -> None:
        """Drop an older version of a file, and what was remembered about its document."""
        old = [key for key in self.entries if key[0] == path]
        docs = {id(self.entries[key][0]) for key in old}
        for key in old + [k for k in self.entries if k[0] == "valid" and k[1] in docs]:
            del self.entries[key]


file_memo: FileMemo | None = None


def load_yaml(path: Path, report: Report, display_name: Path | None = None) -> Document | None:
    """Load one YAML file (or a JSON file, by its .json suffix); problems go to `report`, and None
    means unusable."""
    path = Path(path)
    memo = file_memo
    key = memo.stamp(path) + (str(display_name),) if memo is not None and memo.stamp(path) else None
    if key is not None:
        if key in memo.entries:
            doc, items = memo.entries[key]
            report.items.extend(items)
            return doc
        scratch = Report()
        doc = _load_yaml(path, scratch, display_name)
        memo.forget(str(path))
        memo.entries[key] = (doc, list(scratch.items))
        report.items.extend(scratch.items)
        return doc
    return _cached_load(path, report, display_name)


def _cached_load(path: Path, report: Report, display_name: Path | None) -> Document | None:
    """_load_yaml, or the same Document from the disk cache (diskcache.py) when this file, with
    these bytes, was loaded cleanly before: unpickling is several times faster than composing
    the YAML and recording a position for every value.  Keyed by the file's path (positions name
    it) and bytes, and this module's source; a file that gave any diagnostic is not cached."""
    import pickle
    from .. import diskcache
    try:
        raw = read_bounded(path, MAX_FILE_BYTES)
    except OSError:
        raw = None
    if raw is None or len(raw) > MAX_FILE_BYTES:
        return _load_yaml(path, report, display_name)
    key = (diskcache.fingerprint(__file__, "yaml") + diskcache.fingerprint(str(Path(__file__).with_name("jsonload.py")))
           + diskcache.fingerprint(str(Path(__file__).parent.parent / "diagnostics.py"))  # Position's pickled form
           + f"{path}\0{display_name}\0".encode("utf-8", "surrogatepass") + raw)
    cached = diskcache.get("document", key)
    if cached:
        try:
            doc = pickle.loads(cached)
            if isinstance(doc, Document):
                return doc
        except Exception:  # a damaged entry is a miss
            pass
    scratch = Report()
    doc = _load_yaml(path, scratch, display_name, raw)  # these bytes: the key must be what was parsed
    report.items.extend(scratch.items)
    if doc is not None and not scratch.items:
        diskcache.put("document", key, pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
    return doc


def read_source(path: Path, report: Report, code: str = "E-YAML", encoding: str = "utf-8",
                help: str = "save the file as UTF-8", raw: bytes | None = None) -> str | None:
    """A source file's text: read only if it is a regular file within the file-size limit, and
    UTF-8 (`code` and `help` say what to do when it is not).  None after reporting why not."""
    try:
        raw = read_bounded(path, MAX_FILE_BYTES) if raw is None else raw
    except OSError as exc:
        report.error("E-IO", f"cannot read file: {exc.strerror}", Position(path, 1, 1))
        return None
    if len(raw) > MAX_FILE_BYTES:
        report.error("E-LIMIT", f"file is larger than the limit of file size ({MAX_FILE_BYTES // 1024 // 1024} MB)",
                     Position(path, 1, 1), help="split it into several files")
        return None
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        report.error(code, f"file is not UTF-8 (byte {exc.start})", Position(path, 1, 1), help=help)
        return None


def _load_yaml(path: Path, report: Report, display_name: Path | None = None,
               raw: bytes | None = None) -> Document | None:
    doc = Document(path=path, data=None)
    text = read_source(path, report, raw=raw)
    if text is None:
        return None
    if path.suffix.lower() == ".json":  # JSON as published: its own reader, with the same positions
        return doc if load_json(doc, text, report) else None
    return doc if parse_yaml(doc, text, report) else None


def parse_yaml(doc: Document, text: str, report: Report) -> bool:
    """Fill `doc` from YAML `text` (a file's, or a spreadsheet cell's); False after reporting why
    it is unusable.  Never recursion: a text that could nest deeper than MAX_DEPTH is scanned event
    by event first, by the same parser that then reads it."""
    path = doc.path
    node = None
    try:
        deep = too_deep(text) if _depth_bound(text) > _SCAN_ABOVE else None
        if deep is not None:
            report.error("E-LIMIT", depth_message(), Position(path, deep.line + 1, deep.column + 1),
                         help="a card game's data needs only a few levels; flatten it")
            return False
        node = yaml.compose(text, Loader=_safe_loader())
    except yaml.YAMLError:
        node = None  # parse again below with the pure-Python loader, whose messages say more
    if node is None and text.strip():
        try:  # the pure-Python composer recurses, once per level: scan first where it could go deep
            deep = too_deep(text, yaml.SafeLoader) if _depth_bound(text) > MAX_DEPTH else None
            if deep is not None:
                report.error("E-LIMIT", depth_message(), Position(path, deep.line + 1, deep.column + 1),
                             help="a card game's data needs only a few levels; flatten it")
                return False
            node = yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.MarkedYAMLError as exc:
            problem = exc.problem or "invalid YAML"
            plain = explain(problem, exc.context, exc.problem_mark, exc.context_mark, text.splitlines())
            if plain is not None:
                report.error("E-YAML", plain.message, Position(path, plain.line, plain.col), help=plain.help)
                return False
            mark = exc.problem_mark or exc.context_mark
            pos = Position(path, mark.line + 1, mark.column + 1) if mark else Position(path, 1, 1)
            context = f" ({exc.context})" if exc.context else ""
            report.error("E-YAML", f"YAML syntax error: {problem}{context}", pos,
                         help="check indentation, colons and quotes on this line and the one above")
            return False
        except yaml.YAMLError as exc:
            report.error("E-YAML", f"YAML error: {exc}", _reader_position(path, text, exc))
            return False
    if node is None:
        doc.data = {}
        return True
    try:
        doc.data = _Builder(doc, report).build(node, "")
    except _Limits as exc:
        report.error(exc.code, exc.message, Position(path, exc.mark.line + 1, exc.mark.column + 1))
        return False
    except RecursionError:  # cannot happen below MAX_DEPTH; kept as a guard
        report.error("E-LIMIT", depth_message(), Position(path, 1, 1))
        return False
    return True


def _reader_position(path: Path, text: str, exc: Exception) -> Position:
    """Where PyYAML's reader stopped (an unacceptable character), as a line and column."""
    index = getattr(exc, "position", None)
    if not isinstance(index, int) or not 0 <= index <= len(text):
        return Position(path, 1, 1)
    line = text.count("\n", 0, index) + 1
    return Position(path, line, index - (text.rfind("\n", 0, index) + 1) + 1)
