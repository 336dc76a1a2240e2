"""`--outline`: what a designer lays out against, drawn over a face (as Squib's `hint`).

Every frame's box (magenta, hairline; the frames of a repeat frame's cells are not shown one by
one) with its name in its top-left corner, the safe zone (green, dashed: 3 mm inside the trim, or the game's `version_mark: {safe:}`),
the trim (blue: where the card is cut) and the bleed edge (red: where the printed picture ends).
Drawn after the face and outside its clip, so it is never hidden by the art.
"""
from __future__ import annotations

FRAME = (0.85, 0.0, 0.75)  # magenta
SAFE = (0.0, 0.6, 0.2)  # green
TRIM = (0.0, 0.35, 0.9)  # blue
BLEED = (0.9, 0.0, 0.0)  # red
LINE = 0.5  # points: thin, but seen at 70 dpi and on paper
NAME_SIZE = 5.0  # points: a frame's name, small enough to leave the frame seen


def draw_outline(canvas, layout, x: float, y: float, bleed: float, safe: float, font: str | None = None) -> None:
    """Outline the face of `layout` whose trim box has its lower-left corner at (x, y); with `font`,
    each frame's name is written in its top-left corner, so a box can be told from its neighbours."""
    c = canvas
    c.saveState()
    c.setLineWidth(LINE)
    c.setStrokeColorRGB(*FRAME)
    named = []
    for frame in layout.frames:
        if frame.props.get("bleed"):
            continue  # a background grown into the bleed: its box is the trim, drawn below
        left, bottom = x + frame.x, y + layout.height - frame.y - frame.height
        c.rect(left, bottom, frame.width, frame.height, stroke=1, fill=0)
        named.append((frame.name, left, bottom + frame.height))
    c.setStrokeColorRGB(*TRIM)
    c.rect(x, y, layout.width, layout.height, stroke=1, fill=0)
    if bleed > 0:
        c.setStrokeColorRGB(*BLEED)
        half = LINE / 2  # inside the bleed box, so the whole line shows on a page cut to it
        c.rect(x - bleed + half, y - bleed + half, layout.width + 2 * bleed - LINE, layout.height + 2 * bleed - LINE,
               stroke=1, fill=0)
    if 2 * safe < min(layout.width, layout.height):
        c.setStrokeColorRGB(*SAFE)
        c.setDash(3, 2)
        c.rect(x + safe, y + safe, layout.width - 2 * safe, layout.height - 2 * safe, stroke=1, fill=0)
        c.setDash()
    if font is not None:
        _names(c, named, font)
    c.restoreState()


def _names(c, named: list[tuple[str, float, float]], font: str) -> None:
    """Each frame's name on a white tab hung from its box's top-left corner (a frame inside another
    shows its tab over its parent's box, where the designer looks for it)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    pad = 0.6
    height = NAME_SIZE + 2 * pad
    tabs: list[tuple[float, float, float]] = []  # left, right, top of the tabs written
    for name, left, top in named:
        width = stringWidth(name, font, NAME_SIZE) + 2 * pad
        for tab_left, tab_right, tab_top in tabs:  # frames at one corner: their tabs side by side
            if abs(tab_top - top) < height and tab_left - width < left < tab_right:
                left = tab_right + 2
        tabs.append((left, left + width, top))
        c.setFillColorRGB(1, 1, 1)
        c.setFillAlpha(0.85)
        c.rect(left, top - NAME_SIZE - 2 * pad, width, NAME_SIZE + 2 * pad, stroke=0, fill=1)
        c.setFillAlpha(1)
        c.setFillColorRGB(*FRAME)
        c.setFont(font, NAME_SIZE)
        c.drawString(left + pad, top - NAME_SIZE * 0.8 - pad, name)
