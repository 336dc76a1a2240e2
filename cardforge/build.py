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

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from .diagnostics import ContentError, Position, Report
from .fonts import FontError, fonts_for_game
from .icons import IconLibrary
from .impose import (Sheet, Tile, draw_alignment_mark, draw_assembly_map, draw_crop_marks, draw_cut_guides,
                     draw_fold_lines, paper_size, plan, plan_tiles, tile_spans)
from .layout import Layout, LayoutSet
from .model import Card, Game, load_game, safe_path
from .render import CardRenderer
from .units import MM, mm

# Compressed streams stay binary: ASCII85 would make every page a quarter larger and slower to write.
rl_config.useA85 = 0
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
    boards: dict[str, Layout | None]  # board or reference sheet id -> layout


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
    _check_page_text(game, fonts, report)
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
    boards = {board.id: layouts.get(board.layout, board.width, board.height, board.pos("layout"))
              for board in game.boards}
    from .rules import check_game  # the game's rules.yaml and the checks every game gets
    check_game(game, report, layouts=layouts, icons=icons, faces=faces, boards=boards, fonts=fonts)
    if report.has_errors():
        raise ContentError(report)
    return Prepared(game, layouts, fonts, icons, faces, boards)


def _check_page_text(game: Game, fonts, report: Report) -> None:
    """Names printed on the cover and in footers must have glyphs too: no empty boxes anywhere."""
    sans, display = fonts.family("sans"), fonts.family("display")
    texts = [("/name", game.name, display.face("bold")), ("/name", game.name, sans.face("regular"))]
    for key in ("subtitle", "designer"):
        if game.data.get(key):
            texts.append((f"/{key}", str(game.data[key]), sans.face("regular")))
    texts += [(f"/credits/{i}", line, sans.face("regular")) for i, line in enumerate(game.data.get("credits", []))]
    for item in game.decks + game.boards:
        texts.append((f"{item.pointer}/name", item.name, sans.face("regular")))
    reported = set()
    for pointer, text, font in texts:
        missing = [ch for ch in fonts.missing_chars(font, text) if (pointer, ch) not in reported]
        if missing:
            reported.update((pointer, ch) for ch in missing)
            shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
            report.error("E-GLYPH", f"font '{font}' has no glyph for {shown}, printed on the cover and page footers",
                         game.doc.pos(pointer), help="replace the character")


def _used_at(game: Game, card: Card, side: str) -> Position:
    """The place that chose this layout: the card's own key, or its deck's."""
    if side in card.doc.data["cards"][int(card.pointer.rsplit("/", 1)[1])]:
        return card.pos(side)
    return game.doc.pos(f"{card.deck.pointer}/{side}")


@dataclass
class Page:
    """One planned page: its size, what it holds, and how to draw it."""
    width: float
    height: float
    section: str  # cards, boards, tokens, references (or cover)
    label: str  # shown in the footer and, for a component's first page, in the contents
    draw: Callable[["Writer", int], None]
    scale_bar: bool = True


class Writer:
    """Draws planned pages into one PDF and collects its manifest."""

    def __init__(self, prep: Prepared, target: Path | None, title: str, report: Report, progress: Progress | None,
                 total_faces: int):
        self.prep, self.report, self.progress, self.total = prep, report, progress, total_faces
        game = prep.game
        for family in ("sans", "display"):  # the canvas's initial font, page furniture and cover
            prep.fonts.family(family)
        self.canvas = NullCanvas() if target is None else Canvas(
            str(target), invariant=1, pageCompression=1, initialFontName="sans-regular", initialFontSize=9)
        self.canvas.setTitle(title)
        self.canvas.setAuthor(game.data.get("designer", ""))
        self.canvas.setCreator("cardforge")
        self.canvas.setProducer("cardforge")
        self.renderer = CardRenderer(self.canvas, game, prep.fonts, prep.icons, report)
        self.manifest: dict = {"game": game.id, "title": title, "units": "mm, origin at the page's lower left",
                               "pages": [], "cards": [], "tokens": [], "boards": [], "references": []}
        self.done = 0

    def write(self, pages: list[Page]) -> dict:
        for number, page in enumerate(pages, start=1):
            if number > 1:
                self.canvas.showPage()
            self.canvas.setPageSize((page.width, page.height))
            entry = {"page": number, "size": [round(mm(page.width), 2), round(mm(page.height), 2)],
                     "section": page.section, "content": page.label}
            self.manifest["pages"].append(entry)
            page.draw(self, number)
            entry["scale_bar"] = _furniture(self.canvas, page, number, self.prep.game.name)
        if not self.report.has_errors():
            self.canvas.save()
        return self.manifest


    def face(self, section: str, layout: Layout, piece, side: str, copy: int, x: float, y: float, bleed: float,
             page: int, shape: str = "rect", **extra) -> None:
        frames = self.renderer.draw(layout, piece, side, copy, x, y, bleed, shape)
        record = {"page": page, "side": side, "layout": layout.name, "copy": copy,
                  "trim": [round(mm(v), 3) for v in (x, y, layout.width, layout.height)],
                  "bleed": round(mm(bleed), 3), "frames": frames}
        key = "board" if section in ("boards", "references") else "card"
        record[key] = piece.id
        if key == "card":
            record["deck"] = piece.deck.id
        record.update(extra)
        self.manifest[section].append(record)
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total)


class NullCanvas:
    """A canvas that draws nothing: `check` lays every page out (fitting text, tables, tracks)
    to find what only drawing would find, without the cost of producing a PDF."""

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self


def lay_out(prep: Prepared, report: Report, paper: str = "a4", mode: str = "duplex") -> None:
    """Every page laid out without output, so that `check` reports what `build` would."""
    pages = [page for _, section in plan_sections(prep, paper, mode, report) for page in section]
    if not report.has_errors():
        Writer(prep, None, "check", report, None, 0).write(pages)


def _furniture(canvas, page: Page, number: int, game_name: str) -> list[float] | None:
    """Footer on every page: what it is, the page number, and a 50 mm bar to check the print scale."""
    canvas.saveState()
    canvas.setFont("sans-regular", 6)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawRightString(page.width - 8 * MM, 2.6 * MM,
                           f"{game_name} · {page.label} · page {number} · print at 100% / actual size")
    bar = None
    if page.scale_bar:
        x0, y0 = 8 * MM, 3.2 * MM
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(0.5)
        canvas.line(x0, y0, x0 + 50 * MM, y0)
        for i in range(6):
            tick = 1.2 * MM if i in (0, 5) else 0.7 * MM
            canvas.line(x0 + i * 10 * MM, y0, x0 + i * 10 * MM, y0 + tick)
        canvas.setFont("sans-regular", 5.5)
        canvas.drawString(x0 + 51 * MM, y0 - 0.6 * MM, "50 mm")
        bar = [round(mm(x0), 3), round(mm(y0), 3), round(mm(x0 + 50 * MM), 3)]
    canvas.restoreState()
    return bar


def plan_decks(prep: Prepared, section: str, paper: str, mode: str, report: Report) -> list[Page]:
    """Pages of the cards (or tokens) of every deck in `section`, imposed for `mode`."""
    pages: list[Page] = []
    deferred: list[Page] = []
    for deck in prep.game.component(section):
        instances = [(card, copy) for card in deck.cards for copy in range(1, card.quantity + 1)]
        if not instances:
            continue
        deck_mode = deck.mode or mode
        sheet = plan(paper, deck.width, deck.height, deck.bleed, fold=(deck_mode == "fold"), gap=deck.gap)
        if sheet is None:
            report.error("E-IMPOSE", f"pieces of '{deck.id}' ({mm(deck.width):.0f} x {mm(deck.height):.0f} mm) "
                         f"do not fit on {paper.upper()} paper", prep.game.doc.pos(deck.pointer),
                         help="make the pieces smaller, or the gap and bleed narrower")
            continue
        for start in range(0, len(instances), sheet.per_page):
            chunk = instances[start:start + sheet.per_page]
            has_backs = any(card.back for card, _ in chunk)
            label = f"{deck.name}, fold-over" if deck_mode == "fold" else f"{deck.name}, fronts"
            pages.append(Page(sheet.page_w, sheet.page_h, section, label,
                              _deck_page(section, deck, sheet, chunk, "front", deck_mode)))
            if has_backs and deck_mode != "fold":
                back = Page(sheet.page_w, sheet.page_h, section, f"{deck.name}, backs",
                            _deck_page(section, deck, sheet, chunk, "back", deck_mode))
                (pages if deck_mode == "duplex" else deferred).append(back)
    return pages + deferred


def _deck_page(section: str, deck, sheet: Sheet, chunk: list, side: str, mode: str):
    def draw(writer: Writer, number: int) -> None:
        trims, fronts = [], []
        for i, (card, copy) in enumerate(chunk):
            x, y = sheet.slot(i)
            if side == "front":
                fronts.append((x, y, sheet.card_w, sheet.card_h))
                writer.face(section, writer.prep.faces[(card.id, "front")], card, "front", copy, x, y,
                            deck.bleed, number, deck.shape)
                trims.append((x, y, sheet.card_w, sheet.card_h))
                if mode == "fold" and card.back:
                    x, y = sheet.fold_back(i)
                else:
                    continue
            elif not card.back:
                continue
            elif mode == "duplex":
                x, y = sheet.behind(x, y)
            writer.face(section, writer.prep.faces[(card.id, "back")], card, "back", copy, x, y,
                        deck.bleed, number, deck.shape)
            trims.append((x, y, sheet.card_w, sheet.card_h))
        if mode == "fold" and side == "front":
            draw_fold_lines(writer.canvas, sheet, fronts)
        draw_crop_marks(writer.canvas, sheet, trims)
        if deck.shape != "rect":
            draw_cut_guides(writer.canvas, deck.shape, trims)
    return draw


def plan_boards(prep: Prepared, section: str, paper: str) -> list[Page]:
    """Pages of every board (or reference sheet): one page each, or tiles with overlaps."""
    pages: list[Page] = []
    bleed = prep.game.bleed
    for board in prep.game.component(section):
        tiles = plan_tiles(paper, board.width, board.height, bleed)
        spans = tile_spans(tiles, board.height + 2 * bleed)
        for tile in tiles:
            label = board.name if len(tiles) == 1 else \
                f"{board.name}, tile {tiles.index(tile) + 1} of {len(tiles)} (row {tile.row + 1}, column {tile.col + 1})"
            pages.append(Page(tile.page_w, tile.page_h, section, label, _board_page(section, board, tile, spans, bleed)))
    return pages


def _board_page(section: str, board, tile: Tile, spans, bleed: float):
    def draw(writer: Writer, number: int) -> None:
        c = writer.canvas
        layout = writer.prep.boards[board.id]
        bx, by = tile.board_origin
        wx, wy, ww, wh = tile.window
        c.saveState()
        clip = c.beginPath()
        clip.rect(tile.origin[0], tile.origin[1], ww, wh)
        c.clipPath(clip, stroke=0, fill=0)
        writer.face(section, layout, board, "front", 1, bx + bleed, by + bleed, bleed, number,
                    tile={"col": tile.col + 1, "row": tile.row + 1, "cols": tile.cols, "rows": tile.rows,
                          "window": [round(mm(v), 3) for v in tile.window],
                          "origin": [round(mm(v), 3) for v in tile.origin],
                          "overlap": round(mm(tile.overlap), 3)})
        c.restoreState()
        record = writer.manifest[section][-1]
        if tile.cols * tile.rows > 1:
            total_w, total_h = board.width + 2 * bleed, board.height + 2 * bleed
            marks = tile.marks(total_w, total_h, *spans)
            for mx, my in marks:
                draw_alignment_mark(c, bx + mx, by + my)
            record["marks"] = [[round(mm(mx), 3), round(mm(my), 3)] for mx, my in marks]
            draw_assembly_map(c, tile, f"{board.name}: tile {tile.row * tile.cols + tile.col + 1} of "
                              f"{tile.cols * tile.rows}; overlap {mm(tile.overlap):.0f} mm, match the targets")
        else:
            draw_crop_marks(c, Sheet(tile.page_w, tile.page_h, board.width, board.height, bleed, 1, 1, False),
                            [(bx + bleed, by + bleed, board.width, board.height)])
    return draw


def cover_page(prep: Prepared, paper: str, sections: list[tuple[str, list[Page]]]) -> Page:
    """The kit's first page: the game's name and a contents list with page numbers."""
    width, height = paper_size(paper)
    game = prep.game

    def draw(writer: Writer, number: int) -> None:
        c = writer.canvas
        c.saveState()
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setFont("display-bold", 30)
        c.drawCentredString(width / 2, height - 45 * MM, game.name)
        if game.data.get("subtitle"):
            c.setFont("sans-regular", 13)
            c.drawCentredString(width / 2, height - 55 * MM, game.data["subtitle"])
        if game.data.get("designer"):
            c.setFont("sans-italic", 11)
            c.drawCentredString(width / 2, height - 63 * MM, f"by {game.data['designer']}")
        c.setFont("sans-bold", 9)
        c.drawCentredString(width / 2, height - 75 * MM, "PRINT-AND-PLAY KIT · PRINT AT 100% (ACTUAL SIZE)")
        y = height - 95 * MM
        c.setFont("display-bold", 14)
        c.drawString(30 * MM, y, "Contents")
        y -= 9 * MM
        page_no = 2
        contents = []
        for section, pages in sections:
            firsts: dict[str, int] = {}
            for offset, page in enumerate(pages):
                name = page.label.split(",")[0]
                firsts.setdefault(name, page_no + offset)
            c.setFont("sans-bold", 10)
            c.drawString(30 * MM, y, section.capitalize())
            c.drawRightString(width - 30 * MM, y, f"page {page_no}")
            y -= 6 * MM
            c.setFont("sans-regular", 9.5)
            for name, first in firsts.items():
                c.drawString(36 * MM, y, name)
                c.setDash([0.5, 2])
                c.setLineWidth(0.4)
                c.line(36 * MM + c.stringWidth(name, "sans-regular", 9.5) + 2 * MM, y + 0.5 * MM,
                       width - 48 * MM, y + 0.5 * MM)
                c.setDash([])
                c.drawRightString(width - 30 * MM, y, str(first))
                contents.append({"section": section, "name": name, "page": first})
                y -= 5.5 * MM
            y -= 3 * MM
            page_no += len(pages)
        c.setFont("sans-regular", 7.5)
        y = 28 * MM
        for line in reversed(game.data.get("credits", [])):
            c.drawCentredString(width / 2, y, line)
            y += 4 * MM
        c.restoreState()
        writer.manifest["contents"] = contents
    return Page(width, height, "cover", "Cover and contents", draw)


SECTIONS = ("cards", "boards", "tokens", "references")


def plan_sections(prep: Prepared, paper: str, mode: str, report: Report) -> list[tuple[str, list[Page]]]:
    planned = []
    for section in SECTIONS:
        pages = (plan_decks(prep, section, paper, mode, report) if section in ("cards", "tokens")
                 else plan_boards(prep, section, paper))
        if pages:
            planned.append((section, pages))
    return planned


def _faces(prep: Prepared, section: str | None = None) -> int:
    total = 0
    for deck in prep.game.decks:
        if section in (None, deck.component):
            total += sum(card.quantity * (2 if card.back else 1) for card in deck.cards)
    for board in prep.game.boards:
        if section in (None, board.component):
            total += len(plan_tiles("a4", board.width, board.height, prep.game.bleed))
    return total


def build_game(game_dir: Path, out_dir: Path, papers=PAPERS, mode: str = "duplex",
               layouts_dir: Path | None = None, progress: Progress | None = None,
               kit: bool = True) -> BuildResult:
    """Compile a game: per paper size one PDF per component kind, and (with `kit`) the whole kit."""
    report = Report()
    result = BuildResult(report)
    try:
        prep = prepare(game_dir, report, layouts_dir)
    except ContentError:
        return result
    result.game = prep.game
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    suffix = "" if mode == "duplex" else f"-{mode}"
    staged: list[tuple[Path, Path]] = []
    from .verify import Verifier
    verifier = Verifier(prep, report, fresh=True)
    try:
        for paper in papers:
            sections = plan_sections(prep, paper, mode, report)
            jobs = [(section, pages) for section, pages in sections]
            if kit and sections:
                jobs.append(("kit", [cover_page(prep, paper, sections)] + [p for _, ps in sections for p in ps]))
            for name, pages in jobs:
                if report.has_errors():
                    break
                final = out_dir / f"{prep.game.id}-{name}-{paper}{suffix}.pdf"
                tmp = final.with_name(final.name + ".tmp")
                title = f"{prep.game.name} - {name} ({paper.upper()}, {mode})"
                writer = Writer(prep, tmp, title, report, progress, _faces(prep, None if name == "kit" else name))
                manifest = writer.write(pages)
                manifest.update(paper=paper, mode=mode)
                if report.has_errors():
                    tmp.unlink(missing_ok=True)
                    break
                # Read the PDF back before it may replace anything: its text, icons and fonts
                # must be what the data produced (see verify.py).
                verifier.verify(tmp, manifest, shown_as=final)
                staged.append((tmp, final))
                if report.has_errors():
                    break
                mtmp = final.with_suffix(".manifest.json.tmp")
                mtmp.write_text(json.dumps(manifest, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n",
                                "utf-8")
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
