"""The PDF writer: draws planned pages into one PDF (or onto a null canvas for `check`), with
the page furniture (footer, scale bar), and collects the manifest of what was drawn where."""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import Callable

from .. import __version__
from ..diagnostics import Report
from ..frontend.translations import translator
from ..layout.facecode import written_once
from ..layout.layouts import Layout
from ..limits import expression_batch
from ..prepare import Prepared
from ..render.face import CardRenderer
from ..render.fingerprint import recorded_digest
from ..units import MM, mm
from .manifest import Manifest
from .page import Page

Progress = Callable[[int, int], None]


class Writer:
    """Draws planned pages into one PDF and collects its manifest."""

    def __init__(self, prep: Prepared, target: Path | None, title: str, report: Report, progress: Progress | None,
                 total_faces: int, spool_dir: Path | None = None):
        self.prep, self.report, self.progress, self.total = prep, report, progress, total_faces
        game = prep.game
        if target is not None:  # `check` draws on a NullCanvas, with neither the PDF writer nor a font of its own
            from reportlab import rl_config
            from reportlab.pdfgen.canvas import Canvas
            rl_config.useA85 = 0  # compressed streams stay binary: ASCII85 makes every page a quarter larger
            prep.fonts.family("sans").face("regular")  # the canvas's initial font, and the page furniture
        self.canvas = NullCanvas() if target is None else Canvas(
            str(target), invariant=1, pageCompression=1, initialFontName="sans-regular", initialFontSize=9)
        self.canvas.setTitle(title)
        self.canvas.setAuthor(game.data.get("designer", ""))
        self.canvas.setCreator(f"cardforge {__version__}")  # the version that drew it: `cardforge --version`
        self.canvas.setProducer(f"cardforge {__version__}")
        self.renderer = CardRenderer(self.canvas, game, prep.fonts, prep.icons, report)
        self.renderer.outline = prep.outline
        # `check` (no target) keeps no manifest at all; a build spools it beside its output.
        self.manifest = None if target is None else Manifest(
            {"game": game.id, "title": title, "units": "mm, origin at the page's lower left",
             "credits": list(game.data.get("credits") or []), **_library_icons(prep.icons)},
            spool_dir or Path(target).parent)
        self.done = 0
        self.written: dict = {}  # what a page draws the same on many sheets (layout/facecode.py written_once)
        self.tr = translator(getattr(game.overlay, "strings", None) or {})  # the footers' language

    def write(self, pages: list[Page], numbers: list[int] | None = None, total: int | None = None) -> Manifest | None:
        """Draw every page; the PDF is saved only when nothing went wrong (a preview, build --only,
        --outline or --proof, is saved with the errors its faces show: output/build.py).  `numbers`
        and `total`: the pages' numbers and page count in a longer PDF they are drawn again for
        (output/ink.py)."""
        with expression_batch():  # the time limit's timer armed once, not twice per template
            self._draw_pages(pages, numbers or list(range(1, len(pages) + 1)), total or len(pages))
        if self.manifest is not None:
            self.renderer.flush_kept()  # the faces drawn, for the other paper and the next build
        if (not self.report.has_errors() or getattr(self.prep, "preview", False)) and self.manifest is not None:
            self.canvas.save()
            # The saved document (every page's drawing, the font subsets) and the renderer's caches
            # are freed before the PDF is read back: a 10,000-card build peaks lower.
            self.canvas = self.renderer = None
        return self.manifest

    def _draw_pages(self, pages: list[Page], numbers: list[int], total: int) -> None:
        for index, (number, page) in enumerate(zip(numbers, pages)):
            if index:
                self.canvas.showPage()
                _deflate_last_page(self.canvas)
            self.canvas.setPageSize((page.width, page.height))
            entry = {"page": number, "size": [round(mm(page.width), 2), round(mm(page.height), 2)],
                     "section": page.section, "content": page.label}
            if page.sheet:
                entry["sheet"] = page.sheet
            if self.manifest is not None:
                self.manifest.pages.append(entry)
            page.draw(self, number)
            # Footers give the page's number in this PDF, the one the player's viewer shows and
            # the guide and contents cite.
            entry["scale_bar"] = _furniture(self, page, (number, total)) if page.furniture else None

    def face(self, section: str, layout: Layout, piece, side: str, copy: int, x: float, y: float, bleed: float,
             page: int, shape: str = "rect", annotate=None, **extra) -> None:
        """Draw one face and record it; `annotate(frames)` may add keys computed from what was drawn."""
        frames = self.renderer.draw(layout, piece, side, copy, x, y, bleed, shape)
        if self.manifest is None:  # `check`: what the face reports is all it needs
            self._count()
            return
        if annotate is not None:
            extra.update(annotate(frames))
        record = {"page": page, "side": side, "layout": layout.name, "copy": copy,
                  "trim": [round(mm(v), 3) for v in (x, y, layout.width, layout.height)],
                  "bleed": round(mm(bleed), 3), "frames": frames}
        record["face"] = self._digest(layout, frames, record["trim"][:2])  # builds compare without sources
        if shape != "rect":
            record["shape"] = shape
        key = "board" if section in ("boards", "references") else "card"
        record[key] = piece.id
        if key == "card":
            record["deck"] = piece.deck.id
        record.update(extra)
        self.manifest.add(section, record)
        self._count()

    def _digest(self, layout: Layout, frames: list[dict], trim_mm: list[float]) -> str:
        """The face's digest; a face placed again (a deck's back on every sheet) prints the same
        records, moved: its digests are kept with it."""
        kept = self.renderer.last_kept
        return recorded_digest(layout, frames, trim_mm, kept.digests if kept is not None else None)

    def _count(self) -> None:
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total)


class _Deflated:
    """reportlab's Flate filter for a page stream compressed as soon as its page was finished."""
    pdfname = "FlateDecode"

    @staticmethod
    def encode(content: bytes) -> bytes:
        return content


def _deflate_last_page(canvas) -> None:
    """Compress the page just finished now rather than when the document is saved: reportlab keeps
    every page's operators as text until then, which for 10,000 cards is tens of megabytes.  The
    bytes written are the same (reportlab compresses them the same way at save)."""
    if getattr(canvas, "measuring", False):  # check's NullCanvas answers every attribute with itself
        return
    doc = getattr(canvas, "_doc", None)
    pages = getattr(getattr(doc, "Pages", None), "pages", None)
    from reportlab import rl_config
    if not isinstance(pages, list) or not pages or rl_config.useA85:
        return
    page = pages[-1]
    stream = getattr(page, "stream", None)
    if not getattr(page, "compression", 0) or not isinstance(stream, str) or not stream or page.Contents:
        return
    from reportlab.pdfbase.pdfdoc import PDFStream
    contents = PDFStream(content=zlib.compress(stream.encode("utf8")), filters=[_Deflated])
    contents.__Comment__ = "page stream"
    page.Contents, page.stream = contents, None


class NullCanvas:
    """A canvas that draws nothing: `check` lays every page out (fitting text, tables, tracks)
    to find what only drawing would find, without the cost of producing a PDF."""

    measuring = True  # the renderer fits text and checks icons but draws nothing onto it

    def __getattr__(self, name):
        return self

    def __call__(self, *args, **kwargs):
        return self

    def stringWidth(self, *args, **kwargs) -> float:  # the footer and cover centre their text by it
        return 0.0


FOOTER_BASELINE = 6.1 * MM  # its descenders stay above the 5 mm that home printers leave unprinted
SCALE_BAR_Y = 6.7 * MM  # its ticks reach 7.9 mm; its label sits on 6.1 mm
LEFT_FOOTER = 13 * MM  # turned up the left margin, the footer spans 5 to 8 mm from the edge


def _scale_bar(canvas, x0: float, y0: float) -> None:
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.5)
    canvas.line(x0, y0, x0 + 50 * MM, y0)
    for i in range(6):
        tick = 1.2 * MM if i in (0, 5) else 0.7 * MM
        canvas.line(x0 + i * 10 * MM, y0, x0 + i * 10 * MM, y0 + tick)
    canvas.setFont("sans-regular", 6)
    canvas.drawString(x0 + 51 * MM, FOOTER_BASELINE, "50 mm")


def _furniture(writer: Writer, page: Page, number: tuple[int, int]) -> list[float] | None:
    """Footer on every page: what it is, its page number in the PDF, and a 50 mm bar to check the print
    scale, in the kit's language.  It runs along the bottom, or up the left margin when the pieces
    fill the page's height.  Returns the scale bar as [x0, y0, x1] (or [x, y0, y1] up the margin) in mm."""
    canvas, tr = writer.canvas, writer.tr
    canvas.saveState()
    width = page.width
    if page.footer_left:  # the same footer, turned to read upwards along the left edge
        canvas.rotate(90)  # (u, v) -> page (-v, u): a footer line at v lands LEFT_FOOTER - v from the edge
        canvas.translate(0, -LEFT_FOOTER)
        width = page.height
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    page_of = tr("page {number} of {total}", number=number[0], total=number[1]) + " · "
    text = f"{writer.prep.game.name} · {page.label} · {page_of}" + tr("print at 100% / actual size")
    # Right-aligned, it must end before the scale bar's label (x0 + 51 mm + "50 mm"): a longer
    # translation is set smaller rather than over the bar.
    room = width - 8 * MM - (70 * MM if page.scale_bar else 8 * MM)
    fonts = writer.prep.fonts
    size = min(6.0, 6.0 * room / max(fonts.string_width(canvas, "sans-regular", 6, text), 1e-6))
    fonts.draw_string(canvas, "sans-regular", size, width - 8 * MM, FOOTER_BASELINE, text, "right")
    bar = None
    if page.scale_bar:
        x0, y0 = 8 * MM, SCALE_BAR_Y
        written_once(canvas, writer.written, "scale bar", lambda: _scale_bar(canvas, x0, y0))  # every page's
        bar = [round(mm(x0), 3), round(mm(y0), 3), round(mm(x0 + 50 * MM), 3)]
        if page.footer_left:
            bar = [round(mm(LEFT_FOOTER - y0), 3), round(mm(x0), 3), round(mm(x0 + 50 * MM), 3)]
    canvas.restoreState()
    return bar


def _library_icons(icons) -> dict:
    """The icon sets' icons the game uses, each with its author and licence (layout/iconsets.py)."""
    from ..layout.iconsets import manifest_entries
    library = getattr(icons, "library", None)
    return {"library_icons": manifest_entries(library)} if library else {}
