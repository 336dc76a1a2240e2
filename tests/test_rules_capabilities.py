"""Rules-engine capabilities of issue 16, and valid edits that must stay clean.

- helpers: gaps/overlaps (intervals that tile a span), copies/duplicates (uniqueness across copies and
  decks), has_word/words/matches/find_all and the 'word in' / 'has word' / matches comparisons (whole
  words and regular expressions, bounded in size and time);
- `let` that sees `each` (evaluated per item), `values` read by derived fields, `require` (the finding
  names the condition that failed), each with the diagnostic a mistake in the rules file gets;
- edits a designer makes that respect every rule: a new aircraft (Bomber Boys and Iron Rain), recipe
  lines in another order, a typed score table reordered. They must stay clean.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardforge.cli import main
from cardforge.rules.expressions import HELPERS, Expr, ExpressionError

REPO = Path(__file__).resolve().parent.parent
LAYOUTS = REPO / "layouts"
HEADLINE = re.compile(r"^\S[^:]*:\d+:\d+: (error|warning)\[[A-Z0-9-]+\]: ")


def run(expression: str, **names):
    return Expr(expression)(dict(HELPERS, **names))


# -- helpers ---------------------------------------------------------------------------------------

BANDS = [{"min": 10, "max": 10}, {"min": 9, "max": 9}, {"min": 7, "max": 8}, {"min": 5, "max": 6},
         {"min": 3, "max": 4}, {"min": 0, "max": 2}]


def test_gaps_and_overlaps():
    assert run("gaps(rows, 'min', 'max', 0, 10)", rows=BANDS) == []
    assert run("overlaps(rows, 'min', 'max')", rows=BANDS) == []
    holey = [dict(row) for row in BANDS]
    holey[2]["max"] = 7           # 8 is in no band
    holey[5]["min"] = 1           # nor is 0
    assert run("gaps(rows, 'min', 'max', 0, 10)", rows=holey) == [
        {"from": 0, "to": 0, "index": 5}, {"from": 8, "to": 8, "index": 1}]
    assert run("gaps(rows, 'min', 'max', 0, 12)", rows=BANDS) == [{"from": 11, "to": 12, "index": 0}]
    crossed = [dict(row) for row in BANDS]
    crossed[3]["max"] = 7         # 7 is in two bands
    assert run("overlaps(rows, 'min', 'max')", rows=crossed) == [{"from": 7, "to": 7, "index": 2, "with": 3}]
    assert run("overlaps([{'min': 5, 'max': 3}])") == [{"from": 5, "to": 3, "index": 0, "with": 0}]
    # open ends (None), as band() reads them
    assert run("gaps([{'min': none, 'max': 4}, {'min': 5, 'max': none}], 'min', 'max', 0, 99)") == []
    with pytest.raises(ExpressionError, match="'max' is 'x', not a number"):
        run("gaps([{'min': 1, 'max': 'x'}])")


def test_copies_and_duplicates_count_quantities_across_decks():
    cards = [{"id": "a", "name": "Galland", "quantity": 1}, {"id": "b", "name": "Harris", "quantity": 2},
             {"id": "c", "name": "Galland"}]
    assert run("copies(cards, 'name', 'Galland')", cards=cards) == 2
    assert run("copies(cards, 'name', 'Harris')", cards=cards) == 2
    assert run("duplicates(cards, 'name')", cards=cards) == [
        {"value": "Galland", "ids": ["a", "c"], "copies": 2}, {"value": "Harris", "ids": ["b"], "copies": 2}]
    raids = [{"id": "x", "name": "Berlin", "date": "1943-11-18"}, {"id": "y", "name": "Berlin", "date": "1944-03-06"}]
    assert run("duplicates(raids, ['name', 'date'])", raids=raids) == []
    assert run("copies(raids, ['name', 'date'], ['Berlin', '1944-03-06'])", raids=raids) == 1


def test_whole_words_and_patterns():
    assert run("has_word('de Havilland Mosquito PR', 'de Havilland')")
    assert not run("has_word('B-24s over Ploiesti', 'B-2', plural=True)")   # not inside another word
    assert run("has_word('If raid uses only B-24\\'s, Double VP', 'B-24', plural=True)")
    assert not run("has_word('Lancasters', 'Lancaster')")                   # plural only when asked
    assert run("has_word('LANCASTER', 'lancaster', case=False)")
    assert run("words('Only Lancasters may attack.')") == ["Only", "Lancasters", "may", "attack"]
    assert run("find_all('(locations 1 to 10), engine (11 or 12)', '([0-9]+) (?:to|or) ([0-9]+)')") == [
        ["1", "10"], ["11", "12"]]
    assert run("find_all('1 to 10', '[0-9]+')") == ["1", "10"]
    assert run("matches('Tallboys: only Lancasters may attack.', '(?i)^tallboys')")
    types = [{"type": "B-2"}, {"type": "B-24"}, {"type": "Lancaster"}]
    assert run("pluck(where(types, 'type', 'If raid uses only B-24\\'s', 'word in'), 'type')", types=types) == ["B-24"]
    assert run("pluck(where(types, 'type', '^B-', 'matches'), 'type')", types=types) == ["B-2", "B-24"]


def test_patterns_are_bounded():
    with pytest.raises(ExpressionError, match="does not compile"):
        run("matches('text', '(unclosed')")
    with pytest.raises(ExpressionError, match="at most 300"):
        run("matches('text', p)", p="a" * 301)
    with pytest.raises(ExpressionError, match="at most 20000"):
        run("matches(t, 'a')", t="a" * 20_001)
    # a pattern that backtracks without end is stopped by the time limit, not left to hang the build
    with pytest.raises(ExpressionError, match="took more than"):
        run("matches(t, '(x+x+)+y')", t="x" * 5000)


# -- the rules file: let per item, values in derived, require ----------------------------------------

@pytest.fixture
def game(tmp_path):
    shutil.copytree(REPO / "content" / "bomber-boys", tmp_path / "bomber-boys")
    return tmp_path / "bomber-boys"


def edit(game: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    path = game / rel
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} is not in {rel}"
    path.write_text(text.replace(old, new, count), "utf-8")


def check(game: Path, capsys, monkeypatch) -> tuple[int, list[str], str]:
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--layouts", str(LAYOUTS)])
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if HEADLINE.match(line)], out + err


def loc(game: Path, rel: str, line: str, at: str) -> str:
    lines = (game / rel).read_text("utf-8").splitlines()
    index = next(i for i, text in enumerate(lines) if line in text)
    return f"{game.name}/{rel}:{index + 1}:{lines[index].index(at) + 1}"


RULE = '''  - id: BB-TEST
    section: "a test rule"
    group: crew
'''


def add_check(game: Path, body: str) -> None:
    edit(game, "rules.yaml", "checks:\n", "checks:\n" + RULE + body)


def test_let_sees_each(game, capsys, monkeypatch):
    """A let that reads `item` is evaluated per item, after `each` (which may use the other lets)."""
    add_check(game, '''    let:
      hits: "card.actions"
      best: "item.hits | map(attribute='damage') | max"
    each: "where(hits, 'hits')"
    assert: "best <= 1"
    at: "actions/{{ index }}"
    message: "{{ item.name }} can do {{ best }} damage"
''')
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1, output
    assert f"{loc(game, 'cards/crew.yaml', '- name: Nose Gun', 'name')}: error[BB-TEST]: Nose Gun can do 2 damage" in found


def test_each_cannot_read_a_let_that_reads_item(game, capsys, monkeypatch):
    add_check(game, '''    let: {own: "item.hits"}
    each: "own"
    assert: "true"
    message: "never"
''')
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    where = loc(game, "rules.yaml", 'each: "own"', "own")
    assert f"{where}: error[E-RULES-REF]: 'each' reads let 'own', which reads item or index" in found


def test_derived_fields_read_values(game, capsys, monkeypatch):
    edit(game, "rules.yaml", "derived:\n", '''derived:
  - name: cabin_side
    group: crew
    section: "a test derived field"
    value: "'front' if card.position <= values.cabin | length // 2 else 'rear'"
''')
    add_check(game, '''    where: "card.position == 1 or card.position == 10"
    assert: "card.cabin_side == ('front' if card.position == 1 else 'rear')"
    message: "{{ card.title }} is at the {{ card.cabin_side }}"
''')
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 0 and found == [], output


def test_a_derived_field_cannot_read_a_value_that_reads_derived_fields(game, capsys, monkeypatch):
    edit(game, "rules.yaml", "  d6: \"range(1, 7) | list\"\n",
         "  d6: \"range(1, 7) | list\"\n  all_dice: \"pluck(cards, 'dice')\"\n")
    edit(game, "rules.yaml", "    value: \"where(card.actions, 'kind', 'gun') | first | default(none)\"",
         "    value: \"values.all_dice\"")
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    where = loc(game, "rules.yaml", 'value: "values.all_dice"', "all_dice")
    assert f"{where}: error[E-RULES-REF]: derived field reads value 'all_dice', which reads derived fields itself" \
        in found


def test_require_names_the_condition_that_failed(game, capsys, monkeypatch):
    add_check(game, '''    at: title
    require:
      - assert: "card.position <= 10"
        message: "{{ card.title }}: position"
      - assert: "card.title != 'Tail Gunner'"
        message: "{{ card.title }}: the title is the one that fails"
        at: position
''')
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    tail = [line for line in found if "BB-TEST" in line]
    lines = (game / "cards" / "crew.yaml").read_text("utf-8").splitlines()
    index = next(i for i, t in enumerate(lines) if "position: 10" in t)
    assert tail == [f"bomber-boys/cards/crew.yaml:{index + 1}:15: error[BB-TEST]: Tail Gunner: the title is the one "
                    "that fails"]


def test_assert_and_require_together_is_a_mistake(game, capsys, monkeypatch):
    add_check(game, '''    assert: "true"
    message: "never"
    require: [{assert: "true", message: "never"}]
''')
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    assert f"{loc(game, 'rules.yaml', '- id: BB-TEST', 'id')}: error[E-RULES]: a check needs 'assert' (with " \
           "'message') or 'require' (a list of conditions), not both" in found


def test_a_runaway_pattern_in_the_rules_is_reported_not_hung(game, capsys, monkeypatch):
    add_check(game, '''    assert: "not matches('x' * 3000, '(x+x+)+y')"
    message: "never"
''')
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert any("error[E-RULES-EVAL]" in line and "took more than" in line for line in found), output


# -- valid edits stay clean -------------------------------------------------------------------------

NEW_ENEMY = '''
  - id: enemy-aircraft-me-109-e
    art: airplane
    kind: enemy-aircraft
    title: Enemy Aircraft
    aircraft: Bf 109 E
    mission: berlin-blitz
    resolution: ATTACK OR RALLY
    initiative: 2
    approach: 9
    altitude: high
    attack: [{roll: 3, damage: 1}, {roll: 6, damage: 2}]
    damage_spaces: 3
    authored: true
    note: "A new aircraft for Berlin Blitz that respects every rule."
'''


def test_a_new_bomber_boys_aircraft_stays_clean(game, capsys, monkeypatch):
    text = (game / "cards" / "enemies.yaml").read_text("utf-8")
    marker = "  # --- Operation Berlin Blitz"
    (game / "cards" / "enemies.yaml").write_text(text.replace(marker, NEW_ENEMY.lstrip("\n") + "\n" + marker), "utf-8")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 0 and found == [], output


def test_reordered_recipe_lines_stay_clean(game, capsys, monkeypatch):
    """A mission's deck recipe is a list of counts: its order is the designer's. (The score table's
    order is the rulebook's, held as a fact since issue 23: reordering its rows is BB-SCORE-TABLE.)"""
    flak = '      - {count: 3, label: "Enemy FlaK", kind: [flak]}\n'
    items = '      - {count: 4, label: "Items (randomly selected)", kind: [item]}\n'
    text = (game / "cards" / "missions.yaml").read_text("utf-8")
    first = text.index(flak)
    block_end = text.index(items, first) + len(items)
    block = text[first:block_end]
    lines = block.splitlines(keepends=True)
    text = text[:first] + "".join(reversed(lines)) + text[block_end:]
    (game / "cards" / "missions.yaml").write_text(text, "utf-8")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 0 and found == [], output


NEW_BOMBER = '''
  - id: baltimore
    kind: bomber
    quantity: 1
    nation: british
    name: Martin Baltimore
    maker: Martin
    type: Baltimore
    variant: Mk V
    weather: day
    service_start: 1942
    service_end: 1945
    engines: 2
    bombs: 2
    red_bombs: 0
    cost: 4
    flavour: Built in Baltimore for the RAF, it flew in the Desert Air Force and over Italy.
    authored: true
    note: "A new aircraft that respects every rule."
'''


def test_a_new_iron_rain_aircraft_stays_clean(tmp_path, capsys, monkeypatch):
    shutil.copytree(REPO / "content" / "iron-rain", tmp_path / "iron-rain")
    path = tmp_path / "iron-rain" / "cards" / "homeland-bombers.yaml"
    path.write_text(path.read_text("utf-8").rstrip("\n") + "\n" + NEW_BOMBER, "utf-8")
    code, found, output = check(tmp_path / "iron-rain", capsys, monkeypatch)
    assert code == 0 and found == [], output
