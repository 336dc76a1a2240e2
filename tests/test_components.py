"""Boards, tokens, reference sheets and the kit, read back from the PDFs a user would print."""
from __future__ import annotations

import math
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from conftest import MM, cardforge, crosshairs, headlines, load_manifest, make_game
from cardforge.output.impose import OVERLAP

COMPONENT_GAME = """\
id: parts
name: Parts Game
card_size: poker
bleed: 3mm
decks:
  - id: main
    name: Main cards
    cards: cards/cards.yaml
    front: front
    back: back
    fields:
      title: {type: string}
      text: {type: string}
      cost: {type: integer}
tokens:
  - id: discs
    name: Discs
    cards: tokens/discs.yaml
    front: disc
    size: {width: 15mm, height: 15mm}
    shape: round
    bleed: 1mm
    gap: 2mm
    fields:
      label: {type: string}
  - id: chits
    name: Chits
    cards: tokens/chits.yaml
    front: chit
    back: chit-back
    size: {width: 20mm, height: 20mm}
    bleed: 1mm
    gap: 3mm
    fields:
      value: {type: integer}
boards:
  - id: big-board
    name: Big board
    size: {width: 400mm, height: 260mm}
    layout: board
    data:
      steps: ["4", "3", "2", "1", "0"]
references:
  - id: ref
    name: Reference
    size: {width: 180mm, height: 240mm}
    layout: reference
tables:
  scores:
    - {score: "10", rating: Perfect Performance}
    - {score: "7 to 8", rating: Honorable Showing}
    - {score: "0 to 2", rating: Utter Disappointment}
"""

DISCS = """\
cards:
  - {id: red-disc, quantity: 7, label: RED}
  - {id: blue-disc, quantity: 5, label: BLUE}
"""

CHITS = """\
cards:
  - {id: chit-one, value: 1}
  - {id: chit-two, value: 2}
"""

LAYOUTS = {
    "disc": 'frames:\n  bg: {type: shape, fill: "#cc3333", bleed: true}\n'
            '  label: {type: text, x: 2mm, y: 5mm, width: 11mm, height: 5mm, text: "{{ card.label }}", size: 6pt, align: center}\n',
    "chit": 'frames:\n  value: {type: text, x: 2mm, y: 5mm, width: 16mm, height: 10mm, text: "FRONT {{ card.value }}", size: 8pt, align: center}\n',
    "chit-back": 'frames:\n  value: {type: text, x: 2mm, y: 5mm, width: 16mm, height: 10mm, text: "BACK {{ card.value }}", size: 8pt, align: center}\n',
    "board": """\
frames:
  bg: {type: shape, fill: "#e0d8c0", bleed: true}
  title: {type: text, x: 10mm, y: 10mm, width: 200mm, height: 15mm, text: "BIG BOARD", size: 24pt}
  vp: {type: track, x: 0mm, y: 0mm, width: 400mm, height: 260mm, path: perimeter, from: 0, to: 49, min_space: 12mm, size: 8pt}
  steps: {type: track, x: 40mm, y: 60mm, width: 100mm, height: 20mm, labels: "board.steps"}
""",
    "reference": """\
frames:
  scores:
    type: table
    x: 10mm
    y: 20mm
    width: 160mm
    height: 60mm
    rows: "tables.scores"
    columns:
      - {header: "Your score", value: "{{ row.score }}", align: center}
      - {header: "Your rating", value: "{{ row.rating }}"}
    size: 10pt
    min_size: 7pt
""",
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("parts")
    game = make_game(tmp, name="parts", game_yaml=COMPONENT_GAME, layouts=LAYOUTS,
                     files={"tokens/discs.yaml": DISCS, "tokens/chits.yaml": CHITS})
    out = tmp / "out"
    run = cardforge("build", game, "--out", out, cwd=tmp)
    assert run.returncode == 0, run.stderr
    return out / "parts"


def _pages(pdf: Path):
    return pdfplumber.open(str(pdf)).pages


def test_every_component_gets_its_own_pdf_and_the_kit_has_them_all(kit):
    for section in ("cards", "boards", "tokens", "references", "kit"):
        for paper in ("a4", "letter"):
            assert (kit / f"parts-{section}-{paper}.pdf").is_file()
    manifest = load_manifest(kit / "parts-kit-a4.manifest.json")
    sections = [p["section"] for p in manifest["pages"]]
    assert sections[0] == "cover"
    # Cover, the print and assembly guide, then cards, boards, references, in that order: the tokens,
    # on card stock like the cards, fill the last card sheet rather than a sheet of their own.
    order = [s for i, s in enumerate(sections) if i == 0 or sections[i - 1] != s]
    assert order == ["cover", "guide", "cards", "boards", "references"]
    tokens = load_manifest(kit / "parts-tokens-a4.manifest.json")
    shared = {r["page"] for r in manifest["tokens"]}
    assert shared and shared <= {r["page"] for r in manifest["cards"]}
    # The tokens' PDF holds those sheets (both sides of each), every token in it.
    sheets = sorted({n if n % 2 else n - 1 for n in shared})
    assert [p["content"] for p in tokens["pages"]] == \
        [manifest["pages"][n - 1 + side]["content"] for n in sheets for side in (0, 1)]
    assert len(tokens["tokens"]) == len(manifest["tokens"]) and tokens["decks"] == ["discs", "chits"]
    contents = {c["name"]: c["page"] for c in manifest["contents"]}
    assert manifest["pages"][contents["Big board"] - 1]["content"].startswith("Big board")
    assert manifest["pages"][contents["Reference"] - 1]["content"] == "Reference"
    # The cover's contents list is printed with those page numbers.
    cover_text = _pages(kit / "parts-kit-a4.pdf")[0].extract_text()
    assert "Contents" in cover_text and "Big board" in cover_text
    assert f"Reference {contents['Reference']}" in " ".join(cover_text.split()).replace(" . ", " ")


def test_tiled_board_overlaps_by_the_stated_amount(kit):
    manifest = load_manifest(kit / "parts-boards-a4.manifest.json")
    tiles = manifest["boards"]
    assert len(tiles) > 1
    by_pos = {(t["tile"]["row"], t["tile"]["col"]): t["tile"] for t in tiles}
    for (row, col), tile in by_pos.items():
        right = by_pos.get((row, col + 1))
        if right:
            overlap = tile["window"][0] + tile["window"][2] - right["window"][0]
            assert overlap == pytest.approx(OVERLAP / MM, abs=0.01)  # 8 mm
        below = by_pos.get((row + 1, col))
        if below:
            overlap = below["window"][1] + below["window"][3] - tile["window"][1]
            assert overlap == pytest.approx(OVERLAP / MM, abs=0.01)
    # Together the tiles cover the whole board and its bleed.
    xs = [t["window"][0] + t["window"][2] for t in by_pos.values()]
    ys = [t["window"][1] + t["window"][3] for t in by_pos.values()]
    assert max(xs) == pytest.approx(406.0, abs=0.01) and max(ys) == pytest.approx(266.0, abs=0.01)


def test_alignment_marks_coincide_when_the_tiles_are_laid_out(kit):
    manifest = load_manifest(kit / "parts-boards-a4.manifest.json")
    pages = _pages(kit / "parts-boards-a4.pdf")
    seen: dict[tuple[float, float], int] = {}
    for tile in manifest["boards"]:
        page = pages[tile["page"] - 1]
        marks = crosshairs(page)
        assert len(marks) == len(tile["marks"]) > 0
        ox, oy = tile["tile"]["origin"]
        wx, wy = tile["tile"]["window"][:2]
        for px, py in marks:
            # Page position -> position on the assembled board (mm from the bleed box's lower left).
            bx, by = round(px / MM - ox + wx, 1), round(py / MM - oy + wy, 1)
            seen[(bx, by)] = seen.get((bx, by), 0) + 1
    # Every mark printed on one tile is printed at the same board position on its neighbour.
    assert seen and all(count == 2 for count in seen.values()), seen


def test_perimeter_track_numbers_every_space(kit):
    board = load_manifest(kit / "parts-boards-a4.manifest.json")["boards"][0]
    track = next(f for f in board["frames"] if f["name"] == "vp")
    assert track["labels"] == [str(i) for i in range(50)]
    cells = track["cells"]
    assert len(cells) == 50
    assert all(c[2] >= 12 - 0.01 and c[3] >= 12 - 0.01 for c in cells)
    steps = next(f for f in board["frames"] if f["name"] == "steps")
    assert steps["labels"] == ["4", "3", "2", "1", "0"]


def test_token_sizes_and_counts_match_the_data(kit):
    manifest = load_manifest(kit / "parts-tokens-a4.manifest.json")
    discs = [t for t in manifest["tokens"] if t["deck"] == "discs"]
    assert sum(1 for t in discs if t["card"] == "red-disc") == 7
    assert sum(1 for t in discs if t["card"] == "blue-disc") == 5
    for token in discs:
        assert token["trim"][2] == pytest.approx(15.0, abs=0.01)
        assert token["trim"][3] == pytest.approx(15.0, abs=0.01)
    # Neighbours are separated by the gap plus both bleeds.
    first_row = sorted((t["trim"][0] for t in discs if t["page"] == discs[0]["page"] and t["trim"][1] == discs[0]["trim"][1]))
    assert first_row[1] - first_row[0] == pytest.approx(15 + 2 * 1 + 2, abs=0.01)
    # Round tokens get a circular cut guide of their trim size.
    page = _pages(kit / "parts-tokens-a4.pdf")[discs[0]["page"] - 1]
    circles = [c for c in page.curves if abs((c["x1"] - c["x0"]) - 15 * MM) < 0.2 and abs((c["bottom"] - c["top"]) - 15 * MM) < 0.2]
    assert len(circles) >= 12


def test_double_sided_token_back_lands_behind_its_front(kit):
    manifest = load_manifest(kit / "parts-tokens-a4.manifest.json")
    pages = {p["page"]: p for p in manifest["pages"]}
    chits = [t for t in manifest["tokens"] if t["deck"] == "chits"]
    fronts = {t["card"]: t for t in chits if t["side"] == "front"}
    backs = {t["card"]: t for t in chits if t["side"] == "back"}
    assert fronts.keys() == backs.keys() == {"chit-one", "chit-two"}
    for card, front in fronts.items():
        back = backs[card]
        assert back["page"] == front["page"] + 1
        page_w, page_h = pages[front["page"]]["size"]
        x, y, w, h = front["trim"]
        expected = (page_w - x - w, y) if page_h >= page_w else (x, page_h - y - h)
        assert back["trim"][0] == pytest.approx(expected[0], abs=0.1)
        assert back["trim"][1] == pytest.approx(expected[1], abs=0.1)
        # The back's text really is the back side's.
        page = _pages(kit / "parts-tokens-a4.pdf")[back["page"] - 1]
        bx, by, bw, bh = back["trim"]
        box = (bx * MM, page.height - (by + bh) * MM, (bx + bw) * MM, page.height - by * MM)
        assert "BACK" in page.crop(box).extract_text()


def test_every_page_has_a_50mm_scale_bar_and_says_print_at_100_percent(kit):
    pdf = kit / "parts-kit-letter.pdf"
    manifest = load_manifest(kit / "parts-kit-letter.manifest.json")
    for page, entry in zip(_pages(pdf), manifest["pages"]):
        a, b, c = entry["scale_bar"]
        # along the bottom: [x0, y0, x1]; up the left margin (pieces fill the page's height): [x, y0, y1]
        along = [ln for ln in page.lines
                 if abs(ln["y0"] - ln["y1"]) < 0.01 and abs(ln["x0"] - a * MM) < 0.05
                 and abs(page.height - ln["top"] - b * MM) < 0.05]
        up = [ln for ln in page.lines
              if abs(ln["x0"] - ln["x1"]) < 0.01 and abs(ln["x0"] - a * MM) < 0.05
              and abs(page.height - ln["bottom"] - b * MM) < 0.05]
        assert along or up, f"no scale bar on page {entry['page']}"
        bar = (along or up)[0]
        length = bar["x1"] - bar["x0"] if along else bar["bottom"] - bar["top"]
        assert length / MM == pytest.approx(50.0, abs=0.01) and (c - (a if along else b)) == pytest.approx(50.0)
        upward = "".join(ch["text"] for ch in sorted((ch for ch in page.chars if not ch["upright"]),
                                                      key=lambda ch: -ch["top"]))  # a footer up the margin
        assert "print at 100% / actual size" in page.extract_text() + upward


def test_reference_table_cells_hold_the_data(kit):
    manifest = load_manifest(kit / "parts-references-a4.manifest.json")
    sheet = manifest["references"][0]
    table = next(f for f in sheet["frames"] if f["type"] == "table")
    assert table["header"] == ["Your score", "Your rating"]
    assert table["rows"] == [["10", "Perfect Performance"], ["7 to 8", "Honorable Showing"],
                             ["0 to 2", "Utter Disappointment"]]
    page = _pages(kit / "parts-references-a4.pdf")[sheet["page"] - 1]
    x, y, w, h = table["box"]
    text = " ".join(page.crop((x * MM, page.height - (y + h) * MM, (x + w) * MM, page.height - y * MM))
                    .extract_text().split())
    for score, rating in table["rows"]:
        assert f"{score} {rating}" in text
    # Zebra shading: a filled rectangle behind the second data row only.
    assert sum(table["columns"]) == pytest.approx(160.0, abs=0.05)


def test_real_bomber_boys_kit_has_every_component(tmp_path):
    out = tmp_path / "out"
    run = cardforge("build", Path("content/bomber-boys"), "--paper", "a4", "--out", out,
                    cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 0, run.stderr
    manifest = load_manifest(out / "bomber-boys" / "bomber-boys-kit-a4.manifest.json")
    names = {c["name"] for c in manifest["contents"]}
    assert {"Crew cards", "Bombing run cards", "Mission cards (target on the back)", "Player mat",
            "Damage tokens", "Focus tokens (double-sided)", "Reference sheet"} <= names
    tokens = manifest["tokens"]
    count = {cid: sum(1 for t in tokens if t["card"] == cid and t["side"] == "front")
             for cid in ("minor-damage", "major-damage", "enemy-damage")}
    assert count == {"minor-damage": 14, "major-damage": 5, "enemy-damage": 14}
    focus = {t["card"] for t in tokens if t["deck"] == "focus-tokens" and t["side"] == "back"}
    assert len(focus) == 4
    mat = [b for b in manifest["boards"] if b["board"] == "player-mat"]
    locations = next(f for f in mat[0]["frames"] if f["name"] == "locations")
    assert locations["labels"] == [str(i) for i in range(1, 11)]


# -- problems are diagnostics, never drawn wrong ------------------------------------------------

def _broken(tmp_path, board_layout: str, extra_game: str = "", tokens: dict | None = None):
    game_yaml = COMPONENT_GAME.split("tokens:\n")[0] + extra_game + """\
boards:
  - id: small
    name: Small board
    size: {width: 100mm, height: 80mm}
    layout: small
"""
    files = {"tokens/discs.yaml": DISCS}
    files.update(tokens or {})
    game = make_game(tmp_path, name="broken", game_yaml=game_yaml, layouts={**LAYOUTS, "small": board_layout},
                     files=files)
    return cardforge("check", game, cwd=tmp_path)


def test_region_outside_the_board_is_reported(tmp_path):
    run = _broken(tmp_path, "frames:\n  box: {type: shape, x: 80mm, y: 10mm, width: 30mm, height: 10mm, fill: black}\n")
    assert run.returncode == 1
    assert headlines(run.stderr)[0] == (
        "content/broken/layouts/small.yaml:2:3: error[E-LAYOUT-BOUNDS]: frame 'box' (80, 10, 30 x 10 mm) "
        "lies outside the 100 x 80 mm piece")
    assert "Traceback" not in run.stderr


def test_track_without_room_for_its_spaces_is_reported(tmp_path):
    layout = "frames:\n  track: {type: track, x: 5mm, y: 5mm, width: 90mm, height: 10mm, from: 1, to: 30}\n"
    game = make_game(tmp_path, name="broken", game_yaml=COMPONENT_GAME.split("tokens:\n")[0] + """\
boards:
  - id: small
    name: Small board
    size: {width: 100mm, height: 80mm}
    layout: small
""", layouts={"small": layout})
    run = cardforge("build", game, "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 1
    assert headlines(run.stderr)[0] == (
        "content/broken/game.yaml:16:5: error[E-TRACK-ROOM]: board 'small' (front), frame 'track' of layout "
        "'small': a track of 30 spaces needs 150.0 mm at 5.0 mm per space but the frame is 90.0 mm long (room for 18)")


def test_table_wider_than_its_sheet_is_reported(tmp_path):
    layout = """\
frames:
  t:
    type: table
    x: 5mm
    y: 5mm
    width: 30mm
    height: 60mm
    rows: "tables.scores"
    columns:
      - {header: "Score", value: "{{ row.score }}"}
      - {header: "Rating", value: "{{ row.rating }}"}
      - {header: "Unbreakable", value: "Extraordinarily"}
    size: 10pt
    min_size: 8pt
"""
    game = make_game(tmp_path, name="broken", game_yaml=COMPONENT_GAME.split("tokens:\n")[0] + """\
boards:
  - id: small
    name: Small board
    size: {width: 100mm, height: 80mm}
    layout: small
tables:
  scores:
    - {score: "10", rating: Perfect}
""", layouts={"small": layout})
    run = cardforge("build", game, "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 1
    first = headlines(run.stderr)[0]
    assert first.startswith("content/broken/game.yaml:16:5: error[E-TABLE-WIDTH]: board 'small' (front), frame 't' "
                            "of layout 'small': the table needs at least ")
    assert first.endswith("mm for its 3 columns at 10 pt but the frame is 30.0 mm wide")


def test_token_sheet_that_cannot_fit_its_pieces_is_reported(tmp_path):
    game_yaml = COMPONENT_GAME.split("boards:\n")[0].replace("size: {width: 15mm, height: 15mm}",
                                                            "size: {width: 300mm, height: 300mm}")
    game = make_game(tmp_path, name="broken", game_yaml=game_yaml, layouts=LAYOUTS,
                     files={"tokens/discs.yaml": DISCS, "tokens/chits.yaml": CHITS})
    run = cardforge("build", game, "--out", tmp_path / "out", cwd=tmp_path)
    assert run.returncode == 1
    assert headlines(run.stderr)[0] == (
        "content/broken/game.yaml:16:5: error[E-IMPOSE]: pieces of 'discs' (300 x 300 mm) do not fit on A4 paper")
    assert not (tmp_path / "out" / "broken").exists() or not list((tmp_path / "out" / "broken").glob("*.pdf"))


def test_the_kit_is_read_back_once_for_its_check_and_every_component_cut_from_it(tmp_path, monkeypatch):
    """Reading a PDF parses every object of it; the kit is read once, verified, and every component
    copied from and compared with that one reading (output/pdfcopy.py)."""
    from cardforge.output import pdfcopy
    from cardforge.output.build import build_game
    from cardforge.verify import pdfobjects
    opened: list[str] = []

    class CountingReader(pdfobjects.LeanReader):
        def __init__(self, path, *args, **kwargs):
            opened.append(Path(str(path)).name)
            super().__init__(path, *args, **kwargs)

    monkeypatch.setattr(pdfobjects, "LeanReader", CountingReader)  # the verifier's
    monkeypatch.setattr(pdfcopy, "LeanReader", CountingReader)  # the cutter's
    game = make_game(tmp_path, name="parts", game_yaml=COMPONENT_GAME, layouts=LAYOUTS,
                     files={"tokens/discs.yaml": DISCS, "tokens/chits.yaml": CHITS})
    result = build_game(game, tmp_path / "out", papers=("a4",))
    assert not result.report.has_errors(), result.report.format_text()
    components = sorted(p.name for p in result.outputs if p.suffix == ".pdf" and "-kit-" not in p.name)
    assert components == ["parts-boards-a4.pdf", "parts-cards-a4.pdf", "parts-guide-a4.pdf",
                          "parts-references-a4.pdf", "parts-tokens-a4.pdf"]
    # Once to splice in the guide's page that prints each page's ink, drawn again with the figures
    # (output/ink.py: the kit and that page), then once for the check and every component: not
    # 1 + 2 per component.
    assert sorted(name for name in opened if "kit" in name) == ["parts-kit-a4.pdf.ink.tmp", "parts-kit-a4.pdf.tmp",
                                                                "parts-kit-a4.pdf.tmp"]
    assert len([name for name in opened if "kit" not in name]) == len(components)  # each copy read back once
