"""`cardforge calibrate`: a two-page duplex sheet, read back from the PDF."""
from __future__ import annotations

import pdfplumber
import pytest

from conftest import MM, cardforge

PAGE_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_sheet_has_a_cross_on_the_front_and_rulers_on_the_back(tmp_path, paper):
    result = cardforge("calibrate", "--paper", paper, "--out", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(tmp_path / "out" / f"calibrate-{paper}.pdf") as pdf:
        assert len(pdf.pages) == 2  # one sheet: the front and its back
        for page in pdf.pages:
            assert (round(page.width / MM, 1), round(page.height / MM, 1)) == PAGE_MM[paper]
        front, back = pdf.pages
        cx, cy = front.width / 2, front.height / 2
        # the front's two long lines cross at the page's centre and reach past both rulers (40 mm out)
        assert any(abs(l["top"] - cy) < 0.1 and l["x0"] < cx - 55 * MM and l["x1"] > cx + 55 * MM for l in front.lines)
        assert any(abs(l["x0"] - cx) < 0.1 and l["top"] < cy - 55 * MM and l["bottom"] > cy + 55 * MM
                   for l in front.lines)
        # The back's X ruler, 40 mm below the centre, and its Y ruler, 40 mm left of it: a tick every
        # 0.5 mm from -20 to +20 mm, and none near the centre, where nothing may tangle.
        ruler_y, ruler_x = cy + 40 * MM, cx - 40 * MM  # pdfplumber's top runs down the page
        xs = sorted(round((l["x0"] - cx) / MM, 2) for l in back.lines
                    if abs(l["x0"] - l["x1"]) < 0.01 and abs(l["bottom"] - ruler_y) < 0.1 and l["height"] < 5 * MM)
        ys = sorted(round((cy - l["top"]) / MM, 2) for l in back.lines
                    if abs(l["top"] - l["bottom"]) < 0.01 and abs(l["x0"] - ruler_x) < 0.1 and l["width"] < 5 * MM)
        assert xs == ys == [i / 2 for i in range(-40, 41)]
        assert not [l for l in back.lines if abs(l["x0"] - cx) < 15 * MM and abs(l["top"] - cy) < 15 * MM]
        # labels every 5 mm, none touching its neighbour
        words = back.extract_words()
        for label in ("-20", "-15", "-10", "-5", "0", "+5", "+10", "+15", "+20"):
            assert label in [w["text"] for w in words], label
        below = sorted((w for w in words if abs(w["top"] - (ruler_y + 1.5 * MM)) < 2 * MM), key=lambda w: w["x0"])
        assert len(below) >= 9 and all(a["x1"] + 0.5 < b["x0"] for a, b in zip(below, below[1:]))
        left = sorted((w for w in words if abs(w["x1"] - (ruler_x - 1.2 * MM)) < 0.5 * MM
                       and abs(w["top"] - cy) < 22 * MM), key=lambda w: w["top"])
        assert len(left) == 9 and all(a["bottom"] < b["top"] for a, b in zip(left, left[1:]))
        text = " ".join((front.extract_text() + " " + back.extract_text()).split())
        assert "long edge" in text and "Landscape pages" in text and "Portrait pages" in text
        assert "--back-offset option" in text  # the standalone sheet is the designer's: it names the option
        # nothing within 5 mm of the paper's edge
        for page in pdf.pages:
            for o in page.chars + page.lines:
                assert min(o["x0"], o["top"], page.width - o["x1"], page.height - o["bottom"]) >= 5 * MM
