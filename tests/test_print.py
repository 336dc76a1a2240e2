"""Print-ready on real printers (issue 8), read back from every PDF that the shipped games build.

What a printer and a player do: a back is behind its front only if it is on the other side of the
same sheet, so these tests take page numbers and boxes from the PDFs themselves (page sizes from
the PDF, the text of each face found inside its box on its page) and check the printed geometry:
duplex parity for long- and short-edge flips, nothing within 5 mm of the paper's edge, no text
below 6 pt, gang-up trim sizes, and distinct font subset tags.
"""
from __future__ import annotations


import json
import re
from collections import defaultdict
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from conftest import GAME_YAML, MM, REPO, cardforge, chars_in_box, headlines, make_game, squash

GAMES = ("bomber-boys", "iron-rain")
TOL = 0.1  # mm
SAFE = 5.0  # mm kept free of marks and labels at the paper's edge


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """Both shipped games, both papers, long- and short-edge flips, and gang-up."""
    root = tmp_path_factory.mktemp("print")
    runs = {"long": [], "short": ["--flip", "short"], "gang": ["--imposition", "gang"]}
    for name, extra in runs.items():
        result = cardforge("build", *[REPO / "content" / g for g in GAMES], "--out", root / name, *extra,
                           cwd=REPO, timeout=600)
        assert result.returncode == 0, result.stderr
    return root


def _pdfs(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pdf"))


def _manifest(pdf: Path) -> dict:
    return json.loads(pdf.with_suffix(".manifest.json").read_text("utf-8"))


def _faces(manifest: dict):
    for section in ("cards", "tokens"):
        for record in manifest.get(section) or []:
            yield section, record


@pytest.mark.parametrize("flip", ["long", "short"])
def test_every_back_is_on_the_even_page_after_its_front_mirrored_for_the_flip(builds, flip):
    checked = 0
    for pdf in _pdfs(builds / flip):
        manifest = _manifest(pdf)
        reader = PdfReader(str(pdf))
        assert len(reader.pages) == len(manifest["pages"]), pdf.name
        fronts, backs = {}, {}
        for section, record in _faces(manifest):
            key = (section, record["card"], record["copy"])
            (fronts if record["side"] == "front" else backs)[key] = record
        # Component PDFs are the kit's own pages, copied (tests/test_one_pass.py); their text is read
        # back in the kits, where it is read once.
        plumbed = pdfplumber.open(pdf) if "-kit-" in pdf.name else None
        try:
            for key, back in backs.items():
                front = fronts[key]
                page_w, page_h = (float(v) / MM for v in reader.pages[back["page"] - 1].mediabox[2:])
                assert back["page"] == front["page"] + 1, (pdf.name, key)
                assert back["page"] % 2 == 0, f"{pdf.name}: the back of {key} is on odd page {back['page']}"
                fx, fy, w, h = front["trim"]
                turned_about_horizontal = (page_w > page_h) == (flip == "long")
                want = (fx, page_h - fy - h) if turned_about_horizontal else (page_w - fx - w, fy)
                assert back["trim"][0] == pytest.approx(want[0], abs=TOL), (pdf.name, key)
                assert back["trim"][1] == pytest.approx(want[1], abs=TOL), (pdf.name, key)
                # The back's own words are printed inside its box on that page of the PDF.
                words = "".join(f.get("text") or "" for f in back["frames"] if f.get("type") == "text")
                words = "".join(re.sub(r":[a-z0-9-]+:", "", words).replace("*", "").split()).upper()
                if words and plumbed is not None:
                    printed = "".join("".join(c["text"] for c in chars_in_box(plumbed.pages[back["page"] - 1],
                                                                                           [*back["trim"]])).split()).upper()
                    assert words[:20] in printed, (pdf.name, key, words[:20], printed[:60])
                checked += 1
        finally:
            if plumbed is not None:
                plumbed.close()
    assert checked > 100


def test_blank_pages_say_so(builds):
    kit = builds / "long" / "bomber-boys" / "bomber-boys-kit-a4.pdf"
    manifest = _manifest(kit)
    blanks = [p["page"] for p in manifest["pages"] if p["content"] == "intentionally blank"]
    assert blanks  # the backs of one-sided sheets (tokens without backs, the player mat)
    assert all(manifest["pages"][n - 1]["sheet"]["side"] == "back" for n in blanks)  # behind a lone page
    reader = PdfReader(str(kit))
    for number in blanks:
        assert "intentionally blank" in reader.pages[number - 1].extract_text()


def _art_boxes(manifest: dict, number: int) -> list[tuple[float, float, float, float]]:
    """Where pieces print their artwork on a page (bleed boxes, tile windows), in points."""
    boxes = []
    for section in ("cards", "tokens", "boards", "references"):
        for record in manifest.get(section) or []:
            if record["page"] != number:
                continue
            x, y, w, h = record["trim"]
            b = record["bleed"]
            # A piece's bleed box (a tiled board's extends past the page: what lies outside the
            # tile's window is clipped away, invisible, though still in the page's content).
            boxes.append(((x - b) * MM, (y - b) * MM, (x + w + b) * MM, (y + h + b) * MM))
    return boxes


def _inside(obj: dict, box, tol: float = 0.2) -> bool:
    return (obj["x0"] >= box[0] - tol and obj["x1"] <= box[2] + tol and
            obj["y0"] >= box[1] - tol and obj["y1"] <= box[3] + tol)


@pytest.mark.parametrize("run", ["long", "gang"])
def test_no_mark_label_or_scale_bar_within_5mm_of_the_paper_edge(builds, run):
    pages = 0
    for pdf in _pdfs(builds / run):
        if "-kit-" not in pdf.name:
            continue  # the component PDFs hold the kit's pages, byte for byte (tests/test_one_pass.py)
        manifest = _manifest(pdf)
        with pdfplumber.open(pdf) as plumbed:
            for number, page in enumerate(plumbed.pages, start=1):
                art = _art_boxes(manifest, number)
                things = [dict(o, what="text " + o["text"]) for o in page.chars] + \
                    [dict(o, what="line") for o in page.lines] + [dict(o, what="rect") for o in page.rects] + \
                    [dict(o, what="curve") for o in page.curves]
                for obj in things:
                    if any(_inside(obj, box) for box in art):
                        continue  # a piece's own artwork (its bleed is cut away)
                    where = f"{pdf.name} page {number}: {obj['what']} at ({obj['x0'] / MM:.1f}, {obj['y0'] / MM:.1f})"
                    assert obj["x0"] >= SAFE * MM - 0.3 and obj["x1"] <= page.width - SAFE * MM + 0.3, where
                    assert obj["y0"] >= SAFE * MM - 0.3 and obj["y1"] <= page.height - SAFE * MM + 0.3, where
                pages += 1
    assert pages > 40


def test_the_kits_print_no_text_below_6pt(builds):
    sizes = defaultdict(int)
    for pdf in _pdfs(builds / "long"):
        if "-kit-" not in pdf.name:
            continue
        with pdfplumber.open(pdf) as plumbed:
            for page in plumbed.pages:
                for char in page.chars:
                    # a character turned a quarter (a footer up the left margin): pdfplumber's "size" is
                    # its advance; its type size is its width across the page
                    size = char["size"] if char["upright"] else char["x1"] - char["x0"]
                    sizes[round(size, 2)] += 1
    assert sizes and min(sizes) >= 6.0, sorted(sizes.items())[:5]


def test_gang_up_puts_nine_poker_cards_on_a4_and_letter_with_cut_lines(builds):
    for game in GAMES:
        for paper in ("a4", "letter"):
            pdf = builds / "gang" / game / f"{game}-cards-{paper}-gang.pdf"
            manifest = _manifest(pdf)
            per_page = defaultdict(list)
            for record in manifest["cards"]:
                per_page[record["page"]].append(record)
            assert max(len(cards) for cards in per_page.values()) == 9, (game, paper)
            with pdfplumber.open(pdf) as plumbed:
                number, cards = next((n, c) for n, c in sorted(per_page.items()) if len(c) == 9)
                page = plumbed.pages[number - 1]
                # the dashed cut lines on the shared edges, read from the PDF
                cuts_x = sorted({round(l["x0"] / MM, 2) for l in page.lines if abs(l["x0"] - l["x1"]) < 0.01
                                 and (l["bottom"] - l["top"]) > 200 * MM})
                cuts_y = sorted({round(l["y0"] / MM, 2) for l in page.lines if abs(l["y0"] - l["y1"]) < 0.01
                                 and (l["x1"] - l["x0"]) > 150 * MM})
                assert len(cuts_x) == 2 and len(cuts_y) == 2, (game, paper, cuts_x, cuts_y)
                assert cuts_x[1] - cuts_x[0] == pytest.approx(63.0, abs=TOL)
                assert cuts_y[1] - cuts_y[0] == pytest.approx(88.0, abs=TOL)
                xs = sorted({r["trim"][0] for r in cards})
                ys = sorted({r["trim"][1] for r in cards})
                # the middle column and row are exactly the cut lines apart: trims of 63 x 88 mm
                assert xs[1] == pytest.approx(cuts_x[0], abs=TOL) and xs[2] == pytest.approx(cuts_x[1], abs=TOL)
                assert ys[1] == pytest.approx(cuts_y[0], abs=TOL) and ys[2] == pytest.approx(cuts_y[1], abs=TOL)


def test_font_subsets_have_distinct_tags_derived_from_their_contents(builds):
    seen: dict[str, bytes] = {}
    for pdf in _pdfs(builds / "long"):
        for page in PdfReader(str(pdf)).pages:
            fonts = page["/Resources"].get("/Font") or {}
            for ref in fonts.values():
                font = ref.get_object()
                name = str(font["/BaseFont"]).lstrip("/")
                contents = font["/ToUnicode"].get_object().get_data()
                assert re.match(r"^[A-Z]{6}\+", name), name
                assert seen.setdefault(name, contents) == contents, f"{name} names two different subsets"
    assert not any(name.startswith("AAAAAA+") for name in seen)
    assert len({name.split("+")[0] for name in seen}) == len(seen)  # no tag shared by two fonts


# -- layouts: min_type and fit: deck ----------------------------------------------------------

DECK_LAYOUT = """\
frames:
  rule:
    {type: text, x: 4mm, y: 4mm, width: 40mm, height: 14mm, size: 12pt, min_size: 6pt, fit: deck,
     text: "{{ card.text }}"}
"""


def test_fit_deck_sets_every_cards_text_at_one_size(tmp_path):
    cards = ("cards:\n  - {id: short, title: Short, text: Draw a card.}\n"
             "  - {id: long, title: Long, text: 'Draw two cards, then discard one of them and shuffle the rest "
             "of your discard pile back into your deck before your next turn begins.'}\n")
    make_game(tmp_path, cards_yaml=cards, layout_yaml=DECK_LAYOUT, game_yaml=GAME_YAML.replace("    back: back\n", ""),
              back_layout_yaml=None)
    result = cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "out" / "tiny" / "tiny-cards-a4.pdf"
    manifest = _manifest(pdf)
    with pdfplumber.open(pdf) as plumbed:
        sizes = {}
        for record in manifest["cards"]:
            box = record["frames"][0]["box"]
            sizes[record["card"]] = {round(c["size"], 2) for c in chars_in_box(plumbed.pages[record["page"] - 1], box)}
    assert sizes["short"] == sizes["long"] and len(sizes["short"]) == 1
    assert 6 <= next(iter(sizes["short"])) < 12  # the long text's size, not the short one's 12 pt


def test_a_size_below_min_type_is_an_error_at_the_frame(tmp_path):
    layout = "frames:\n  tiny: {type: text, x: 4mm, y: 4mm, width: 40mm, height: 10mm, text: x, size: 5pt}\n"
    make_game(tmp_path, layout_yaml=layout)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    assert headlines(result.stderr) == [
        "content/tiny/layouts/front.yaml:2:3: error[E-MIN-TYPE]: frame 'tiny': size 5pt is smaller than the game's "
        "min_type 6pt"]
    make_game(tmp_path, layout_yaml=layout, game_yaml=GAME_YAML + "min_type: 5pt\n")
    assert cardforge("check", "content/tiny", cwd=tmp_path).returncode == 0
