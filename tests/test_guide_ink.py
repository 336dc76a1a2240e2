"""The guide prints each page's ink coverage (issue 42): read from the built PDF's guide page, the
figures are the manifest's, and those are what the same measure reads from the PDF's pages.  The
guide is drawn before the pages it reports on and its own page is one of them (output/ink.py)."""
from __future__ import annotations

import json
import re

import pdfplumber
import pytest

from cardforge.output import ink as ink_module
from cardforge.output.ink import KitInk, page_coverage, percent, print_ink
from conftest import cardforge, make_game
from test_inksaver import DARK_BACK, DARK_FRONT, STAR

ENTRY = re.compile(r"(\d+)(?:-(\d+))?:\s*(<1 %|\d+ %)")


def _guide_figures(pdf) -> tuple[dict[int, str], str]:
    """{page number: figure} as the guide prints them, and the mean its sentence gives."""
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            text = " ".join((page.extract_text() or "").split())  # lines joined; no-break spaces as spaces
            if "INK PER PAGE" not in text:
                continue
            intro, _, listing = text.partition("INK PER PAGE")[2].partition("mean is")
            mean = re.match(r"\s*(<1 %|\d+ %)", listing).group(1)
            figures: dict[int, str] = {}
            body = listing.split(".", 1)[1]
            for first, last, figure in ENTRY.findall(body.split(" page ")[0] if " page " in body else body):
                for number in range(int(first), int(last or first) + 1):
                    assert number not in figures, f"page {number} listed twice"
                    figures[number] = figure
            return figures, mean
    raise AssertionError("no page of the kit prints INK PER PAGE")


@pytest.mark.parametrize("variant", ["", "--ink-saver"])
def test_the_guide_prints_each_pages_ink_as_the_manifest_records_it(tmp_path, variant):
    make_game(tmp_path, layout_yaml=DARK_FRONT, back_layout_yaml=DARK_BACK, files={"icons/star.svg": STAR})
    run = cardforge("build", "content/tiny", "--paper", "a4", "--out", "out", *([variant] if variant else []),
                    cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    name = "tiny-kit-inksaver-a4" if variant else "tiny-kit-a4"
    pdf = tmp_path / "out" / "tiny" / f"{name}.pdf"
    manifest = json.loads(pdf.with_suffix(".manifest.json").read_text())
    recorded = [page["ink"] for page in manifest["pages"]]
    # The manifest's figures are what the PDF's pages measure (the guide's own page included).
    assert recorded == [round(c, 4) for c in page_coverage(pdf)]
    figures, mean = _guide_figures(pdf)
    assert figures.keys() == set(range(1, len(recorded) + 1))
    for number, ink in enumerate(recorded, start=1):  # its whole percent, or the next within a tenth of a point
        assert figures[number] in {percent(ink), percent(ink - 0.001), percent(ink + 0.001)}, (number, ink)
    assert mean == percent(sum(recorded) / len(recorded))
    assert any(figure not in ("<1 %", "0 %") for figure in figures.values())  # the dark cards take ink
    # The guide's PDF is cut from the kit: the same page, the same figures.
    guide = json.loads((tmp_path / "out" / "tiny" / name.replace("kit", "guide")).with_suffix(".manifest.json")
                       .read_text())
    assert [page["ink"] for page in guide["pages"]] == recorded[:len(guide["pages"])]


def test_the_ink_saver_guide_reports_less_ink_than_the_kits(tmp_path):
    make_game(tmp_path, layout_yaml=DARK_FRONT, back_layout_yaml=DARK_BACK, files={"icons/star.svg": STAR})
    means = {}
    for variant, name in (((), "tiny-kit-a4"), (("--ink-saver",), "tiny-kit-inksaver-a4")):
        run = cardforge("build", "content/tiny", "--paper", "a4", "--out", "out", *variant, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        means[name] = int(_guide_figures(tmp_path / "out" / "tiny" / f"{name}.pdf")[1].rstrip(" %").lstrip("<"))
    assert means["tiny-kit-inksaver-a4"] < means["tiny-kit-a4"]


def test_a_page_at_a_rounding_edge_prints_its_own_figure_after_one_drawing(tmp_path, monkeypatch):
    """Bomber Boys' Letter guide page measures 7.5066 % printing "7 %" and 7.5020 % printing "8 %",
    both a few pixels from the edge.  Here its measure with "8 %" falls on the other side of the
    edge, so neither figure would ever be its own: within the margin, the page prints "7 %",
    drawn once."""
    measures = {"kit": [0.20, 0.0706], "7 %": [0.0750661], "8 %": [0.0749980]}
    drawn, inks = [], [KitInk(), KitInk()]

    def draw(pages, numbers, target):
        drawn.append(percent(inks[0].pages[1]))  # the figure the page prints, from the last measure
        target.write_text(drawn[-1])
        return True

    def coverage(pdf):
        return list(measures["kit" if pdf == kit else pdf.read_text()])

    monkeypatch.setattr(ink_module, "page_coverage", coverage)
    kit, scratch = tmp_path / "kit.pdf", tmp_path / "scratch.pdf"
    kit.write_text("kit")
    result = print_ink(inks[0], ["cards", "guide"], kit, lambda page: page == "guide", draw, scratch,
                       lambda pdf, indexes, again: True)
    assert drawn == ["7 %"] and result == [0.20, 0.0750661]
    # without the margin it would draw "8 %", measure 7.4998 % ("7 %"), and go round again
    monkeypatch.setattr(ink_module, "EDGE", 0.0)
    drawn.clear()
    inks.pop(0)
    print_ink(inks[0], ["cards", "guide"], kit, lambda page: page == "guide", draw, scratch,
              lambda pdf, indexes, again: True)
    assert len(drawn) == ink_module.ROUNDS
