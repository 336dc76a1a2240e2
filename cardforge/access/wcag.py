"""Colour arithmetic of the accessibility checks: WCAG 2.x contrast, and how colours look to a
viewer with a colour-vision deficiency or on a black-and-white printer.

Contrast is the WCAG 2.x formula (relative luminance of linearised sRGB), computed here from a
table of the 256 channel values: a gradient or a picture behind a run gives thousands of
background colours, each compared with the run's fill.  The simulations and ΔE2000 are
coloraide's (pure Python, MIT): Viénot for protanopia and deuteranopia, Brettel for tritanopia,
each at full severity, the models Meeple Like Us and the colour-blindness simulators use.
"""
from __future__ import annotations

from functools import lru_cache

AA_NORMAL = 4.5  # WCAG 2.x 1.4.3 (AA): text
AA_LARGE = 3.0  # ... large text: 18 pt, or 14 pt bold
LARGE_PT, LARGE_BOLD_PT = 18.0, 14.0
# Two category colours closer than these (ΔE2000, after simulation) are confusable.  A ΔE2000 of
# about 2 is a just-noticeable difference side by side; cards are compared across a table, apart,
# in poor light, so a pair needs several times that to be told apart at a glance.  Greyscale keeps
# only lightness, which a cheap printer renders unevenly: it needs more room.
VISION_DE = 6.0
GREY_DE = 10.0
# WCAG 1.4.1 technique G183: colours that differ by 3:1 in luminance are told apart without hue.
LIGHTNESS_CONTRAST = 3.0

VISIONS = (("protanopia", "protan", "vienot"), ("deuteranopia", "deutan", "vienot"), ("tritanopia", "tritan", "brettel"))

_LINEAR = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in (i / 255 for i in range(256))]


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2.x relative luminance of an 8-bit sRGB colour."""
    r, g, b = rgb
    return 0.2126 * _LINEAR[r] + 0.7152 * _LINEAR[g] + 0.0722 * _LINEAR[b]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2.x contrast ratio, 1 to 21."""
    la, lb = luminance(a), luminance(b)
    if la < lb:
        la, lb = lb, la
    return (la + 0.05) / (lb + 0.05)


def required(size_pt: float, bold: bool) -> float:
    """The ratio WCAG AA asks of text of this size."""
    large = size_pt >= LARGE_PT - 1e-6 or (bold and size_pt >= LARGE_BOLD_PT - 1e-6)
    return AA_LARGE if large else AA_NORMAL


def hex_rgb(text: str) -> tuple[int, int, int]:
    text = text.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def rgb_hex(rgb) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


@lru_cache(maxsize=4096)
def _color(hex_text: str):
    from coloraide import Color  # imported on first use: only `--access` needs it
    return Color(hex_text)


@lru_cache(maxsize=4096)
def seen_as(hex_text: str, vision: str):
    """The colour as a viewer with `vision` sees it ("protan", "deutan", "tritan"; "grey": its CIE
    lightness alone, as a black-and-white printer keeps it)."""
    color = _color(hex_text)
    if vision == "grey":
        lab = color.convert("lab-d65")
        return lab.set("a", 0).set("b", 0)
    method = dict((short, m) for _, short, m in VISIONS)[vision]
    return color.filter(vision, 1.0, method=method).convert("srgb").clip()


def difference(a: str, b: str, vision: str | None = None) -> float:
    """ΔE2000 between two colours, as seen with `vision` (None: normal vision)."""
    if vision is None:
        return _color(a).delta_e(_color(b), method="2000")
    return seen_as(a, vision).delta_e(seen_as(b, vision), method="2000")


def confusions(a: str, b: str) -> list[tuple[str, float]]:
    """The ways of seeing under which two colours are confusable: [(name, ΔE2000)], worst first."""
    found = []
    for name, short, _method in VISIONS:
        de = difference(a, b, short)
        if de < VISION_DE:
            found.append((name, de))
    grey = difference(a, b, "grey")
    if grey < GREY_DE:
        found.append(("greyscale", grey))
    return sorted(found, key=lambda item: item[1])
