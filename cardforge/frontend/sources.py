"""Card files as their communities publish them, read into the cards of one deck.

A deck's `cards:` names files, folders or globs inside the game folder.  A file is YAML or JSON
and holds a mapping with `cards:`, a bare list of cards, or (read from a folder or a glob) one
card.  The deck may then map each card as published to its own fields:

    id_from: code                     # the card's id is its `code`
    rename: {type_code: type}         # published name -> the deck's name
    drop: [illustrator]               # published fields left out
    join:                             # fields from another file, matched by key
      - file: packs/core.json         # a list of rows (or {cards: [...]}, or {key: value})
        key: code                     # the row field naming the card
        fields: [quantity]            # copied from the row (a mapping renames: {qty: quantity})

Every mapped value keeps the position of its source (the card file, or the pack file for a
joined value): a MappedDocument answers positions by looking them up where the value came from.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from .load import Document, load_yaml, pointer_join

CARD_SUFFIXES = (".yaml", ".yml", ".json")
GLOB_CHARS = "*?["


@dataclass
class Record:
    """One card as published: its data, the document it is in and its JSON pointer there."""
    data: dict
    doc: Document
    pointer: str


class MappedDocument(Document):
    """The cards of one source file after mapping, as a document `{cards: [...]}` whose positions
    are those of the values' sources.  `routes[i]` maps a card field to (document, pointer)."""

    def __init__(self, path: Path, cards: list[dict], routes: list[dict[str, tuple[Document, str]]]):
        super().__init__(path=path, data={"cards": cards})
        self.routes = routes

    def pos(self, pointer: str = "", key: bool = False) -> Position:
        parts = pointer.split("/")
        if len(parts) >= 3 and parts[1] == "cards" and parts[2].isdigit() and int(parts[2]) < len(self.routes):
            route = self.routes[int(parts[2])]
            if len(parts) >= 4:
                name = parts[3].replace("~1", "/").replace("~0", "~")
                if name in route:
                    doc, base = route[name]
                    return doc.pos(base + "".join("/" + p for p in parts[4:]), key=key)
            doc, base = route[""]
            return doc.pos(base)
        return Position(self.path, 1, 1)


def is_pattern(rel: str) -> bool:
    return any(ch in rel for ch in GLOB_CHARS)


def expand(root: Path, rel: str, safe_path) -> tuple[list[Path], bool, str | None]:
    """The card files `rel` names: (files, read_as_many, problem).  `read_as_many` is true for a
    folder or glob, whose files may each hold a single card."""
    if is_pattern(rel):
        if Path(rel).is_absolute() or ".." in Path(rel).parts or "\\" in rel:
            return [], True, "outside"
        base = root.resolve()
        found = []
        try:
            matches = sorted(root.glob(rel))
        except ValueError as exc:  # pathlib refuses some patterns: 'a**b' ("'**' can only be an entire path component")
            return [], True, "pattern:" + str(exc).removeprefix("Invalid pattern: ")
        for path in matches:
            inside = safe_path(root, path.relative_to(root).as_posix())
            if inside is not None and path.is_file() and path.suffix.lower() in CARD_SUFFIXES:
                found.append(path)
            elif inside is None and path.resolve() != base:
                return [], True, "link:" + path.relative_to(root).as_posix()
        return found, True, None if found else "no-match"
    path = safe_path(root, rel.rstrip("/") or ".")
    if path is None:
        return [], False, "outside"
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in CARD_SUFFIXES
                       and not p.name.startswith("."))
        for file in found:  # a symbolic link in the folder to a file elsewhere is not read
            inside = file.relative_to(root.resolve()).as_posix()
            if safe_path(root, inside) is None:
                return [], True, "link:" + inside
        return found, True, None if found else "empty-folder"
    if not path.is_file():
        return [], False, "missing"
    return [path], False, None


def records(doc: Document, many: bool, report: Report) -> list[Record] | None:
    """The cards a loaded file holds, in any of the published shapes; None after reporting why not."""
    data = doc.data
    if isinstance(data, list):
        return [Record(item, doc, f"/{i}") for i, item in enumerate(data) if _is_card(item, doc, f"/{i}", report)]
    if isinstance(data, dict) and "cards" in data:
        cards = data["cards"]
        unknown = [k for k in data if k not in ("cards", "$schema")]
        for key in unknown:
            report.error("E-SCHEMA", f"unknown key '{key}' next to 'cards'", doc.pos(f"/{key}", key=True),
                         help="a card file holds 'cards:' (and optionally '$schema:'); put card fields in the cards")
        if not isinstance(cards, list):
            report.error("E-SCHEMA", f"'cards' must be a list of cards, got {_kind(cards)}", doc.pos("/cards"),
                         help="write each card as an item of the list: '- id: ...'")
            return None
        if unknown:
            return None
        return [Record(item, doc, f"/cards/{i}") for i, item in enumerate(cards)
                if _is_card(item, doc, f"/cards/{i}", report)]
    if isinstance(data, dict) and many and data:
        return [Record(data, doc, "")]
    if isinstance(data, dict):
        report.error("E-SCHEMA", "missing required key 'cards'" if data else "the file holds no cards", doc.pos(""),
                     help="a card file is a mapping with 'cards:' or a list of cards; to read one card per file, "
                     "name their folder or a glob such as 'cards/*.json' in game.yaml")
        return None
    report.error("E-SCHEMA", f"expected a mapping with 'cards:' or a list of cards, got {_kind(data)}", doc.pos(""),
                 help="write 'cards:' followed by the list of cards")
    return None


def _is_card(item: Any, doc: Document, pointer: str, report: Report) -> bool:
    if isinstance(item, dict):
        return True
    report.error("E-SCHEMA", f"a card is a mapping of fields, got {_kind(item)}", doc.pos(pointer),
                 help="write the card's fields as 'key: value' pairs")
    return False


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "a boolean", int: "a number",
            float: "a number", type(None): "nothing"}.get(type(value), type(value).__name__)


# -- mapping -------------------------------------------------------------------------------------

@dataclass
class Join:
    """One `join:` entry of a deck, loaded: rows by key, each with where it is."""
    file: str
    key: str
    on: str  # the card's published field the key matches
    fields: dict[str, str]  # row field -> card field
    doc: Document | None
    pointer: str  # of the entry in game.yaml
    rows: dict[str, tuple[dict, str]] = field(default_factory=dict)  # key -> (row, its pointer)
    key_pointers: dict[str, str] = field(default_factory=dict)  # key -> pointer of the key's value
    matched: set[str] = field(default_factory=set)
    by_key: bool = False  # a mapping of key -> value: a row is pointed at by its key


@dataclass
class Mapping:
    id_from: str | None = None
    rename: dict[str, str] = field(default_factory=dict)
    drop: list[str] = field(default_factory=list)
    joins: list[Join] = field(default_factory=list)
    exclude: Any = None  # a RecordFilter (recordfilter.py): records left out before they are cards

    @property
    def identity(self) -> bool:
        return not (self.id_from or self.rename or self.drop or self.joins)

    def targets(self) -> list[str]:
        """Card fields the mapping itself creates (renamed and joined fields)."""
        names = list(self.rename.values())
        for join in self.joins:
            names += [n for n in join.fields.values() if n not in names]
        return names

    def apply(self, record: Record) -> tuple[dict, dict[str, tuple[Document, str]]]:
        """The card as the deck sees it, and where each of its fields came from."""
        card: dict[str, Any] = {}
        routes: dict[str, tuple[Document, str]] = {"": (record.doc, record.pointer)}
        for name, value in record.data.items():
            if name in self.drop or (self.id_from and name == "id" and "id" not in self.rename):
                continue
            target = self.rename.get(name, name)
            card[target] = value
            routes[target] = (record.doc, pointer_join(record.pointer, name))
        for join in self.joins:
            match = record.data.get(join.on)
            key = _key(match)
            if key is None or key not in join.rows:
                continue
            join.matched.add(key)
            row, row_pointer = join.rows[key]
            for source, target in join.fields.items():
                if isinstance(row, dict):
                    if source in row:
                        card[target] = row[source]
                        routes[target] = (join.doc, pointer_join(row_pointer, source))
                else:  # a pack file of key: value
                    card[target] = row
                    routes[target] = (join.doc, row_pointer)
        if self.id_from:
            value = record.data.get(self.id_from)
            if value is not None:
                card["id"] = _key(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else value
                routes["id"] = (record.doc, pointer_join(record.pointer, self.id_from))
        return card, routes


def _key(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    return str(value)


def load_mapping(root: Path, deck: dict, game_doc: Document, pointer: str, report: Report, safe_path,
                 documents: list[Document]) -> Mapping | None:
    """The deck's mapping, with its join files loaded; None after reporting a problem."""
    mapping = Mapping(id_from=deck.get("id_from"), rename=dict(deck.get("rename") or {}),
                      drop=list(deck.get("drop") or []))
    ok = True
    if isinstance(deck.get("exclude"), str):
        from .recordfilter import RecordFilter
        mapping.exclude = RecordFilter.load(deck["exclude"], game_doc, f"{pointer}/exclude", report)
        ok = mapping.exclude is not None
    for j_index, spec in enumerate(deck.get("join") or []):
        at = f"{pointer}/join/{j_index}"
        rel = spec["file"]
        path = safe_path(root, rel)
        if path is None:
            report.error("E-PATH", f"join file '{rel}' is outside the game folder", game_doc.pos(f"{at}/file"),
                         help="files a deck reads must lie inside the game folder")
            ok = False
            continue
        if not path.is_file():
            report.error("E-MISSING-FILE", f"join file '{rel}' does not exist", game_doc.pos(f"{at}/file"),
                         help="check the file name, relative to the folder of game.yaml")
            ok = False
            continue
        doc = load_yaml(path, report)
        if doc is None:
            ok = False
            continue
        documents.append(doc)
        wanted = spec.get("fields", ["quantity"])
        fields = {name: name for name in wanted} if isinstance(wanted, list) else dict(wanted)
        join = Join(rel, spec["key"], spec.get("match", mapping.id_from or "id"), fields, doc, at)
        ok = _rows(join, report) and ok
        mapping.joins.append(join)
    return mapping if ok else None


def _rows(join: Join, report: Report) -> bool:
    doc, data = join.doc, join.doc.data
    base = ""
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data, base = data["cards"], "/cards"
    if isinstance(data, dict):  # key: value, or key: row
        join.by_key = True
        for key, row in data.items():
            join.rows[str(key)] = (row, pointer_join("", key))
            join.key_pointers[str(key)] = pointer_join("", key)
        return True
    if not isinstance(data, list):
        report.error("E-JOIN", f"a join file holds a list of rows or a mapping by key, got {_kind(data)}",
                     doc.pos(""), help=f"write one row per card, each with its '{join.key}'")
        return False
    ok = True
    for i, row in enumerate(data):
        row_pointer = f"{base}/{i}"
        if not isinstance(row, dict) or join.key not in row:
            report.error("E-JOIN", f"row {i + 1} has no '{join.key}' naming its card", doc.pos(row_pointer),
                         help=f"each row names its card with '{join.key}' (the deck's join 'key')")
            ok = False
            continue
        key = _key(row[join.key])
        key_pointer = pointer_join(row_pointer, join.key)
        if key is None:
            report.error("E-JOIN", f"'{join.key}' must be text or a number", doc.pos(key_pointer))
            ok = False
        elif key in join.rows:
            first = doc.pos(join.key_pointers[key])
            report.error("E-JOIN", f"card '{key}' is listed twice (first at line {first.line})",
                         doc.pos(key_pointer), help="list each card once, with its total")
            ok = False
        else:
            join.rows[key] = (row, row_pointer)
            join.key_pointers[key] = key_pointer
    return ok


def check_mapping(mapping: Mapping, seen: dict[str, int], total: int, game_doc: Document, pointer: str,
                  report: Report) -> None:
    """Names in the deck's mapping that no card has (a typo maps nothing): warnings, with a guess.
    `seen` counts the cards that have each published field."""
    if not total:
        return
    names = sorted(seen)
    checks = [("rename", name, pointer_join(f"{pointer}/rename", name), True) for name in mapping.rename]
    checks += [("drop", name, f"{pointer}/drop/{i}", False) for i, name in enumerate(mapping.drop)]
    for what, name, at, key in checks:
        if name in seen:
            continue
        guess = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        report.warning("W-MAPPING", f"{what} names '{name}', which no card of the deck has"
                       + (f", did you mean '{guess[0]}'?" if guess else ""), game_doc.pos(at, key=key),
                       help=f"the cards have: {', '.join(names[:12])}{' ...' if len(names) > 12 else ''}")


def check_joins(mapping: Mapping, deck_id: str, known: list[str], report: Report) -> None:
    """A row of a join file naming a card the deck does not have is an error at that row."""
    for join in mapping.joins:
        for key, pointer in join.key_pointers.items():
            if key in join.matched:
                continue
            guess = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            report.error("E-JOIN", f"'{key}' names no card of deck '{deck_id}' (matched by '{join.on}')",
                         join.doc.pos(pointer, key=join.by_key),
                         help=(f"did you mean '{guess[0]}'? " if guess else "") +
                         f"every row of {join.file} must name a card of the deck")
