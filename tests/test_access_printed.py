"""Contrast read back from the built PDF file (access/printed.py): what the printer gets.  The
checks measure faces as the renderer draws them (test_access.py); these tests build the kit and
measure the written file's pages, so that what is printed is held to the same figures."""
from __future__ import annotations

from cardforge.access.printed import printed_contrast
from conftest import cardforge, make_game
from test_access import INKS_CARDS, INKS_FRONT, INKS_GAME


def _built(tmp_path, **kw):
    game = make_game(tmp_path, name="inks", game_yaml=kw.pop("game_yaml", INKS_GAME), cards_yaml=INKS_CARDS,
                     back_layout_yaml=None, **kw)
    run = cardforge("build", game, "--paper", "a4", "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    return tmp_path / "out" / "inks"


def test_contrast_read_back_from_a_built_pdf(tmp_path):
    out = _built(tmp_path, layout_yaml=INKS_FRONT)
    runs = {run.text: run for run in printed_contrast(out / "inks-cards-a4.pdf")}
    passing, failing, black = runs["Grey seven six"], runs["Grey seven seven"], runs["Black ink"]
    assert (passing.fill, passing.background, passing.ratio, passing.required) == ("#767676", "#ffffff", 4.542, 4.5)
    assert passing.ratio >= passing.required  # 4.54:1 passes, just
    assert (failing.fill, failing.background, failing.ratio, failing.required) == ("#777777", "#ffffff", 4.478, 4.5)
    assert failing.ratio < failing.required  # 4.48:1 fails, just
    assert (black.fill, black.background, black.ratio) == ("#000000", "#ffffff", 21.0)
    assert black.pixels > 100  # a 9 pt title at 144 dpi: hundreds of glyph pixels, all read
    # The same figures as the check measures on the renderer's faces (test_access.py): the kit prints what was checked.
    assert {run.page for run in (passing, failing, black)} == {1}


def test_clipped_text_on_a_tiled_board_and_covered_text_give_no_report(tmp_path):
    game_yaml = INKS_GAME + """\
boards:
  - id: map
    name: Map
    size: {width: 400mm, height: 260mm}
    layout: map
"""
    front = """\
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 88mm, bleed: true, fill: "#ffffff"}
  faint: {type: text, x: 4mm, y: 10mm, width: 55mm, height: 10mm, text: "Hidden", size: 9pt, color: "#eeeeee"}
  cover: {type: shape, x: 2mm, y: 8mm, width: 59mm, height: 14mm, fill: "#203040"}
  title: {type: text, x: 4mm, y: 40mm, width: 55mm, height: 10mm, text: "{{ card.title }}", size: 9pt}
"""
    board = """\
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 400mm, height: 260mm, bleed: true, fill: "#ffffff"}
  seam: {type: text, x: 5mm, y: 105mm, width: 390mm, height: 50mm, size: 40pt, align: center,
         text: "ACROSS EVERY TILE SEAM OF THE MAP, FROM ONE EDGE TO THE OTHER"}
"""
    out = _built(tmp_path, game_yaml=game_yaml, layout_yaml=front, layouts={"map": board})
    board_runs = printed_contrast(out / "inks-boards-a4.pdf")
    sentence = "ACROSS EVERY TILE SEAM OF THE MAP, FROM ONE EDGE TO THE OTHER"
    seam = [run for run in board_runs if run.text and run.text in sentence]  # a line of it
    assert len({run.page for run in seam}) >= 2  # cut at a seam: a part of each line on two tiles, clipped there
    assert all((run.fill, run.background, run.ratio) == ("#000000", "#ffffff", 21.0) for run in seam)
    assert [run for run in board_runs if run.ratio < run.required] == []  # no clipped fragment reads as faint
    card_runs = printed_contrast(out / "inks-cards-a4.pdf")
    assert "Hidden" not in {run.text for run in card_runs}  # covered: no pixel of it prints
    assert [run for run in card_runs if run.ratio < run.required] == []  # the titles are black now
