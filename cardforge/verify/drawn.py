"""What a page's operators drew, as the reader of its content stream gives it (verify/pdfread.py):
runs of text, the blocks they were shown in, the forms placed; and the matrix arithmetic they
are placed with."""
from __future__ import annotations

from dataclasses import dataclass


def _mul(a, b):
    """Matrix product a x b of PDF matrices [a b c d e f]."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(slots=True)  # thousands per PDF
class Run:
    text: str
    x0: float  # where the run starts (its baseline origin)
    y0: float
    x1: float  # where it ends, along its baseline
    size: float  # effective size in points
    y1: float | None = None  # None: the run is horizontal (y1 == y0)
    up: tuple[float, float] = (0.0, 1.0)  # unit vector from the baseline towards the tops of the glyphs

    @property
    def end_y(self) -> float:
        return self.y0 if self.y1 is None else self.y1

    def bounds(self, ascent: float = 0.72, descent: float = 0.22) -> tuple[float, float, float, float]:
        """The box (x0, y0, x1, y1) around the run's corners on the page."""
        if self.y1 is None and self.up == (0.0, 1.0):  # upright text: the common case, directly
            return (min(self.x0, self.x1), self.y0 - descent * self.size,
                    max(self.x0, self.x1), self.y0 + ascent * self.size)
        xs, ys = zip(*self.corners(ascent, descent))
        return min(xs), min(ys), max(xs), max(ys)

    def corners(self, ascent: float = 0.72, descent: float = 0.22) -> list[tuple[float, float]]:
        """The corners of the run's glyph box on the page, for text turned any way (frame rotation)."""
        ux, uy = self.up
        top, bottom = ascent * self.size, -descent * self.size
        return [(x + ux * d, y + uy * d) for x, y in ((self.x0, self.y0), (self.x1, self.end_y))
                for d in (top, bottom)]


@dataclass(slots=True)
class Block:
    runs: list[Run]
    clip: tuple | None = None  # the clipping box it was drawn in (a piece's bleed box), None = the page


@dataclass(slots=True)
class Placed:
    """A form XObject drawn on the page (an icon) and its bounding box."""
    name: str
    x0: float
    y0: float
    x1: float
    y1: float
    clip: tuple | None = None

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2
