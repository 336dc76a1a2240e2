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

from dataclasses import dataclass

from .units import MM, PAPER_SIZES

MIN_MARGIN = 4 * MM  # printers leave 3-5 mm unprinted; crop marks need room
MARK_OFFSET = 1 * MM  # gap between a bleed edge and its crop mark
MARK_LENGTH = 5 * MM
MARK_WIDTH = 0.3


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

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def cell_w(self) -> float:
        return (self.card_w + 2 * self.bleed) * (2 if self.fold else 1)

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def grid_x(self) -> float:
        return (self.page_w - self.cols * self.cell_w) / 2

    @property
    def grid_y(self) -> float:
        return (self.page_h - self.rows * self.cell_h) / 2

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


def plan(paper: str, card_w: float, card_h: float, bleed: float, fold: bool = False) -> Sheet | None:
    """The orientation and grid that fit the most cards; None if not even one fits."""
    short, long = paper_size(paper)
    best = None
    for page_w, page_h in ((short, long), (long, short)):
        cell_w = (card_w + 2 * bleed) * (2 if fold else 1)
        cell_h = card_h + 2 * bleed
        cols = int((page_w - 2 * MIN_MARGIN + 1e-6) // cell_w)
        rows = int((page_h - 2 * MIN_MARGIN + 1e-6) // cell_h)
        sheet = Sheet(page_w, page_h, card_w, card_h, bleed, cols, rows, fold)
        if cols * rows > (best.per_page if best else 0):
            best = sheet
    return best


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
    vertical = min(MARK_LENGTH, bottom - MARK_OFFSET - 1 * MM, sheet.page_h - top - MARK_OFFSET - 1 * MM)
    horizontal = min(MARK_LENGTH, left - MARK_OFFSET - 1 * MM, sheet.page_w - right - MARK_OFFSET - 1 * MM)
    if vertical > 0:
        for x in xs:
            c.line(x, top + MARK_OFFSET, x, top + MARK_OFFSET + vertical)
            c.line(x, bottom - MARK_OFFSET, x, bottom - MARK_OFFSET - vertical)
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
