"""The packer: which pieces of a section (cards, tokens) share a page, and where they go.

Pieces of one size, bleed, gap and shape flow from deck to deck, so that a deck of 3 cards does
not take a sheet of its own: a page's slots are filled with the next deck's pieces.  What is left
over once the full pages are out (the last, partly filled page of each size) is stacked onto as
few shared pages as fit: each size in a block of its own grid, blocks one above the other with
room between them for both blocks' crop marks.  A page holding a single block keeps the classic
imposition, its grid centred on the page.

Where a paper holds fewer pieces, each with its own bleed, than another paper does, they are
ganged (trim edge to trim edge, one bleed round the block, cut lines between), as dense as that
paper or denser: Letter's 6 poker cards become 9 (A4 keeps its 8 with a bleed each).

Sections share paper: the decks of every section printed on the same stock (cards and tokens, on
card stock: sheets.STOCK) are packed together, each section's full pages apart, and what is left
over of each (the last hand of a deck, a strip of tokens) is stacked onto the same pages, so that
a strip of tokens fills the empty rows of the last card sheet instead of a sheet of its own.  The
blocks lie one above the other, across the page, with room between them: a guillotine or a
scissors cut between two blocks cuts through no piece.

Sidedness may mix: a piece without a back has blank paper behind it on a two-sided sheet (see
sheets.py), so cutting it spoils nothing; a piece with a back has it behind it, on the other side
of the same sheet.  Fold-over pieces are never stacked with another size (their fold lines assume
one grid on the page); a ganged block is, with its cut lines inside it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..units import MM, PAPER_SIZES
from .impose import FOOTER_TOP, MIN_MARGIN, MIN_MARK, SAFE_EDGE, MARK_OFFSET, Sheet, paper_size, plan

BLOCK_GAP = 8 * MM  # between stacked blocks: 4 mm each side holds a 3 mm crop mark
Item = tuple  # (card, copy)


@dataclass
class Block:
    sheet: Sheet  # the grid, placed on the page
    items: list[Item]
    full: Sheet | None = None  # the size's full-page plan (a stacked block alone on a page goes back to it)
    beside: bool = False  # in the empty end of another block's last row: its marks stay round its own box
    shared_row: bool = False  # a block lies beside its last row: marks only on each outer row's own edges

    def band(self) -> tuple[float, float]:
        """The part of the page the block's crop marks may use above and below it."""
        return self.sheet.grid_y - BLOCK_GAP / 2, self.sheet.grid_y + self.sheet.block_h + BLOCK_GAP / 2


@dataclass
class PackedPage:
    blocks: list[Block]
    mode: str  # the print mode of its pieces (a deck may set its own)

    @property
    def sheet(self) -> Sheet:
        return self.blocks[0].sheet

    @property
    def items(self) -> list[Item]:
        return [item for block in self.blocks for item in block.items]

    @property
    def stacked(self) -> bool:
        return len(self.blocks) > 1

    @property
    def sections(self) -> list[str]:
        """The sections whose pieces it holds, in the order of its blocks."""
        return list(dict.fromkeys(card.deck.component for card, _ in self.items))


@dataclass
class _Stream:
    """The pieces of one geometry, from every deck that has it, in deck order."""
    sheet: Sheet  # its full-page plan
    mode: str
    mixable: bool
    items: list[Item]


def pack(decks: list, paper: str, mode: str, imposition: str, unplaceable) -> list[PackedPage]:
    """Pages for the decks of the sections printed on one stock (cards and tokens).  `unplaceable(deck)`
    reports a deck whose pieces fit on no page of this paper."""
    streams: dict[tuple, _Stream] = {}
    for deck in decks:
        instances = [(card, copy) for card in deck.cards for copy in range(1, card.quantity + 1)]
        if not instances:
            continue
        deck_mode = deck.mode or mode
        if deck_mode == "fold" and not any(card.back for card in deck.cards):
            deck_mode = "simplex"  # nothing to fold over: single-sided pieces, not a slot twice as wide
        can_gang = deck.shape == "rect" and deck.gap == 0 and deck_mode != "fold"
        gang = imposition == "gang" and can_gang
        sheet = plan(paper, deck.width, deck.height, deck.bleed, fold=(deck_mode == "fold"), gap=deck.gap, gang=gang)
        if sheet is not None and can_gang and not gang:
            ganged = as_dense_as_other_papers(paper, deck, sheet)
            if ganged is not None:
                gang, sheet = True, ganged
        if sheet is None:
            unplaceable(deck)
            continue
        # A section's decks flow into each other; another section's pieces of the same size do not
        # (its full pages stay its own), only its leftovers share a page.
        key = (deck.component, round(deck.width, 3), round(deck.height, 3), round(deck.bleed, 3), round(deck.gap, 3),
               deck.shape, deck_mode, gang)
        if key not in streams:
            streams[key] = _Stream(sheet, deck_mode, deck_mode != "fold", [])
        streams[key].items += instances
    pages: list[PackedPage] = []
    leftovers: list[_Stream] = []
    fulls: dict[int, list[list[Item]]] = {}  # id of a leftover -> its stream's full pages
    rests = {key: len(s.items) % s.sheet.per_page for key, s in streams.items()}
    for key, stream in streams.items():
        per_page = stream.sheet.per_page
        full = len(stream.items) // per_page * per_page
        rest = stream.items[full:]
        alone = not stream.mixable or not any(rests[k] and streams[k].mixable and streams[k].mode == stream.mode
                                              for k in streams if k != key)
        if rest and alone:  # its last page holds nothing else: share the pieces out over the last pages
            for chunk in _balanced(stream.items, stream.sheet):
                pages.append(PackedPage([Block(stream.sheet, chunk)], stream.mode))
            continue
        chunks = [stream.items[start:start + per_page] for start in range(0, full, per_page)]
        if rest:
            leftover = replace(stream, items=rest)
            leftovers.append(leftover)
            fulls[id(leftover)] = chunks
        else:
            pages += [PackedPage([Block(stream.sheet, chunk)], stream.mode) for chunk in chunks]
    _fill_leftovers(leftovers, fulls)
    for leftover in leftovers:
        pages += [PackedPage([Block(leftover.sheet, chunk)], leftover.mode) for chunk in fulls[id(leftover)] if chunk]
    pages += _stack_leftovers(leftovers, paper)
    return pages


def as_dense_as_other_papers(paper: str, deck, sheet: Sheet) -> Sheet | None:
    """A ganged plan for a deck whose pieces, each with its own bleed, fit fewer to a page of
    `paper` than to a page of another paper (Letter: 6 poker cards to A4's 8, for want of 5 mm):
    ganged, trim edge to trim edge, as many fit as on the other paper or more.  None where the
    bleed plan is as dense, or where the ganged block would print closer to the paper's edge than
    a home printer can (its trim boxes inside SAFE_EDGE)."""
    best_elsewhere = max((other.per_page for name in PAPER_SIZES if name != paper
                          for other in [plan(name, deck.width, deck.height, deck.bleed)] if other), default=0)
    if sheet.per_page >= best_elsewhere:
        return None
    ganged = plan(paper, deck.width, deck.height, deck.bleed, gang=True)
    if ganged is None or ganged.per_page < best_elsewhere:
        return None
    if min(ganged.grid_x, ganged.grid_y) + ganged.bleed < SAFE_EDGE - 1e-6:
        return None
    return ganged


def _cover(stream: _Stream, count: int) -> float:
    sheet = stream.sheet
    return count * sheet.card_w * sheet.card_h / (sheet.page_w * sheet.page_h)


def _fill_leftovers(leftovers: list[_Stream], fulls: dict[int, list[list[Item]]]) -> None:
    """Where the leftovers of a print mode would make a nearly empty page, move pieces from the
    last full page of the size with the most pages into them, as long as that page stays filled
    enough itself."""
    for mode in dict.fromkeys(s.mode for s in leftovers):
        group = [s for s in leftovers if s.mode == mode]
        cover = sum(_cover(s, len(s.items)) for s in group)
        donors = [s for s in group if fulls[id(s)]]
        if cover >= UNDER_FILLED or not donors:
            continue
        donor = max(donors, key=lambda s: len(fulls[id(s)]))
        each = _cover(donor, 1)
        move = math.ceil((UNDER_FILLED - cover) / each - 1e-9)
        last = fulls[id(donor)][-1]
        if (len(last) - move) * each < UNDER_FILLED:
            continue
        fulls[id(donor)][-1], moved = last[:len(last) - move], last[len(last) - move:]
        donor.items[:0] = moved


UNDER_FILLED = 0.30  # a page less covered by pieces than this is nearly empty paper


def _balanced(items: list[Item], sheet: Sheet) -> list[list[Item]]:
    """The pieces in pages of `sheet`, as few as hold them; where the last page would be nearly
    empty, the last few pages share the pieces evenly instead (same number of sheets, and no
    sheet of one card)."""
    per_page = sheet.per_page
    count = math.ceil(len(items) / per_page)
    cover = sheet.card_w * sheet.card_h / (sheet.page_w * sheet.page_h)
    rest = len(items) - (count - 1) * per_page
    share = 1
    if rest * cover < UNDER_FILLED:
        need = math.ceil(UNDER_FILLED / cover - 1e-9)  # pieces a page needs to be filled enough
        share = next((k for k in range(2, count + 1) if ((k - 1) * per_page + rest) // k >= need), count)
    head = (count - share) * per_page
    chunks = [items[i:i + per_page] for i in range(0, head, per_page)]
    tail = items[head:]
    for k in range(share, 0, -1):  # the larger shares first
        size = math.ceil(len(tail) / k)
        chunks.append(tail[:size])
        tail = tail[size:]
    return [chunk for chunk in chunks if chunk]


def _stack_leftovers(leftovers: list[_Stream], paper: str) -> list[PackedPage]:
    """The partly filled pages of every size, stacked onto the fewest pages (of the two page
    orientations, the one that needs fewer).  Print modes stay apart (a simplex deck's backs go
    to the end of the section)."""
    out: list[PackedPage] = []
    for mode in dict.fromkeys(s.mode for s in leftovers):
        group = sorted((s for s in leftovers if s.mode == mode), key=lambda s: -s.sheet.cell_h)
        if len(group) == 1:
            out += [PackedPage([Block(group[0].sheet, group[0].items)], mode)]
            continue
        short, long = paper_size(paper)
        tries = [_stack(group, w, h) for w, h in ((short, long), (long, short))]
        best = min((t for t in tries if t is not None), key=len, default=None)
        if best is not None and len(best) > 1 and _page_cover(best[-1]) < UNDER_FILLED:
            # The last page nearly empty: fill the pages before it less, as long as no page is added.
            page_w, page_h = best[0][0].sheet.page_w, best[0][0].sheet.page_h
            for tenths in range(9, 2, -1):
                fewer = _stack(group, page_w, page_h, tenths / 10)
                if fewer is not None and len(fewer) == len(best) and _page_cover(fewer[-1]) >= UNDER_FILLED:
                    best = fewer
                    break
        if best is None:  # some size fits only in an orientation the others do not: one page per size
            out += [PackedPage([Block(s.sheet, s.items)], mode) for s in group]
            continue
        for blocks in best:
            if len(blocks) == 1:  # alone on its page: the classic centred grid
                out.append(PackedPage([Block(blocks[0].full, blocks[0].items)], mode))
            else:
                out.append(PackedPage(blocks, mode))
    return out


def _page_cover(blocks: list[Block]) -> float:
    sheet = blocks[0].sheet
    return sum(len(b.items) * b.sheet.card_w * b.sheet.card_h for b in blocks) / (sheet.page_w * sheet.page_h)


def _stack(group: list[_Stream], page_w: float, page_h: float, fill: float = 1.0) -> list[list[Block]] | None:
    """First fit: each size's pieces fill rows of the current page below what is already there,
    and go on to the next page (using at most `fill` of the page's height).  None if a size does
    not fit across this orientation."""
    pages: list[list[Block]] = [[]]
    floor = page_h - FOOTER_TOP - fill * (page_h - 2 * FOOTER_TOP)  # pieces stay above it
    cursor = page_h - FOOTER_TOP  # the top of the free part of the current page
    nook: tuple[Block, float, float, float, float] | None = None  # the free end of a last row: owner, x0, y0, x1, y1
    for stream in group:
        proto = stream.sheet
        # Ganged cards keep one bleed round their block; other pieces a bleed (and gap) each, and a
        # margin that holds their crop marks where the bleed cannot.
        margin = MIN_MARGIN if proto.gang or proto.bleed >= MIN_MARK + 0.5 * MM else SAFE_EDGE + MARK_OFFSET + MIN_MARK
        probe = Sheet(page_w, page_h, proto.card_w, proto.card_h, proto.bleed, 1, 1, False, proto.gap, proto.gang)
        extra = 2 * proto.bleed if proto.gang else -proto.gap  # what a block adds to its cells
        cols = int((page_w - 2 * margin - extra + 1e-6) // probe.cell_w)
        if cols < 1 or probe.cell_h + extra > page_h - 2 * FOOTER_TOP:
            return None
        items = list(stream.items)
        if nook is not None and items:  # first into the empty end of the last row above
            owner, x0, y0, x1, y1 = nook
            fit_cols = int((x1 - x0 - extra + 1e-6) // probe.cell_w)
            fit_rows = int((y1 - y0 - extra + 1e-6) // probe.cell_h)
            if fit_cols >= 1 and fit_rows >= 1:
                take, items = items[:fit_cols * fit_rows], items[fit_cols * fit_rows:]
                sheet = Sheet(page_w, page_h, proto.card_w, proto.card_h, proto.bleed, min(fit_cols, len(take)),
                              math.ceil(len(take) / fit_cols), False, proto.gap, proto.gang, floor=FOOTER_TOP)
                sheet = replace(sheet, origin=(x0 + (x1 - x0 - sheet.block_w) / 2, y0))
                pages[-1].append(Block(sheet, take, proto, beside=True))
                owner.shared_row = True
                nook = None
        while items:
            room = cursor - max(floor, FOOTER_TOP) - (BLOCK_GAP if pages[-1] else 0.0)
            rows = int((room - extra + 1e-6) // probe.cell_h)
            if rows < 1:
                if not pages[-1]:
                    return None  # not one row fits on an empty page with this fill
                pages.append([])
                cursor = page_h - FOOTER_TOP
                nook = None
                continue
            take, items = items[:rows * cols], items[rows * cols:]
            used_cols = min(cols, len(take))
            used_rows = math.ceil(len(take) / cols)
            sheet = Sheet(page_w, page_h, proto.card_w, proto.card_h, proto.bleed, used_cols, used_rows, False,
                          proto.gap, proto.gang, floor=FOOTER_TOP)
            top = cursor - (BLOCK_GAP if pages[-1] else 0.0)
            sheet = replace(sheet, origin=((page_w - sheet.block_w) / 2, top - sheet.block_h))
            block = Block(sheet, take, proto)
            pages[-1].append(block)
            cursor = top - sheet.block_h
            nook = _nook(block)
    return [blocks for blocks in pages if blocks]


def _nook(block: Block) -> tuple[Block, float, float, float, float] | None:
    """The empty end of a block's last row, where smaller pieces may go (x0, y0, x1, y1, in points):
    BLOCK_GAP clear of the last piece, and half of it clear of the row above, so that every piece
    keeps room round it for its crop marks, and a cut between the rows, then one between the last
    piece and the pieces beside it, cuts through none of them."""
    sheet = block.sheet
    last = len(block.items) - (sheet.rows - 1) * sheet.cols  # pieces in the last row
    if last >= sheet.cols:
        return None
    x, y = sheet.slot(len(block.items) - 1)
    right = x + sheet.card_w + (sheet.piece_bleed if not sheet.gang else 0.0)
    row_top = y + sheet.card_h + sheet.piece_bleed
    top = row_top - BLOCK_GAP / 2 if sheet.rows > 1 else row_top
    return block, right + BLOCK_GAP, sheet.grid_y, sheet.grid_x + sheet.block_w, top
