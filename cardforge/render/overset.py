"""Text that does not fit, drawn rather than left out (as Squib and nanDECK show it).

The frame gets the text set as far as it goes at its minimum size; then, over everything else on
the face, its edge in red, an overset mark (a red square with a plus, as desktop publishing marks
a text box with more text than room) at its bottom-right corner, and the lines that did not fit in
red below the frame, on a pale ground so that they read over the art.  The overflow is still an
error (render/face.py reports it): a kit is never built with it, but `render`, `serve` and the
previews show the designer what is wrong instead of an empty box.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..layout import text as richtext
from ..units import MM

RED = (0.85, 0.05, 0.05)
RED_HEX = "#d90d0d"
EDGE = 1.2  # points: the frame's red edge, drawn just outside it
MARK = 3.2 * MM  # the overset mark's side
GROUND = (1.0, 1.0, 1.0, 0.85)  # behind the cut lines: white, mostly opaque


@dataclass
class Overset:
    """One frame's overflow, to mark once every frame of the face is drawn."""
    overflow: richtext.Overflow
    rich: richtext.RichText
    box: tuple[float, float, float, float]  # x, y (bottom-left), width, height, in the frame's own space
    align: str
    turn: tuple[float, float, float] | None  # a rotated frame: its centre and angle (render/face.py _frame)


def draw_overset(canvas, mark: Overset, painter: Any) -> None:
    """The red edge, the overset mark and the cut lines of one frame."""
    c = canvas
    x, y, w, h = mark.box
    c.saveState()
    if mark.turn is not None:
        cx, cy, angle = mark.turn
        c.translate(cx, cy)
        c.rotate(-angle)
    cut = mark.overflow.cut
    if cut is not None:
        pad = 0.6 * MM
        top = y - pad
        c.setFillColorRGB(*GROUND[:3])
        c.setFillAlpha(GROUND[3])
        c.rect(x - pad, top - cut.height - pad, w + 2 * pad, cut.height + pad, stroke=0, fill=1)
        c.setFillAlpha(1)
        richtext.draw(c, cut, mark.rich, x, top, w, cut.height, mark.align, "top", _red(), painter, RED_HEX)
    c.setStrokeColorRGB(*RED)
    c.setLineWidth(EDGE)
    c.rect(x - EDGE / 2, y - EDGE / 2, w + EDGE, h + EDGE, stroke=1, fill=0)  # outside: the text stays legible
    side = min(MARK, w / 3, h / 2) if w > 0 and h > 0 else MARK
    left, bottom = x + w - side * 0.7, y - side * 0.3  # over the frame's bottom-right corner
    c.setFillColorRGB(*RED)
    c.rect(left, bottom, side, side, stroke=0, fill=1)
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(max(side * 0.14, 0.4))
    middle_x, middle_y, arm = left + side / 2, bottom + side / 2, side * 0.3
    c.line(middle_x - arm, middle_y, middle_x + arm, middle_y)
    c.line(middle_x, middle_y - arm, middle_x, middle_y + arm)
    c.restoreState()


def _red():
    from reportlab.lib.colors import Color
    return Color(*RED)
