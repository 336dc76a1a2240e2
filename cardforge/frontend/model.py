"""Stage 3: resolve a game folder into the model: the game, its decks and their cards.

Reads game.yaml and the card files it names, validates each against its schema
(a deck's cards against the fields the deck declares), and keeps for every card
the document and JSON pointer it came from, so later stages can point at it.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import ContentError, Position, Report, clipped, display_path
from .load import Document, load_yaml, pointer_join
from .pieces import TemplatePiece, load_templates
from .forces import load_force, load_forces
from .tables import TableRows, load_tables
from .version_mark import VersionMark, load_version_mark
from .sheets import is_sheet, load_sheet, validate_sheet, split_sheet
from .schema import (builtin_schema, card_schema, file_schema, known_valid, remember_valid, schema_key,
                     valid_field_schemas, validate, validate_card, validator)
from .sources import MappedDocument, check_joins, check_mapping, expand, load_mapping, records
from ..limits import MAX_COPIES
from ..units import CARD_SIZES, MM, length

GAME_FILE = "game.yaml"
DEFAULT_BLEED = "3mm"


@dataclass
class Card:
    id: str
    deck: "Deck"
    data: dict[str, Any]  # the card's fields (a Fields: a declared field the card leaves out is absent)
    quantity: int
    front: str
    back: str | None
    doc: Document
    pointer: str  # JSON pointer of the card in its file
    # Template values rendered for this card, shared by every stage that evaluates its faces
    # (the rules' asset checks, check's layout, each paper's drawing): see render/face.py.
    rendered: dict = field(default_factory=dict, repr=False, compare=False)
    # For a card of a view deck: the record it shows (its data is the record's own dict, so derived
    # fields and edits reach every component printed from it). None for a card written in a file.
    source: "Card | None" = field(default=None, repr=False, compare=False)
    # Fields with schema errors (already reported): left out, so a face that reads them is not
    # reported again for what follows from that error (an empty icon name, say).
    invalid: frozenset = frozenset()

    def pos(self, key: str | None = None) -> Position:
        return self.doc.pos(pointer_join(self.pointer, key) if key else self.pointer)

    def reads_invalid(self, sources) -> bool:
        """Whether templates (their sources) read a field of this card that has schema errors."""
        return bool(self.invalid) and any(f"card.{name}" in src or f"card['{name}']" in src
                                          or f'card["{name}"]' in src for src in sources for name in self.invalid)

    @property
    def entry(self) -> dict[str, Any]:
        """The card's entry as its file (after mapping) gives it: the keys it sets itself."""
        return self.doc.data["cards"][int(self.pointer.rsplit("/", 1)[1])]

    def context(self) -> dict[str, Any]:
        """What this card's templates see, besides `game`, `side` and `copy`."""
        return {"card": self.data, "deck": {"id": self.deck.id, "name": self.deck.name}}

    def copy_context(self, copy: int) -> dict[str, Any]:
        """A numbered series (C14): copy 1..quantity is `number` from..to within each `variant`
        (`series: {from: 1, to: 30}` with `variants: [{side: red}, {side: blue}]` is 60 pieces)."""
        series, variants = self.data.get("series"), self.data.get("variants")
        if not series and not variants:
            return {}
        start, stop = (series["from"], series["to"]) if series else (1, 1)
        count = stop - start + 1
        index = (copy - 1) % (count * len(variants or [None]))
        variant = (variants or [{}])[index // count]
        return {"number": start + index % count, "variant": variant}


@dataclass
class Deck:
    """A deck of cards, or a sheet of tokens: pieces of one size printed in quantities."""
    id: str
    name: str
    front: str
    back: str | None
    width: float  # points
    height: float
    fields: dict[str, Any]
    cards: list[Card] = field(default_factory=list)
    pointer: str = ""
    component: str = "cards"  # "cards" or "tokens"
    shape: str = "rect"  # rect, round, triangle
    gap: float = 0.0
    bleed: float = 0.0
    mode: str | None = None  # overrides the build's print mode
    view: str | None = None  # the id of the deck whose records this deck prints again (C7)
    quantity: int | str | None = None  # a view's copies per record: a number or a field name
    declared: list[str] = field(default_factory=list)  # every field a card may have (fields, set schema, mapping)
    excluded: int = 0  # records its `exclude:` left out


@dataclass
class Board:
    """A single large piece (board, mat, reference sheet) drawn from a layout and its data."""
    id: str
    name: str
    layout: str
    width: float
    height: float
    data: dict[str, Any]
    doc: Document
    pointer: str
    component: str = "boards"  # "boards" or "references"
    rendered: dict = field(default_factory=dict, repr=False, compare=False)  # as Card.rendered

    def pos(self, key: str | None = None) -> Position:
        return self.doc.pos(pointer_join(self.pointer, key) if key else self.pointer)

    def context(self) -> dict[str, Any]:
        return {"board": self.data}


@dataclass
class Game:
    id: str
    name: str
    root: Path
    data: dict[str, Any]
    doc: Document
    bleed: float
    min_type: float = 6.0  # points: the smallest type a layout may set
    decks: list[Deck] = field(default_factory=list)  # cards and tokens
    boards: list[Board] = field(default_factory=list)  # boards and reference sheets
    documents: list[Document] = field(default_factory=list)
    tables: dict[str, TableRows] = field(default_factory=dict)  # name -> rows (typed or bare)
    templates: list[TemplatePiece] = field(default_factory=list)  # true-scale pieces
    forces: list = field(default_factory=list)  # force lists (frontend/forces.py), checked by the rules
    complete: bool = True  # False when a card file, or a card, could not be read in full
    version_mark: VersionMark = field(default_factory=VersionMark)  # drawn when its `show` is always
    lang: str | None = None  # the language printed: its overlay (frontend/translations.py) is merged in
    overlay: Any = None

    def cards(self) -> list[Card]:
        """Every printed piece of every deck, the cards of view decks included."""
        return [card for deck in self.decks for card in deck.cards]

    def records(self) -> list[Card]:
        """Every card written in a card file, once: what the rules check (views print records again)."""
        return [card for deck in self.decks if deck.view is None for card in deck.cards]

    def component(self, name: str) -> list:
        """The decks ("cards", "tokens") or boards ("boards", "references") of one kind, in order."""
        pool = self.boards if name in ("boards", "references") else self.decks
        return [item for item in pool if item.component == name]

    def template_data(self) -> dict[str, Any]:
        keys = ("id", "name", "subtitle", "designer", "version", "credits")
        info = {k: self.data.get(k) for k in keys}
        info["tables"] = self.tables
        return info


MAX_PATH, MAX_NAME = 1024, 255  # characters of a relative path, bytes of one of its names


def safe_path(root: Path, relative: str) -> Path | None:
    """`relative` resolved inside `root`, or None if it would leave it (.., absolute, symlink)."""
    if not relative or Path(relative).is_absolute() or "\\" in relative or "\x00" in relative:
        return None
    if len(relative) > MAX_PATH or any(len(part.encode("utf-8", "replace")) > MAX_NAME for part in Path(relative).parts):
        return None  # the file system would refuse the name ("File name too long")
    root = root.resolve()
    try:
        candidate = (root / relative).resolve()
    except (RuntimeError, OSError):  # a symbolic-link loop: it names no file (is_file() is False)
        candidate = Path(os.path.normpath(root / relative))
    try:
        candidate.relative_to(root)
    except ValueError:
        return None
    return candidate


def size_points(value: Any, default: str = "poker") -> tuple[float, float]:
    value = default if value is None else value
    if isinstance(value, str):
        w, h = CARD_SIZES[value]
        return w * MM, h * MM
    return length(value["width"]), length(value["height"])


def load_game(root: Path, report: Report, force_files: list[Path] | None = None, lang: str | None = None) -> Game:
    """Load and validate a game folder. Raises ContentError when nothing usable is left.
    With `force_files`, those force lists (a player's own) are checked instead of the shipped ones.
    With `lang`, that language's overlay replaces the fields it translates (frontend/translations.py)."""
    root = Path(root)
    game_path = root / GAME_FILE
    if not game_path.is_file():
        report.error("E-NO-GAME", f"no {GAME_FILE} in {root}", Position(game_path, 1, 1),
                     help=f"a game folder holds a {GAME_FILE} naming its decks and card files")
        raise ContentError(report)
    if safe_path(root, GAME_FILE) is None:  # never quote a file from outside in a diagnostic
        report.error("E-PATH", f"{GAME_FILE} is a symbolic link to a file outside the game folder",
                     Position(game_path, 1, 1, quote=False), help=f"copy the file into the game folder as {GAME_FILE}")
        raise ContentError(report)
    doc = load_yaml(game_path, report)
    if doc is None or not isinstance(doc.data, dict):
        if doc is not None:
            validate(doc, builtin_schema("game"), report)
        raise ContentError(report)
    valid = validate(doc, builtin_schema("game"), report)
    data = doc.data if valid else _valid_settings(doc.data)
    # A mistake elsewhere in game.yaml must not hide the mistakes in the card files: keep
    # loading every deck and board that is itself valid (the build fails on the error anyway).
    usable = (lambda item, kind: True) if valid else _usable
    try:
        bleed = length(data.get("bleed", DEFAULT_BLEED))
    except ValueError:
        bleed = length(DEFAULT_BLEED)
    try:
        min_type = length(data.get("min_type", "6pt"))
    except ValueError:
        min_type = 6.0
    game = Game(id=str(data.get("id", root.name)), name=str(data.get("name", root.name)), root=root, data=data,
                doc=doc, bleed=bleed, min_type=min_type)
    game.documents.append(doc)
    if lang is not None:
        from .translations import load_overlay
        game.lang, game.overlay = lang, load_overlay(root, data, doc, lang, report, safe_path, game.documents)
        if game.overlay is None:
            raise ContentError(report)
    elif data.get("languages"):
        from .translations import check_overlay_syntax
        check_overlay_syntax(root, data, report, safe_path)
    game.version_mark = load_version_mark(data, doc, min_type, report)
    game.tables = load_tables(root, doc, report, game.documents, safe_path, checked=valid)
    if game.overlay is not None:  # a translation's table rows (the reference sheet's text)
        from .translations import translate_tables
        game.tables = translate_tables(game.overlay, game.tables, report)
    if valid:  # (an invalid piece is already reported; its sizes cannot be trusted)
        game.templates = load_templates(data, doc, game.tables, report)
    seen_ids: dict[str, Card] = {}
    for component, key in (("cards", "decks"), ("tokens", "tokens")):
        for d_index, deck_data in enumerate(_list(data.get(key))):
            if usable(deck_data, "deck") and (valid or usable(data.get("card_size", "poker"), "size")):
                _load_deck(game, component, f"/{key}/{d_index}", deck_data, seen_ids, report)
    if game.overlay is not None and game.complete:
        from .translations import check_unmatched
        check_unmatched(game.overlay, list(seen_ids), report)
    _resolve_views(game, report)
    for deck in game.decks:
        # An empty deck would build to nothing without a word (after errors its cards may just be left out).
        if not deck.cards and not report.has_errors():
            what = "token sheet" if deck.component == "tokens" else "deck"
            if deck.excluded:  # a misspelt field is undefined: the filter then holds for every record
                report.warning("W-EMPTY-DECK", f"{what} '{deck.id}' has no cards: its exclude leaves out "
                               f"all {deck.excluded} of its records", game.doc.pos(deck.pointer + "/exclude"),
                               help="check the field names it tests: 'record' is the record as published, "
                               "'card' the deck's card with its joined fields")
                continue
            report.warning("W-EMPTY-DECK", f"{what} '{deck.id}' has no cards, so nothing of it is printed",
                           game.doc.pos(deck.pointer + ("/view" if deck.view else "/cards")),
                           help="add cards to its card files, or remove it from game.yaml")
    _check_copies(game, report)
    game.forces = load_forces(game, report, safe_path)
    if force_files is not None:  # a player's own forces are checked instead of the shipped ones
        game.forces = [f for f in (load_force(Path(p), report, shipped=False) for p in force_files) if f is not None]
        game.documents += [f.doc for f in game.forces]
    for component in ("boards", "references"):
        for b_index, board in enumerate(_list(data.get(component))):
            if not usable(board, "board"):
                continue
            width, height = size_points(board["size"])
            if not _has_area(width, height, "board" if component == "boards" else "reference sheet",
                             doc.pos(f"/{component}/{b_index}/size"), report):
                continue
            pointer, placed = f"/{component}/{b_index}", doc
            if game.overlay is not None:  # its translated data and name (frontend/translations.py)
                from .translations import translate_sheet
                board, placed = translate_sheet(game.overlay, component, board, doc, pointer, report)
            game.boards.append(Board(board["id"], board.get("name", board["id"]), board["layout"], width, height,
                                     board.get("data", {}), placed, pointer, component))
    if game.overlay is not None:  # deck and sheet names, printed on the cover, the guide and each footer
        from .translations import check_unmatched_sheets
        check_unmatched_sheets(game.overlay, {c: [str(b.get("id")) for b in _list(data.get(c)) if isinstance(b, dict)]
                                              for c in ("boards", "references")}, report)
        for item in game.decks + game.boards:
            item.name = game.overlay.strings.get(item.name, item.name)
    return game


def _has_area(width: float, height: float, noun: str, at, report: Report) -> bool:
    """Whether a piece has an area. One of none would have every frame 'outside' it, and a sheet of
    them, without bleed or gap, no room per piece (a division by zero); it is one error at its size."""
    if width > 0 and height > 0:
        return True
    if not any(d.code == "E-SIZE" and d.position == at for d in report.items):  # card_size is shared
        example = "{width: 420mm, height: 297mm}" if noun in ("board", "reference sheet") else \
            "{width: 63mm, height: 88mm}, or a named size such as poker"
        report.error("E-SIZE", f"a {noun} size of {width / MM:g} x {height / MM:g} mm has no area", at,
                     help=f"give a width and a height above 0, e.g. {example}")
    return False


def _check_copies(game: Game, report: Report) -> None:
    """The printed pieces of a game (copies, series numbers, variants) are bounded: a typo such as
    `quantity: 1000` on every card or `series: {from: 1, to: 1000000000}` must not hang the build.
    The card that crosses the limit is reported."""
    total = 0
    for deck in game.decks:
        for card in deck.cards:
            total += card.quantity
            if total > MAX_COPIES:
                report.error("E-LIMIT", f"the game has more than the limit of {MAX_COPIES} printed pieces "
                             f"(card copies, series numbers and variants) at card '{card.id}'",
                             card.pos("series" if "series" in card.data else "quantity"), card=card.id,
                             help="check this card's quantity or series; a printed game has far fewer pieces")
                game.complete = False
                for every in (c for d in game.decks for c in d.cards):
                    every.quantity = 0  # nothing is drawn: the build fails on the error anyway
                return


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


GAME_SCHEMA = "https://cardforge.dev/schemas/game.schema.json"
# Keys of game.yaml whose items are each checked on their own (_usable, load_tables, load_forces).
_ITEMIZED = ("decks", "tokens", "boards", "references", "tables", "forces")


def _valid_settings(data: dict) -> dict:
    """An invalid game.yaml without its invalid settings (`credits: [{a: b}]`, `markup: {symbols: x}`):
    their errors are reported, and what is drawn and checked next must not meet a wrong type."""
    kept, known = {}, builtin_schema("game")["properties"]
    for key, value in data.items():
        if key in _ITEMIZED:
            kept[key] = value
        elif key in known and validator({"$ref": f"{GAME_SCHEMA}#/properties/{key}"}).is_valid(value):
            kept[key] = value
    return kept


def _usable(item: Any, kind: str) -> bool:
    """Whether one part of an invalid game.yaml is valid on its own (its errors are already reported)."""
    schema = {"$ref": f"https://cardforge.dev/schemas/game.schema.json#/$defs/{kind}"}
    return validator(schema).is_valid(item)


def _load_deck(game: Game, component: str, pointer: str, deck_data: dict, seen_ids: dict[str, Card],
               report: Report) -> None:
    doc, data, root = game.doc, game.data, game.root
    width, height = size_points(deck_data.get("size", data.get("card_size")))
    own = "size" in deck_data
    if not _has_area(width, height, "token" if own and component == "tokens" else "card",
                     doc.pos(f"{pointer}/size" if own else "/card_size"), report):
        return
    fields = deck_data.get("fields", {})
    bleed = length(deck_data["bleed"]) if "bleed" in deck_data else game.bleed
    deck = Deck(id=deck_data["id"], name=deck_data.get("name", deck_data["id"]),
                front=deck_data["front"], back=deck_data.get("back"),
                width=width, height=height, fields=fields, pointer=pointer, component=component,
                shape=deck_data.get("shape", "rect"), gap=length(deck_data.get("gap", 0)), bleed=bleed,
                mode=deck_data.get("mode"))
    game.decks.append(deck)
    if "view" in deck_data:
        deck.view, deck.quantity = deck_data["view"], deck_data.get("quantity")
        if fields:
            report.error("E-VIEW", f"deck '{deck.id}' is a view of '{deck.view}', so it has no fields of its own",
                         doc.pos(pointer + "/fields"), help="a view prints the records of its deck with that "
                         "deck's fields; declare the fields there")
        return
    if "quantity" in deck_data:
        report.error("E-VIEW", f"deck '{deck.id}' sets a quantity, but only a view deck can",
                     doc.pos(pointer + "/quantity"), help="give each card its own quantity, or make this deck a "
                     "`view:` of another deck")
    # A field whose own schema is wrong is reported and left unchecked: the cards are still read,
    # so that their other mistakes show too.
    valid_fields = valid_field_schemas(fields, doc, pointer + "/fields", report)
    set_schema = None
    if "schema" in deck_data:
        from .setschema import load_set_schema  # jsonschema's own machinery: only for a set's schema
        set_schema = load_set_schema(root, deck_data["schema"], doc, f"{pointer}/schema", report, safe_path,
                                     game.documents)
        if set_schema is None:
            game.complete = False
            return
    mapping = load_mapping(root, deck_data, doc, pointer, report, safe_path, game.documents)
    if mapping is None:
        game.complete = False
        return
    if game.overlay is not None:
        from ..layout.markup import dialect_for  # the deck's symbols, for the translations' icon parity
        game.overlay.use_deck(mapping.id_from or "id", dialect_for(data, deck_data, pointer), root / "icons")
    published = set_schema.property_names() if set_schema is not None else []
    deck.declared = list(dict.fromkeys(list(fields) + [mapping.rename.get(n, n) for n in published
                                                       if n not in mapping.drop] + mapping.targets()))
    schema = card_schema({k: (v if k in valid_fields else {}) for k, v in fields.items()},
                         deck_data.get("required", []), open_=set_schema is not None)
    specs = deck_data["cards"]
    specs = [specs] if isinstance(specs, str) else specs
    keys: list[str] = []  # the values joins match on, for did-you-mean
    seen: dict[str, int] = {}  # published field -> how many cards have it
    total = 0
    complete_before, game.complete = game.complete, True  # from here: did every file and card of this deck load?
    for f_index, rel in enumerate(specs):
        file_pointer = f"{pointer}/cards" + ("" if isinstance(deck_data["cards"], str) else f"/{f_index}")
        rel, sheet = split_sheet(rel) if is_sheet(rel) else (rel, None)
        paths, many, problem = expand(root, rel, safe_path)
        if problem is not None:
            game.complete = False
            _report_source(problem, rel, doc.pos(file_pointer), report)
            continue
        for path in paths:
            if is_sheet(path.name):  # a .csv or .xlsx file, typed by the deck's fields (frontend/sheets.py)
                card_doc = load_sheet(path, sheet, schema["properties"], [deck.id, deck.name], report,
                                      doc.pos(file_pointer))
                if card_doc is not None and not validate_sheet(card_doc, file_schema(schema), report):
                    game.documents.append(card_doc)
                    game.complete = False
                    continue
            else:
                card_doc = load_yaml(path, report)
            if card_doc is None:
                game.complete = False
                continue
            game.documents.append(card_doc)
            found = records(card_doc, many, report)
            if found is None:
                game.complete = False
                continue
            _read_cards(game, deck, card_doc, found, mapping, set_schema, schema, seen_ids, keys, report)
            for record in found:
                total += 1
                for name in record.data:
                    seen[name] = seen.get(name, 0) + 1
    check_mapping(mapping, seen, total, doc, pointer, report)
    deck.excluded = mapping.exclude.left_out if mapping.exclude is not None else 0
    if game.complete:  # every file and card of this deck loaded; else rows would name cards missing for that
        check_joins(mapping, deck.id, keys, report)
    game.complete = game.complete and complete_before


def _report_source(problem: str, rel: str, at: Position, report: Report) -> None:
    rel = clipped(rel)
    if problem == "outside":
        report.error("E-PATH", f"card file '{rel}' is outside the game folder", at,
                     help="card files must lie inside the game folder")
    elif problem.startswith("link:"):
        report.error("E-PATH", f"card file '{problem[5:]}' (of '{rel}') links to a file outside the game folder", at,
                     help="copy the file into the game folder instead of linking to it")
    elif problem == "missing":
        report.error("E-MISSING-FILE", f"card file '{rel}' does not exist", at,
                     help="check the file name, relative to the folder of game.yaml; a folder or a glob "
                     "such as 'cards/*.json' reads every card file it holds")
    elif problem.startswith("pattern:"):
        report.error("E-PATH", f"'{rel}' is not a usable file pattern: {problem[8:]}", at,
                     help="write '**' alone between slashes ('cards/**/*.yaml'), or name the file or folder")
    elif problem == "empty-folder":
        report.error("E-MISSING-FILE", f"folder '{rel}' holds no card file (.yaml, .yml or .json)", at,
                     help="put the card files in it, or name them in game.yaml")
    else:
        report.error("E-MISSING-FILE", f"no card file (.yaml, .yml or .json) matches '{rel}'", at,
                     help="check the pattern, relative to the folder of game.yaml")


def _read_cards(game: Game, deck: Deck, card_doc: Document, found: list, mapping, set_schema, schema: dict,
                seen_ids: dict[str, Card], keys: list[str], report: Report) -> None:
    """Make the cards of one file: each validated on its own, so that a mistake in one card hides
    nothing else; a card keeps its valid fields (the build fails on the error all the same)."""
    plain = mapping.identity and isinstance(card_doc.data, dict) and "cards" in card_doc.data
    if plain:
        target, entries = card_doc, [(r.data, r.pointer) for r in found]
    else:
        mapped = [mapping.apply(r) for r in found]
        target = MappedDocument(card_doc.path, [m[0] for m in mapped], [m[1] for m in mapped])
        entries = [(m[0], f"/cards/{i}") for i, m in enumerate(mapped)]
    as_mapped = [card_data for card_data, _ in entries]  # what exclude: sees, whatever the language
    if game.overlay is not None:
        from .translations import apply_overlay
        target, entries = apply_overlay(game.overlay, mapping.id_from or "id", mapping.rename, target, entries, report)
    schema_json = schema_key(schema)
    remember = known_valid(schema_json, [card_data for card_data, _ in entries])  # None: every card known valid
    all_valid = True
    for record, mapped, (card_data, card_pointer) in zip(found, as_mapped, entries):
        for join in mapping.joins:
            key = record.data.get(join.on)
            if isinstance(key, (int, str)) and not isinstance(key, bool):
                keys.append(str(key))
        label = f"card '{card_data.get('id')}'" if isinstance(card_data.get("id"), str) else "card"
        if mapping.exclude is not None and mapping.exclude.excludes(record.data, mapped, label, report):
            continue  # the deck leaves it out (exclude:); its join keys still count as known
        bad: set[str] = set()
        if mapping.id_from and mapping.id_from not in record.data:
            report.error("E-SCHEMA", f"card has no '{mapping.id_from}', which gives its id (the deck's id_from)",
                         record.doc.pos(record.pointer), help=f"add '{mapping.id_from}' to the card")
            game.complete = False
            all_valid = False
            continue
        if set_schema is not None:
            bad |= {mapping.rename.get(n, n) for n in
                    set_schema.validate(record.data, record.doc, record.pointer, report, label)}
        if remember is not None:
            invalid = validate_card(card_data, schema, target, card_pointer, report, schema_json)
            all_valid = all_valid and not invalid
            bad |= invalid
        if "series" not in bad and _backward_series(card_data.get("series"), target, card_pointer, report):
            bad.add("series")
        if bad:
            game.complete = False
        if "id" in bad or "" in bad and not _valid_id(card_data.get("id")):
            continue
        card = _make_card(deck, {k: v for k, v in card_data.items() if k not in bad or k == "id"}, target,
                          card_pointer)
        card.invalid = frozenset(bad - {""})
        other = seen_ids.get(card.id)
        if other is not None:
            first = other.pos()
            report.error("E-DUPLICATE-ID", f"card id '{card.id}' is already used",
                         card.pos("id"), card=card.id,
                         help=f"first used at {display_path(first.path, None)}:{first.line}; "
                         "ids must be unique in a game")
            continue
        seen_ids[card.id] = card
        deck.cards.append(card)
    if remember is not None and all_valid:
        remember_valid(remember)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) and validator(builtin_schema("cards")["$defs"]["card"]["properties"]["id"]).is_valid(value)


def _resolve_views(game: Game, report: Report) -> None:
    """Fill each view deck with one card per record of the deck it views (ids `<view>/<record id>`).
    The view's quantity is a number, or the name of a whole-number field read from each record."""
    decks = {deck.id: deck for deck in game.decks}
    for deck in game.decks:
        if deck.view is None:
            continue
        pos = game.doc.pos(deck.pointer + "/view")
        target = decks.get(deck.view)
        if target is None or target.view is not None:
            known = [d.id for d in game.decks if d.view is None]
            guess = difflib.get_close_matches(deck.view, known, n=1)
            why = "is itself a view" if target is not None else "is not a deck or token sheet of this game"
            report.error("E-VIEW", f"deck '{deck.id}' is a view of '{deck.view}', which {why}", pos,
                         help=(f"did you mean '{guess[0]}'? " if guess else "") + "a view names a deck that "
                         "has card files: " + ", ".join(known))
            continue
        deck.fields, deck.declared = target.fields, target.declared
        quantity = deck.quantity
        if isinstance(quantity, str) and quantity not in target.fields:
            report.error("E-VIEW", f"deck '{deck.id}' takes its quantity from field '{quantity}', which deck "
                         f"'{target.id}' does not have", game.doc.pos(deck.pointer + "/quantity"),
                         help="name a whole-number field of the viewed deck: " + ", ".join(target.fields))
            continue
        for record in target.cards:
            if quantity is None:
                copies = record.quantity
            elif isinstance(quantity, int):
                copies = quantity
            else:
                copies = record.data.get(quantity)
                if copies is None:
                    copies = 0
                if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= 1000:
                    report.error("E-VIEW", f"card '{record.id}': '{quantity}' gives the copies of view "
                                 f"'{deck.id}', so it must be a whole number 0-1000, not {copies!r}",
                                 record.pos(quantity if quantity in record.data else None), card=record.id,
                                 help=f"set {quantity}: to the number of {deck.name} to print")
                    continue
            deck.cards.append(Card(id=f"{deck.id}/{record.id}", deck=deck, data=record.data, quantity=copies,
                                   front=deck.front, back=deck.back, doc=record.doc, pointer=record.pointer,
                                   source=record))


def _backward_series(series: Any, doc: Document, card_pointer: str, report: Report) -> bool:
    """Whether a card's `series` (valid by its schema) runs backwards, which is reported: it
    numbers no piece, and a count of none or fewer cannot number copies."""
    if not isinstance(series, dict) or not isinstance(series.get("from"), (int, float)) \
            or not isinstance(series.get("to"), (int, float)) or series["to"] >= series["from"]:
        return False
    report.error("E-SCHEMA", f"the series runs from {series['from']:g} down to {series['to']:g}: 'to' must be at "
                 "least 'from'", doc.pos(pointer_join(card_pointer, "series")),
                 help="swap the two numbers, or give the last number as 'to'")
    return True


def _make_card(deck: Deck, card_data: dict, doc: Document, pointer: str) -> Card:
    fields = Fields({k: v for k, v in card_data.items() if k not in ("front", "back", "quantity")})
    fields.declared = frozenset(deck.declared or deck.fields)
    quantity = card_data.get("quantity", 1)
    series, variants = card_data.get("series"), card_data.get("variants")
    if series:  # whole numbers, as its schema has them: `from: 1.0` numbers pieces 1, 2, ...
        series = fields["series"] = {**series, "from": int(series["from"]), "to": int(series["to"])}
    if series or variants:  # one piece per number and variant, `quantity` times over
        numbers = series["to"] - series["from"] + 1 if series else 1
        quantity *= max(0, numbers) * len(variants or [None])
    return Card(id=card_data["id"], deck=deck, data=fields, quantity=quantity,
                front=card_data.get("front", deck.front), back=card_data.get("back", deck.back),
                doc=doc, pointer=pointer)


class Fields(dict):
    """A card's fields.  A field its deck declares that the card leaves out is absent, not null:
    templates and rules see it as undefined (`card.x is defined` is false, it prints as nothing),
    while an explicit `null` is None (`card.x is none`).  See layout/templates.py."""

    declared: frozenset = frozenset()

    def copy(self) -> "Fields":
        other = Fields(self)
        other.declared = self.declared
        return other

    def __reduce__(self):
        return (_fields, (dict(self), self.declared))


def _fields(data: dict, declared: frozenset) -> Fields:
    out = Fields(data)
    out.declared = declared
    return out
