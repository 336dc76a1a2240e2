"""A shape's `opacity:` makes it translucent: what is under it shows through, as the layout says
(reportlab's setFillColor used to set the colour's own alpha, 1, over the shape's opacity)."""
from __future__ import annotations

from PIL import Image

from conftest import FRONT_LAYOUT, cardforge, make_game

LAYOUT = FRONT_LAYOUT + """\
  under: {type: shape, shape: rect, x: 10mm, y: 62mm, width: 40mm, height: 20mm, fill: "#000000"}
  veil: {type: shape, shape: rect, x: 30mm, y: 62mm, width: 20mm, height: 20mm, fill: "#ffffff", opacity: 0.5}
"""


def test_a_shape_with_opacity_half_shows_what_is_under_it(tmp_path):
    make_game(tmp_path, layout_yaml=LAYOUT)
    result = cardforge("render", "content/tiny", "alpha", "--dpi", "100", "--no-bleed", "--out", "a.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    image = Image.open(tmp_path / "a.png").convert("RGB")
    px = lambda x_mm, y_mm: image.getpixel((round(x_mm / 25.4 * 100), round(y_mm / 25.4 * 100)))  # noqa: E731
    assert px(20, 72) == (0, 0, 0)  # the black rectangle alone
    grey = px(40, 72)  # white at half opacity over black: mid grey, not white
    assert all(120 <= channel <= 135 for channel in grey), grey
