"""Tokens on the last card sheet (issue 45, "sheets used well"), read back from Bomber Boys' kits.

Its cards and tokens are both printed on card stock.  Before, its tokens took a duplex sheet of
their own, 90% empty (A4 page 25, Letter page 23), beside a card sheet half empty: 14 sheets on A4,
13 on Letter.  Now the tokens fill the empty rows of the last card sheet.  What the printer and the
player do is read from the PDF: a token without a back has blank paper behind it, a two-sided token
has its own back behind it on the other side of the same sheet, and a guillotine cut across the
sheet between the cards and the tokens cuts through no piece."""
from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest

from conftest import MM as MM_PT, REPO, cardforge, text_in_box

SHEETS = {"a4": 13, "letter": 12}  # 14 and 13 with a sheet of tokens of their own
SHARED = {"a4": 21, "letter": 19}  # the front of the shared sheet


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("shared")
    result = cardforge("build", REPO / "content" / "bomber-boys", "--out", out, cwd=REPO, timeout=600)
    assert result.returncode == 0, result.stderr
    return out / "bomber-boys"


def _manifest(path: Path) -> dict:
    return json.loads(path.with_suffix(".manifest.json").read_text("utf-8"))


def _on(manifest: dict, page: int) -> dict[str, list[dict]]:
    return {section: [r for r in manifest.get(section) or [] if r["page"] == page] for section in ("cards", "tokens")}


def _behind(box: list[float], size: list[float]) -> list[float]:
    """Where a piece's back lands on the back page of a long-edge duplex sheet: mirrored left-right
    on a portrait page, top-bottom on a landscape one."""
    x, y, w, h = box
    width, height = size
    return [width - x - w, y, w, h] if width < height else [x, height - y - h, w, h]


@pytest.mark.parametrize("paper", sorted(SHEETS))
def test_tokens_share_the_last_card_sheet_and_the_kit_needs_a_sheet_fewer(kits, paper):
    manifest = _manifest(kits / f"bomber-boys-kit-{paper}.pdf")
    pages = manifest["pages"]
    assert len(pages) == 2 * SHEETS[paper]
    assert not [p for p in pages if p["section"] == "tokens"], "no sheet of tokens alone"
    front = SHARED[paper]
    on = _on(manifest, front)
    assert on["cards"] and on["tokens"], "cards and tokens on one page"
    assert {r["deck"] for r in on["tokens"]} == {"focus-tokens", "damage-tokens"}
    assert pages[front - 1]["sheet"] == {"kind": "two-sided", "side": "front"}
    assert pages[front]["sheet"] == {"kind": "two-sided", "side": "back"}
    # Every token is there: 4 focus tokens and 33 damage tokens, all on this sheet.
    assert len([r for r in manifest["tokens"] if r["side"] == "front"]) == 37
    assert {r["page"] for r in manifest["tokens"]} == {front, front + 1}


@pytest.mark.parametrize("paper", sorted(SHEETS))
def test_behind_a_token_is_its_own_back_or_blank_paper(kits, paper):
    pdf_path = kits / f"bomber-boys-kit-{paper}.pdf"
    manifest = _manifest(pdf_path)
    front = SHARED[paper]
    size = manifest["pages"][front - 1]["size"]
    backs = {(r["card"], r["copy"]): r for r in manifest["tokens"] if r["side"] == "back"}
    tokens = [r for r in _on(manifest, front)["tokens"]]
    two_sided = [r for r in tokens if (r["card"], r["copy"]) in backs]
    one_sided = [r for r in tokens if (r["card"], r["copy"]) not in backs]
    assert len(two_sided) == 4 and len(one_sided) == 33
    scale = 100 / 72
    px = scale * 72 / 25.4  # pixels per mm
    pdf = pypdfium2.PdfDocument(str(pdf_path))
    try:
        image = pdf[front].render(scale=scale, grayscale=True).to_pil()  # the back page
    finally:
        pdf.close()
    with pdfplumber.open(pdf_path) as doc:
        face, back = doc.pages[front - 1], doc.pages[front]
        for record in two_sided:
            behind = _behind(record["trim"], size)
            words_front = text_in_box(face, record["trim"])
            words_back = text_in_box(back, behind)
            value = next(f["text"] for f in backs[(record["card"], record["copy"])]["frames"] if f["name"] == "value")
            # The focus token's back (its other player count) is printed exactly behind it.
            assert words_back.startswith("FOCUS") and value in words_back, (record["card"], words_back)
            assert words_back != words_front, (record["card"], words_front)
            assert backs[(record["card"], record["copy"])]["trim"] == pytest.approx(behind, abs=0.01)
        for record in one_sided:
            x, y, w, h = _behind([record["trim"][0] - record["bleed"], record["trim"][1] - record["bleed"],
                                  record["trim"][2] + 2 * record["bleed"], record["trim"][3] + 2 * record["bleed"]], size)
            assert text_in_box(back, [x, y, w, h]) == ""
            left, top = round(x * px), round(image.height - (y + h) * px)
            crop = image.crop((left, top, round(left + w * px), round(top + h * px)))
            assert crop.getextrema()[0] >= 250, (record["card"], record["copy"], "ink behind a one-sided token")


def _guillotine(boxes: list[list[float]]) -> bool:
    """Whether straight cuts from edge to edge of what is left (a guillotine's, or long scissor
    cuts) free every piece without cutting through one: some line at a piece's edge crosses no
    piece and splits them in two, and so on for each part."""
    if len(boxes) <= 1:
        return True
    for axis in (1, 0):  # across the sheet first, then along it
        for edge in sorted({round(b[axis] + d, 3) for b in boxes for d in (0.0, b[axis + 2])}):
            if any(b[axis] + 0.01 < edge < b[axis] + b[axis + 2] - 0.01 for b in boxes):
                continue
            low = [b for b in boxes if b[axis] + b[axis + 2] <= edge + 0.01]
            high = [b for b in boxes if b[axis] >= edge - 0.01]
            if low and high:
                return _guillotine(low) and _guillotine(high)
    return False


@pytest.mark.parametrize("paper", sorted(SHEETS))
def test_straight_cuts_free_every_piece_of_the_shared_sheet_without_cutting_one(kits, paper):
    """Cards and tokens lie in bands across the sheet, and smaller pieces in the empty end of a last
    row beside it: the player cuts the bands apart, then the pieces of each, each cut through no piece."""
    manifest = _manifest(kits / f"bomber-boys-kit-{paper}.pdf")
    on = _on(manifest, SHARED[paper])
    boxes = [r["trim"] for records in on.values() for r in records]
    assert len(boxes) == 37 + (3 if paper == "a4" else 3)
    assert _guillotine(boxes), paper
    assert not _guillotine(boxes + [[boxes[0][0] + 1, boxes[0][1] + 1, 200, 5]]), "the check can fail"


@pytest.mark.parametrize("paper", sorted(SHEETS))
def test_the_shared_sheet_is_in_both_component_pdfs_and_the_guide_points_at_it(kits, paper):
    front = SHARED[paper]
    for component in ("cards", "tokens"):
        pdf = kits / f"bomber-boys-{component}-{paper}.pdf"
        manifest = _manifest(pdf)
        assert len(pypdfium2.PdfDocument(str(pdf))) == len(manifest["pages"])
        own = {d for d in manifest["decks"]}
        assert own == ({"focus-tokens", "damage-tokens"} if component == "tokens" else {"crew", "bombing-run", "missions"})
        # Every piece of the component is in its PDF, the shared sheet's last.
        assert [p["content"] for p in manifest["pages"]][-2:] == \
            [p["content"] for p in _manifest(kits / f"bomber-boys-kit-{paper}.pdf")["pages"][front - 1:front + 1]]
    assert len(_manifest(kits / f"bomber-boys-tokens-{paper}.pdf")["pages"]) == 2
    with pdfplumber.open(kits / f"bomber-boys-kit-{paper}.pdf") as doc:
        steps = " ".join(doc.pages[4].extract_text().split())
        table = " ".join(doc.pages[1].extract_text().split())
    assert f"Tokens (pages {front}-{front + 1}): 37 tokens" in steps, steps
    assert "Cards, Tokens" in table, table


@pytest.fixture(scope="module")
def iron_rain_letter(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("iron-rain")
    result = cardforge("build", REPO / "content" / "iron-rain", "--paper", "letter", "--out", out, cwd=REPO,
                       timeout=600)
    assert result.returncode == 0, result.stderr
    return out / "iron-rain" / "iron-rain-kit-letter.pdf"


def test_markers_in_the_end_of_a_ganged_row_get_no_cut_line_or_crop_mark_through_them(iron_rain_letter):
    """Iron Rain's Letter cards are ganged (trim to trim, dashed cut lines between them); its last
    Homeland sheet has one card in its last row and the victory point and bomb markers beside it.
    No dashed cut line of the cards and no crop mark runs over a marker, on either side."""
    manifest = _manifest(iron_rain_letter)
    front = 57
    assert [p["content"] for p in manifest["pages"][front - 1:front + 1]] == [
        "Homeland deck, Victory point and bomb markers, fronts",
        "Homeland deck, Victory point and bomb markers, backs"]
    assert len(manifest["pages"]) == 68  # 35 sheets before, the markers on one of their own
    with pdfplumber.open(iron_rain_letter) as doc:
        for page in (front, front + 1):
            markers = [r["trim"] for r in manifest["tokens"] if r["page"] == page]
            assert len(markers) == 10
            pdf_page = doc.pages[page - 1]
            marks = [ln for ln in pdf_page.lines if ln["linewidth"] in (0.25, 0.3)
                     and tuple(ln.get("stroking_color") or ()) not in ((1,), (1.0,), (1, 1, 1))]
            cuts = [ln for ln in marks if ln["linewidth"] == 0.25]
            assert cuts, "the ganged cards' cut lines are read"
            for ln in marks:
                x0, x1 = sorted((ln["x0"] / MM_PT, ln["x1"] / MM_PT))
                y0, y1 = sorted(((pdf_page.height - ln["top"]) / MM_PT, (pdf_page.height - ln["bottom"]) / MM_PT))
                for x, y, w, h in markers:
                    assert not (x0 < x + w - 0.1 and x1 > x + 0.1 and y0 < y + h - 0.1 and y1 > y + 0.1), \
                        (page, (x0, y0, x1, y1), (x, y, w, h))
