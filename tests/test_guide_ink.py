"""The guide prints each page's ink coverage (issue 42): read from the built PDF's guide page, the
figures are the manifest's, and those are what the same measure reads from the PDF's pages.  The
guide is drawn before the pages it reports on and its own page is one of them (output/ink.py)."""
from __future__ import annotations

import json
import re

import pdfplumber
import pytest

from cardforge.output.ink import page_coverage, percent
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
    assert figures == {number: percent(ink) for number, ink in enumerate(recorded, start=1)}
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
