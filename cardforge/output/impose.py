"""Stage 6: imposition. Where each card goes on the paper, crop marks, duplex and fold-over.

Cards sit in a grid, bleed box against bleed box, centred on the page; the page
orientation that holds more cards wins (portrait on a tie).  Crop marks extend
every trim edge into the page margin, so they never touch a card.

Duplex backs are placed for a long-edge flip: the sheet turns over about its
longer side, so on a portrait page a back is mirrored left-right, and on a
landscape page top-bottom.  Fold-over puts each front beside its back; folding
along the line between them puts the back behind the front.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..geometry import shape_path
from ..units import MM, PAPER_SIZES

MIN_MARGIN = 4 * MM  # printers leave 3-5 mm unprinted; crop marks need room
MARK_OFFSET = 1 * MM  # gap between a bleed edge and its crop mark
MARK_LENGTH = 5 * MM
MARK_WIDTH = 0.3
FOOTER_CLEAR = 5.5 * MM  # the footer and scale bar live below this line


@dataclass(frozen=True)
class Sheet:
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    fold: bool  # fold-over: a slot holds front (left) and back (right)
    gap: float = 0.0  # between neighbouring bleed boxes (tokens); cards sit edge to edge

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def cell_w(self) -> float:
        return (self.card_w + 2 * self.bleed) * (2 if self.fold else 1) + self.gap

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.bleed + self.gap

    @property
    def grid_x(self) -> float:
        return (self.page_w - self.cols * self.cell_w + self.gap) / 2

    @property
    def grid_y(self) -> float:
        return (self.page_h - self.rows * self.cell_h + self.gap) / 2

    def slot(self, index: int) -> tuple[float, float]:
        """Lower-left corner of the trim box of slot `index` (row by row from the top left)."""
        row, col = divmod(index, self.cols)
        x = self.grid_x + col * self.cell_w + self.bleed
        y = self.grid_y + (self.rows - 1 - row) * self.cell_h + self.bleed
        return x, y

    def fold_back(self, index: int) -> tuple[float, float]:
        """Trim box of the back half of a fold-over slot."""
        x, y = self.slot(index)
        return x + self.card_w + 2 * self.bleed, y

    def behind(self, x: float, y: float) -> tuple[float, float]:
        """Where a back must be printed to land behind the front at (x, y) after a long-edge flip."""
        if self.landscape:
            return x, self.page_h - y - self.card_h
        return self.page_w - x - self.card_w, y


def paper_size(name: str) -> tuple[float, float]:
    w, h = PAPER_SIZES[name]
    return w * MM, h * MM


def plan(paper: str, card_w: float, card_h: float, bleed: float, fold: bool = False,
         gap: float = 0.0) -> Sheet | None:
    """The orientation and grid that fit the most pieces; None if not even one fits."""
    short, long = paper_size(paper)
    best = None
    for page_w, page_h in ((short, long), (long, short)):
        probe = Sheet(page_w, page_h, card_w, card_h, bleed, 1, 1, fold, gap)
        cols = int((page_w - 2 * MIN_MARGIN + gap + 1e-6) // probe.cell_w)
        rows = int((page_h - 2 * MIN_MARGIN + gap + 1e-6) // probe.cell_h)
        sheet = Sheet(page_w, page_h, card_w, card_h, bleed, cols, rows, fold, gap)
        if cols > 0 and rows > 0 and cols * rows > (best.per_page if best else 0):
            best = sheet
    return best


def draw_cut_guides(canvas, shape: str, trims: list[tuple[float, float, float, float]]) -> None:
    """Thin outlines on the cut line of round and triangular pieces (crop marks cannot show a curve)."""
    c = canvas
    c.saveState()
    c.setLineWidth(0.35)
    c.setStrokeColorRGB(0.25, 0.25, 0.25)
    for x, y, w, h in trims:
        p = c.beginPath()
        shape_path(p, shape, x, y, w, h)
        c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def draw_crop_marks(canvas, sheet: Sheet, trims: list[tuple[float, float, float, float]]) -> None:
    """Marks in the margin on the lines of every trim edge of the given trim boxes (x, y, w, h)."""
    if not trims:
        return
    b = sheet.bleed
    left = min(x for x, _, _, _ in trims) - b
    right = max(x + w for x, _, w, _ in trims) + b
    bottom = min(y for _, y, _, _ in trims) - b
    top = max(y + h for _, y, _, h in trims) + b
    xs = sorted({round(v, 3) for x, _, w, _ in trims for v in (x, x + w)})
    ys = sorted({round(v, 3) for _, y, _, h in trims for v in (y, y + h)})
    c = canvas
    c.saveState()
    c.setLineWidth(MARK_WIDTH)
    c.setStrokeColorRGB(0, 0, 0)
    above = min(MARK_LENGTH, sheet.page_h - top - MARK_OFFSET - 1 * MM)
    below = min(MARK_LENGTH, bottom - MARK_OFFSET - FOOTER_CLEAR)  # keep clear of the footer line
    horizontal = min(MARK_LENGTH, left - MARK_OFFSET - 1 * MM, sheet.page_w - right - MARK_OFFSET - 1 * MM)
    for x in xs:
        if above > 0:
            c.line(x, top + MARK_OFFSET, x, top + MARK_OFFSET + above)
        if below > 0:
            c.line(x, bottom - MARK_OFFSET, x, bottom - MARK_OFFSET - below)
    if horizontal > 0:
        for y in ys:
            c.line(left - MARK_OFFSET, y, left - MARK_OFFSET - horizontal, y)
            c.line(right + MARK_OFFSET, y, right + MARK_OFFSET + horizontal, y)
    c.restoreState()


def draw_fold_lines(canvas, sheet: Sheet, trims: list[tuple[float, float, float, float]]) -> None:
    """Dashed fold lines in the margins above and below each fold-over column."""
    if not trims:
        return
    b = sheet.bleed
    top = max(y + h for _, y, _, h in trims) + b
    bottom = min(y for _, y, _, _ in trims) - b
    folds = sorted({round(x + w + b, 3) for x, _, w, _ in trims})
    c = canvas
    c.saveState()
    c.setLineWidth(0.5)
    c.setDash([2, 2])
    c.setStrokeColorRGB(0.3, 0.3, 0.3)
    for x in folds:
        c.line(x, top + MARK_OFFSET, x, min(sheet.page_h - 1 * MM, top + MARK_OFFSET + MARK_LENGTH))
        c.line(x, bottom - MARK_OFFSET, x, max(1 * MM, bottom - MARK_OFFSET - MARK_LENGTH))
    c.restoreState()


# -- boards: one page, or tiles with an overlap ----------------------------------------------

TILE_MARGIN = 12 * MM  # page margin around a tile: alignment marks, assembly map, footer
OVERLAP = 10 * MM  # strip shared by neighbouring tiles
FOOTER_BAND = 6 * MM  # bottom band kept free on single-page boards for the footer and scale bar


@dataclass(frozen=True)
class Tile:
    col: int
    row: int  # 0 is the top row
    cols: int
    rows: int
    window: tuple[float, float, float, float]  # part of the board's bleed box shown, from its lower-left
    page_w: float
    page_h: float
    origin: tuple[float, float]  # page position of the window's lower-left corner
    overlap: float

    @property
    def board_origin(self) -> tuple[float, float]:
        """Page position of the lower-left corner of the board's bleed box."""
        return self.origin[0] - self.window[0], self.origin[1] - self.window[1]

    def marks(self, total_w: float, total_h: float, starts_x: list[float], ends_x: list[float],
              starts_y: list[float], ends_y: list[float]) -> list[tuple[float, float]]:
        """Alignment marks in board coordinates: three along the middle of every overlap strip this tile shares."""
        wx, wy, ww, wh = self.window
        out = []
        for i in (self.col - 1, self.col):  # strips with the left and right neighbours
            if 0 <= i < self.cols - 1:
                xm = (starts_x[i + 1] + ends_x[i]) / 2
                out += [(xm, wy + wh * k / 4) for k in (1, 2, 3)]
        for j in (self.row - 1, self.row):  # strips with the neighbours above and below
            if 0 <= j < self.rows - 1:
                ym = (starts_y[j + 1] + ends_y[j]) / 2
                out += [(wx + ww * k / 4, total_h - ym) for k in (1, 2, 3)]
        return out


def _spans(total: float, avail: float, overlap: float) -> list[tuple[float, float]]:
    """Start and end of each tile along one axis; consecutive tiles share exactly `overlap`."""
    if total <= avail + 1e-6:
        return [(0.0, total)]
    step = avail - overlap
    count = math.ceil((total - overlap) / step - 1e-9)
    return [(i * step, min(i * step + avail, total)) for i in range(count)]


def plan_tiles(paper: str, board_w: float, board_h: float, bleed: float,
               overlap: float = OVERLAP) -> list[Tile]:
    """Pages for a board: one page when it fits, else the fewest tiles (either orientation)."""
    total_w, total_h = board_w + 2 * bleed, board_h + 2 * bleed
    short, long = paper_size(paper)
    best: list[Tile] | None = None
    for page_w, page_h in ((short, long), (long, short)):
        if total_w <= page_w - 2 * MIN_MARGIN and total_h <= page_h - 2 * MIN_MARGIN - FOOTER_BAND:
            origin = ((page_w - total_w) / 2, (page_h - total_h) / 2)
            tiles = [Tile(0, 0, 1, 1, (0.0, 0.0, total_w, total_h), page_w, page_h, origin, 0.0)]
        else:
            avail_w, avail_h = page_w - 2 * TILE_MARGIN, page_h - 2 * TILE_MARGIN
            xs, ys = _spans(total_w, avail_w, overlap), _spans(total_h, avail_h, overlap)
            tiles = []
            for row, (y0, y1) in enumerate(ys):  # rows counted from the top of the board
                for col, (x0, x1) in enumerate(xs):
                    window = (x0, total_h - y1, x1 - x0, y1 - y0)
                    origin = ((page_w - window[2]) / 2, (page_h - window[3]) / 2)
                    tiles.append(Tile(col, row, len(xs), len(ys), window, page_w, page_h, origin, overlap))
        if best is None or len(tiles) < len(best):
            best = tiles
    return best


def tile_spans(tiles: list[Tile], total_h: float) -> tuple[list[float], list[float], list[float], list[float]]:
    """Per column and per row: where each tile starts and ends (x from the left, y from the top)."""
    first_row = [t for t in tiles if t.row == 0]
    first_col = [t for t in tiles if t.col == 0]
    starts_x = [t.window[0] for t in first_row]
    ends_x = [t.window[0] + t.window[2] for t in first_row]
    starts_y = [total_h - (t.window[1] + t.window[3]) for t in first_col]
    ends_y = [total_h - t.window[1] for t in first_col]
    return starts_x, ends_x, starts_y, ends_y


def draw_alignment_mark(canvas, x: float, y: float) -> None:
    """A registration target: circle and cross, drawn identically on both tiles of an overlap."""
    c = canvas
    c.saveState()
    for width, gray in ((1.4, 1.0), (0.4, 0.0)):  # a white halo keeps the mark visible on dark art
        c.setLineWidth(width)
        c.setStrokeGray(gray)
        c.circle(x, y, 1.5 * MM, stroke=1, fill=0)
        c.line(x - 3 * MM, y, x + 3 * MM, y)
        c.line(x, y - 3 * MM, x, y + 3 * MM)
    c.restoreState()


def draw_assembly_map(canvas, tile: Tile, label: str) -> None:
    """A small map in the top margin showing where this tile goes among all of them."""
    c = canvas
    cell = min(3.2 * MM, 9 * MM / tile.rows)
    x0 = tile.page_w - TILE_MARGIN - tile.cols * cell
    y_top = tile.page_h - 2.5 * MM
    c.saveState()
    c.setLineWidth(0.4)
    for row in range(tile.rows):
        for col in range(tile.cols):
            here = (row, col) == (tile.row, tile.col)
            c.setFillGray(0.2 if here else 1.0)
            c.rect(x0 + col * cell, y_top - (row + 1) * cell, cell, cell, stroke=1, fill=1)
    c.setFillGray(0.2)
    c.setFont("sans-regular", 7)
    c.drawRightString(x0 - 2 * MM, y_top - cell * 0.8, label)
    c.restoreState()
