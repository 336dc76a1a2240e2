"""Ink coverage: how much ink a printed page takes, measured from the page as drawn.

A page's ink coverage is the share of the most ink the page could take, measured from the page
rendered (by PDFium, as output/raster.py does) at INK_DPI: each pixel's colour turned into
cyan, magenta and yellow by the naive conversion (C = 1 - R, M = 1 - G, Y = 1 - B, on sRGB values
from 0 to 1), averaged over the three inks and every pixel of the page.  White paper is 0 %,
solid black 100 %, a pure red (C = 0, M = 1, Y = 1) 67 %, a mid grey (#808080) 50 %.  A printer
that separates black (K) lays down less, but the order of pages and of kits is the same: the
figure is for comparing pages and kits, above all a kit with its ink-saver variant
(`build --ink-saver`), not for buying cartridges.

The manifest records each page's coverage (`pages[].ink`) and the mean over the PDF's pages
(`ink`: mean, and how it was measured); the guide prints each page's (output/guide.py).  The
guide comes first in the kit, but a page's ink is known only once the page is drawn: the kit is
drawn once, the guide's ink page without figures, and measured; `print_ink` then draws that page
again, with the figures, measures it, until the figures it prints are its own, and puts it in
the kit in place of the first (output/pdfcopy.py copies the other pages as they are).  The
manifest's figures are, page by page, what the same measure reads from the kit written
(tests/test_guide_ink.py reads the guide's text back from the PDF).  INK_DPI is coarse on purpose: a kit's mean is within
a point of what 150 dpi measures (Steel Rain's hairlines: 12.0 % against 11.4 %; at 18 dpi they
would be drawn a pixel wide, 13.8 %), at a quarter of the time.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

ROUNDS = 3  # the guide pages drawn again at most this often: in practice once
# How far past the edge between two whole percents a page may measure and still print the figure
# it was drawn with (a tenth of a point).  A page's own figure changes its ink: Bomber Boys' Letter
# guide measures 7.5066 % printing "7 %" and 7.5020 % printing "8 %"; a page that measured 7.51 %
# with one and 7.49 % with the other would never print its own figure, only the last one tried.
EDGE = 0.001

INK_DPI = 50
MEASURE = f"mean of naive CMY (C = 1 - R, M = 1 - G, Y = 1 - B) over the page rendered at {INK_DPI} dpi"


def pixels_coverage(pixels) -> float:
    """The ink coverage (0-1) of an 8-bit RGB (or RGBA, BGR, BGRA: the mean is the same) image
    as a numpy array (height, width, channels): the mean of 1 - value over pixels and the three
    colour channels."""
    colour = pixels[..., :3]
    return float(1.0 - colour.mean() / 255.0)


def page_coverage(pdf: Path | bytes, dpi: float = INK_DPI) -> list[float]:
    """Each page's ink coverage (0-1), in order."""
    import pypdfium2 as pdfium  # imported on first use, as in output/raster.py

    document = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        coverage = []
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72.0)  # BGRx on a white page
            coverage.append(pixels_coverage(bitmap.to_numpy()))
            page.close()
        return coverage
    finally:
        document.close()


def summary(pages: list[dict]) -> dict | None:
    """The manifest's `ink`: the mean coverage of the pages that record one, and how it is measured."""
    measured = [page["ink"] for page in pages if isinstance(page.get("ink"), (int, float))]
    if not measured:
        return None
    return {"mean": round(sum(measured) / len(measured), 4), "measure": MEASURE}


def percent(coverage: float) -> str:
    """A coverage as the guide prints it: whole percent, and under 1 % as '<1 %'."""
    value = round(coverage * 100)
    return "<1 %" if value < 1 and coverage > 0 else f"{value} %"


def prints_as(coverage: float, shown: str) -> bool:
    """Whether a page that measures `coverage` may print `shown` as its figure: its whole percent,
    or the one beside it when the measure is within EDGE of the edge between them."""
    return shown in (percent(coverage), percent(coverage - EDGE), percent(coverage + EDGE))


class KitInk:
    """Each page's ink coverage (0-1, in the kit's order) for the pages that print it, once
    `print_ink` has measured the kit; None before."""

    def __init__(self):
        self.pages: list[float] | None = None


def print_ink(ink: KitInk, pages: list, pdf: Path, prints: Callable[[object], bool],
              draw: Callable[[list, list[int], Path], bool], scratch: Path,
              replace: Callable[[Path, list[int], Path], bool]) -> list[float] | None:
    """Each page's ink as `pdf` (the kit, just written) will print it, the pages that print the
    figures (`prints`) drawn again with them and put in its place.

    The kit's pages are measured; then the pages that print figures, drawn without them, are
    drawn again with them (`draw(pages, their numbers, target)`: their numbers and footers those of
    the kit) and measured, until each prints, as a whole percent, what is measured on it (within
    EDGE of a rounding edge: once, in practice; at most ROUNDS times); `replace(pdf, indexes,
    scratch)` then puts them in the kit.
    None when a page could not be drawn again or put in (the kit keeps its pages without figures,
    and the caller measures it as written)."""
    ink.pages = page_coverage(pdf)
    printing = [index for index, page in enumerate(pages) if prints(page)]
    if not printing:
        return ink.pages
    try:
        for _ in range(ROUNDS):
            shown = [percent(ink.pages[i]) for i in printing]  # what those pages print this round
            if not draw([pages[i] for i in printing], [i + 1 for i in printing], scratch):
                return None
            for index, coverage in zip(printing, page_coverage(scratch)):
                ink.pages[index] = coverage
            if all(prints_as(ink.pages[i], figure) for i, figure in zip(printing, shown)):
                break
        return ink.pages if replace(pdf, printing, scratch) else None
    finally:
        scratch.unlink(missing_ok=True)
