"""The accessibility checks (cardforge/access/): contrast measured from the drawn faces, colour
vision and colour alone, as a designer sees them from `check --access` and `build --access`."""
from __future__ import annotations

import json
from itertools import combinations

import pytest

from cardforge.access.wcag import confusions, contrast, difference, hex_rgb, required
from conftest import cardforge, headlines, make_game

INKS_GAME = """\
id: inks
name: Inks
card_size: poker
bleed: 3mm
decks:
  - id: main
    name: Main cards
    cards: cards/cards.yaml
    front: front
    fields:
      title: {type: string}
      ink: {type: string}
"""

INKS_CARDS = """\
cards:
  - {id: grey76, title: "Grey seven six", ink: "#767676"}
  - {id: grey77, title: "Grey seven seven", ink: "#777777"}
  - {id: black, title: "Black ink", ink: "#000000"}
"""

INKS_FRONT = """\
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 88mm, bleed: true, fill: "#ffffff"}
  title: {type: text, x: 4mm, y: 10mm, width: 55mm, height: 10mm, text: "{{ card.title }}", size: 9pt,
          color: "{{ card.ink }}"}
"""


def _measured(game, name="main"):
    """{card id: (fill, background, ratio, required)} of each face's text runs, measured in process."""
    from cardforge.access.stage import measured_faces
    from cardforge.diagnostics import Report
    from cardforge.prepare import prepare
    prep = prepare(game, Report())
    return {face.piece.id: [tuple(run[1:5]) for run in face.result["runs"]] for face in measured_faces(prep)}


def test_contrast_is_read_back_from_the_drawn_faces_of_a_built_kit(tmp_path):
    game = make_game(tmp_path, name="inks", game_yaml=INKS_GAME, cards_yaml=INKS_CARDS, layout_yaml=INKS_FRONT,
                     back_layout_yaml=None)
    run = cardforge("build", game, "--access", "--paper", "a4", "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out" / "inks" / "inks-cards-a4.pdf").is_file()
    assert headlines(run.stderr) == [
        "content/inks/layouts/front.yaml:4:18: warning[W-ACCESS-CONTRAST]: frame 'title' of layout 'front': text "
        "#777777 on #ffffff has a contrast of 4.48:1, below the 4.5:1 WCAG asks of text under 18 pt (14 pt bold); "
        "on 1 face (grey77)"]
    assert "= help: darken the text or lighten what is behind it" in run.stderr
    runs = _measured(game)
    assert runs["grey76"] == [("#767676", "#ffffff", 4.542, 4.5)]  # passes, just
    assert runs["grey77"] == [("#777777", "#ffffff", 4.478, 4.5)]  # fails, just
    assert runs["black"] == [("#000000", "#ffffff", 21.0, 4.5)]
    # `check` runs the checks only when asked: its save-loop time is unchanged.
    plain = cardforge("check", game, cwd=tmp_path)
    assert plain.returncode == 0 and headlines(plain.stderr) == []


def test_the_background_is_what_is_drawn_behind_the_text_not_a_declared_colour(tmp_path):
    """Pale text over a dark picture band and over paper: each run is measured where it sits."""
    front = """\
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 88mm, bleed: true, fill: "#ffffff"}
  band: {type: shape, x: 0mm, y: 30mm, width: 63mm, height: 20mm, fill: "#1b1b1b"}
  on-band: {type: text, x: 4mm, y: 35mm, width: 55mm, height: 10mm, text: "On the band", size: 9pt, color: "#e0e0e0"}
  on-paper: {type: text, x: 4mm, y: 60mm, width: 55mm, height: 10mm, text: "On paper", size: 9pt, color: "#e0e0e0"}
"""
    game = make_game(tmp_path, name="inks", game_yaml=INKS_GAME, cards_yaml=INKS_CARDS, layout_yaml=front,
                     back_layout_yaml=None)
    runs = _measured(game)["black"]
    assert runs[0][:2] == ("#e0e0e0", "#1b1b1b") and runs[0][2] > 12
    assert runs[1][:2] == ("#e0e0e0", "#ffffff") and runs[1][2] < 1.5
    run = cardforge("check", game, "--access", cwd=tmp_path)
    assert [line.split(": warning")[0] for line in headlines(run.stderr)] == ["content/inks/layouts/front.yaml:5:106"]


def test_large_text_needs_3_to_1_and_bold_counts_from_14_pt(tmp_path):
    assert required(18, False) == 3.0 and required(17.5, False) == 4.5
    assert required(14, True) == 3.0 and required(14, False) == 4.5
    front = """\
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 88mm, bleed: true, fill: "#ffffff"}
  big: {type: text, x: 4mm, y: 5mm, width: 55mm, height: 12mm, text: "Big", size: 18pt, color: "#949494"}
  bold: {type: text, x: 4mm, y: 25mm, width: 55mm, height: 12mm, text: "Bold", size: 14pt, style: bold, color: "#949494"}
  plain: {type: text, x: 4mm, y: 45mm, width: 55mm, height: 12mm, text: "Plain", size: 14pt, color: "#949494"}
"""
    game = make_game(tmp_path, name="inks", game_yaml=INKS_GAME, cards_yaml=INKS_CARDS, layout_yaml=front,
                     back_layout_yaml=None)
    run = cardforge("check", game, "--access", cwd=tmp_path)
    lines = headlines(run.stderr)
    assert len(lines) == 1 and "frame 'plain'" in lines[0] and "3.03:1, below the 4.5:1" in lines[0], run.stderr


def test_clipped_and_covered_text_gives_no_report_and_tiled_boards_are_measured_whole(tmp_path):
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
  seam: {type: text, x: 100mm, y: 120mm, width: 200mm, height: 20mm, size: 30pt, align: center,
         text: "ACROSS EVERY TILE SEAM"}
"""
    game = make_game(tmp_path, name="inks", game_yaml=game_yaml, cards_yaml=INKS_CARDS, layout_yaml=front,
                     back_layout_yaml=None, layouts={"map": board})
    run = cardforge("build", game, "--access", "--paper", "a4", "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    manifest = json.loads((tmp_path / "out" / "inks" / "inks-boards-a4.manifest.json").read_text())
    tiles = [tile for tile in manifest["boards"] if tile["board"] == "map"]
    assert len(tiles) > 1 and all("tile" in tile for tile in tiles)  # in tiles, its text cut at their edges
    assert [line for line in headlines(run.stderr) if "W-ACCESS" in line] == []
    runs = _measured(game)
    assert runs["map"] == [("#000000", "#ffffff", 21.0, 3.0)]  # the whole text, once, at its own size
    assert runs["black"] == [("#000000", "#ffffff", 21.0, 4.5)]  # the covered run has no pixel: not measured


def test_a_frame_exempt_for_a_reason_wcag_gives_is_not_held_to_contrast(tmp_path):
    front = INKS_FRONT + """\
  logo: {type: text, x: 4mm, y: 70mm, width: 55mm, height: 10mm, text: "INKS", size: 9pt, color: "#eeeeee",
         access: {exempt: logo}}
"""
    game = make_game(tmp_path, name="inks", game_yaml=INKS_GAME, cards_yaml=INKS_CARDS, layout_yaml=front,
                     back_layout_yaml=None)
    run = cardforge("check", game, "--access", cwd=tmp_path)
    assert ["frame 'logo'" in line for line in headlines(run.stderr)] == [False]  # only grey77's title
    bad = make_game(tmp_path / "bad", name="inks", game_yaml=INKS_GAME, cards_yaml=INKS_CARDS,
                    layout_yaml=front.replace("exempt: logo", "exempt: ugly"), back_layout_yaml=None)
    run = cardforge("check", bad, cwd=tmp_path / "bad")
    assert run.returncode == 1
    line = [line for line in headlines(run.stderr) if "E-SCHEMA" in line or "E-LAYOUT" in line][0]
    assert line.startswith("content/inks/layouts/front.yaml:6:") and "ugly" in line, run.stderr


# -- colour vision ----------------------------------------------------------------------------

OKABE_ITO = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000"]


def test_wcag_contrast_of_known_pairs():
    assert round(contrast(hex_rgb("#767676"), hex_rgb("#ffffff")), 2) == 4.54
    assert round(contrast(hex_rgb("#777777"), hex_rgb("#ffffff")), 2) == 4.48
    assert contrast((0, 0, 0), (255, 255, 255)) == 21.0


def test_okabe_ito_passes_protanopia_and_deuteranopia():
    for vision, closest in (("protan", 12.2), ("deutan", 11.7)):
        worst = min(difference(a, b, vision) for a, b in combinations(OKABE_ITO, 2))
        assert round(worst, 1) == closest
    assert not [(a, b) for a, b in combinations(OKABE_ITO, 2)
                if any(name in ("protanopia", "deuteranopia") for name, _ in confusions(a, b))]
    # ... but it was not made for black-and-white printing: orange and sky blue are one grey.
    assert ("greyscale", pytest.approx(0.6, abs=0.05)) in confusions("#e69f00", "#56b4e9")


def test_a_red_and_green_deuteranopes_confuse_fails_and_so_do_colours_of_one_lightness():
    assert difference("#d62728", "#2ca02c") > 70  # far apart to normal vision
    assert [name for name, _ in confusions("#d62728", "#2ca02c")] == ["deuteranopia"]
    # Okabe-Ito's orange and sky blue: one lightness, one grey on a black-and-white printer.
    assert difference("#e69f00", "#56b4e9") > 40
    assert [name for name, _ in confusions("#e69f00", "#56b4e9")] == ["greyscale"]


SIDES_GAME = INKS_GAME.replace("ink: {type: string}", "ink: {type: string}\n      side: {type: string}")
SIDES_FRONT = """\
colors:
  red: "#d62728"
  green: "#2ca02c"
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 88mm, bleed: true, fill: "#ffffff"}
  band: {type: shape, x: 0mm, y: 0mm, width: 63mm, height: 12mm, bleed: true, fill: "{{ card.side }}"}
  title: {type: text, x: 4mm, y: 40mm, width: 55mm, height: 10mm, text: "{{ card.title }}", size: 9pt}
"""
SIDES_CARDS = """\
cards:
  - {id: r1, title: "One", ink: x, side: red}
  - {id: r2, title: "Two", ink: x, side: red}
  - {id: g1, title: "Three", ink: x, side: green}
  - {id: g2, title: "Four", ink: x, side: green}
"""


def test_categories_told_apart_by_colours_deuteranopes_confuse_are_reported_at_the_fill(tmp_path):
    game = make_game(tmp_path, name="inks", game_yaml=SIDES_GAME, cards_yaml=SIDES_CARDS, layout_yaml=SIDES_FRONT,
                     back_layout_yaml=None)
    run = cardforge("check", game, "--access", cwd=tmp_path)
    assert headlines(run.stderr) == [
        "content/inks/layouts/front.yaml:6:85: warning[W-ACCESS-VISION]: frame 'band' of layout 'front': nothing but "
        "its fill tells these faces apart, and #2ca02c on 2 faces (g1, …) and #d62728 on 2 faces (r1, …) look alike "
        "in deuteranopia (ΔE2000 5.0)"]
    # A label naming the side is a cue every viewer reads: no warning.
    labelled = SIDES_FRONT + '  side: {type: text, x: 4mm, y: 2mm, width: 55mm, height: 8mm, text: "{{ card.side | upper }}", size: 9pt, color: "#ffffff"}\n'
    game = make_game(tmp_path / "l", name="inks", game_yaml=SIDES_GAME, cards_yaml=SIDES_CARDS,
                     layout_yaml=labelled, back_layout_yaml=None)
    run = cardforge("check", game, "--access", cwd=tmp_path / "l")
    assert [line for line in headlines(run.stderr) if "VISION" in line or "COLOUR-ONLY" in line] == []


def test_colours_every_viewer_tells_apart_only_by_hue_are_colour_alone(tmp_path):
    front = SIDES_FRONT.replace('"#d62728"', '"#c0392b"').replace('"#2ca02c"', '"#27ae60"')
    game = make_game(tmp_path, name="inks", game_yaml=SIDES_GAME, cards_yaml=SIDES_CARDS, layout_yaml=front,
                     back_layout_yaml=None)
    run = cardforge("check", game, "--access", cwd=tmp_path)
    lines = headlines(run.stderr)
    assert len(lines) == 1 and "warning[W-ACCESS-COLOUR-ONLY]" in lines[0] and "differ by colour alone" in lines[0]
    # A lightness difference of 3:1 is a cue of its own (WCAG technique G183).
    front = SIDES_FRONT.replace('"#d62728"', '"#1b1b1b"').replace('"#2ca02c"', '"#7fd18b"')
    game = make_game(tmp_path / "d", name="inks", game_yaml=SIDES_GAME, cards_yaml=SIDES_CARDS, layout_yaml=front,
                     back_layout_yaml=None)
    run = cardforge("check", game, "--access", cwd=tmp_path / "d")
    assert [line for line in headlines(run.stderr) if "W-ACCESS" in line] == []


def test_measurements_are_kept_per_face_and_an_edit_redraws_only_its_face(tmp_path, monkeypatch):
    from cardforge.access import stage
    from cardforge.diagnostics import Report
    from cardforge.prepare import prepare
    game = make_game(tmp_path, name="inks", game_yaml=INKS_GAME, cards_yaml=INKS_CARDS, layout_yaml=INKS_FRONT,
                     back_layout_yaml=None)
    drawn: list[str] = []
    real = stage.draw_faces

    def counting(prep, faces):
        drawn.extend(face.piece.id for face in faces)
        return real(prep, faces)

    monkeypatch.setattr(stage, "draw_faces", counting)
    first = {f.piece.id: f.result for f in stage.measured_faces(prepare(game, Report()))}
    assert sorted(drawn) == ["black", "grey76", "grey77"]
    drawn.clear()
    again = {f.piece.id: f.result for f in stage.measured_faces(prepare(game, Report()))}
    assert drawn == [] and again == first  # from the disk cache, the same measurements
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace('ink: "#777777"', 'ink: "#595959"'))
    after = {f.piece.id: f.result for f in stage.measured_faces(prepare(game, Report()))}
    assert drawn == ["grey77"]
    assert after["grey77"]["runs"][0][:5] == ["title", "#595959", "#ffffff", 7.005, 4.5]


def test_a_repeat_frames_child_is_reported_once_at_its_own_line(tmp_path):
    game_yaml = INKS_GAME + """\
boards:
  - id: plan
    name: Plan
    size: {width: 150mm, height: 100mm}
    layout: plan
    data:
      slots: [{name: North}, {name: South}, {name: East}]
"""
    plan = """\
frames:
  paper: {type: shape, x: 0mm, y: 0mm, width: 150mm, height: 100mm, bleed: true, fill: "#cfdde6"}
  slots:
    type: repeat
    rows: board.slots
    x: 5mm
    y: 5mm
    width: 140mm
    height: 30mm
    cell: {width: 45mm, height: 30mm}
    columns: 3
    frames:
      hint: {type: text, x: 2mm, y: 2mm, width: 41mm, height: 10mm, text: "{{ row.name }}", size: 8pt, color: "#6b6455"}
"""
    game = make_game(tmp_path, name="inks", game_yaml=game_yaml, cards_yaml=INKS_CARDS.replace("#777777", "#000000"),
                     layout_yaml=INKS_FRONT, back_layout_yaml=None, layouts={"plan": plan})
    run = cardforge("check", game, "--access", cwd=tmp_path)
    assert headlines(run.stderr) == [
        "content/inks/layouts/plan.yaml:13:111: warning[W-ACCESS-CONTRAST]: frame 'hint' of layout 'plan': text "
        "#6b6455 on #cfdde6 has a contrast of 4.23:1, below the 4.5:1 WCAG asks of text under 18 pt (14 pt bold); "
        "on 1 face (plan)"], run.stderr
