"""The real game, content/bomber-boys, built once per session and read back from the PDFs.

Everything here is measured in the PDF a user prints (pypdf, pdfplumber) and checked against
the manifest cardforge writes beside it: page sizes, where each card's trim box lies, crop marks,
duplex backs, the text inside each card, fonts, and byte-for-byte reproducibility.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

import pdfplumber
import pytest
import yaml
from pdfplumber.utils import extract_text
from pypdf import PdfReader

from conftest import BOMBER, MM, chars_in_box, squash

TOL_MM = 0.1
CARD_W, CARD_H, BLEED = 63.0, 88.0, 3.0
PAGE_PT = {"a4": (841.89, 595.28), "letter": (612.0, 792.0)}  # A4 landscape, Letter portrait
PER_PAGE = {"a4": 8, "letter": 6}
BASE14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


@pytest.fixture(scope="module")
def pdfs(bomber):
    """Opened pdfplumber documents, by (build, paper), opened once for the module."""
    opened = {}

    def get(build: str, paper: str, mode: str = "duplex"):
        key = (build, paper, mode)
        if key not in opened:
            opened[key] = pdfplumber.open(bomber.pdf(build, paper, mode))
        return opened[key]
    yield get
    for pdf in opened.values():
        pdf.close()


def cards_by_page(manifest: dict) -> dict[int, list[dict]]:
    pages = defaultdict(list)
    for card in manifest["cards"]:
        pages[card["page"]].append(card)
    return pages


def trim_box(card: dict) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in points."""
    x, y, w, h = card["trim"]
    return (x * MM, y * MM, (x + w) * MM, (y + h) * MM)


def bleed_box(card: dict) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in points."""
    x, y, w, h = card["trim"]
    b = card["bleed"]
    return ((x - b) * MM, (y - b) * MM, (x + w + b) * MM, (y + h + b) * MM)


def expected_faces() -> Counter:
    """(card id, copy, side) of every card face the game's card files call for."""
    game = yaml.safe_load((BOMBER / "game.yaml").read_text("utf-8"))
    faces = Counter()
    for deck in game["decks"]:
        files = [deck["cards"]] if isinstance(deck["cards"], str) else deck["cards"]
        for rel in files:
            for card in yaml.safe_load((BOMBER / rel).read_text("utf-8"))["cards"]:
                back = card.get("back", deck.get("back"))
                for copy in range(1, card.get("quantity", 1) + 1):
                    faces[(card["id"], copy, "front")] += 1
                    if back:
                        faces[(card["id"], copy, "back")] += 1
    return faces


# -- pages and trim boxes ---------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes_read_back_from_the_pdf(bomber, paper):
    reader = PdfReader(bomber.pdf("duplex", paper))
    manifest = bomber.manifest("duplex", paper)
    assert len(reader.pages) == len(manifest["pages"]) > 0
    want_w, want_h = PAGE_PT[paper]
    for number, page in enumerate(reader.pages, start=1):
        box = page.mediabox
        # Each sheet is the paper, landscape or portrait as its pieces pack best (a sheet shared by
        # cards and tokens may turn): the size the manifest states, below.
        assert sorted((float(box.width), float(box.height))) == [pytest.approx(min(want_w, want_h), abs=0.5),
                                                                  pytest.approx(max(want_w, want_h), abs=0.5)], f"page {number}"
        assert float(box.left) == 0 and float(box.bottom) == 0
        assert page.rotation == 0
        assert manifest["pages"][number - 1]["size"] == [pytest.approx(float(box.width) / MM, abs=0.01),
                                                          pytest.approx(float(box.height) / MM, abs=0.01)]


@pytest.mark.parametrize("build, paper, mode", [
    ("duplex", "a4", "duplex"), ("duplex", "letter", "duplex"),
    ("fold", "a4", "fold"), ("fold", "letter", "fold"),
    ("simplex", "a4", "simplex"), ("simplex", "letter", "simplex"),
])
def test_every_card_face_is_printed_once_with_a_poker_trim_inside_the_page(bomber, build, paper, mode):
    manifest = bomber.manifest(build, paper, mode)
    reader = PdfReader(bomber.pdf(build, paper, mode))
    assert Counter((c["card"], c["copy"], c["side"]) for c in manifest["cards"]) == expected_faces()
    for card in manifest["cards"]:
        x, y, w, h = card["trim"]
        assert (w, h) == (pytest.approx(CARD_W, abs=TOL_MM), pytest.approx(CARD_H, abs=TOL_MM)), card["card"]
        assert card["bleed"] == pytest.approx(BLEED)
        box = reader.pages[card["page"] - 1].mediabox
        x0, y0, x1, y1 = bleed_box(card)
        assert 0 <= x0 and x1 <= float(box.width) and 0 <= y0 and y1 <= float(box.height), \
            f"{card['card']} ({card['side']}) on page {card['page']} is not inside the page"


# Letter gangs its cards 9-up (trims shared, one bleed round the block): tests/test_sheet_density.py
@pytest.mark.parametrize("paper", ["a4"])
def test_cards_sit_bleed_to_bleed_centred_in_the_fullest_orientation(bomber, paper):
    manifest = bomber.manifest("duplex", paper)
    pages = cards_by_page(manifest)
    counts = [len(cards) for cards in pages.values()]
    assert max(counts) == PER_PAGE[paper]
    full = [cards for cards in pages.values() if len(cards) == PER_PAGE[paper]]
    assert full
    for cards in full:
        number = cards[0]["page"]
        page_w, page_h = manifest["pages"][number - 1]["size"]
        xs = sorted({c["trim"][0] for c in cards})
        ys = sorted({c["trim"][1] for c in cards})
        cols, rows = (4, 2) if paper == "a4" else (3, 2)
        assert (len(xs), len(ys)) == (cols, rows), f"page {number}"
        # neighbouring bleed boxes touch: trim boxes are one card plus two bleeds apart
        assert [b - a for a, b in zip(xs, xs[1:])] == [pytest.approx(CARD_W + 2 * BLEED, abs=TOL_MM)] * (cols - 1)
        assert [b - a for a, b in zip(ys, ys[1:])] == [pytest.approx(CARD_H + 2 * BLEED, abs=TOL_MM)] * (rows - 1)
        left, right = xs[0] - BLEED, page_w - (xs[-1] + CARD_W + BLEED)
        bottom, top = ys[0] - BLEED, page_h - (ys[-1] + CARD_H + BLEED)
        # centred, so that a back lands where its front is; clear of the footer band (7.5 mm)
        assert left == pytest.approx(right, abs=TOL_MM) and bottom == pytest.approx(top, abs=TOL_MM), \
            f"page {number} is not centred: left {left}, right {right}, bottom {bottom}, top {top}"
        assert bottom >= 7.5, \
            f"page {number} is not centred: left {left}, right {right}, bottom {bottom}, top {top}"


# -- crop marks -------------------------------------------------------------------------------

def _separation(line: dict, box) -> float:
    """Distance in points between a line's bounding box and a box (x0, y0, x1, y1); <= 0 if they meet."""
    bx0, by0, bx1, by1 = box
    return max(bx0 - line["x1"], line["x0"] - bx1, by0 - line["y1"], line["y0"] - by1)


def _inside(line: dict, box, tol: float = 0.01) -> bool:
    bx0, by0, bx1, by1 = box
    return (line["x0"] >= bx0 - tol and line["x1"] <= bx1 + tol and line["y0"] >= by0 - tol
            and line["y1"] <= by1 + tol)


def _is_scale_bar(line: dict, bar) -> bool:
    if not bar:
        return False
    x0, y0, x1 = (v * MM for v in bar)
    return x0 - 0.01 <= line["x0"] and line["x1"] <= x1 + 0.01 and y0 - 0.01 <= line["y0"] and line["y1"] <= y0 + 2 * MM


@pytest.mark.parametrize("paper", ["a4"])  # Letter's ganged cut lines: tests/test_sheet_density.py
def test_crop_marks_are_outside_every_bleed_box_on_the_trim_lines(bomber, pdfs, paper):
    manifest = bomber.manifest("duplex", paper)
    pdf = pdfs("duplex", paper)
    tokens = defaultdict(list)
    for token in manifest["tokens"]:
        tokens[token["page"]].append(token)
    for number, card_list in sorted(cards_by_page(manifest).items()):
        page = pdf.pages[number - 1]
        shared = bool(tokens[number])  # tokens fill the sheet's free rows: their marks are theirs
        cards = card_list + tokens[number]
        boxes = [bleed_box(c) for c in cards]
        bar = manifest["pages"][number - 1].get("scale_bar")
        # A crop mark is a 0.3 pt line on a trim line, outside every trim box: in the margin, or
        # (where the margin is too narrow) in a card's outer bleed, which is cut away.
        edges_x = {round(v * MM, 1) for c in cards for v in (c["trim"][0], c["trim"][0] + c["trim"][2])}
        edges_y = {round(v * MM, 1) for c in cards for v in (c["trim"][1], c["trim"][1] + c["trim"][3])}

        def on_trim_line(line) -> bool:
            return (abs(line["x0"] - line["x1"]) < 0.01 and round(line["x0"], 1) in edges_x) or \
                (abs(line["y0"] - line["y1"]) < 0.01 and round(line["y0"], 1) in edges_y)

        marks = [line for line in page.lines if not _is_scale_bar(line, bar) and (
            not any(_inside(line, box) for box in boxes) or
            (abs(line.get("linewidth", 0) - 0.3) < 0.01 and on_trim_line(line)
             and not any(_inside(line, trim_box(c), tol=-0.01) for c in cards)))]
        assert marks, f"page {number} has no crop marks"
        x_edges = sorted({round(v * MM, 3) for c in cards for v in (c["trim"][0], c["trim"][0] + c["trim"][2])})
        y_edges = sorted({round(v * MM, 3) for c in cards for v in (c["trim"][1], c["trim"][1] + c["trim"][3])})
        trims = [trim_box(c) for c in cards]
        for line in marks:
            where = f"page {number}: mark ({line['x0'] / MM:.2f}, {line['y0'] / MM:.2f})-" \
                    f"({line['x1'] / MM:.2f}, {line['y1'] / MM:.2f}) mm"
            vertical = abs(line["x0"] - line["x1"]) < 0.01
            horizontal = abs(line["y0"] - line["y1"]) < 0.01
            assert vertical or horizontal, where
            # Outside the margin a mark keeps 1 mm from every bleed box; where the margin is too
            # narrow (Letter's sides) it lies in the outer bleed, which is cut away, and stops
            # short of the trim line. Either way it never touches a card as cut.
            assert min(_separation(line, box) for box in trims) >= 0.5 * MM - 0.05 * MM, \
                f"{where} is closer than 0.5 mm to a trim box"
            outside = min(_separation(line, box) for box in boxes) >= 1 * MM - 0.05 * MM
            in_bleed = any(_inside(line, box) for box in [bleed_box(c) for c in cards])
            assert outside or in_bleed, where
            assert 5 * MM - 0.01 <= line["x0"] and line["x1"] <= page.width - 5 * MM + 0.01 and \
                5 * MM - 0.01 <= line["y0"] and line["y1"] <= page.height - 5 * MM + 0.01, f"{where}: within 5 mm of the edge"
            if vertical:
                assert any(abs(line["x0"] - e) <= TOL_MM * MM for e in x_edges), f"{where} is on no trim edge"
            else:
                assert any(abs(line["y0"] - e) <= TOL_MM * MM for e in y_edges), f"{where} is on no trim edge"
        if shared:
            # A card edge is not marked on the tokens' side, where the mark would lead a cut through
            # them (the cuts of shared sheets are tested in test_shared_sheets.py).
            continue
        # every trim edge is marked on both sides of the block of cards
        grid_top, grid_bottom = max(b[3] for b in trims), min(b[1] for b in trims)
        grid_left, grid_right = min(b[0] for b in trims), max(b[2] for b in trims)
        for e in x_edges:
            at = [m for m in marks if abs(m["x0"] - m["x1"]) < 0.01 and abs(m["x0"] - e) <= TOL_MM * MM]
            assert any(m["y0"] >= grid_top for m in at) and any(m["y1"] <= grid_bottom for m in at), \
                f"page {number}: trim edge x = {e / MM:.2f} mm lacks a crop mark above or below"
        for e in y_edges:
            at = [m for m in marks if abs(m["y0"] - m["y1"]) < 0.01 and abs(m["y0"] - e) <= TOL_MM * MM]
            assert any(m["x1"] <= grid_left for m in at) and any(m["x0"] >= grid_right for m in at), \
                f"page {number}: trim edge y = {e / MM:.2f} mm lacks a crop mark left or right"


# -- duplex, fold, simplex ----------------------------------------------------------------------

def _faces(manifest: dict, side: str) -> dict[tuple[str, int], dict]:
    return {(c["card"], c["copy"]): c for c in manifest["cards"] if c["side"] == side}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_duplex_back_lands_behind_its_front_after_a_long_edge_flip(bomber, paper):
    manifest = bomber.manifest("duplex", paper)
    fronts, backs = _faces(manifest, "front"), _faces(manifest, "back")
    assert backs and set(backs) <= set(fronts)
    pages = cards_by_page(manifest)
    for number, cards in pages.items():
        sides = {c["side"] for c in cards}
        assert len(sides) == 1, f"page {number} mixes fronts and backs"
        if sides == {"back"}:
            before = {(c["card"], c["copy"]) for c in pages[number - 1] if c["side"] == "front"}
            here = {(c["card"], c["copy"]) for c in cards}
            assert here == before & set(backs), f"back page {number} does not hold the backs of page {number - 1}"
    for key, back in backs.items():
        front = fronts[key]
        assert back["page"] == front["page"] + 1, key
        page_w, page_h = manifest["pages"][front["page"] - 1]["size"]
        fx, fy, w, h = front["trim"]
        if page_w > page_h:  # landscape: the sheet turns about its long (horizontal) edge
            want = (fx, page_h - fy - h)
        else:  # portrait: about its long (vertical) edge
            want = (page_w - fx - w, fy)
        assert back["trim"][:2] == [pytest.approx(want[0], abs=TOL_MM), pytest.approx(want[1], abs=TOL_MM)], key


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_fold_puts_each_back_to_the_right_of_its_front(bomber, paper):
    manifest = bomber.manifest("fold", paper, "fold")
    fronts, backs = _faces(manifest, "front"), _faces(manifest, "back")
    assert backs
    for key, back in backs.items():
        front = fronts[key]
        fx, fy, fw, _ = front["trim"]
        bx, by, _, _ = back["trim"]
        assert back["page"] == front["page"], key
        assert by == pytest.approx(fy, abs=TOL_MM), key
        assert bx - (fx + fw) == pytest.approx(2 * front["bleed"], abs=TOL_MM), key


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_simplex_puts_all_backs_after_all_fronts_in_the_same_slots(bomber, paper):
    manifest = bomber.manifest("simplex", paper, "simplex")
    fronts, backs = _faces(manifest, "front"), _faces(manifest, "back")
    assert backs
    assert max(c["page"] for c in fronts.values()) < min(c["page"] for c in backs.values())
    for key, back in backs.items():
        assert back["trim"] == fronts[key]["trim"], key


# -- text -------------------------------------------------------------------------------------

def _expected_text(frame: dict) -> str:
    text = frame["text"]
    for icon in frame.get("icons", {}):
        text = text.replace(f":{icon}:", " ")  # icons are pictures, not characters
    return squash(text)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_cards_text_is_printed_inside_its_trim_box(bomber, pdfs, paper):
    manifest = bomber.manifest("duplex", paper)
    pdf = pdfs("duplex", paper)
    checked, problems = 0, []
    for card in manifest["cards"]:
        page = pdf.pages[card["page"] - 1]
        x, y, w, h = (v * MM for v in card["trim"])
        inside = page.crop((x, page.height - y - h, x + w, page.height - y))
        for frame in card["frames"]:
            if frame["type"] != "text":
                continue
            got = squash(extract_text(chars_in_box(inside, frame["box"])))
            want = _expected_text(frame)
            checked += 1
            if got != want:
                problems.append(f"{card['card']} ({card['side']}) frame {frame['name']}: "
                                f"manifest {want!r}, PDF {got!r}")
    assert checked > 500
    assert not problems, "\n".join(problems[:10])


def test_the_pdf_says_what_the_manifest_says_on_a_known_card(bomber, pdfs):
    """A spot check against the card database itself, not only against the manifest."""
    manifest = bomber.manifest("duplex", "a4")
    card = next(c for c in manifest["cards"] if c["card"] == "bombardier" and c["side"] == "front")
    page = pdfs("duplex", "a4").pages[card["page"] - 1]
    text = " ".join(squash(extract_text(chars_in_box(page, f["box"]))) for f in card["frames"] if f["type"] == "text")
    assert "BOMBARDIER" in text
    assert "Fire at an enemy aircraft in Line of Sight." in text


# -- fonts and reproducibility ----------------------------------------------------------------

def _resolved(value):
    return value.get_object() if value is not None else None


def _fonts(reader: PdfReader) -> dict[str, dict]:
    """Every font reachable from the pages' resources (forms included), like pdffonts lists them."""
    fonts, seen = {}, set()

    def walk(resources):
        if resources is None:
            return
        resources = resources.get_object()
        # a resource dictionary may be an indirect object (pypdf 4.0 does not resolve it on .get)
        for ref in (_resolved(resources.get("/Font")) or {}).values():
            font = ref.get_object()
            fonts[f"{font.get('/BaseFont')}#{getattr(ref, 'idnum', id(font))}"] = font
        for ref in (_resolved(resources.get("/XObject")) or {}).values():
            key = getattr(ref, "idnum", None)
            if key in seen:
                continue
            seen.add(key)
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return fonts


def test_every_font_is_embedded_and_none_is_base14(bomber):
    pdf_files = sorted(bomber.folder("duplex").glob("*.pdf"))
    assert any(p.name == "bomber-boys-cards-a4.pdf" for p in pdf_files)
    for path in pdf_files:
        fonts = _fonts(PdfReader(path))
        assert fonts, f"{path.name} uses no fonts?"
        for name, font in fonts.items():
            base = str(font.get("/BaseFont"))
            assert not any(b in base for b in BASE14), f"{path.name}: base-14 font {base}"
            if font.get("/Subtype") == "/Type0":
                font = font["/DescendantFonts"][0].get_object()
            descriptor = font.get("/FontDescriptor")
            assert descriptor is not None, f"{path.name}: {base} has no font descriptor (not embedded)"
            assert "/FontFile2" in descriptor.get_object(), f"{path.name}: {base} is not embedded as TrueType"
        assert b"/Helvetica" not in path.read_bytes(), f"{path.name} mentions Helvetica"


def test_same_input_gives_byte_identical_output(bomber):
    first, second = bomber.folder("duplex"), bomber.folder("duplex-again")
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir())
    assert "bomber-boys-cards-a4.pdf" in names and "bomber-boys-cards-letter.pdf" in names
    differ = [n for n in names if (first / n).read_bytes() != (second / n).read_bytes()]
    assert differ == [], "\n".join(where_they_differ(first / n, second / n) for n in differ)


def test_a_build_from_a_warm_cache_is_byte_identical_to_one_from_an_empty_cache(tmp_path):
    """Each build is its own process, as a designer's are: the first parses the icons (importing
    svglib, whose version 1.5 patched reportlab's fills to non-zero for the whole process), the
    second takes them from the cache and never imports it.  The guide's arrows came out `f` in one
    and `f*` in the other, so `watch` rewrote a PDF after a failed build."""
    env = {**os.environ, "CARDFORGE_CACHE": str(tmp_path / "cache")}
    for run in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-m", "cardforge", "build", str(BOMBER), "--paper", "a4",
                               "--out", str(tmp_path / run)], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    cold = sorted((tmp_path / "cold" / "bomber-boys").glob("*.pdf"))
    assert len(cold) == 6
    differ = [p.name for p in cold if p.read_bytes() != (tmp_path / "warm" / "bomber-boys" / p.name).read_bytes()]
    assert differ == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_says_print_at_actual_size(bomber, pdfs, paper):
    for number, page in enumerate(pdfs("duplex", paper).pages, start=1):
        upward = "".join(ch["text"] for ch in sorted((ch for ch in page.chars if not ch["upright"]),
                                                      key=lambda ch: -ch["top"]))  # a footer up the margin
        assert "print at 100%" in page.extract_text() + upward, f"page {number}"
