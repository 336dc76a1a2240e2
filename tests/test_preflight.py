"""verify/preflight.py: a PDF a print shop would refuse is refused, each fault named at its frame;
a file cardforge converted passes."""
from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardforge.output.cmykpdf import to_cmyk
from cardforge.output.pdfx import add_pdfx, save
from cardforge.output.printcolor import PROFILES, PrintColor
from cardforge.verify.preflight import preflight

MM = 72 / 25.4
PAGE = (69 * MM, 94 * MM)
# Frames as the manifest records them: boxes in mm from the page's lower left.
FRAMES = {"photo": [5, 60, 25, 25], "logo": [35, 60, 25, 25], "veil": [5, 30, 25, 20], "patch": [35, 30, 25, 20],
          "hairline": [5, 10, 50, 5], "title": [5, 20, 50, 6]}
RECORDS = [{"page": 1, "card": "fixture", "side": "front", "layout": "fixture",
            "frames": [{"name": name, "box": box, "type": "shape"} for name, box in FRAMES.items()]}]
GRACOL = PrintColor(PROFILES["gracol-coated-240"], 240, "X-1a", (60, 40, 40, 100))


def _box(name):
    x, y, w, h = FRAMES[name]
    return x * MM, y * MM, w * MM, h * MM


def _draw(path: Path, faulty: bool) -> None:
    c = Canvas(str(path), pagesize=PAGE, invariant=1)
    c.setTrimBox((9, 9, PAGE[0] - 9, PAGE[1] - 9))
    c.setBleedBox((0, 0, PAGE[0], PAGE[1]))
    c.setFillColorCMYK(0, 0, 0, 1)
    c.setFont("Helvetica", 8) if faulty else None
    if faulty:
        c.drawString(_box("title")[0], _box("title")[1] + 2, "Helvetica, not embedded")
        rgb = Image.new("RGB", (40, 40), (20, 120, 200))
        c.drawImage(ImageReader(rgb), *_box("photo"))
        alpha = Image.new("RGBA", (40, 40), (200, 20, 20, 100))
        c.drawImage(ImageReader(alpha), *_box("logo"), mask="auto")
        c.saveState()
        c.setFillAlpha(0.5)
        c.setFillColor(CMYKColor(0, 0.5, 1, 0, alpha=None))
        c.rect(*_box("veil"), stroke=0, fill=1)
        c.restoreState()
        c.setFillColor(CMYKColor(1, 1, 1, 1, alpha=None))
        c.rect(*_box("patch"), stroke=0, fill=1)
        c.setStrokeColor(CMYKColor(0, 0, 0, 1, alpha=None))
        c.setLineWidth(0.1)
        x, y, w, h = _box("hairline")
        c.line(x, y + h / 2, x + w, y + h / 2)
    else:
        c.setFillColorRGB(0.2, 0.4, 0.8)
        c.rect(*_box("patch"), stroke=0, fill=1)
    c.save()


@pytest.fixture
def faulty(tmp_path) -> Path:
    path = tmp_path / "faulty.pdf"
    _draw(path, faulty=True)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:  # PDF/X in all but its content
        add_pdfx(pdf, GRACOL, "faulty")
        save(pdf, path, GRACOL)
    return path


def test_each_fault_is_named_at_its_frame(faulty):
    checked = preflight(faulty, 240, "X-1a", RECORDS)
    found = [str(f) for f in checked.faults]
    expected = [
        "card fixture front, frame 'photo': an RGB picture",
        "card fixture front, frame 'logo': a picture with a soft mask (transparency)",
        "card fixture front, frame 'logo': an RGB picture",
        "card fixture front, frame 'patch': CMYK 100/100/100/100 is 400% of ink, over the limit of 240%",
        "card fixture front, frame 'hairline': a line 0.10 pt wide, under 0.25 pt",
        "card fixture front, frame 'veil': graphics state /gRLs0 sets ca 0.5: transparency",
        "card fixture front, frame 'title': font /Helvetica is not embedded",
    ]
    for line in expected:
        assert line in found, found
    assert len(found) == len(expected), found  # each fault once, none without its frame
    assert not checked.passed
    assert round(checked.lowest_ppi) == 41  # 40 px over 25 mm


def test_missing_pdfx_parts_and_boxes_are_refused(tmp_path):
    path = tmp_path / "plain.pdf"
    _draw(path, faulty=False)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        del pdf.pages[0].obj["/TrimBox"]
        del pdf.docinfo["/Trapped"]
        pdf.save(path)
    found = [str(f) for f in preflight(path, 240, "X-1a").faults]
    assert "the file: no PDF/X output intent" in found
    assert "the file: no GTS_PDFXVersion key" in found
    assert "the file: no Trapped key (True or False)" in found
    assert "page 1: no TrimBox" in found
    assert "page 1: an RGB colour (rg 0.2 0.4 0.8)" in found


def test_a_bleed_box_outside_the_media_box_is_refused(tmp_path):
    path = tmp_path / "plain.pdf"
    _draw(path, faulty=False)
    converted = tmp_path / "cmyk.pdf"
    assert not to_cmyk(path, converted, GRACOL, RECORDS, "plain").faults
    assert preflight(converted, 240, "X-1a", RECORDS).passed  # what cardforge writes passes
    with pikepdf.open(converted, allow_overwriting_input=True) as pdf:
        pdf.pages[0].obj.BleedBox = pikepdf.Array([-5, 0, PAGE[0], PAGE[1]])
        pdf.save(converted)
    assert "page 1: its BleedBox is not inside its MediaBox" in [str(f) for f in preflight(converted, 240).faults]


def test_converting_the_faulty_file_names_what_it_cannot_convert(faulty, tmp_path):
    """The converter itself refuses what it cannot print: the 400% patch, at its frame."""
    result = to_cmyk(faulty, tmp_path / "out.pdf", GRACOL, RECORDS, "faulty")
    messages = [f"{f.code} {f.place}: {f.message}" for f in result.faults]
    assert "E-PRINT-INK card fixture front, frame 'patch': CMYK 100/100/100/100 is 400% of ink, over the limit of 240%" \
        in messages
    assert not (tmp_path / "out.pdf").exists()
