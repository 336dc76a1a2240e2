"""`cardforge build --target printshop`: files for a print shop, one piece per page.

    <out>/<game>/printshop/<game>-<deck>.pdf           a card deck: back 1, front 1, back 2, front 2, ...
    <out>/<game>/printshop/<game>-<deck>/NNN-<card>-<copy>-<side>.png   the same pages at 300 dpi
    <out>/<game>/printshop/<game>-<board>.pdf (.png)   a board or reference sheet, one page

Every page is the piece's trim plus 1/8 in (3.175 mm) of bleed on every side, the bleed The
Game Crafter, DriveThruCards and MakePlayingCards ask for: MediaBox = BleedBox = the page,
TrimBox = the trim (no CropBox, so a viewer and the shop's RIP show the whole bleed).  Nothing
but the piece is drawn: no crop marks, no footer.  A card with quantity 3 is in the file three
times, so the shop prints the deck as it is.  The faces are drawn by the same renderer as the
kit, asked for this bleed: frames marked `bleed` grow into it (render/face.py), so the art
reaches the page edge whatever bleed the game's own layouts were drawn for.

The PDFs go through the kit's Writer and are read back by the verifier; the PNGs are those
verified pages rasterised (output/raster.py), so a picture is exactly its PDF page.  Everything
is staged as a new `printshop/` folder in the staging folder of the game's output folder, which
replaces it in one atomic swap only when all of it succeeded, under the folder's lock (the same
commit as the kit's: output/build.py, replace.py, lock.py); a failed or killed build leaves the
previous print-shop folder untouched, and a good one leaves exactly its own files.  Tokens (punched from sheets, which each
shop lays out on its own die template) and true-scale templates are not part of this target:
`notes` says so, and the home-print kit has them.

With `--color cmyk` each verified PDF is put through the game's print profile (output/printcolor.py, output/cmykpdf.py:
CMYK under the ink limit, PDF/X-1a or PDF/X-4) and refused unless the preflight (verify/preflight.py)
passes it; the PNGs stay RGB, rasterised from the RGB drawing, for screens and the shops that take
pictures.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import ContentError, Report
from ..frontend.provenance import provenance
from ..prepare import Prepared, prepare
from ..units import mm
from ..verify import Verifier
from ..gctuning import drawing_gc
from .build import BuildResult, _Counter, _stage_manifest, commit, discard, replacing_folder
from .pages import Page
from .pdf import Progress, Writer
from .raster import raster_pages, raster_pixels
from ..limits import MAX_RASTER_PIXELS, limit_message

BLEED = 0.125 * 72  # points: 1/8 in = 3.175 mm on every side
DPI = 300
FOLDER = "printshop"


@dataclass
class PrintshopResult(BuildResult):
    notes: list[str] = field(default_factory=list)  # what the target leaves out, said once per game
    color: list[str] = field(default_factory=list)  # --color cmyk: a line per PDF (profile, shift, resolution)


@dataclass
class Item:
    """One print-shop PDF: a deck or a board, and its pages in print order."""
    stem: str  # the file name without .pdf
    title: str
    decks: list[str]  # the decks whose copies the verifier counts
    pages: list[Page]
    pngs: list[str]  # each page's picture's file name (a board has one, beside its PDF)
    pos: object = None  # where the deck or board is declared, for a diagnostic


def build_printshop(game_dir: Path, out_dir: Path, layouts_dir: Path | None = None,
                    progress: Progress | None = None, color: str = "rgb") -> PrintshopResult:
    """Draw, verify and stage every print-shop PDF and PNG of a game; commit them all or none.
    `color`: "rgb" (as drawn) or "cmyk" (through the game's print profile, as PDF/X)."""
    report = Report()
    result = PrintshopResult(report)
    try:
        prep = prepare(game_dir, report, layouts_dir)
    except ContentError:
        return result
    result.game = prep.game
    folder = Path(out_dir) / FOLDER
    items = plan(prep, report)
    result.notes = left_out(prep)
    cmyk = None
    if color == "cmyk":
        from .printcolor import settings
        cmyk = settings(prep.game, report)
    if report.has_errors():
        return result
    shifts: dict = {}  # --color cmyk: each sRGB colour and the places that use it, over the game
    counter = _Counter(progress, sum(1 for item in items for page in item.pages if page.name))
    staged: list[tuple[Path, Path]] = []
    # The new printshop/ folder replaces the old one whole (no file of an earlier build stays);
    # the rest of the game's output folder (the kit) is kept as it is.
    with replacing_folder(Path(out_dir), Path(game_dir).resolve().name) as replacement:
        stage = replacement.stage / FOLDER
        stage.mkdir()
        with drawing_gc():
            verifier = Verifier(prep, report, fresh=True)
            for item in items:
                staged += _stage(prep, folder, stage, item, verifier, report, counter, cmyk, result, shifts)
                if report.has_errors():
                    return result
        if cmyk is not None:
            from .printplaces import shift_warnings
            shift_warnings(prep, cmyk, shifts, report)
        result.outputs = commit(staged, replacement)
    return result


def plan(prep: Prepared, report: Report) -> list[Item]:
    """The PDFs: each card deck (back before front, one pair per printed copy), then each board
    and reference sheet."""
    game = prep.game
    items: list[Item] = []
    for deck in game.component("cards"):
        pages, pngs = [], []
        two_sided = any(card.back for card in deck.cards)
        for card in deck.cards:
            for copy in range(1, card.quantity + 1):
                sides = ("back", "front") if two_sided else ("front",)
                for side in sides:
                    layout = prep.faces.get((card.id, side))
                    pages.append(_piece_page("cards", deck.width, deck.height, layout, card, side, copy,
                                             deck.shape, f"{deck.name}: {card.id} {side}"))
                    pngs.append(f"{card.id}-{copy}-{side}.png")
        if pages:
            width = max(3, len(str(len(pages))))
            pngs = [f"{deck_stem(game, deck.id)}/{n:0{width}d}-{name}" for n, name in enumerate(pngs, start=1)]
            items.append(Item(deck_stem(game, deck.id), f"{game.name} - {deck.name} (print shop)", [deck.id],
                              pages, pngs, game.doc.pos(deck.pointer)))
    for section in ("boards", "references"):
        for board in game.component(section):
            stem = deck_stem(game, board.id)
            page = _piece_page(section, board.width, board.height, prep.boards[board.id], board, "front", 1,
                               "rect", board.name)
            items.append(Item(stem, f"{game.name} - {board.name} (print shop)", [], [page], [f"{stem}.png"],
                              board.pos()))
    seen: dict[str, str] = {}
    for item in items:
        page = item.pages[0]
        pixels = raster_pixels(page.width, page.height, DPI)
        if pixels > MAX_RASTER_PIXELS:  # its picture alone would take gigabytes
            report.error("E-LIMIT", f"{item.title}: its {DPI} dpi picture would be "
                         f"{round(page.width * DPI / 72)} x {round(page.height * DPI / 72)} px, "
                         + limit_message(f"{pixels // 1_000_000} million pixels",
                                         f"{MAX_RASTER_PIXELS // 1_000_000} million pixels per picture"),
                         item.pos, help="an A0 sheet (841 x 1189 mm) is within it; split a larger board into parts")
        if item.stem in seen:
            report.error("E-PRINTSHOP", f"two print-shop files would both be named {item.stem}.pdf "
                         f"({seen[item.stem]} and {item.title})", item.pos,
                         help="give the deck, board or sheet an id that no other one has")
        seen[item.stem] = item.title
    return items


def deck_stem(game, piece_id: str) -> str:
    return f"{game.id}-{piece_id}"


def left_out(prep: Prepared) -> list[str]:
    """What the print-shop target does not cover, for the command's output."""
    game = prep.game
    notes = []
    tokens = [deck.id for deck in game.component("tokens")]
    if tokens:
        notes.append(f"tokens ({', '.join(tokens)}) are not in the print-shop output: shops punch tokens from "
                     "their own die templates; print them from the kit (cardforge build)")
    if game.templates:
        notes.append(f"{len(game.templates)} true-scale template(s) are not in the print-shop output: "
                     "print them from the kit (cardforge build)")
    return notes


def _piece_page(section: str, width: float, height: float, layout, piece, side: str, copy: int, shape: str,
                label: str) -> Page:
    """A page the size of the piece plus the print-shop bleed, the piece alone on it.  A card
    without this side (a deck where only some cards have backs) gets a blank page, so that
    each back stays paired with its front."""
    page_w, page_h = width + 2 * BLEED, height + 2 * BLEED

    def draw(writer: Writer, number: int) -> None:
        c = writer.canvas
        c.setBleedBox((0, 0, page_w, page_h))
        c.setTrimBox((BLEED, BLEED, BLEED + width, BLEED + height))
        if layout is not None:
            writer.face(section, layout, piece, side, copy, BLEED, BLEED, BLEED, number, shape)

    blank = layout is None
    return Page(page_w, page_h, section, "blank back" if blank else label, draw, scale_bar=False,
                name="" if blank else label, furniture=False)


def _stage(prep: Prepared, folder: Path, stage: Path, item: Item, verifier: Verifier, report: Report,
           counter: _Counter, cmyk=None, result: PrintshopResult | None = None,
           shifts: dict | None = None) -> list[tuple[Path, Path]]:
    """One PDF drawn, read back by the verifier and staged with its manifest and its pictures.
    With `cmyk` (printcolor.PrintColor) the PDF is converted and preflighted first; its pictures
    are those of the RGB drawing."""
    target = folder / f"{item.stem}.pdf"
    tmp = stage / (target.name + ".tmp")
    staged: list[tuple[Path, Path]] = []
    writer = Writer(prep, tmp, item.title, report, counter, 0)
    manifest = writer.write(item.pages)
    try:
        if report.has_errors():
            tmp.unlink(missing_ok=True)
            return []
        manifest.header.update(target="printshop", bleed=round(mm(BLEED), 3), decks=item.decks,
                               provenance=provenance(prep.game))
        staged.append((tmp, target))
        drawn = tmp.read_bytes()  # the RGB drawing: the pictures are made from it
        if cmyk is not None:
            manifest.header.update(color=_to_cmyk(prep, tmp, target, cmyk, manifest, item, report, result, shifts))
            if report.has_errors():
                return staged
        verifier.verify(tmp, manifest, shown_as=target)
        if report.has_errors():
            return staged  # discarded by the caller
        staged += _stage_manifest(manifest, target, stage)
        _stage_pictures(drawn, folder, stage, item, report, staged)
    except BaseException:
        discard(staged)
        raise
    finally:
        manifest.close()
        counter.advance(writer.done)
    return staged


def _stage_pictures(pdf: bytes, folder: Path, stage: Path, item: Item, report: Report,
                    staged: list[tuple[Path, Path]]) -> None:
    """Each page of the verified PDF at 300 dpi, its pixel size checked against the page's.  Each
    picture joins `staged` as soon as it is written, so that a failure discards it too."""
    from PIL import Image

    for page, name, data in zip(item.pages, item.pngs, raster_pages(pdf, DPI)):
        final = folder / name
        tmp = stage / (name + ".tmp")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        staged.append((tmp, final))
        tmp.write_bytes(data)
        want = (round(page.width * DPI / 72), round(page.height * DPI / 72))
        with Image.open(io.BytesIO(data)) as image:
            got = image.size
        if got != want:
            report.error("E-PRINTSHOP", f"{final.name}: the picture is {got[0]} x {got[1]} px, but its page "
                         f"at {DPI} dpi is {want[0]} x {want[1]} px", None,
                         help="this is a bug in cardforge; please report it")


def _to_cmyk(prep: Prepared, tmp: Path, target: Path, cmyk, manifest, item: Item, report: Report,
             result: PrintshopResult, shifts: dict) -> dict:
    """The drawn PDF rewritten in CMYK as PDF/X (output/cmykpdf.py), then preflighted
    (verify/preflight.py); each fault reported at the layout line of its frame.  Returns the
    manifest's `color` header."""
    from ..verify.preflight import preflight
    from .cmykpdf import to_cmyk
    from .printcolor import PDFX
    from .printplaces import frame_pos, report_faults
    from .softproof import largest_shift
    records = [record for _, record in manifest.records()]
    converted = tmp.with_name(tmp.name + ".cmyk")
    try:
        conversion = to_cmyk(tmp, converted, cmyk, records, item.title)
        report_faults(prep, conversion, report, target.name)
        if report.has_errors():
            return {}
        converted.replace(tmp)
    finally:
        converted.unlink(missing_ok=True)
    checked = preflight(tmp, cmyk.ink_limit, cmyk.pdfx, records)
    for finding in checked.faults:
        report.error("E-PREFLIGHT", f"{target.name}: {finding}", frame_pos(prep, finding.place, "fill"),
                     help="this is a bug in cardforge's CMYK conversion; please report it")
    for rgb, places in conversion.colours.items():
        shifts.setdefault(rgb, set()).update(places)
    shift, colour = largest_shift(conversion, cmyk)
    lowest = checked.lowest_ppi
    from .printcolor import hex_of
    result.color.append(f"{target.name}: CMYK {cmyk.profile.name}, ink limit {cmyk.ink_limit:g}%, "
                        f"{PDFX[cmyk.pdfx][3]}; largest colour shift ΔE2000 {shift:.1f}"
                        + (f" ({hex_of(colour)})" if colour else "") + "; "
                        + (f"lowest picture resolution {lowest:.0f} ppi" if lowest else "no pictures"))
    return {"space": "cmyk", "profile": cmyk.profile.name, "ink_limit": cmyk.ink_limit, "pdfx": cmyk.pdfx,
            "rich_black": list(cmyk.rich_black), "largest_shift": round(shift, 2)}
