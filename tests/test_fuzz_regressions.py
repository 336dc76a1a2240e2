"""Tracebacks and hangs that the fuzzer (bench/fuzz.py, tests/test_fuzz.py) found, each as its smallest
reproducer: now one diagnostic at the offending file and line, exit code 1, no traceback."""
from __future__ import annotations

import os

from conftest import FRONT_LAYOUT, GAME_YAML, cardforge, headlines, make_game

CARD_TABLE = """\
frames:
  scores:
    type: table
    x: 4mm
    y: 4mm
    width: 55mm
    height: 40mm
    rows: "[1, 2]"
    columns:
      - {header: "Score", value: "{{ row }}"}
      - {header: "Half", value: "{{ row / }}"}
"""


def only_error(tmp_path, command: str = "check", **game) -> str:
    make_game(tmp_path, **game)
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/tiny", *args, cwd=tmp_path, timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    errors = [line for line in headlines(result.stderr) if ": error[" in line]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_table_column_template_syntax_error_is_the_layouts(tmp_path):
    # fuzz seed 2099: a table column's template with a syntax error escaped render/table.py
    assert only_error(tmp_path, layout_yaml=CARD_TABLE) == (
        "content/tiny/layouts/front.yaml:11:33: error[E-TEMPLATE]: table frame 'scores', column 2: "
        "template syntax error: unexpected 'end of print statement'")


def errors_of(tmp_path, **game) -> list[str]:
    make_game(tmp_path, **game)
    result = cardforge("check", "content/tiny", cwd=tmp_path, timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1, result.stderr
    return [line for line in headlines(result.stderr) if ": error[" in line]


def test_deeply_nested_rule_expression_and_message(tmp_path):
    # fuzz seed 44: 2,000 nested parentheses in a rule gave a RecursionError in rules/expressions.py
    deep = "(" * 300 + "card.cost" + ")" * 300
    rules = (f'checks:\n  - id: T-DEEP\n    section: "Costs: never below zero"\n    assert: "{deep} >= 0"\n'
             f'    message: "cost {{{{ {deep} }}}}"\n')
    assert errors_of(tmp_path, files={"rules.yaml": rules}) == [
        "content/tiny/rules.yaml:4:13: error[E-RULES-EXPR]: expression is nested too deeply to parse",
        "content/tiny/rules.yaml:5:14: error[E-RULES-EXPR]: template is nested too deeply to parse"]


def test_recursive_macro_in_a_layout(tmp_path):
    # fuzz seed 2291: a macro calling itself gave a RecursionError in layout/templates.py
    layout = FRONT_LAYOUT + ('  macro: {type: text, x: 4mm, y: 70mm, width: 55mm, height: 8mm, '
                             'text: "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"}\n')
    assert errors_of(tmp_path, layout_yaml=layout) == [
        f"content/tiny/cards/cards.yaml:{line}:5: error[E-TEMPLATE]: card '{card}' (front), frame 'macro' of layout "
        "'front': 'text': template error: it recurses too deeply (a macro that calls itself?)"
        for line, card in ((2, "alpha"), (6, "beta"))]


def test_deeply_nested_template_in_a_layout(tmp_path):
    layout = FRONT_LAYOUT + ('  deep: {type: text, x: 4mm, y: 70mm, width: 55mm, height: 8mm, '
                             'text: "{{ ' + "(" * 300 + "1" + ")" * 300 + ' }}"}\n')
    assert errors_of(tmp_path, layout_yaml=layout) == [
        "content/tiny/layouts/front.yaml:4:3: error[E-TEMPLATE]: frame 'deep', 'text': template is nested too deeply "
        "to compile"]


def test_huge_text_size_is_refused(tmp_path):
    # fuzz seed 2072: size 99999999999999999999999pt made text fitting step down forever (a hang)
    layout = FRONT_LAYOUT.replace("size: 12pt", "size: 99999999999999999999999pt, min_size: 9pt")
    assert errors_of(tmp_path, layout_yaml=layout) == [
        "content/tiny/layouts/front.yaml:2:3: error[E-LAYOUT]: frame 'title': size 99999999999999999999999pt is larger "
        "than 1000 pt"]


def test_fifo_as_icon(tmp_path):
    # fuzz seed 2115: an icon replaced by a named pipe blocked `check` for ever (reading it, then
    # reading it again for the diagnostic's excerpt)
    layout = FRONT_LAYOUT + "  pic: {type: icon, x: 4mm, y: 70mm, width: 8mm, height: 8mm, icon: logo}\n"
    game = make_game(tmp_path, layout_yaml=layout)
    (game / "icons").mkdir()
    os.mkfifo(game / "icons" / "logo.svg")
    result = cardforge("check", "content/tiny", cwd=tmp_path, timeout=30)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert headlines(result.stderr) == [
        "content/tiny/icons/logo.svg:1:1: error[E-ICON]: cannot read icon file: it is a named pipe (FIFO), not a "
        "regular file"]
    assert "= help: icons/ holds one .svg file per icon; put the SVG file itself there" in result.stderr


def test_icon_that_is_a_symlink_loop_or_dangling(tmp_path):
    # fuzz seed 10288: an icon in a symbolic-link loop was an OSError traceback in icons.py (the cache's stat)
    # (a diagnostic names the link the game holds, gone.svg, not where it points: issue 24)
    layout = FRONT_LAYOUT + ("  pic: {type: icon, x: 4mm, y: 70mm, width: 8mm, height: 8mm, icon: logo}\n"
                             "  pic2: {type: icon, x: 14mm, y: 70mm, width: 8mm, height: 8mm, icon: gone}\n")
    game = make_game(tmp_path, layout_yaml=layout)
    (game / "icons").mkdir()
    os.symlink("logo.svg", game / "icons" / "logo.svg")
    os.symlink("nowhere.svg", game / "icons" / "gone.svg")
    result = cardforge("check", "content/tiny", cwd=tmp_path, timeout=30)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert headlines(result.stderr) == [
        "content/tiny/icons/gone.svg:1:1: error[E-ICON]: cannot read icon file: No such file or directory",
        "content/tiny/icons/logo.svg:1:1: error[E-ICON]: cannot read icon file: Too many levels of symbolic links"]


def test_filter_on_a_value_of_the_wrong_kind(tmp_path):
    # fuzz seed 30876: `'abc' | dictsort` raised AttributeError ('str' has no 'items') through layout/templates.py
    layout = FRONT_LAYOUT.replace('text: "{{ card.title }}"', "text: \"{{ 'abc' | dictsort }}\"")
    assert errors_of(tmp_path, layout_yaml=layout) == [
        f"content/tiny/cards/cards.yaml:{line}:5: error[E-TEMPLATE]: card '{card}' (front), frame 'title' of layout "
        "'front': 'text': template error: 'str' object has no attribute 'items'"
        for line, card in ((2, "alpha"), (6, "beta"))]


def test_table_rows_that_are_no_list_or_missing(tmp_path):
    # fuzz seed 432: `rows:` of a typed table in game.yaml replaced by a number was a TypeError in
    # frontend/tables.py ('int' object is not iterable); without rows it was a KeyError
    table = "tables:\n  steps:\n    fields: {step: {type: string}}\n"
    assert errors_of(tmp_path / "number", game_yaml=GAME_YAML + table + "    rows: 7\n") == [
        "content/tiny/game.yaml:18:11: error[E-SCHEMA]: expected array, got a number (7)"]
    assert errors_of(tmp_path / "missing", game_yaml=GAME_YAML + table) == [
        "content/tiny/game.yaml:17:5: error[E-SCHEMA]: missing required key 'rows'"]


def test_roster_size_that_is_no_length(tmp_path):
    # fuzz seed 9238 of the 10,000-input run: the width of forces.roster.size replaced by a mapping
    # was a LengthError traceback from prepare.py (the roster layout was sized before the schema's word)
    forces = "forces:\n  roster: {layout: front, size: {width: {a: 1}, height: 88mm}}\n  files: []\n"
    assert errors_of(tmp_path, game_yaml=GAME_YAML + forces) == [
        "content/tiny/game.yaml:16:41: error[E-SCHEMA]: expected string or number, got a mapping"]


def test_decks_given_as_a_number(tmp_path):
    # fuzz seed 100073: `decks: 20` in game.yaml reached layout/markup.py's apply_markup and
    # rules/check.py's _decks_defined (TypeError: 'int' object is not iterable)
    game = GAME_YAML.split("decks:")[0] + "decks: 20\n"
    assert errors_of(tmp_path, game_yaml=game) == [
        "content/tiny/game.yaml:5:8: error[E-SCHEMA]: expected array, got a number (20)"]


def test_template_piece_without_a_size_key(tmp_path):
    # fuzz seed 100804: a grid template without `rows` gave a KeyError in frontend/pieces.py's _size
    game = GAME_YAML + "templates:\n  - {id: mines, shape: grid, cols: 3, cell: 20mm}\n"
    assert errors_of(tmp_path, game_yaml=game) == [
        "content/tiny/game.yaml:16:5: error[E-TEMPLATE-PIECE]: template 'mines': a grid needs 'rows'"]


SERIES_CARDS = """\
cards:
  - id: marker
    title: Marker
    text: Fire.
    series: {from: %s, to: %s}
    variants: [{side: red}, {side: blue}]
"""


def test_a_series_number_too_large_is_a_schema_error_at_the_number(tmp_path):
    # fuzz seed 11805: `from: 1e308` passed the schema's integer (a whole float) and failed in Card.copy_context
    assert only_error(tmp_path, cards_yaml=SERIES_CARDS % ("1.0e+308", "16")) == (
        "content/tiny/cards/cards.yaml:5:20: error[E-SCHEMA]: card 'marker', field 'series.from': 1e+308 is greater than the maximum of 1000000")


def test_a_series_that_runs_backwards_is_an_error_at_the_series(tmp_path):
    # the same failure for whole numbers: no piece from 5 to 4, and a division by a count of zero
    assert only_error(tmp_path, cards_yaml=SERIES_CARDS % ("5", "4")) == (
        "content/tiny/cards/cards.yaml:5:13: error[E-SCHEMA]: the series runs from 5 down to 4: "
        "'to' must be at least 'from'")


def test_a_series_of_whole_floats_numbers_its_pieces_as_whole_numbers(tmp_path):
    numbered = FRONT_LAYOUT.replace('text: "{{ card.title }}"', 'text: "{{ card.title }} {{ number }} {{ variant.side }}"')
    make_game(tmp_path, cards_yaml=SERIES_CARDS % ("1.0", "2.0"), layout_yaml=numbered)
    result = cardforge("build", "content/tiny", "--out", "out", "--paper", "a4", cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    manifest = (tmp_path / "out" / "tiny" / "tiny-cards-a4.manifest.json").read_text("utf-8")
    for title in ("Marker 1 red", "Marker 2 red", "Marker 1 blue", "Marker 2 blue"):
        assert f'"{title}"' in manifest, title
