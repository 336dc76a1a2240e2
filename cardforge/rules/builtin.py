"""Checks every game gets: quantities, assets resolving in the game folder, unused layouts,
icons and files."""
from __future__ import annotations

import codecs
import fnmatch
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Position, Report
from ..frontend.model import Card, Game, safe_path
from ..render.evaluate import FaceEvaluator
from ..layout.icons import token_name
from ..layout.iconsets import library_hint
from ..layout.text import icon_names
from ..layout.repeat import walk_frames
from ..limits import read_bounded
from ..units import length, mm
from .positions import _guess, piece_pos, card_pos, refine

DEFAULT_MARGIN = "2mm"  # room a `holds` region leaves round its piece unless it says otherwise

RULES_FILE = "rules.yaml"  # the game's own rules (see check.py)
OWN_FILES = re.compile(r"^\..+\.cardforge(\.lock|-stage-\d+)$")  # output/lock.py, output/replace.py
# A database's own tooling beside its data (git and editor settings, scripts, package manifests):
# never content, so never "ignored". Data files (.json, .yaml, .csv) are still reported.
TOOL_FILES = re.compile(r"^\.|\.(py|js|mjs|cjs|ts|sh|bash|bat|ps1|rb|php|pl|coffee|lock)$|^(makefile|dockerfile|package(-lock)?\.json"
                        r"|tsconfig\.json|composer\.json|requirements\.txt|pyproject\.toml"
                        r"|setup\.cfg|changelog(\..*)?|contributing(\..*)?)$", re.I)
KEEP_FILES = re.compile(r"^(readme|credits|licen[cs]e|copying|copyright|notice|authors)([._-].*)?$|^rules\.md$", re.I)  # RULES.md: the coverage document


@dataclass
class AssetUse:
    icons: set[str] = field(default_factory=set)  # icon names drawn by some face
    images: set[Path] = field(default_factory=set)


_ALIKE_TYPES = frozenset({"shape", "text", "icon", "icon_row", "image", "field"})


def _alike_for_every_piece(layout) -> bool:
    """Whether every face drawn with `layout` names the same icons, symbols and images: its frames
    hold literal values only (no template reads the piece) and repeat nothing."""
    return all(frame.type in _ALIKE_TYPES and all(t.is_constant for t in frame.templates.values())
               for frame in walk_frames(layout.frames))


def check_assets(game: Game, report: Report, icons, fonts, faces: dict, boards: dict) -> AssetUse:
    """Every icon, image and inline :symbol: of every face resolves inside the game folder."""
    used = AssetUse()
    evaluator = FaceEvaluator(game, fonts, icons)
    pieces = [(card, side, faces.get((card.id, side))) for card in game.cards() for side in ("front", "back")
              if (card.id, side) in faces]
    pieces += [(board, "front", boards.get(board.id)) for board in game.boards]
    alike: dict[int, bool] = {}  # per layout: whether its faces are all alike (_alike_for_every_piece)
    evaluated: dict[tuple[int, str], list] = {}  # such a layout's frames, evaluated once per side
    for piece, side, layout in pieces:
        if layout is None:
            continue
        what = "card" if isinstance(piece, Card) else "board"
        if id(layout) not in alike:
            alike[id(layout)] = _alike_for_every_piece(layout)
        if alike[id(layout)]:  # a deck's back: the same on every card
            named = evaluated.get((id(layout), side))
            if named is None:
                named = evaluated[(id(layout), side)] = evaluator.named(layout, piece, side)
        else:
            named = evaluator.named(layout, piece, side)
        for frame in named:
            if frame.error is not None or not (frame.icon_names or frame.symbols or frame.image):
                continue  # nothing to resolve; or a template that fails is reported by the renderer, with what it was drawing
            if isinstance(piece, Card) and set(frame.fields) & piece.invalid:
                continue  # it reads a field with a schema error, reported already
            # The same diagnostics as the renderer's, so that `check` finds what `build` would.
            where = f"{what} '{piece.id}' ({side}), frame '{frame.name}' of layout '{layout.name}'"
            at = piece.pos()
            for name in frame.icon_names:
                if name in icons:
                    used.icons.add(name)
                else:
                    guess = icons.suggest(name)
                    report.error("E-UNKNOWN-ICON", f"{where}: unknown icon '{name}'", at, card=piece.id,
                                 help=f"did you mean '{guess}'?" if guess else library_hint(name) or
                                 "put an SVG file of that name in the game's icons/ folder")
            for name in frame.symbols:
                if name in icons:
                    used.icons.add(name)
                else:
                    guess = icons.suggest(name)
                    report.error("E-UNKNOWN-SYMBOL", f"{where}: ':{name}:' is not an icon, so it would be "
                                 "printed as text", refine(piece_pos(piece, frame.fields), f":{name}:"),
                                 card=piece.id, help=(f"did you mean ':{guess}:'? " if guess else "") +
                                 "write \\: for a literal colon, or add icons/" + name + ".svg"
                                 + (f"; {library_hint(name)}" if library_hint(name) else ""))
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
    evaluator.remember()
    for i, name in enumerate((game.data.get("cover") or {}).get("icons") or []):  # the cover's art
        if name in icons:
            used.icons.add(name)
        else:
            guess = icons.suggest(name)
            report.error("E-UNKNOWN-ICON", f"the cover's icons: unknown icon '{name}'", game.doc.pos(f"/cover/icons/{i}"),
                         help=f"did you mean '{guess}'?" if guess else library_hint(name) or
                         "put an SVG file of that name in the game's icons/ folder")
    folder = game.root / "icons"
    if folder.is_dir():
        root = _resolved(game.root)
        for svg in sorted(folder.glob("*.svg")):
            try:
                _resolved(svg).relative_to(root)
            except ValueError:
                report.error("E-PATH", f"icon '{svg.name}' links to a file outside the game folder",
                             Position(game.doc.path, 1, 1), help="copy the icon into the game's icons/ folder")
    return used


def check_quantities(game: Game, report: Report) -> None:
    for card in game.records():
        if card.quantity == 0:
            report.warning("W-QUANTITY", f"card '{card.id}' has quantity 0, so it is never printed",
                           card_pos(card, "quantity"), card=card.id,
                           help="remove the card, or give it the number of copies to print")


def check_changed(game: Game, report: Report) -> None:
    """`changed: [field, ...]` marks text corrected from the rulebook: each must be a field the card sets,
    and the card's `note` says what the rulebook printed and why it was changed."""
    for card in game.cards():
        changed = card.data.get("changed")
        if not isinstance(changed, list):
            continue
        for i, name in enumerate(changed):
            if name not in card.data or name in ("changed", "note", "id"):
                report.error("E-CHANGED", f"card '{card.id}' marks '{name}' as changed from the rulebook, but it "
                             "has no such field", card_pos(card, f"changed/{i}"), card=card.id,
                             help=f"name the card's fields that differ from the rulebook: {', '.join(sorted(k for k in card.data if k not in ('changed', 'note', 'id')))}")
        if changed and not card.data.get("note"):
            report.error("E-CHANGED", f"card '{card.id}' is changed from the rulebook ({', '.join(map(str, changed))}) "
                         "but has no note saying what the rulebook prints and why", card_pos(card, "changed"),
                         card=card.id, help="add note: \"The rulebook prints ...; changed because ...\"")


def check_unused_layouts(game: Game, report: Report, layouts) -> None:
    """Layout files of this game (its layouts/ and layouts/<game>/) that nothing uses."""
    loaded = {_resolved(doc.path) for doc in layouts.loaded.values() if doc is not None}
    loaded |= {_resolved(path) for layout in layouts.resolved.values() if layout is not None for path in layout.files}
    own_roots = [root for root in layouts.roots if root.name != "common"]
    for root in own_roots:
        for path in sorted(root.rglob("*.yaml")):
            if _resolved(path) not in loaded:
                name = path.relative_to(root).with_suffix("").as_posix()
                report.warning("W-UNUSED-LAYOUT", f"layout '{name}' is not used by any deck, card or board",
                               Position(path, 1, 1),
                               help="use it as a deck's front or back (or a card's), extend it, or delete it")


def check_capacity(game: Game, report: Report, faces: dict, boards: dict) -> None:
    """Region capacity: a frame that `holds` a piece (a card of a deck, a token) is at least that piece
    plus its margin on every side; otherwise the piece would not fit where the rules put it."""
    decks = {deck.id: deck for deck in game.decks}
    seen: set[int] = set()
    for layout in list(boards.values()) + list(faces.values()):
        if layout is None or id(layout) in seen:
            continue
        seen.add(id(layout))
        for frame in walk_frames(layout.frames):
            holds = frame.props.get("holds")
            if not holds:
                continue
            for hold in holds if isinstance(holds, list) else [holds]:
                at = frame.holds_at or frame.position
                deck = decks.get(hold["deck"])
                if deck is None:
                    report.error("E-CAPACITY", f"frame '{frame.name}' of layout '{layout.name}' holds pieces of "
                                 f"deck '{hold['deck']}', which game.yaml does not declare", at,
                                 help=_guess(hold["deck"], decks) + f"decks and token sheets: {', '.join(sorted(decks))}")
                    continue
                margin = length(hold.get("margin", DEFAULT_MARGIN))
                need_w, need_h = deck.width + 2 * margin, deck.height + 2 * margin
                fits = frame.width >= need_w - 0.01 and frame.height >= need_h - 0.01
                if hold.get("turn"):
                    fits = fits or (frame.width >= need_h - 0.01 and frame.height >= need_w - 0.01)
                if not fits:
                    report.error("E-CAPACITY", f"frame '{frame.name}' of layout '{layout.name}' is "
                                 f"{mm(frame.width):.1f} x {mm(frame.height):.1f} mm, but it holds a piece of "
                                 f"'{deck.id}' ({mm(deck.width):.1f} x {mm(deck.height):.1f} mm) with "
                                 f"{mm(margin):g} mm to spare on every side: it needs {mm(need_w):.1f} x "
                                 f"{mm(need_h):.1f} mm", at,
                                 help="make the frame larger, the margin smaller, or the pieces smaller")


def icons_named_in_layouts(layouts) -> set[str]:
    """Icon names a used layout names (a fallback such as card.art or 'wrench'), drawn or not."""
    names: set[str] = set()
    for layout in layouts.resolved.values():
        if layout is None:
            continue
        for frame in walk_frames(layout.frames):
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
    declared = game.data.get("icons") if isinstance(game.data, dict) else None  # library icons by name
    for key, ref in (declared.items() if isinstance(declared, dict) else
                     enumerate(declared) if isinstance(declared, list) else ()):
        name = key if isinstance(key, str) else str(ref).partition(":")[2]
        if isinstance(ref, str) and name not in used.icons:
            report.warning("W-UNUSED-ICON", f"icon '{name}' ({ref}) is not drawn on any face nor named in a "
                           "layout, yet the kit credits it", game.doc.pos(f"/icons/{key}"),
                           help=f"use it in a layout or a card's text (:{name}:), or remove it from icons:")
    folder = game.root / "icons"
    if not folder.is_dir():
        return
    unused = [svg.name for svg in sorted(folder.glob("*.svg")) if svg.stem not in used.icons and token_name(svg.stem) not in used.icons]
    if unused:
        report.warning("W-UNUSED-ICON", f"{len(unused)} icon(s) in icons/ are not drawn on any face nor named "
                       "in a layout: "
                       + ", ".join(unused), Position(game.doc.path, 1, 1),
                       help="use them in a layout or a card's text (:name:), or delete them")


def _resolved(path: Path) -> Path:
    """The path with its links followed; a symbolic-link loop stays as it is (made absolute, to
    compare with the resolved game folder)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        return path.absolute()


def check_files(game: Game, report: Report, used: AssetUse) -> None:
    """Every file of the game folder is loaded, used, or reported here."""
    known = {_resolved(doc.path) for doc in game.documents} | {_resolved(p) for p in used.images}
    known.add(_resolved(game.root / RULES_FILE))
    from ..frontend.translations import overlay_folders  # every language's files, printed or not
    translated = overlay_folders(game.root, game.data, safe_path)
    known.add(_resolved(game.root / "components.yaml"))  # the rulebook's component list (frontend/components.py)
    for files in game.data.get("fonts", {}).values():
        for rel in files.values():
            path = safe_path(game.root, rel)
            if path is not None:
                known.add(path)
    not_ours = _NotOurs(game)
    ignored: list[Path] = []
    for folder, dirs, files in os.walk(game.root):
        here = Path(folder)
        # cardforge's own output is never reported: the default build/ (a build run inside the game
        # folder), and any folder of built PDFs and manifests or of schemas `cardforge schema` wrote.
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "node_modules")
                         and not OWN_FILES.match(d)
                         and not (here == game.root and d == "build"))
        for name in sorted(files):
            path = here / name
            rel = path.relative_to(game.root)
            if _resolved(path) in known or KEEP_FILES.match(name) or TOOL_FILES.search(name) or OWN_FILES.match(name) or _is_output(path):
                continue
            if _head(path, 2) == b"#!":
                continue  # a script (bin/console), whatever its name: tooling, not content
            if any(_resolved(path).is_relative_to(folder) for folder in translated):
                continue  # a translation, checked by `check --lang`
            if not_ours.matches(rel.as_posix()):
                continue  # game.yaml's ignore: not the game's (a database's other packs)
            if rel.parts[0] == "icons" and path.suffix.lower() == ".svg":
                continue  # an icon; unused ones are W-UNUSED-ICON
            if rel.parts[0] == "layouts" and path.suffix.lower() in (".yaml", ".yml"):
                continue  # a layout; unused ones are W-UNUSED-LAYOUT
            if name.endswith((".schema.json", "_schema.json", "-schema.json")):
                continue  # a JSON Schema for the editor (`cardforge schema`, `cardforge new`)
            ignored.append(rel)
    not_ours.report_unused(report)
    for rel in ignored:
        path = game.root / rel
        special = _special_kind(path)
        if special:  # never read: a named pipe nobody writes would block
            why = f"it is {special}, not a regular file"
            help_ = "move it out of the game folder, or name it in game.yaml's ignore:"
        elif path.suffix.lower() in (".yaml", ".yml"):
            why = "it is not a card file of any deck, nor rules.yaml, nor a layout"
            help_ = "to load its cards, add it to a deck's 'cards' in game.yaml; otherwise delete it"
        elif path.suffix.lower() == ".svg" and rel.parts[0] != "icons":
            why = "icons are read from icons/ only"
            help_ = "move it to icons/ to use it as an icon, or delete it"
        else:
            why = "no layout draws it and game.yaml does not name it"
            help_ = "use it (an image in a layout, a font in game.yaml) or delete it"
        # the file itself is the position; a binary file, pipe or device has no line to quote
        where = Position(path, 1, 1, quote=_is_text(path))
        report.warning("W-IGNORED-FILE", "this file is ignored: " + why, where, help=help_)


class _NotOurs:
    """game.yaml's `ignore:`: the files of the game folder that are not the game's (the rest of
    a published database), each a glob over the path in the game folder ('*' crosses folders, a
    pattern ending in '/' names a folder). A pattern that matches no file is a warning."""

    def __init__(self, game: Game):
        patterns = game.data.get("ignore") if isinstance(game.data, dict) else None
        self.patterns = [p for p in patterns if isinstance(p, str) and p] if isinstance(patterns, list) else []
        self.used = [False] * len(self.patterns)
        self.doc = game.doc

    def matches(self, rel: str) -> bool:
        found = False
        for i, pattern in enumerate(self.patterns):
            if rel.startswith(pattern) if pattern.endswith("/") else fnmatch.fnmatchcase(rel, pattern):
                self.used[i] = found = True
        return found

    def report_unused(self, report: Report) -> None:
        for i, pattern in enumerate(self.patterns):
            if not self.used[i]:
                report.warning("W-IGNORE", f"ignore: '{pattern}' matches no file the check would report",
                               self.doc.pos(f"/ignore/{i}"),
                               help="a glob over the path in the game folder ('*.json', 'v2/*'), or a folder "
                               "ending in '/'; remove it if the files are gone")


OUTPUT_SUFFIXES = (".manifest.json", ".pdf", ".pdf.tmp", ".manifest.json.tmp")


def _is_output(path: Path) -> bool:
    """A file cardforge wrote: a built PDF or manifest (beside its manifest), or a schema from
    `cardforge schema` (its $id is one of cardforge's)."""
    name = path.name
    if name.endswith(OUTPUT_SUFFIXES):
        stem = name.split(".manifest.json")[0].split(".pdf")[0]
        return (path.parent / f"{stem}.manifest.json").is_file() or name.endswith(".manifest.json") and \
            _head(path).lstrip().startswith(b"{")
    if name.endswith(".schema.json"):
        return b'"$id": "https://cardforge.dev/schemas/' in _head(path, 65536)
    return False


def _head(path: Path, size: int = 4096) -> bytes:
    """The first bytes of a regular file (a FIFO nobody writes would block the check for ever)."""
    try:
        return read_bounded(path, size)[:size]
    except OSError:
        return b""


def _special_kind(path: Path) -> str | None:
    """'a named pipe (FIFO)', 'a socket' or 'a device' for such a path, else None."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else None


def _is_text(path: Path) -> bool:
    try:
        head = read_bounded(path, 4096)[:4096]
        codecs.getincrementaldecoder("utf-8")().decode(head)  # a character cut at 4096 bytes is still text
    except (OSError, UnicodeDecodeError):
        return False
    return b"\0" not in head
