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
guide comes first in the kit, but a page's ink is known only once the page is drawn: `settle`
draws the kit once to a scratch PDF and measures it, then draws again only the opening pages up
to the last that prints figures (the cover and the guide), now with the figures, and measures
those, until the figures they print are their own.  The kit is then drawn for good with figures
that are, page by page, what the same measure reads from it (tests/test_guide_ink.py measures the
built PDF).  INK_DPI is coarse on purpose: a kit's mean is within
a point of what 150 dpi measures (Steel Rain's hairlines: 12.0 % against 11.4 %; at 18 dpi they
would be drawn a pixel wide, 13.8 %), at a quarter of the time.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

ROUNDS = 3  # the guide pages drawn again at most this often: in practice once

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


class KitInk:
    """Each page's ink coverage (0-1, in the kit's order) for the pages that print it, once
    `settle` has measured them; None before (or when the kit could not be drawn)."""

    def __init__(self):
        self.pages: list[float] | None = None
        self.settled = False  # the figures the opening pages print are what is measured on them


def settle(ink: KitInk, pages: list, draw: Callable[[list, Path], bool], scratch: Path,
           prints: Callable[[object], bool]) -> list[float] | None:
    """Measure every page of `pages` as the kit will print it, into `ink.pages`, before the kit is
    drawn for good.  `draw(subset, target)` writes the first pages of the kit to `target` (their
    footers counting the whole kit) and says whether it could; `prints(page)` tells a page that
    prints the figures.  Only the pages up to the last of those are drawn again (their numbers stay
    those of the kit), until each prints, as a whole percent, what is then measured on it."""
    upto = max((index + 1 for index, page in enumerate(pages) if prints(page)), default=0)
    try:
        if not upto or not draw(pages, scratch):
            return None
        ink.pages = page_coverage(scratch)
        for _ in range(ROUNDS):
            shown = [percent(c) for c in ink.pages[:upto]]  # what the opening pages print this round
            if not draw(pages[:upto], scratch):
                ink.pages = None
                return None
            ink.pages[:upto] = page_coverage(scratch)
            if [percent(c) for c in ink.pages[:upto]] == shown:
                ink.settled = True
                break
        return ink.pages
    finally:
        scratch.unlink(missing_ok=True)
