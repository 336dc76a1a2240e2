"""Page planning: which pieces go on which page, in what order, and how each page is drawn.

A planned Page holds a `draw(writer, number)` callback; the Writer (pdf.py) runs it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..diagnostics import Report
from ..prepare import Prepared
from ..units import MM, mm
from .impose import (Sheet, Tile, draw_alignment_mark, draw_assembly_map, draw_crop_marks, draw_cut_guides,
                     draw_fold_lines, paper_size, plan, plan_tiles, tile_spans)

if TYPE_CHECKING:
    from .pdf import Writer

PAPERS = ("a4", "letter")
MODES = ("duplex", "simplex", "fold")


@dataclass
class Page:
    """One planned page: its size, what it holds, and how to draw it."""
    width: float
    height: float
    section: str  # cards, boards, tokens, references (or cover)
    label: str  # shown in the footer and, for a component's first page, in the contents
    draw: Callable[["Writer", int], None]
    scale_bar: bool = True



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
        tiled = tile.cols * tile.rows > 1
        marks = tile.marks(board.width + 2 * bleed, board.height + 2 * bleed, *spans) if tiled else []
        extra = {"marks": [[round(mm(mx), 3), round(mm(my), 3)] for mx, my in marks]} if tiled else {}
        c.saveState()
        clip = c.beginPath()
        clip.rect(tile.origin[0], tile.origin[1], ww, wh)
        c.clipPath(clip, stroke=0, fill=0)
        writer.face(section, layout, board, "front", 1, bx + bleed, by + bleed, bleed, number,
                    tile={"col": tile.col + 1, "row": tile.row + 1, "cols": tile.cols, "rows": tile.rows,
                          "window": [round(mm(v), 3) for v in tile.window],
                          "origin": [round(mm(v), 3) for v in tile.origin],
                          "overlap": round(mm(tile.overlap), 3)}, **extra)
        c.restoreState()
        if tiled:
            for mx, my in marks:
                draw_alignment_mark(c, bx + mx, by + my)
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
        fonts = writer.prep.fonts
        for family, style in (("display", "bold"), ("sans", "regular"), ("sans", "italic"), ("sans", "bold")):
            fonts.family(family).face(style)  # registered on first use
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
        if writer.manifest is not None:
            writer.manifest.header["contents"] = contents
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


def count_faces(prep: Prepared, paper: str) -> int:
    """Faces one paper's PDFs draw (a board counts once per tile), for the progress bar."""
    total = 0
    for deck in prep.game.decks:
        total += sum(card.quantity * (2 if card.back else 1) for card in deck.cards)
    for board in prep.game.boards:
        total += len(plan_tiles(paper, board.width, board.height, prep.game.bleed))
    return total
