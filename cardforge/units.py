"""Lengths with units ("63mm", "2.5in", "12pt") and the named sizes of cards and paper.

Every length inside cardforge is in PDF points (1/72 in); this module is the
only place that converts.
"""
from __future__ import annotations

import re

MM = 72 / 25.4
UNITS = {"mm": MM, "cm": 10 * MM, "in": 72.0, "pt": 1.0}
LENGTH_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")
# The pattern the schemas use, so that a bad length is caught with the other schema errors.
LENGTH_PATTERN = r"^\s*-?\d+(\.\d+)?\s*(mm|cm|in|pt)?\s*$"

# Card sizes as print shops sell them (width x height in mm).
CARD_SIZES = {
    "poker": (63.0, 88.0),
    "bridge": (56.0, 87.0),
    "tarot": (70.0, 120.0),
    "euro": (59.0, 92.0),
    "mini-euro": (44.0, 68.0),
    "mini-american": (41.0, 63.0),
    "square": (70.0, 70.0),
}

PAPER_SIZES = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}
PAPERS = tuple(PAPER_SIZES)  # `--paper` choices
MODES = ("duplex", "simplex", "fold")  # `--mode` choices: how the card pages are imposed


class LengthError(ValueError):
    pass


def length(value) -> float:
    """A length in points; bare numbers are points."""
    if isinstance(value, bool):
        raise LengthError(f"expected a length such as '3mm', got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        m = LENGTH_RE.match(value)
        if m:
            return float(m.group(1)) * UNITS[m.group(2) or "pt"]
    raise LengthError(f"expected a length such as '3mm', '0.5in' or '12pt', got {value!r}")


def mm(points: float) -> float:
    return points / MM


def size_mm(name: str) -> tuple[float, float]:
    return CARD_SIZES[name]
