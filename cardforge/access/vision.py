"""A face as others see it: protanopia, deuteranopia, tritanopia, and a black-and-white print.

Dichromats lack one of the three cone types; what they see is simulated by projecting each colour,
in the LMS cone space, onto the plane of colours they still tell apart:
- protanopia and deuteranopia (no L, no M cones): Viénot, Brettel and Mollon 1999, one plane
  through black, white and the blue primary, so one 3x3 matrix in linear RGB;
- tritanopia (no S cones): Brettel, Viénot and Mollon 1997, two half-planes through white and
  the monochromatic lights the tritanope sees as in normal vision (485 nm and 660 nm), chosen per
  colour by the side of the plane through white and the S axis it lies on (Viénot's single plane
  is wrong for tritans);
- grey: the colour's luminance (CIE Y), as a black-and-white laser printer or photocopier turns
  colour into grey.
All at full severity.  The LMS model is the one Viénot 1999 uses (Smith and Pokorny's cone
fundamentals).  The arithmetic is in
linear light: sRGB decoded, the matrix applied, encoded again (tests/test_vision.py compares it
with coloraide's implementation of the same papers).

A preview picture (a card at 110 dpi, some 400 x 550 pixels) takes a few milliseconds: numpy,
with table lookups for the sRGB curve both ways.
"""
from __future__ import annotations

import io

import numpy as np

VIEWS = ("protan", "deutan", "tritan", "grey")
VIEW_NAMES = {"protan": "a protanope (no red cones)", "deutan": "a deuteranope (no green cones)",
              "tritan": "a tritanope (no blue cones)", "grey": "a black-and-white printer (greyscale)"}

# Linear RGB -> LMS cone responses: the matrix Viénot, Brettel and Mollon 1999 publish (Smith and
# Pokorny's fundamentals for the primaries of a monitor; daltonlens and coloraide use it for sRGB).
LMS_FROM_RGB = np.array([[17.8824, 43.5161, 4.11935], [3.45565, 27.1554, 3.86714], [0.0299566, 0.184309, 1.46709]]) / 100
RGB_FROM_LMS = np.linalg.inv(LMS_FROM_RGB)
# Linear sRGB -> CIE XYZ (IEC 61966-2-1): for luminance, and for the anchors' monochromatic lights.
_XYZ_FROM_RGB = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_LMS_FROM_XYZ = LMS_FROM_RGB @ np.linalg.inv(_XYZ_FROM_RGB)
LUMINANCE = _XYZ_FROM_RGB[1]  # Y of linear sRGB

# CIE 1931 2-degree colour matching functions (x, y, z) at Brettel's anchor wavelengths.
_SPECTRUM = {485: (0.05795, 0.16930, 0.61620), 660: (0.16490, 0.06100, 0.00000)}
_MISSING = {"protan": 0, "deutan": 1, "tritan": 2}  # the cone each lacks: L, M, S


def _projection(missing: int, white: np.ndarray, anchor: np.ndarray) -> np.ndarray:
    """The 3x3 LMS matrix that replaces the missing cone's response so that every colour lands on
    the plane through black, `white` and `anchor`: the colours this dichromat shares with us."""
    normal = np.cross(white, anchor)
    projection = np.eye(3)
    projection[missing] = -normal / normal[missing]
    projection[missing, missing] = 0.0
    return projection


def _in_rgb(projection: np.ndarray) -> np.ndarray:
    return RGB_FROM_LMS @ projection @ LMS_FROM_RGB


_WHITE = LMS_FROM_RGB @ np.ones(3)
_BLUE = LMS_FROM_RGB @ np.array([0.0, 0.0, 1.0])
VIENOT = {kind: _in_rgb(_projection(_MISSING[kind], _WHITE, _BLUE)) for kind in ("protan", "deutan")}
_ANCHORS = [_LMS_FROM_XYZ @ np.array(_SPECTRUM[nm]) for nm in (485, 660)]
BRETTEL_TRITAN = tuple(_in_rgb(_projection(2, _WHITE, anchor)) for anchor in _ANCHORS)
# Which half-plane a colour projects onto: the side of the plane through white and the S axis,
# written as a normal in linear RGB (a dot product per pixel, no LMS image needed).
_SEPARATION = np.cross(_WHITE, np.array([0.0, 0.0, 1.0])) @ LMS_FROM_RGB
if np.dot(_SEPARATION, RGB_FROM_LMS @ _ANCHORS[0]) < 0:
    _SEPARATION = -_SEPARATION  # positive on the 485 nm (blue-green) side


def _decode(value: np.ndarray) -> np.ndarray:
    """sRGB (0-1) to linear light."""
    return np.where(value <= 0.04045, value / 12.92, ((value + 0.055) / 1.055) ** 2.4)


def _encode(value: np.ndarray) -> np.ndarray:
    """Linear light to sRGB (0-1), clipped to the gamut: a projected colour may fall just outside."""
    value = np.clip(value, 0.0, 1.0)
    return np.where(value <= 0.0031308, value * 12.92, 1.055 * value ** (1 / 2.4) - 0.055)


_DECODE_8BIT = _decode(np.arange(256) / 255.0).astype(np.float32)
_ENCODE_STEPS = 65535  # linear light quantised this finely before the table: under 0.1 of an 8-bit step
_ENCODE_8BIT = np.round(_encode(np.arange(_ENCODE_STEPS + 1) / _ENCODE_STEPS) * 255).astype(np.uint8)


def simulate_linear(rgb: np.ndarray, view: str) -> np.ndarray:
    """Linear RGB values (..., 3) as `view` sees them, in linear RGB (unclipped)."""
    dtype = rgb.dtype if rgb.dtype == np.float32 else np.float64  # a picture stays in float32: twice as fast
    if view == "grey":
        return np.repeat((rgb @ LUMINANCE.astype(dtype))[..., None], 3, axis=-1)
    if view in VIENOT:
        return rgb @ VIENOT[view].T.astype(dtype)
    if view == "tritan":
        first, second = (rgb @ m.T.astype(dtype) for m in BRETTEL_TRITAN)
        return np.where((rgb @ _SEPARATION.astype(dtype))[..., None] >= 0, first, second)
    raise ValueError(f"unknown view '{view}': one of {', '.join(VIEWS)}")


def simulate_color(srgb: tuple[float, float, float], view: str) -> tuple[float, float, float]:
    """One sRGB colour (components 0-1) as `view` sees it, in sRGB (0-1)."""
    out = _encode(simulate_linear(_decode(np.asarray(srgb, dtype=float)), view))
    return tuple(float(v) for v in out)


def simulate_pixels(pixels: np.ndarray, view: str) -> np.ndarray:
    """An 8-bit RGB image (height, width, 3) as `view` sees it, 8-bit RGB."""
    seen = simulate_linear(_DECODE_8BIT[pixels], view)
    np.clip(seen, 0.0, 1.0, out=seen)
    seen *= _ENCODE_STEPS
    seen += 0.5
    return _ENCODE_8BIT[seen.astype(np.uint16)]


def simulate_image(image, view: str):
    """A Pillow image as `view` sees it (its alpha, if any, kept)."""
    from PIL import Image
    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    seen = Image.fromarray(simulate_pixels(np.asarray(image.convert("RGB")), view), "RGB")
    if alpha is not None:
        seen.putalpha(alpha)
    return seen


def simulate_png(png: bytes, view: str) -> bytes:
    """A picture file's bytes (PNG, or anything Pillow reads) as `view` sees it, as PNG; its
    resolution (dpi) is kept."""
    from PIL import Image
    with Image.open(io.BytesIO(png)) as image:
        dpi = image.info.get("dpi")
        seen = simulate_image(image, view)
    out = io.BytesIO()
    seen.save(out, format="PNG", compress_level=1, **({"dpi": dpi} if dpi else {}))  # served at once: speed over size
    return out.getvalue()
