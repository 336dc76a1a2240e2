"""Tiled boards: no seam cuts a word (issue 45).  Every board and reference sheet of every shipped
game is built on A4 and Letter; the cut lines of each tile are read from the manifest (`tile.cuts`,
page mm) and the words from the PDF (pdfplumber), and no word printed inside a tile's window may
run across one of its cut lines."""
from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest

from conftest import REPO, cardforge
from cardforge.output.impose import OVERLAP, paper_size, plan_tiles
from cardforge.output.seams import KeepOut, crossings, spans
from cardforge.units import MM

GAMES = sorted(p.name for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file())
PT = 72 / 25.4  # points per mm
EDGE = 0.3  # mm: a word this close to a cut line is beside it, not through it


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("seams")
    result = cardforge("build", "--out", out, cwd=REPO, timeout=900)
    assert result.returncode == 0, result.stderr
    return out


def _tiles(manifest: dict) -> list[dict]:
    return [record for section in ("boards", "references") for record in manifest.get(section) or []]


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game", GAMES)
def test_no_word_of_a_board_is_crossed_by_a_seam(built, game, paper):
    pdf_path = built / game / f"{game}-kit-{paper}.pdf"
    manifest = json.loads(pdf_path.with_suffix(".manifest.json").read_text("utf-8"))
    crossed, seams = [], 0
    with pdfplumber.open(pdf_path) as pdf:
        for record in _tiles(manifest):
            tile = record["tile"]
            cuts = tile.get("cuts", [])
            if tile["cols"] * tile["rows"] > 1:
                assert cuts, f"{record['board']}: a tiled board's manifest gives its cut lines"
            seams += len(cuts)
            page = pdf.pages[record["page"] - 1]
            height = float(page.height) / PT
            ox, oy = tile["origin"]
            ww, wh = tile["window"][2:]
            for word in page.extract_words(use_text_flow=False, keep_blank_chars=False):
                x0, x1 = word["x0"] / PT, word["x1"] / PT
                y0, y1 = height - word["bottom"] / PT, height - word["top"] / PT
                if x1 <= ox or x0 >= ox + ww or y1 <= oy or y0 >= oy + wh:
                    continue  # outside the tile's window: clipped away, not printed
                for cut in cuts:
                    (axis, at), = cut.items()
                    low, high = (x0, x1) if axis == "x" else (y0, y1)
                    if low + EDGE < at < high - EDGE:
                        crossed.append((record["page"], record["board"], word["text"], cut))
    assert crossed == [], "\n".join(map(str, crossed))
    if game in ("iron-rain", "bombs-away"):  # boards larger than either paper: tiled, with seams to check
        assert seams > 0


def test_the_seam_goes_into_the_free_band():
    """A board 400 mm wide with words everywhere but a gutter from 190 to 215 mm: two tiles whose
    strip (both its cut lines) lies in the gutter, not at the even split (195 mm)."""
    words = tuple((x * MM, 0.0, 8 * MM, 10 * MM) for x in range(0, 190, 10)) + \
        tuple((x * MM, 0.0, 8 * MM, 10 * MM) for x in range(215, 400, 10))
    planned = spans(400 * MM, 270 * MM, OVERLAP, 2, KeepOut(hard=words), 0)
    assert planned is not None
    (first, second), cost = planned
    assert cost == (0, 0)
    assert 190 * MM <= second[0] and first[1] <= 215 * MM  # the strip from second[0] to first[1]
    assert first[1] - second[0] == pytest.approx(OVERLAP)


def test_a_seam_that_cannot_avoid_words_is_counted_and_reported():
    # Words edge to edge, their edges half a millimetre off the positions tried: no gutter at all.
    words = tuple(((x + 0.5) * MM, 0.0, 10 * MM, 10 * MM) for x in range(-10, 400, 10))
    (_, _), (cut, _) = spans(400 * MM, 270 * MM, OVERLAP, 2, KeepOut(hard=words), 0)
    assert cut == 2  # each of the two cut lines runs through a word
    frames = [{"name": "title", "type": "text", "box": [100.0, 50.0, 60.0, 10.0]},
              {"name": "map", "type": "image", "box": [0.0, 0.0, 400.0, 300.0]}]
    assert [f["name"] for f in crossings(frames, [("x", 130.0)])] == ["title"]
    assert crossings(frames, [("x", 170.0), ("y", 55.0 + 10)]) == []


def test_the_target_display_takes_four_landscape_tiles_on_letter():
    """420 x 372 mm with a 3 mm bleed: four landscape Letter tiles hold it (six before)."""
    tiles = plan_tiles("letter", 420 * MM, 372 * MM, 3 * MM)
    assert len(tiles) == 4 and tiles[0].page_w > tiles[0].page_h
    assert paper_size("letter")[0] < tiles[0].page_w
