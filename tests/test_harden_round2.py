"""Hardening, round two (issue 24): each case the fuzz run over all games and input formats found,
as its smallest reproducer.  Every one was a traceback, a hang, a memory blow-up or a leak on main
05f2b59; each is now one diagnostic at a position with exit 1, or a usage error with exit 2."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from conftest import CARDS_YAML, GAME_YAML, REPO, cardforge, headlines, make_game

COMMUNITY = REPO / "tests" / "fixtures" / "community"
RULE = """\
groups:
  all: {deck: main}
checks:
  - id: R-ONE
    section: "A rule"
    group: all
    assert: "%s"
    message: "%s"
"""


def errors(tmp_path, command="check", *extra, timeout=120, **game) -> list[str]:
    """The error headlines of one run on a fixture game (`make_game`), with no traceback."""
    make_game(tmp_path, **game)
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/tiny", *args, *extra, cwd=tmp_path, timeout=timeout)
    assert "Traceback" not in result.stderr, result.stderr
    found = _error_lines(result.stderr)
    assert result.returncode == (1 if found else 0), result.stderr
    return found


def _error_lines(stderr: str) -> list[str]:
    """Headlines of errors, at a line and column or at a spreadsheet cell."""
    return [line for line in stderr.splitlines() if ": error[" in line and not line.startswith((" ", "cardforge:"))]


def set_errors(tmp_path, name: str, edits: dict, timeout=120) -> tuple[list[str], str]:
    """Copy a community set, apply {file: (old, new)} edits, check it: its error headlines."""
    game = tmp_path / name
    shutil.copytree(COMMUNITY / name, game)
    for rel, (old, new) in edits.items():
        text = (game / rel).read_text("utf-8") if (game / rel).exists() else ""  # else a new file
        assert old in text, (rel, old)
        (game / rel).write_text(text.replace(old, new, 1), "utf-8")
    result = cardforge("check", ".", cwd=game, timeout=timeout)
    assert "Traceback" not in result.stderr, result.stderr
    found = [line for line in headlines(result.stderr) if ": error[" in line]
    assert result.returncode == (1 if found else 0), result.stderr
    return found, result.stderr


# -- tracebacks --------------------------------------------------------------------------------------

def test_float_literal_beyond_a_float_is_infinity_in_an_expression(tmp_path):
    """Jinja2 wrote `1e999` into its compiled code as the undefined name `inf` (NameError)."""
    assert errors(tmp_path, files={"rules.yaml": RULE % ("card.cost < 1e999", "never")}) == []
    found = errors(tmp_path, files={"rules.yaml": RULE % ("card.cost > 1e999", "cost {{ card.cost }} is finite")})
    assert found == ["content/tiny/cards/cards.yaml:5:11: error[R-ONE]: cost 1 is finite",
                     "content/tiny/cards/cards.yaml:9:11: error[R-ONE]: cost 2 is finite"]


@pytest.mark.parametrize("value", [".nan", "1.0e+999"])
def test_infinite_number_in_card_data_is_an_error_at_the_value(tmp_path, value):
    """A float literal beyond a float (1.0e+999 is infinity) in a number field was printed as 'inf'."""
    game = GAME_YAML.replace("cost: {type: integer, minimum: 0}", "cost: {type: number}")
    found = errors(tmp_path, game_yaml=game, cards_yaml=CARDS_YAML.replace("cost: 1\n", f"cost: {value}\n"))
    assert found[0] == f"content/tiny/cards/cards.yaml:5:11: error[E-YAML]: '{value}' is not a finite number"


@pytest.mark.parametrize("svg", ["width='1e308' height='10'", "viewBox='0 0 1e308 1e308'"])
def test_icon_size_beyond_what_a_pdf_can_hold(tmp_path, svg):
    layout = ('frames:\n  pic: {type: icon, x: 4mm, y: 20mm, width: 10mm, height: 10mm, icon: logo}\n')
    icon = f"<svg xmlns='http://www.w3.org/2000/svg' {svg}><rect width='5' height='5'/></svg>"
    found = errors(tmp_path, "build", layout_yaml=layout, files={"icons/logo.svg": icon})
    assert found[0].startswith("content/tiny/icons/logo.svg:1:1: error[E-ICON]: icon cannot be drawn: a number in it "
                               "is too large to write into a PDF"), found
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("*.pdf"))


ZERO_TOKEN = GAME_YAML + ("tokens:\n  - {id: chits, name: Chits, cards: tokens.yaml, front: chit, "
                          "size: {width: 0mm, height: 10mm}, bleed: 0mm}\n")


@pytest.mark.parametrize("command", ["check", "build"])
def test_token_of_zero_size(tmp_path, command):
    """With no bleed and no gap, a sheet of them had no room per piece (ZeroDivisionError in imposition);
    with a bleed, a sheet of invisible tokens was printed without a word."""
    found = errors(tmp_path, command, layouts={"chit": "frames: {}\n"},
                   files={"tokens.yaml": "cards:\n  - {id: one}\n"}, game_yaml=ZERO_TOKEN)
    assert found == ["content/tiny/game.yaml:16:69: error[E-SIZE]: a token size of 0 x 10 mm has no area"]
    assert not list(tmp_path.glob("out/**/*.pdf"))


@pytest.mark.parametrize("component, noun", [("boards", "board"), ("references", "reference sheet")])
def test_board_of_zero_size(tmp_path, component, noun):
    """A board 0 mm wide was built into a PDF with exit 0."""
    game = GAME_YAML + f"{component}:\n  - {{id: map, name: Map, size: {{width: 0mm, height: 100mm}}, layout: map}}\n"
    found = errors(tmp_path, "build", game_yaml=game, layouts={"map": "frames: {}\n"})
    assert found == [f"content/tiny/game.yaml:16:32: error[E-SIZE]: a {noun} size of 0 x 100 mm has no area"]
    assert not list(tmp_path.glob("out/**/*.pdf"))


def test_truncated_font_file(tmp_path):
    game = GAME_YAML.replace("card_size: poker\n", "card_size: poker\nfonts:\n  mine: {regular: fonts/mine.ttf}\n")
    data = (REPO / "fonts" / "DejaVuSans.ttf").read_bytes()[:3000]
    found = errors(tmp_path, game_yaml=game, files={"fonts/mine.ttf": data})
    assert found == ["content/tiny/game.yaml:5:3: error[E-FONT]: cannot use font file mine.ttf: it is damaged or "
                     "truncated (error: unpack requires a buffer of 2 bytes)"]


def test_nan_in_a_field_schema_and_a_layout(tmp_path):
    game = GAME_YAML.replace("cost: {type: integer, minimum: 0}", "cost: {type: number, multipleOf: .nan}")
    layout = ("frames:\n  text: {type: text, x: 4mm, y: 20mm, width: 55mm, height: 40mm, text: \"{{ card.text }}\", "
              "size: 9pt, min_size: .nan}\n")
    found = errors(tmp_path, game_yaml=game, layout_yaml=layout)
    assert "content/tiny/game.yaml:14:40: error[E-YAML]: '.nan' is not a finite number" in found, found
    assert "content/tiny/layouts/front.yaml:2:112: error[E-YAML]: '.nan' is not a finite number" in found, found


def test_nan_multiple_of_in_a_set_schema_written_in_yaml(tmp_path):
    """A set's own schema in YAML with `multipleOf: .nan`: jsonschema divided by it (ValueError traceback)."""
    import yaml
    schema = json.loads((COMMUNITY / "ember-vale" / "cards" / "card.schema.json").read_text("utf-8"))
    text = yaml.safe_dump(schema, sort_keys=False).replace("maximum: 9", "multipleOf: .nan", 1)
    line = text.splitlines().index("    multipleOf: .nan") + 1
    found, _ = set_errors(tmp_path, "ember-vale", {
        "game.yaml": ("schema: cards/card.schema.json", "schema: cards/card.schema.yaml"),
        "cards/card.schema.yaml": ("", text)})
    assert found[0] == f"cards/card.schema.yaml:{line}:17: error[E-YAML]: '.nan' is not a finite number", found
    assert all(f.startswith(f"cards/card.schema.yaml:{line}:17: ") for f in found), found


def test_set_schema_whose_draft_is_no_text(tmp_path):
    found, _ = set_errors(tmp_path, "ember-vale", {"cards/card.schema.json": (
        '"https://json-schema.org/draft/2020-12/schema"', "[]")})
    assert found == ["cards/card.schema.json:2:14: error[E-SET-SCHEMA]: '$schema' must be the URI of a JSON Schema "
                     "draft (text), not list"]


def test_multiple_of_a_tiny_number_in_a_set_schema(tmp_path):
    found, _ = set_errors(tmp_path, "ember-vale", {
        "cards/card.schema.json": ('"minimum": 0, "maximum": 9', '"multipleOf": 1e-300'),
        "cards/db/01001.json": ('"health": 8', '"health": 1e300')})
    assert found == ["cards/db/01001.json:6:13: error[E-SET-SCHEMA]: card '01001': health: 1e+300 is not a "
                     "multiple of 1e-300"]


@pytest.mark.parametrize("cell", ["[" * 5000, "{a: " * 3000])
def test_deeply_nested_csv_cell(tmp_path, cell):
    """PyYAML's pure-Python composer recursed once per level (RecursionError)."""
    game = GAME_YAML.replace("cards/cards.yaml", "cards/cards.csv").replace(
        "cost: {type: integer, minimum: 0}", "cost: {type: array}")
    csv = f'id,title,cost\nalpha,Alpha,"{cell}"\n'
    found = errors(tmp_path, game_yaml=game, cards_yaml=None, files={"cards/cards.csv": csv})
    assert found == ["content/tiny/cards/cards.csv:C2: error[E-SCHEMA]: cannot read the cell as YAML or JSON: nested "
                     "more than 100 levels deep (the limit of nesting depth) (column 'cost')"]


def test_markup_symbols_of_an_unknown_syntax(tmp_path):
    found, _ = set_errors(tmp_path, "ember-vale", {"game.yaml": ('symbols: "[name]"', 'symbols: "<name>"')})
    assert found == ["game.yaml:12:12: error[E-SCHEMA]: '<name>' is not one of: [name], {name}"]


@pytest.mark.parametrize("credits, expected", [
    ("credits:\n  - {a: b}\n", "content/tiny/game.yaml:4:5: error[E-SCHEMA]: expected string, got a mapping"),
    ("credits: [1]\n", "content/tiny/game.yaml:3:11: error[E-SCHEMA]: expected string, got a number (1)"),
])
def test_credits_that_are_not_text(tmp_path, credits, expected):
    assert errors(tmp_path, game_yaml=GAME_YAML.replace("name: Tiny Game\n", "name: Tiny Game\n" + credits)) == [
        expected]


def test_table_file_that_is_a_number(tmp_path):
    game = GAME_YAML + "tables:\n  speeds:\n    file: 1\n    fields: {speed: {type: integer}}\n"
    assert errors(tmp_path, game_yaml=game) == [
        "content/tiny/game.yaml:17:11: error[E-SCHEMA]: expected string, got a number (1)"]


@pytest.mark.parametrize("command", ["check", "build"])
def test_steel_rain_table_with_a_column_removed(tmp_path, command):
    """Removing a column under a header group left the group no width (AttributeError: 'Overflow'
    object has no attribute 'height' in render/table.py, on 05f2b59 and after)."""
    shutil.copytree(REPO / "content" / "steel-rain", tmp_path / "content" / "steel-rain")
    shutil.copytree(REPO / "layouts", tmp_path / "layouts")
    layout = tmp_path / "layouts/steel-rain/sr-ref-terrain.yaml"
    text = layout.read_text("utf-8")
    hover = next(line for line in text.splitlines() if '{header: "Hover"' in line)
    layout.write_text(text.replace(hover + "\n", ""), "utf-8")
    args = ["--out", "out", "--paper", "a4"] if command == "build" else []
    result = cardforge(command, "content/steel-rain", *args, cwd=tmp_path, timeout=300)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr[-2000:]
    game_lines = (tmp_path / "content/steel-rain/game.yaml").read_text("utf-8").splitlines()
    line = next(i for i, text in enumerate(game_lines, 1) if text.strip().startswith("- {id: ref-terrain,"))
    assert _error_lines(result.stderr) == [
        f"content/steel-rain/game.yaml:{line}:5: error[E-TABLE-GROUPS]: board 'ref-terrain' (front), frame 'movement' of "
        "layout 'sr-ref-terrain': header_groups span 7 columns, but the table has 6"]


# -- hangs and memory -----------------------------------------------------------------------------

def test_fifo_in_the_game_folder_does_not_hang_the_check(tmp_path):
    game = make_game(tmp_path)
    os.mkfifo(game / "notes.txt")
    start = time.monotonic()
    result = cardforge("check", "content/tiny", cwd=tmp_path, timeout=60)
    assert time.monotonic() - start < 30
    assert result.returncode == 0, result.stderr
    assert ("content/tiny/notes.txt:1:1: warning[W-IGNORED-FILE]: this file is ignored: it is a named pipe (FIFO), "
            "not a regular file\n  = help: move it out of the game folder, or name it in game.yaml's ignore:") \
        in result.stderr


def test_backtracking_pattern_in_a_set_schema_is_stopped(tmp_path):
    start = time.monotonic()
    found, _ = set_errors(tmp_path, "ember-vale", {
        "cards/card.schema.json": ('"pattern": "^[0-9]{5}$"', '"pattern": "^(.*?,){20}P"'),
        "cards/db/01001.json": ('"code": "01001"', '"code": "' + "1," * 30 + '"')}, timeout=60)
    assert time.monotonic() - start < 30
    slow = ("the pattern '^(.*?,){20}P' took more than the limit of 0.25 s for one match, so it is not used (nested "
            "repetition such as (a+)+ backtracks)")
    assert found[0] == f"cards/db/01001.json:2:11: error[E-SET-SCHEMA]: card '{'1,' * 30}': code: {slow}"
    assert f"cards/db/01005.json:2:11: error[E-SET-SCHEMA]: card '01005': code: {slow}" in found


@pytest.mark.parametrize("n, message", [
    (20_000, "octgn_id: an array of 20001 items is larger than the limit of 10000 items for uniqueItems"),
    (9_999, "octgn_id: its items are not unique: '[3]' appears more than once"),
])
def test_unique_items_over_a_large_array(tmp_path, n, message):
    start = time.monotonic()
    found, _ = set_errors(tmp_path, "ember-vale", {
        "cards/card.schema.json": ('"octgn_id": {"type": "string"}', '"octgn_id": {"type": "array", "uniqueItems": true}'),
        "cards/db/01001.json": ('"a1f0c2d4-0000-4000-8000-000000001001"', json.dumps([[i] for i in range(n)] + [[3]]))},
        timeout=60)
    assert time.monotonic() - start < 30
    assert found == [f"cards/db/01001.json:10:15: error[E-SET-SCHEMA]: card '01001': {message}"]


def test_sum_of_lists_in_a_rule_is_sized_first(tmp_path):
    """`sum` of lists copies the whole sum at every step, in one C call no timer stops."""
    rules = RULE % ("(([[1] * 10000] * 10000) | sum(start=[]) | length) > 0", "never")
    assert errors(tmp_path, files={"rules.yaml": rules}) == [
        "content/tiny/rules.yaml:7:13: error[E-LIMIT]: R-ONE 'assert' on card 'alpha': refused: summed list of "
        "100000000 items is larger than the limit of template output (100000 items)"]


def test_rule_message_that_loops_is_stopped(tmp_path):
    loop = "{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}"
    start = time.monotonic()
    found = errors(tmp_path, files={"rules.yaml": RULE % ("false", loop)}, timeout=60)
    assert time.monotonic() - start < 30
    assert found[0] == (f"content/tiny/cards/cards.yaml:2:5: error[R-ONE]: {loop} (message failed: message stopped: "
                        "it ran longer than the limit of 2 s for one expression)")


@pytest.mark.parametrize("template, what", [
    ("(['y' * 10000] * 1000) | join('x')", "joined text of 10000999 characters"),
    ("('ab' * 50000) | replace('a', 'x' * 100000)", "replaced text of 5000050000 characters"),
    ("'a'.ljust(100000000)", "'ljust' of 100000000 characters"),
    ("'x'.join(['y' * 10000] * 10000)", "'join' of 100009999 characters"),
])
def test_join_and_replace_in_templates_are_sized_first(tmp_path, template, what):
    layout = ('frames:\n  title: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ %s }}", '
              'size: 12pt}\n' % template.replace('"', '\\"'))
    found = errors(tmp_path, layout_yaml=layout)
    assert found[0] == (f"content/tiny/cards/cards.yaml:2:5: error[E-LIMIT]: card 'alpha' (front), frame 'title' of "
                        f"layout 'front': 'text': template refused: {what} is larger than the limit of template "
                        "output (100000 characters)"), found


# -- leaks and acceptance --------------------------------------------------------------------------

def test_rules_file_linked_outside_is_not_quoted(tmp_path):
    game = make_game(tmp_path)
    (tmp_path / "secret.txt").write_text("TOP-SECRET: the outside file\n", "utf-8")
    os.symlink(tmp_path / "secret.txt", game / "rules.yaml")
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1 and "TOP-SECRET" not in result.stderr and "secret.txt" not in result.stderr
    assert headlines(result.stderr) == ["content/tiny/rules.yaml:1:1: error[E-PATH]: rules.yaml is a symbolic link to "
                                        "a file outside the game folder"]


@pytest.mark.parametrize("text, code", [('"Al\\uFFFFpha"', "FFFF"), ('"Al\\uFDD0pha"', "FDD0"),
                                        ('"\\U0010FFFE"', "10FFFE")])
def test_noncharacters_in_card_text(tmp_path, text, code):
    found = errors(tmp_path, cards_yaml=CARDS_YAML.replace("title: Alpha", f"title: {text}"))
    assert found == [f"content/tiny/cards/cards.yaml:3:12: error[E-YAML]: text holds the Unicode noncharacter U+{code}"]


def test_lone_surrogate_in_a_file_name(tmp_path):
    """A YAML escape of half a UTF-16 pair in a path reached the file system (UnicodeEncodeError
    in safe_path; the fuzzer's seed 10768, a join file's name)."""
    game = GAME_YAML.replace("cards: cards/cards.yaml", 'cards: "cards/x\\ud800y.yaml"')
    assert errors(tmp_path, game_yaml=game) == [
        "content/tiny/game.yaml:8:12: error[E-YAML]: text holds U+D800, half of a UTF-16 surrogate pair on its own "
        "(no character)",
        "content/tiny/game.yaml:8:12: error[E-MISSING-FILE]: card file 'cards/xy.yaml' does not exist"]


@pytest.mark.parametrize("command", ["check", "build"])
def test_lone_surrogate_in_card_text(tmp_path, command):
    found = errors(tmp_path, command, cards_yaml=CARDS_YAML.replace("title: Alpha", 'title: "Al\\udc00pha"'))
    assert found == ["content/tiny/cards/cards.yaml:3:12: error[E-YAML]: text holds U+DC00, half of a UTF-16 "
                     "surrogate pair on its own (no character)"]


def test_noncharacter_in_a_json_card(tmp_path):
    found, _ = set_errors(tmp_path, "ember-vale", {"cards/db/01001.json": ('"health": 8', '"health": "\\uffff"')})
    assert found == ["cards/db/01001.json:6:13: error[E-JSON]: JSON syntax error: text holds the Unicode "
                     "noncharacter U+FFFF"]


@pytest.mark.parametrize("args, message", [
    (["--back-offset", "nan,0"], "--back-offset takes two numbers in mm, X,Y (for example 0.5,-1), not 'nan,0'"),
    (["--back-offset", "0,inf"], "--back-offset takes two numbers in mm, X,Y (for example 0.5,-1), not '0,inf'"),
    (["--jobs", "0"], "argument --jobs/-j: 0: give at least 1"),
    (["--out", "content/tiny/cards"], "the output folder content/tiny/cards/tiny lies inside the game folder "
                                      "content/tiny: the output would be written among its sources"),
])
def test_build_options_that_are_refused(tmp_path, args, message):
    make_game(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = cardforge("build", "content/tiny", "--paper", "a4", *args, cwd=tmp_path)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_build_into_the_games_own_build_folder_is_allowed(tmp_path):
    make_game(tmp_path)
    result = cardforge("build", "content/tiny", "--paper", "a4", "--out", "content/tiny/build", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "content/tiny/build/tiny/tiny-cards-a4.pdf").is_file()


def test_force_writes_nothing_into_the_game_folder(tmp_path):
    shutil.copytree(REPO / "content" / "war-eagles", tmp_path / "content" / "war-eagles")
    shutil.copytree(REPO / "layouts", tmp_path / "layouts")
    game = tmp_path / "content" / "war-eagles"
    before = sorted(p.relative_to(game) for p in game.rglob("*"))
    result = cardforge("force", "content/war-eagles/forces/standard-axis.yaml", "--paper", "a4", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.relative_to(game) for p in game.rglob("*")) == before
    assert (tmp_path / "build" / "war-eagles" / "standard-axis-roster-a4.pdf").is_file()
    refused = cardforge("force", "content/war-eagles/forces/standard-axis.yaml", "--paper", "a4",
                        "--out", "content/war-eagles/forces", cwd=tmp_path)
    assert refused.returncode == 2 and "lies inside the game folder" in refused.stderr, refused.stderr
    assert sorted(p.relative_to(game) for p in game.rglob("*")) == before


def _workbook(path: Path, edit) -> None:
    from openpyxl import Workbook
    book = Workbook()
    ws = book.active
    ws.title = "main"
    for row in (["id", "title", "cost"], ["alpha", "Alpha", 1], ["beta", "Beta", 2]):
        ws.append(row)
    edit(ws)
    book.save(path)


def _limited_memory():  # a child that could allocate 4 GB fails at 1.5 GB (the machine is not at risk)
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 ** 2, 1536 * 1024 ** 2))


def test_workbook_of_too_many_rows_is_refused_before_it_is_opened(tmp_path):
    """The fuzz run's seeds 746 and 10941: 20,001 rows of a sheet without <dimension>, parsed whole by
    openpyxl to open the workbook and then read again row by row, twice (17 s of CPU: a HANG)."""
    game = make_game(tmp_path, game_yaml=GAME_YAML.replace("cards/cards.yaml", "cards/cards.xlsx"), cards_yaml=None)
    (game / "cards").mkdir()
    _workbook(game / "cards" / "cards.xlsx", lambda ws: [ws.append([f"c{i}", "Card", 1]) for i in range(20_000)])
    result = cardforge("check", "content/tiny", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert _error_lines(result.stderr) == ["content/tiny/cards/cards.xlsx:1:1: error[E-SHEET]: the workbook has a "
                                           "sheet of 20003 rows, more than the 20000 cardforge reads"]


@pytest.mark.parametrize("far, cards", [("merge", None), ("cell", None), (None, "merged header")])
def test_workbook_with_a_huge_merged_range_or_a_far_cell(tmp_path, far, cards):
    """Read in full, a merge to XFD1048576 took 4 GB and a far cell 1.8 GB."""
    import subprocess
    import sys
    from fuzz_formats import reach_far
    game = make_game(tmp_path, game_yaml=GAME_YAML.replace("cards/cards.yaml", "cards/cards.xlsx"), cards_yaml=None)
    (game / "cards").mkdir()
    _workbook(game / "cards" / "cards.xlsx", (lambda ws: ws.merge_cells("A1:C1")) if cards else (lambda ws: None))
    if far:
        reach_far(game / "cards" / "cards.xlsx", far)
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "cardforge", "check", "content/tiny"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120, preexec_fn=_limited_memory)
    assert time.monotonic() - start < 60
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr, result.stderr[-2000:]
    found = _error_lines(result.stderr)
    assert result.returncode == 1, result.stderr
    if far == "cell":
        assert found == ["content/tiny/cards/cards.xlsx:1:1: error[E-SHEET]: sheet 'main' has more than 20000 rows "
                         "or 200 columns (a cell far down or right counts); cardforge reads at most that many"], found
    elif far == "merge":  # B2 to the end reads as B2 ('Alpha') in every cell the sheet holds
        assert found == [f"content/tiny/cards/cards.xlsx:main!C{r}: error[E-SCHEMA]: 'Alpha' is not a whole number "
                         "(column 'cost')" for r in (2, 3)], found
    else:  # a merged header reads as its top-left value: 'id' in every column
        assert found == [f"content/tiny/cards/cards.xlsx:main!{c}1: error[E-DUPLICATE-KEY]: column 'id' appears twice "
                         "(first in column A)" for c in "BC"], found


BIG_BOARD = GAME_YAML + "boards:\n  - {id: map, name: Map, size: {width: 3000mm, height: 3000mm}, layout: board}\n"
BOARD_LAYOUT = "frames:\n  t: {type: text, x: 10mm, y: 10mm, width: 100mm, height: 20mm, text: Map, size: 12pt}\n"


@pytest.mark.parametrize("command", [["build", "--target", "printshop"], ["export", "png", "--dpi", "1200"]])
def test_raster_of_a_huge_board_is_bounded_before_it_is_drawn(tmp_path, command):
    """A print-shop build of a 3,000 mm board took 3.8 GB (its 300 dpi picture) and died."""
    import subprocess
    import sys
    make_game(tmp_path, game_yaml=BIG_BOARD, layouts={"board": BOARD_LAYOUT})
    result = subprocess.run([sys.executable, "-m", "cardforge", *command[:-2 if command[0] == "export" else None],
                             "content/tiny", *(command[-2:] if command[0] == "export" else []), "--out", "out"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=300, preexec_fn=_limited_memory)
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 1, result.stderr
    found = _error_lines(result.stderr)
    assert len(found) == 1 and found[0].startswith("content/tiny/game.yaml:16:5: error[E-LIMIT]: ") and \
        "is larger than the limit of 150 million pixels per picture" in found[0], found


def test_csv_of_too_many_rows_is_refused_before_its_cards_are_read(tmp_path):
    """Found by the fuzz run: 20,001 copies of a row were each checked (a HANG)."""
    game = GAME_YAML.replace("cards/cards.yaml", "cards/cards.csv")
    csv = "id,title\n" + "alpha,Alpha\n" * 20_001
    assert errors(tmp_path, game_yaml=game, cards_yaml=None, files={"cards/cards.csv": csv}, timeout=60) == [
        "content/tiny/cards/cards.csv:1:1: error[E-SHEET]: the file has more than 20000 rows or 200 columns; "
        "cardforge reads at most that many"]


def test_force_list_of_megabytes_is_refused_unread(tmp_path):
    """The fuzz run's seeds 10546 and 10840: 60,000 picks (2 MB of YAML) took 13 s of CPU to parse,
    cache and quote before the pick limit said no (a HANG on a busy machine)."""
    shutil.copytree(REPO / "content" / "war-eagles", tmp_path / "content" / "war-eagles")
    shutil.copytree(REPO / "layouts", tmp_path / "layouts")
    force = tmp_path / "content/war-eagles/forces/standard-axis.yaml"
    text = force.read_text("utf-8")
    pick = next(line for line in text.splitlines() if line.strip().startswith("- {card:"))
    force.write_text(text.replace(pick + "\n", (pick + "\n") * 8000, 1), "utf-8")
    kb = force.stat().st_size / 1024
    assert kb > 256
    result = cardforge("check", "content/war-eagles", cwd=tmp_path, timeout=120)
    assert result.returncode == 1, result.stderr[-2000:]
    assert _error_lines(result.stderr)[0] == (
        f"content/war-eagles/forces/standard-axis.yaml:1:1: error[E-LIMIT]: a force list of {kb:,.0f} KB is larger "
        "than the limit of 256 KB per force list")


def test_force_of_too_many_picks(tmp_path):
    """Found by the fuzz run: 5,000 picks, each rule of scope `pick` over the picks before it (a HANG)."""
    shutil.copytree(REPO / "content" / "war-eagles", tmp_path / "content" / "war-eagles")
    shutil.copytree(REPO / "layouts", tmp_path / "layouts")
    force = tmp_path / "content/war-eagles/forces/standard-axis.yaml"
    text = force.read_text("utf-8")
    pick = next(line for line in text.splitlines() if line.strip().startswith("- {card:"))
    force.write_text(text.replace(pick + "\n", (pick + "\n") * 600, 1), "utf-8")
    result = cardforge("check", "content/war-eagles", cwd=tmp_path, timeout=120)
    assert "Traceback" not in result.stderr and result.returncode == 1, result.stderr[-2000:]
    assert any(line.endswith("error[E-LIMIT]: a force of 613 picks is larger than the limit of 500 picks per force")
               or "picks is larger than the limit of 500 picks per force" in line
               for line in _error_lines(result.stderr)), result.stderr[-2000:]
