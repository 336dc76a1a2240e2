"""Sheets as the unit of a duplex kit (issue 22), read back from every shipped game's kit.

A duplex printer puts page 2k-1 and page 2k on the two sides of one sheet, and the player's
scissors cut both.  So a page of cut pieces may share its sheet only with the backs of those same
pieces or with a blank page; the manifest says which kind each sheet is, and a blank page is
rendered to prove it carries no ink where anything is cut."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2
import pytest

from conftest import REPO, cardforge

GAMES = sorted(p.name for p in (REPO / "content").iterdir() if (p / "game.yaml").is_file())
PAPERS = ("a4", "letter")
CUT = ("cards", "tokens", "boards", "templates")  # sections whose pieces are cut out
FOOTER_BAND = 8.2  # mm at the bottom (or 13 mm up the left) where the page furniture lives


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kits")
    result = cardforge("build", "--out", out, cwd=REPO, timeout=900)
    assert result.returncode == 0, result.stderr
    return out


def _kit(kits: Path, game: str, paper: str) -> tuple[Path, dict]:
    pdf = kits / game / f"{game}-kit-{paper}.pdf"
    return pdf, json.loads(pdf.with_suffix(".manifest.json").read_text("utf-8"))


def _pieces(manifest: dict) -> dict[int, list[tuple]]:
    """Per page: (section, piece, copy, side, box in mm) of every cut piece printed on it."""
    out: dict[int, list[tuple]] = {}
    for section in CUT:
        for record in manifest.get(section) or []:
            if section == "templates":
                key, side, box = record["template"], "front", record["outline"]
            else:
                key, side, box = record.get("card") or record.get("board"), record["side"], record["trim"]
                if "window" in (record.get("tile") or {}):  # a tile shows only its window of the board
                    ox, oy = record["tile"]["origin"]
                    box = [ox, oy, *record["tile"]["window"][2:]]
            out.setdefault(record["page"], []).append((section, key, record["copy"], side, box))
    return out


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_cut_pieces_share_a_sheet_only_with_their_own_backs_or_a_blank_page(kits, game, paper):
    _, manifest = _kit(kits, game, paper)
    pages = manifest["pages"]
    assert len(pages) % 2 == 0, "a duplex kit ends on the back of its last sheet"
    pieces = _pieces(manifest)
    kinds = set()
    for k in range(0, len(pages), 2):
        front, back = pages[k], pages[k + 1]
        assert front["sheet"] == {"kind": front["sheet"]["kind"], "side": "front"}, front
        assert back["sheet"] == {"kind": front["sheet"]["kind"], "side": "back"}, back
        kind = front["sheet"]["kind"]
        kinds.add(kind)
        on_front, on_back = pieces.get(front["page"], []), pieces.get(back["page"], [])
        assert all(side == "front" for *_, side, _ in on_front), (game, paper, front)
        if kind == "one-sided":
            assert on_front and back["content"] == "intentionally blank" and not on_back, (game, paper, front)
        elif kind == "two-sided":
            # Every piece on the back is the back of a piece on the front.
            fronts = {(s, key, copy) for s, key, copy, _, _ in on_front}
            assert on_back and all(side == "back" and (s, key, copy) in fronts
                                   for s, key, copy, side, _ in on_back), (game, paper, front)
        else:
            assert kind == "reference" and not on_front and not on_back, (game, paper, front, back)
    assert "one-sided" in kinds or game == "iron-rain"


def _ink_box(pdf: pypdfium2.PdfDocument, index: int, scale: float):
    """Pixel bounds (left, top, right, bottom) of everything not white on a page, or None."""
    image = pdf[index].render(scale=scale, grayscale=True).to_pil()
    return image.point(lambda v: 255 if v < 250 else 0).getbbox(), image.size


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_blank_backs_carry_no_ink_outside_the_footer_band(kits, game, paper):
    pdf_path, manifest = _kit(kits, game, paper)
    pdf = pypdfium2.PdfDocument(str(pdf_path))
    scale = 40 / 72  # 40 dpi: a footer line is still ink, and every page renders in milliseconds
    px = scale * 72 / 25.4  # pixels per mm
    blanks = 0
    try:
        for page in manifest["pages"]:
            if page["content"] != "intentionally blank":
                continue
            blanks += 1
            box, (w, h) = _ink_box(pdf, page["page"] - 1, scale)
            if box is None:
                continue
            left, top, right, bottom = box
            along_bottom = top >= h - FOOTER_BAND * px - 1
            up_the_left = right <= 13.5 * px + 1
            assert along_bottom or up_the_left, f"{game} {paper} page {page['page']}: ink at {box} of {(w, h)} px"
    finally:
        pdf.close()
    assert blanks > 0 or game == "iron-rain"
