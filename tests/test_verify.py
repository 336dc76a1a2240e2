"""Printed-output check (cardforge/verify/): a built PDF against its manifest and the data.

The module builds a copy of Bomber Boys once; each test then edits its own copy of the data (or of the
PDF and manifest) and runs `cardforge check --printed OLD.pdf`, in this process.
"""
from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from cardforge.output.build import build_game
from cardforge.prepare import prepare
from cardforge.cli import main
from cardforge.diagnostics import Report

REPO = Path(__file__).resolve().parent.parent
BOMBER = REPO / "content" / "bomber-boys"
LAYOUTS = REPO / "layouts"
HEADLINE = re.compile(r"^(\S[^:]*:\d+:\d+|cardforge): (error|warning)\[[A-Z0-9-]+\]: ")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """tmp/old: the PDFs and manifests of a clean build of (a copy of) Bomber Boys."""
    root = tmp_path_factory.mktemp("verify")
    shutil.copytree(BOMBER, root / "pristine" / "bomber-boys")
    result = build_game(root / "pristine" / "bomber-boys", root / "old", layouts_dir=LAYOUTS)
    assert not result.report.has_errors(), result.report.format_text()
    assert [d.code for d in result.report.items if d.code.startswith("E-PRINTED")] == []
    return root / "old"


@pytest.fixture
def work(tmp_path, built) -> Path:
    """tmp_path holding old/ (the earlier build) and bomber-boys/ (data to edit)."""
    shutil.copytree(built, tmp_path / "old")
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def loc(path: Path, line: str, at: str, after: str | None = None, root: Path | None = None) -> str:
    lines = path.read_text("utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if after in text) if after else 0
    index = next(i for i in range(start, len(lines)) if line in lines[i])
    return f"{path.relative_to(root).as_posix()}:{index + 1}:{lines[index].index(at) + 1}"


def printed(work: Path, capsys, monkeypatch, *pdfs: str, extra=()) -> tuple[int, list[str], str]:
    monkeypatch.chdir(work)
    args = ["check", "bomber-boys", "--layouts", str(LAYOUTS), *extra]
    for pdf in pdfs:
        args += ["--printed", pdf]
    code = main(args)
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if HEADLINE.match(line)], out + err


def errors(found: list[str]) -> list[str]:
    return [line for line in found if "error[" in line]


# -- the earlier build against unchanged data ---------------------------------------------------

def test_every_pdf_of_a_build_matches_unchanged_data(work, capsys, monkeypatch):
    pdfs = sorted(p.name for p in (work / "old").glob("*.pdf"))
    assert len(pdfs) == 12  # cards, boards, tokens, references, guide and kit, for A4 and Letter
    code, found, output = printed(work, capsys, monkeypatch, *(f"old/{name}" for name in pdfs))
    assert code == 0, output
    assert errors(found) == []


# -- one edit after the build --------------------------------------------------------------------

# (The edits are ones the rules allow: a base aircraft's damage track or a text the rulebook prints
# would be a rules error first, and check --printed then stops there.)

def test_edited_damage_track_fails_naming_the_card(work, capsys, monkeypatch):
    enemies = work / "bomber-boys" / "cards" / "enemies.yaml"
    edit(enemies, "    damage_spaces: 2\n", "    damage_spaces: 3\n")  # the first Enemy Ace's (authored) track
    code, found, output = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    assert errors(found) == [
        f"{loc(enemies, 'damage_spaces: 3', '3', root=work)}: error[E-PRINTED-ICONS]: old/bomber-boys-cards-a4.pdf: "
        "card 'enemy-ace-high' (front), frame 'damage-track': the PDF shows 2 icons (box x2), the data now "
        "gives 3 (box x3)"]


def test_edited_text_fails_naming_the_card_and_the_words(work, capsys, monkeypatch):
    missions = work / "bomber-boys" / "cards" / "missions.yaml"
    edit(missions, "Simple, right?", "Easy enough, right?")  # a briefing is flavour: the rules allow it
    code, found, _ = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-letter.pdf")
    assert code == 1
    assert errors(found) == [
        f"{loc(missions, 'Easy enough, right?', 'Easy', root=work)}: error[E-PRINTED-TEXT]: "
        "old/bomber-boys-cards-letter.pdf: card 'milk-run' (front), frame 'briefing': printed 'from the sky. "
        "Simple,' where the data now gives 'from the sky. Easy enough,'"]


def test_edit_rebuild_then_check_the_earlier_pdf(tmp_path, capsys, monkeypatch):
    """The acceptance scenario: build, keep the PDF, edit one number, rebuild, check the kept PDF."""
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "bomber-boys", "--layouts", str(LAYOUTS), "--paper", "a4", "--out", "out"]) == 0
    shutil.copy(tmp_path / "out" / "bomber-boys" / "bomber-boys-cards-a4.pdf", tmp_path / "old.pdf")
    shutil.copy(tmp_path / "out" / "bomber-boys" / "bomber-boys-cards-a4.manifest.json",
                tmp_path / "old.manifest.json")
    crew = tmp_path / "bomber-boys" / "cards" / "crew.yaml"
    edit(crew, "hits: [{roll: 3, damage: 1}, {roll: 6, damage: 2}]", "hits: [{roll: 4, damage: 1}, {roll: 6, damage: 2}]")
    capsys.readouterr()
    assert main(["build", "bomber-boys", "--layouts", str(LAYOUTS), "--paper", "a4", "--out", "out"]) == 0
    capsys.readouterr()
    code = main(["check", "bomber-boys", "--layouts", str(LAYOUTS), "--printed", "old.pdf"])
    found = [line for line in capsys.readouterr().err.splitlines() if "error[" in line]
    assert code == 1
    assert found == [
        f"{loc(crew, '- name: Cheek Gun', '-', root=tmp_path)}: error[E-PRINTED-ICONS]: old.pdf: card 'navigator' "
        "(front), frame 'actions': the PDF shows 2 icons (d6-3 x1, d6-6 x1), the data now gives 2 (d6-4 x1, d6-6 x1)"]
    # ... while the fresh build matches the data.
    assert main(["check", "bomber-boys", "--layouts", str(LAYOUTS), "--printed",
                 "out/bomber-boys/bomber-boys-cards-a4.pdf"]) == 0


def test_changed_quantity(work, capsys, monkeypatch):
    items = work / "bomber-boys" / "cards" / "items.yaml"
    edit(items, "  - id: extra-ammo\n", "  - id: extra-ammo\n    quantity: 2\n")
    code, found, _ = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    assert errors(found) == [
        f"{loc(items, 'quantity: 2', '2', root=work)}: error[E-PRINTED-CARDS]: old/bomber-boys-cards-a4.pdf: "
        "card 'extra-ammo' is printed 1 time, but its quantity is now 2"]


def test_card_gone_from_the_data(work, capsys, monkeypatch):
    items = work / "bomber-boys" / "cards" / "items.yaml"
    text = items.read_text("utf-8")
    start = text.index("  - id: lucky-coin\n")
    end = text.index("  - id: rabbits-foot\n")
    items.write_text(text[:start] + text[end:], "utf-8")
    manifest = json.loads((work / "old" / "bomber-boys-cards-a4.manifest.json").read_text("utf-8"))
    page = next(c["page"] for c in manifest["cards"] if c["card"] == "lucky-coin")
    code, found, output = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    assert f"cardforge: error[E-PRINTED-CARD]: old/bomber-boys-cards-a4.pdf: card 'lucky-coin' is printed (page " \
           f"{page}) but is no longer in the data" in found


def test_data_with_errors_cannot_be_compared(work, capsys, monkeypatch):
    edit(work / "bomber-boys" / "cards" / "enemies.yaml", "    damage_spaces: 6\n", "    damage_spaces: 0\n")
    code, found, _ = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    assert any("error[BB-DAMAGE-TRACK]" in line for line in found)
    assert "cardforge: error[E-PRINTED-DATA]: the data of bomber-boys has errors, so printed PDFs cannot be " \
           "compared with it" in found


# -- what the PDF itself must satisfy --------------------------------------------------------------

def test_glyph_outside_the_trim_box_is_reported(work, capsys, monkeypatch):
    mpath = work / "old" / "bomber-boys-cards-a4.manifest.json"
    manifest = json.loads(mpath.read_text("utf-8"))
    record = next(c for c in manifest["cards"] if c["card"] == "bombardier" and c["side"] == "front")
    # Pretend the card was 20 mm narrower (and its bleed wider, so its drawing is still its own):
    # its title and actions now run past the right edge of the trim box.
    record["trim"][2] -= 20
    record["bleed"] = 25
    mpath.write_text(json.dumps(manifest), "utf-8")
    code, found, _ = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    clipped = [line for line in found if "E-PRINTED-CLIP" in line]
    assert clipped and all(line.startswith("bomber-boys/cards/crew.yaml:") for line in clipped)
    assert "card 'bombardier' (front): " in clipped[0] and "reaches outside the trim box and is cut off" in clipped[0]


def test_font_that_is_not_embedded(work, capsys, monkeypatch):
    from reportlab.pdfgen.canvas import Canvas
    canvas = Canvas(str(work / "plain.pdf"))
    canvas.setFont("Helvetica", 12)
    canvas.drawString(72, 72, "Helvetica is one of the 14 standard fonts: never embedded")
    canvas.save()
    (work / "plain.manifest.json").write_text(json.dumps(
        {"game": "bomber-boys", "pages": [{"page": 1}], "cards": []}), "utf-8")
    code, found, _ = printed(work, capsys, monkeypatch, "plain.pdf")
    assert code == 1
    assert "cardforge: error[E-PRINTED-FONT]: plain.pdf page 1: font 'Helvetica' is not embedded" in found


def test_pdf_and_manifest_from_different_builds(work, capsys, monkeypatch):
    shutil.copy(work / "old" / "bomber-boys-tokens-a4.manifest.json", work / "old" / "bomber-boys-cards-a4.manifest.json")
    code, found, _ = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    assert [line for line in found if "E-PRINTED-MANIFEST" in line][0].startswith(
        "cardforge: error[E-PRINTED-MANIFEST]: old/bomber-boys-cards-a4.pdf has ")


def test_missing_manifest_and_missing_pdf(work, capsys, monkeypatch):
    (work / "old" / "bomber-boys-cards-a4.manifest.json").unlink()
    code, found, _ = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf")
    assert code == 1
    assert "cardforge: error[E-PRINTED-MANIFEST]: old/bomber-boys-cards-a4.pdf: its manifest " \
           "bomber-boys-cards-a4.manifest.json is missing or unreadable" in found
    code, _, output = printed(work, capsys, monkeypatch, "old/nope.pdf")
    assert code == 2
    assert "cardforge: error: old/nope.pdf: no such PDF" in output


def test_json_format(work, capsys, monkeypatch):
    edit(work / "bomber-boys" / "cards" / "enemies.yaml", "    damage_spaces: 2\n", "    damage_spaces: 3\n")
    code, _, output = printed(work, capsys, monkeypatch, "old/bomber-boys-cards-a4.pdf", extra=("--format", "json"))
    items = json.loads(output[:output.rindex("]") + 1])
    item = next(d for d in items if d["code"] == "E-PRINTED-ICONS")
    assert code == 1
    assert (item["card"], item["file"]) == ("enemy-ace-high", "bomber-boys/cards/enemies.yaml")


def test_the_game_is_found_from_the_manifest(work, capsys, monkeypatch):
    (work / "content").mkdir()
    shutil.move(str(work / "bomber-boys"), str(work / "content" / "bomber-boys"))
    shutil.copytree(LAYOUTS, work / "layouts")
    monkeypatch.chdir(work)
    assert main(["check", "--printed", "old/bomber-boys-cards-a4.pdf"]) == 0, capsys.readouterr().err


# -- the build checks what it wrote ------------------------------------------------------------------

def test_build_fails_when_its_pdf_does_not_show_the_data(tmp_path, capsys, monkeypatch):
    """A renderer that forgets some icons: the PDF no longer matches its manifest, and the build says so."""
    from cardforge.layout import icons
    original = icons.IconPainter.draw

    def forgetful(self, name, *args, **kwargs):
        if name != "box":
            original(self, name, *args, **kwargs)

    monkeypatch.setattr(icons.IconPainter, "draw", forgetful)
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    monkeypatch.chdir(tmp_path)
    code = main(["build", "bomber-boys", "--layouts", str(LAYOUTS), "--paper", "a4", "--out", "out"])
    found = [line for line in capsys.readouterr().err.splitlines() if "error[E-PRINTED-ICONS]" in line]
    assert code == 1
    assert any("card 'enemy-aircraft-me-410' (front), frame 'damage-track': the PDF shows 0 icons (none), the data "
               "now gives 6 (box x6)" in line for line in found), found


def test_verification_is_fast(built):
    from cardforge.verify import verify_outputs
    prep = prepare(built.parent / "pristine" / "bomber-boys", Report(), LAYOUTS)
    pdfs = sorted(built.glob("*.pdf"))
    report = Report()
    start = time.perf_counter()
    verify_outputs(prep, pdfs, report)
    elapsed = time.perf_counter() - start
    assert not report.items
    assert elapsed < 3.0, f"verifying {len(pdfs)} PDFs took {elapsed:.2f} s"


def test_words_are_read_as_the_renderer_parses_them():
    """verify's quick tokenizer gives the words text.parse gives, for every text of Bomber Boys."""
    from cardforge.layout import text as richtext
    from cardforge.render.evaluate import FaceEvaluator, plain_words
    prep = prepare(BOMBER, Report())
    evaluator = FaceEvaluator(prep.game, prep.fonts, prep.icons)
    family = prep.fonts.family("sans")
    count = 0
    for card in prep.game.cards():
        for side in ("front", "back"):
            layout = prep.faces.get((card.id, side))
            if layout is None:
                continue
            ctx = evaluator.context(card, side, 1)
            for frame in layout.frames:
                if frame.type != "text" or "when" in frame.props:
                    continue
                markup = str(evaluator._value(frame, "text", ctx))
                upper = bool(frame.props.get("uppercase"))
                rich = richtext.parse(markup, family, "regular", prep.icons.__contains__, uppercase=upper)
                words = ["".join(f.value for f in w.frags if f.kind == "text") for p in rich.paragraphs
                         for line in p for w in line]
                assert plain_words(markup, prep.icons.__contains__, upper) == ([w for w in words if w], rich.icons)
                count += 1
    assert count > 100


def test_numbered_series_read_back_against_unchanged_data(tmp_path, capsys, monkeypatch):
    """Steel Rain's numbered markers (`series` and `variants`: each copy its own number and side)
    check clean against the data they were built from: each copy is compared with its own values."""
    game = tmp_path / "steel-rain"
    shutil.copytree(REPO / "content" / "steel-rain", game)
    result = build_game(game, tmp_path / "old", papers=("a4",), kit=False, layouts_dir=LAYOUTS)
    assert not result.report.has_errors(), result.report.format_text()
    tokens = tmp_path / "old" / "steel-rain-tokens-a4.pdf"
    assert tokens.is_file()
    monkeypatch.chdir(tmp_path)
    code = main(["check", "steel-rain", "--layouts", str(LAYOUTS), "--printed", str(tokens)])
    out, err = capsys.readouterr()
    assert [line for line in err.splitlines() if HEADLINE.match(line)] == [], err
    assert code == 0
