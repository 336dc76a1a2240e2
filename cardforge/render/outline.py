"""`--outline`: what a designer lays out against, drawn over a face (as Squib's `hint`).

Every frame's box (magenta, hairline; the frames of a repeat frame's cells are not shown one by
one), the safe zone (green, dashed: 3 mm inside the trim, or the game's `version_mark: {safe:}`),
the trim (blue: where the card is cut) and the bleed edge (red: where the printed picture ends).
Drawn after the face and outside its clip, so it is never hidden by the art.
"""
from __future__ import annotations

FRAME = (0.85, 0.0, 0.75)  # magenta
SAFE = (0.0, 0.6, 0.2)  # green
TRIM = (0.0, 0.35, 0.9)  # blue
BLEED = (0.9, 0.0, 0.0)  # red
LINE = 0.5  # points: thin, but seen at 70 dpi and on paper


def draw_outline(canvas, layout, x: float, y: float, bleed: float, safe: float) -> None:
    """Outline the face of `layout` whose trim box has its lower-left corner at (x, y)."""
    c = canvas
    c.saveState()
    c.setLineWidth(LINE)
    c.setStrokeColorRGB(*FRAME)
    for frame in layout.frames:
        if frame.props.get("bleed"):
            continue  # a background grown into the bleed: its box is the trim, drawn below
        c.rect(x + frame.x, y + layout.height - frame.y - frame.height, frame.width, frame.height, stroke=1, fill=0)
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
    c.restoreState()
