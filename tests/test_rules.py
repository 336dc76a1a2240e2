"""The rules engine (cardforge/rules/) and Bomber Boys' rules (content/bomber-boys/rules.yaml).

Every rule is tested the same way: copy content/bomber-boys to tmp_path, change one value the way a
designer might, run `cardforge check` and assert the exact `path:line:col: severity[RULE-ID]: message`
headline. Expected positions are computed from the mutated file (the line holding the changed value),
so the tests do not break when unrelated lines of the content move.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from cardforge.cli import main
from cardforge.diagnostics import Report
from cardforge.rules.expressions import Expr, ExpressionError, MessageTemplate, marked_terms

REPO = Path(__file__).resolve().parent.parent
BOMBER = REPO / "content" / "bomber-boys"
LAYOUTS = REPO / "layouts"
HEADLINE = re.compile(r"^\S[^:]*:\d+:\d+: (error|warning)\[[A-Z0-9-]+\]: ")


# -- helpers ------------------------------------------------------------------------------------

@pytest.fixture
def game(tmp_path):
    """A fresh copy of Bomber Boys at tmp_path/bomber-boys."""
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    return tmp_path / "bomber-boys"


def edit(game: Path, rel: str, old: str, new: str, count: int = 1) -> None:
    path = game / rel
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} is not in {rel}"
    path.write_text(text.replace(old, new, count), "utf-8")


def loc(game: Path, rel: str, line: str, at: str | None = None, after: str | None = None) -> str:
    """`bomber-boys/REL:LINE:COL` of the first line holding `line` (after the line holding `after`);
    the column is where `at` (default: `line`) starts on it."""
    lines = (game / rel).read_text("utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if after in text) if after else 0
    index = next(i for i in range(start, len(lines)) if line in lines[i])
    col = lines[index].index(at if at is not None else line) + 1
    return f"{game.name}/{rel}:{index + 1}:{col}"


def check(game: Path, capsys, monkeypatch, *extra: str) -> tuple[int, list[str], str]:
    """Run `cardforge check` in the game's parent folder, in this process."""
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--layouts", str(LAYOUTS), *extra])
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if HEADLINE.match(line)], out + err


# -- the shipped content ---------------------------------------------------------------------------

def test_shipped_bomber_boys_passes(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code = main(["check", "content/bomber-boys"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert not [line for line in err.splitlines() if "error[" in line], err


def test_every_rule_cites_the_rulebook():
    rules = yaml.safe_load((BOMBER / "rules.yaml").read_text("utf-8"))
    for kind in ("checks", "recipes", "references", "derived"):
        for rule in rules[kind]:
            assert len(rule["section"]) > 10, rule
    for term, entry in rules["glossary"]["terms"].items():
        assert entry["section"], term


# -- one mutation per rule -----------------------------------------------------------------------
# Each case: the edits, then a function of the mutated game giving the headlines that must appear.

def _e(location: str, code: str, message: str, severity: str = "error") -> str:
    return f"{location}: {severity}[{code}]: {message}"


CASES = {
    "BB-CREW-POSITION": (
        [("cards/crew.yaml", "    position: 4\n", "    position: 3\n")],
        lambda g: [
            _e(loc(g, "cards/crew.yaml", "position: 3", "3", after="id: pilot"), "BB-CREW-POSITION",
               "crew position 3 is used by 2 crew cards (pilot, co-pilot); each D12 cabin location 1-10 is one crew member"),
            _e(loc(g, "cards/crew.yaml", "position: 3", "3", after="id: co-pilot"), "BB-CREW-POSITION",
               "crew position 3 is used by 2 crew cards (pilot, co-pilot); each D12 cabin location 1-10 is one crew member"),
        ]),
    "BB-D12": (
        [("game.yaml", '{roll: "11", location', '{roll: "13", location')],
        lambda g: [_e(loc(g, "rules.yaml", "assert: \"values.damage_locations == values.d12", "\"values."), "BB-D12",
                      "the D12 damage locations do not match its faces 1-12: crew positions + engines give "
                      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], the damage_locations table in game.yaml gives "
                      "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 12]")]),
    "BB-D12-TABLE": (
        [("game.yaml", '{roll: "7", location: Ball Turret}', '{roll: "7", location: Belly Turret}')],
        lambda g: [_e(loc(g, "cards/crew.yaml", "position: 7", "7"), "BB-D12-TABLE",
                      "the reference sheet's damage table says D12 roll 7 hits 'Belly Turret', but crew position 7 "
                      "is the Ball Turret")]),
    "BB-DIE-FACES": (
        [("cards/items.yaml", "any or all results of 1 or 2", "any or all results of :d6-7: or 2")],
        lambda g: [_e(loc(g, "cards/items.yaml", ":d6-7:"), "BB-DIE-FACES",
                      "card 'extra-ammo' pictures a die showing 7; a six-sided die shows 1 to 6")]),
    "BB-GUN-TABLE": (
        [("cards/crew.yaml", "hits: [{roll: 3, damage: 1}, {roll: 5, damage: 2}]",
          "hits: [{roll: 5, damage: 1}, {roll: 3, damage: 2}]")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "hits: [{roll: 5", "5"), "BB-GUN-TABLE",
                      "'Nose Gun' of Bombardier: a higher die must hit for more damage, but the table is 5, 3 -> 1, 2")]),
    "BB-GUN-HITS": (
        [("cards/crew.yaml", "hits: [{roll: 3, damage: 1}, {roll: 6, damage: 2}]", "hits: []")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "- name: Cheek Gun", "name"), "BB-GUN-HITS",
                      "'Cheek Gun' of Navigator: a gun action needs its hit table (hits)")]),
    "BB-ONE-GUN": (
        [("cards/crew.yaml", "      - name: Tail Gun\n",
          "      - name: Tail Gun Two\n        kind: gun\n        text: \"Fire again.\"\n"
          "        hits: [{roll: 2, damage: 1}]\n      - name: Tail Gun\n")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "- name: Tail Gun Two", "-"), "BB-ONE-GUN",
                      "Tail Gunner has 2 gun actions; a crew member has one gun")]),
    "BB-ATTACK-TABLE": (
        [("cards/enemies.yaml", "attack: [{roll: 2, damage: 1}, {roll: 5, damage: 2}]",
          "attack: [{roll: 5, damage: 1}, {roll: 2, damage: 2}]")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "attack: [{roll: 5", "["), "BB-ATTACK-TABLE",
                      "Enemy Aircraft ('enemy-aircraft-me-410'): a higher die must hit for more damage, but the attack "
                      "table is 5, 2 -> 1, 2")]),
    "BB-INITIATIVE-X": (
        [("cards/enemies.yaml", "    initiative: 1\n", "    initiative: X\n")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "initiative: X", "X", after="enemy-aircraft-me-410"),
                      "BB-INITIATIVE-X", "Enemy Aircraft ('enemy-aircraft-me-410') has initiative X; only ground "
                      "attacks and the experimental jet have X")]),
    "BB-INITIATIVE-RANGE": (
        [("cards/enemies.yaml", "    initiative: 1\n", "    initiative: 5\n")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "initiative: 5", "5"), "BB-INITIATIVE-RANGE",
                      "Enemy Aircraft ('enemy-aircraft-me-410') has initiative 5; with no dice left in your pool the "
                      "enemy's Focus is its initiative, and the Focus tokens go from +1 to +4")]),
    "BB-ALTITUDE": (
        [("cards/enemies.yaml", "    altitude: high\n", "    altitude: ground\n")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "altitude: ground", "ground"), "BB-ALTITUDE",
                      "Enemy Aircraft ('enemy-aircraft-me-410') is an aircraft but its altitude is ground")]),
    "BB-APPROACH": (
        [("cards/enemies.yaml", "    approach: 12\n", "")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "- id: enemy-aircraft-me-410", "id"), "BB-APPROACH",
                      "Enemy Aircraft ('enemy-aircraft-me-410'): an aircraft needs an approach (12, 3, 6 or 9 o’clock)")]),
    "BB-DAMAGE-TRACK": (
        [("cards/enemies.yaml", "    damage_spaces: 6\n", "    damage_spaces: 0\n")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "damage_spaces: 0", "0"), "BB-DAMAGE-TRACK",
                      "Enemy Aircraft ('enemy-aircraft-me-410'): an enemy aircraft needs a damage track "
                      "(damage_spaces of 1 or more)")]),
    "BB-SIGHT": (
        [("cards/crew.yaml", "sight: {clock: [12], altitude: [low]}", "sight: {clock: [3], altitude: [low]}")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "approach: 12", "12", after="enemy-aircraft-bf-109-g"), "BB-SIGHT",
                      "no gun has line of sight to Enemy Aircraft ('enemy-aircraft-bf-109-g') at 12 o’clock low; only "
                      "Maneuver or Escort Fighters can hurt it", "warning")]),
    "BB-RESOLUTION": (
        [("cards/items.yaml", "TAKE ITEM OR RALLY", "IGNORE EVENT OR RALLY")],
        lambda g: [_e(loc(g, "cards/items.yaml", "resolution: IGNORE", "IGNORE"), "BB-RESOLUTION",
                      "Extra Ammo ('extra-ammo') says 'IGNORE EVENT OR RALLY', but the choice on a card of kind item is "
                      "'TAKE ITEM OR RALLY'")]),
    "BB-ONGOING-MISSION": (
        [("cards/events.yaml", "    mission: hornets-nest\n", "    mission: base\n")],
        lambda g: [_e(loc(g, "cards/events.yaml", "mission: base", "base", after="id: lose-escort"),
                      "BB-ONGOING-MISSION", "ongoing event 'Lose Escort' is a base card, so it would be in every "
                      "mission's deck, Milk Run's too")]),
    "BB-MISSION-CARD": (
        [("cards/missions.yaml", "    difficulty: 2\n", "    difficulty: 1\n")],
        lambda g: [_e(loc(g, "cards/missions.yaml", "difficulty: 1", "1", after="id: nightwing"), "BB-MISSION-CARD",
                      "mission card 'nightwing' shares its difficulty 1 with another mission card; each mission has "
                      "one card and its own difficulty (1 to 5)")]),
    "BB-ACTION-NAMED": (
        [("cards/events.yaml", "cannot use their **Evade** action.", "cannot use their **Evasive Action**.")],
        lambda g: [_e(loc(g, "cards/events.yaml", "**Evasive Action**", after="id: squadron-leader-down"),
                      "BB-ACTION-NAMED",
                      "'Squadron Leader Down' names the crew action 'Evasive Action', but no crew card has an action "
                      "of that name")]),
    "BB-FOCUS-TOKENS": (
        [("tokens/focus.yaml", "front_value: 3, back_value: 4, rule: CANNOT", "front_value: 3, back_value: 3, rule: CANNOT")],
        lambda g: [_e(loc(g, "rules.yaml", 'assert: "player == [1, 2, 3, 4]', '"'), "BB-FOCUS-TOKENS",
                      "the Focus tokens must show +1 to +4 once each for each side; yours show [1, 2, 3, 4], the "
                      "enemy's [1, 2, 3, 3]")]),
    "BB-MISSION-DECK": (
        [("cards/missions.yaml", "    total: 17\n", "    total: 18\n")],
        lambda g: [_e(loc(g, "cards/missions.yaml", "total: 18", "18"), "BB-MISSION-DECK",
                      "recipe of 'milk-run': the lines add up to 17 cards (3 + 6 + 4 + 4), but the stated total is 18")]),
    "BB-CREW-TEN": (
        [("cards/crew.yaml", "  - id: bombardier\n", "  - id: bombardier\n    quantity: 2\n")],
        lambda g: [_e(loc(g, "rules.yaml", "count: 10, label: crew cards", "10"), "BB-CREW-TEN",
                      "recipe BB-CREW-TEN: '10x crew cards (one copy each)' needs 10 cards, but the pool has 9: "
                      "navigator x1, pilot x1, co-pilot x1, flight-engineer x1, radio-operator x1, ball-turret x1 "
                      "and 3 more")]),
    "BB-BASE-AIRCRAFT": (
        [("cards/enemies.yaml", "    mission: base\n", "    mission: nightwing\n")],
        lambda g: [_e(loc(g, "rules.yaml", "count: 8, label: base enemy aircraft", "8"), "BB-BASE-AIRCRAFT",
                      "recipe BB-BASE-AIRCRAFT: '8x base enemy aircraft' needs 8 cards, but the pool has 7: "
                      "enemy-aircraft-bf-110 x1, enemy-aircraft-ju-88 x1, enemy-aircraft-bf-109-f x1, "
                      "enemy-aircraft-fw-190-a x1, enemy-aircraft-bf-109-g x1, enemy-aircraft-fw-190-d x1 and 1 more")]),
    "BB-MISSIONS": (
        [("cards/missions.yaml", "  - id: milk-run\n", "  - id: milk-run\n    quantity: 2\n")],
        lambda g: [_e(loc(g, "rules.yaml", "count: 5, label: mission cards", "5"), "BB-MISSIONS",
                      "recipe BB-MISSIONS: '5x mission cards' says there are exactly 5 cards, but the pool has 6: "
                      "milk-run x2, nightwing x1, hornets-nest x1, sea-strike x1, berlin-blitz x1")]),
    "BB-CUBES": (
        [("tokens/damage.yaml", "quantity: 14, label: MINOR", "quantity: 13, label: MINOR")],
        lambda g: [_e(loc(g, "rules.yaml", "count: 14, label: Minor Damage tokens", "14"), "BB-CUBES",
                      "recipe BB-CUBES: '14x Minor Damage tokens' needs 14 cards, but the pool has 13: minor-damage x13")]),
    "BB-MISSION-TAG": (
        [("cards/missions.yaml", "    mission: sea-strike\n", "    mission: berlin-blitz\n")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "mission: sea-strike", "sea-strike", after="id: battleship"),
                      "BB-MISSION-TAG", "Battleship ('battleship') belongs to mission 'sea-strike', but no mission "
                      "card is that mission")]),
    "BB-TERM": (
        [("cards/items.yaml", "**Exhausted**", "**Weary**")],
        lambda g: [_e(loc(g, "cards/items.yaml", "**Weary**"), "BB-TERM",
                      "card 'letters-from-home' marks 'Weary' as a game term, but the glossary does not define it")]),
    "BB-CREW-UNIQUE": (
        [("cards/crew.yaml", "    title: Navigator\n", "    title: Pilot\n")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "title: Pilot", "Pilot", after="id: navigator"), "BB-CREW-UNIQUE",
                      "the Pilot is printed 2 times (navigator x1, pilot x1); each of the ten airmen is one card")]),
    "BB-LOCATIONS-TEXT": (
        [("cards/items.yaml", "(locations 1 to 10)", "(locations 1 to 9)")],
        lambda g: [_e(loc(g, "cards/items.yaml", "locations 1 to 9", "1 to 9"), "BB-LOCATIONS-TEXT",
                      "'First Aid Kit' names cabin locations 1 to 9, but the cabin is locations 1 to 10 of the D12")]),
    "BB-SCORE-BANDS": (
        [("game.yaml", "rating: Honorable Showing, min: 7, max: 8", "rating: Honorable Showing, min: 7, max: 7")],
        lambda g: [_e(loc(g, "game.yaml", "rating: First Class Flight", "9, max"), "BB-SCORE-BANDS",
                      "no rating covers a score of 8 (next to 'First Class Flight', 9 to 9); the ratings must cover "
                      "every score from 0 to 10"),
                   _e(loc(g, "game.yaml", "rating: Honorable Showing", '"7 to 8"'), "BB-SCORE-BANDS",
                      "'Honorable Showing' prints the band '7 to 8', but its band is 7")]),
    "BB-MAJOR-TRACK": (
        [("game.yaml", '"DESTROYED"]', '"1 re-roll", "DESTROYED"]')],
        lambda g: [_e(loc(g, "game.yaml", "major_damage: [", "["), "BB-MAJOR-TRACK",
                      "the Major Damage Track has 7 spaces, but its 5 black cubes go one on each space except the top "
                      "one: it has 6 spaces")]),
    "BB-RUN-BACK": (
        [("cards/items.yaml", "    title: Lucky Coin\n", "    title: Lucky Coin\n    back: crew-eliminated\n")],
        lambda g: [_e(loc(g, "cards/items.yaml", "back: crew-eliminated", "crew-eliminated"), "BB-RUN-BACK",
                      "card 'lucky-coin' of deck 'bombing-run' has layout 'crew-eliminated', but the decks bombing-run "
                      "must share one back ('bombing-run-back', used by 41 cards), so that they cannot be told apart "
                      "face down")]),
    "BB-ACTION-HOLDER": (
        [("cards/crew.yaml", "      - name: Evade\n        kind: evade\n        text: \"Lower an **Enemy** die assigned "
          "to a **Ground Attack** by 2. May be used after the die is rolled.\"\n", "")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "- name: Maneuver", "-", after="id: pilot"), "BB-ACTION-HOLDER",
                      "the rulebook gives Pilot ('pilot') the action 'Evade', but the card has no action with name: Evade")]),
    "BB-GATHER": (
        [("cards/missions.yaml", "and select 17 as follows", "and select 18 as follows")],
        lambda g: [_e(loc(g, "cards/missions.yaml", "select 18 as follows", "\""), "BB-GATHER",
                      "Operation: Milk Run says 'select 18 as follows', but its recipe's total is 17")]),
    "BB-FOCUS-RULES": (
        [("tokens/focus.yaml", "rule: CANNOT APPLY TO GROUND ATTACKS, side_of: enemy, authored: true}",
          "rule: APPLY TO AMMO DIE OF CHOICE, side_of: enemy, authored: true}")],
        lambda g: [_e(loc(g, "tokens/focus.yaml", "focus-1-2-enemy", "APPLY"), "BB-FOCUS-RULES",
                      "enemy Focus token 'focus-1-2-enemy' says 'APPLY TO AMMO DIE OF CHOICE'; the PnP pack prints "
                      "'CANNOT APPLY TO GROUND ATTACKS'")]),
    "BB-ABORT": (
        [("cards/crew.yaml", "If the Co-Pilot is also eliminated", "If the Navigator is also eliminated")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "If the Navigator is also", "\"**"), "BB-ABORT",
                      "the Pilot's eliminated side must say the mission is aborted if the Co-Pilot is also eliminated")]),
    "BB-PRINTED-NUMBERS": (
        [("cards/items.yaml", "Remove up to 2 **Minor Damage**", "Remove up to 3 **Minor Damage**")],
        lambda g: [_e(loc(g, "cards/items.yaml", "text: \"Remove up to 3", "\""), "BB-PRINTED-NUMBERS",
                      "'First Aid Kit' (first-aid-kit) no longer says 'Remove up to 2 Minor Damage from your cabin area "
                      "(locations 1 to 10).', as the rulebook prints it (the PnP pack)")]),
    "BB-RIGHT-WAIST": (
        [("cards/crew.yaml", "    sight: {clock: [3], altitude: [high, low]}", "    sight: {clock: [3], altitude: [high]}")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "sight: {clock: [3], altitude: [high]}", "{"), "BB-RIGHT-WAIST",
                      "the Right Waist Gun's line of sight is {'clock': [3], 'altitude': ['high']}; the rulebook's "
                      "example gives {'clock': [3], 'altitude': ['high', 'low']}")]),
}


def test_every_rule_has_a_mutation_test():
    rules = yaml.safe_load((BOMBER / "rules.yaml").read_text("utf-8"))
    ids = {rule["id"] for kind in ("checks", "recipes", "references", "hidden_backs") for rule in rules[kind]}
    ids |= {rules["glossary"]["id"], rules["glossary"]["actions"]["id"]}
    assert ids == set(CASES)


@pytest.mark.parametrize("rule", list(CASES))
def test_rule_reports_a_mutated_copy(rule, game, capsys, monkeypatch):
    edits, expected = CASES[rule]
    for rel, old, new in edits:
        edit(game, rel, old, new)
    code, found, output = check(game, capsys, monkeypatch)
    for headline in expected(game):
        assert headline in found, f"\nwant: {headline}\ngot:\n" + "\n".join(found)
    severities = {h.split(": ")[1].split("[")[0] for h in expected(game)}
    assert code == (1 if "error" in severities else 0), output
    assert "Traceback" not in output


# More findings of the same rules: availability and must-draw of a recipe, exclusive holders.
MORE_CASES = {
    "BB-MISSION-DECK availability": (
        [("cards/enemies.yaml", "    mission: nightwing\n    quantity: 3\n", "    mission: nightwing\n    quantity: 2\n")],
        lambda g: [_e(loc(g, "cards/missions.yaml", "{count: 3, label: \"Enemy FlaK Panzer\"", "3"), "BB-MISSION-DECK",
                      "recipe of 'nightwing': '3x Enemy FlaK Panzer' needs 3 cards, but the pool (the base cards and "
                      "those of Operation: Nightwing) has 2: flakpanzer x2")]),
    "BB-MISSION-DECK must draw": (
        [("cards/missions.yaml", "kind: [battleship]", "kind: [battleships]")],
        lambda g: [_e(loc(g, "cards/enemies.yaml", "- id: battleship", "id"), "BB-MISSION-DECK",
                      "card 'battleship' belongs to the pool of recipe of 'sea-strike' but no line of the recipe "
                      "draws it"),
                   _e(loc(g, "cards/missions.yaml", "kind: [battleships]", "3", after="id: sea-strike"), "BB-MISSION-DECK",
                      "recipe of 'sea-strike': '3x Battleships' needs 3 cards, but the pool (the base cards and those "
                      "of Operation: Sea Strike) has 0: no card")]),
    "BB-LOCATIONS-TEXT in a crew action": (
        [("cards/crew.yaml", "engine (11 or 12)", "engine (11 or 13)")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "engine (11 or 13)", "(11"), "BB-LOCATIONS-TEXT",
                      "'Navigator' names the engines as 11 and 13, but the engines are locations 11 and 12 of the D12")]),
    "BB-SCORE-BANDS overlap and the top score": (
        [("game.yaml", "rating: Valiant Effort, min: 5, max: 6", "rating: Valiant Effort, min: 5, max: 7"),
         ("game.yaml", "rating: Perfect Performance, min: 10, max: 10", "rating: Perfect Performance, min: 10, max: 11")],
        lambda g: [_e(loc(g, "game.yaml", "rating: Honorable Showing", "7, max"), "BB-SCORE-BANDS",
                      "'Honorable Showing' (7 to 8) overlaps 'Valiant Effort' (5 to 7); each score has one rating"),
                   _e(loc(g, "game.yaml", "rating: Perfect Performance", "11}"), "BB-SCORE-BANDS",
                      "'Perfect Performance' goes up to 11, but the highest score is 10 (5 black cubes + 5 dice)")]),
    "BB-CREW-UNIQUE two copies": (
        [("cards/crew.yaml", "  - id: tail-gunner\n", "  - id: tail-gunner\n    quantity: 2\n")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "quantity: 2", "2", after="id: tail-gunner"), "BB-CREW-UNIQUE",
                      "the Tail Gunner is printed 2 times (tail-gunner x2); each of the ten airmen is one card")]),
    "BB-ACTION-HOLDER exclusive": (
        [("cards/crew.yaml", "      - name: Spot\n", "      - name: Evade\n        kind: evade\n        text: \"Evade.\"\n"
          "      - name: Spot\n")],
        lambda g: [_e(loc(g, "cards/crew.yaml", "- name: Evade", "name", after="id: co-pilot"), "BB-ACTION-HOLDER",
                      "Co-Pilot ('co-pilot') has the action 'Evade', which the rulebook gives only to pilot, radio-operator")]),
}


@pytest.mark.parametrize("case", list(MORE_CASES))
def test_more_findings(case, game, capsys, monkeypatch):
    edits, expected = MORE_CASES[case]
    for rel, old, new in edits:
        edit(game, rel, old, new)
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1, output
    for headline in expected(game):
        assert headline in found, f"\nwant: {headline}\ngot:\n" + "\n".join(found)


def test_rulebook_contradiction_as_first_written_is_reported(game, capsys, monkeypatch):
    """The PnP card says 'Evasive Action'; the rulebook calls the Radio Operator's action Evade."""
    edit(game, "cards/events.yaml", "cannot use their **Evade** action.", "cannot use their **Evasive Action**.")
    code, found, output = check(game, capsys, monkeypatch)
    where = loc(game, "cards/events.yaml", "**Evasive Action**", after="id: squadron-leader-down")
    assert code == 1
    assert [line for line in found if "error[" in line] == [
        f"{where}: error[BB-ACTION-NAMED]: 'Squadron Leader Down' names the crew action 'Evasive Action', but no crew "
        "card has an action of that name",
        f"{where}: error[BB-TERM]: card 'squadron-leader-down' marks 'Evasive Action' as a game term, but the glossary "
        "does not define it",
    ]
    assert "rulebook: CREW ABILITIES" in output  # the help line cites the rulebook


def test_the_correction_quotes_the_rulebook():
    events = (BOMBER / "cards" / "events.yaml").read_text("utf-8")
    block = events[events.index("Corrected (rules BB-ACTION-NAMED"):events.index("- id: squadron-leader-down")]
    rulebook = (REPO.parent / "shared" / "seeds" / "bomber-boys.txt")
    assert "Activate your Radio Operator to use its **Evade** action." in block
    if rulebook.is_file():
        assert "Activate your Radio Operator to use its **Evade** action." in rulebook.read_text("utf-8")


def test_all_problems_at_once_grouped_by_file(game, capsys, monkeypatch):
    edit(game, "cards/enemies.yaml", "    damage_spaces: 6\n", "    damage_spaces: 0\n")
    edit(game, "cards/items.yaml", "**Exhausted**", "**Weary**")
    edit(game, "cards/crew.yaml", "    position: 4\n", "    position: 3\n")
    code, found, output = check(game, capsys, monkeypatch)
    files = [line.split(":")[0] for line in found]
    assert {"bomber-boys/cards/enemies.yaml", "bomber-boys/cards/items.yaml", "bomber-boys/cards/crew.yaml"} <= set(files)
    seen = []  # grouped by file: a file's diagnostics come together
    for name in files:
        if not seen or seen[-1] != name:
            assert name not in seen, f"{name} appears in two groups: {files}"
            seen.append(name)
    assert re.search(r"^\d+ errors?, \d+ warnings?$", output.strip().splitlines()[-1])


def test_json_format(game, capsys, monkeypatch):
    edit(game, "cards/enemies.yaml", "    damage_spaces: 6\n", "    damage_spaces: 0\n")
    code, _, output = check(game, capsys, monkeypatch, "--format", "json")
    items = json.loads(output[:output.rindex("]") + 1])
    item = next(d for d in items if d["code"] == "BB-DAMAGE-TRACK")
    assert code == 1
    assert item["card"] == "enemy-aircraft-me-410"
    assert item["file"] == "bomber-boys/cards/enemies.yaml"
    assert (item["line"], item["col"]) == tuple(map(int, loc(game, "cards/enemies.yaml", "damage_spaces: 0", "0")
                                                    .split(":")[1:3]))
    assert "rulebook: Step 5" in item["help"]


def test_warnings_only_exit_0_and_strict_exit_1(game, capsys, monkeypatch):
    edit(game, "cards/crew.yaml", "sight: {clock: [12], altitude: [low]}", "sight: {clock: [3], altitude: [low]}")
    assert check(game, capsys, monkeypatch)[0] == 0
    assert check(game, capsys, monkeypatch, "--strict")[0] == 1


# -- checks every game gets ----------------------------------------------------------------------

def test_duplicate_id(game, capsys, monkeypatch):
    edit(game, "cards/items.yaml", "  - id: lucky-coin\n", "  - id: extra-ammo\n")
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    assert f"{loc(game, 'cards/items.yaml', 'id: extra-ammo', 'extra-ammo', after='id: letters-from-home')}: " \
           "error[E-DUPLICATE-ID]: card id 'extra-ammo' is already used" in found


def test_quantity_zero_is_a_warning(game, capsys, monkeypatch):
    edit(game, "cards/items.yaml", "  - id: lucky-coin\n", "  - id: lucky-coin\n    quantity: 0\n")
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 0
    assert f"{loc(game, 'cards/items.yaml', 'quantity: 0', '0')}: warning[W-QUANTITY]: card 'lucky-coin' has " \
           "quantity 0, so it is never printed" in found


def test_files_neither_loaded_nor_used_are_reported(game, capsys, monkeypatch):
    (game / "notes.txt").write_text("ideas for a sixth mission\n", "utf-8")
    (game / "cards" / "extra.yaml").write_text("cards: []\n", "utf-8")
    (game / "images").mkdir()
    (game / "images" / "old.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (game / "README.md").write_text("# Bomber Boys\n", "utf-8")
    (game / "LICENSE").write_text("CC BY\n", "utf-8")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 0
    assert "bomber-boys/notes.txt:1:1: warning[W-IGNORED-FILE]: this file is ignored: no layout draws it and " \
           "game.yaml does not name it" in found
    assert "bomber-boys/cards/extra.yaml:1:1: warning[W-IGNORED-FILE]: this file is ignored: it is not a card file " \
           "of any deck, nor rules.yaml, nor a layout" in found
    assert "bomber-boys/images/old.png:1:1: warning[W-IGNORED-FILE]: this file is ignored: no layout draws it and " \
           "game.yaml does not name it\n  = help:" in output  # the file is the position; a binary file is not quoted
    assert "README" not in output and "LICENSE" not in output


def test_unused_icons_and_layouts_are_warnings(game, capsys, monkeypatch):
    (game / "icons" / "zeppelin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"/>\n')
    (game / "layouts").mkdir()
    (game / "layouts" / "spare.yaml").write_text("extends: card\n", "utf-8")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 0
    assert "bomber-boys/layouts/spare.yaml:1:1: warning[W-UNUSED-LAYOUT]: layout 'spare' is not used by any deck, " \
           "card or board" in found
    unused = next(line for line in found if "W-UNUSED-ICON" in line)
    assert unused.startswith("bomber-boys/game.yaml:1:1: warning[W-UNUSED-ICON]: ")
    assert "zeppelin.svg" in unused and "ammo-box.svg" not in unused


def test_unknown_icon_is_found_by_check(game, capsys, monkeypatch):
    edit(game, "cards/items.yaml", "art: ammo-box", "art: ammo-boxx")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert f"{loc(game, 'cards/items.yaml', '- id: extra-ammo', 'id')}: error[E-UNKNOWN-ICON]: card 'extra-ammo' " \
           "(front), frame 'picture' of layout 'bombing-run': unknown icon 'ammo-boxx'" in found
    assert "did you mean 'ammo-box'?" in output


def test_unknown_inline_symbol_would_print_as_text(game, capsys, monkeypatch):
    edit(game, "cards/items.yaml", "any or all results of 1 or 2", "any or all results of :one: or 2")
    code, found, _ = check(game, capsys, monkeypatch)
    assert code == 1
    assert f"{loc(game, 'cards/items.yaml', ':one:')}: error[E-UNKNOWN-SYMBOL]: card 'extra-ammo' (front), frame " \
           "'text' of layout 'bombing-run': ':one:' is not an icon, so it would be printed as text" in found


def test_missing_and_escaping_images_are_found_by_check(tmp_path, capsys, monkeypatch):
    game = tmp_path / "content" / "tiny"
    (game / "cards").mkdir(parents=True)
    (game / "layouts").mkdir()
    (game / "game.yaml").write_text(
        "id: tiny\nname: Tiny\ndecks:\n  - id: main\n    cards: cards/cards.yaml\n    front: front\n"
        "    fields: {title: {type: string}, picture: {type: string}}\n", "utf-8")
    (game / "cards" / "cards.yaml").write_text(
        "cards:\n  - id: alpha\n    title: Alpha\n    picture: images/alpha.png\n"
        "  - id: beta\n    title: Beta\n    picture: ../../secret.png\n", "utf-8")
    (game / "layouts" / "front.yaml").write_text(
        "frames:\n  title: {type: text, x: 4mm, y: 4mm, width: 50mm, height: 8mm, text: \"{{ card.title }}\"}\n"
        "  art: {type: image, x: 4mm, y: 20mm, width: 20mm, height: 20mm, src: \"{{ card.picture }}\"}\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "content/tiny"])
    found = [line for line in capsys.readouterr().err.splitlines() if HEADLINE.match(line)]
    assert code == 1
    assert found == [
        "content/tiny/cards/cards.yaml:2:5: error[E-MISSING-IMAGE]: card 'alpha' (front), frame 'art' of layout "
        "'front': image 'images/alpha.png' does not exist",
        "content/tiny/cards/cards.yaml:5:5: error[E-PATH]: card 'beta' (front), frame 'art' of layout 'front': "
        "image '../../secret.png' is outside the game folder",
    ]


# -- mistakes in the rules file itself -------------------------------------------------------------

RULES_FILE_CASES = {
    "unknown key": (
        '    assert: "count(same) == 1"\n', '    asert: "count(same) == 1"\n',
        ("    asert:", "asert"), "E-SCHEMA", "unknown key 'asert', did you mean 'assert'?"),
    "expression does not parse": (
        '    assert: "count(same) == 1"\n', '    assert: "count(same) == = 1"\n',
        ('assert: "count(same) == = 1"', '"'), "E-RULES-EXPR", "expression does not parse: unexpected '='"),
    "a single '=' in a comparison": (
        '    assert: "count(same) == 1"\n', '    assert: "count(same) = 1"\n',
        ('assert: "count(same) = 1"', '= 1'), "E-RULES-EXPR",
        "'=' does not compare: an expression tests equality with '=='"),
    "field no card has": (
        "    assert: \"card.mission != 'base'\"", "    assert: \"card.misson != 'base'\"",
        ("card.misson", "card.misson"), "E-RULES-FIELD", "no card of group 'ongoing_events' has a field 'misson'"),
    "field no card has, as a key": (
        "pluck(groups.crew, 'actions.name')", "pluck(groups.crew, 'action.name')",
        ("'action.name'", "'action.name'"), "E-RULES-FIELD", "no card of group 'crew' has a field 'action'"),
    "field to point at": (
        "    at: damage_spaces\n", "    at: damage_space\n",
        ("at: damage_space", "damage_space"), "E-RULES-FIELD",
        "'at': no card of group 'bombing_run' has a field 'damage_space'"),
    "unknown group": (
        "    group: ongoing_events\n", "    group: ongoing_event\n",
        ("group: ongoing_event", "ongoing_event"), "E-RULES-REF", "unknown group 'ongoing_event'"),
    "unknown name": (
        '    assert: "count(same) == 1"\n', '    assert: "count(sme) == 1"\n',
        ('assert: "count(sme)', "sme"), "E-RULES-REF", "unknown name 'sme'"),
    "unknown value": (
        "1 <= card.initiative <= values.focus_max", "1 <= card.initiative <= values.focus_maxx",
        ("values.focus_maxx", "focus_maxx"), "E-RULES-REF", "unknown value 'focus_maxx'"),
    "unknown card": (
        "holders: [flight-engineer]", "holders: [flight-engineers]",
        ("holders: [flight-engineers]", "flight-engineers"), "E-RULES-REF",
        "term 'Repair': unknown card 'flight-engineers'"),
    "unknown deck": (
        "  crew: {deck: crew,", "  crew: {deck: crews,",
        ("crew: {deck: crews", "crews"), "E-RULES-REF", "group 'crew': unknown deck 'crews'"),
    "duplicate rule id": (
        "  - id: BB-D12\n", "  - id: BB-CREW-POSITION\n",
        ("- id: BB-CREW-POSITION", "BB-CREW-POSITION", "BB-CREW-POSITION\n"), "E-RULES-ID",
        "rule id 'BB-CREW-POSITION' is already used (line {first_id_line})"),
    "expression fails on the data": (
        '    assert: "count(same) == 1"\n', '    assert: "card.title + 1"\n',
        ('assert: "card.title + 1"', '"'), "E-RULES-EVAL",
        "BB-CREW-POSITION 'assert' on card 'bombardier': can only concatenate str (not \"int\") to str"),
}


@pytest.mark.parametrize("case", list(RULES_FILE_CASES))
def test_mistake_in_the_rules_file(case, game, capsys, monkeypatch):
    old, new, (line, at, *after), code_, message = RULES_FILE_CASES[case]
    edit(game, "rules.yaml", old, new)
    if after:  # the second occurrence (a duplicate)
        text = (game / "rules.yaml").read_text("utf-8").splitlines()
        first = next(i for i, t in enumerate(text) if line in t)
        where = loc(game, "rules.yaml", line, at, after=text[first + 1])
    else:
        where = loc(game, "rules.yaml", line, at)
    first_id_line = next(i for i, t in enumerate((game / "rules.yaml").read_text("utf-8").splitlines(), 1)
                         if "- id: BB-CREW-POSITION" in t)
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1, output
    assert f"{where}: error[{code_}]: {message.format(first_id_line=first_id_line)}" in found, "\n".join(found)
    assert "Traceback" not in output


def test_expressions_are_sandboxed():
    with pytest.raises(ExpressionError):
        Expr("card.title.__class__.__mro__")({"card": {"title": "x"}})
    with pytest.raises(ExpressionError):
        Expr("cards.append(1)")({"cards": []})
    with pytest.raises(ExpressionError):
        Expr("range(10 ** 9) | list")(dict(__import__("cardforge.rules.expressions").rules.expressions.HELPERS))
    with pytest.raises(ExpressionError):
        Expr("'x' * 10 ** 9")({})
    with pytest.raises(ExpressionError):
        Expr("2 ** 100000")({})
    assert Expr("2 ** 3 * 'ab'")({}) == "ab" * 8


def test_helpers():
    from cardforge.rules.expressions import HELPERS
    ctx = dict(HELPERS, cards=[{"id": "a", "n": 2, "tags": ["x"], "sub": {"k": 1}},
                               {"id": "b", "n": 3, "tags": ["y"], "sub": {"k": 2}}])
    assert Expr("count(cards)")(ctx) == 2
    assert Expr("count(cards, 'n', 3)")(ctx) == 1
    assert Expr("sum(cards, 'n')")(ctx) == 5
    assert Expr("where(cards, 'n', 2, '>') | map(attribute='id') | list")(ctx) == ["b"]
    assert Expr("any(cards, 'tags', 'y', 'contains') and not all(cards, 'tags', 'y', 'contains')")(ctx)
    assert Expr("pluck(cards, 'sub.k')")(ctx) == [1, 2]
    assert Expr("icons('a :d6-3: and :star: x', 'd6-')")(ctx) == ["d6-3"]
    assert marked_terms("use their **Escort Fighters** action. **Ready** become **Exhausted**.") == [
        {"term": "Escort Fighters", "after": "action"}, {"term": "Ready", "after": "become"},
        {"term": "Exhausted", "after": ""}]
    assert MessageTemplate("{{ card.title }} costs {{ card.n }}").render({"card": {"title": "T", "n": 1}}) == "T costs 1"


def test_derived_fields_reach_the_cards_and_layouts():
    from cardforge.prepare import prepare
    prep = prepare(BOMBER, Report())
    cards = {card.id: card for card in prep.game.cards()}
    assert cards["bombardier"].data["gun"]["name"] == "Nose Gun"
    assert cards["pilot"].data["gun"] is None
    assert sorted(cards["milk-run"].data["dice"]) == [2, 2, 3, 3, 4]
    assert cards["enemy-aircraft-me-410"].data["dice"] == [2, 5]


def test_schema_command_writes_the_rules_schema(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["schema", "--out", "schemas"]) == 0
    schema = json.loads((tmp_path / "schemas" / "rules.schema.json").read_text("utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    from jsonschema import Draft202012Validator
    Draft202012Validator(schema).validate(yaml.safe_load((BOMBER / "rules.yaml").read_text("utf-8")))


def test_a_game_without_rules_gets_the_built_in_checks_only(tmp_path, capsys, monkeypatch):
    shutil.copytree(BOMBER, tmp_path / "bomber-boys")
    (tmp_path / "bomber-boys" / "rules.yaml").unlink()
    code, found, _ = check(tmp_path / "bomber-boys", capsys, monkeypatch)
    assert code == 0
    assert not [line for line in found if "error[" in line]


def test_references_between_cards_and_the_two_faces_of_a_card(tmp_path, capsys, monkeypatch):
    game = tmp_path / "content" / "duo"
    (game / "cards").mkdir(parents=True)
    (game / "layouts").mkdir()
    (game / "game.yaml").write_text(
        "id: duo\nname: Duo\ndecks:\n  - id: faces\n    cards: cards/faces.yaml\n    front: front\n"
        "    fields: {title: {type: string}, back_of: {type: string}}\n", "utf-8")
    (game / "cards" / "faces.yaml").write_text(
        "cards:\n"
        "  - {id: a, title: A, back_of: b}\n"
        "  - {id: b, title: B, back_of: a}\n"
        "  - {id: c, title: C, back_of: a}\n"
        "  - {id: d, title: D, back_of: zz}\n", "utf-8")
    (game / "layouts" / "front.yaml").write_text(
        "frames:\n  title: {type: text, x: 4mm, y: 4mm, width: 50mm, height: 8mm, text: \"{{ card.title }}\"}\n")
    (game / "rules.yaml").write_text(
        "groups:\n  faces: {deck: faces}\n"
        "references:\n"
        "  - id: DU-FACES\n"
        "    section: \"Two-faced cards: 'each face names the other'\"\n"
        "    group: faces\n"
        "    field: back_of\n"
        "    to: {group: faces, key: id, mutual: back_of}\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["check", "content/duo"])
    found = [line for line in capsys.readouterr().err.splitlines() if HEADLINE.match(line)]
    assert code == 1
    assert found == [
        "content/duo/cards/faces.yaml:4:32: error[DU-FACES]: card 'c' names 'a' in back_of, but 'a' names 'b' in "
        "back_of, not 'c'",
        "content/duo/cards/faces.yaml:5:32: error[DU-FACES]: back_of 'zz' of card 'd' does not name a card of group "
        "'faces' (by id)",
    ]
