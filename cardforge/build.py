"""The pipeline: load -> validate -> model -> layouts -> render + impose -> write.

`build_game` compiles one game folder into PDFs and their manifests.  Nothing is
written unless every stage succeeded: PDFs go to temporary files that are renamed
over the previous output only at the very end, so a failed build leaves the
last good kit untouched.  Output is deterministic (reportlab's invariant mode,
sorted iteration), so the same input gives the same bytes.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

from .diagnostics import ContentError, Position, Report
from .fonts import FontError, fonts_for_game
from .icons import IconLibrary
from .impose import Sheet, draw_crop_marks, draw_fold_lines, plan
from .layout import Layout, LayoutSet
from .model import Card, Game, load_game, safe_path
from .render import CardRenderer
from .units import MM, mm

PAPERS = ("a4", "letter")
MODES = ("duplex", "simplex", "fold")
Progress = Callable[[int, int], None]


@dataclass
class BuildResult:
    report: Report
    outputs: list[Path] = field(default_factory=list)
    game: Game | None = None


@dataclass
class Prepared:
    """A game ready to draw: its model and every layout it uses, resolved once."""
    game: Game
    layouts: LayoutSet
    fonts: object
    icons: IconLibrary
    faces: dict[tuple[str, str], Layout | None]  # (card id, side) -> layout


def layout_roots(game_dir: Path, game_id: str, layouts_dir: Path | None) -> list[Path]:
    """Where a game's layouts are found: its own layouts/, then the shared library's folders."""
    game_dir = Path(game_dir)
    if layouts_dir is None:
        guess = game_dir.resolve().parent.parent / "layouts"  # content/<game> beside layouts/
        layouts_dir = guess if guess.is_dir() else None
    roots = [game_dir / "layouts"]
    if layouts_dir is not None:
        roots += [Path(layouts_dir) / game_id, Path(layouts_dir) / "common"]
    return roots


def prepare(game_dir: Path, report: Report, layouts_dir: Path | None = None) -> Prepared:
    """Front end: load and check everything that can be checked before drawing. Raises ContentError."""
    game = load_game(game_dir, report)
    try:
        extra = {}
        for family, files in game.data.get("fonts", {}).items():
            paths = {}
            for style, rel in files.items():
                path = safe_path(game.root, rel)
                if path is None or not path.is_file():
                    report.error("E-MISSING-FILE", f"font file '{rel}' does not exist in the game folder",
                                 game.doc.pos(f"/fonts/{family}/{style}"))
                else:
                    paths[style] = path
            if "regular" in paths:
                extra[family] = paths
        fonts = fonts_for_game(game.id, extra)
    except FontError as exc:
        report.error("E-FONT", str(exc), game.doc.pos("/fonts"))
        raise ContentError(report) from None
    roots = layout_roots(game_dir, game.id, layouts_dir)
    layouts = LayoutSet(roots, report)
    icons = IconLibrary([game.root / "icons"] + [r / "icons" for r in roots[1:]])
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
    if report.has_errors():
        raise ContentError(report)
    return Prepared(game, layouts, fonts, icons, faces)


def _used_at(game: Game, card: Card, side: str) -> Position:
    """The place that chose this layout: the card's own key, or its deck's."""
    if side in card.doc.data["cards"][int(card.pointer.rsplit("/", 1)[1])]:
        return card.pos(side)
    return game.doc.pos(f"{card.deck.pointer}/{side}")


def render_cards(prep: Prepared, paper: str, mode: str, target: Path, report: Report,
                 progress: Progress | None = None) -> dict:
    """Draw every card of the game onto `target` (a PDF path); returns the manifest."""
    game = prep.game
    canvas = Canvas(str(target), invariant=1, pageCompression=1, initialFontName="sans-regular", initialFontSize=9)
    canvas.setTitle(f"{game.name} - cards ({paper.upper()}, {mode})")
    canvas.setAuthor(game.data.get("designer", ""))
    canvas.setCreator("cardforge")
    canvas.setProducer("cardforge")
    renderer = CardRenderer(canvas, game, prep.fonts, prep.icons, report)
    manifest = {"game": game.id, "paper": paper, "mode": mode, "units": "mm, origin at the page's lower left",
                "pages": [], "cards": []}
    total = sum(card.quantity * (2 if card.back else 1) for card in game.cards())
    done = 0
    deferred_backs: list[tuple[Sheet, list]] = []

    def new_page(sheet: Sheet, label: str) -> int:
        if manifest["pages"]:
            canvas.showPage()
        canvas.setPageSize((sheet.page_w, sheet.page_h))
        number = len(manifest["pages"]) + 1
        manifest["pages"].append({"page": number, "size": [round(mm(sheet.page_w), 2), round(mm(sheet.page_h), 2)],
                                  "content": label})
        _footer(canvas, sheet, f"{game.name} · {label} · page {number} · print at 100% (actual size)")
        return number

    def face(card: Card, copy: int, side: str, x: float, y: float, page: int, sheet: Sheet) -> None:
        nonlocal done
        layout = prep.faces[(card.id, side)]
        frames = renderer.draw(layout, card, side, copy, x, y, game.bleed)
        manifest["cards"].append({
            "card": card.id, "deck": card.deck.id, "copy": copy, "side": side, "layout": layout.name,
            "page": page, "trim": [round(mm(v), 3) for v in (x, y, sheet.card_w, sheet.card_h)],
            "bleed": round(mm(game.bleed), 3), "frames": frames})
        done += 1
        if progress:
            progress(done, total)

    for deck in game.decks:
        instances = [(card, copy) for card in deck.cards for copy in range(1, card.quantity + 1)]
        if not instances:
            continue
        sheet = plan(paper, deck.width, deck.height, game.bleed, fold=(mode == "fold"))
        if sheet is None or sheet.per_page == 0:
            report.error("E-IMPOSE", f"cards of deck '{deck.id}' ({mm(deck.width):.0f} x {mm(deck.height):.0f} mm) "
                         f"do not fit on {paper.upper()} paper", game.doc.pos(deck.pointer))
            continue
        for start in range(0, len(instances), sheet.per_page):
            chunk = instances[start:start + sheet.per_page]
            page = new_page(sheet, f"{deck.name}, fronts" if mode != "fold" else f"{deck.name}, fold-over")
            trims, backs = [], []
            for i, (card, copy) in enumerate(chunk):
                x, y = sheet.slot(i)
                face(card, copy, "front", x, y, page, sheet)
                trims.append((x, y, sheet.card_w, sheet.card_h))
                if card.back:
                    backs.append((i, card, copy, x, y))
            if mode == "fold":
                for i, card, copy, _, _ in backs:
                    bx, by = sheet.fold_back(i)
                    face(card, copy, "back", bx, by, page, sheet)
                    trims.append((bx, by, sheet.card_w, sheet.card_h))
                draw_fold_lines(canvas, sheet, [t for t in trims[:len(chunk)]])
            draw_crop_marks(canvas, sheet, trims)
            if mode == "duplex" and backs:
                _back_page(sheet, backs, new_page(sheet, f"{deck.name}, backs"), face, canvas, mirrored=True)
            elif mode == "simplex" and backs:
                deferred_backs.append((sheet, deck, backs))
    for sheet, deck, backs in deferred_backs:
        _back_page(sheet, backs, new_page(sheet, f"{deck.name}, backs"), face, canvas, mirrored=False)
    if not report.has_errors():
        canvas.save()
    return manifest


def _back_page(sheet: Sheet, backs: list, page: int, face, canvas, mirrored: bool) -> None:
    trims = []
    for _, card, copy, x, y in backs:
        bx, by = sheet.behind(x, y) if mirrored else (x, y)
        face(card, copy, "back", bx, by, page, sheet)
        trims.append((bx, by, sheet.card_w, sheet.card_h))
    draw_crop_marks(canvas, sheet, trims)


def _footer(canvas, sheet: Sheet, text: str) -> None:
    canvas.saveState()
    canvas.setFont("sans-regular", 6.5)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawCentredString(sheet.page_w / 2, 2.2 * MM + 2, text)
    canvas.restoreState()


def build_game(game_dir: Path, out_dir: Path, papers=PAPERS, mode: str = "duplex",
               layouts_dir: Path | None = None, progress: Progress | None = None) -> BuildResult:
    report = Report()
    result = BuildResult(report)
    try:
        prep = prepare(game_dir, report, layouts_dir)
    except ContentError:
        return result
    result.game = prep.game
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for paper in papers:
            suffix = "" if mode == "duplex" else f"-{mode}"
            final = out_dir / f"{prep.game.id}-cards-{paper}{suffix}.pdf"
            tmp = final.with_name(final.name + ".tmp")
            manifest = render_cards(prep, paper, mode, tmp, report, progress)
            if report.has_errors():
                break
            staged.append((tmp, final))
            mtmp = final.with_suffix(".manifest.json.tmp")
            mtmp.write_text(json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n", "utf-8")
            staged.append((mtmp, final.with_suffix(".manifest.json")))
        if report.has_errors():
            return result
        for tmp, final in staged:
            os.replace(tmp, final)
            result.outputs.append(final)
        staged.clear()
        return result
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        for paper in papers:
            for leftover in out_dir.glob(f"{prep.game.id}-cards-{paper}*.tmp"):
                leftover.unlink(missing_ok=True)
