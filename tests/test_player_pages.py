"""What the player holds: a back offset lands in the paper's frame on portrait and landscape sheets
alike (measured from the PDF), and no page a player sees speaks to the designer."""
from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from conftest import BOMBER, MM, REPO, cardforge

GAMES = ("bomber-boys", "bombs-away", "iron-rain", "steel-rain", "war-eagles")
OFFSET = (1.5, -0.8)  # mm, in the paper's frame: unequal and of both signs, so a swapped axis or sign shows


def _build(out: Path, *extra: str) -> Path:
    result = cardforge("build", BOMBER, "--paper", "a4", "--out", out, *extra, cwd=REPO, timeout=600)
    assert result.returncode == 0, result.stderr
    return out / "bomber-boys" / "bomber-boys-kit-a4.pdf"


def _shift(moved, still) -> tuple[float, float]:
    """How far a back page's drawing moved between two builds, in mm along the page's own x and y
    (up): the commonest displacement of its letters and pictures (the footer stays where it was;
    crop marks may differ, as a mark that no longer fits the margin is left out)."""
    deltas = Counter()
    for kind in ("chars", "images"):
        a, b = getattr(moved, kind), getattr(still, kind)
        assert len(a) == len(b)
        for m, s in zip(a, b):
            deltas[(round((m["x0"] - s["x0"]) / MM, 2), round((s["top"] - m["top"]) / MM, 2))] += 1
    deltas.pop((0.0, 0.0), None)
    assert deltas, "nothing on the back page moved"
    return deltas.most_common(1)[0][0]


def test_a_back_offset_is_applied_in_the_papers_frame_on_portrait_and_landscape_sheets(tmp_path):
    plain = _build(tmp_path / "plain")
    shifted = _build(tmp_path / "shifted", "--back-offset", f"{OFFSET[0]},{OFFSET[1]}")
    manifest = json.loads(plain.with_suffix(".manifest.json").read_text("utf-8"))
    backs = [p for p in manifest["pages"] if p.get("sheet", {}).get("kind") == "two-sided"
             and p["content"].endswith("backs")]
    portrait = next(p["page"] for p in backs if p["size"][0] < p["size"][1])
    landscape = next(p["page"] for p in backs if p["size"][0] > p["size"][1])
    fronts = next(p["page"] for p in manifest["pages"] if p["content"].endswith("fronts"))
    with pdfplumber.open(plain) as still, pdfplumber.open(shifted) as moved:
        # A portrait page is the paper as the test reads it: the offset applies as it is.
        assert _shift(moved.pages[portrait - 1], still.pages[portrait - 1]) == pytest.approx(OFFSET, abs=0.02)
        # A landscape page is the paper turned a quarter anticlockwise (its top along the paper's left
        # edge): the page's (dx, dy) is the paper's (-dy, dx).
        dx, dy = _shift(moved.pages[landscape - 1], still.pages[landscape - 1])
        assert (-dy, dx) == pytest.approx(OFFSET, abs=0.02)
        assert (dx, dy) != pytest.approx(OFFSET, abs=0.02)  # not along the page's own axes
        # Fronts never move.
        a, b = moved.pages[fronts - 1], still.pages[fronts - 1]
        assert [(c["x0"], c["top"]) for c in a.chars] == [(c["x0"], c["top"]) for c in b.chars]


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kits")
    result = cardforge("build", "--out", out, cwd=REPO, timeout=900)
    assert result.returncode == 0, result.stderr
    return out


DESIGNER_WORDS = re.compile(r"cardforge|provenance|authored|sample content|not stated|(?<![\w-])--[a-z]", re.I)


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game", GAMES)
def test_no_page_a_player_sees_speaks_to_the_designer(kits, game, paper):
    pdf = kits / game / f"{game}-kit-{paper}.pdf"
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    found = [(number, line.strip()) for number, page in enumerate(text.split("\f"), start=1)
             for line in page.splitlines() if DESIGNER_WORDS.search(line)]
    assert not found, found
    # Every footer gives the PDF's own page number, the one a viewer shows.
    pages = text.split("\f")[:-1]
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in " ".join(page.split()), (game, paper, number)


@pytest.mark.parametrize("paper", ("a4", "letter"))
def test_the_guide_cites_the_pdfs_page_numbers(kits, paper):
    """The guide's page list names, for each paper, pages whose footers say they hold those sections."""
    pdf = kits / "war-eagles" / f"war-eagles-kit-{paper}.pdf"
    manifest = json.loads(pdf.with_suffix(".manifest.json").read_text("utf-8"))
    (guide,) = manifest["guide"]
    sections = {p["page"]: p["section"] for p in manifest["pages"]}
    for row in guide["papers"]:
        numbers = [n for part in row["pages"].split(", ")
                   for n in (range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1))]
        kinds = {sections[n] for n in numbers}
        if row["paper"].startswith("Card stock"):
            assert kinds <= {"cards", "tokens", "templates"}, row
        if row["paper"].startswith("Plain"):
            assert kinds <= {"cover", "guide", "references"}, row
    assert sum(len(row["pages"]) > 0 for row in guide["papers"]) == len(guide["papers"])
    with pdfplumber.open(pdf) as doc:
        text = " ".join(doc.pages[1].extract_text().split())
    assert "WHICH PAGES ON WHICH PAPER" in text and "PRINTING BOTH SIDES" in text and "Without" in text
    assert "odd pages" in text and "even pages" in text


def test_a_saved_printer_gives_its_offset_and_flip_and_bad_values_are_diagnosed_at_their_lines(tmp_path):
    from argparse import Namespace

    from cardforge.cli.build import apply_printer
    printers = tmp_path / "printers.yaml"
    printers.write_text("office:\n  back-offset: 1.5,-0.8\n  flip: short\nbad:\n  back-offset: 30,x\n"
                        "  flip: sideways\n  colour: red\n", "utf-8")
    env = {"CARDFORGE_PRINTERS": str(printers)}
    import os
    old = os.environ.get("CARDFORGE_PRINTERS")
    os.environ.update(env)
    try:
        args = Namespace(printer="office", back_offset=None, flip=None, format="text")
        apply_printer(args)
        assert (args.back_offset, args.flip) == ("1.5,-0.8", "short")
        args = Namespace(printer="office", back_offset="0,1", flip="long", format="text")
        apply_printer(args)  # the command line wins
        assert (args.back_offset, args.flip) == ("0,1", "long")
    finally:
        os.environ.pop("CARDFORGE_PRINTERS") if old is None else os.environ.update(CARDFORGE_PRINTERS=old)
    result = cardforge("build", BOMBER, "--printer", "bad", "--out", tmp_path / "out", cwd=tmp_path, env=env)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if "error[E-PRINTER]" in line]
    assert lines == ["printers.yaml:5:16: error[E-PRINTER]: back-offset takes two numbers in mm, X,Y, not '30,x'",
                     "printers.yaml:6:9: error[E-PRINTER]: flip must be long or short, not 'sideways'",
                     "printers.yaml:7:3: error[E-PRINTER]: unknown setting 'colour' of printer 'bad'"], result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()
    result = cardforge("build", BOMBER, "--printer", "nope", "--out", tmp_path / "out", cwd=tmp_path, env=env)
    assert f"printers.yaml:1:1: error[E-PRINTER]: no printer 'nope' in {printers}" in result.stderr
    assert "help: the printers are: office, bad" in result.stderr
