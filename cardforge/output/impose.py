"""Imposition: where each piece goes on the paper, crop marks, duplex, fold-over and gang-up.

Cards sit in a grid, bleed box against bleed box, centred on the page above the footer band;
the page orientation that holds more cards wins (portrait on a tie).  Crop marks extend every
trim edge into the page margin.  Nothing but artwork is printed within 5 mm of the paper's edge,
where home printers print nothing: where a margin is narrower than that, a crop mark is drawn
inside the outer bleed instead (which is cut away), and a cut line with room for neither is
reported.

Duplex backs are placed for the flip the user's printer makes.  A long-edge flip turns the sheet
about its longer side: on a portrait page a back is mirrored left-right, on a landscape page
top-bottom.  A short-edge flip is the other way round.  Fold-over puts each front beside its
back; folding along the line between them puts the back behind the front.  Gang-up puts cards
trim edge to trim edge with one bleed round the block and cut lines on the shared edges.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..geometry import shape_path
from typing import TYPE_CHECKING

from ..units import MM, PAPER_SIZES

if TYPE_CHECKING:
    from .seams import KeepOut

SAFE_EDGE = 5 * MM  # no mark, label or scale bar closer to the paper's edge than this
MIN_MARGIN = 4 * MM  # bleed boxes keep this far from the left, right and top edges
FOOTER_TOP = 8.2 * MM  # the footer and scale bar live below this line (and above SAFE_EDGE)
MARK_OFFSET = 1 * MM  # gap between a bleed edge and its crop mark
MARK_LENGTH = 5 * MM
MIN_MARK = 1.5 * MM  # a shorter mark is not drawn
MARK_WIDTH = 0.3
FLIPS = ("long", "short")
IMPOSITIONS = ("bleed", "gang")


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
    gang: bool = False  # trim edge to trim edge, one bleed round the whole block
    floor: float = 0.0  # the band kept free at the bottom of the page (the footer)
    origin: tuple[float, float] | None = None  # the block's lower-left corner, where it is not centred (pack.py)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    @property
    def piece_bleed(self) -> float:
        """The bleed round each piece's slot: none between ganged cards."""
        return 0.0 if self.gang else self.bleed

    @property
    def cell_w(self) -> float:
        return (self.card_w + 2 * self.piece_bleed) * (2 if self.fold else 1) + self.gap

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.piece_bleed + self.gap

    @property
    def block_w(self) -> float:
        """Width of the printed block, bleeds included."""
        return self.cols * self.cell_w - self.gap + (2 * self.bleed if self.gang else 0)

    @property
    def block_h(self) -> float:
        return self.rows * self.cell_h - self.gap + (2 * self.bleed if self.gang else 0)

    @property
    def grid_x(self) -> float:
        return self.origin[0] if self.origin else (self.page_w - self.block_w) / 2

    @property
    def grid_y(self) -> float:
        """Bottom of the block: centred, so that a back page mirrors its front onto the same
        place (the footer band and the top margin are the same height)."""
        return self.origin[1] if self.origin else (self.page_h - self.block_h) / 2

    def slot(self, index: int) -> tuple[float, float]:
        """Lower-left corner of the trim box of slot `index` (row by row from the top left)."""
        row, col = divmod(index, self.cols)
        edge = self.bleed if self.gang else 0.0
        x = self.grid_x + edge + col * self.cell_w + self.piece_bleed
        y = self.grid_y + edge + (self.rows - 1 - row) * self.cell_h + self.piece_bleed
        return x, y

    def fold_back(self, index: int) -> tuple[float, float]:
        """Trim box of the back half of a fold-over slot."""
        x, y = self.slot(index)
        return x + self.card_w + 2 * self.bleed, y

    def behind(self, x: float, y: float, flip: str = "long") -> tuple[float, float]:
        """Where a back must be printed to land behind the front at (x, y) when the sheet is turned
        over its long edge (`flip="long"`) or its short edge."""
        about_horizontal = self.landscape == (flip == "long")
        if about_horizontal:
            return x, self.page_h - y - self.card_h
        return self.page_w - x - self.card_w, y


def paper_size(name: str) -> tuple[float, float]:
    w, h = PAPER_SIZES[name]
    return w * MM, h * MM


def plan(paper: str, card_w: float, card_h: float, bleed: float, fold: bool = False,
         gap: float = 0.0, gang: bool = False) -> Sheet | None:
    """The orientation and grid that fit the most pieces above the footer band; None if not one fits.
    Ganged cards may fill the page from edge to edge (their marks move into the outer bleed)."""
    short, long = paper_size(paper)
    best = None
    # Pieces without a bleed wide enough to carry their crop marks keep a margin that holds them.
    margin = 0.0 if gang else MIN_MARGIN if bleed >= MIN_MARK + 0.5 * MM else SAFE_EDGE + MARK_OFFSET + MIN_MARK
    for page_w, page_h in ((short, long), (long, short)):
        probe = Sheet(page_w, page_h, card_w, card_h, bleed, 1, 1, fold, gap, gang)
        extra = 2 * bleed if gang else -gap
        cols = int((page_w - 2 * margin - extra + 1e-6) // probe.cell_w)
        # The block is centred: the footer band below it is matched by as much room above, so
        # that a duplex back lands in the same place, and both are clear of the footer.
        floor = FOOTER_TOP
        rows = int((page_h - 2 * floor - extra + 1e-6) // probe.cell_h)
        full = int((page_h - extra + 1e-6) // probe.cell_h)
        if gang and full > rows and (page_w - cols * probe.cell_w - extra) / 2 >= SAFE_EDGE + 3 * MM:
            floor, rows = 0.0, full  # a full-height block: the footer moves up the side margin
        sheet = Sheet(page_w, page_h, card_w, card_h, bleed, cols, rows, fold, gap, gang, floor)
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


def draw_crop_marks(canvas, sheet: Sheet, trims: list[tuple[float, float, float, float]],
                    footer_left: bool = False, band: tuple[float, float] | None = None,
                    across: tuple[float, float] | None = None, outer_only: bool = False) -> list[str]:
    """Marks on the lines of every trim edge of the given trim boxes (x, y, w, h), outside the
    block of pieces, at least SAFE_EDGE from the paper's edge and clear of the footer.  Where the
    margin is too narrow, a mark is drawn inside the outer bleed.  Returns the cut lines (as "x =
    12.3 mm" / "y = ...") that got no mark at either end.  `band` (bottom, top) bounds the marks
    above and below the pieces, where other pieces share the page; `across` (left, right) bounds them
    beside the pieces, where other pieces lie beside them (pack.py, the end of a last row).  With
    `outer_only`, the marks on each side are those of the pieces along that side only: a partial
    last row has pieces beside it, and a mark below it on the edge of a piece of the row above
    would lead a cut through them."""
    if not trims:
        return []
    b = sheet.bleed
    left = min(x for x, _, _, _ in trims) - b
    right = max(x + w for x, _, w, _ in trims) + b
    bottom = min(y for _, y, _, _ in trims) - b
    top = max(y + h for _, y, _, h in trims) + b
    xs = sorted({round(v, 3) for x, _, w, _ in trims for v in (x, x + w)})
    ys = sorted({round(v, 3) for _, y, _, h in trims for v in (y, y + h)})
    eps = 0.01
    if outer_only:
        xs_above = sorted({round(v, 3) for x, y, w, h in trims if y + h + b >= top - eps for v in (x, x + w)})
        xs_below = sorted({round(v, 3) for x, y, w, h in trims if y - b <= bottom + eps for v in (x, x + w)})
        ys_before = sorted({round(v, 3) for x, y, w, h in trims if x - b <= left + eps for v in (y, y + h)})
        ys_after = sorted({round(v, 3) for x, y, w, h in trims if x + w + b >= right - eps for v in (y, y + h)})
    else:
        xs_above = xs_below = set(xs)
        ys_before = ys_after = set(ys)
    floor = max(SAFE_EDGE, sheet.floor)
    left_limit = max(SAFE_EDGE, FOOTER_TOP if footer_left else 0.0)

    def span(edge: float, limit: float, outward: int) -> tuple[float, float, bool] | None:
        """A mark from the bleed edge `edge` outward (+1 up or right, -1 down or left), no further
        than `limit`; or, without room, from `limit` inward to just short of the trim edge."""
        room = (limit - edge) * outward - MARK_OFFSET
        if room >= MIN_MARK:
            start = edge + outward * MARK_OFFSET
            return start, start + outward * min(MARK_LENGTH, room), False
        trim = edge - outward * b
        start = limit if (edge - limit) * outward >= 0 else edge  # the limit inside the bleed, or beyond it
        inside = (start - trim) * outward - 0.5 * MM  # stop half a millimetre short of the trim line
        if inside >= MIN_MARK:
            return start, start - outward * min(MARK_LENGTH, inside), True
        return None

    low, high = band or (floor, sheet.page_h - SAFE_EDGE)
    above, below = span(top, min(high, sheet.page_h - SAFE_EDGE), 1), span(bottom, max(low, floor), -1)
    side_low, side_high = across or (left_limit, sheet.page_w - SAFE_EDGE)
    before = span(left, max(side_low, left_limit), -1)
    after = span(right, min(side_high, sheet.page_w - SAFE_EDGE), 1)
    c = canvas
    c.saveState()
    # A mark inside the bleed lies on the artwork: a white halo under it keeps it visible on dark art.
    for width, gray, halo in ((1.2, 1.0, True), (MARK_WIDTH, 0.0, False)):
        c.setLineWidth(width)
        c.setStrokeGray(gray)
        for x in xs:
            for marks, edges in ((above, xs_above), (below, xs_below)):
                if marks and x in edges and (marks[2] or not halo):
                    c.line(x, marks[0], x, marks[1])
        for y in ys:
            for marks, edges in ((before, ys_before), (after, ys_after)):
                if marks and y in edges and (marks[2] or not halo):
                    c.line(marks[0], y, marks[1], y)
    c.restoreState()
    missing = []
    if not above and not below:
        missing += [f"x = {v / MM:.1f} mm" for v in xs]
    if not before and not after:
        missing += [f"y = {v / MM:.1f} mm" for v in ys]
    return missing


def draw_cut_lines(canvas, sheet: Sheet, trims: list[tuple[float, float, float, float]]) -> None:
    """Gang-up: thin lines on the cut edges that neighbouring cards share, across the block (along the
    pieces that have them)."""
    if not trims:
        return
    left = min(x for x, _, _, _ in trims)
    right = max(x + w for x, _, w, _ in trims)
    bottom = min(y for _, y, _, _ in trims)
    top = max(y + h for _, y, _, h in trims)
    inner_x = sorted({round(v, 3) for x, _, w, _ in trims for v in (x, x + w)} - {round(left, 3), round(right, 3)})
    inner_y = sorted({round(v, 3) for _, y, _, h in trims for v in (y, y + h)} - {round(bottom, 3), round(top, 3)})
    c = canvas
    c.saveState()
    c.setLineWidth(0.25)
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    c.setDash([1.5, 1.5])
    b, eps = sheet.bleed, 0.01  # through the outer bleed, but never within SAFE_EDGE of the paper's edge
    # Each line runs along the pieces that have that edge only: past the end of a partial last row
    # lie other pieces (pack.py), which a line across the whole block would lead a cut through.
    for x in inner_x:
        along = [(y, y + h) for tx, y, tw, h in trims if abs(tx - x) < eps or abs(tx + tw - x) < eps]
        low, high = min(y for y, _ in along), max(y for _, y in along)
        low, high = low - b if low <= bottom + eps else low, high + b if high >= top - eps else high
        c.line(x, max(low, SAFE_EDGE), x, min(high, sheet.page_h - SAFE_EDGE))
    for y in inner_y:
        along = [(x, x + w) for x, ty, w, th in trims if abs(ty - y) < eps or abs(ty + th - y) < eps]
        low, high = min(x for x, _ in along), max(x for _, x in along)
        low, high = low - b if low <= left + eps else low, high + b if high >= right - eps else high
        c.line(max(low, SAFE_EDGE), y, min(high, sheet.page_w - SAFE_EDGE), y)
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

TILE_SIDE = SAFE_EDGE + 1 * MM  # page margin beside a tile: printable, and room to cut
TILE_TOP = FOOTER_TOP  # above a tile: the assembly map, between SAFE_EDGE and here
OVERLAP = 8 * MM  # strip shared by neighbouring tiles: holds a 6 mm alignment target
MAX_EXTRA_TILES = 1  # a seam through words may be avoided with one more tile along an axis


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

    def cut_lines(self) -> list[tuple[str, float]]:
        """On the page: both edges of every overlap strip this tile shares with a neighbour (the
        player trims one of the two tiles at its edge), as ("x" | "y", position in points)."""
        ox, oy = self.origin
        ww, wh = self.window[2:]
        lines = []
        if self.col > 0:
            lines += [("x", ox), ("x", ox + self.overlap)]
        if self.col < self.cols - 1:
            lines += [("x", ox + ww - self.overlap), ("x", ox + ww)]
        if self.row < self.rows - 1:  # the row below
            lines += [("y", oy), ("y", oy + self.overlap)]
        if self.row > 0:
            lines += [("y", oy + wh - self.overlap), ("y", oy + wh)]
        return lines

    def marks(self, total_w: float, total_h: float, starts_x: list[float], ends_x: list[float],
              starts_y: list[float], ends_y: list[float],
              avoid: tuple[tuple[float, float, float, float], ...] = ()) -> list[tuple[float, float]]:
        """Alignment marks in board coordinates: three along the middle of every overlap strip this tile
        shares, each near a quarter point of the strip but moved along it off the printed content
        (`avoid`: boxes x, y, w, h in board coordinates).  Both tiles of a strip see the same strip and
        the same boxes, so they place the same marks."""
        wx, wy, ww, wh = self.window
        out = []
        for i in (self.col - 1, self.col):  # strips with the left and right neighbours
            if 0 <= i < self.cols - 1:
                xm = (starts_x[i + 1] + ends_x[i]) / 2
                ends = (self.overlap * (self.row < self.rows - 1), self.overlap * (self.row > 0))
                out += [(xm, y) for y in _clear_places(wy, wh, ends, lambda y: (xm, y), avoid)]
        for j in (self.row - 1, self.row):  # strips with the neighbours above and below
            if 0 <= j < self.rows - 1:
                ym = total_h - (starts_y[j + 1] + ends_y[j]) / 2
                ends = (self.overlap * (self.col > 0), self.overlap * (self.col < self.cols - 1))
                out += [(x, ym) for x in _clear_places(wx, ww, ends, lambda x: (x, ym), avoid)]
        return out


MARK_REACH = 3.5 * MM  # half the side of the square an alignment mark and its halo cover
MARK_STEP = 0.5 * MM  # the positions tried along a strip


def _clear_places(start: float, length: float, ends: tuple[float, float], centre, avoid) -> list[float]:
    """Up to three positions along a strip (from `start`, `length` long) for alignment marks: for each
    quarter point the nearest position where a mark covers none of the `avoid` boxes, an eighth of the
    strip away from another mark, and off the strips that cross this one at its ends (`ends`: how far
    each reaches in; the tiles of a strip share its crossing strips, so they agree on them).
    A strip with no clear position at all keeps one mark where it covers the fewest boxes, so no
    tile is left without one."""
    low, high = start + ends[0] + MARK_REACH, start + length - ends[1] - MARK_REACH
    # Only the boxes that reach the strip's band can cover a mark on it; each position is tested once.
    (x0, y0), (x1, y1) = centre(low), centre(high)
    near = [(bx, by, bw, bh) for bx, by, bw, bh in avoid
            if max(x0, x1) + MARK_REACH > bx and min(x0, x1) - MARK_REACH < bx + bw
            and max(y0, y1) + MARK_REACH > by and min(y0, y1) - MARK_REACH < by + bh]
    known: dict[float, bool] = {}

    def clear(t: float) -> bool:
        if t not in known:
            x, y = centre(t)
            known[t] = not any(x + MARK_REACH > bx and x - MARK_REACH < bx + bw and y + MARK_REACH > by and
                               y - MARK_REACH < by + bh for bx, by, bw, bh in near)
        return known[t]

    tries = [low + MARK_STEP * n for n in range(int((high - low) / MARK_STEP) + 1)]
    places: list[float] = []
    for k in (1, 2, 3):
        ideal = start + length * k / 4
        for t in sorted(tries, key=lambda t: (abs(t - ideal), t)):
            if all(abs(t - p) >= length / 8 for p in places) and clear(t):
                places.append(t)
                break
    if places:
        return sorted(places)

    def covered(t: float) -> int:
        x, y = centre(t)
        return sum(1 for bx, by, bw, bh in near if x + MARK_REACH > bx and x - MARK_REACH < bx + bw and
                   y + MARK_REACH > by and y - MARK_REACH < by + bh)
    # No clear position: the one that covers the fewest boxes (the middle among equals).
    return [min(tries, key=lambda t: (covered(t), abs(t - start - length / 2)))] if tries else [start + length / 2]


def plan_tiles(paper: str, board_w: float, board_h: float, bleed: float,
               overlap: float = OVERLAP, keep: "KeepOut | None" = None) -> list[Tile]:
    """Pages for a board: one page when it fits, else tiles in either orientation whose cut lines
    cut the fewest words (`keep`: the board's printed boxes, seams.py), then on the fewest sheets,
    then through the fewest play areas."""
    from .seams import KeepOut, spans
    keep = keep or KeepOut()
    total_w, total_h = board_w + 2 * bleed, board_h + 2 * bleed
    short, long = paper_size(paper)
    options = []
    for page_w, page_h in ((short, long), (long, short)):
        if total_w <= page_w - 2 * MIN_MARGIN and total_h <= page_h - MIN_MARGIN - FOOTER_TOP:
            origin = ((page_w - total_w) / 2, FOOTER_TOP + (page_h - MIN_MARGIN - FOOTER_TOP - total_h) / 2)
            return [Tile(0, 0, 1, 1, (0.0, 0.0, total_w, total_h), page_w, page_h, origin, 0.0)]
        avail_w, avail_h = page_w - 2 * TILE_SIDE, page_h - TILE_TOP - FOOTER_TOP
        fewest_x = max(1, math.ceil((total_w - overlap) / (avail_w - overlap) - 1e-9))
        fewest_y = max(1, math.ceil((total_h - overlap) / (avail_h - overlap) - 1e-9))
        along_x = _counts(total_w, avail_w, overlap, fewest_x, lambda n: spans(total_w, avail_w, overlap, n, keep, 0))
        along_y = _counts(total_h, avail_h, overlap, fewest_y,
                          lambda n: spans(total_h, avail_h, overlap, n, keep, 1, flip=total_h))
        for nx, (xs, (words_x, areas_x)) in along_x:
            for ny, (ys, (words_y, areas_y)) in along_y:
                options.append(((words_x + words_y, nx * ny, areas_x + areas_y, page_w > page_h), page_w, page_h, xs, ys))
    _, page_w, page_h, xs, ys = min(options, key=lambda o: o[0])
    tiles = []
    for row, (y0, y1) in enumerate(ys):  # rows counted from the top of the board
        for col, (x0, x1) in enumerate(xs):
            window = (x0, total_h - y1, x1 - x0, y1 - y0)
            origin = ((page_w - window[2]) / 2, FOOTER_TOP + (page_h - TILE_TOP - FOOTER_TOP - window[3]) / 2)
            tiles.append(Tile(col, row, len(xs), len(ys), window, page_w, page_h, origin, overlap))
    return tiles


def _counts(total: float, avail: float, overlap: float, fewest: int, plan_axis) -> list:
    """(tiles along one axis, their spans and cost) for the fewest tiles and, where those cut words,
    for up to MAX_EXTRA_TILES more."""
    out = []
    for n in range(fewest, fewest + 1 + MAX_EXTRA_TILES):
        planned = plan_axis(n)
        if planned:
            out.append((n, planned))
            if planned[1][0] == 0:
                break
    return out


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
    # In the band above the tile (SAFE_EDGE to TILE_TOP from the top edge): cells as wide as the
    # band allows and 3 mm tall in all.
    cell_h = (TILE_TOP - SAFE_EDGE - 0.2 * MM) / tile.rows
    cell_w = min(4 * MM, 12 * MM / tile.cols)
    x0 = tile.page_w - TILE_SIDE - tile.cols * cell_w
    y_top = tile.page_h - SAFE_EDGE
    c.saveState()
    c.setLineWidth(0.4)
    for row in range(tile.rows):
        for col in range(tile.cols):
            here = (row, col) == (tile.row, tile.col)
            c.setFillGray(0.2 if here else 1.0)
            c.rect(x0 + col * cell_w, y_top - (row + 1) * cell_h, cell_w, cell_h, stroke=1, fill=1)
    c.setFillGray(0.2)
    c.setFont("sans-regular", 7)
    c.drawRightString(x0 - 2 * MM, y_top - 2.6 * MM, label)
    c.restoreState()
