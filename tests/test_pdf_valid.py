"""Every PDF is valid: each resource a page uses is defined, and two other readers (poppler, and
qpdf through pikepdf) read every PDF of the default build without a complaint.

The verifier (verify/resources.py) refuses a page whose content names a font, graphics state,
form, image, shading, pattern or colour space its resources do not define: a viewer silently
draws such a page without it (the Iron Rain Letter kit lost its cards' transparency so, issue 45)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cardforge.cli import main
from conftest import cardforge

REPO = Path(__file__).resolve().parent.parent
BOMBER = REPO / "content" / "bomber-boys"
LAYOUTS = REPO / "layouts"
GAMES = ("bomber-boys", "bombs-away", "iron-rain", "steel-rain", "war-eagles")
PARTS = ("kit", "cards", "guide")  # every game has these; most have tokens, boards, references too


# -- the verifier refuses what a page uses and does not define -------------------------------

def _fixture_pdf(path: Path, draw) -> None:
    """A two-page PDF: page 1 sets a fill alpha (its graphics state /gRLs0), page 2 is `draw`n."""
    from reportlab.pdfgen.canvas import Canvas
    canvas = Canvas(str(path))
    canvas.setFillAlpha(0.5)
    canvas.rect(72, 72, 100, 100, fill=1)
    canvas.showPage()
    draw(canvas)
    canvas.showPage()
    canvas.save()
    path.with_suffix(".manifest.json").write_text(json.dumps(
        {"game": "bomber-boys", "pages": [{"page": 1}, {"page": 2}], "cards": []}), "utf-8")


def _check_printed(tmp_path: Path, capsys, monkeypatch, pdf: str) -> tuple[int, list[str]]:
    monkeypatch.chdir(tmp_path)
    code = main(["check", str(BOMBER), "--layouts", str(LAYOUTS), "--printed", pdf])
    _, err = capsys.readouterr()
    lines = err.splitlines()
    # Each resource diagnostic with its help line (reportlab's own fixture pages also use a font
    # that is not embedded, which is another error)
    return code, [line for i, line in enumerate(lines) if "error[E-PRINTED-RESOURCE]" in line
                  or (i and "error[E-PRINTED-RESOURCE]" in lines[i - 1] and line.lstrip().startswith("= help:"))]


def _page_two_reuses_page_one_state(canvas) -> None:
    # What a face written for page 1 and placed again on page 2 wrote (render/replay.py, issue 45):
    # page 1's name for its graphics state, which page 2's resources do not define.
    canvas._code.append("q /gRLs0 gs 0 0 1 rg 72 72 100 100 re f Q")


def test_a_page_using_an_undefined_graphics_state_is_refused(tmp_path, capsys, monkeypatch):
    _fixture_pdf(tmp_path / "undefined.pdf", _page_two_reuses_page_one_state)
    # poppler agrees that the fixture is broken (and says so of page 2 only)
    assert "Syntax Error: ExtGState 'gRLs0' is unknown" in _poppler(tmp_path / "undefined.pdf")
    code, found = _check_printed(tmp_path, capsys, monkeypatch, "undefined.pdf")
    assert code == 1
    assert found[0] == ("cardforge: error[E-PRINTED-RESOURCE]: undefined.pdf page 2: its content uses graphics "
                        "state /gRLs0, which the page's resources do not define")
    assert found[1].strip() == "= help: a viewer draws the page without it; the PDF was written wrong: report it, " \
                               "with the file"
    assert len(found) == 2  # page 1 defines the state it uses


def test_every_kind_of_undefined_resource_is_named(tmp_path, capsys, monkeypatch):
    def draw(canvas):
        canvas._code.append("q /NoFont 9 Tf /gRLs4 gs /Pict Do /Sh1 sh /CS2 cs /P3 scn /DeviceRGB CS Q")
    _fixture_pdf(tmp_path / "many.pdf", draw)
    code, found = _check_printed(tmp_path, capsys, monkeypatch, "many.pdf")
    assert code == 1
    assert found[0] == ("cardforge: error[E-PRINTED-RESOURCE]: many.pdf page 2: its content uses font /NoFont, "
                        "graphics state /gRLs4, XObject /Pict, shading /Sh1, pattern /P3 and colour space /CS2, "
                        "which the page's resources do not define")


def test_a_form_using_an_undefined_resource_is_refused_once(tmp_path, capsys, monkeypatch):
    def draw(canvas):
        canvas.beginForm("badge")
        canvas._code.append("/gRLs9 gs 0 0 10 10 re f")  # the form defines no graphics state
        canvas.endForm()
        canvas.doForm("badge")
        canvas.doForm("badge")
    _fixture_pdf(tmp_path / "form.pdf", draw)
    code, found = _check_printed(tmp_path, capsys, monkeypatch, "form.pdf")
    assert code == 1
    assert [line for line in found if "= help:" not in line] == [
        "cardforge: error[E-PRINTED-RESOURCE]: form.pdf page 2: form /FormXob.badge uses graphics state /gRLs9, which the "
        "form's resources do not define"]


def test_a_name_inside_text_is_not_a_resource(tmp_path, capsys, monkeypatch):
    def draw(canvas):
        canvas.setFont("Helvetica", 12)
        canvas.drawString(72, 72, "/gRLs7 gs /Im9 Do")  # words, not operators
    _fixture_pdf(tmp_path / "words.pdf", draw)
    code, found = _check_printed(tmp_path, capsys, monkeypatch, "words.pdf")
    assert found == []


# -- every PDF of the default build, read by poppler and by qpdf -------------------------------

@pytest.fixture(scope="module")
def default_build(tmp_path_factory) -> Path:
    """`cardforge build` of every game, A4 and Letter, into a temporary folder, with a cache of
    its own (a first build draws every face afresh and places it again from what it kept)."""
    root = tmp_path_factory.mktemp("default-build")
    result = cardforge("build", "--out", root / "out", cwd=REPO, env={"CARDFORGE_CACHE": str(root / "cache")},
                       timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    return root / "out"


def _pdfs(out: Path) -> list[Path]:
    return sorted(out.glob("*/*.pdf"))


def _poppler(pdf: Path) -> str:
    """What poppler says on reading `pdf` (its info, and every page drawn at 10 dpi): '' if nothing.
    A component's pages are the kit's content streams copied as they are, with the resources they
    name (output/pdfcopy.py): what the copy can break, poppler's text reading looks up as its
    drawing does (fonts, graphics states, forms, images), in a fifth less time."""
    draw = ["pdftotext", str(pdf), os.devnull] if "-kit-" not in pdf.name and pdf.parent.name in GAMES else \
        ["pdftoppm", "-r", "10", str(pdf), str(pdf.with_suffix(""))]
    said = []
    for command in (["pdfinfo", str(pdf)], draw):
        run = subprocess.run(command, capture_output=True, text=True, timeout=300)
        said.append(run.stderr)
        if run.returncode:
            said.append(f"{command[0]} exited {run.returncode}")
    for picture in pdf.parent.glob(pdf.stem + "-*.p?m"):
        picture.unlink()
    return "".join(said)


def test_the_default_build_has_every_kit_and_component(default_build):
    names = {p.relative_to(default_build).as_posix() for p in _pdfs(default_build)}
    expected = {f"{game}/{game}-{part}-{paper}.pdf" for game in GAMES for part in PARTS for paper in ("a4", "letter")}
    assert expected <= names
    assert len(names) >= 50  # and the tokens, boards, references and templates of those that have them


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")
def test_poppler_reads_every_pdf_without_a_word(default_build):
    with ThreadPoolExecutor(2) as pool:
        said = dict(zip(_pdfs(default_build), pool.map(_poppler, _pdfs(default_build))))
    assert {pdf.relative_to(default_build).as_posix(): text for pdf, text in said.items() if text} == {}


def test_qpdf_reads_every_pdf_without_a_warning(default_build):
    pikepdf = pytest.importorskip("pikepdf")
    found = {}
    for pdf in _pdfs(default_build):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pikepdf.open(pdf) as opened:
                problems = (getattr(opened, "check_pdf_syntax", None) or opened.check)()  # pikepdf 8: check()
                for page in opened.pages:  # every page's content parses, operator by operator
                    pikepdf.parse_content_stream(page)
                problems += [str(w.message) for w in caught] + [str(w) for w in opened.get_warnings()]
        if problems:
            found[pdf.relative_to(default_build).as_posix()] = problems
    assert found == {}
