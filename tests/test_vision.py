"""Seeing as others see: a face as a protan, deutan or tritan viewer, or a black-and-white printer,
sees it (access/vision.py), through `cardforge render --view`.

The simulation is checked against coloraide's implementation of the same papers (Viénot 1999 for
protanopia and deuteranopia, Brettel 1997 for tritanopia) within a ΔE2000 of 1, and the pictures
`render --view` writes are read back pixel by pixel."""
from __future__ import annotations

import io
import random

import numpy as np
import pytest
from PIL import Image

from cardforge.access.vision import VIEWS, simulate_color, simulate_pixels, simulate_png
from conftest import cardforge, make_game

coloraide = pytest.importorskip("coloraide")
Color = coloraide.Color

PALETTE = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000",  # Okabe-Ito
           "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#00ffff", "#ff00ff", "#ffffff", "#808080",
           "#8a6428", "#efe2c6", "#a8802c", "#c8bd8e", "#8a6a1c", "#1f4e8c", "#b42318", "#2e7d32"]
METHODS = {"protan": "vienot", "deutan": "vienot", "tritan": "brettel"}


def _srgb(hex_colour: str) -> tuple[float, float, float]:
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def _colours() -> list[tuple[float, float, float]]:
    rng = random.Random(42)
    return [_srgb(c) for c in PALETTE] + [(rng.random(), rng.random(), rng.random()) for _ in range(300)]


@pytest.mark.parametrize("view", ["protan", "deutan", "tritan"])
def test_each_dichromacy_agrees_with_coloraide_within_a_delta_e_of_one(view):
    worst = 0.0
    for colour in _colours():
        ours = Color("srgb", list(simulate_color(colour, view)))
        theirs = Color("srgb", list(colour)).filter(view, method=METHODS[view]).clip()
        worst = max(worst, ours.delta_e(theirs, method="2000"))
    assert worst < 1.0


def test_greyscale_is_the_luminance_of_the_colour():
    for colour in _colours():
        grey = simulate_color(colour, "grey")
        assert grey[0] == pytest.approx(grey[1]) == pytest.approx(grey[2])
        lightness = Color("srgb", list(colour)).convert("lab-d65")["lightness"]
        assert Color("srgb", list(grey)).convert("lab-d65")["lightness"] == pytest.approx(lightness, abs=0.5)


def test_a_picture_is_simulated_like_its_colours():
    """The 8-bit picture path (lookup tables) gives what the colour path gives, to one level."""
    colours = np.array([[_srgb(c) for c in PALETTE]])
    pixels = np.round(colours * 255).astype(np.uint8)
    for view in VIEWS:
        seen = simulate_pixels(pixels, view).astype(int)
        expected = np.array([[np.round(np.array(simulate_color(tuple(p / 255), view)) * 255) for p in pixels[0]]])
        assert np.abs(seen - expected).max() <= 1, view


def test_red_and_green_that_a_deuteranope_confuses_look_alike():
    """The classic confusion: a red and a green of equal lightness differ a lot in colour and little
    (ΔE2000 under 6) as a deuteranope sees them; a tritanope still tells them apart."""
    red, green = (0.8, 0.2, 0.1), (0.4, 0.5, 0.1)
    assert Color("srgb", list(red)).delta_e(Color("srgb", list(green)), method="2000") > 25
    seen = [Color("srgb", list(simulate_color(c, "deutan"))) for c in (red, green)]
    assert seen[0].delta_e(seen[1], method="2000") < 6
    seen = [Color("srgb", list(simulate_color(c, "tritan"))) for c in (red, green)]
    assert seen[0].delta_e(seen[1], method="2000") > 15


def test_simulate_png_keeps_size_alpha_and_resolution():
    image = Image.new("RGBA", (40, 30), (255, 0, 0, 128))
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(150, 150))
    seen = Image.open(io.BytesIO(simulate_png(out.getvalue(), "grey")))
    assert seen.size == (40, 30) and seen.mode == "RGBA"
    r, g, b, a = seen.getpixel((5, 5))
    assert r == g == b and a == 128
    assert round(seen.info["dpi"][0]) == 150


RED_FRONT = """\
frames:
  background: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 88mm, bleed: true, fill: "#ff0000"}
  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ card.title }}", style: bold, size: 12pt}
"""


def _middle(path) -> tuple[int, int, int]:
    image = Image.open(path).convert("RGB")
    return image.getpixel((image.width // 2, image.height // 2))


def test_render_view_writes_the_face_as_others_see_it(tmp_path):
    make_game(tmp_path, layout_yaml=RED_FRONT)
    plain = cardforge("render", "content/tiny", "alpha", "--dpi", "50", "--out", "plain.png", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    assert _middle(tmp_path / "plain.png") == (255, 0, 0)
    seen = {}
    for view in VIEWS:
        result = cardforge("render", "content/tiny", "alpha", "--dpi", "50", "--view", view, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        seen[view] = _middle(tmp_path / f"alpha-front-{view}.png")  # the view is in the default name
    assert "wrote alpha-front-grey.png (50 dpi, as a black-and-white printer (greyscale) sees it)" in result.stdout
    r, g, b = seen["deutan"]  # pure red, to a deuteranope: an olive yellow, red and green alike, no blue
    assert abs(r - g) <= 3 and r > 120 and b < 20
    r, g, b = seen["protan"]  # to a protanope: a dark olive (red light barely reaches them)
    assert abs(r - g) <= 3 and r < 110 and b < 20
    r, g, b = seen["tritan"]  # to a tritanope: still a red, a little pink
    assert r > 200 and g < 30 and 30 < b < 120
    r, g, b = seen["grey"]  # a black-and-white printer: grey of red's luminance (21 %: sRGB 127)
    assert r == g == b and abs(r - 127) <= 2
    image = Image.open(tmp_path / "alpha-front-grey.png").convert("RGB")
    assert image.getchannel("R").tobytes() == image.getchannel("G").tobytes() == image.getchannel("B").tobytes()  # text too


def test_render_an_unknown_view_is_a_usage_error(tmp_path):
    make_game(tmp_path)
    result = cardforge("render", "content/tiny", "alpha", "--view", "sepia", cwd=tmp_path)
    assert result.returncode == 2
    assert "invalid choice: 'sepia'" in result.stderr
    assert not list(tmp_path.glob("*.png"))
