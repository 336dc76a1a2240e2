"""Typed tables (C1), lookup helpers (C2) and per-row checks (C4): each failure is a diagnostic at
the data that caused it, with its exact path:line:col."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardforge.cli import main
from cardforge.diagnostics import Report
from cardforge.frontend.model import load_game
from cardforge.rules.expressions import HELPERS, Expr, ExpressionError
from conftest import make_game

HEADLINE = re.compile(r"^\S[^:]*:\d+:\d+: (error|warning)\[[A-Z0-9-]+\]: ")

GAME = """\
id: tiny
name: Tiny
decks:
  - id: tanks
    cards: cards/tanks.yaml
    front: front
    fields:
      title: {type: string}
      weapons: {type: array, items: {type: string}}
      propulsion: {enum: [wheeled, tracked]}
tables:
  plain:
    - {a: 1}
  weapons:
    source: "Weapons Table"
    key: system
    required: [system, weight]
    fields:
      system: {type: string}
      weight: {type: integer, minimum: 0}
      profile: {type: integer}
    rows:
      - {system: Chain Guns, weight: 1, profile: 1}
      - {system: SAM, weight: 9, profile: 3}
      - {system: Rail Gun, weight: 12, profile: 4, authored: true, note: "for the test"}
  speed:
    file: tables/speed.yaml
    fields:
      min: {type: [integer, "null"]}
      max: {type: [integer, "null"]}
      wheeled: {type: integer}
      tracked: {type: integer}
    columns:
      - {field: wheeled, label: Wheeled}
      - {field: tracked, label: Tracked}
"""

SPEED = """\
rows:
  - {min: null, max: 20, wheeled: 16, tracked: 14}
  - {min: 21, max: 40, wheeled: 16, tracked: 13}
  - {min: 41, max: 60, wheeled: 13, tracked: 12}
"""

CARDS = """\
cards:
  - id: aa
    title: Air defence
    propulsion: tracked
    weapons: [SAM, SAM]
"""

RULES = """\
derived:
  - {name: weight, value: "sum_lookup(card.weapons, tables.weapons, 'weight')", section: "T14"}
  - {name: speed, value: "cell(tables.speed, card.weight * 3, card.propulsion)", section: "T16"}
checks:
  - id: T-WEIGHT
    section: "T14"
    scope: table
    table: weapons
    assert: "row.weight <= 10"
    message: "{{ row.system }} weighs {{ row.weight }}"
  - id: T-ORDER
    section: "T16"
    scope: table
    table: speed
    where: "index > 0"
    assert: "row.wheeled <= rows[index - 1].wheeled"
    at: wheeled
    message: "row {{ index + 1 }} is faster than the row above"
"""

FRONT = """\
frames:
  t: {type: text, x: 4mm, y: 4mm, width: 55mm, height: 8mm, text: "{{ card.title }}"}
"""


def game_dir(tmp_path, game=GAME, cards=CARDS, speed=SPEED, rules=RULES) -> Path:
    return make_game(tmp_path, game_yaml=game, cards_yaml=None, layout_yaml=FRONT, back_layout_yaml=None,
                     files={"cards/tanks.yaml": cards, "tables/speed.yaml": speed, "rules.yaml": rules})


def check(path: Path, capsys, monkeypatch) -> tuple[int, list[str]]:
    monkeypatch.chdir(path.parent)
    code = main(["check", path.name])
    _, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if HEADLINE.match(line)]


def where(path: Path, rel: str, needle: str, nth: int = 0) -> str:
    lines = (path / rel).read_text().splitlines()
    hits = [(i, line.index(needle)) for i, line in enumerate(lines) if needle in line]
    i, col = hits[nth]
    return f"{path.name}/{rel}:{i + 1}:{col + 1}"


def test_typed_table_loads_rows_with_every_field_and_keeps_bare_lists(tmp_path):
    report = Report()
    game = load_game(game_dir(tmp_path), report)
    assert not report.errors, report.items
    weapons = game.tables["weapons"]
    assert weapons.table.key == "system" and weapons.table.source == "Weapons Table"
    assert weapons[0] == {"system": "Chain Guns", "weight": 1, "profile": 1}
    assert weapons[2]["authored"] is True
    assert game.tables["plain"] == [{"a": 1}]
    assert [row["tracked"] for row in game.tables["speed"]] == [14, 13, 12]
    assert game.template_data()["tables"]["weapons"] is weapons


def test_rows_are_validated_like_cards_at_their_line(tmp_path, capsys, monkeypatch):
    bad = GAME.replace("{system: SAM, weight: 9, profile: 3}", "{system: SAM, weight: -9, profile: 3, colour: red}")
    path = game_dir(tmp_path, game=bad, speed=SPEED.replace("tracked: 13", "tracked: fast"))
    code, lines = check(path, capsys, monkeypatch)
    assert code == 1
    assert any(line.startswith(where(path, "game.yaml", "-9") + ": error[E-SCHEMA]: 'tables.weapons.rows[1].weight': -9 is less than the minimum of 0")
               for line in lines), lines
    assert f"{where(path, 'game.yaml', 'colour')}: error[E-SCHEMA]: unknown key 'colour'" in lines
    assert any(line.startswith(where(path, "tables/speed.yaml", "fast") + ": error[E-SCHEMA]: expected integer")
               for line in lines), lines


def test_duplicate_key_and_unknown_key_field(tmp_path, capsys, monkeypatch):
    bad = GAME.replace("{system: Rail Gun,", "{system: SAM,").replace("key: system", "key: sytem")
    path = game_dir(tmp_path, game=bad)
    code, lines = check(path, capsys, monkeypatch)
    assert f"{where(path, 'game.yaml', 'sytem')}: error[E-TABLE]: table 'weapons': key names 'sytem', which is " \
           "not one of its fields" in lines
    path2 = game_dir(tmp_path / "b", game=GAME.replace("{system: Rail Gun,", "{system: SAM,"))
    code, lines = check(path2, capsys, monkeypatch)
    assert f"{where(path2, 'game.yaml', 'SAM', 1)}: error[E-TABLE-KEY]: table 'weapons': key system 'SAM' is " \
           "already used by row 2" in lines


def test_sum_lookup_keeps_duplicates_and_cell_finds_the_band(tmp_path):
    report = Report()
    game = load_game(game_dir(tmp_path), report)
    tables = game.tables
    assert Expr("sum_lookup(['SAM', 'SAM', 'Chain Guns'], tables.weapons, 'weight')")(dict(HELPERS, tables=tables)) == 19
    assert Expr("lookup(tables.weapons, 'Rail Gun', 'profile')")(dict(HELPERS, tables=tables)) == 4
    assert Expr("band(tables.speed, 30, 'wheeled')")(dict(HELPERS, tables=tables)) == 16
    assert Expr("cell(tables.speed, 45, 'tracked')")(dict(HELPERS, tables=tables)) == 12
    assert Expr("floor(7 / 2) + ceil(0.2)")(HELPERS) == 4
    with pytest.raises(ExpressionError, match="61 falls outside every band of table 'speed'"):
        Expr("band(tables.speed, 61)")(dict(HELPERS, tables=tables))


def test_lookup_failure_points_at_the_card_value(tmp_path, capsys, monkeypatch):
    path = game_dir(tmp_path, cards=CARDS.replace("[SAM, SAM]", "[SAM, Rail Gunn]"))
    code, lines = check(path, capsys, monkeypatch)
    assert code == 1
    assert f"{where(path, 'cards/tanks.yaml', 'Rail Gunn')}: error[E-LOOKUP]: derived field 'weight' of card " \
           "'aa': 'Rail Gunn' is not a system of table 'weapons'" in lines, lines


def test_band_failure_points_at_the_card(tmp_path, capsys, monkeypatch):
    # 2 SAMs weigh 18; x3 = 54 fits; 3 Rail Guns weigh 36, x3 = 108 is outside every band
    path = game_dir(tmp_path, cards=CARDS.replace("[SAM, SAM]", "[Rail Gun, Rail Gun, Rail Gun]"),
                    rules=RULES.replace("row.weight <= 10", "row.weight <= 20"))
    code, lines = check(path, capsys, monkeypatch)
    assert f"{where(path, 'cards/tanks.yaml', 'id: aa', 0)}: error[E-LOOKUP]: derived field 'speed' of card " \
           "'aa': 108 falls outside every band of table 'speed' (up to 20, 21-40, 41-60)" in lines, lines


def test_table_check_points_at_the_row_field(tmp_path, capsys, monkeypatch):
    path = game_dir(tmp_path, speed=SPEED.replace("wheeled: 13", "wheeled: 17"))
    code, lines = check(path, capsys, monkeypatch)
    assert code == 1
    assert f"{where(path, 'game.yaml', '12, profile')}: error[T-WEIGHT]: Rail Gun weighs 12" in lines
    assert f"{where(path, 'tables/speed.yaml', '17')}: error[T-ORDER]: row 3 is faster than the row " \
           "above" in lines


def test_unknown_table_in_a_check(tmp_path, capsys, monkeypatch):
    path = game_dir(tmp_path, rules=RULES.replace("table: weapons", "table: weapon"))
    code, lines = check(path, capsys, monkeypatch)
    assert f"{where(path, 'rules.yaml', 'weapon', 1)}: error[E-RULES-REF]: unknown table 'weapon'" in lines, lines
