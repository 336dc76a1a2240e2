"""`cardforge calibrate`: a one-sheet duplex test that measures a printer's back-side misregistration.

Page 1 (the front) carries a cross at the page's centre. Page 2 (the back) carries two rulers,
-10 to +10 mm in 0.5 mm ticks, crossing at the point where a perfect printer puts that cross.
Hold the printed sheet against a light, look at the back, and read where the cross shows through
on each ruler: that reading, X,Y in mm, is the `--back-offset X,Y` that corrects the printer (a
back offset moves every back page in its own coordinates, the rulers' directions).
"""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from ..layout.fonts import builtin_fonts
from ..units import MM, PAPER_SIZES
from .replace import replacing

RANGE = 10  # mm either side of the centre


def write_calibration(target: Path, paper: str, flip: str = "long") -> None:
    with replacing(target) as tmp:  # written beside it, renamed over it when complete
        _draw(tmp, paper, flip)


def _draw(target: Path, paper: str, flip: str) -> None:
    w, h = (v * MM for v in PAPER_SIZES[paper])
    fonts = builtin_fonts()
    font, bold = fonts.family("sans").face("regular"), fonts.family("sans").face("bold")
    c = Canvas(str(target), pagesize=(w, h), invariant=1, pageCompression=1, initialFontName=font)
    c.setTitle(f"cardforge duplex calibration ({paper.upper()}, {flip}-edge flip)")
    draw_front(c, w, h, paper, flip, fonts, font, bold)
    _scale_bar(c, font, w)
    c.showPage()
    draw_back(c, w, h, fonts, font, bold)
    _scale_bar(c, font, w)
    c.showPage()
    c.save()


def _english(text: str, **values) -> str:
    return text.format(**values)


def draw_front(c, w: float, h: float, paper: str, flip: str, fonts, font: str, bold: str, tr=_english) -> None:
    """The front: a cross at the page's centre, and the instructions (also the kit guide's test
    sheet, in the kit's language: `tr` is its translator, and `fonts` draws through fallbacks)."""
    cx, cy = w / 2, h / 2
    c.saveState()
    c.setLineWidth(0.3)
    c.line(cx - 15 * MM, cy, cx + 15 * MM, cy)
    c.line(cx, cy - 15 * MM, cx, cy + 15 * MM)
    c.circle(cx, cy, 2 * MM)
    fonts.draw_string(c, bold, 14, cx, h - 30 * MM, tr("Duplex calibration: front"), "centre")
    command = f"cardforge build --flip {flip} --back-offset X,Y"
    lines = [tr("Print both pages on one sheet, duplex, {flip}-edge flip, at 100% (actual size), on {paper}.",
                flip=tr(flip), paper=paper.upper()),
             tr("Hold the sheet against a light and look at the back. Read where this cross shows through"),
             tr("on the back's two rulers: X on the horizontal ruler, Y on the vertical one, in mm."),
             tr("Then build with:  {command}", command=command),
             tr("A cross that shows through at 0,0 means your printer needs no offset.")]
    for i, line in enumerate(lines):
        fonts.draw_string(c, font, 9, cx, h - 42 * MM - i * 13, line, "centre")
    c.restoreState()


def draw_back(c, w: float, h: float, fonts, font: str, bold: str, tr=_english) -> None:
    """The back: two rulers crossing at the centre (the centre is its own mirror image for either flip)."""
    cx, cy = w / 2, h / 2
    c.saveState()
    c.setLineWidth(0.25)
    c.line(cx - RANGE * MM, cy, cx + RANGE * MM, cy)
    c.line(cx, cy - RANGE * MM, cx, cy + RANGE * MM)
    c.setFont(font, 6)
    for i in range(-2 * RANGE, 2 * RANGE + 1):
        mm = i / 2
        tick = (3 if i % 10 == 0 else 2 if i % 2 == 0 else 1.2) * MM
        c.line(cx + mm * MM, cy - tick, cx + mm * MM, cy + tick)
        c.line(cx - tick, cy + mm * MM, cx + tick, cy + mm * MM)
        if i % 10 == 0 and i:
            c.drawCentredString(cx + mm * MM, cy - 6 * MM, f"{mm:+g}")
            c.drawString(cx + 4 * MM, cy + mm * MM - 2, f"{mm:+g}")
    fonts.draw_string(c, bold, 14, cx, h - 30 * MM, tr("Duplex calibration: back"), "centre")
    fonts.draw_string(c, font, 9, cx, h - 42 * MM, tr("X: where the front's cross meets the horizontal ruler "
                                                      "(+ is right, as you look at this side)"), "centre")
    fonts.draw_string(c, font, 9, cx, h - 42 * MM - 13, tr("Y: where it meets the vertical ruler (+ is up)"), "centre")
    c.restoreState()


def _scale_bar(c: Canvas, font: str, w: float) -> None:
    """50 mm bar, 10 mm in from the edges, to prove the sheet printed at 100%."""
    x, y = 15 * MM, 12 * MM
    c.setLineWidth(0.5)
    c.line(x, y, x + 50 * MM, y)
    for i in range(6):
        c.line(x + i * 10 * MM, y, x + i * 10 * MM, y + 2 * MM)
    c.setFont(font, 7)
    c.drawString(x + 52 * MM, y, "50 mm: print at 100% (actual size)")
