"""The front end as one call: load, validate, model, fonts, layouts and rules.

`prepare` returns a game ready to draw, or raises ContentError with every problem found in the
report.  `check`, `build` and `check --printed` all start here."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from . import resources
from .diagnostics import ContentError, Position, Report
from .frontend.components import Component, load_components
from .frontend.model import Card, Game, load_game, safe_path, size_points
from .gctuning import loading_gc
from .layout.fonts import FontError, builtin_fonts, fonts_for_game
from .layout.iconsets import credit_game, declared_icons
from .layout.icons import IconLibrary
from .layout.layouts import Layout, LayoutSet
from .layout.markup import apply_markup
from .layout.values import apply_value_maps
from .rules import check_game
from .units import LengthError


@dataclass
class Prepared:
    """A game ready to draw: its model and every layout it uses, resolved once."""
    game: Game
    layouts: LayoutSet
    fonts: object
    icons: IconLibrary
    faces: dict[tuple[str, str], Layout | None]  # (card id, side) -> layout
    boards: dict[str, Layout | None]  # board or reference sheet id -> layout
    outline: bool = False  # --outline: draw frame boxes, safe zone, trim and bleed over every face
    components: list[Component] = field(default_factory=list)  # the rulebook's component list, for the guide


def layout_roots(game_dir: Path, game_id: str, layouts_dir: Path | None) -> list[Path]:
    """Where a game's layouts are found: its own layouts/, then the library's folders for the game
    and its common/ (the library is --layouts, or layouts/ beside content/), then the common
    layouts shipped with cardforge, so that a game folder works from any directory."""
    game_dir = Path(game_dir)
    if layouts_dir is None:
        guess = game_dir.resolve().parent.parent / "layouts"  # content/<game> beside layouts/
        layouts_dir = guess if guess.is_dir() else None
    roots = [game_dir / "layouts"]
    if layouts_dir is not None:
        roots += [Path(layouts_dir) / game_id, Path(layouts_dir) / "common"]
    return roots + [resources.path("layouts")]  # shipped inside the package (resources.py)


def prepare(game_dir: Path, report: Report, layouts_dir: Path | None = None,
            force_files: list[Path] | None = None, lang: str | None = None) -> Prepared:
    """Front end: load and check everything that can be checked before drawing. Raises ContentError.
    `force_files`: check these force lists instead of the game's own (`cardforge force`)."""
    with loading_gc():
        return _prepare(game_dir, report, layouts_dir, force_files, lang)


def _prepare(game_dir: Path, report: Report, layouts_dir: Path | None, force_files: list[Path] | None,
             lang: str | None) -> Prepared:
    game = load_game(game_dir, report, force_files, lang)
    try:
        extra = {}
        for family, files in game.data.get("fonts", {}).items():
            paths = {}
            for style, rel in files.items():
                path = safe_path(game.root, rel)
                if path is None:
                    report.error("E-PATH", f"font file '{rel}' is outside the game folder",
                                 game.doc.pos(f"/fonts/{family}/{style}"),
                                 help="copy the font (and its licence) into the game folder, e.g. fonts/")
                elif not path.is_file():
                    report.error("E-MISSING-FILE", f"font file '{rel}' does not exist in the game folder",
                                 game.doc.pos(f"/fonts/{family}/{style}"))
                else:
                    paths[style] = path
            if "regular" in paths:
                extra[family] = paths
        fallbacks = _font_fallbacks(game, extra, report)
        fonts = fonts_for_game(game.id, extra, fallbacks)
    except FontError as exc:
        report.error("E-FONT", str(exc), game.doc.pos("/fonts"))
        raise ContentError(report) from None
    _check_page_text(game, fonts, report)
    roots = layout_roots(game_dir, game.id, layouts_dir)
    layouts = LayoutSet(roots, report, game.min_type, game.lang)
    library = declared_icons(game, report)  # game.yaml `icons:`, game-icons.net's by name
    icons = IconLibrary([game.root / "icons"] + [r / "icons" for r in roots[1:]], library)
    credit_game(game, library)  # on the cover and in the manifest, after the designer's credits
    apply_markup(game, icons, report)  # card text in a community's markup -> rich text
    apply_value_maps(game, report)  # a database's encodings (ArkhamDB's -2 cost) -> the printed text
    faces: dict[tuple[str, str], Layout | None] = {}
    for deck in game.decks:  # a deck's layouts are checked even when its card files failed
        for side, name in (("front", deck.front), ("back", deck.back)):
            if name is not None:
                layouts.get(name, deck.width, deck.height, game.doc.pos(f"{deck.pointer}/{side}"))
    for card in game.cards():
        for side, name in (("front", card.front), ("back", card.back)):
            if name is None:
                continue
            faces[(card.id, side)] = layouts.get(name, card.deck.width, card.deck.height, _used_at(game, card, side))
    boards = {board.id: layouts.get(board.layout, board.width, board.height, board.pos("layout"))
              for board in game.boards}
    roster = (game.data.get("forces") or {}).get("roster") if isinstance(game.data, dict) else None
    if isinstance(roster, dict):  # the roster sheet of `cardforge force`: checked (and used) with the game
        try:
            size = size_points(roster["size"])
        except (KeyError, TypeError, LengthError):
            size = None  # no size, or not a size: the game file's schema has said so
        if size is not None and isinstance(roster.get("layout"), str):
            layouts.get(roster["layout"], *size, game.doc.pos("/forces/roster/layout"))
    check_game(game, report, layouts=layouts, icons=icons, faces=faces, boards=boards, fonts=fonts)
    components = load_components(game, report)
    prepared = Prepared(game, layouts, fonts, icons, faces, boards, components=components)
    if report.has_errors():
        whole = None not in faces.values() and None not in boards.values()
        raise ContentError(report, prepared if whole else None)
    return prepared


def _font_fallbacks(game: Game, extra: dict, report: Report) -> dict[str, list[str]]:
    """game.yaml `font_fallbacks: {sans: [symbols]}`: the families that draw the glyphs a family lacks."""
    known = set(builtin_fonts().names()) | set(extra)
    chains: dict[str, list[str]] = {}
    for family, others in (game.data.get("font_fallbacks") or {}).items():
        for i, name in enumerate([family] + list(others)):
            if name not in known:
                guess = difflib.get_close_matches(name, sorted(known), n=1)
                report.error("E-FONT", f"font_fallbacks: unknown font family '{name}'",
                             game.doc.pos(f"/font_fallbacks/{family}" + (f"/{i - 1}" if i else ""), key=not i),
                             help=(f"did you mean '{guess[0]}'? " if guess else "") + "known families: "
                             + ", ".join(sorted(known)))
        chains[family] = [n for n in others if n in known and n != family]
    return chains


def _check_page_text(game: Game, fonts, report: Report) -> None:
    """Names printed on the cover and in footers must have glyphs too: no empty boxes anywhere."""
    sans, display = fonts.family("sans"), fonts.family("display")
    texts = [("/name", game.name, display.face_name("bold")), ("/name", game.name, sans.face_name("regular"))]
    for key in ("subtitle", "designer"):
        if game.data.get(key):
            texts.append((f"/{key}", str(game.data[key]), sans.face_name("regular")))
    texts += [(f"/credits/{i}", line, sans.face_name("regular")) for i, line in enumerate(game.data.get("credits", []))]
    for item in game.decks + game.boards:
        texts.append((f"{item.pointer}/name", item.name, sans.face_name("regular")))
    reported = set()
    for pointer, text, font in texts:
        missing = [ch for ch in fonts.missing_chars(font, text) if (pointer, ch) not in reported]
        if missing:
            reported.update((pointer, ch) for ch in missing)
            report.error("E-GLYPH", fonts.glyph_message(font, missing) + ", printed on the cover and page footers",
                         game.doc.pos(pointer), help=fonts.glyph_help(font, missing))


def _used_at(game: Game, card: Card, side: str) -> Position:
    """The place that chose this layout: the card's own key, or its deck's."""
    if side in card.entry:
        return card.pos(side)
    return game.doc.pos(f"{card.deck.pointer}/{side}")
