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

from conftest import MM, REPO, cardforge, copy_tree, edit

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


def _built(manifest: dict) -> dict[str, int]:
    """Pieces printed in a kit, counted from its manifest: fronts per deck, one per board, copies per template."""
    counts: dict[str, int] = {}
    for section in ("cards", "tokens"):
        for record in manifest.get(section) or []:
            if record["side"] == "front":
                counts[record["deck"]] = counts.get(record["deck"], 0) + 1
    for section in ("boards", "references"):
        for record in manifest.get(section) or []:
            counts[record["board"]] = 1
    copies = {(r["template"], r["copy"]) for r in manifest.get("templates") or []}  # a strip's segments are one piece
    for template, _ in copies:
        counts[template] = counts.get(template, 0) + 1
    return counts


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_kit_opens_with_the_guide_whose_counts_match_the_rulebook(kits, game, paper):
    """The guide's pages, its count of every piece for the player, and the counts against the rulebook
    in the manifest (not on paper)."""
    pdf, manifest = _kit(kits, game, paper)
    sections = [p["section"] for p in manifest["pages"]]
    assert sections[0] == "cover" and sections[1:6] == ["guide"] * 5, sections[:8]
    contents = [p["content"] for p in manifest["pages"][:6]]
    assert contents[2:4] == ["Duplex alignment test: front (print this sheet first)", "Duplex alignment test: back"]
    # The guide is also a PDF of its own, opening with the cover, as the kit does.
    guide = kits / game / f"{game}-guide-{paper}.pdf"
    assert len(pypdfium2.PdfDocument(str(guide))) == 6
    # The rulebook's component list (components.yaml) against the pieces the kit prints.
    import yaml
    listed = yaml.safe_load((REPO / "content" / game / "components.yaml").read_text("utf-8"))["components"]
    built = _built(manifest)
    assert sorted(p for entry in listed for p in entry["pieces"]) == sorted(built), "every piece counted once"
    stated = 0
    for entry in listed:
        total = sum(built[p] for p in entry["pieces"])
        if entry["count"] is not None:
            stated += 1
            assert total == entry["count"], (game, entry["name"], total, entry["count"], entry["section"])
    assert stated > 0 or game == "war-eagles"  # its rulebook states no count at all
    # The counts against the rulebook are the designer's: in the manifest's guide record, each entry
    # with what the kit holds and what the rulebook says.
    (record,) = manifest["guide"]
    assert [(row["name"], row["kit"], row["rulebook"]) for row in record["rulebook_counts"]] == \
        [(entry["name"], sum(built[p] for p in entry["pieces"]), entry["count"]) for entry in listed]
    # The player's page lists each piece with how many to count after cutting, and no test report.
    import pdfplumber
    with pdfplumber.open(pdf) as doc:
        words = doc.pages[5].extract_words()
        text = doc.pages[5].extract_text()
        steps = " ".join(doc.pages[4].extract_text().split())
    for word in ("Match", "not stated", "Rulebook", "--"):
        assert word not in text, word
    assert "WHAT YOU NEED TO PLAY" in text and "THE RULES" in text
    header = next(w for w in words if w["text"] == "Pages" and w["top"] > 100)
    many = [w for w in words if w["text"] == "many" and w["top"] < header["bottom"] + 1][-1]
    for entry in listed:
        total = sum(built[p] for p in entry["pieces"])
        names = entry["name"].split()
        piece = [w for w in words if w["x1"] < many["x0"] - 20 and w["top"] > header["bottom"]]
        start = next(i for i in range(len(piece)) if [w["text"] for w in piece[i:i + len(names)]] == names)
        row = piece[start:start + len(names)]
        middle = (row[0]["top"] + row[-1]["bottom"]) / 2
        counts = [w for w in words if many["x0"] - 15 <= w["x0"] and w["x1"] <= header["x0"]
                  and w["top"] > header["bottom"]]
        assert min(counts, key=lambda w: abs((w["top"] + w["bottom"]) / 2 - middle))["text"] == str(total), entry
    assert "alignment test (pages 3-4)" in steps and "Print the kit." in steps


def test_a_count_the_kit_does_not_meet_or_an_unknown_piece_is_reported_at_its_line(tmp_path):
    game = tmp_path / "bombs-away"
    copy_tree(REPO / "content" / "bombs-away", game)
    edit(game, "components.yaml", 'count: 20, section: "I.B.2: \\"Axis Flak', 'count: 19, section: "I.B.2: \\"Axis Flak')
    edit(game, "components.yaml", "pieces: [squares]", "pieces: [square]")
    result = cardforge("check", game, "--layouts", REPO / "layouts", cwd=tmp_path)
    lines = result.stderr.splitlines()
    text = (game / "components.yaml").read_text("utf-8").splitlines()
    flak = next(i for i, line in enumerate(text, 1) if "count: 19" in line)
    square = next(i for i, line in enumerate(text, 1) if "[square]" in line)
    assert any(line.startswith(f"bombs-away/components.yaml:{flak}:") and "warning[W-COMPONENTS]" in line and
               "the rulebook's Axis Flak cards: 19" in line and "the kit prints 20" in line for line in lines), lines
    assert any(line.startswith(f"bombs-away/components.yaml:{square}:") and "error[E-COMPONENTS]" in line and
               "'square' is no deck, token sheet, board or template" in line for line in lines), lines
    assert result.returncode == 1


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_at_most_one_under_filled_sheet_per_kit(kits, game, paper):
    """A sheet of cut pieces whose two sides are each under 30% covered by pieces is nearly empty
    paper; the packer leaves at most one per kit (the cover, the guide and reference sheets are read,
    not cut, and do not count)."""
    _, manifest = _kit(kits, game, paper)
    covered: dict[int, float] = {}
    for page, pieces in _pieces(manifest).items():
        covered[page] = sum(box[2] * box[3] for *_, box in pieces)
    pages = manifest["pages"]
    under = []
    for k in range(0, len(pages), 2):
        sides = pages[k:k + 2]
        if sides[0]["sheet"]["kind"] == "reference":
            continue
        if all(covered.get(p["page"], 0.0) < 0.30 * p["size"][0] * p["size"][1] for p in sides):
            under.append(sides[0]["page"])
    assert len(under) <= 1, f"{game} {paper}: under-filled sheets at pages {under}"
    # The manifest states the kit's sheets beside the lower bound the build prints.
    sheets = manifest["sheets"]
    assert sheets["count"] == len(pages) // 2 and sheets["read"] <= sheets["lower_bound"] <= sheets["count"]


def test_the_build_prints_each_kits_sheets_beside_the_lower_bound(tmp_path):
    result = cardforge("build", REPO / "content" / "bombs-away", "--paper", "a4", "--out", tmp_path, "-v", cwd=REPO,
                       timeout=300)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "bombs-away" / "bombs-away-kit-a4.manifest.json").read_text("utf-8"))
    sheets = manifest["sheets"]
    line = (f"  bombs-away-kit-a4.pdf: {sheets['count']} sheets (lower bound {sheets['lower_bound']}: "
            f"{sheets['read']} to read, {sheets['lower_bound'] - sheets['read']} by the pieces' area)")
    assert line in result.stdout.splitlines(), result.stdout[-600:]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_crop_marks_of_stacked_sizes_touch_no_piece(kits, game, paper):
    """Where pieces of several sizes share a page (pack.py stacks one grid per size), every crop
    mark stays off every piece's trim box, on the fronts and on the backs (a mark may lie in a
    piece's outer bleed, which is cut away, where the margin is too narrow for it)."""
    import pdfplumber
    pdf, manifest = _kit(kits, game, paper)
    boxes: dict[int, list] = {}
    for section in ("cards", "tokens"):
        for record in manifest.get(section) or []:
            x, y, w, h = record["trim"]
            boxes.setdefault(record["page"], []).append((x, y, x + w, y + h, (w, h)))
    stacked = [page for page, found in boxes.items() if len({size for *_, size in found}) > 1]
    checked = 0
    with pdfplumber.open(pdf) as doc:
        for number in stacked:
            page = doc.pages[number - 1]
            height = float(page.height)
            for line in page.lines:
                if abs(float(line.get("linewidth") or 0) - 0.3) > 0.01:
                    continue  # crop marks are 0.3 pt; cut guides and frames are not marks
                x0, x1 = float(line["x0"]) / MM, float(line["x1"]) / MM
                y0, y1 = (height - float(line["bottom"])) / MM, (height - float(line["top"])) / MM
                for bx0, by0, bx1, by1, _ in boxes[number]:
                    overlaps = x0 < bx1 - 0.05 and x1 > bx0 + 0.05 and y0 < by1 - 0.05 and y1 > by0 + 0.05
                    assert not overlaps, f"{game} {paper} page {number}: mark {x0:.1f},{y0:.1f}-{x1:.1f},{y1:.1f}"
                checked += 1
    if stacked:
        assert checked > 0
