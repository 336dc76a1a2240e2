"""Designs that forgive the printer: a two-sided piece whose back or front draws a border or a
colour edge within 3 mm of the trim is a warning at that frame's line, since a duplex
misregistration of a millimetre shows there; colour carried into the bleed, or an edge 3 mm or
more inside, is quiet. The five games' kits pass."""
from __future__ import annotations

import pytest

from conftest import BACK_LAYOUT, REPO, cardforge, headlines, make_game

BACK = "content/tiny/layouts/back.yaml"
GAMES = ["bombs-away", "steel-rain", "war-eagles", "bomber-boys", "iron-rain"]


def _back_with(frame: str) -> str:
    return BACK_LAYOUT + frame


def test_a_border_1mm_from_the_trim_warns_at_its_line(tmp_path):
    back = _back_with("  border: {type: shape, shape: rounded, x: 1mm, y: 1mm, width: 61mm, height: 86mm, "
                      "stroke: black, stroke_width: 1pt}\n")
    make_game(tmp_path, back_layout_yaml=back)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    line = back.splitlines().index(next(l for l in back.splitlines() if l.startswith("  border:"))) + 1
    assert headlines(result.stderr) == [
        f"{BACK}:{line}:3: warning[W-DUPLEX-EDGE]: frame 'border' of layout 'back' draws a border line 1.0 mm from "
        "the left trim of a two-sided piece: a duplex misregistration of a millimetre shows there"], result.stderr
    assert ("= help: extend the colour into the bleed ('bleed: true', reaching the trim) or move the edge in "
            "at least 3 mm from the trim") in result.stderr


def test_a_border_4mm_in_is_quiet(tmp_path):
    make_game(tmp_path, back_layout_yaml=_back_with(
        "  border: {type: shape, shape: rounded, x: 4mm, y: 4mm, width: 55mm, height: 80mm, "
        "stroke: black, stroke_width: 1pt}\n"))
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "W-DUPLEX-EDGE" not in result.stderr


def test_a_colour_change_near_the_trim_warns_and_a_full_bleed_one_does_not(tmp_path):
    """A dark ground with a pale panel 2 mm in is a hard edge; the same ground bled alone is not;
    a fill that stops at the trim without bleed leaves a white sliver, so it warns too."""
    ground = "  ground: {type: shape, fill: '#1f3a5f', bleed: true}\n"
    panel = "  panel: {type: shape, x: 2mm, y: 2mm, width: 59mm, height: 84mm, fill: '#f4efe1'}\n"
    bare = "  ground: {type: shape, fill: '#1f3a5f'}\n"
    expected = {ground + panel: ["panel"], ground: [], bare: ["ground"]}
    for frames, warned in expected.items():
        make_game(tmp_path, back_layout_yaml=BACK_LAYOUT.replace("frames:\n", "frames:\n" + frames))
        result = cardforge("check", "content/tiny", cwd=tmp_path)
        found = [h.split("frame '")[1].split("'")[0] for h in headlines(result.stderr) if "W-DUPLEX-EDGE" in h]
        assert found == warned, (frames, result.stderr)


def test_a_panel_the_colour_of_its_ground_draws_no_edge(tmp_path):
    frames = ("  ground: {type: shape, fill: '#1f3a5f', bleed: true}\n"
              "  panel: {type: shape, x: 2mm, y: 2mm, width: 59mm, height: 84mm, fill: '#1f3a5f'}\n")
    make_game(tmp_path, back_layout_yaml=BACK_LAYOUT.replace("frames:\n", "frames:\n" + frames))
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert "W-DUPLEX-EDGE" not in result.stderr, result.stderr


@pytest.mark.parametrize("game", GAMES)
def test_the_games_forgive_the_printer(game):
    result = cardforge("check", f"content/{game}", cwd=REPO, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "W-DUPLEX-EDGE" not in result.stderr, result.stderr
