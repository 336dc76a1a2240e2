"""Shape frames: a rectangle, rounded rectangle, ellipse or line, filled and stroked."""
from __future__ import annotations

from ..layout.facecode import written_once
from ..units import length as _length


class ShapeFrames:
    """The shape half of CardRenderer (render/face.py), which gives it canvas, color, _value and
    _shape_code."""

    def _draw_shape(self, frame, layout, card, ctx, x, y, w, h, record):
        c = self.canvas
        fill = self.color(self._value(frame, "fill", ctx) or "none", layout)
        stroke = self.color(self._value(frame, "stroke", ctx) or "none", layout)
        if fill is None and stroke is None:
            return
        # A shape writes the same operators wherever its face is (faces are drawn at their own
        # origin): a deck's border is written out once per document (a translucent one is not:
        # written_once keeps nothing that sets a graphics state).
        key = (id(frame), id(layout), fill and fill.hexval(), stroke and stroke.hexval(), x, y, w, h)
        written_once(c, self._shape_code, key, lambda: self._write_shape(frame, c, fill, stroke, x, y, w, h))

    @staticmethod
    def _write_shape(frame, c, fill, stroke, x, y, w, h) -> None:
        c.saveState()
        # The shape's opacity multiplies its colours' own alpha; it is set with each colour, since
        # reportlab's setFillColor sets the colour's alpha (1 for an opaque one) over an earlier one.
        opacity = float(frame.props.get("opacity", 1))
        if fill is not None:
            c.setFillColor(fill, alpha=opacity * getattr(fill, "alpha", 1) if opacity < 1 else None)
        if stroke is not None:
            c.setStrokeColor(stroke, alpha=opacity * getattr(stroke, "alpha", 1) if opacity < 1 else None)
            c.setLineWidth(_length(frame.props.get("stroke_width", "0.5pt")))
            if frame.props.get("dash"):
                c.setDash(frame.props["dash"])
        shape = frame.props["shape"]
        f, s = int(fill is not None), int(stroke is not None)
        if shape == "rect":
            c.rect(x, y, w, h, stroke=s, fill=f)
        elif shape == "rounded":
            c.roundRect(x, y, w, h, _length(frame.props.get("radius", "3mm")), stroke=s, fill=f)
        elif shape == "ellipse":
            c.ellipse(x, y, x + w, y + h, stroke=s, fill=f)
        elif shape == "line":
            c.line(x, y + h, x + w, y)
        c.restoreState()
