"""Translations as overlays: a language's records replace fields of the source records before the
model is built, so that every later stage (fit, glyphs, rules, print) runs unchanged, once per
language.

    languages: [de]                     # overlay files under translations/de/
    languages: [{lang: fr, path: i18n/fr}]

An overlay file holds `cards:` or a bare list of records (YAML, or JSON as ArkhamDB and
NetrunnerDB publish theirs).  A record names its card by the deck's id (`id_from`, else `id`),
carries only the fields it translates, and inherits the rest; a list of mappings (a crew card's
`actions`) is translated item by item.  `source:` is the fingerprint (record_digest.py) of the
source record it was translated from: `cardforge translate status` calls it stale once the source
changes.  Every value keeps its overlay position, so a translated text that overflows its frame is
reported at the overlay's line.
"""
from __future__ import annotations

import difflib
import fnmatch
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report, refine
from ..lazy import lazy_module
from .load import Document, load_yaml, pointer_join
from .sources import CARD_SUFFIXES, records

regex = lazy_module("regex")  # only for translations whose marks are patterns: not on every check

TRANSLATIONS_DIR = "translations"
TABLES_FILE = "tables.yaml"  # `tables: {turn_sequence: [{name: Aufdecken}, ...]}`: rows translated in order
STRINGS_FILE = "strings.yaml"  # a language's string table: layout labels, `strings: {LINE OF SIGHT: SICHTLINIE}`
SHEET_KEYS = ("boards", "references")  # an overlay file of sheets: `boards: [{id: player-mat, data: {...}}]`
SHEET_FIELDS = ("name", "data")  # what a sheet's record translates
SOURCE_KEY = "source"  # the fingerprint of the source record a translation was made from
_NATIVE_ICON = re.compile(r"(?<!\\):([a-z][a-z0-9-]*):")  # cardforge's own :icon: tokens
_WORD = re.compile(r"\w+")
_MIXED_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN")  # letters that look Latin (a homoglyph)


def languages(data: dict) -> dict[str, str]:
    """The game's languages and the folder of each one's overlay files, relative to the game."""
    found: dict[str, str] = {}
    for item in data.get("languages") or []:
        if isinstance(item, str):
            found[item] = f"{TRANSLATIONS_DIR}/{item}"
        elif isinstance(item, dict) and isinstance(item.get("lang"), str):
            found[item["lang"]] = item.get("path") or f"{TRANSLATIONS_DIR}/{item['lang']}"
    return found


def _chosen_files(data: dict, lang: str) -> tuple[list[str], str] | None:
    """A language's `files:` globs (a database's folder holds every pack's overlays; a game prints
    some), with the pointer of its entry; None: every overlay file of its folder."""
    for i, item in enumerate(data.get("languages") or []):
        if isinstance(item, dict) and item.get("lang") == lang and isinstance(item.get("files"), list):
            return [str(p) for p in item["files"]], f"/languages/{i}"
    return None


@dataclass
class OverlayRecord:
    data: dict
    doc: Document
    pointer: str
    used: bool = False
    component: str = "cards"  # or "boards", "references": a sheet's record, keyed by the sheet's id

    def pos(self, key: str | None = None) -> Position:
        return self.doc.pos(pointer_join(self.pointer, key) if key else self.pointer)


@dataclass
class Overlay:
    """One language's overlay records, found by the field that names their card."""
    lang: str
    folder: str
    records: list[OverlayRecord] = field(default_factory=list)
    sheets: list[OverlayRecord] = field(default_factory=list)  # boards' and reference sheets' records
    documents: list[Document] = field(default_factory=list)
    strings: dict[str, str] = field(default_factory=dict)  # a layout's text as written -> its translation
    string_at: dict[str, Position] = field(default_factory=dict)  # ... and where the translation is written
    tables: Document | None = None  # the translated rows of game.yaml's tables
    key_fields: set[str] = field(default_factory=lambda: {"id"})  # the decks' id fields (`id_from`)
    syntaxes: list[str] = field(default_factory=list)  # the deck's markup symbols (regexes) ...
    aliases: dict[str, str] = field(default_factory=dict)  # ... and their icons' other names
    marks: list[dict] = field(default_factory=list)  # ... and its marks, read before the symbols
    _index: dict[str, dict[str, OverlayRecord]] = field(default_factory=dict)

    icons: set[str] | None = None  # the icons of the game's icons/ folder, when its markup names symbols
    source_icons: set[str] = field(default_factory=set)  # the icons the translated fields' source texts draw

    def use_deck(self, key_field: str, dialect, icons_folder: Path | None = None) -> None:
        """Before a deck's cards are translated: the field naming them, and the deck's markup."""
        self.key_fields.add(key_field)
        self.syntaxes = list(dialect.symbols) if dialect is not None else []
        self.aliases = dict(dialect.icons) if dialect is not None else {}
        self.marks = list(dialect.marks) if dialect is not None else []
        if self.syntaxes and icons_folder is not None and icons_folder.is_dir():
            self.icons = {p.stem for p in icons_folder.glob("*.svg")}

    def unknown_symbols(self, text: str) -> bool:
        """Whether a text writes a symbol that draws no icon of the game (unknown, or mapped to an
        icon that does not exist): the markup reports it, once; icon parity would only echo it."""
        if self.icons is None:
            return False
        named = symbols(text, self.syntaxes, self.aliases, self.marks)
        return any(name not in self.icons and name.lower().replace("_", "-") not in self.icons for name in named)

    def find(self, key_field: str, key: str, report: Report) -> OverlayRecord | None:
        if key_field not in self._index:
            index: dict[str, OverlayRecord] = {}
            for record in self.records:
                value = record.data.get(key_field)
                if isinstance(value, (str, int)) and not isinstance(value, bool):
                    first = index.setdefault(str(value), record)
                    if first is not record:
                        report.error("E-TRANSLATION", f"card '{value}' is translated twice in '{self.lang}' "
                                     f"(first at line {first.pos().line} of {first.doc.path.name})",
                                     record.pos(key_field), help="keep one translation of each card")
            self._index[key_field] = index
        return self._index[key_field].get(key)


def load_overlay(root: Path, game_data: dict, game_doc: Document, lang: str, report: Report, safe_path,
                 documents: list[Document] | None = None) -> Overlay | None:
    """The overlay of `lang` (every card file under its folder); None after reporting why not."""
    known = languages(game_data)
    if lang not in known:
        report.error("E-LANG", f"the game has no language '{lang}'", game_doc.pos("/languages"),
                     help="list it in game.yaml, e.g. 'languages: [" + lang + "]'; the game has: "
                     + (", ".join(known) or "none"))
        return None
    overlay = Overlay(lang, known[lang])
    folder = safe_path(root, known[lang])
    at = game_doc.pos("/languages")
    if folder is None:
        report.error("E-PATH", f"translations of '{lang}' ('{known[lang]}') lie outside the game folder", at)
        return None
    if not folder.is_dir():
        report.error("E-MISSING-FILE", f"no folder '{known[lang]}' for the translations of '{lang}'", at,
                     help=f"create it (`cardforge translate update GAME {lang}` writes a skeleton)")
        return None
    for path in overlay_files(root, game_data, lang, game_doc, report):
        if safe_path(root, path.relative_to(root).as_posix()) is None:
            continue  # a link out of the game folder is not read
        doc = load_yaml(path, report)
        if doc is None:
            continue
        overlay.documents.append(doc)
        if documents is not None:
            documents.append(doc)
        if path.name == STRINGS_FILE:
            _strings(overlay, doc, report)
            continue
        if path.name == TABLES_FILE:
            overlay.tables = doc
            continue
        if isinstance(doc.data, dict) and set(doc.data) & set(SHEET_KEYS):
            overlay.sheets += _sheet_records(doc, report)
            continue
        found = records(doc, False, report) if doc.data not in ({}, None) else []
        overlay.records += [OverlayRecord(r.data, r.doc, r.pointer) for r in found or []]
    return overlay


def overlay_files(root: Path, game_data: dict, lang: str, game_doc: Document | None, report: Report) -> list[Path]:
    """The overlay files of a language's folder (as its `files:` choose them), as the user names
    them; a pattern that matches none is a warning (with `game_doc`)."""
    shown = Path(root) / languages(game_data)[lang]  # as the user named it, for the diagnostics' paths
    found = sorted(p for p in shown.rglob("*") if p.is_file() and p.suffix.lower() in CARD_SUFFIXES)
    chosen = _chosen_files(game_data, lang)
    if chosen is not None:
        patterns, pointer = chosen
        for i, pattern in enumerate(patterns):
            if game_doc is not None and not any(fnmatch.fnmatchcase(p.relative_to(shown).as_posix(), pattern)
                                                for p in found):
                report.warning("W-IGNORE", f"'{pattern}' matches no overlay file of '{languages(game_data)[lang]}'",
                               game_doc.pos(f"{pointer}/files/{i}"), help="correct the pattern, or remove it")
        found = [p for p in found if p.name in (STRINGS_FILE, TABLES_FILE) or any(
            fnmatch.fnmatchcase(p.relative_to(shown).as_posix(), pattern) for pattern in patterns)]
    return found


def check_overlay_syntax(root: Path, game_data: dict, report: Report, safe_path) -> None:
    """Every check reads every language's overlay files for their syntax (a broken file fails
    `check`, not the first build of that language); what they say is checked with `--lang`."""
    for lang, folder in languages(game_data).items():
        inside = safe_path(root, folder)
        if inside is None or not inside.is_dir():
            continue  # `check --lang` says so, at the languages: line
        for path in overlay_files(root, game_data, lang, None, report):
            if safe_path(root, path.relative_to(root).as_posix()) is not None:
                load_yaml(path, report)


class OverlaidDocument(Document):
    """A document with a language's overlay merged in: the positions of translated values are the
    overlay's, and a translated piece itself (a card, `/cards/3`; a board, `/boards/0`) is at its
    overlay record.  `overrides` maps a piece's pointer to its record and the routes of its values."""

    def __init__(self, base: Document, data: Any, overrides: dict[str, tuple[OverlayRecord, dict[str, str]]]):
        super().__init__(path=base.path, data=data)
        self.base, self.overrides = base, overrides

    def pos(self, pointer: str = "", key: bool = False) -> Position:
        parts = pointer.split("/")
        piece = "/".join(parts[:3])
        if len(parts) >= 3 and piece in self.overrides:
            record, routes = self.overrides[piece]
            rest = pointer[len(piece):]
            if not rest:
                return record.pos()
            probe = rest
            while probe:
                if probe in routes:
                    return record.doc.pos(routes[probe] + rest[len(probe):], key=key)
                probe = probe.rsplit("/", 1)[0]
        return self.base.pos(pointer, key=key)


@dataclass
class _Merge:
    record: OverlayRecord
    routes: dict[str, str] = field(default_factory=dict)  # card sub-pointer -> overlay pointer
    texts: list[tuple[str, str, str]] = field(default_factory=list)  # (overlay pointer, source, translation)
    items: bool = False  # every list item by item (a board's track labels), not only lists of mappings


def apply_overlay(overlay: Overlay, key_field: str, rename: dict[str, str], target: Document,
                  entries: list[tuple[dict, str]], report: Report) -> tuple[Document, list[tuple[dict, str]]]:
    """The cards of one file with their translations merged in, and the document that places them."""
    cards = [dict(data) for data in target.data["cards"]] if isinstance(target.data, dict) else []
    overrides: dict[str, tuple[OverlayRecord, dict[str, str]]] = {}
    merged_entries = []
    deck_fields = {name for card_data, _ in entries for name in card_data}
    for card_data, pointer in entries:
        index = int(pointer.rsplit("/", 1)[1])
        card_id = card_data.get("id")
        record = overlay.find(key_field, str(card_id), report) if isinstance(card_id, str) else None
        if record is None:
            merged_entries.append((card_data, pointer))
            continue
        record.used = True
        merge = _Merge(record)
        merged = dict(card_data)
        for name, value in record.data.items():
            if name in (key_field, "id", SOURCE_KEY):
                continue
            target_name = rename.get(name, name)
            if target_name not in card_data and target_name in deck_fields:
                # Not a misspelling: other cards have it. The source is silent here (NetrunnerDB's
                # Corporate Troubleshooter lost its keywords); the kit prints the source.
                report.warning("W-TRANSLATION-FIELD", f"the translation sets '{name}', which its source record "
                               "does not have (other cards do), so it is not printed", record.doc.pos(pointer_join(record.pointer, name), key=True),
                               help="add the field to the source record, or remove it from the translation")
                continue
            if target_name not in card_data:
                _unknown(record, name, list(card_data), report)
                continue
            merged[target_name] = _merge(card_data[target_name], value, "/" + target_name,
                                         pointer_join(record.pointer, name), merge, report)
        if 0 <= index < len(cards):
            cards[index] = merged
        overrides[f"/cards/{index}"] = (record, merge.routes)
        merged_entries.append((merged, pointer))
        merge.texts and _check_texts(merge, overlay, report)
    return OverlaidDocument(target, {"cards": cards}, overrides), merged_entries


def _merge(source: Any, value: Any, at: str, over: str, merge: _Merge, report: Report) -> Any:
    """`value` over `source`: mappings key by key, lists of mappings item by item, the rest replaced."""
    record = merge.record
    if isinstance(value, dict) and isinstance(source, dict):
        out = dict(source)
        for name, item in value.items():
            if name not in source:
                _unknown(record, name, list(source), report, pointer_join(over, name))
                continue
            out[name] = _merge(source[name], item, pointer_join(at, name), pointer_join(over, name), merge, report)
        return out
    if isinstance(value, list) and isinstance(source, list) and (merge.items or any(isinstance(i, dict) for i in source)):
        if len(value) != len(source):
            report.error("E-TRANSLATION", f"the translation has {len(value)} item{'s' * (len(value) != 1)} where "
                         f"the source has {len(source)}", record.doc.pos(over),
                         help="translate the items in the source's order, one for one")
            return source
        return [_merge(s, v, f"{at}/{i}", f"{over}/{i}", merge, report) for i, (s, v) in enumerate(zip(source, value))]
    merge.routes[at] = over
    if isinstance(value, str) and isinstance(source, str):
        merge.texts.append((over, source, value))
    return value


def _unknown(record: OverlayRecord, name: str, known: list[str], report: Report, pointer: str | None = None) -> None:
    guess = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    report.error("E-TRANSLATION", f"the translation sets '{name}', which its source record does not have",
                 record.doc.pos(pointer or pointer_join(record.pointer, name), key=True),
                 help=(f"did you mean '{guess[0]}'? " if guess else "") + "a translation replaces fields of its "
                 "source record; add the field to the source first")


def symbols(text: str, syntaxes: list[str], aliases: dict[str, str], marks: list[dict] = ()) -> list[str]:
    """The icons a text names: cardforge's :icon:, the game's marks that draw an icon and its
    markup symbols, each under its current name (an alias such as ArkhamDB's [free] for [fast]
    counts as that icon).  A mark that sets a style or a text (ArkhamDB's [[Trait]]) is a word the
    translation translates, not a symbol, as the markup reads it first."""
    found = []
    for mark in marks:
        try:
            pattern = regex.compile(mark["regex"] if "regex" in mark else regex.escape(mark.get("token", "")))
            matches = list(pattern.finditer(text, timeout=0.5))
        except (KeyError, ValueError, TimeoutError, regex.error):
            continue  # the markup stage reports the mark itself
        found += [m.expand(mark["icon"]) for m in matches if "icon" in mark]
        for m in reversed(matches):
            text = text[:m.start()] + " " + text[m.end():]
    found += [m.group(1) for m in _NATIVE_ICON.finditer(text)]
    for syntax in syntaxes:
        found += [m.group(1) for m in re.finditer(syntax, text)]
    return [aliases.get(name, name) for name in found]


def mixed_words(text: str) -> list[tuple[str, str]]:
    """Words mixing Latin letters with Cyrillic, Greek or Armenian ones, with the foreign script."""
    found = []
    for word in _WORD.findall(text):
        scripts = {unicodedata.name(ch, "").split(" ")[0] for ch in word if ch.isalpha()}
        foreign = [s for s in _MIXED_SCRIPTS if s in scripts]
        if "LATIN" in scripts and foreign:
            found.append((word, foreign[0].capitalize()))
    return found


def _check_texts(merge: _Merge, overlay: Overlay, report: Report) -> None:
    from collections import Counter
    doc = merge.record.doc
    for pointer, source, text in merge.texts:
        at = doc.pos(pointer)
        # what the source kit draws is used, whether or not a translation writes it (NetrunnerDB's
        # [interrupt]: no translation has it, and deleting its icon would break the source kit)
        overlay.source_icons.update(name.lower().replace("_", "-") for name in
                                    symbols(source, overlay.syntaxes, overlay.aliases, overlay.marks))
        want, got = Counter(symbols(source, overlay.syntaxes, overlay.aliases, overlay.marks)), \
            Counter(symbols(text, overlay.syntaxes, overlay.aliases, overlay.marks))
        if want != got and not (overlay.unknown_symbols(source) or overlay.unknown_symbols(text)):
            missing, extra = sorted((want - got).elements()), sorted((got - want).elements())
            report.warning("W-ICON-PARITY", "the translation's icons differ from the source's: "
                           + "; ".join(part for part in (
                               f"missing {', '.join(missing)}" if missing else "",
                               f"extra {', '.join(extra)}" if extra else "") if part), at,
                           help="write the same symbols as the source (declare a renamed symbol as an alias "
                           "in the game's markup 'icons:')")
        for word, script in mixed_words(text):
            odd = "".join(ch for ch in word if unicodedata.name(ch, "").startswith(script.upper()))
            shown = ", ".join(f"'{ch}' U+{ord(ch):04X}" for ch in dict.fromkeys(odd))
            report.warning("W-HOMOGLYPH", f"'{word}' mixes Latin letters with {script} ones ({shown})", refine(at, word),
                help=f"retype the word in one script: a {script} letter that looks Latin prints, but does not "
                "search, sort or spell-check as the word")


def check_unmatched(overlay: Overlay, known: list[str], report: Report) -> None:
    """An overlay record that names no card of the game: an error at the record."""
    for record in overlay.records:
        if record.used:
            continue
        key = next((str(v) for k, v in record.data.items() if k in overlay.key_fields), None)
        if key is None:
            report.error("E-TRANSLATION", "the translated record names no card: it has no "
                         + " or ".join(f"'{k}'" for k in sorted(overlay.key_fields)), record.pos(),
                         help="name the card it translates by its id")
            continue
        guess = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
        report.error("E-TRANSLATION", f"'{key}' names no card of the game", record.pos(),
                     help=(f"did you mean '{guess[0]}'? " if guess else "") + "remove the translation, or name "
                     "the card by its id")


def game_languages(game_dir: Path) -> list[str]:
    """The languages game.yaml lists (read without loading the game; its problems show later)."""
    scratch = Report()
    doc = load_yaml(Path(game_dir) / "game.yaml", scratch)
    return list(languages(doc.data)) if doc is not None and isinstance(doc.data, dict) else []


def language_folder(game_dir: Path, lang: str) -> Path | None:
    """Where game.yaml keeps the overlay of `lang` (translations/LANG unless it says otherwise), or
    None where it names a place outside the game folder."""
    scratch = Report()
    doc = load_yaml(Path(game_dir) / "game.yaml", scratch)
    known = languages(doc.data) if doc is not None and isinstance(doc.data, dict) else {}
    if lang not in known:
        return None
    root = Path(game_dir).resolve()
    folder = (root / known[lang]).resolve()
    return folder if folder.is_relative_to(root) and folder != root else None


def chosen_languages(game_dir: Path, lang: str | None) -> list[str | None] | str:
    """The languages `--lang` asks of a game (None: the source), or a sentence saying why not."""
    if lang is None:
        return [None]
    known = game_languages(game_dir)
    if lang == "all":
        return [None] + known
    asked = [part.strip() for part in lang.split(",") if part.strip()]  # de,fr: several languages, no source
    for one in asked:
        if one not in known:
            return (f"{game_dir} has no language '{one}' (it has: {', '.join(known) or 'none'}); list it under "
                    "'languages:' in its game.yaml")
    return list(dict.fromkeys(asked)) or [None]


def overlay_folders(root: Path, data: dict, safe_path) -> list[Path]:
    """The folders of every language's overlay files (resolved), for the check of unused files."""
    found = [safe_path(root, rel) for rel in languages(data).values()] if isinstance(data, dict) else []
    return [folder for folder in found if folder is not None]


def _strings(overlay: Overlay, doc: Document, report: Report) -> None:
    """A string table: `strings:` maps a layout's text, exactly as written (or as tr('...') names
    it), to its translation; the layout's frames are left as they are."""
    table = doc.data.get("strings") if isinstance(doc.data, dict) else None
    if not isinstance(table, dict) or set(doc.data) - {"strings"}:
        report.error("E-TRANSLATION", "a string table holds one key, 'strings:', mapping each text as the layout "
                     "writes it to its translation", doc.pos(""), help="write 'strings:' then 'LINE OF SIGHT: SICHTLINIE'")
        return
    for key, value in table.items():
        if not isinstance(value, str):
            report.error("E-TRANSLATION", f"the translation of '{key}' must be text", doc.pos(pointer_join("/strings", key)),
                         help="put the text in quotes")
            continue
        overlay.strings[str(key)] = value
        overlay.string_at[str(key)] = doc.pos(pointer_join("/strings", key))


_PLACEHOLDER = re.compile(r"\{([a-z]+)\}")


def translator(strings: dict[str, str]):
    """`tr(english, **values)`: a sentence cardforge prints (the guide, the cover) in the kit's
    language.  The sentence's English, with its placeholders ({pages}, {count}), is its key in the
    string table.  Values are put in by name only: a translation is text, never a format that could
    reach into Python objects."""
    def tr(english: str, **values) -> str:
        text = strings.get(english, english)
        return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), text)
    return tr


def translate_tables(overlay: Overlay, tables: dict, report: Report) -> dict:
    """game.yaml's tables with the overlay's rows merged in, row by row in the table's order (a
    table printed on a reference sheet: the turn sequence, the score bands)."""
    doc = overlay.tables
    if doc is None:
        return tables
    given = doc.data.get("tables") if isinstance(doc.data, dict) else None
    if not isinstance(given, dict) or set(doc.data) - {"tables"}:
        report.error("E-TRANSLATION", "a tables file holds one key, 'tables:', with each translated table's rows in "
                     "order", doc.pos(""), help="write 'tables:' then 'turn_sequence:' and its rows")
        return tables
    out = dict(tables)
    for name, rows in given.items():
        at = pointer_join("/tables", name)
        if name not in tables:
            _unknown(OverlayRecord({}, doc, "/tables"), name, list(tables), report, at)
            continue
        if not isinstance(rows, list):
            report.error("E-TRANSLATION", f"the translation of table '{name}' must be a list of rows", doc.pos(at))
            continue
        merged = _merge(list(tables[name]), rows, "", at, _Merge(OverlayRecord({}, doc, at)), report)
        out[name] = type(tables[name])(merged, tables[name].table)
    return out


def _sheet_records(doc: Document, report: Report) -> list[OverlayRecord]:
    """The records of an overlay file of sheets: `boards:` and `references:` lists, as game.yaml
    writes them, each naming its sheet by `id`."""
    found: list[OverlayRecord] = []
    for key in doc.data:
        if key not in SHEET_KEYS:
            report.error("E-TRANSLATION", f"unknown key '{key}' in a file of translated sheets", doc.pos(f"/{key}", key=True),
                         help="a file of sheets holds 'boards:' and 'references:', as game.yaml does; put "
                         "translated cards in a file of their own")
            continue
        items = doc.data[key]
        if not isinstance(items, list):
            report.error("E-TRANSLATION", f"'{key}' must be a list of translated sheets", doc.pos(f"/{key}"),
                         help="write each sheet as an item: '- id: player-mat' then its 'data:'")
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                report.error("E-TRANSLATION", "a translated sheet is a mapping with its 'id'", doc.pos(f"/{key}/{i}"),
                             help="write '- id: player-mat' then the fields it translates")
                continue
            found.append(OverlayRecord(item, doc, f"/{key}/{i}", component=key))
    return found


def translate_sheet(overlay: Overlay, component: str, sheet: dict, doc: Document, pointer: str,
                    report: Report) -> tuple[dict, Document]:
    """A board's or reference sheet's entry of game.yaml with its translation merged in: its
    `name`, and its `data` key by key and list item by item (a track's labels keep their count),
    and the document that places it (a label that overflows is reported at the translation's record).
    Icon parity and homoglyphs are checked as on a card's text."""
    record = next((r for r in overlay.sheets if r.component == component and r.data.get("id") == sheet.get("id")), None)
    if record is None:
        return sheet, doc
    if record.used:  # (a sheet is translated once: the second record is reported as unmatched)
        return sheet, doc
    record.used = True
    twins = [r for r in overlay.sheets if r is not record and r.component == component and r.data.get("id") == sheet.get("id")]
    for twin in twins:
        report.error("E-TRANSLATION", f"{component[:-1]} '{sheet.get('id')}' is translated twice in '{overlay.lang}' "
                     f"(first at line {record.pos().line} of {record.doc.path.name})", twin.pos("id"),
                     help="keep one translation of each sheet")
        twin.used = True
    merge = _Merge(record, items=True)
    out = dict(sheet)
    for name, value in record.data.items():
        if name == "id":
            continue
        if name not in SHEET_FIELDS or name not in sheet:
            _unknown(record, name, [f for f in SHEET_FIELDS if f in sheet], report)
            continue
        out[name] = _merge(sheet[name], value, "/" + name, pointer_join(record.pointer, name), merge, report)
    overlay.use_deck("id", None)  # a sheet's text names icons as :icon: only
    merge.texts and _check_texts(merge, overlay, report)
    return out, OverlaidDocument(doc, doc.data, {pointer: (record, merge.routes)})


def check_unmatched_sheets(overlay: Overlay, known: dict[str, list[str]], report: Report) -> None:
    """A sheet's record that names no board (or reference sheet) of the game: an error at the record."""
    for record in overlay.sheets:
        if record.used:
            continue
        what = "board" if record.component == "boards" else "reference sheet"
        key = record.data.get("id")
        if not isinstance(key, str):
            report.error("E-TRANSLATION", f"the translated {what} has no 'id'", record.pos(),
                         help=f"name the {what} it translates by its id in game.yaml")
            continue
        guess = difflib.get_close_matches(key, known.get(record.component, []), n=1, cutoff=0.6)
        report.error("E-TRANSLATION", f"'{key}' names no {what} of the game", record.pos("id"),
                     help=(f"did you mean '{guess[0]}'? " if guess else "") + f"the game's {record.component}: "
                     + (", ".join(known.get(record.component, [])) or "none"))
