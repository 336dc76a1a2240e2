"""The rules engine: a game's rulebook as data, checked against every card.

Two kinds of checks run after the model is loaded (from `build.prepare`, so both
`cardforge check` and `cardforge build` see them):

* Built-in checks every game gets: valid quantities, every image, icon and inline
  symbol resolving inside the game folder, unused layouts and icons, and every file
  of the game folder either used or reported (never skipped silently).  Unique ids
  are checked by the model (E-DUPLICATE-ID).
* The game's own rules, from `<game>/rules.yaml` (schema: cardforge/schemas/rules.schema.json):
  groups of cards, derived fields, checks, deck recipes and compositions, references
  between cards, and a glossary of game terms.  Conditions are sandboxed Jinja2
  expressions (see expressions.py).  Each rule has an id, cites the rulebook section it
  encodes, and reports at the offending card's field in its card file.

A mistake in the rules file itself (unknown key, an expression that does not parse, a
field no card has, an unknown group or card) is reported at its line and column in
rules.yaml, before any rule runs.
"""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from .diagnostics import Position, Report, display_path
from .expressions import (HELPERS, Expr, ExpressionError, MessageTemplate, get_path, icon_names,
                          marked_terms)
from .load import Document, load_yaml, pointer_join
from .model import Card, Game, safe_path
from .schema import builtin_schema, validate

RULES_FILE = "rules.yaml"
COMMON_FIELDS = ("id", "quantity", "authored", "note")
KEEP_FILES = re.compile(r"^(readme|credits|licen[cs]e|copying|notice|authors)([._-].*)?$", re.I)
RESERVED_PREFIXES = ("E-", "W-")


# -- entry point ---------------------------------------------------------------------------

def check_game(game: Game, report: Report, *, layouts=None, icons=None, faces=None, boards=None,
               fonts=None) -> None:
    """All checks beyond the schemas. Problems go to `report`; derived fields are added to the cards."""
    complete = _complete(game)
    # With a deck of game.yaml left out (game.yaml has errors), the rules file would be checked
    # against the wrong decks: then it is only validated, and its rules wait for a clean game.yaml.
    rules = load_rules(game, report, compile=_decks_defined(game))
    if rules is not None:
        rules.derive(report)
    used = AssetUse()
    if icons is not None and faces is not None:
        used = check_assets(game, report, icons, fonts, faces, boards or {})
    check_quantities(game, report)
    # Unused layouts, icons and files: only for a game that loaded cleanly, where "unused" means it.
    if complete and not report.has_errors():
        if layouts is not None:
            check_unused_layouts(game, report, layouts)
        if icons is not None:
            if layouts is not None:
                used.icons |= icons_named_in_layouts(layouts)
            check_unused_icons(game, report, used)
        check_files(game, report, used)
    if rules is not None:
        rules.run(report, complete)


def _decks_defined(game: Game) -> bool:
    data = game.data if isinstance(game.data, dict) else {}
    declared = [d for key in ("decks", "tokens") for d in (data.get(key) or [])]
    return len(declared) == len(game.decks)


def _complete(game: Game) -> bool:
    """False when a card file (or game.yaml) failed to load: rules over groups of cards would only
    repeat that error, or report cards as missing that are merely unreadable."""
    loaded = {doc.path.resolve(): doc for doc in game.documents}
    with_cards = {card.doc.path.resolve() for card in game.cards()}
    data = game.data if isinstance(game.data, dict) else {}
    decks = [d for key in ("decks", "tokens") for d in (data.get(key) or [])]
    if not _decks_defined(game):
        return False  # a deck game.yaml describes wrongly was left out
    for deck_data in decks:
        files = deck_data.get("cards", []) if isinstance(deck_data, dict) else None
        files = [files] if isinstance(files, str) else files
        if not isinstance(files, list):
            return False
        for rel in files:
            path = safe_path(game.root, rel) if isinstance(rel, str) else None
            doc = loaded.get(path) if path is not None else None
            if doc is None:
                return False
            if isinstance(doc.data, dict) and doc.data.get("cards") and path not in with_cards:
                return False
    return True


# -- positions -----------------------------------------------------------------------------

_lines: dict[tuple, list[str]] = {}


def _source(path: Path) -> list[str]:
    """The lines of a source file (cached while the file is unchanged)."""
    try:
        stat = Path(path).stat()
    except OSError:
        return []
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _lines:
        if len(_lines) > 256:
            _lines.clear()
        try:
            _lines[key] = Path(path).read_text("utf-8", errors="replace").splitlines()
        except OSError:
            _lines[key] = []
    return _lines[key]


def refine(pos: Position, needle: str | None) -> Position:
    """`pos` moved to where `needle` occurs in the value starting there (same or continuation lines)."""
    if not needle:
        return pos
    lines = _source(pos.path)
    if not 1 <= pos.line <= len(lines):
        return pos
    first = lines[pos.line - 1]
    index = first.find(needle, pos.col - 1)
    if index >= 0:
        return Position(pos.path, pos.line, index + 1)
    indent = len(first) - len(first.lstrip())
    for number in range(pos.line, min(len(lines), pos.line + 40)):
        line = lines[number]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        index = line.find(needle)
        if index >= 0:
            return Position(pos.path, number + 1, index + 1)
    return pos


def _field_pointer(path: str) -> str:
    pointer = ""
    for part in str(path).replace("/", ".").split("."):
        if part:
            pointer = pointer_join(pointer, part)
    return pointer


def card_pos(card: Card, path: str | None) -> Position:
    if not path:
        return card.pos()
    return card.doc.pos(card.pointer + _field_pointer(path))


def _with_section(help_text: str | None, section: str | None) -> str | None:
    parts = [p for p in (help_text, f"rulebook: {section}" if section else None) if p]
    return "; ".join(parts) if parts else None


def _guess(name: str, options) -> str:
    match = difflib.get_close_matches(str(name), sorted(set(map(str, options))), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'? " if match else ""


# -- built-in checks -----------------------------------------------------------------------

@dataclass
class AssetUse:
    icons: set[str] = field(default_factory=set)  # icon names drawn by some face
    images: set[Path] = field(default_factory=set)


def check_assets(game: Game, report: Report, icons, fonts, faces: dict, boards: dict) -> AssetUse:
    """Every icon, image and inline :symbol: of every face resolves inside the game folder."""
    from .verify import FaceEvaluator
    used = AssetUse()
    evaluator = FaceEvaluator(game, fonts, icons)
    pieces = [(card, side, faces.get((card.id, side))) for card in game.cards() for side in ("front", "back")
              if (card.id, side) in faces]
    pieces += [(board, "front", boards.get(board.id)) for board in game.boards]
    for piece, side, layout in pieces:
        if layout is None:
            continue
        what = "card" if isinstance(piece, Card) else "board"
        for frame in evaluator.frames(layout, piece, side, 1, text=False):
            if frame.error is not None:
                continue  # a template that fails is reported by the renderer, with what it was drawing
            # The same diagnostics as the renderer's, so that `check` finds what `build` would.
            where = f"{what} '{piece.id}' ({side}), frame '{frame.name}' of layout '{layout.name}'"
            at = piece.pos()
            for name in frame.icon_names:
                if name in icons:
                    used.icons.add(name)
                else:
                    guess = icons.suggest(name)
                    report.error("E-UNKNOWN-ICON", f"{where}: unknown icon '{name}'", at, card=piece.id,
                                 help=f"did you mean '{guess}'?" if guess else
                                 "put an SVG file of that name in the game's icons/ folder")
            for name in frame.symbols:
                if name in icons:
                    used.icons.add(name)
                else:
                    guess = icons.suggest(name)
                    report.error("E-UNKNOWN-SYMBOL", f"{where}: ':{name}:' is not an icon, so it would be "
                                 "printed as text", refine(_piece_pos(piece, frame.fields), f":{name}:"),
                                 card=piece.id, help=(f"did you mean ':{guess}:'? " if guess else "") +
                                 "write \\: for a literal colon, or add icons/" + name + ".svg")
            if frame.image is not None:
                path = safe_path(game.root, frame.image)
                if path is None:
                    report.error("E-PATH", f"{where}: image '{frame.image}' is outside the game folder", at,
                                 card=piece.id, help="images must lie inside the game folder")
                elif not path.is_file():
                    report.error("E-MISSING-IMAGE", f"{where}: image '{frame.image}' does not exist", at,
                                 card=piece.id, help=f"add the file at {Path(game.root.name) / frame.image}, "
                                 "or fix the name")
                else:
                    used.images.add(path)
    folder = game.root / "icons"
    if folder.is_dir():
        root = game.root.resolve()
        for svg in sorted(folder.glob("*.svg")):
            try:
                svg.resolve().relative_to(root)
            except ValueError:
                report.error("E-PATH", f"icon '{svg.name}' links to a file outside the game folder",
                             Position(game.doc.path, 1, 1), help="copy the icon into the game's icons/ folder")
    return used


def _piece_pos(piece, fields: list[str]) -> Position:
    """The first card field a frame's templates use that the card's file sets, else the card."""
    for name in fields:
        if isinstance(piece, Card):
            entry = piece.doc.data["cards"][int(piece.pointer.rsplit("/", 1)[1])]
            if name in entry:
                return piece.pos(name)
        elif name in piece.data:
            return piece.pos(f"data/{name}")
    return piece.pos()


def check_quantities(game: Game, report: Report) -> None:
    for card in game.cards():
        if card.quantity == 0:
            report.warning("W-QUANTITY", f"card '{card.id}' has quantity 0, so it is never printed",
                           card_pos(card, "quantity"), card=card.id,
                           help="remove the card, or give it the number of copies to print")


def check_unused_layouts(game: Game, report: Report, layouts) -> None:
    """Layout files of this game (its layouts/ and layouts/<game>/) that nothing uses."""
    loaded = {doc.path.resolve() for doc in layouts.loaded.values() if doc is not None}
    loaded |= {path.resolve() for layout in layouts.resolved.values() if layout is not None for path in layout.files}
    own_roots = [root for root in layouts.roots if root.name != "common"]
    for root in own_roots:
        for path in sorted(root.rglob("*.yaml")):
            if path.resolve() not in loaded:
                name = path.relative_to(root).with_suffix("").as_posix()
                report.warning("W-UNUSED-LAYOUT", f"layout '{name}' is not used by any deck, card or board",
                               Position(path, 1, 1),
                               help="use it as a deck's front or back (or a card's), extend it, or delete it")


def icons_named_in_layouts(layouts) -> set[str]:
    """Icon names a used layout names (a fallback such as card.art or 'wrench'), drawn or not."""
    names: set[str] = set()
    for layout in layouts.resolved.values():
        if layout is None:
            continue
        for frame in layout.frames:
            for key in ("icon", "empty_icon", "text"):
                value = frame.props.get(key)
                if not isinstance(value, str):
                    continue
                names.update(re.findall(r"['\"]([a-z][a-z0-9-]*)['\"]", value))
                names.update(icon_names(value))
                if key != "text":
                    names.add(value.strip())
    return names


def check_unused_icons(game: Game, report: Report, used: AssetUse) -> None:
    folder = game.root / "icons"
    if not folder.is_dir():
        return
    unused = [svg.name for svg in sorted(folder.glob("*.svg")) if svg.stem not in used.icons]
    if unused:
        report.warning("W-UNUSED-ICON", f"{len(unused)} icon(s) in icons/ are not drawn on any face nor named "
                       "in a layout: "
                       + ", ".join(unused), Position(game.doc.path, 1, 1),
                       help="use them in a layout or a card's text (:name:), or delete them")


def check_files(game: Game, report: Report, used: AssetUse) -> None:
    """Every file of the game folder is loaded, used, or reported here."""
    known = {doc.path.resolve() for doc in game.documents} | {p.resolve() for p in used.images}
    known.add((game.root / RULES_FILE).resolve())
    for files in game.data.get("fonts", {}).values():
        for rel in files.values():
            path = safe_path(game.root, rel)
            if path is not None:
                known.add(path)
    ignored: list[Path] = []
    for folder, dirs, files in os.walk(game.root):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "__pycache__"))
        here = Path(folder)
        for name in sorted(files):
            path = here / name
            rel = path.relative_to(game.root)
            if path.resolve() in known or KEEP_FILES.match(name):
                continue
            if rel.parts[0] == "icons" and path.suffix.lower() == ".svg":
                continue  # an icon; unused ones are W-UNUSED-ICON
            if rel.parts[0] == "layouts" and path.suffix.lower() in (".yaml", ".yml"):
                continue  # a layout; unused ones are W-UNUSED-LAYOUT
            ignored.append(rel)
    for rel in ignored:
        path = game.root / rel
        if path.suffix.lower() in (".yaml", ".yml"):
            why = "it is not a card file of any deck, nor rules.yaml, nor a layout"
            help_ = "to load its cards, add it to a deck's 'cards' in game.yaml; otherwise delete it"
        elif path.suffix.lower() == ".svg" and rel.parts[0] != "icons":
            why = "icons are read from icons/ only"
            help_ = "move it to icons/ to use it as an icon, or delete it"
        else:
            why = "no layout draws it and game.yaml does not name it"
            help_ = "use it (an image in a layout, a font in game.yaml) or delete it"
        text_file = _is_text(path)
        where = Position(path, 1, 1) if text_file else None
        report.warning("W-IGNORED-FILE", ("this file is ignored: " if text_file else
                                          f"{display_path(path, None)} is ignored: ") + why, where, help=help_)


def _is_text(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
        head.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return b"\0" not in head


# -- the rules file ------------------------------------------------------------------------

class RulesProblem(Exception):
    pass


@dataclass
class Compiled:
    expr: Expr
    pointer: str  # where it is in rules.yaml


@dataclass
class Group:
    name: str
    decks: list[str]
    where: Compiled | None
    members: list[dict] = field(default_factory=list)  # card views


class RuleSet:
    """A loaded, statically checked rules file, ready to run against a game."""

    def __init__(self, game: Game, doc: Document, report: Report):
        self.game, self.doc, self.report = game, doc, report
        self.data: dict = doc.data
        self.ok = True
        self.cards: list[Card] = game.cards()
        self.by_id = {card.id: card for card in self.cards}
        self.deck_fields = {deck.id: set(deck.fields) | set(COMMON_FIELDS) for deck in game.decks}
        self.all_fields = set().union(*self.deck_fields.values()) if self.deck_fields else set(COMMON_FIELDS)
        self.groups: dict[str, Group] = {}
        self.value_names: list[str] = []
        self.derived_names: set[str] = set()
        self.values: dict[str, Any] = {}
        self.views: dict[str, dict] = {}
        self.compiled: dict[str, Compiled | MessageTemplate] = {}
        self._reported: set[tuple] = set()
        self._failed: set[str] = set()
        self._ids: dict[str, str] = {}
        self._compile_all()

    # -- static checks of the rules file --------------------------------------------------

    def problem(self, code: str, message: str, pointer: str, needle: str | None = None, key: bool = False,
                help: str | None = None) -> None:
        self.ok = False
        pos = refine(self.doc.pos(pointer, key=key), needle)
        if (code, pos, message) in self._reported:
            return
        self._reported.add((code, pos, message))
        self.report.error(code, message, pos, help=help, pointer=pointer)

    def _rule_id(self, rule_id: str, pointer: str) -> None:
        if rule_id.startswith(RESERVED_PREFIXES):
            self.problem("E-RULES-ID", f"rule id '{rule_id}' starts with a prefix cardforge reserves "
                         "for its own diagnostics", pointer, help="start it with the game's initials, e.g. BB-")
        elif rule_id in self._ids:
            self.problem("E-RULES-ID", f"rule id '{rule_id}' is already used (line {self._ids[rule_id]})", pointer,
                         help="give every rule its own id")
        else:
            self._ids[rule_id] = str(self.doc.pos(pointer).line)

    def _decks_of(self, group: str | None) -> list[str]:
        if group is None or group not in self.groups:
            return [deck.id for deck in self.game.decks]
        return self.groups[group].decks

    def _fields_of(self, group: str | None, derived: bool = True) -> set[str]:
        fields = set(COMMON_FIELDS)
        for deck in self._decks_of(group):
            fields |= self.deck_fields.get(deck, set())
        if derived:
            fields |= self.derived_for(group)
        return fields

    def derived_for(self, group: str | None) -> set[str]:
        decks = set(self._decks_of(group))
        return {name for name, gdecks in self._derived_decks.items() if decks & gdecks}

    def expr(self, pointer: str, names: set[str], card_groups: dict[str, str | None],
             derived: bool = True) -> Compiled | None:
        """Compile the expression at `pointer` and check the names, fields and groups it uses."""
        source = self._at(pointer)
        if not isinstance(source, str):
            return None
        try:
            expr = Expr(source)
        except ExpressionError as exc:
            self.problem("E-RULES-EXPR", exc.message, pointer,
                         help="expressions are Jinja2 expressions, e.g. card.kind == 'item' and card.cost > 2")
            return None
        self._check_usage(expr.usage, pointer, names, card_groups, derived)
        return Compiled(expr, pointer)

    def template(self, pointer: str, names: set[str], card_groups: dict[str, str | None]) -> MessageTemplate | None:
        source = self._at(pointer)
        if not isinstance(source, str):
            return None
        try:
            tpl = MessageTemplate(source)
        except ExpressionError as exc:
            self.problem("E-RULES-EXPR", exc.message, pointer, help="write values as {{ card.title }}")
            return None
        self._check_usage(tpl.usage, pointer, names | {"value", "loop"}, card_groups, True)
        return tpl

    def _at(self, pointer: str) -> Any:
        value: Any = self.data
        for part in pointer.strip("/").split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(value, list):
                value = value[int(part)]
            elif isinstance(value, dict):
                value = value.get(part)
            else:
                return None
        return value

    def _check_usage(self, usage, pointer: str, names: set[str], card_groups: dict[str, str | None],
                     derived: bool) -> None:
        allowed = names | set(HELPERS)
        for name in sorted(usage.names - allowed):
            self.problem("E-RULES-REF", f"unknown name '{name}'", pointer, needle=name,
                         help=_guess(name, allowed) + f"known here: {', '.join(sorted(names - {'true', 'false', 'none', 'True', 'False', 'None'}))}")
        for group in usage.groups:
            if group not in self.groups:
                self.problem("E-RULES-REF", f"unknown group '{group}'", pointer, needle=group,
                             help=_guess(group, self.groups) + "groups are defined under 'groups:'")
        for value in usage.values:
            if value not in self.values_known:
                self.problem("E-RULES-REF", f"unknown value '{value}'", pointer, needle=value,
                             help=_guess(value, self.values_known) + "values are defined under 'values:', "
                             "and a value can use only those above it")
        for var, key in usage.fields:
            if var not in card_groups:
                continue
            scope = card_groups[var]
            fields = self._fields_of(scope, derived)
            if key not in fields:
                where = f"group '{scope}'" if scope else "any deck"
                self.problem("E-RULES-FIELD", f"no card of {where} has a field '{key}'", pointer,
                             needle=f"{var}.{key}" if f"{var}.{key}" in str(self._at(pointer)) else key,
                             help=_guess(key, fields) + f"fields: {', '.join(sorted(fields))}")
        for kind, name, key in usage.keys:
            first = key.split(".")[0]
            if kind == "group":
                if name not in self.groups:
                    continue
                fields, where = self._fields_of(name, derived), f"group '{name}'"
            elif kind == "card":
                if name not in card_groups:
                    continue
                fields = self._fields_of(card_groups[name], derived)
                where = f"group '{card_groups[name]}'" if card_groups[name] else "any deck"
            else:
                fields, where = self.all_fields | self._all_derived(), "any deck"
            if first not in fields:
                self.problem("E-RULES-FIELD", f"no card of {where} has a field '{first}'", pointer,
                             needle=f"'{key}'", help=_guess(first, fields) + f"fields: {', '.join(sorted(fields))}")

    def _all_derived(self) -> set[str]:
        return set(self._derived_decks)

    def _compile_all(self) -> None:
        data = self.data
        game_ids = {deck.id for deck in self.game.decks}
        base_names = {"cards", "groups", "values", "game", "group", "true", "false", "none", "True", "False", "None"}
        card_names = base_names | {"card", "deck"}
        self.values_known: list[str] = []
        self._derived_decks: dict[str, set[str]] = {}
        # groups: see raw fields only
        for name, spec in (data.get("groups") or {}).items():
            pointer = pointer_join("/groups", name)
            decks = spec.get("deck")
            decks = [decks] if isinstance(decks, str) else list(decks or [])
            for i, deck in enumerate(decks):
                if deck not in game_ids:
                    sub = pointer + "/deck" + ("" if isinstance(spec.get("deck"), str) else f"/{i}")
                    self.problem("E-RULES-REF", f"group '{name}': unknown deck '{deck}'", sub,
                                 help=_guess(deck, game_ids) + f"decks: {', '.join(sorted(game_ids))}")
            # An unknown deck is reported once; the group then stands for every deck, so that its
            # fields are not reported again by every rule that uses it.
            self.groups[name] = Group(name, [d for d in decks if d in game_ids] or
                                      [deck.id for deck in self.game.decks], None)
        for name, spec in (data.get("groups") or {}).items():
            if "where" in spec:
                pointer = pointer_join("/groups", name) + "/where"
                self.groups[name].where = self.expr(pointer, card_names, {"card": name}, derived=False)
        # derived fields
        for i, spec in enumerate(data.get("derived") or []):
            pointer = f"/derived/{i}"
            name, group = spec["name"], spec.get("group")
            if group is not None and group not in self.groups:
                self.problem("E-RULES-REF", f"unknown group '{group}'", pointer + "/group",
                             help=_guess(group, self.groups) + "groups are defined under 'groups:'")
                continue
            clash = [deck for deck in self._decks_of(group) if name in self.deck_fields.get(deck, ())]
            if clash or name in self._derived_decks:
                self.problem("E-RULES-FIELD", f"derived field '{name}' is already a field of "
                             + (f"deck '{clash[0]}'" if clash else "another derived rule"), pointer + "/name",
                             help="give the derived field a name of its own")
                continue
            self.compiled[pointer] = self.expr(pointer + "/value", card_names, {"card": group})
            self._derived_decks[name] = set(self._decks_of(group))
        # game-wide values, each seeing those above it
        for name in (data.get("values") or {}):
            pointer = pointer_join("/values", name)
            self.compiled[pointer] = self.expr(pointer, base_names, {})
            self.values_known.append(name)
        # checks
        for i, spec in enumerate(data.get("checks") or []):
            pointer = f"/checks/{i}"
            self._rule_id(spec["id"], pointer + "/id")
            group = spec.get("group")
            if not self._known_group(group, pointer + "/group"):
                continue
            scope = spec.get("scope", "card")
            if scope == "game" and ("group" in spec or "each" in spec or "at" in spec):
                key = next(k for k in ("group", "each", "at") if k in spec)
                self.problem("E-RULES", f"'{key}' needs scope: card", pointer + "/" + key, key=True,
                             help="a game check has no card to point at; remove the key or use scope: card")
                continue
            names = (card_names if scope == "card" else base_names) | set(spec.get("let") or {})
            groups = {"card": group} if scope == "card" else {}
            for let in (spec.get("let") or {}):
                self.compiled[f"{pointer}/let/{let}"] = self.expr(pointer_join(pointer + "/let", let), names, groups)
            if "each" in spec:
                self.compiled[pointer + "/each"] = self.expr(pointer + "/each", names, groups)
                names = names | {"item", "index"}
            for key in ("where", "assert"):
                if key in spec:
                    self.compiled[f"{pointer}/{key}"] = self.expr(f"{pointer}/{key}", names, groups)
            for key in ("message", "help", "find", "at"):
                if key in spec:
                    self.compiled[f"{pointer}/{key}"] = self.template(f"{pointer}/{key}", names, groups)
            if scope == "card" and "at" in spec and "{" not in spec["at"]:
                first = spec["at"].replace("/", ".").split(".")[0]
                fields = self._fields_of(group)
                if first not in fields:
                    self.problem("E-RULES-FIELD", f"'at': no card of {'group ' + repr(group) if group else 'any deck'} "
                                 f"has a field '{first}'", pointer + "/at",
                                 help=_guess(first, fields) + f"fields: {', '.join(sorted(fields))}")
        # recipes and compositions
        for i, spec in enumerate(data.get("recipes") or []):
            pointer = f"/recipes/{i}"
            self._rule_id(spec["id"], pointer + "/id")
            stated = spec.get("stated_by")
            pool_group = (spec.get("pool") or {}).get("group")
            bad = False
            for key, group in (("stated_by", stated), ("pool/group", pool_group)):
                if group is not None and group not in self.groups:
                    self.problem("E-RULES-REF", f"unknown group '{group}'", f"{pointer}/{key}",
                                 help=_guess(group, self.groups) + "groups are defined under 'groups:'")
                    bad = True
            if bad:
                continue
            recipe_groups = {"recipe": stated} if stated else {}
            names = card_names | ({"recipe"} if stated else set())
            if "where" in (spec.get("pool") or {}):
                self.compiled[pointer + "/pool/where"] = self.expr(pointer + "/pool/where", names,
                                                                   dict(recipe_groups, card=pool_group))
            line_names = (names - {"card", "deck"}) | {"line"}
            if isinstance(spec["lines"], str):
                if not stated:
                    self.problem("E-RULES", "lines from an expression need 'stated_by' (the cards that state them)",
                                 pointer + "/lines", help="write the lines here, or name the group of cards "
                                 "that state them")
                    continue
                self.compiled[pointer + "/lines"] = self.expr(pointer + "/lines", names - {"card", "deck"},
                                                              recipe_groups)
                if "match" not in spec:
                    self.problem("E-SCHEMA", "missing required key 'match'", pointer, help="add 'match: <expression>'"
                                 " saying which pool cards a line draws (it sees card and line)")
                    continue
                self.compiled[pointer + "/match"] = self.expr(pointer + "/match", names | {"line"},
                                                              dict(recipe_groups, card=pool_group))
                for key in ("count", "label"):
                    if key in spec:
                        self.compiled[f"{pointer}/{key}"] = self.expr(f"{pointer}/{key}", line_names, recipe_groups)
            else:
                for j, line in enumerate(spec["lines"]):
                    self.compiled[f"{pointer}/lines/{j}/match"] = self.expr(
                        f"{pointer}/lines/{j}/match", names, dict(recipe_groups, card=pool_group))
            if "total" in spec:
                self.compiled[pointer + "/total"] = self.expr(pointer + "/total", names - {"card", "deck"},
                                                              recipe_groups)
            if "must_draw" in spec:
                self.compiled[pointer + "/must_draw"] = self.expr(pointer + "/must_draw", names,
                                                                  dict(recipe_groups, card=pool_group))
            if "help" in spec:
                self.compiled[pointer + "/help"] = self.template(pointer + "/help", line_names, recipe_groups)
            if "label" in (spec.get("pool") or {}):
                self.compiled[pointer + "/pool/label"] = self.template(pointer + "/pool/label",
                                                                       names - {"card", "deck"}, recipe_groups)
            for key, value in (spec.get("at") or {}).items():
                fields = self._fields_of(stated)
                first = value.replace("/", ".").split(".")[0]
                if not stated:
                    self.problem("E-RULES", "'at' needs 'stated_by'", f"{pointer}/at", key=True)
                elif first not in fields:
                    self.problem("E-RULES-FIELD", f"'at': no card of group '{stated}' has a field '{first}'",
                                 f"{pointer}/at/{key}", help=_guess(first, fields))
        # references
        for i, spec in enumerate(data.get("references") or []):
            pointer = f"/references/{i}"
            self._rule_id(spec["id"], pointer + "/id")
            group = spec.get("group")
            if not self._known_group(group, pointer + "/group"):
                continue
            first = spec["field"].split(".")[0]
            fields = self._fields_of(group)
            if first not in fields:
                self.problem("E-RULES-FIELD", f"no card of {'group ' + repr(group) if group else 'any deck'} has "
                             f"a field '{first}'", pointer + "/field", help=_guess(first, fields))
            if "where" in spec:
                self.compiled[pointer + "/where"] = self.expr(pointer + "/where", card_names, {"card": group})
            to = spec["to"]
            if isinstance(to, str):
                self.compiled[pointer + "/to"] = self.expr(pointer + "/to", base_names, {})
            else:
                if to["group"] not in self.groups:
                    self.problem("E-RULES-REF", f"unknown group '{to['group']}'", pointer + "/to/group",
                                 help=_guess(to["group"], self.groups))
                else:
                    target_fields = self._fields_of(to["group"])
                    for key in ("key", "mutual"):
                        if key in to and to[key].split(".")[0] not in target_fields:
                            self.problem("E-RULES-FIELD", f"no card of group '{to['group']}' has a field "
                                         f"'{to[key]}'", f"{pointer}/to/{key}", help=_guess(to[key], target_fields))
            for key in ("message", "help"):
                if key in spec:
                    self.compiled[f"{pointer}/{key}"] = self.template(f"{pointer}/{key}", card_names | {"value"},
                                                                      {"card": group})
        # glossary
        glossary = data.get("glossary")
        if glossary:
            self._rule_id(glossary["id"], "/glossary/id")
            actions = glossary.get("actions")
            if actions:
                self._rule_id(actions["id"], "/glossary/actions/id")
                first = actions["field"].split(".")[0]
                if first not in self.all_fields:
                    self.problem("E-RULES-FIELD", f"no card has a field '{first}'", "/glossary/actions/field",
                                 help=_guess(first, self.all_fields))
            for j, path in enumerate(glossary["fields"]):
                first = path.split(".")[0]
                if first not in self.all_fields | self._all_derived():
                    self.problem("E-RULES-FIELD", f"no card has a field '{first}'", f"/glossary/fields/{j}",
                                 help=_guess(first, self.all_fields))
            for term, spec in glossary["terms"].items():
                tp = pointer_join("/glossary/terms", term)
                if "card" in spec and spec["card"] not in self.by_id:
                    self.problem("E-RULES-REF", f"term '{term}': unknown card '{spec['card']}'", tp + "/card",
                                 help=_guess(spec["card"], self.by_id))
                for k, holder in enumerate(spec.get("holders") or []):
                    if holder not in self.by_id:
                        self.problem("E-RULES-REF", f"term '{term}': unknown card '{holder}'", f"{tp}/holders/{k}",
                                     help=_guess(holder, self.by_id))
                if "holders" in spec and not actions:
                    self.problem("E-RULES", f"term '{term}' has holders but the glossary has no 'actions'",
                                 tp + "/holders", key=True,
                                 help="add glossary.actions: {id: ..., field: actions} saying where cards keep them")

    # -- running -----------------------------------------------------------------------------

    def _view(self, card: Card) -> dict:
        view = self.views.get(card.id)
        if view is None:
            view = dict(card.data)
            view["quantity"] = card.quantity
            self.views[card.id] = view
        return view

    def base_context(self) -> dict[str, Any]:
        ctx = dict(HELPERS)
        ctx.update(cards=[self._view(c) for c in self.cards], game=self.game.template_data(),
                   groups={name: g.members for name, g in self.groups.items()}, values=self.values,
                   group=self._group_fn)
        return ctx

    def _group_fn(self, name):
        if name not in self.groups:
            raise ValueError(f"unknown group '{name}'")
        return self.groups[name].members

    def card_context(self, base: dict, card: Card) -> dict:
        ctx = dict(base)
        ctx["card"] = self._view(card)
        ctx["deck"] = {"id": card.deck.id, "name": card.deck.name}
        return ctx

    def evaluate(self, compiled: Compiled | None, ctx: dict, what: str, default: Any = None) -> Any:
        """Run an expression; a failure is reported once per expression, and gives `default`."""
        if compiled is None:
            return default
        try:
            return compiled.expr(ctx)
        except ExpressionError as exc:
            if compiled.pointer not in self._failed:
                self._failed.add(compiled.pointer)
                self.report.error("E-RULES-EVAL", f"{what}: {exc.message}", self.doc.pos(compiled.pointer),
                                  help="the expression failed on this data; check the names and the types it uses")
            raise RulesProblem() from None

    def _members(self, group: str | None) -> list[Card]:
        if group is None:
            return self.cards
        ids = {view["id"] for view in self.groups[group].members}
        return [card for card in self.cards if card.id in ids]

    def derive(self, report: Report) -> None:
        """Groups, then derived fields (added to the cards' data), then the game-wide values."""
        if not self.ok:
            return
        base = self.base_context()
        for group in self.groups.values():
            decks = set(group.decks)
            for card in self.cards:
                if card.deck.id not in decks:
                    continue
                if group.where is not None:
                    try:
                        keep = self.evaluate(group.where, self.card_context(base, card),
                                             f"group '{group.name}' on card '{card.id}'")
                    except RulesProblem:
                        continue
                    if not keep:
                        continue
                group.members.append(self._view(card))
        for i, spec in enumerate(self.data.get("derived") or []):
            compiled = self.compiled.get(f"/derived/{i}")
            if compiled is None:
                continue
            name, group = spec["name"], spec.get("group")
            members = {c.id for c in self._members(group)}
            decks = self._derived_decks.get(name, set())
            for card in self.cards:
                if card.deck.id not in decks:
                    continue
                value = None
                if card.id in members:
                    try:
                        value = self.evaluate(compiled, self.card_context(base, card),
                                              f"derived field '{name}' of card '{card.id}'")
                    except RulesProblem:
                        pass
                card.data[name] = value
                self._view(card)[name] = value
        for name in (self.data.get("values") or {}):
            try:
                self.values[name] = self.evaluate(self.compiled.get(pointer_join("/values", name)), base,
                                                  f"value '{name}'")
            except RulesProblem:
                self.values[name] = None

    def run(self, report: Report, complete: bool = True) -> None:
        """Every rule; rules over groups of cards only when every card file loaded."""
        if not self.ok:
            return
        base = self.base_context()
        for i, spec in enumerate(self.data.get("checks") or []):
            if not complete and (spec.get("scope", "card") == "game" or self._reads_other_cards(i)):
                continue  # it would report cards as missing that are merely unreadable
            self._check(i, spec, base)
        if complete:
            for i, spec in enumerate(self.data.get("recipes") or []):
                self._recipe(i, spec, base)
            for i, spec in enumerate(self.data.get("references") or []):
                self._reference(i, spec, base)
        if self.data.get("glossary"):
            self._glossary(self.data["glossary"], base, complete)

    def _known_group(self, group: str | None, pointer: str) -> bool:
        """A rule's `group` must be defined (or absent); an unknown one is reported at `pointer`."""
        if group is None or group in self.groups:
            return True
        self.problem("E-RULES-REF", f"unknown group '{group}'", pointer,
                     help=_guess(group, self.groups) + "groups are defined under 'groups:'")
        return False

    def _reads_other_cards(self, index: int) -> bool:
        """Whether check `index` looks beyond its own card (groups, game-wide values)."""
        prefix = f"/checks/{index}/"
        for pointer, compiled in self.compiled.items():
            if pointer.startswith(prefix) and compiled is not None:
                usage = getattr(getattr(compiled, "expr", None), "usage", None) or getattr(compiled, "usage", None)
                if usage is not None and (usage.groups or usage.values or "groups" in usage.names
                                          or "values" in usage.names):
                    return True
        return False

    def _emit(self, severity: str, code: str, message: str, pos: Position, help: str | None, card: str | None,
              section: str | None) -> None:
        key = (code, pos, message)
        if key in self._reported:
            return
        self._reported.add(key)
        (self.report.error if severity == "error" else self.report.warning)(
            code, message, pos, help=_with_section(help, section), card=card)

    def _render(self, pointer: str, ctx: dict, default: str | None = None) -> str | None:
        tpl = self.compiled.get(pointer)
        if tpl is None:
            return default
        return tpl.render(ctx)

    def _check(self, i: int, spec: dict, base: dict) -> None:
        pointer = f"/checks/{i}"
        rule = spec["id"]
        severity = spec.get("severity", "error")
        lets = [(name, self.compiled.get(f"{pointer}/let/{name}")) for name in (spec.get("let") or {})]
        where = self.compiled.get(pointer + "/where")
        assertion = self.compiled.get(pointer + "/assert")
        each = self.compiled.get(pointer + "/each")
        if assertion is None:
            return

        def lets_into(ctx: dict, what: str) -> None:
            for name, compiled in lets:
                ctx[name] = self.evaluate(compiled, ctx, f"{rule} 'let: {name}' {what}")

        def fails(ctx: dict, what: str) -> bool:
            if where is not None and not self.evaluate(where, ctx, f"{rule} 'where' {what}"):
                return False
            return not self.evaluate(assertion, ctx, f"{rule} 'assert' {what}")

        if spec.get("scope", "card") == "game":
            ctx = dict(base)
            try:
                lets_into(ctx, "on the game")
                if fails(ctx, "on the game"):
                    self._emit(severity, rule, self._render(pointer + "/message", ctx),
                               self.doc.pos(pointer + "/assert"), self._render(pointer + "/help", ctx), None,
                               spec["section"])
            except RulesProblem:
                pass
            return
        default_at = next((key for var, key in assertion.expr.usage.fields if var == "card"), None)
        for card in self._members(spec.get("group")):
            card_ctx = self.card_context(base, card)
            what = f"on card '{card.id}'"
            try:
                lets_into(card_ctx, what)
                items = [None] if each is None else (self.evaluate(each, card_ctx, f"{rule} 'each' {what}") or [])
                for index, item in enumerate(items):
                    ctx = card_ctx if each is None else dict(card_ctx, item=item, index=index)
                    if not fails(ctx, what):
                        continue
                    at = self._render(pointer + "/at", ctx, default_at)
                    pos = refine(card_pos(card, at), self._render(pointer + "/find", ctx))
                    self._emit(severity, rule, self._render(pointer + "/message", ctx), pos,
                               self._render(pointer + "/help", ctx), card.id, spec["section"])
            except RulesProblem:
                continue

    def _recipe(self, i: int, spec: dict, base: dict) -> None:
        pointer = f"/recipes/{i}"
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        stated = spec.get("stated_by")
        pool_spec = spec.get("pool") or {}
        pool_where = self.compiled.get(pointer + "/pool/where")
        at = spec.get("at") or {}
        recipes = [(card, self._view(card)) for card in self._members(stated)] if stated else [(None, None)]
        for recipe_card, recipe in recipes:
            ctx = dict(base)
            if recipe is not None:
                ctx["recipe"] = recipe
            name = f"recipe of '{recipe_card.id}'" if recipe_card else f"recipe {rule}"
            try:
                pool = []
                for card in self._members(pool_spec.get("group")):
                    cctx = self.card_context(ctx, card)
                    if pool_where is None or self.evaluate(pool_where, cctx, f"{rule} pool, card '{card.id}'"):
                        pool.append(card)
                if isinstance(spec["lines"], str):
                    lines = self.evaluate(self.compiled.get(pointer + "/lines"), ctx, f"{rule} lines of {name}") or []
                    line_specs = [(line, self.compiled.get(pointer + "/match"), None) for line in lines]
                else:
                    line_specs = [({"count": line["count"], "label": line.get("label", f"line {j + 1}")},
                                   self.compiled.get(f"{pointer}/lines/{j}/match"), j)
                                  for j, line in enumerate(spec["lines"])]
                drawn: set[str] = set()
                counts = []
                for j, (line, match, static_index) in enumerate(line_specs):
                    lctx = dict(ctx, line=line)
                    count = self.evaluate(self.compiled.get(pointer + "/count"), lctx, f"{rule} count") \
                        if pointer + "/count" in self.compiled else get_path(line, "count")
                    label = self.evaluate(self.compiled.get(pointer + "/label"), lctx, f"{rule} label") \
                        if pointer + "/label" in self.compiled else (get_path(line, "label") or f"line {j + 1}")
                    if not isinstance(count, int) or isinstance(count, bool):
                        self._emit("error", "E-RULES-EVAL", f"{rule}: line {j + 1} of {name} has no whole-number "
                                   f"count ({count!r})", self.doc.pos(pointer + "/lines"), None, None, None)
                        continue
                    counts.append(count)
                    matched = [c for c in pool
                               if self.evaluate(match, dict(self.card_context(ctx, c), line=line),
                                                f"{rule} match, card '{c.id}'")]
                    drawn.update(c.id for c in matched)
                    available = sum(c.quantity for c in matched)
                    short = count > available
                    if short or (spec.get("exact") and count != available):
                        have = ", ".join(f"{c.id} x{c.quantity}" for c in matched[:6]) or "no card"
                        if len(matched) > 6:
                            have += f" and {len(matched) - 6} more"
                        if recipe_card is not None:
                            field_ = at.get("lines")
                            pos = card_pos(recipe_card, f"{field_}/{j}/count" if field_ else None)
                        else:
                            pos = self.doc.pos(f"{pointer}/lines/{static_index}/count")
                        verb = "needs" if short else "says there are exactly"
                        pool_name = self._render(pointer + "/pool/label", ctx)
                        where = f"the pool ({pool_name})" if pool_name else "the pool"
                        message = (f"{name}: '{count}x {label}' {verb} {count} card{'s' if count != 1 else ''}, "
                                   f"but {where} has {available}: {have}")
                        self._emit(severity, rule, message, pos, self._render(pointer + "/help", lctx), 
                                   recipe_card.id if recipe_card else None, section)
                if "total" in spec:
                    total = self.evaluate(self.compiled.get(pointer + "/total"), ctx, f"{rule} total of {name}")
                    if total != sum(counts):
                        pos = card_pos(recipe_card, at.get("total")) if recipe_card else self.doc.pos(pointer + "/total")
                        lines_text = " + ".join(str(c) for c in counts) or "0"
                        self._emit(severity, rule, f"{name}: the lines add up to {sum(counts)} cards "
                                   f"({lines_text}), but the stated total is {total}", pos,
                                   "make the counts add up to the total, or correct the total",
                                   recipe_card.id if recipe_card else None, section)
                must = self.compiled.get(pointer + "/must_draw")
                if must is not None:
                    for card in pool:
                        if card.id in drawn:
                            continue
                        if self.evaluate(must, self.card_context(ctx, card), f"{rule} must_draw, card '{card.id}'"):
                            self._emit(severity, rule, f"card '{card.id}' belongs to the pool of {name} but no "
                                       "line of the recipe draws it", card.pos(), "add a line for it, or move the "
                                       "card to another pool", card.id, section)
            except RulesProblem:
                continue

    def _reference(self, i: int, spec: dict, base: dict) -> None:
        pointer = f"/references/{i}"
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        where = self.compiled.get(pointer + "/where")
        to = spec["to"]
        ignore = spec.get("ignore") or []
        try:
            if isinstance(to, str):
                allowed = self.evaluate(self.compiled.get(pointer + "/to"), dict(base), f"{rule} 'to'") or []
                targets = {self._hashable(v): None for v in allowed}
                what = "an allowed value"
            else:
                key = to.get("key", "id")
                targets = {}
                for card in self._members(to["group"]):
                    got = get_path(self._view(card), key)
                    for value in (got if isinstance(got, list) else [got]):
                        targets.setdefault(self._hashable(value), card)
                what = f"a card of group '{to['group']}' (by {key})"
        except RulesProblem:
            return
        for card in self._members(spec.get("group")):
            ctx = self.card_context(base, card)
            try:
                if where is not None and not self.evaluate(where, ctx, f"{rule} 'where' on card '{card.id}'"):
                    continue
            except RulesProblem:
                continue
            for path, value in _walk(self._view(card), spec["field"]):
                if value is None or value in ignore:
                    continue
                hv = self._hashable(value)
                pos = card_pos(card, path)
                vctx = dict(ctx, value=value)
                if hv not in targets:
                    message = self._render(pointer + "/message", vctx,
                                           f"{spec['field']} '{value}' of card '{card.id}' does not name {what}")
                    help_ = self._render(pointer + "/help", vctx, _guess(value, [k for k in targets if isinstance(k, str)])
                                         .strip() or None)
                    self._emit(severity, rule, message, pos, help_, card.id, section)
                    continue
                target = targets[hv]
                mutual = None if isinstance(to, str) else to.get("mutual")
                if mutual and target is not None:
                    back = get_path(self._view(target), mutual)
                    if card.id != back and not (isinstance(back, list) and card.id in back):
                        self._emit(severity, rule, f"card '{card.id}' names '{target.id}' in {spec['field']}, but "
                                   f"'{target.id}' names {back!r} in {mutual}, not '{card.id}'", pos,
                                   f"the two faces must name each other: set {mutual}: {card.id} on "
                                   f"'{target.id}'", card.id, section)

    @staticmethod
    def _hashable(value: Any) -> Any:
        if isinstance(value, list):
            return tuple(RuleSet._hashable(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, RuleSet._hashable(v)) for k, v in value.items()))
        return value

    def _glossary(self, spec: dict, base: dict, complete: bool) -> None:
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        index: dict[str, str] = {}
        for term, entry in spec["terms"].items():
            for name in [term] + list(entry.get("aliases") or []):
                index[normalize_term(name)] = term
        emphasis = {normalize_term(word) for word in spec.get("emphasis") or []}
        for card in self.cards:
            view = self._view(card)
            for path in spec["fields"]:
                for sub, text in _walk(view, path):
                    for mark in marked_terms(text):
                        term = mark["term"]
                        key = normalize_term(term)
                        if not key or key in emphasis or key in index:
                            continue
                        guess = difflib.get_close_matches(key, list(index), n=1, cutoff=0.5)
                        hint = f"did you mean '{index[guess[0]]}'? " if guess else ""
                        self._emit(severity, rule, f"card '{card.id}' marks '{term}' as a game term, but the "
                                   "glossary does not define it", refine(card_pos(card, sub), f"**{term}**"),
                                   hint + "define it under glossary.terms in rules.yaml (or as an alias), "
                                   "or write it without ** if it is not a term", card.id, section)
        actions = spec.get("actions")
        if not actions or not complete:
            return
        action_rule = actions["id"]
        name_key = actions.get("name", "name")
        for term, entry in spec["terms"].items():
            holders = entry.get("holders")
            if holders is None:
                continue
            want = entry.get("action") or {name_key: term}
            term_section = entry["section"]
            for card in self.cards:
                view = self._view(card)
                acts = get_path(view, actions["field"].split(".")[0])
                if not isinstance(acts, list):
                    if card.id in holders:
                        self._emit("error", action_rule, f"card '{card.id}' is said to have the action '{term}', "
                                   f"but it has no '{actions['field']}'", card.pos(), None, card.id, term_section)
                    continue
                found = [k for k, act in enumerate(acts)
                         if isinstance(act, dict) and all(get_path(act, k2) == v for k2, v in want.items())]
                title = view.get("title") or card.id
                if card.id in holders and not found:
                    wanted = ", ".join(f"{k}: {v}" for k, v in want.items())
                    self._emit("error", action_rule, f"the rulebook gives {title} ('{card.id}') the action "
                               f"'{term}', but the card has no action with {wanted}",
                               card_pos(card, actions["field"]),
                               f"add the action to the card's {actions['field']}", card.id, term_section)
                if card.id not in holders and found:
                    others = ", ".join(holders) or "no card"
                    self._emit("error", action_rule, f"{title} ('{card.id}') has the action '{term}', which the "
                               f"rulebook gives only to {others}",
                               card_pos(card, f"{actions['field']}/{found[0]}"),
                               "remove the action, or add the card to the term's holders if the rulebook says so",
                               card.id, term_section)


def _walk(view: Any, path: str, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(pointer-ish path, value) for each value at a dotted path, through lists with their index."""
    head, _, rest = path.partition(".")
    if isinstance(view, list):
        for i, item in enumerate(view):
            yield from _walk(item, path, f"{prefix}/{i}" if prefix else str(i))
        return
    if not isinstance(view, dict) or head not in view:
        return
    value = view[head]
    here = f"{prefix}/{head}" if prefix else head
    if rest:
        yield from _walk(value, rest, here)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield f"{here}/{i}", item
    else:
        yield here, value


TRAILING = re.compile(r"(\s*[+\-−]\s*\d+)+$|[\s.,;:!?]+$")


def normalize_term(term: str) -> str:
    """A marked term as the glossary knows it: no trailing modifier (+1) or punctuation, one space, lower case."""
    text = " ".join(str(term).replace("’", "'").split())
    previous = None
    while previous != text:
        previous, text = text, TRAILING.sub("", text).strip()
    return text.lower()


def load_rules(game: Game, report: Report, compile: bool = True) -> RuleSet | None:
    """The game's rules.yaml, validated and compiled; None when it is missing or unusable."""
    path = game.root / RULES_FILE
    if not path.is_file():
        return None
    doc = load_yaml(path, report)
    if doc is None:
        return None
    if not validate(doc, builtin_schema("rules"), report) or not compile:
        return None
    rules = RuleSet(game, doc, report)
    return rules if rules.ok else None
