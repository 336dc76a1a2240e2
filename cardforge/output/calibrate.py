"""The duplex alignment test: one sheet that measures how far a printer puts the back side off.

The front carries two long lines crossing at the page's centre; the back carries two rulers, each
away from the centre so that their ticks never tangle: an X ruler below the centre, across the
front's vertical line, and a Y ruler left of it, across the front's horizontal line.  Both run
from -RANGE to +RANGE mm in 0.5 mm ticks, labelled every 5 mm.  Held to a light, the front's lines
show through the back; where each crosses its ruler is the reading, X,Y in mm, in the frame of the
PAPER as its back is seen (+X right, +Y up, on the portrait sheet).  A back printed d mm to the
right puts the ruler's zero d mm right of the line, so the line reads -d: the reading is the
correction itself.  The kit applies it to landscape pages turned with the paper (pages.py,
`page_offset`), so one reading serves every sheet.

The centre is its own mirror image for either flip, and each ruler lies on the axis the flip does
not mirror or far enough along the other (the lines are long) that both flips read the same way.

The test is also the kit guide's pages 3-4 (guide.py), in the kit's language: there it speaks to a
player, who cannot rebuild the kit, so it says what a player can do with the reading; the
standalone `cardforge calibrate` sheet adds the designer's way (`designer=True`).
"""
from __future__ import annotations

from pathlib import Path

# Our fills name their rule: svglib 1.5 patches Canvas.drawPath to fill non-zero once it is
# imported, so the rule would follow whether an icon was parsed in this build or came from the cache.
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from ..layout.fonts import builtin_fonts
from ..units import MM, PAPER_SIZES
from .replace import replacing

RANGE = 20  # mm either side of zero: a reading to 0.5 mm over +-20 mm
RULER_GAP = 40  # mm from the centre to each ruler
LINE = 60  # mm: the front's lines run this far either side of the centre, past both rulers' reach
INK = (0.1, 0.1, 0.1)
ACCENT = (0.55, 0.16, 0.12)


def write_calibration(target: Path, paper: str, flip: str = "long") -> None:
    with replacing(target) as tmp:  # written beside it, renamed over it when complete
        _draw(tmp, paper, flip)


def _draw(target: Path, paper: str, flip: str) -> None:
    w, h = (v * MM for v in PAPER_SIZES[paper])
    fonts = builtin_fonts()
    font, bold = fonts.family("sans").face("regular"), fonts.family("sans").face("bold")
    c = Canvas(str(target), pagesize=(w, h), invariant=1, pageCompression=1, initialFontName=font)
    c.setTitle(f"cardforge duplex calibration ({paper.upper()}, {flip}-edge flip)")
    draw_front(c, w, h, paper, flip, fonts, font, bold, designer=True)
    _scale_bar(c, font, w)
    c.showPage()
    draw_back(c, w, h, fonts, font, bold, designer=True)
    _scale_bar(c, font, w)
    c.showPage()
    c.save()


def _english(text: str, **values) -> str:
    return text.format(**values)


def _paragraph(c, fonts, font: str, size: float, x: float, y: float, width: float, text: str,
               leading: float | None = None) -> float:
    """`text` wrapped to `width` from (x, y) down; returns the y under its last line."""
    leading = leading or size * 1.3
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and fonts.string_width(c, font, size, trial) > width:
            fonts.draw_string(c, font, size, x, y, line)
            y -= leading
            line = word
        else:
            line = trial
    if line:
        fonts.draw_string(c, font, size, x, y, line)
        y -= leading
    return y


def draw_front(c, w: float, h: float, paper: str, flip: str, fonts, font: str, bold: str, tr=_english,
               designer: bool = False) -> None:
    """The front: two long lines crossing at the centre, how to print the sheet, and how the paper
    turns for portrait and for landscape pages (also the kit guide's test sheet, in the kit's
    language: `tr` is its translator, and `fonts` draws through fallbacks)."""
    cx, cy = w / 2, h / 2
    c.saveState()
    c.setFillColorRGB(*INK)
    fonts.draw_string(c, bold, 15, cx, h - 22 * MM, tr("Duplex alignment test: front"), "centre")
    text = [tr("Print this page and the next on ONE sheet, double-sided, flipped on the {flip} edge, at 100% "
               "(actual size), on {paper}.", flip=tr(flip), paper=paper.upper() if paper == "a4" else "US Letter"),
            tr("Hold the printed sheet against a window or a lamp and look at the back: the two long lines of "
               "this side show through. Read where they cross the back's two rulers, to the nearest half "
               "millimetre.")]
    y = h - 31 * MM
    for para in text:
        y = _paragraph(c, fonts, font, 9, 22 * MM, y, w - 44 * MM, para) - 1.5 * MM
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.5)
    c.line(cx - LINE * MM, cy, cx + LINE * MM, cy)
    c.line(cx, cy - LINE * MM, cx, cy + LINE * MM)
    fonts.draw_string(c, font, 7, cx + 2 * MM, cy + LINE * MM - 4 * MM, tr("read on the X ruler"))
    fonts.draw_string(c, font, 7, cx + LINE * MM, cy + 2 * MM, tr("read on the Y ruler"), "right")
    bottom = cy - LINE * MM - 4 * MM
    draw_flip_diagrams(c, fonts, font, bold, 18 * MM, 16 * MM, w - 36 * MM, min(bottom - 16 * MM, 58 * MM), flip, tr)
    c.restoreState()


def draw_back(c, w: float, h: float, fonts, font: str, bold: str, tr=_english, designer: bool = False) -> None:
    """The back: the X ruler below the centre, the Y ruler left of it, and what to do with the reading."""
    cx, cy = w / 2, h / 2
    c.saveState()
    c.setFillColorRGB(*INK)
    fonts.draw_string(c, bold, 15, cx, h - 22 * MM, tr("Duplex alignment test: back"), "centre")
    y = _paragraph(c, fonts, font, 9, 22 * MM, h - 31 * MM, w - 44 * MM,
                   tr("Hold this sheet to the light. X: where the front's upright line crosses the ruler below "
                      "(+ is to the right, as you look at this side). Y: where the front's level line crosses the "
                      "ruler on the left (+ is up). 0,0 on both: your printer needs no correction."))
    ruler(c, fonts, font, cx, cy - RULER_GAP * MM, "x", tr("X (mm)"))
    ruler(c, fonts, font, cx - RULER_GAP * MM, cy, "y", tr("Y (mm)"))
    steps = [(tr("Both read 0, or within half a millimetre:"), tr("print the kit as it is.")),
             (tr("Your printer has its own setting:"),
              tr("it is often called back-side position, duplex registration or image shift, in the printer's "
                 "menu or its driver. Enter the reading there, print this sheet again and check that both rulers "
                 "read 0. The setting moves landscape pages with the paper, as it should.")),
             (tr("No such setting:"),
              tr("print the pieces whose backs must match single-sided, fronts and backs on separate sheets, and "
                 "glue each back sheet behind its front before you cut, lining them up against a window."))]
    if designer:
        steps.append((tr("Building the kit yourself:"),
                      tr("give the reading as the printer's back offset (the user guide's --back-offset option, or a "
                         "printer saved in printers.yaml). It is applied in the paper's frame, to portrait and "
                         "landscape sheets alike.")))
    y = min(y, cy - RULER_GAP * MM - 14 * MM)
    fonts.draw_string(c, bold, 10.5, 22 * MM, y, tr("What to do with the reading"))
    y -= 6 * MM
    for head, rest in steps:
        fonts.draw_string(c, bold, 8.5, 22 * MM, y, head)
        y = _paragraph(c, fonts, font, 8.5, 26 * MM, y - 4.2 * MM, w - 48 * MM, rest) - 1.5 * MM
    c.restoreState()


def ruler(c, fonts, font: str, x0: float, y0: float, axis: str, title: str) -> None:
    """A ruler centred on (x0, y0) along `axis`, -RANGE..+RANGE mm: a tick every 0.5 mm (short), every
    mm (longer), every 5 mm (longest, labelled on the side away from the ticks' reading edge).
    Labels sit 5 mm apart, wider than any label, so that none touches its neighbour."""
    c.saveState()
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.2)
    horizontal = axis == "x"
    span = RANGE * MM
    if horizontal:
        c.line(x0 - span, y0, x0 + span, y0)
    else:
        c.line(x0, y0 - span, x0, y0 + span)
    for i in range(-2 * RANGE, 2 * RANGE + 1):
        at = i / 2 * MM
        tick = (4.0 if i % 10 == 0 else 2.5 if i % 2 == 0 else 1.5) * MM
        c.setLineWidth(0.3 if i % 10 == 0 else 0.2)
        if horizontal:  # ticks up from the ruler, labels under it
            c.line(x0 + at, y0, x0 + at, y0 + tick)
        else:  # ticks right of the ruler, labels left of it
            c.line(x0, y0 + at, x0 + tick, y0 + at)
        if i % 10 == 0:
            label = "0" if i == 0 else f"{i / 2:+g}"
            if horizontal:
                fonts.draw_string(c, font, 6.5, x0 + at, y0 - 3.2 * MM, label, "centre")
            else:
                fonts.draw_string(c, font, 6.5, x0 - 1.2 * MM, y0 + at - 0.8 * MM, label, "right")
    c.setFillColorRGB(*ACCENT)
    if horizontal:
        fonts.draw_string(c, font, 8, x0 + span + 3 * MM, y0 - 1 * MM, title)
    else:
        fonts.draw_string(c, font, 8, x0, y0 + span + 3 * MM, title, "centre")
    c.restoreState()


def draw_flip_diagrams(c, fonts, font: str, bold: str, x: float, y: float, width: float, height: float,
                       flip: str, tr=_english) -> None:
    """How the sheet turns, drawn for a portrait and a landscape page side by side: the front, the
    edge the paper turns over (dashed), and the back as it then lies, its top marked.  A long-edge
    flip turns a portrait page like a book's leaf (the back's top stays at the top) and a landscape
    page top over bottom (the back's top under the front's bottom); a short-edge flip the reverse.
    The paper always turns the same way: only the page on it is turned."""
    c.saveState()
    c.setFillColorRGB(*INK)
    fonts.draw_string(c, bold, 9.5, x, y + height - 4 * MM,
                      tr("How the paper turns ({flip}-edge flip): the same turn for every sheet", flip=tr(flip)))
    half = width / 2
    for n, landscape in enumerate((False, True)):
        _flip_pair(c, fonts, font, x + n * half, y, half, height - 8 * MM, landscape, flip, tr)
    c.restoreState()


def _flip_pair(c, fonts, font: str, x: float, y: float, width: float, height: float, landscape: bool,
               flip: str, tr) -> None:
    pw, ph = (26 * MM, 18.4 * MM) if landscape else (18.4 * MM, 26 * MM)
    top = y + height - 4 * MM
    fonts.draw_string(c, font, 8, x, top, tr("Landscape pages") if landscape else tr("Portrait pages"))
    base = top - 6 * MM - ph
    fx, bx = x + 2 * MM, x + 2 * MM + pw + 16 * MM
    # About which of the PAGE's axes the paper turns: the long edge of a portrait page is upright.
    about_vertical = (flip == "long") != landscape
    for px, side in ((fx, "front"), (bx, "back")):
        c.setStrokeColorRGB(*INK)
        c.setFillColorRGB(1, 1, 1) if side == "front" else c.setFillColorRGB(0.9, 0.9, 0.9)
        c.setLineWidth(0.6)
        c.rect(px, base, pw, ph, stroke=1, fill=1)
        upside_down = side == "back" and not about_vertical
        _top_arrow(c, px + pw / 2, base + ph / 2, min(pw, ph) * 0.55, upside_down)
        c.setFillColorRGB(*INK)
        label = tr("front") if side == "front" else tr("back")
        fonts.draw_string(c, font, 7, px + pw / 2, base - 3.5 * MM, label, "centre")
    # the edge the paper turns over, dashed, and a curved arrow round it
    c.setStrokeColorRGB(*ACCENT)
    c.setLineWidth(1.2)
    c.setDash([2, 1.5])
    if about_vertical:
        c.line(fx + pw, base - 1.5 * MM, fx + pw, base + ph + 1.5 * MM)
    else:
        c.line(fx - 1.5 * MM, base + ph, fx + pw + 1.5 * MM, base + ph)
    c.setDash([])
    c.setLineWidth(0.7)
    mx = fx + pw + 8 * MM
    c.arc(fx + pw + 2 * MM, base + ph / 2 - 5 * MM, bx - 2 * MM, base + ph / 2 + 5 * MM, 20, 140)
    c.setFillColorRGB(*ACCENT)
    p = c.beginPath()
    p.moveTo(mx + 5.5 * MM, base + ph / 2 + 3.8 * MM)
    p.lineTo(mx + 3.2 * MM, base + ph / 2 + 5.6 * MM)
    p.lineTo(mx + 3.0 * MM, base + ph / 2 + 3.0 * MM)
    p.close()
    c.drawPath(p, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
    c.setFillColorRGB(*INK)
    how = (tr("turn it like a book's page: the back's top stays at the top") if about_vertical else
           tr("turn it top over bottom: the back is upside down to the front"))
    _small_lines(c, fonts, font, x, base - 8 * MM, width - 4 * MM, how)


def _small_lines(c, fonts, font: str, x: float, y: float, width: float, text: str) -> None:
    _paragraph(c, fonts, font, 7, x, y, width, text, leading=8.5)


def _top_arrow(c, x: float, y: float, length: float, upside_down: bool) -> None:
    """An arrow pointing to the page's top, with a bar across its foot: 'this way up'."""
    sign = -1 if upside_down else 1
    c.setStrokeColorRGB(*INK)
    c.setFillColorRGB(*INK)
    c.setLineWidth(1.0)
    y0, y1 = y - sign * length / 2, y + sign * length / 2
    c.line(x, y0, x, y1 - sign * 2 * MM)
    c.line(x - 2 * MM, y0, x + 2 * MM, y0)
    p = c.beginPath()
    p.moveTo(x, y1)
    p.lineTo(x - 1.8 * MM, y1 - sign * 3 * MM)
    p.lineTo(x + 1.8 * MM, y1 - sign * 3 * MM)
    p.close()
    c.drawPath(p, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)


def _scale_bar(c: Canvas, font: str, w: float) -> None:
    """50 mm bar, 10 mm in from the edges, to prove the sheet printed at 100%."""
    x, y = 15 * MM, 9 * MM
    c.setLineWidth(0.5)
    c.line(x, y, x + 50 * MM, y)
    for i in range(6):
        c.line(x + i * 10 * MM, y, x + i * 10 * MM, y + 2 * MM)
    c.setFont(font, 7)
    c.drawString(x + 52 * MM, y, "50 mm: print at 100% (actual size)")
