"""Front-end defects found by trying cardforge as a new user would (issue 10), each with the
behaviour a user sees: the exit code, the exact diagnostic, the text read back from the PDF."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber

from conftest import CARDS_YAML, GAME_YAML, cardforge, headlines, make_game

CARDS = "content/tiny/cards/cards.yaml"


def _build(tmp_path: Path, *args) -> tuple[int, str]:
    result = cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", *args, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stderr


def _frame_text(tmp_path: Path, card: str, frame: str) -> str:
    manifest = json.loads((tmp_path / "out/tiny/tiny-cards-a4.manifest.json").read_text("utf-8"))
    for face in manifest["cards"]:
        if face.get("card") == card and face.get("side") == "front":
            return next(f for f in face["frames"] if f["name"] == frame).get("text", "")
    raise AssertionError(f"no front of {card}")


def _pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


# -- "write \: for a literal colon" ----------------------------------------------------------------

def test_an_escaped_colon_before_a_word_prints_as_itself_and_passes_verification(tmp_path):
    # The help of E-UNKNOWN-SYMBOL says to write \: for a literal colon; the build then failed its
    # own verification ("printed 'Time:foo:' where the data now gives 'Time'").
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("First card, **bold** and *italic*.",
                                                      "Time\\\\:foo: bar, 1\\\\*2"))
    code, err = _build(tmp_path)
    assert code == 0, err
    with pdfplumber.open(tmp_path / "out/tiny/tiny-cards-a4.pdf") as pdf:
        words = pdf.pages[0].extract_text()
    assert "Time:foo: bar, 1*2" in words


def test_a_lone_backslash_prints_as_itself(tmp_path):
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("First card, **bold** and *italic*.", "a \\\\ b \\\\"))
    code, err = _build(tmp_path)
    assert code == 0, err
    assert "a \\ b \\" in _pdf_text(tmp_path / "out/tiny/tiny-cards-a4.pdf")


# -- deck names print whole -------------------------------------------------------------------------

def test_a_deck_name_with_a_comma_prints_whole_in_the_kit_contents(tmp_path):
    name = "Heroes, villains and sidekicks"
    make_game(tmp_path, game_yaml=GAME_YAML.replace("name: Main cards", f"name: '{name}'"))
    code, err = _build(tmp_path)
    assert code == 0, err
    with pdfplumber.open(tmp_path / "out/tiny/tiny-kit-a4.pdf") as pdf:
        cover = pdf.pages[0].extract_text()
    assert name in cover
    manifest = json.loads((tmp_path / "out/tiny/tiny-kit-a4.manifest.json").read_text("utf-8"))
    assert [entry["name"] for entry in manifest["contents"] if entry["section"] != "guide"] == [name]


# -- a typo inside a field schema -------------------------------------------------------------------

def test_a_typo_in_a_field_schema_is_an_error_with_a_did_you_mean(tmp_path):
    make_game(tmp_path, game_yaml=GAME_YAML.replace("cost: {type: integer, minimum: 0}", "cost: {tpye: integer}"))
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    assert headlines(result.stderr) == [
        "content/tiny/game.yaml:14:14: error[E-SCHEMA-DEF]: field 'cost': unknown schema keyword 'tpye', "
        "did you mean 'type'?"]
    assert "= help: did you mean 'type'?" in result.stderr


def test_a_nested_typo_in_a_field_schema_points_at_its_key(tmp_path):
    game = GAME_YAML.replace("cost: {type: integer, minimum: 0}",
                             "cost:\n        type: object\n        properties:\n          n: {type: integer, minimun: 1}")
    make_game(tmp_path, game_yaml=game, cards_yaml="cards:\n  - id: a\n    title: A\n    text: x\n")
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert headlines(result.stderr) == [
        "content/tiny/game.yaml:17:30: error[E-SCHEMA-DEF]: field 'cost': unknown schema keyword 'minimun', "
        "did you mean 'minimum'?"]


# -- a schema error in one card hides nothing else ----------------------------------------------------

def test_a_schema_error_in_one_card_does_not_hide_the_other_checks(tmp_path):
    cards = """\
cards:
  - id: alpha
    title: Alpha
    text: "Roll :d6-9: now"
    cost: many
  - id: beta
    title: Beta
    text: "A :strar: here"
  - id: alpha
    title: Again
    text: x
"""
    make_game(tmp_path, cards_yaml=cards)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    found = headlines(result.stderr)
    assert found == [
        f"{CARDS}:4:17: error[E-UNKNOWN-SYMBOL]: card 'alpha' (front), frame 'text' of layout 'front': "
        "':d6-9:' is not an icon, so it would be printed as text",
        f"{CARDS}:5:11: error[E-SCHEMA]: expected integer, got text (\"many\")",
        f"{CARDS}:8:14: error[E-UNKNOWN-SYMBOL]: card 'beta' (front), frame 'text' of layout 'front': "
        "':strar:' is not an icon, so it would be printed as text",
        f"{CARDS}:9:9: error[E-DUPLICATE-ID]: card id 'alpha' is already used",
    ], result.stderr


def test_a_missing_required_field_is_reported_once_not_again_by_the_faces_that_read_it(tmp_path):
    game = GAME_YAML.replace("    fields:", "    required: [title]\n    fields:")
    make_game(tmp_path, game_yaml=game, cards_yaml="cards:\n  - id: a\n    text: hi\n  - id: b\n    title: B\n")
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert headlines(result.stderr) == [f"{CARDS}:2:5: error[E-SCHEMA]: missing required key 'title'"]


# -- absent is not null -----------------------------------------------------------------------------

ABSENT_LAYOUT = """\
frames:
  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ card.title }}"}
  probe:
    type: text
    x: 4mm
    y: 20mm
    width: 55mm
    height: 20mm
    text: "cost {{ 'absent' if card.cost is not defined else ('null' if card.cost is none else card.cost) }}[{{ card.cost }}]"
"""


def test_an_absent_field_is_undefined_and_an_explicit_null_is_none(tmp_path):
    game = GAME_YAML.replace("cost: {type: integer, minimum: 0}", "cost: {type: [integer, 'null']}")
    cards = "cards:\n  - id: a\n    title: A\n  - id: b\n    title: B\n    cost: null\n  - id: c\n    title: C\n    cost: 0\n"
    make_game(tmp_path, game_yaml=game, cards_yaml=cards, layout_yaml=ABSENT_LAYOUT)
    code, err = _build(tmp_path)
    assert code == 0, err
    text = _pdf_text(tmp_path / "out/tiny/tiny-cards-a4.pdf")
    assert "cost absent[]" in text and "cost null[]" in text and "cost 0[0]" in text


def test_rules_see_an_absent_field_as_undefined(tmp_path):
    rules = """\
checks:
  - id: COST-SET
    section: "Costs: every card has one"
    severity: error
    assert: "card.cost is defined"
    message: "card {{ card.id }} has no cost"
"""
    cards = "cards:\n  - id: a\n    title: A\n    cost: 1\n  - id: b\n    title: B\n"
    make_game(tmp_path, cards_yaml=cards, files={"rules.yaml": rules})
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert [h.split(": error")[1] for h in headlines(result.stderr)] == ["[COST-SET]: card b has no cost"]


def test_a_name_that_is_no_field_stays_an_error(tmp_path):
    layout = "frames:\n  t: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: '{{ card.titel }}'}\n"
    make_game(tmp_path, layout_yaml=layout)
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1
    assert "'titel' is not a field of this deck's cards" in result.stderr


# -- game folders anywhere ----------------------------------------------------------------------------

SHARED_LAYOUT = """\
extends: card
frames:
  title: {type: text, x: 5mm, y: 5mm, width: 53mm, height: 8mm, text: "{{ card.title }}"}
"""


def test_a_game_folder_anywhere_extends_the_common_layouts_shipped_with_cardforge(tmp_path):
    # No content/ and no layouts library beside it: a folder of its own, checked from inside.
    game = make_game(tmp_path, layout_yaml=SHARED_LAYOUT)
    anywhere = tmp_path / "somewhere" / "else" / "my-game"
    anywhere.parent.mkdir(parents=True)
    shutil.move(str(game), str(anywhere))
    result = cardforge("build", ".", "--paper", "a4", cwd=anywhere)
    assert result.returncode == 0, result.stderr
    assert (anywhere / "build/my-game/tiny-cards-a4.pdf").is_file()
    schema = cardforge("schema", ".", "--out", "schemas", cwd=anywhere)
    assert schema.returncode == 0, schema.stderr
    again = cardforge("check", ".", "--strict", cwd=anywhere)  # build/ and schemas/ are not unused files
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == "ok: no problems found"


def test_unknown_layout_says_where_it_looked_and_how_to_add_a_layouts_folder(tmp_path):
    make_game(tmp_path, layout_yaml="extends: cardd\nframes: {}\n")
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    lines = result.stderr.splitlines()
    assert "content/tiny/layouts/front.yaml:1:10: error[E-UNKNOWN-LAYOUT]: layout 'front' extends unknown layout " \
        "'cardd'" in lines
    help_line = next(line for line in lines if line.startswith("  = help: did you mean 'card'?"))
    assert "looked in content/tiny/layouts, " in help_line and "cardforge/layout/common" in help_line
    assert help_line.endswith("put '<name>.yaml' in content/tiny/layouts/ (the game's own layouts folder), "
                              "or give the folder of a layouts library with --layouts DIR")


def test_an_ignored_file_with_a_very_long_line_is_not_quoted_whole(tmp_path):
    make_game(tmp_path, files={"notes/dump.json": json.dumps({"x": "y" * 50_000})})
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert headlines(result.stderr) == [
        "content/tiny/notes/dump.json:1:1: warning[W-IGNORED-FILE]: this file is ignored: no layout draws it "
        "and game.yaml does not name it"]
    assert len(result.stderr) < 1000
