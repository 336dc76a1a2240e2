"""Page planning: which pieces go on which page, in what order, and how each page is drawn.

A planned Page holds a `draw(writer, number)` callback; the Writer (pdf.py) runs it."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from ..diagnostics import Report
from ..frontend.translations import translator
from ..layout.facecode import written_once
from ..layout.icons import IconError
from ..prepare import Prepared
from ..units import MM, MODES, PAPERS, mm  # noqa: F401 (PAPERS, MODES: named here for the rest of output/)
from .pack import BLOCK_GAP, PackedPage, pack
from .page import Page, PrintOptions, blank_page  # noqa: F401 (blank_page: named here for the rest of output/)
from .truescale import PieceTooLarge, plan_templates
from .impose import (FOOTER_TOP, Sheet, Tile, draw_alignment_mark, draw_assembly_map, draw_crop_marks,
                     draw_cut_guides, draw_cut_lines, draw_fold_lines, paper_size, plan, plan_tiles, tile_spans)

if TYPE_CHECKING:
    from .pdf import Writer

ARTWORK_FRAMES = ("shape", "image")  # a board's frames that alignment marks may lie on


def plan_decks(prep: Prepared, sections: tuple[str, ...], options: PrintOptions, report: Report) -> dict[str, list[Page]]:
    """Pages of the cards and tokens of every deck in `sections` (the sections printed on one stock),
    packed together (pack.py) and imposed as `options` say: each section's pages, a page whose
    pieces come from several sections going to the first of them (it lists the others in
    `Page.shares`)."""
    planned: dict[str, list[Page]] = {section: [] for section in sections}
    deferred: dict[str, list[Page]] = {section: [] for section in sections}
    tr = translator(getattr(prep.game.overlay, "strings", None) or {})  # the footers' and manifest's language

    def unplaceable(deck) -> None:
        report.error("E-IMPOSE", f"pieces of '{deck.id}' ({mm(deck.width):.0f} x {mm(deck.height):.0f} mm) "
                     f"do not fit on {options.paper.upper()} paper", prep.game.doc.pos(deck.pointer),
                     help="make the pieces smaller, or the gap and bleed narrower")

    decks = [deck for section in sections for deck in prep.game.component(section)]
    shared = pack(decks, options.paper, options.mode, options.imposition, unplaceable)
    # Sections share sheets only where that saves one: otherwise each keeps its own last sheet.
    apart = [packed for section in sections for packed in
             pack(prep.game.component(section), options.paper, options.mode, options.imposition, lambda deck: None)]
    for packed in shared if len(shared) < len(apart) else apart:
        names = list(dict.fromkeys(card.deck.name for card, _ in packed.items))
        on = sorted(packed.sections, key=sections.index)
        section, shares = on[0], tuple(on[1:])
        has_backs = any(card.back for card, _ in packed.items)
        deck_mode = packed.mode
        # A sheet shared by sections names its decks without their notes ("(double-sided)"): the footer
        # holds them at 6 pt.
        decks_named = ", ".join(re.sub(r"\s*\([^)]*\)", "", name) for name in names) if shares else ", ".join(names)
        label = tr("{decks}, fold-over", decks=decks_named) if deck_mode == "fold" else \
            tr("{decks}, fronts", decks=decks_named)
        duplex = has_backs and deck_mode == "duplex"
        footer_left = packed.sheet.floor == 0 and not packed.stacked
        planned[section].append(Page(packed.sheet.page_w, packed.sheet.page_h, section, label,
                                     _deck_page(packed, "front", options), name=names[0], names=names,
                                     role="fronts" if duplex else "single", footer_left=footer_left, shares=shares))
        if has_backs and deck_mode != "fold":
            back = Page(packed.sheet.page_w, packed.sheet.page_h, section, tr("{decks}, backs", decks=decks_named),
                        _deck_page(packed, "back", options), name=names[0], names=names,
                        footer_left=footer_left, role="backs", shares=shares)
            (planned if deck_mode == "duplex" else deferred)[section].append(back)
    return {section: planned[section] + deferred[section] for section in sections}


def _deck_page(packed: PackedPage, side: str, options: PrintOptions):
    mode = packed.mode
    dx, dy = page_offset(options.back_offset, packed.sheet.page_w, packed.sheet.page_h) \
        if side == "back" and mode == "duplex" else (0.0, 0.0)

    def draw(writer: Writer, number: int) -> None:
        for block in packed.blocks:
            sheet, trims, fronts = block.sheet, [], []
            deck = block.items[0][0].deck  # one size, bleed and shape in a block
            for i, (card, copy) in enumerate(block.items):
                x, y = sheet.slot(i)
                section = card.deck.component  # each piece's own: a page may hold cards and tokens
                if side == "front":
                    fronts.append((x, y, sheet.card_w, sheet.card_h))
                    _face(writer, sheet, section, writer.prep.faces[(card.id, "front")], card, "front", copy, x, y,
                          card.deck, number, trims)
                    if mode == "fold" and card.back:
                        x, y = sheet.fold_back(i)
                    else:
                        continue
                elif not card.back:
                    continue
                elif mode == "duplex":
                    x, y = sheet.behind(x, y, options.flip)
                    x, y = x + dx, y + dy
                _face(writer, sheet, section, writer.prep.faces[(card.id, "back")], card, "back", copy, x, y,
                      card.deck, number, trims)
            if mode == "fold" and side == "front":
                draw_fold_lines(writer.canvas, sheet, fronts)
            if sheet.gang:
                draw_cut_lines(writer.canvas, sheet, trims)
            band = _band(sheet, trims) if packed.stacked else None
            across = _across(sheet, trims) if block.beside else None
            footer_left = sheet.floor == 0 and not packed.stacked
            # The same marks on every sheet of a deck: written out once per document.
            missing = written_once(writer.canvas, writer.written, ("crop marks", sheet, tuple(map(tuple, trims)),
                                                                   footer_left, band, across, block.shared_row),
                                   lambda: draw_crop_marks(writer.canvas, sheet, trims, footer_left, band, across,
                                                           block.shared_row))
            if missing:
                writer.report.warning("W-MARKS", f"{deck.name} on {options.paper.upper()}: no room for crop marks "
                                      f"on the cut lines at {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}",
                                      writer.prep.game.doc.pos(deck.pointer),
                                      help="give the pieces a bleed (marks then go inside it), or make them smaller")
            if deck.shape != "rect":
                draw_cut_guides(writer.canvas, deck.shape, trims)
    return draw


def page_offset(offset: tuple[float, float], page_w: float, page_h: float) -> tuple[float, float]:
    """The printer's back misregistration, measured in the paper's frame, in a back page's own axes.

    The offset (X, Y) is read on the portrait duplex test's back (calibrate.py): X along the paper's
    short edge, Y along its long edge, as the back is seen, so on a portrait page it applies as it is.
    A landscape page is not turned by the printer's paper path but by its driver, which puts the page
    on portrait paper turned a quarter anticlockwise (the PostScript and PCL "landscape": the page's
    top along the paper's left edge, its +x up the paper, its +y towards the paper's left), on both
    sides of the sheet alike: that is what makes a landscape back belong behind its front about the
    page's horizontal axis on a long-edge flip (Sheet.behind).  So a shift of the paper's (X, Y)
    is the page's (Y, -X).  The flip needs no second term: it is already in the reading, because the
    test is printed with the kit's own flip and read on its back, the side the backs print on; any
    half turn the printer gives a short-edge back applies to portrait and landscape pages alike, and
    turns commute in the plane."""
    x, y = offset
    return (y, -x) if page_w > page_h else (x, y)


def _band(sheet: Sheet, trims: list) -> tuple[float, float] | None:
    """Where a stacked block's crop marks may go above and below it: half the gap to the next block
    (on a back page, round the mirrored block)."""
    if not trims:
        return None
    bottom = min(y for _, y, _, _ in trims) - sheet.bleed
    top = max(y + h for _, y, _, h in trims) + sheet.bleed
    return bottom - BLOCK_GAP / 2, top + BLOCK_GAP / 2


def _across(sheet: Sheet, trims: list) -> tuple[float, float] | None:
    """Where the marks of a block beside the end of another block's last row may go left and right of
    it: half the gap to that row's last piece (on a back page, round the mirrored block)."""
    if not trims:
        return None
    left = min(x for x, _, _, _ in trims) - sheet.bleed
    right = max(x + w for x, _, w, _ in trims) + sheet.bleed
    return left - BLOCK_GAP / 2, right + BLOCK_GAP / 2


def _face(writer: Writer, sheet: Sheet, section: str, layout, card, side: str, copy: int, x: float, y: float,
          deck, number: int, trims: list) -> None:
    """One piece on a sheet. A ganged card is clipped to its trim box, grown by the bleed only on
    the sides that face the block's edge, so that no card paints over its neighbour."""
    c = writer.canvas
    if sheet.gang:
        b, eps = sheet.bleed, 0.01
        x0 = x - b if x <= sheet.grid_x + b + eps else x
        y0 = y - b if y <= sheet.grid_y + b + eps else y
        x1 = x + sheet.card_w + (b if x + sheet.card_w >= sheet.grid_x + sheet.block_w - b - eps else 0)
        y1 = y + sheet.card_h + (b if y + sheet.card_h >= sheet.grid_y + sheet.block_h - b - eps else 0)
        c.saveState()
        clip = c.beginPath()
        clip.rect(x0, y0, x1 - x0, y1 - y0)
        c.clipPath(clip, stroke=0, fill=0)
    writer.face(section, layout, card, side, copy, x, y, deck.bleed if not sheet.gang else sheet.bleed, number,
                deck.shape)
    if sheet.gang:
        c.restoreState()
    trims.append((x, y, sheet.card_w, sheet.card_h))


def board_tiles(prep: Prepared, board, paper: str, measure: bool = True) -> list[Tile]:
    """The tiles of one board on `paper`, with seams placed off its words and play areas (seams.py).
    The board is drawn once, on a canvas that is never saved, to know where it prints what; `check`
    (which loads no PDF writer) plans the fewest tiles by size alone."""
    bleed = prep.game.bleed
    fewest = plan_tiles(paper, board.width, board.height, bleed)
    layout = prep.boards.get(board.id)
    if len(fewest) == 1 or layout is None or not measure:
        return fewest
    key = (board.id, paper)
    memo = prep.__dict__.setdefault("_tile_plans", {})  # planned once for the kit and the guide
    if key not in memo:
        memo[key] = plan_tiles(paper, board.width, board.height, bleed, keep=_printed_boxes(prep, board, layout, bleed))
    return memo[key]


def _printed_boxes(prep: Prepared, board, layout, bleed: float):
    import io
    from reportlab.pdfgen.canvas import Canvas
    from ..render.face import CardRenderer
    from .seams import keep_out, narrowed
    prep.fonts.family("sans").face("regular")
    canvas = Canvas(io.BytesIO(), invariant=1, initialFontName="sans-regular", initialFontSize=9)
    frames = CardRenderer(canvas, prep.game, prep.fonts, prep.icons, Report()).draw(
        layout, board, "front", 1, bleed, bleed, bleed)
    return keep_out(narrowed(frames, layout, prep.fonts, canvas), (0.0, 0.0),
                    board.width + 2 * bleed, board.height + 2 * bleed, layout)


def plan_boards(prep: Prepared, section: str, paper: str, measure: bool = True) -> list[Page]:
    """Pages of every board (or reference sheet): one page each, or tiles with overlaps."""
    pages: list[Page] = []
    bleed = prep.game.bleed
    tr = translator(getattr(prep.game.overlay, "strings", None) or {})
    for board in prep.game.component(section):
        tiles = board_tiles(prep, board, paper, measure)
        spans = tile_spans(tiles, board.height + 2 * bleed)
        for tile in tiles:
            label = board.name if len(tiles) == 1 else \
                tr("{name}, tile {tile} of {tiles} (row {row}, column {column})", name=board.name,
                   tile=tiles.index(tile) + 1, tiles=len(tiles), row=tile.row + 1, column=tile.col + 1)
            pages.append(Page(tile.page_w, tile.page_h, section, label, _board_page(section, board, tile, spans, bleed),
                              name=board.name, role="reference" if section == "references" else "single"))
    return pages


def _board_page(section: str, board, tile: Tile, spans, bleed: float):
    def draw(writer: Writer, number: int) -> None:
        c = writer.canvas
        layout = writer.prep.boards[board.id]
        bx, by = tile.board_origin
        wx, wy, ww, wh = tile.window
        tiled = tile.cols * tile.rows > 1
        marks: list[tuple[float, float]] = []
        cuts = tile.cut_lines()

        def place_marks(frames: list[dict]) -> dict:
            """Alignment marks off every printed word, number and symbol of the board and off its
            slots (seams.py), in the board's coordinates; and the check that no cut line of this
            tile runs through a word."""
            from .seams import boxes_of, crossings, narrowed
            frames = narrowed(frames, layout, writer.prep.fonts, c)
            boxes = [box for box, kind in boxes_of(frames, mm(board.width + 2 * bleed), mm(board.height + 2 * bleed),
                                                   layout) if kind != "art"]
            avoid = tuple((x * MM - bx, y * MM - by, w * MM, h * MM) for x, y, w, h in boxes)
            marks.extend(tile.marks(board.width + 2 * bleed, board.height + 2 * bleed, *spans, avoid=avoid))
            lines = [(axis, round(mm(at), 3)) for axis, at in cuts]
            for frame in crossings(frames, lines):
                _seam_warning(writer, layout, board, tile, frame)
            return {"marks": [[round(mm(mx), 3), round(mm(my), 3)] for mx, my in marks]}

        c.saveState()
        clip = c.beginPath()
        clip.rect(tile.origin[0], tile.origin[1], ww, wh)
        c.clipPath(clip, stroke=0, fill=0)
        record = {"col": tile.col + 1, "row": tile.row + 1, "cols": tile.cols, "rows": tile.rows,
                  "window": [round(mm(v), 3) for v in tile.window],
                  "origin": [round(mm(v), 3) for v in tile.origin],
                  "overlap": round(mm(tile.overlap), 3)}
        if tiled:  # where the player may cut: both edges of every strip this tile shares, on the page
            record["cuts"] = [{axis: round(mm(at), 3)} for axis, at in cuts]
        writer.face(section, layout, board, "front", 1, bx + bleed, by + bleed, bleed, number,
                    tile=record, annotate=place_marks if tiled else None)
        c.restoreState()
        if tiled:
            for mx, my in marks:
                draw_alignment_mark(c, bx + mx, by + my)
            draw_assembly_map(c, tile, f"{board.name}: tile {tile.row * tile.cols + tile.col + 1} of "
                              f"{tile.cols * tile.rows}; overlap {mm(tile.overlap):.0f} mm, match the targets")
        else:
            draw_crop_marks(c, Sheet(tile.page_w, tile.page_h, board.width, board.height, bleed, 1, 1, False,
                                     floor=FOOTER_TOP), [(bx + bleed, by + bleed, board.width, board.height)])
    return draw


def _seam_warning(writer: Writer, layout, board, tile: Tile, frame: dict) -> None:
    """W-SEAM, once per frame and paper, at the frame's line in the layout."""
    name = frame.get("name", "")
    key = ("seam", board.id, name, tile.page_w, tile.page_h)
    if key in writer.written:
        return
    writer.written[key] = True
    top = name.split("/")[0].split("[")[0]
    where = next((f.position for f in layout.frames if f.name in (name, top)), None) or \
        writer.prep.game.doc.pos(board.pointer)
    paper = "A4" if abs(min(tile.page_w, tile.page_h) / MM - 210) < 1 else "Letter"
    writer.report.warning("W-SEAM", f"board '{board.id}' on {paper}: a tile's cut line runs through the words of "
                          f"frame '{name}' of layout '{layout.name}'", where,
                          help="move the frame off the seam, or resize the board so that its tiles' seams fall "
                          "in a margin or gutter (cardforge places them where the board leaves a free band)")


def cover_page(prep: Prepared, paper: str, kit_pages: Callable[[], list[Page]]) -> Page:
    """The kit's first page: the game's name and a contents list with page numbers, read from the
    kit's pages in their final order (`kit_pages`, called when the cover is drawn)."""
    width, height = paper_size(paper)
    game = prep.game

    def draw(writer: Writer, number: int) -> None:
        c = writer.canvas
        fonts = writer.prep.fonts
        for family, style in (("display", "bold"), ("sans", "regular"), ("sans", "italic"), ("sans", "bold")):
            fonts.family(family).face(style)  # registered on first use
        tr = translator(getattr(game.overlay, "strings", None) or {})

        def say(font: str, size: float, x: float, y: float, text: str, align: str = "left") -> None:
            fonts.draw_string(c, font, size, x, y, text, align)

        c.saveState()
        art = game.data.get("cover")
        if art:
            _cover_art(writer, art, width, height)
        c.setFillColorRGB(*((1, 1, 1) if art else (0.1, 0.1, 0.1)))
        say("display-bold", 30, width / 2, height - 45 * MM, game.name, "centre")
        if game.data.get("subtitle"):
            say("sans-regular", 13, width / 2, height - 55 * MM, tr(str(game.data["subtitle"])), "centre")
        if game.data.get("designer"):
            say("sans-italic", 11, width / 2, height - 63 * MM, tr("by {designer}", designer=game.data["designer"]),
                "centre")
        c.setFillColorRGB(0.1, 0.1, 0.1)
        say("sans-bold", 9, width / 2, height - 75 * MM, tr("PRINT-AND-PLAY KIT · PRINT AT 100% (ACTUAL SIZE)"), "centre")
        y = height - 95 * MM
        say("display-bold", 14, 30 * MM, y, tr("Contents"))
        y -= 9 * MM
        contents = []
        sections: dict[str, dict[str, int]] = {}  # section -> item name -> its first page
        own = {deck.name: deck.component for deck in game.decks}  # a deck on a page another section leads
        for number, page in enumerate(kit_pages(), start=1):
            for name in page.names or ([page.name] if page.name else []):
                if page.section != "cover":
                    section = own.get(name, page.section) if page.shares else page.section
                    sections.setdefault(section, {}).setdefault(name, number)
        for section, firsts in sections.items():
            page_no = min(firsts.values())
            say("sans-bold", 10, 30 * MM, y, tr(section.capitalize()))
            say("sans-bold", 10, width - 30 * MM, y, tr("page {page}", page=page_no), "right")
            y -= 6 * MM
            c.setFont("sans-regular", 9.5)
            for name, first in firsts.items():
                say("sans-regular", 9.5, 36 * MM, y, name)
                c.setDash([0.5, 2])
                c.setLineWidth(0.4)
                c.line(36 * MM + c.stringWidth(name, "sans-regular", 9.5) + 2 * MM, y + 0.5 * MM,
                       width - 48 * MM, y + 0.5 * MM)
                c.setDash([])
                c.drawRightString(width - 30 * MM, y, str(first))
                contents.append({"section": section, "name": name, "page": first})
                y -= 5.5 * MM
            y -= 3 * MM
        c.setFont("sans-regular", 7.5)
        y = 28 * MM
        for line in reversed(game.data.get("credits", [])):
            say("sans-regular", 7.5, width / 2, y, tr(str(line)), "centre")
            y += 4 * MM
        c.restoreState()
        if writer.manifest is not None:
            writer.manifest.header["contents"] = contents
    label = translator(getattr(game.overlay, "strings", None) or {})("Cover and contents")
    return Page(width, height, "cover", label, draw, name="Cover", role="cover")


def _cover_art(writer: Writer, art: dict, width: float, height: float) -> None:
    """The cover's banner (game.yaml `cover`): the game's colour from 10 to 69 mm below the top, 5 mm
    from the sides, its icons in a row across its top (14 to 32 mm) in a lighter tint, the title in white under them."""
    c = writer.canvas
    red, green, blue = (int(art.get("color", "#2f3a44")[i:i + 2], 16) / 255 for i in (1, 3, 5))
    c.setFillColorRGB(red, green, blue)
    c.rect(5 * MM, height - 69 * MM, width - 10 * MM, 59 * MM, stroke=0, fill=1)
    tint = "#" + "".join(f"{round(255 * (v + (1 - v) * 0.45)):02x}" for v in (red, green, blue))
    names = [name for name in art.get("icons", []) if name in writer.prep.icons]
    cell = min(24 * MM, (width - 30 * MM) / max(len(names), 1))
    left = (width - cell * len(names)) / 2
    for i, name in enumerate(names):
        try:
            writer.renderer.painter.draw(name, left + i * cell + 2 * MM, height - 32 * MM, cell - 4 * MM, 18 * MM,
                                         tint)
        except IconError as exc:  # a broken icon on the cover is an error at the icon, not a traceback
            writer.report.error(exc.code, exc.message, exc.position, help=exc.help)


SECTIONS = ("cards", "boards", "tokens", "references", "templates")
DECK_SECTIONS = ("cards", "tokens")  # both on card stock (sheets.STOCK): their pieces share sheets


def plan_sections(prep: Prepared, options: PrintOptions, report: Report,
                  measure: bool = True) -> list[tuple[str, list[Page]]]:
    """Every section's pages.  `measure=False` (`check`, which loads no PDF writer): boards are tiled
    by their size alone, without placing seams off their words."""
    planned = []
    decks = plan_decks(prep, DECK_SECTIONS, options, report)
    for section in SECTIONS:
        if section == "templates":
            try:
                pages = [Page(w, h, section, label, draw, name="Templates")
                         for w, h, label, draw in plan_templates(prep, options.paper)]
            except PieceTooLarge as exc:
                report.error("E-TEMPLATE-PIECE", str(exc), exc.piece.pos(),
                             help="make the piece smaller than the printable page, or make it a strip or ruler, "
                             "which is cut into segments")
                pages = []
        else:
            pages = decks[section] if section in decks else plan_boards(prep, section, options.paper, measure)
        if pages:
            planned.append((section, pages))
    return planned


def count_faces(prep: Prepared, paper: str) -> int:
    """Faces one paper's PDFs draw (a board counts once per tile), for the progress bar."""
    total = 0
    for deck in prep.game.decks:
        total += sum(card.quantity * (2 if card.back else 1) for card in deck.cards)
    for board in prep.game.boards:
        total += len(board_tiles(prep, board, paper))
    return total
