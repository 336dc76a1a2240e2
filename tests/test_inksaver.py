"""The ink-saver kit (`build --ink-saver`, output/inksaver.py) and ink coverage (output/ink.py).

What the printer lays down is read back from the PDFs written: pixels of the rendered pages
(paper where a background was, the background's colour at the edge, text in a colour that reads
on paper), the text of the cards, the files' names and the manifests' ink figures."""
from __future__ import annotations

import io
import json
import shutil

import numpy as np
import pdfplumber
import pytest
from PIL import Image

from cardforge.output.ink import page_coverage, percent, pixels_coverage
from conftest import REPO, cardforge, headlines, make_game

MM = 72 / 25.4
NAVY = (0x1f, 0x3a, 0x5f)

DARK_FRONT = """\
colors: {navy: "#1f3a5f", cream: "#f4efe1"}
frames:
  background: {type: shape, fill: navy, bleed: true}
  badge: {type: shape, shape: ellipse, x: 4mm, y: 70mm, width: 12mm, height: 12mm, fill: navy}
  badge-number: {type: text, x: 4mm, y: 70mm, width: 12mm, height: 12mm, text: "{{ card.cost }}", color: white, align: center, valign: middle, size: 14pt, style: bold}
  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 10mm, text: "{{ card.title }}", style: bold, size: 16pt, color: cream}
  text: {type: text, x: 4mm, y: 20mm, width: 55mm, height: 30mm, text: "{{ card.text }}", size: 9pt, color: "{{ 'white' if card.cost > 1 else 'cream' }}"}
"""

DARK_BACK = """\
colors: {navy: "#1f3a5f"}
frames:
  background: {type: shape, fill: navy, bleed: true}
  panel: {type: shape, shape: rounded, x: 6mm, y: 6mm, width: 51mm, height: 76mm, fill: "#2b4a72"}
  pattern: {type: icon_row, x: 8mm, y: 10mm, width: 47mm, height: 6mm, icon: star, count: 6, color: "#34557f"}
  label: {type: text, x: 4mm, y: 40mm, width: 55mm, height: 8mm, text: "TINY BACK", align: center, size: 14pt, style: bold, color: white}
"""

STAR = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0 L6 4 L10 4 L7 6 L8 10 L5 7 '
        'L2 10 L3 6 L0 4 L4 4 Z"/></svg>')


def _game(tmp_path, front: str = DARK_FRONT, back: str = DARK_BACK):
    return make_game(tmp_path, layout_yaml=front, back_layout_yaml=back, files={"icons/star.svg": STAR})


def _build(tmp_path, *extra: str):
    result = cardforge("build", "content/tiny", "--paper", "a4", "--out", "out", *extra, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result


def _page(pdf, number: int, dpi: int = 100) -> Image.Image:
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[number - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def _near(pixel, colour, tolerance=24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def _first_card(manifest: dict, side: str = "front") -> dict:
    return next(r for r in manifest["cards"] if r["card"] == "alpha" and (r.get("side", "front") == side))


def _card_box_px(manifest: dict, record: dict, dpi: int) -> tuple[float, float, float, float]:
    """The trim box of a card record (mm, from the page's bottom-left) in pixels from the top-left."""
    page = manifest["pages"][record["page"] - 1]
    x, y, w, h = record["box"] if "box" in record else record["trim"]
    scale = dpi / 25.4
    return x * scale, (page["size"][1] - y - h) * scale, w * scale, h * scale


def test_the_ink_saver_kit_is_a_variant_beside_the_kit(tmp_path):
    _game(tmp_path)
    _build(tmp_path)
    result = _build(tmp_path, "--ink-saver", "-v")
    out = tmp_path / "out" / "tiny"
    assert "wrote out/tiny/tiny-kit-inksaver-a4.pdf" in result.stdout
    names = sorted(p.name for p in out.glob("*.pdf"))
    assert "tiny-kit-a4.pdf" in names and "tiny-kit-inksaver-a4.pdf" in names  # the full-colour kit stays
    assert "tiny-cards-inksaver-a4.pdf" in names and "tiny-guide-inksaver-a4.pdf" in names
    manifest = json.loads((out / "tiny-kit-inksaver-a4.manifest.json").read_text())
    assert manifest["ink_saver"] is True
    assert "ink_saver" not in json.loads((out / "tiny-kit-a4.manifest.json").read_text())
    with pdfplumber.open(out / "tiny-kit-inksaver-a4.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert "Alpha" in text and "First card" in text and "TINY BACK" in text  # every text still printed


def test_a_dark_background_becomes_paper_with_a_coloured_edge(tmp_path):
    _game(tmp_path)
    _build(tmp_path)
    _build(tmp_path, "--ink-saver")
    out = tmp_path / "out" / "tiny"
    manifest = json.loads((out / "tiny-cards-inksaver-a4.manifest.json").read_text())
    record = _first_card(manifest)
    dpi = 100
    x, y, w, h = _card_box_px(manifest, record, dpi)
    for name, expected_middle in (("tiny-cards-a4.pdf", NAVY), ("tiny-cards-inksaver-a4.pdf", (255, 255, 255))):
        image = _page(out / name, record["page"], dpi)
        middle = image.getpixel((int(x + w * 0.8), int(y + h * 0.6)))  # no frame there: the background
        assert _near(middle, expected_middle), (name, middle)
    image = _page(out / "tiny-cards-inksaver-a4.pdf", record["page"], dpi)
    edge = image.getpixel((int(x + 0.8 * dpi / 25.4), int(y + h / 2)))  # 0.8 mm inside the trim: the edge
    assert _near(edge, NAVY), edge
    beyond = image.getpixel((int(x - 2.5 * dpi / 25.4), int(y + h / 2)))  # 2.5 mm out, in the bleed: paper
    assert _near(beyond, (255, 255, 255)), beyond
    badge = image.getpixel((int(x + 10 * dpi / 25.4), int(y + 73 * dpi / 25.4)))  # a small fill stays
    assert _near(badge, NAVY), badge


def _char_colours(pdf_path, page_number: int, text: str) -> set:
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[page_number - 1]
        words = "".join(c["text"] for c in page.chars)
        start = words.index(text)
        return {tuple(round(v, 2) for v in page.chars[i]["non_stroking_color"]) for i in range(start, start + len(text))}


def test_faint_text_on_a_background_left_out_takes_its_colour(tmp_path):
    """Cream and white text on navy would vanish on paper: it is printed navy.  White text on the
    navy badge, which stays, stays white.  A colour chosen per card by a template is tested per card."""
    _game(tmp_path)
    _build(tmp_path, "--ink-saver")
    out = tmp_path / "out" / "tiny"
    manifest = json.loads((out / "tiny-cards-inksaver-a4.manifest.json").read_text())
    page = _first_card(manifest)["page"]
    navy = tuple(round(v / 255, 2) for v in NAVY)
    pdf = out / "tiny-cards-inksaver-a4.pdf"
    assert _char_colours(pdf, page, "Alpha") == {navy}
    assert _char_colours(pdf, page, "First card") == {navy}  # template: 'cream' for alpha
    assert _char_colours(pdf, page, "Second card") == {navy}  # template: 'white' for beta
    with pdfplumber.open(pdf) as document:
        digits = [c for c in document.pages[page - 1].chars if c["text"] == "1" and round(c["size"]) == 14]
    assert digits and all(tuple(round(v, 2) for v in c["non_stroking_color"]) in ((1, 1, 1), (1.0,)) for c in digits)


def test_a_plain_back_becomes_an_outline_and_an_emblem(tmp_path):
    _game(tmp_path)
    _build(tmp_path)
    _build(tmp_path, "--ink-saver")
    out = tmp_path / "out" / "tiny"
    manifest = json.loads((out / "tiny-cards-inksaver-a4.manifest.json").read_text())
    back = next(r for r in manifest["cards"] if r.get("side") == "back")
    framed = {f["name"] for f in back["frames"]}
    assert "pattern" not in framed and "label" in framed  # the pattern left out, the emblem kept
    full = json.loads((out / "tiny-cards-a4.manifest.json").read_text())
    assert "pattern" in {f["name"] for f in next(r for r in full["cards"] if r.get("side") == "back")["frames"]}
    dpi = 100
    x, y, w, h = _card_box_px(manifest, back, dpi)
    image = _page(out / "tiny-cards-inksaver-a4.pdf", back["page"], dpi)
    assert _near(image.getpixel((int(x + w * 0.3), int(y + h * 0.75))), (255, 255, 255))  # the panel's fill: gone
    panel_edge = [image.getpixel((int(x + 6 * dpi / 25.4) + dx, int(y + h / 2))) for dx in (-1, 0, 1)]
    assert any(sum(p) < 600 for p in panel_edge), panel_edge  # its outline, at 6 mm
    assert _char_colours(out / "tiny-cards-inksaver-a4.pdf", back["page"], "TINY BACK") == {(0.17, 0.29, 0.45)}  # white on the panel: the panel's colour


def test_a_frame_says_how_it_changes(tmp_path):
    front = DARK_FRONT.replace("fill: navy, bleed: true}", "fill: navy, bleed: true, ink_saver: keep}", 1)
    back = DARK_BACK.replace('color: "#34557f"}', 'color: "#34557f", ink_saver: keep}').replace(
        'text: "TINY BACK",', 'text: "TINY BACK", ink_saver: hide,').replace(
        'fill: "#2b4a72"}', 'fill: "#2b4a72", ink_saver: {fill: "#dddddd", stroke: navy}}')
    _game(tmp_path, front, back)
    _build(tmp_path, "--ink-saver")
    out = tmp_path / "out" / "tiny"
    manifest = json.loads((out / "tiny-cards-inksaver-a4.manifest.json").read_text())
    record = _first_card(manifest)
    dpi = 100
    x, y, w, h = _card_box_px(manifest, record, dpi)
    image = _page(out / "tiny-cards-inksaver-a4.pdf", record["page"], dpi)
    assert _near(image.getpixel((int(x + w * 0.8), int(y + h * 0.6))), NAVY)  # keep: the background as designed
    back_record = next(r for r in manifest["cards"] if r.get("side") == "back")
    names = {f["name"] for f in back_record["frames"]}
    assert "pattern" in names and "label" not in names  # keep and hide
    x, y, w, h = _card_box_px(manifest, back_record, dpi)
    image = _page(out / "tiny-cards-inksaver-a4.pdf", back_record["page"], dpi)
    assert _near(image.getpixel((int(x + w * 0.3), int(y + h * 0.75))), (0xdd, 0xdd, 0xdd))  # its own fill


REPEAT = """\
  cells:
    type: repeat
    x: 4mm
    y: 52mm
    width: 55mm
    height: 12mm
    rows: "['QQ', 'WW']"
    cell: {width: 20mm, height: 10mm}
    columns: 2
    frames:
      dot: {type: shape, shape: ellipse, width: 4mm, height: 4mm, fill: "#3b5a82", ink_saver: hide}
      label: {type: text, x: 5mm, width: 15mm, height: 10mm, text: "{{ row }}", color: cream, size: 9pt}
"""


def test_a_repeat_frames_cells_change_like_frames(tmp_path):
    _game(tmp_path, DARK_FRONT + REPEAT)
    _build(tmp_path, "--ink-saver")
    out = tmp_path / "out" / "tiny"
    manifest = json.loads((out / "tiny-cards-inksaver-a4.manifest.json").read_text())
    record = _first_card(manifest)
    names = {f["name"] for f in record["frames"]}
    assert {"cells[0].label", "cells[1].label"} <= names and not any(n.endswith(".dot") for n in names)
    navy = tuple(round(v / 255, 2) for v in NAVY)
    assert _char_colours(out / "tiny-cards-inksaver-a4.pdf", record["page"], "QQ") == {navy}


def test_an_ink_saver_value_that_is_not_a_choice_is_an_error_at_its_line(tmp_path):
    front = DARK_FRONT.replace("fill: navy, bleed: true}", "fill: navy, bleed: true, ink_saver: maybe}", 1)
    _game(tmp_path, front)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = headlines(result.stderr)
    column = front.splitlines()[2].index("maybe") + 1
    assert lines == [f"content/tiny/layouts/front.yaml:3:{column}: error[E-SCHEMA]: 'maybe' is not one of: keep, hide"]
    front = DARK_FRONT.replace("fill: navy, bleed: true}", "fill: navy, bleed: true, ink_saver: {fil: none}}", 1)
    _game(tmp_path, front)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1 and "fil" in result.stderr


def test_check_printed_compares_an_ink_saver_kit_with_the_ink_saver_layouts(tmp_path):
    """The ink-saver kit leaves the back's pattern out: compared with the full-colour layouts it
    would be missing icons; compared as what it is, it matches, and an edit since is still found."""
    game = _game(tmp_path)
    _build(tmp_path, "--ink-saver")
    pdf = "out/tiny/tiny-kit-inksaver-a4.pdf"
    result = cardforge("check", "content/tiny", "--printed", pdf, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    cards = game / "cards" / "cards.yaml"
    cards.write_text(cards.read_text().replace("title: Alpha", "title: Alfa"))
    result = cardforge("check", "content/tiny", "--printed", pdf, cwd=tmp_path)
    assert result.returncode == 1
    assert "card 'alpha' (front), frame 'title'" in result.stderr


def test_ink_saver_is_for_the_home_print_kit(tmp_path):
    _game(tmp_path)
    result = cardforge("build", "content/tiny", "--ink-saver", "--target", "printshop", cwd=tmp_path)
    assert result.returncode == 2
    assert "--ink-saver builds the home-print kit with less ink; leave out --errata and --target" in result.stderr


# -- ink coverage --------------------------------------------------------------------------

def test_coverage_of_known_colours():
    def of(colour):
        return pixels_coverage(np.full((4, 4, 3), colour, dtype=np.uint8))
    assert of((255, 255, 255)) == 0.0
    assert of((0, 0, 0)) == 1.0
    assert of((255, 0, 0)) == pytest.approx(2 / 3)
    assert of((128, 128, 128)) == pytest.approx(127 / 255)
    assert (percent(0.0), percent(0.004), percent(0.2437)) == ("0 %", "<1 %", "24 %")


def test_a_page_half_black_measures_half(tmp_path):
    from reportlab.pdfgen.canvas import Canvas
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 100))
    canvas.rect(0, 0, 100, 100, stroke=0, fill=1)
    canvas.showPage()
    canvas.showPage()  # a blank page
    canvas.save()
    assert page_coverage(buffer.getvalue()) == [pytest.approx(0.5, abs=0.01), 0.0]


def test_the_manifest_records_each_pages_ink_and_the_ink_saver_kit_takes_less(tmp_path):
    _game(tmp_path)
    _build(tmp_path)
    _build(tmp_path, "--ink-saver")
    out = tmp_path / "out" / "tiny"
    means = {}
    for name in ("tiny-kit-a4", "tiny-kit-inksaver-a4"):
        manifest = json.loads((out / f"{name}.manifest.json").read_text())
        measured = page_coverage(out / f"{name}.pdf")
        assert [p["ink"] for p in manifest["pages"]] == [round(c, 4) for c in measured]
        assert manifest["ink"]["mean"] == pytest.approx(sum(measured) / len(measured), abs=1e-4)
        assert "naive CMY" in manifest["ink"]["measure"]
        means[name] = manifest["ink"]["mean"]
    cards = json.loads((out / "tiny-cards-inksaver-a4.manifest.json").read_text())  # a component: its own pages
    assert cards["ink"]["mean"] == pytest.approx(sum(p["ink"] for p in cards["pages"]) / len(cards["pages"]), abs=1e-4)
    assert means["tiny-kit-inksaver-a4"] < 0.6 * means["tiny-kit-a4"]


GAMES = ("bomber-boys", "bombs-away", "iron-rain", "steel-rain", "war-eagles")


def test_the_five_games_ink_saver_kits_take_at_least_40_percent_less_ink(tmp_path):
    """Done when of issue 42: each game's ink-saver kit cuts the mean coverage of its pages by at
    least 40 %, and builds (and so passes the verifier) like the kit."""
    games = [REPO / "content" / game for game in GAMES if (REPO / "content" / game / "game.yaml").is_file()]
    if len(games) < len(GAMES):
        pytest.skip("not every game is in content/")
    for extra in ((), ("--ink-saver",)):
        result = cardforge("build", *games, "--paper", "a4", "--layouts", REPO / "layouts", "--out", tmp_path,
                           *extra, cwd=REPO, timeout=600)
        assert result.returncode == 0, result.stderr
    for game in GAMES:
        full = json.loads((tmp_path / game / f"{game}-kit-a4.manifest.json").read_text())["ink"]["mean"]
        saver = json.loads((tmp_path / game / f"{game}-kit-inksaver-a4.manifest.json").read_text())["ink"]["mean"]
        assert saver <= 0.6 * full, (game, full, saver)


def test_a_track_that_fills_its_own_spaces_keeps_its_colours(tmp_path):
    """Its numbers stand on its spaces, which stay: dark numbers on a dark background left out are
    not a watermark to fade (War Eagles' turn track printed them #d1d1d1, 1.33:1)."""
    from cardforge.access.printed import printed_contrast
    front = """\
colors: {slate: "#2b3036", paper: "#f4efe1", ink: "#1b1b1b"}
frames:
  background: {type: shape, fill: slate, bleed: true}
  turns: {type: track, x: 4mm, y: 30mm, width: 55mm, height: 10mm, from: 1, to: 5, fill: paper, stroke: ink,
          color: ink, size: 12pt, min_space: 5mm}
"""
    _game(tmp_path, front=front)
    _build(tmp_path, "--ink-saver")
    runs = [run for run in printed_contrast(tmp_path / "out" / "tiny" / "tiny-cards-inksaver-a4.pdf")
            if run.text in {"1", "2", "3", "4", "5"}]
    assert runs and {run.fill for run in runs} == {"#1b1b1b"}  # ink, as designed
    assert all(run.background == "#f4efe1" and run.ratio >= run.required for run in runs)
