"""Letter as dense as A4 (issue 45): poker cards, 6 to a Letter page with a bleed each against A4's
8, are ganged on Letter (9 to a page), with their backs still behind their fronts.  Read from the
built kit: the manifest's trim boxes and the PDF's page sizes and text."""
from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from conftest import REPO, cardforge

PT = 72 / 25.4


@pytest.fixture(scope="module")
def iron_rain(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("density")
    result = cardforge("build", "content/iron-rain", "--out", out, cwd=REPO, timeout=900)
    assert result.returncode == 0, result.stderr
    return out / "iron-rain"


def _cards(manifest: dict) -> dict[int, list[dict]]:
    pages: dict[int, list[dict]] = {}
    for record in manifest["cards"]:
        pages.setdefault(record["page"], []).append(record)
    return pages


def test_letter_cards_are_ganged_as_densely_as_a4_and_backs_stay_behind(iron_rain):
    letter = json.loads((iron_rain / "iron-rain-kit-letter.manifest.json").read_text("utf-8"))
    a4 = json.loads((iron_rain / "iron-rain-kit-a4.manifest.json").read_text("utf-8"))
    per_page = {name: max(sum(1 for r in records if r["side"] == "front") for records in _cards(m).values())
                for name, m in (("letter", letter), ("a4", a4))}
    assert per_page == {"letter": 9, "a4": 8}
    sheets = {name: sum(1 for p in m["pages"] if p["section"] == "cards") // 2 for name, m in (("letter", letter), ("a4", a4))}
    assert sheets["letter"] < sheets["a4"]  # 26 against 29 (39 before)
    sizes = {p["page"]: p["size"] for p in letter["pages"]}
    pages = _cards(letter)
    checked = 0
    for number, records in pages.items():
        fronts = {(r["card"], r["copy"]): r["trim"] for r in records if r["side"] == "front"}
        if not fronts or letter["pages"][number - 1]["sheet"]["side"] != "front":
            continue
        backs = {(r["card"], r["copy"]): r["trim"] for r in pages.get(number + 1, []) if r["side"] == "back"}
        width = sizes[number][0]
        assert sizes[number + 1] == sizes[number]
        for key, (x, y, w, h) in fronts.items():
            if key in backs:  # long-edge flip of a portrait sheet: mirrored left to right
                bx, by, bw, bh = backs[key]
                assert bx == pytest.approx(width - x - w, abs=0.01) and by == pytest.approx(y, abs=0.01)
                checked += 1
        # Ganged: neighbouring trims share their edge (no bleed between), and cut lines are drawn.
        xs = sorted({round(x, 2) for x, _, _, _ in fronts.values()})
        assert all(b - a == pytest.approx(63.0, abs=0.01) for a, b in zip(xs, xs[1:]))
    assert checked > 100
    with pdfplumber.open(iron_rain / "iron-rain-kit-letter.pdf") as pdf:
        page = pdf.pages[6]  # the first card sheet's front
        assert float(page.width) / PT == pytest.approx(215.9, abs=0.1)
        dashed = [line for line in page.lines if line.get("dash") and line["dash"][0]]
        assert dashed, "ganged cards carry cut lines between them"
