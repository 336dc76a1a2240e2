"""Stage 2, schemas: what `cardforge check` says about content that breaks the schemas.

These run the command line in-process (cardforge.cli.main) from the fixture's folder, so that
paths are shown as the user sees them: content/tiny/...
"""
from __future__ import annotations

import json

import pytest

from cardforge.cli import main
from conftest import CARDS_YAML, FRONT_LAYOUT, GAME_YAML, headlines, make_game


@pytest.fixture
def check(tmp_path, monkeypatch, capsys):
    """Run `cardforge check content/tiny [args]` in tmp_path; returns (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)

    def run(*args):
        code = main(["check", "content/tiny", *args])
        out, err = capsys.readouterr()
        return code, out, err
    return run


def check_json(check) -> list[dict]:
    code, out, _ = check("--format", "json")
    assert code == 1
    return json.loads(out)


def test_clean_game_checks_ok(tmp_path, check):
    make_game(tmp_path)
    code, out, err = check()
    assert (code, out.strip(), err) == (0, "ok: no problems found", "")


def test_unknown_key_with_did_you_mean(tmp_path, check):
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("    quantity: 2", "    quantitiy: 2"))
    code, _, err = check()
    assert code == 1
    assert err.splitlines()[:5] == [
        "content/tiny/cards/cards.yaml:10:5: error[E-SCHEMA]: unknown key 'quantitiy', did you mean 'quantity'?",
        "   |",
        "10 |     quantitiy: 2",
        "   |     ^",
        "  = help: did you mean 'quantity'?",
    ]
    assert err.splitlines()[-1] == "1 error, 0 warnings"


def test_unknown_key_without_a_close_match_lists_the_allowed_keys(tmp_path, check):
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("    cost: 1", "    cost: 1\n    zzz: 1"))
    [diag] = check_json(check)
    assert (diag["line"], diag["col"], diag["message"]) == (6, 5, "unknown key 'zzz'")
    assert diag["help"] == ("allowed keys: authored, back, changed, cost, front, id, note, quantity, series, text, "
                            "title, variants")


def test_wrong_type_points_at_the_value(tmp_path, check):
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("    cost: 2", "    cost: two"))
    code, _, err = check()
    assert code == 1
    assert headlines(err) == [
        'content/tiny/cards/cards.yaml:9:11: error[E-SCHEMA]: expected integer, got text ("two")']


def test_value_below_minimum(tmp_path, check):
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("    cost: 2", "    cost: -1"))
    [diag] = check_json(check)
    assert (diag["file"], diag["line"], diag["col"], diag["code"]) == ("content/tiny/cards/cards.yaml", 9, 11,
                                                                        "E-SCHEMA")
    assert diag["message"] == "card 'beta', field 'cost': -1 is less than the minimum of 0"
    assert diag["pointer"] == "/cards/1/cost"
    assert diag["help"] == "'cost' takes a whole number of at least 0"


def test_missing_required_key(tmp_path, check):
    make_game(tmp_path, cards_yaml="cards:\n  - title: No id\n")
    [diag] = check_json(check)
    assert (diag["line"], diag["col"], diag["message"]) == (2, 5, "missing required key 'id'")


@pytest.mark.parametrize("old, new, line, col, message", [
    ("bleed: 3mm", "bleed: 3 mmm", 4, 8, "'3 mmm' is not a length"),
    ("card_size: poker", "card_size: {width: 63mmm, height: 88mm}", 3, 20, "'63mmm' is not a length"),
], ids=["bleed", "card-size-inside-oneOf"])
def test_bad_length_in_game_file(tmp_path, check, old, new, line, col, message):
    make_game(tmp_path, game_yaml=GAME_YAML.replace(old, new))
    [diag] = check_json(check)
    assert (diag["file"], diag["line"], diag["col"], diag["message"]) == ("content/tiny/game.yaml", line, col, message)
    assert diag["help"] == "write a number with a unit: '63mm', '2.5in', '12pt', '1cm'"


def test_bad_length_in_layout(tmp_path, check):
    make_game(tmp_path, layout_yaml=FRONT_LAYOUT.replace("x: 4mm, y: 4mm", "x: 4 inches, y: 4mm"))
    [diag] = check_json(check)
    assert (diag["file"], diag["line"], diag["col"], diag["message"]) == (
        "content/tiny/layouts/front.yaml", 2, 26, "'4 inches' is not a length")


def test_unknown_card_size_suggests_the_closest(tmp_path, check):
    make_game(tmp_path, game_yaml=GAME_YAML.replace("card_size: poker", "card_size: pokr"))
    [diag] = check_json(check)
    assert (diag["line"], diag["col"]) == (3, 12)
    assert diag["message"].startswith("'pokr' is not one of: poker, bridge, ")
    assert diag["help"] == "did you mean 'poker'?"


def test_every_error_at_once_across_two_card_files(tmp_path, check):
    game_yaml = GAME_YAML.replace("cards: cards/cards.yaml", "cards: [cards/one.yaml, cards/two.yaml]")
    make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None, files={
        "cards/one.yaml": "cards:\n  - id: one\n    title: One\n    quantitiy: 2\n",
        "cards/two.yaml": "cards:\n  - id: two\n    title: Two\n    cost: lots\n",
    })
    code, _, err = check()
    assert code == 1
    assert headlines(err) == [
        "content/tiny/cards/one.yaml:4:5: error[E-SCHEMA]: unknown key 'quantitiy', did you mean 'quantity'?",
        'content/tiny/cards/two.yaml:4:11: error[E-SCHEMA]: expected integer, got text ("lots")',
    ]
    assert err.splitlines()[-1] == "2 errors, 0 warnings"


def test_every_error_at_once_across_card_file_layout_and_syntax(tmp_path, check):
    """A broken card file, a schema error in another, and a bad layout: all three are reported."""
    game_yaml = GAME_YAML.replace("cards: cards/cards.yaml", "cards: [cards/one.yaml, cards/two.yaml]")
    layout = FRONT_LAYOUT.replace("size: 9pt, min_size", "size: big, min_size")
    big_col = layout.splitlines()[2].index("big") + 1
    make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None, layout_yaml=layout,
              files={"cards/one.yaml": "cards:\n  - id: one\n    title: One: Two\n",
                     "cards/two.yaml": "cards:\n  - id: two\n    titel: Two\n"})
    diags = check_json(check)
    assert [(d["file"], d["line"], d["col"], d["code"]) for d in diags] == [
        ("content/tiny/cards/one.yaml", 3, 15, "E-YAML"),
        ("content/tiny/cards/two.yaml", 3, 5, "E-SCHEMA"),
        ("content/tiny/layouts/front.yaml", 3, big_col, "E-SCHEMA"),
    ]
    assert diags[1]["message"] == "unknown key 'titel', did you mean 'title'?"
    assert diags[2]["message"] == "'big' is not a length"


def test_duplicate_card_id_across_files(tmp_path, check):
    game_yaml = GAME_YAML.replace("cards: cards/cards.yaml", "cards: [cards/one.yaml, cards/two.yaml]")
    make_game(tmp_path, game_yaml=game_yaml, cards_yaml=None, files={
        "cards/one.yaml": "cards:\n  - id: same\n    title: One\n",
        "cards/two.yaml": "# second file\ncards:\n  - id: same\n    title: Two\n",
    })
    [diag] = check_json(check)
    assert (diag["file"], diag["line"], diag["col"], diag["code"], diag["message"]) == (
        "content/tiny/cards/two.yaml", 3, 9, "E-DUPLICATE-ID", "card id 'same' is already used")
    # The whole path, as the headline gives it (the hint once dropped the folder: issue 10).
    assert diag["help"] == "first used at content/tiny/cards/one.yaml:2; ids must be unique in a game"


def test_missing_card_file(tmp_path, check):
    make_game(tmp_path, game_yaml=GAME_YAML.replace("cards/cards.yaml", "cards/crads.yaml"))
    [diag] = check_json(check)
    assert (diag["file"], diag["line"], diag["col"], diag["code"], diag["message"]) == (
        "content/tiny/game.yaml", 8, 12, "E-MISSING-FILE", "card file 'cards/crads.yaml' does not exist")


def test_card_file_outside_the_game_folder_is_refused(tmp_path, check):
    (tmp_path / "secret.yaml").write_text("cards: []\n")
    make_game(tmp_path, game_yaml=GAME_YAML.replace("cards/cards.yaml", "../../secret.yaml"))
    [diag] = check_json(check)
    assert (diag["code"], diag["message"]) == ("E-PATH", "card file '../../secret.yaml' is outside the game folder")


def test_field_schema_may_not_use_ref(tmp_path, check):
    make_game(tmp_path, game_yaml=GAME_YAML.replace(
        "cost: {type: integer, minimum: 0}", "cost: {$ref: 'https://example.com/x.json'}"))
    [diag] = check_json(check)
    assert (diag["code"], diag["message"]) == ("E-SCHEMA-DEF", "field 'cost' uses $ref, which content may not use")


def test_clean_game_passes_a_strict_check(tmp_path, check):
    make_game(tmp_path)
    code, _, _ = check("--strict")
    assert code == 0


def test_type_error_message_for_a_mapping_has_no_trailing_space(tmp_path, check):
    make_game(tmp_path, cards_yaml="cards: {id: alpha}\n")
    [diag] = check_json(check)
    assert (diag["line"], diag["col"], diag["code"]) == (1, 8, "E-SCHEMA")
    assert diag["message"] == diag["message"].strip(), repr(diag["message"])


def test_duplicate_key_and_schema_error_in_one_file_are_both_reported(tmp_path, check):
    make_game(tmp_path, cards_yaml=CARDS_YAML.replace("    cost: 1", "    cost: 1\n    title: Again")
              .replace("    quantity: 2", "    quantitiy: 2"))
    code, _, err = check()
    assert code == 1
    assert headlines(err) == [
        "content/tiny/cards/cards.yaml:6:5: error[E-DUPLICATE-KEY]: duplicate key 'title' (first defined at line 3)",
        "content/tiny/cards/cards.yaml:11:5: error[E-SCHEMA]: unknown key 'quantitiy', did you mean 'quantity'?",
    ]


def test_error_in_game_file_does_not_hide_errors_in_card_files(tmp_path, check):
    make_game(tmp_path, game_yaml=GAME_YAML.replace("name: Tiny Game", "name: Tiny Game\ndesigner: 5"),
              cards_yaml=CARDS_YAML.replace("    quantity: 2", "    quantitiy: 2"))
    code, _, err = check()
    assert code == 1
    assert headlines(err) == [
        "content/tiny/cards/cards.yaml:10:5: error[E-SCHEMA]: unknown key 'quantitiy', did you mean 'quantity'?",
        "content/tiny/game.yaml:3:11: error[E-SCHEMA]: expected string, got a number (5)",
    ]
