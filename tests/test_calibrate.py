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
        # the cross on the front meets at the page's centre
        assert any(abs(l["top"] - cy) < 0.1 and l["x0"] < cx < l["x1"] for l in front.lines)
        assert any(abs(l["x0"] - cx) < 0.1 and l["top"] < cy < l["bottom"] for l in front.lines)
        # the back's horizontal ruler has a tick every 0.5 mm from -10 to +10 mm about the centre
        ticks = sorted(round((l["x0"] - cx) / MM, 2) for l in back.lines
                       if abs(l["x0"] - l["x1"]) < 0.01 and l["top"] < cy < l["bottom"] and l["height"] < 7 * MM)
        assert ticks == [i / 2 for i in range(-20, 21)]
        text = back.extract_text()
        for label in ("-10", "-5", "+5", "+10"):
            assert label in text
        assert "--back-offset X,Y" in front.extract_text()
        # nothing within 5 mm of the paper's edge
        for page in pdf.pages:
            for o in page.chars + page.lines:
                assert min(o["x0"], o["top"], page.width - o["x1"], page.height - o["bottom"]) >= 5 * MM
