"""Coverage and staleness of a game's translations, as gettext's msgmerge keeps them: which cards
and fields a language translates, which translations were made from an older source text (their
`source:` fingerprint is no longer the card's, record_digest.py), and a skeleton of what is missing.

The game says which fields a translation carries: a deck's `translate:` lists them, its text
(prose: a copy of the source is an untranslated text) and its names (a name or a trait may read
the same in both languages).  Without it, a field is translatable when its deck declares it as
plain text (a string without an enum or a pattern), nested in objects and lists of objects too,
except names of pictures and notes (art, image, icon, note), people (illustrator) and codes (a
field named `code` or `*_code`, or whose every value is a lowercase token such as `guardian`).

A field counts only where its source value has words: numbers, symbols and codes (`+1[mu]`,
`(→R2)`) read the same in every language.  Untranslated fields are written into the skeleton as
comments: the kit prints the source text until the translator fills them in.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Report
from .model import Card, Game, load_game, safe_path
from .record_digest import card_digest
from .translations import SOURCE_KEY, Overlay, OverlayRecord, languages, load_overlay

NOT_TEXT = ("art", "image", "icon", "note", "id", "color", "colour", "illustrator", "artist")
NAME_FIELDS = ("name", "title", "subname", "subtitle", "back_name", "traits", "keywords", "slot")  # names and terms
_MARKUP = re.compile(r"<[^<>]*>|(?<!\[)\[[A-Za-z0-9_-]+\](?!\])|\{[A-Za-z0-9_-]+\}")
_ICON_TOKEN = re.compile(r"^\W*:[a-z][a-z0-9-]*:\W*$")  # cardforge's own :icon:
_CODE_VALUE = re.compile(r"^[a-z0-9][a-z0-9_.:/-]*$")
_CODE_TOKEN = re.compile(r"[\d/=_@#]|\w[.:]\w")  # a token with a digit, a path or an identifier in it


@dataclass
class CardStatus:
    card: Card
    key_field: str
    digest: str
    record: OverlayRecord | None
    missing: list[str]  # translatable fields the translation leaves out (top-level names)
    copied: list[str] = field(default_factory=list)  # text fields the translation copies unchanged from the source

    @property
    def stale(self) -> bool:
        given = self.record.data.get(SOURCE_KEY) if self.record is not None else None
        return given is not None and str(given) != self.digest


@dataclass
class LanguageStatus:
    lang: str
    cards: list[CardStatus] = field(default_factory=list)
    overlay: Overlay | None = None
    sheets: list[tuple[str, bool]] = field(default_factory=list)  # boards and reference sheets with text data: (id, translated)

    @property
    def translated(self) -> list[CardStatus]:
        """Cards whose translation carries text (a skeleton's bare id and fingerprint does not)."""
        return [c for c in self.cards if c.record is not None and (not c.missing or any(
            name not in (SOURCE_KEY, c.key_field, "id") for name in c.record.data))]

    @property
    def fingerprinted(self) -> bool:
        return any(SOURCE_KEY in c.record.data for c in self.cards if c.record is not None)


def _texts(schema: Any) -> bool:
    """Whether a field's schema holds translatable text anywhere."""
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if kind == "string" or (isinstance(kind, list) and "string" in kind):
        return "enum" not in schema and "pattern" not in schema
    if kind == "object":
        return any(_texts(s) for s in (schema.get("properties") or {}).values())
    if kind == "array":
        return _texts(schema.get("items"))
    return False


def text_only(value: Any, schema: Any) -> Any:
    """The parts of a value that are text to translate (a crew card's actions: name and text, not
    kind and hits), for the skeleton."""
    if isinstance(value, dict) and isinstance(schema, dict) and schema.get("properties"):
        props = schema["properties"]
        return {k: text_only(v, props.get(k)) for k, v in value.items() if _texts(props.get(k))}
    if isinstance(value, list) and isinstance(schema, dict) and isinstance(schema.get("items"), dict):
        return [text_only(v, schema["items"]) for v in value]
    return value


def has_words(value: Any) -> bool:
    """Whether a value holds words to translate: not only numbers, symbols, markup and codes."""
    if isinstance(value, dict):
        return any(has_words(v) for v in value.values())
    if isinstance(value, list):
        return any(has_words(v) for v in value)
    if not isinstance(value, str):
        return False
    for token in _MARKUP.sub(" ", value).split():
        if not _CODE_TOKEN.search(token) and not _ICON_TOKEN.match(token) and sum(ch.isalpha() for ch in token) >= 2:
            return True
    return False


def declared(game: Game, card: Card) -> dict[str, str] | None:
    """The deck's `translate:`: each field it lists, as "text" or "name"; None when it lists none."""
    spec = _deck_data(game, card).get("translate")
    if isinstance(spec, list):
        return {str(name): "text" for name in spec}
    if isinstance(spec, dict):
        return {**{str(n): "name" for n in spec.get("names") or []}, **{str(n): "text" for n in spec.get("text") or []}}
    return None


def _codes(card: Card, cache: dict) -> set[str]:
    """The deck's fields that are codes: named so, or every value a lowercase token (`guardian`, `core`)."""
    deck = card.deck
    if id(deck) not in cache:
        values: dict[str, list] = {}
        for other in deck.cards:
            for name, value in other.data.items():
                values.setdefault(name, []).append(value)
        cache[id(deck)] = {name for name, found in values.items() if name == "code" or name.endswith("_code")
                           or all(_all_codes(v) for v in found)}
    return cache[id(deck)]


def _all_codes(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_all_codes(v) for v in value.values())
    if isinstance(value, list):
        return all(_all_codes(v) for v in value)
    return not isinstance(value, str) or bool(_CODE_VALUE.match(value))


def translation_fields(game: Game, card: Card, cache: dict | None = None) -> dict[str, str]:
    """The card's fields a translation carries, in the card's order: "text" (a copy of the source
    is untranslated) or "name" (may read the same in both languages)."""
    given = declared(game, card)
    if given is not None:
        return {name: given[name] for name in card.data if name in given}
    fields = card.deck.fields or {}
    codes = _codes(card, {} if cache is None else cache)
    return {name: "name" if name in NAME_FIELDS else "text" for name, value in card.data.items()
            if name not in NOT_TEXT and not name.endswith(("_art", "illustrator")) and name not in codes
            and (_texts(fields.get(name)) if name in fields else isinstance(value, str))}


def _deck_data(game: Game, card: Card) -> dict:
    section, index = card.deck.pointer.strip("/").split("/")[:2]
    try:
        deck_data = game.data[section][int(index)]
    except (KeyError, IndexError, TypeError, ValueError):
        return {}
    return deck_data if isinstance(deck_data, dict) else {}


def _key_field(game: Game, card: Card) -> str:
    return _deck_data(game, card).get("id_from") or "id"


def _compare(game: Game, card: Card, record: OverlayRecord | None, cache: dict) -> tuple[list[str], list[str]]:
    """The card's translatable fields (with words) its record leaves out, and its text fields the
    record copies unchanged from the source (a field renamed by the deck is found by its published name)."""
    kinds = {name: kind for name, kind in translation_fields(game, card, cache).items() if has_words(card.data[name])}
    if record is None:
        return list(kinds), []
    rename = _deck_data(game, card).get("rename") or {}
    given = {rename.get(name, name) if isinstance(rename, dict) else name: value for name, value in record.data.items()}
    missing = [name for name in kinds if name not in given]
    copied = [name for name, kind in kinds.items() if kind == "text" and name in given
              and _same(given[name], card.data[name])]
    return missing, copied


def _same(translation: Any, source: Any) -> bool:
    if isinstance(translation, str) and isinstance(source, str):
        return translation.strip() == source.strip()
    return translation == source


def status(game_dir: Path, report: Report, only: str | None = None) -> tuple[Game, list[LanguageStatus]]:
    """Every language's coverage of the source game (or `only` that one)."""
    game = load_game(game_dir, report)
    result = []
    for lang in languages(game.data):
        if only is not None and lang != only:
            continue
        overlay = load_overlay(game.root, game.data, game.doc, lang, report, safe_path)
        entry = LanguageStatus(lang, overlay=overlay)
        cache: dict = {}
        for card in game.records():
            key_field = _key_field(game, card)
            record = overlay.find(key_field, card.id, report) if overlay is not None else None
            missing, copied = _compare(game, card, record, cache)
            entry.cards.append(CardStatus(card, key_field, card_digest(card), record, missing, copied))
        for board in game.boards:  # a sheet's data with text in it (a track's labels) is translated by its record
            if _has_text(board.data):
                done = overlay is not None and any(r.component == board.component and r.data.get("id") == board.id
                                                   and "data" in r.data for r in overlay.sheets)
                entry.sheets.append((board.id, done))
        result.append(entry)
    return game, result


def _has_text(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_text(v) for k, v in value.items() if k not in NOT_TEXT)
    if isinstance(value, list):
        return any(_has_text(v) for v in value)
    return isinstance(value, str) and any(ch.isalpha() for ch in value)


def summary(entry: LanguageStatus) -> list[str]:
    """What `translate status` prints for one language."""
    total, done = len(entry.cards), len(entry.translated)
    fields = sum(len(c.missing) for c in entry.cards)
    copied = sum(len(c.copied) for c in entry.cards)
    lines = [f"{entry.lang}: {done}/{total} records translated, {fields} untranslated field{'s' * (fields != 1)}"
             + (f", {copied} field{'s' * (copied != 1)} copied unchanged from the source" if copied else "")]
    stale = [c for c in entry.cards if c.stale]
    if not entry.fingerprinted and done:
        lines.append("  no translation carries a 'source:' fingerprint: all are counted as current "
                     "(`cardforge translate update` adds them to new records)")
    else:
        lines[0] += f", {len(stale)} stale"
    for c in stale:
        pos = c.record.pos(SOURCE_KEY)
        lines.append(f"  stale: {c.card.id} ({pos.path}:{pos.line}): translated from {c.record.data[SOURCE_KEY]}, "
                     f"the source is now {c.digest}")
    carried = {id(c) for c in entry.translated}
    for c in entry.cards:
        if c.missing and id(c) in carried:
            lines.append(f"  untranslated: {c.card.id}: {', '.join(c.missing)}")
    for c in entry.cards:
        if c.copied:
            lines.append(f"  copied from the source: {c.card.id}: {', '.join(c.copied)}")
    untouched = [c.card.id for c in entry.cards if id(c) not in carried]
    if untouched:
        lines.append(f"  not translated: {', '.join(untouched[:12])}" + (" ..." if len(untouched) > 12 else ""))
    if entry.sheets:
        left = [sheet for sheet, done in entry.sheets if not done]
        lines.append(f"  boards and reference sheets with text data: {len(entry.sheets) - len(left)}/{len(entry.sheets)} "
                     "translated" + (f"; not translated: {', '.join(left)} (a 'boards:' record of its data)" if left else ""))
    return lines


def report_coverage(game_dir: Path, lang: str, report: Report) -> None:
    """What `check --lang` says of a language's coverage: each stale translation once, at its
    fingerprint, and the cards left in the source language, once for the language.  A kit built
    in that language prints those cards' source text."""
    scratch = Report()
    game, found = status(Path(game_dir), scratch, lang)
    if scratch.has_errors() or not found:
        return  # the check itself reports what is wrong
    entry = found[0]
    for c in entry.cards:
        if c.stale:
            report.warning("W-TRANSLATION-STALE",
                           f"'{lang}' translation of card '{c.card.id}' was made from an older text: the source "
                           f"has changed since (fingerprint {c.record.data[SOURCE_KEY]}, now {c.digest})",
                           c.record.pos(SOURCE_KEY),
                           help=f"bring the translation up to date, then set its 'source:' to {c.digest}")
    check_declarations(game, report)
    _report_fields(game, entry, report)
    carried = {id(c) for c in entry.translated}
    untouched = [c.card.id for c in entry.cards if id(c) not in carried]
    if untouched:
        report.warning("W-UNTRANSLATED",
                       f"'{lang}': {len(untouched)} of {len(entry.cards)} cards not translated "
                       f"({', '.join(untouched[:5])}{', ...' if len(untouched) > 5 else ''}); the kit prints their "
                       "source text", game.doc.pos("/languages"),
                       help=f"`cardforge translate update {game_dir} {lang}` writes what is missing for a translator "
                            f"to fill in; `cardforge translate status` lists it")


def _report_fields(game: Game, entry: LanguageStatus, report: Report) -> None:
    """Per language, once each: the text fields its translations copy unchanged from the source,
    and (where a deck's `translate:` says which fields a translation carries) the fields they leave
    out.  Either way the kit prints the source's text; the counts are per field, the cards listed."""
    lang = entry.lang
    at = _language_pos(game, lang)
    declaring = [c for c in entry.translated if declared(game, c.card) is not None]
    for kind, found, code in (("copied", [(c, c.copied) for c in entry.translated], "W-TRANSLATION-COPY"),
                              ("missing", [(c, c.missing) for c in declaring], "W-TRANSLATION-MISSING")):
        found = [(c, names) for c, names in found if names]
        if not found:
            continue
        total = sum(len(names) for _, names in found)
        per_field: dict[str, int] = {}
        for _, names in found:
            for name in names:
                per_field[name] = per_field.get(name, 0) + 1
        counts = ", ".join(f"{name} {n}" for name, n in sorted(per_field.items(), key=lambda item: (-item[1], item[0])))
        cards = ", ".join(c.card.id for c, _ in found[:5]) + (", ..." if len(found) > 5 else "")
        fields = f"{total} field{'s' * (total != 1)} of {len(found)} card{'s' * (len(found) != 1)}"
        are = "are" if total != 1 else "is"
        if kind == "copied":
            report.warning(code, f"'{lang}': {fields} {are} the source's text, copied unchanged ({counts}; {cards}): "
                           f"the kit prints {'them' if total != 1 else 'it'} in the source language", at,
                           help="translate them; a field of names or terms that may read the same in both languages "
                                "goes under the deck's 'translate: {names: [...]}'; `cardforge translate status` "
                                "lists every one")
        else:
            report.warning(code, f"'{lang}': {fields} {are} missing from their translations ({counts}; {cards}): "
                           "the kit prints the source's text", at,
                           help=f"`cardforge translate update {game.root.name} {lang}` writes them for a translator to "
                                "fill in; a field that is not translated does not belong in the deck's 'translate:'")


def _language_pos(game: Game, lang: str):
    for i, item in enumerate(game.data.get("languages") or []):
        if item == lang or (isinstance(item, dict) and item.get("lang") == lang):
            return game.doc.pos(f"/languages/{i}")
    return game.doc.pos("/languages")


def check_declarations(game: Game, report: Report) -> None:
    """A deck's `translate:` that names a field none of its cards has: a warning at the name."""
    for d, deck_data in enumerate(game.data.get("decks") or []):
        spec = deck_data.get("translate") if isinstance(deck_data, dict) else None
        deck = next((k for k in game.decks if k.pointer == f"/decks/{d}"), None)
        if deck is None or spec is None:
            continue
        known = sorted({name for card in deck.cards for name in card.data})
        lists = [("", spec)] if isinstance(spec, list) else [(f"/{k}", v) for k, v in spec.items() if isinstance(v, list)] \
            if isinstance(spec, dict) else []
        for sub, names in lists:
            for i, name in enumerate(names):
                if name not in known:
                    guess = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
                    report.warning("W-TRANSLATE-FIELD", f"translate: no card of deck '{deck.id}' has a field '{name}'",
                                   game.doc.pos(f"/decks/{d}/translate{sub}/{i}"),
                                   help=(f"did you mean '{guess[0]}'? " if guess else "") + "the deck's fields: "
                                   + ", ".join(known[:20]) + (" ..." if len(known) > 20 else ""))


def update(game: Game, entry: LanguageStatus) -> list[Path]:
    """Write the skeleton of what `entry` misses into the overlay files; returns the files written.
    Existing translations are kept as they are (their values and their files' leading comments);
    a new record gets the source's fingerprint, and each untranslated field its source text as a
    comment to translate."""
    folder = game.root / languages(game.data)[entry.lang]
    by_file: dict[Path, list[CardStatus]] = {}
    home: dict[Path, Path] = {}  # source card file -> its overlay file
    for c in entry.cards:
        if c.record is not None:
            home.setdefault(Path(c.card.doc.path), Path(c.record.doc.path))
    for c in entry.cards:
        target = home.get(Path(c.card.doc.path)) or folder / Path(c.card.doc.path).name
        by_file.setdefault(target, []).append(c)
    written = []
    for path, cards in by_file.items():
        if not any(c.missing for c in cards):
            continue
        header = _leading_comments(path)
        kept = [r for r in _records_in(entry, path) if not any(c.record is r for c in cards)]
        body = [_record_text(c) for c in cards if c.record is not None or c.missing]
        body += [_dump([r.data]) for r in kept]  # records of cards the source no longer has: kept, reported by check
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(header + "cards:\n" + "".join(body), "utf-8")
        written.append(path)
    return written


def _records_in(entry: LanguageStatus, path: Path) -> list[OverlayRecord]:
    overlay = entry.overlay
    return [r for r in (overlay.records if overlay else []) if Path(r.doc.path) == path]


def _leading_comments(path: Path) -> str:
    if not path.is_file():
        return ""
    lines = []
    for line in path.read_text("utf-8").splitlines(keepends=True):
        if not line.startswith("#"):
            break
        lines.append(line)
    return "".join(lines)


class _Dumper(yaml.SafeDumper):
    """Text of several lines as a literal block (|), so that it reads, and comments out, line by line."""


_Dumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def _yaml(value: Any) -> list[str]:
    text = yaml.dump(value, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10_000,
                     default_flow_style=False)
    return text.splitlines(keepends=True)


def _dump(items: list) -> str:
    return "".join("  " + line for line in _yaml(items))


def _record_text(c: CardStatus) -> str:
    data = dict(c.record.data) if c.record is not None else {c.key_field: c.card.id, SOURCE_KEY: c.digest}
    text = _dump([data])
    for name in c.missing:  # the source text, commented out: the translator fills it in
        source = _yaml({name: text_only(c.card.data[name], (c.card.deck.fields or {}).get(name))})
        text += "".join("    # " + line if line.strip() else "    #\n" for line in source)
    return text
