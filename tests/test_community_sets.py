"""Card sets as their communities publish them (issue 10), on two sets written for these tests:

* tests/fixtures/community/ember-vale: one JSON file per card in a folder, HTML in the text,
  [bracket] symbols, the set's own schema (if-then), quantities from a pack file {code: copies};
* tests/fixtures/community/star-courier: bare JSON lists per pack found by a glob, a published
  schema with $defs, $ref to a second schema file, oneOf by card type and if-then-else, and a
  pack file of rows {card, copies}.

Each builds as published, and each mistake a community makes gives its exact diagnostic."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from conftest import cardforge, headlines

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "community"


def _copy(tmp_path: Path, name: str) -> Path:
    """The set copied to tmp_path/<name>, to be checked from tmp_path (paths print as <name>/...)."""
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


def _check(tmp_path: Path, name: str) -> tuple[int, list[str], str]:
    result = cardforge("check", name, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, headlines(result.stderr), result.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Both sets built once, as published, into out/<name>/."""
    root = tmp_path_factory.mktemp("community")
    for name in ("ember-vale", "star-courier"):
        result = cardforge("build", FIXTURES / name, "--out", root / "out", "--paper", "a4", cwd=root)
        assert result.returncode == 0, result.stderr
        assert "warning" not in result.stderr, result.stderr
    return root / "out"


def _faces(built: Path, name: str) -> list[dict]:
    manifest = json.loads((built / name / f"{name}-cards-a4.manifest.json").read_text("utf-8"))
    return [face for face in manifest["cards"] if face["side"] == "front"]


def _pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


# -- they build as published ----------------------------------------------------------------------

def test_both_sets_check_clean_with_no_conversion(tmp_path):
    for name in ("ember-vale", "star-courier"):
        result = cardforge("check", FIXTURES / name, "--strict", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stderr.strip() == "ok: no problems found"


def test_card_per_file_set_prints_html_and_symbols_as_rich_text(built):
    faces = {face["card"]: face for face in _faces(built, "ember-vale")}
    text = {f["name"]: f for f in faces["01001"]["frames"]}["text"]
    # <b>Forced:</b> -> bold, the colon printed as itself; [credit] -> icons/coin.svg; <br/> a new line
    assert text["icons"] == {"coin": 3, "fire": 1}
    printed = _pdf_text(built / "ember-vale" / "ember-vale-cards-a4.pdf")
    assert "Forced: at the start of your turn," in printed
    assert "Action: spend" in printed
    assert "Odds & ends cost 1 less" in printed and "(minimum 0*)." in printed  # &amp; and a literal *
    assert "<b>" not in printed and "[credit]" not in printed and "&amp;" not in printed
    with pdfplumber.open(built / "ember-vale" / "ember-vale-cards-a4.pdf") as pdf:
        bold = {c["text"] for c in pdf.pages[0].chars if "bold" in c["fontname"].lower()}
        italic = "".join(c["text"] for c in pdf.pages[0].chars if "italic" in c["fontname"].lower())
    assert set("Forced:") <= bold
    assert "Thesparkremembers" in italic.replace(" ", "")


def test_quantities_are_joined_from_the_pack_file(built):
    copies = Counter(face["card"] for face in _faces(built, "ember-vale"))
    assert copies == {"01001": 1, "01002": 3, "01003": 2, "01004": 2, "01005": 1}
    copies = Counter(face["card"] for face in _faces(built, "star-courier"))
    assert copies == {"sc001": 2, "sc002": 1, "sc003": 3, "sc004": 2, "sc101": 1, "sc102": 2}


def test_bare_pack_lists_found_by_a_glob_print_every_card(built):
    printed = _pdf_text(built / "star-courier" / "star-courier-cards-a4.pdf")
    for name in ("Lantern Runner", "Mira Okafor", "Spice Crates", "Pirate Ambush", "Dust Hauler", "Customs Audit"):
        assert name in printed
    assert "Jump: move 2 sectors" in printed
    faces = {face["card"]: face for face in _faces(built, "star-courier")}
    stats = {f["name"]: f for f in faces["sc003"]["frames"]}["stats"]
    assert stats["text"] == "Reward 5 :credit:"


# -- a cross-field rule of the set's own schema ---------------------------------------------------

def test_card_per_file_set_breaking_an_if_then_rule(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01005.json", '  "health": 1,\n', "")
    code, found, err = _check(tmp_path, "ember-vale")
    assert code == 1
    assert found == ["ember-vale/cards/db/01005.json:4:16: error[E-SET-SCHEMA]: card '01005': missing 'health', "
                     "which the set's schema asks for when type_code is 'ally'"]
    assert "  = help: the rule is at ember-vale/cards/card.schema.json:21" in err


def test_bare_list_set_breaking_its_oneof_names_the_closest_kind(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/rim.json", '"cost": 3, "hull": 9, ', '"cost": 3, ')
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == ["star-courier/data/rim.json:2:3: error[E-SET-SCHEMA]: card 'sc101': fits none of the 4 kinds "
                     "its schema allows (oneOf); the closest is branch 1 (ship) 'Ship', which lacks: missing 'hull'"]


def test_bare_list_set_breaking_an_if_then_rule(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/core.json", '"cost": 1, "reward": 5, ', '"cost": 1, ')
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == ["star-courier/data/core.json:6:53: error[E-SET-SCHEMA]: card 'sc003': missing 'reward', "
                     "which the set's schema asks for when type is 'cargo'"]


def test_a_ref_outside_the_game_folder_is_refused(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "schema/card.schema.json", '"$ref": "common.schema.json#/$defs/credits"',
          '"$ref": "https://example.org/credits.json"')
    _edit(game / "schema/card.schema.json", '"$ref": "common.schema.json#/$defs/credits"',
          '"$ref": "../../credits.json"')
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == [
        "star-courier/schema/card.schema.json:14:22: error[E-SET-SCHEMA]: $ref 'https://example.org/credits.json' "
        "points outside the game folder; nothing is fetched",
        "star-courier/schema/card.schema.json:17:24: error[E-SET-SCHEMA]: $ref '../../credits.json' points outside "
        "the game folder"]



def test_a_ref_to_nothing_in_the_set_schema_is_reported_once_at_the_ref(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "schema/card.schema.json", '{"$ref": "#/$defs/crew"}', '{"$ref": "#/$defs/crewe"}')
    _edit(game / "schema/card.schema.json", '"$ref": "common.schema.json#/$defs/credits"',
          '"$ref": "common.schema.json#/$defs/credit"')
    code, found, err = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == [
        "star-courier/schema/card.schema.json:14:22: error[E-SET-SCHEMA]: $ref 'common.schema.json#/$defs/credit' "
        "points at nothing: there is no 'credit', did you mean 'credits'?",
        "star-courier/schema/card.schema.json:24:14: error[E-SET-SCHEMA]: $ref '#/$defs/crewe' points at nothing: "
        "there is no 'crewe', did you mean 'crew'?"]
    assert "= help: it holds: cargo, crew, event, ship" in err

# -- an unknown symbol, an unknown tag ------------------------------------------------------------

def test_card_per_file_set_with_an_unknown_bracket_symbol(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01005.json", "[fire]", "[fyre]")
    code, found, err = _check(tmp_path, "ember-vale")
    assert code == 1
    assert found == ["ember-vale/cards/db/01005.json:8:57: error[E-MARKUP-SYMBOL]: card '01005', field 'text': "
                     "unknown symbol '[fyre]', did you mean '[fire]'?"]
    assert "add icons/fyre.svg, or map the symbol to an icon under markup 'icons:'" in err


def test_bare_list_set_with_an_unknown_brace_symbol(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/rim.json", "pays 1 {credit}", "pays 1 {credits}")
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == ["star-courier/data/rim.json:5:65: error[E-MARKUP-SYMBOL]: card 'sc102', field 'text': "
                     "unknown symbol '{credits}', did you mean '{credit}'?"]


def test_card_per_file_set_with_an_unknown_html_tag(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01003.json", "<strong>Guard.</strong>", "<strng>Guard.</strng>")
    code, found, err = _check(tmp_path, "ember-vale")
    assert code == 1
    assert found == ["ember-vale/cards/db/01003.json:8:12: error[E-MARKUP-TAG]: card '01003', field 'text': "
                     "unknown tag '<strng>', did you mean '<strong>'?"]
    assert "  = help: the tags of this game are <b>, <br>, <em>, <i>, <li>, <ol>, <p>, <strong>, <ul>;" in err


def test_bare_list_set_with_an_unknown_html_tag(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/core.json", "<i>or</i>", "<emph>or</emph>")
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == ["star-courier/data/core.json:9:78: error[E-MARKUP-TAG]: card 'sc004', field 'text': "
                     "unknown tag '<emph>', did you mean '<em>'?"]


# -- a pack file naming a card the set does not have ------------------------------------------------

def test_card_per_file_set_with_a_pack_quantity_for_a_missing_card(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "packs/core.json", '"01005": 1', '"01005": 1,\n  "01050": 2')
    code, found, err = _check(tmp_path, "ember-vale")
    assert code == 1
    assert found == ["ember-vale/packs/core.json:7:3: error[E-JOIN]: '01050' names no card of deck 'vale' "
                     "(matched by 'code')"]
    assert "  = help: did you mean '01005'? every row of packs/core.json must name a card of the deck" in err


def test_bare_list_set_with_a_pack_row_for_a_missing_card(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/packs/quantities.json", '{"card": "sc102", "copies": 2}',
          '{"card": "sc102", "copies": 2},\n  {"card": "sc103", "copies": 1}')
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == ["star-courier/data/packs/quantities.json:8:12: error[E-JOIN]: 'sc103' names no card of deck "
                     "'courier' (matched by 'code')"]


def test_a_joined_quantity_that_is_not_a_number_points_at_the_pack_file(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/packs/quantities.json", '{"card": "sc002", "copies": 1}', '{"card": "sc002", "copies": "one"}')
    code, found, _ = _check(tmp_path, "star-courier")
    assert found == ['star-courier/data/packs/quantities.json:3:31: error[E-SCHEMA]: expected integer, got text '
                     '("one")']


# -- more of what a community set gets wrong ----------------------------------------------------------

def test_a_json_syntax_error_points_at_its_line_and_column(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "cards/db/01004.json", '"cost": 0,', '"cost": 0,,')
    code, found, err = _check(tmp_path, "ember-vale")
    assert code == 1
    assert found == ["ember-vale/cards/db/01004.json:6:13: error[E-JSON]: JSON syntax error: expected a key in "
                     "double quotes"]
    assert "= help: JSON keys are written in double quotes; a trailing comma is not allowed" in err


def test_a_typo_in_the_mapping_is_a_warning_with_a_guess(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "game.yaml", "drop: [illustrator, octgn_id]", "drop: [ilustrator, octgn_id]")
    code, found, _ = _check(tmp_path, "ember-vale")
    assert found[0] == ("ember-vale/game.yaml:22:12: warning[W-MAPPING]: drop names 'ilustrator', which no card "
                        "of the deck has, did you mean 'illustrator'?")


def test_a_card_without_the_field_its_id_comes_from(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "data/rim.json", '{"code": "sc102", ', "{")
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found[0] == ("star-courier/data/rim.json:4:3: error[E-SCHEMA]: card has no 'code', which gives its id "
                        "(the deck's id_from)")


def test_a_draft_07_schema_with_definitions_works_as_published(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    path = game / "cards/card.schema.json"
    text = path.read_text("utf-8").replace("https://json-schema.org/draft/2020-12/schema",
                                           "http://json-schema.org/draft-07/schema#")
    path.write_text(text.replace('"$defs"', '"definitions"').replace("#/$defs/", "#/definitions/"), "utf-8")
    assert _check(tmp_path, "ember-vale")[0] == 0
    _edit(game / "cards/db/01003.json", '"health": 4,', '"health": 40,')
    code, found, _ = _check(tmp_path, "ember-vale")
    assert found == ["ember-vale/cards/db/01003.json:7:13: error[E-SET-SCHEMA]: card '01003': health: 40 is greater "
                     "than the maximum of 9"]


def test_one_card_in_a_file_named_directly_says_how_to_read_one_card_per_file(tmp_path):
    game = _copy(tmp_path, "ember-vale")
    _edit(game / "game.yaml", "cards: cards/db ", "cards: cards/db/01001.json ")
    code, found, err = _check(tmp_path, "ember-vale")
    assert found[0] == "ember-vale/cards/db/01001.json:1:1: error[E-SCHEMA]: missing required key 'cards'"
    assert ("= help: a card file is a mapping with 'cards:' or a list of cards; to read one card per file, name "
            "their folder or a glob such as 'cards/*.json' in game.yaml") in err


def test_a_glob_that_pathlib_refuses_is_an_error_at_the_pattern(tmp_path):
    """Fuzz seed 4150 (bench/fuzz.py 20000 on 3e4e87f): '**' inside a name made pathlib raise
    ValueError out of the loader, a traceback.  It is an E-PATH error at the pattern, quoted short."""
    game = _copy(tmp_path, "star-courier")
    _edit(game / "game.yaml", "cards: data/*.json ", "cards: data/a**b" + "x" * 5000 + ".json ")
    code, found, _ = _check(tmp_path, "star-courier")
    assert code == 1
    assert found == ["star-courier/game.yaml:15:12: error[E-PATH]: 'data/a**b" + "x" * 190 + "\u2026' is not a usable "
                     "file pattern: '**' can only be an entire path component"]


def test_a_glob_that_matches_nothing(tmp_path):
    game = _copy(tmp_path, "star-courier")
    _edit(game / "game.yaml", "cards: data/*.json ", "cards: data/*.jsn ")
    code, found, _ = _check(tmp_path, "star-courier")
    assert found == ["star-courier/game.yaml:15:12: error[E-MISSING-FILE]: no card file (.yaml, .yml or .json) "
                     "matches 'data/*.jsn'"]
