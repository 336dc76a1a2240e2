"""True-scale templates: exact outline measurement and template diagnostics."""
from __future__ import annotations

import io
import math

from reportlab.pdfgen.canvas import Canvas
from pypdf import PdfReader

from cardforge.verify.outlines import path_extent
from cardforge.verify.pdfread import PageReader
from conftest import GAME_YAML, MM, cardforge, headlines, make_game


def _strokes(draw) -> list[tuple]:
    buffer = io.BytesIO()
    c = Canvas(buffer, pageCompression=0)
    c.setStrokeColorRGB(0.9, 0.0, 0.45)
    draw(c)
    c.save()
    reader = PageReader(PdfReader(buffer).pages[0], {}).read()
    return [path_extent(path) for colour, path in reader.strokes if colour == (0.9, 0.0, 0.45)]


def test_arc_extent_is_the_curve_not_its_control_points():
    """A 60 degree wedge of radius 80 mm: 80 mm wide and 80 mm tall (the arc's top), although the
    Bezier control points of the arc reach about 4 % higher."""
    def wedge(c):
        p = c.beginPath()
        ax, ay, r = 100 * MM, 50 * MM, 80 * MM
        p.moveTo(ax, ay)
        p.arcTo(ax - r, ay - r, ax + r, ay + r, startAng=60, extent=60)
        p.close()
        c.drawPath(p, stroke=1, fill=0)
    (x0, y0, x1, y1), = _strokes(wedge)
    assert abs((x1 - x0) / MM - 80.0) < 0.01 and abs((y1 - y0) / MM - 80.0) < 0.01


def test_circle_extent():
    (x0, y0, x1, y1), = _strokes(lambda c: c.circle(300, 300, 30 * MM, stroke=1, fill=0))
    assert abs((x1 - x0) / MM - 60.0) < 0.001 and abs((y1 - y0) / MM - 60.0) < 0.001


GAME = GAME_YAML + """\
templates:
  - {id: burst, shape: circle, diameter: 60mm}
  - {id: huge, shape: circle, diameter: 300mm}
"""


def test_a_piece_larger_than_the_page_is_reported_at_its_line(tmp_path):
    make_game(tmp_path, game_yaml=GAME)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    line = GAME.splitlines().index("  - {id: huge, shape: circle, diameter: 300mm}") + 1
    assert f"content/tiny/game.yaml:{line}:5: error[E-TEMPLATE-PIECE]: template 'huge' (300 x 300 mm) does not fit " \
           "on A4 paper" in headlines(result.stderr), result.stderr
