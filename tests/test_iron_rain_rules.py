"""Iron Rain's rules (content/iron-rain/rules.yaml), one mutation per rule.

Every rule is tested the way tests/test_rules.py tests Bomber Boys: change one value of the content the
way a designer might, run `cardforge check` and assert the exact `path:line:col: severity[RULE-ID]: message`
headline. Expected positions are computed from the mutated file (the line holding the changed value), so
the tests do not break when unrelated lines of the content move.

One copy of content/iron-rain is prepared per module (at <tmp>/content/iron-rain); each test edits it and
the fixture puts the edited files back afterwards, so the suite copies the game once and runs fast.

The leaders' structured effect (IR-LEADER-EFFECT, IR-LEADER-AIRCRAFT) is written for a card field
`effect` that the homeland deck in game.yaml does not have yet. EFFECT_FIELD below is the field schema to
add; until it is added, rules.yaml supplies the same data as an interim derived field, and
test_leader_effect_as_a_card_field applies the whole change to the copy to show the rules work on it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest
import yaml

from cardforge import diagnostics
from cardforge.prepare import prepare
from cardforge.cli import main
from cardforge.diagnostics import Report

REPO = Path(__file__).resolve().parent.parent
GAME = REPO / "content" / "iron-rain"
LAYOUTS = REPO / "layouts"
HEADLINE = re.compile(r"^\S[^:]*:\d+:\d+: (error|warning)\[[A-Z0-9-]+\]: ")

# The field to add to the homeland deck's `fields` in game.yaml (JSON Schema, as the other fields).
EFFECT_FIELD = {
    "type": "object",
    "additionalProperties": False,
    "required": ["nation", "aircraft", "bonus", "amount"],
    "description": "Cards A.1-A.8: a leader's or ace's Tabled effect as data; its printed text must say the same",
    "properties": {
        "nation": {"enum": ["british", "german", "american", "italian"], "description": "Whose aircraft it helps"},
        "aircraft": {"enum": ["bomber", "fighter"], "description": "Which aircraft it helps"},
        "engines": {"type": "integer", "minimum": 1, "maximum": 4,
                    "description": "Only aircraft with this many engines (A.5: twin engine bombers)"},
        "types": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                  "description": "Types the text names as examples (A.5: B-25's, B-26's)"},
        "bonus": {"enum": ["damage", "vp", "kill"],
                  "description": "damage: +N damage (A.1, A.4); vp: +N Victory Points (A.2, A.3, A.5, A.6); "
                                 "kill: N extra kills (A.7, A.8)"},
        "amount": {"type": "integer", "minimum": 1, "maximum": 3},
    },
}


# -- helpers ------------------------------------------------------------------------------------

class Copy:
    """The prepared copy of the game, with edits that are undone after each test."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.name
        self.parent = path.parent
        self.originals: dict[Path, str] = {}
        self._clock = time.time_ns()

    def write(self, rel: str, text: str) -> None:
        path = self.path / rel
        self.originals.setdefault(path, path.read_text("utf-8"))
        self._write(path, text)

    def _write(self, path: Path, text: str) -> None:
        path.write_text(text, "utf-8")
        # A new modification time for every write: cardforge caches source lines by (path, mtime, size).
        self._clock += 1_000_000
        os.utime(path, ns=(self._clock, self._clock))

    def edit(self, rel: str, old: str, new: str, after: str | None = None, count: int = 1) -> None:
        """Replace `old` by `new` in REL (the first `count` times after the line holding `after`)."""
        text = (self.path / rel).read_text("utf-8")
        start = text.index(after) if after else 0
        assert old in text[start:], f"{old!r} is not in {rel}" + (f" after {after!r}" if after else "")
        self.write(rel, text[:start] + text[start:].replace(old, new, count))

    def restore(self) -> None:
        for path, text in self.originals.items():
            self._write(path, text)
        self.originals.clear()
        diagnostics._line_cache.clear()  # the source lines shown under a headline, cached by path


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Copy:
    root = tmp_path_factory.mktemp("iron-rain")
    shutil.copytree(GAME, root / "content" / "iron-rain")
    return Copy(root / "content" / "iron-rain")


@pytest.fixture
def game(prepared):
    yield prepared
    prepared.restore()


def loc(game: Copy, rel: str, line: str, at: str | None = None, after: str | None = None) -> str:
    """`content/iron-rain/REL:LINE:COL` of the first line holding `line` (after the line holding `after`);
    the column is where `at` (default: `line`) starts on it."""
    lines = (game.path / rel).read_text("utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if after in text) if after else 0
    index = next(i for i in range(start, len(lines)) if line in lines[i])
    col = lines[index].index(at if at is not None else line) + 1
    return f"content/{game.name}/{rel}:{index + 1}:{col}"


def check(game: Copy, capsys, monkeypatch, *extra: str) -> tuple[int, list[str], str]:
    """Run `cardforge check content/iron-rain` in the copy's content root, in this process."""
    monkeypatch.chdir(game.parent.parent)
    code = main(["check", f"content/{game.name}", "--layouts", str(LAYOUTS), *extra])
    out, err = capsys.readouterr()
    return code, [line for line in err.splitlines() if HEADLINE.match(line)], out + err


def _e(location: str, code: str, message: str, severity: str = "error") -> str:
    return f"{location}: {severity}[{code}]: {message}"


def rule_ids(rules: dict) -> set[str]:
    return {rule["id"] for kind in ("checks", "recipes", "references", "hidden_backs") for rule in rules.get(kind) or []}


# -- the shipped content ---------------------------------------------------------------------------

@pytest.mark.parametrize("strict", [False, True])
def test_shipped_iron_rain_passes(strict, game, capsys, monkeypatch):
    code, found, output = check(game, capsys, monkeypatch, *(["--strict"] if strict else []))
    assert code == 0, output
    assert found == [], output


def test_every_rule_cites_the_rulebook():
    rules = yaml.safe_load((GAME / "rules.yaml").read_text("utf-8"))
    for kind in ("checks", "recipes", "derived"):
        for rule in rules[kind]:
            assert re.search(r"\d+\.\d+|A\.\d", rule["section"]), rule


# -- one mutation per rule -----------------------------------------------------------------------
# Each case: the edits (file, old, new[, after]), then a function of the mutated game giving headlines
# that must appear.

STARTER_SHAPE = "a starter deck has 10 cards, 2 aircraft, 1 anti-aircraft gun and 7 war bonds"

CASES = {
    "IR-STARTER-DECK": (
        [("cards/starter-blue.yaml", "    quantity: 7\n", "    quantity: 8\n")],
        lambda g: [_e(loc(g, "cards/starter-blue.yaml", "quantity: 8", "8"), "IR-STARTER-DECK",
                      f"starter deck blue has 8 war bonds (blue-war-bond x8), not 7: {STARTER_SHAPE}")]),
    "IR-STARTER-COLOURS": (
        [("cards/starter-green.yaml", "starter: green", "starter: blue", None, -1)],
        lambda g: [_e(loc(g, "rules.yaml", "assert: \"have | sort", "\""), "IR-STARTER-COLOURS",
                      "the starter cards are coloured blue, white, black; there are 4 starter decks, one each in "
                      "blue, white, black, green")]),
    "IR-STARTER-NATION": (
        [("cards/starter-blue.yaml", "    nation: british\n", "    nation: german\n", "id: blue-qf-3-7-inch")],
        lambda g: [_e(loc(g, "cards/starter-blue.yaml", "nation: german", "german"), "IR-STARTER-NATION",
                      "QF 3.7-inch AA Gun ('blue-qf-3-7-inch') is German, but the rest of starter deck blue is "
                      "British: a starter deck is all British or all German")]),
    "IR-STARTER-SIDES": (
        [("cards/starter-green.yaml", "nation: british", "nation: german", None, -1)],
        lambda g: [
            _e(loc(g, "cards/starter-green.yaml", "nation: german", "german"), "IR-STARTER-SIDES",
               "starter deck green is one of 3 German starter decks (white, black, green); there are 2 British and "
               "2 German starter decks"),
            _e(loc(g, "cards/starter-blue.yaml", "nation: british", "british"), "IR-STARTER-SIDES",
               "starter deck blue is the only British starter deck; there are 2 British and 2 German starter decks"),
        ]),
    "IR-STARTER-COST": (
        [("cards/starter-blue.yaml", "    red_bombs: 0\n", "    red_bombs: 0\n    cost: 2\n")],
        lambda g: [_e(loc(g, "cards/starter-blue.yaml", "cost: 2", "2"), "IR-STARTER-COST",
                      "Bristol Blenheim ('blue-blenheim') is starter equipment but has a War Bond cost of 2; "
                      "equipment in the Starter Deck has no War Bond cost")]),
    "IR-STARTER-SERVICE": (
        [("cards/starter-black.yaml", "    service_start: 1939\n", "    service_start: 1940\n")],
        lambda g: [_e(loc(g, "cards/starter-black.yaml", "service_start: 1940", "1940"), "IR-STARTER-SERVICE",
                      "Junkers Ju 88 ('black-ju-88') is starter equipment, but its service life (1940-1945) does "
                      "not include 1939, the year the game starts in")]),
    "IR-STARTER-TARGETS": (
        [("cards/targets.yaml", "    mbl: 1\n", "    mbl: 2\n", "id: wilhelmshaven-1939")],
        lambda g: [
            _e(loc(g, "cards/starter-blue.yaml", "bombs: 1", "1"), "IR-STARTER-TARGETS",
               "Bristol Blenheim ('blue-blenheim') cannot attack any target of the 1939 set: its bomb load is 1, "
               "and the British targets of 1939 need 2 or more"),
            _e(loc(g, "cards/starter-green.yaml", "bombs: 1", "1"), "IR-STARTER-TARGETS",
               "Fairey Battle ('green-battle') cannot attack any target of the 1939 set: its bomb load is 1, "
               "and the British targets of 1939 need 2 or more"),
        ]),
    "IR-TARGET-DATE": (
        [("cards/targets.yaml", "    year: 1942\n", "    year: 1943\n", "id: milan-1942")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "year: 1943", "1943", after="id: milan-1942"), "IR-TARGET-DATE",
                      "Milan ('milan-1942') is in the 1943 set, but it was raided on 1942-10-24; a target's year is "
                      "the year of its raid")]),
    "IR-TIMELINE-ORDER": (
        [("cards/targets.yaml", "raid_date: '1940-09-07'", "raid_date: '1940-12-07'")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "raid_date:", "'", after="id: coventry-1940"),
                      "IR-TIMELINE-ORDER",
                      "Coventry ('coventry-1940'), raided on 1940-11-14, comes after London Docks ('london-1940'), raided "
                      "on 1940-12-07; the Target Deck is never shuffled, so its cards are kept in the order of their "
                      "raids")]),
    "IR-YEAR-CARDS": (
        [("cards/years.yaml", "    year: 1941\n", "    year: 1942\n")],
        lambda g: [_e(loc(g, "cards/years.yaml", "year: 1942", "1942", after="id: year-1941"), "IR-YEAR-CARDS",
                      "Year card 3 is 1942, but the Year cards go from 1939 to 1945 in order, so it must be 1941")]),
    "IR-TIMELINE": (
        [("cards/targets.yaml", "    year: 1942\n    raid_date: '1942-10-24'\n",
          "    year: 1943\n    raid_date: '1943-01-24'\n")],
        lambda g: [
            _e(loc(g, "rules.yaml", "count: 5, label: targets of 1942", "5"), "IR-TIMELINE",
               "recipe IR-TIMELINE: '5x targets of 1942' needs 5 cards, but the pool has 4: "
               "augsburg-1942 x1, bath-1942 x1, cologne-1942 x1, rouen-1942 x1"),
            _e(loc(g, "rules.yaml", "count: 5, label: targets of 1943", "5"), "IR-TIMELINE",
               "recipe IR-TIMELINE: '5x targets of 1943' says there are exactly 5 cards, but the pool has 6: "
               "milan-1942 x1, ruhr-dams-1943 x1, hamburg-1943 x1, ploesti-1943 x1, schweinfurt-1943 x1, "
               "bari-1943 x1"),
        ]),
    "IR-YEAR-DECK": (
        [("cards/years.yaml", "    year: 1945\n", "    year: 1944\n")],
        lambda g: [
            _e(loc(g, "rules.yaml", "count: 1, label: Year card 1944", "1"), "IR-YEAR-DECK",
               "recipe IR-YEAR-DECK: '1x Year card 1944' says there are exactly 1 card, but the pool has 2: "
               "year-1944 x1, year-1945 x1"),
            _e(loc(g, "rules.yaml", "count: 1, label: Year card 1945", "1"), "IR-YEAR-DECK",
               "recipe IR-YEAR-DECK: '1x Year card 1945' needs 1 card, but the pool has 0: no card"),
        ]),
    "IR-BOMB-LOAD": (
        [("cards/homeland-bombers.yaml", "    red_bombs: 1\n", "    red_bombs: 2\n", "id: mosquito")],
        lambda g: [_e(loc(g, "cards/homeland-bombers.yaml", "red_bombs: 2", "2", after="id: mosquito"),
                      "IR-BOMB-LOAD", "de Havilland Mosquito ('mosquito') has 2 red bombs but a bomb load of 1; "
                      "red bomb icons are among the bomb icons")]),
    "IR-FIGHTER-ATTACK": (
        [("cards/homeland-fighters.yaml", "    red_targets: 1\n", "    red_targets: 3\n", "id: bf-109")],
        lambda g: [_e(loc(g, "cards/homeland-fighters.yaml", "red_targets: 3", "3", after="id: bf-109"),
                      "IR-FIGHTER-ATTACK", "Messerschmitt Bf 109 ('bf-109') has 3 red targets but an attack strength "
                      "of 2; red target icons are among the target icons")]),
    "IR-TARGET-ATTACKABLE": (  # the rulebook's example: no bomber of the attacker in service with the MBL
        [("cards/targets.yaml", "    mbl: 2\n", "    mbl: 3\n", "id: bath-1942"),
         ("cards/homeland-bombers.yaml", "    service_start: 1942\n", "    service_start: 1943\n", "id: he-177")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "mbl: 3", "3", after="id: bath-1942"), "IR-TARGET-ATTACKABLE",
                      "Bath ('bath-1942'), a 1942 target, cannot be attacked: it needs a bomb load of 3, but the "
                      "German bombers in service in 1942 carry at most 2 (He 111, Ju 87, Do 17, Ju 88, Do 217) "
                      "(7.1c)")]),
    "IR-TARGET-WEATHER": (
        [("cards/targets.yaml", "    time: day\n", "    time: night\n", "id: berlin-1944")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "time: night", "night", after="id: berlin-1944"),
                      "IR-TARGET-WEATHER", "Berlin ('berlin-1944') is a night raid, but none of the bombers that can "
                      "attack it (B-17, B-24) flies by night", "warning")]),
    "IR-SPECIAL-TYPE": (
        [("cards/homeland-bombers.yaml", "    service_start: 1942\n", "    service_start: 1944\n", "id: lancaster")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "Lancaster", after="id: augsburg-1942"), "IR-SPECIAL-TYPE",
                      "MAN Diesel Works ('augsburg-1942') names the Lancaster in its special rule, but no Lancaster "
                      "bomber or fighter is in service in 1942 (lancaster 1944-1945)")]),
    "IR-ESCORT": (
        [("cards/targets.yaml", "    escort: false\n", "    escort: true\n", "id: heligoland-1939")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "escort: true", "true", after="id: heligoland-1939"), "IR-ESCORT",
                      "Heligoland Bight ('heligoland-1939') shows the escort symbol on a raid by British bombers in 1939, but "
                      "the British never used fighter escorts (7.73)")]),
    "IR-ESCORT-YEAR": (
        [("cards/years.yaml", "    - italian\n", "    - italian\n    - american\n", "id: year-1943")],
        lambda g: [_e(loc(g, "cards/years.yaml", "- american", "american", after="id: year-1943"), "IR-ESCORT-YEAR",
                      "Year card 1943 lists American escorts, but Allied raids may have escorts only from 1944 (7.71)")]),
    "IR-ESCORT-FIGHTER": (
        [("cards/homeland-fighters.yaml", "    service_start: 1939\n", "    service_start: 1941\n", "id: cr-42")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "escort: true", "true", after="id: malta-1940"),
                      "IR-ESCORT-FIGHTER", "Grand Harbour ('malta-1940') shows the escort symbol, but no Italian fighter is "
                      "in service in 1940 to fly the escort")]),
    "IR-TARGET-DEFENCE": (
        [("cards/targets.yaml", "    aircover: false\n", "    aircover: true\n", "id: tczew-bridges")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "aircover: true", "true"), "IR-TARGET-DEFENCE",
                      "Tczew Bridges ('tczew-bridges') offers Aircover to its defenders, but no Polish fighter is in "
                      "service in 1939")]),
    "IR-SERVICE-LIFE": (
        [("cards/homeland-recon.yaml", "    service_start: 1940\n", "    service_start: 1943\n", "id: ju-86p")],
        lambda g: [_e(loc(g, "cards/homeland-recon.yaml", "service_end: 1942", "1942", after="id: ju-86p"),
                      "IR-SERVICE-LIFE", "Junkers Ju 86 P ('ju-86p') leaves service in 1942, before it enters it "
                      "in 1943")]),
    "IR-SCRAP-LIST": (
        [("cards/years.yaml", "    - Avro Manchester\n", "    - Avro Manchesters\n")],
        lambda g: [_e(loc(g, "cards/years.yaml", "- Avro Manchesters", "Avro"), "IR-SCRAP-LIST",
                      "Year card 1943 sends 'Avro Manchesters' to the Scrapheap, but no aircraft or gun has that "
                      "name")]),
    "IR-SCRAP-CARD": (
        [("cards/homeland-fighters.yaml", "    service_end: 1945\n", "    service_end: 1944\n", "id: hurricane")],
        lambda g: [_e(loc(g, "cards/homeland-fighters.yaml", "service_end: 1944", "1944", after="id: hurricane"),
                      "IR-SCRAP-CARD", "Hawker Hurricane ('hurricane') leaves service in 1944, but the Year card of "
                      "1945 does not send it to the Scrapheap")]),
    "IR-LEADER-EFFECT": (
        [("cards/homeland-leaders.yaml", "British fighters increase their damage", "German fighters increase their damage")],
        lambda g: [_e(loc(g, "cards/homeland-leaders.yaml", "text: When he", "When", after="id: dowding"),
                      "IR-LEADER-EFFECT", "Hugh Dowding ('dowding'): its effect in data is +1 damage for British "
                      "fighters, but its text does not say 'British fighters'")]),
    "IR-LEADER-AIRCRAFT": (
        [("cards/homeland-leaders.yaml", "    nation: british\n", "    nation: german\n", "id: dowding")],
        lambda g: [_e(loc(g, "cards/homeland-leaders.yaml", "nation: german", "german", after="id: dowding"),
                      "IR-LEADER-AIRCRAFT", "Hugh Dowding ('dowding') is German, but its effect helps British "
                      "fighters; a leader commands the aircraft of its own nation")]),
    "IR-AMERICAN-ENTRY": (
        [("cards/targets.yaml", "    year: 1942\n    raid_date: '1942-08-17'", "    year: 1941\n    raid_date: '1941-08-17'",
          "id: rouen-1942")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "year: 1941", "1941", after="id: rouen-1942"), "IR-AMERICAN-ENTRY",
                      "Rouen-Sotteville Yards ('rouen-1942') is an American raid in 1941, but the United States entered "
                      "the war after 1941 (3.1): American raids start in 1942")]),
    "IR-TARGET-UNIQUE": (
        [("cards/targets.yaml", "    name: Rouen-Sotteville Yards\n", "    name: Rouen-Sotteville Yards\n    quantity: 2\n")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "quantity: 2", "2", after="id: rouen-1942"), "IR-TARGET-UNIQUE",
                      "the raid on Rouen-Sotteville Yards of 1942-08-17 is in the Target Deck 2 times (rouen-1942 x2); "
                      "each target is one raid, on one card")]),
    "IR-LEADER-UNIQUE": (
        [("cards/homeland-leaders.yaml", "    quantity: 1\n", "    quantity: 2\n", "id: galland")],
        lambda g: [_e(loc(g, "cards/homeland-leaders.yaml", "quantity: 2", "2", after="id: galland"), "IR-LEADER-UNIQUE",
                      "Adolf Galland is in the game 2 times (galland x2); a leader or ace is one card")]),
    "IR-HOMELAND-LARGEST": (
        [("cards/war-bonds.yaml", "    quantity: 8\n", "    quantity: 300\n")],
        lambda g: [_e(loc(g, "rules.yaml", 'assert: "homeland > largest.size"', '"'), "IR-HOMELAND-LARGEST",
                      "the Homeland Deck has 117 cards, but the War Bond deck has 322; the Homeland Deck is the "
                      "largest deck in the game")]),
    "IR-WAR-BOND-KINDS": (
        [("cards/war-bonds.yaml", "    value: 3\n", "    value: 2\n", None, -1),
         ("cards/war-bonds.yaml", "    value: 4\n", "    value: 2\n", None, -1)],
        lambda g: [_e(loc(g, "rules.yaml", 'assert: "count(values_) >= 2"', '"'), "IR-WAR-BOND-KINDS",
                      "every War Bond of the War Bond deck has the value 2; the deck has War Bonds of different amounts")]),
    "IR-TARGET-SIDES": (
        [("cards/targets.yaml", "    nation: british\n    attacker: german\n    year: 1939\n",
          "    nation: british\n    attacker: british\n    year: 1939\n")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "attacker: british", "british", after="id: rosyth-1939"),
                      "IR-TARGET-SIDES", "Firth of Forth ('rosyth-1939') is a British target attacked by British bombers: "
                      "a target is attacked by the other side (German or Italian bombers)")]),
    "IR-SAMPLE-TARGET": (
        [("cards/targets.yaml", "raid_date: '1943-08-01'", "raid_date: '1943-08-02'")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "raid_date: '1943-08-02'", "'"), "IR-SAMPLE-TARGET",
                      "the rulebook's sample target was bombed on 8/1/1943 (1943-08-01), not 1943-08-02")]),
    "IR-LEADER-TABLED": (
        [("cards/homeland-leaders.yaml", "    tabled: true\n", "    tabled: false\n")],
        lambda g: [_e(loc(g, "cards/homeland-leaders.yaml", "tabled: false", "false"), "IR-LEADER-TABLED",
                      "Hugh Dowding is a leader or ace (A.1-A.8), and every one of them is Tabled")]),
    "IR-HAND-SIZE": (
        [("game.yaml", 'detail: "Draw up to 5; discard down to 5.', 'detail: "Draw up to 6; discard down to 5.')],
        lambda g: [_e(loc(g, "game.yaml", 'detail: "Draw up to 6', '"Draw'), "IR-HAND-SIZE",
                      "'Draw up to 6; discard down to 5. An empty draw pile: shuffle your discards (a new Campaign).': "
                      "the hand is 5 cards (5.7-5.9)")]),
    "IR-AIRBASE": (
        [("cards/homeland-bombers.yaml", "    nation: american\n", "    nation: italian\n", None, -1)],
        lambda g: [_e(loc(g, "rules.yaml", 'assert: "not missing"', '"'), "IR-AIRBASE",
                      "no American bomber has a bomb load of 2 or more, so that nation can never attack an air base (7.83)",
                      "warning"),
                   _e(loc(g, "cards/homeland-leaders.yaml", "text: When he", "When", after="id: arnold"),
                      "IR-LEADER-AIRCRAFT", "Henry \"Hap\" Arnold ('arnold')'s effect helps American bombers, but the "
                      "game has none")]),
    "IR-AIRCRAFT-NAME": (
        [("cards/homeland-bombers.yaml", "    name: Avro Lancaster\n", "    name: Lancaster\n")],
        lambda g: [_e(loc(g, "cards/homeland-bombers.yaml", "name: Lancaster", "Lancaster"), "IR-AIRCRAFT-NAME",
                      "Lancaster ('lancaster') is made by Avro, but its printed name does not include the maker's name")]),
    "IR-EQUIPMENT-ANATOMY": (
        [("cards/homeland-aaa.yaml", "    bore: 94 mm\n", "")],
        lambda g: [_e(loc(g, "cards/homeland-aaa.yaml", "kind: aaa", "aaa"), "IR-EQUIPMENT-ANATOMY",
                      "QF 3.7-inch AA Gun ('qf-3-7-inch') is an anti-aircraft gun without a type (bore)")]),
    "IR-SHARED-BACK": (
        [("cards/war-bonds.yaml", "    name: Spitfire Fund\n", "    name: Spitfire Fund\n    back: ir-timeline-back\n")],
        lambda g: [_e(loc(g, "cards/war-bonds.yaml", "back: ir-timeline-back", "ir-timeline-back"), "IR-SHARED-BACK",
                      "card 'spitfire-fund' of deck 'war-bonds' has layout 'ir-timeline-back', but the decks starter, "
                      "war-bonds, homeland must share one back ('ir-back', used by 179 cards), so that they cannot be "
                      "told apart face down")]),
}


def apply(game: Copy, edits) -> None:
    for rel, old, new, *rest in edits:
        after = rest[0] if rest else None
        count = rest[1] if len(rest) > 1 else 1
        game.edit(rel, old, new, after, count)


def test_every_rule_has_a_mutation_test():
    rules = yaml.safe_load((GAME / "rules.yaml").read_text("utf-8"))
    assert rule_ids(rules) == set(CASES)


@pytest.mark.parametrize("rule", list(CASES))
def test_rule_reports_a_mutated_copy(rule, game, capsys, monkeypatch):
    edits, expected = CASES[rule]
    apply(game, edits)
    code, found, output = check(game, capsys, monkeypatch)
    want = expected(game)
    for headline in want:
        assert headline in found, f"\nwant: {headline}\ngot:\n" + "\n".join(found)
    severities = {h.split(": ")[1].split("[")[0] for h in want}
    assert code == (1 if "error" in severities else 0), output
    assert "Traceback" not in output
    assert "rulebook: " in output  # the help line cites the rulebook section


# More findings of the same rules: their other branches.
MORE_CASES = {
    "IR-STARTER-DECK: a missing line is reported on the deck's first card": (
        [("cards/starter-blue.yaml", "    kind: aaa\n", "    kind: fighter\n    attack: 1\n")],
        lambda g: [
            _e(loc(g, "cards/starter-blue.yaml", "- id: blue-blenheim", "id"), "IR-STARTER-DECK",
               "starter deck blue has 3 aircraft (blue-blenheim x1, blue-wellington x1, blue-qf-3-7-inch x1), "
               f"not 2: {STARTER_SHAPE}"),
            _e(loc(g, "cards/starter-blue.yaml", "starter: blue", "blue"), "IR-STARTER-DECK",
               f"starter deck blue has 0 anti-aircraft guns (none), not 1: {STARTER_SHAPE}"),
        ]),
    "IR-STARTER-NATION: no American starter deck": (
        [("cards/starter-white.yaml", "    nation: german\n", "    nation: american\n", "id: white-flak-36")],
        lambda g: [_e(loc(g, "cards/starter-white.yaml", "nation: american", "american"), "IR-STARTER-NATION",
                      "8.8 cm Flak 18/36 ('white-flak-36') is American, but starter decks are British or German")]),
    "IR-TARGET-ATTACKABLE: 7.1c with another attacker": (
        [("cards/targets.yaml", "    attacker: american\n", "    attacker: italian\n", "id: rouen-1942")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "mbl: 3", "3", after="id: rouen-1942"), "IR-TARGET-ATTACKABLE",
                      "Rouen-Sotteville Yards ('rouen-1942'), a 1942 target, cannot be attacked: it needs a bomb load "
                      "of 3, but the Italian bombers in service in 1942 carry at most 2 (SM.79, BR.20, Z.1007) (7.1c)")]),
    "IR-TARGET-ATTACKABLE: 7.1d no bomber in service": (
        [("cards/targets.yaml", "    attacker: british\n", "    attacker: american\n", "id: heligoland-1939"),
         ("cards/homeland-bombers.yaml", "    service_start: 1938\n", "    service_start: 1941\n", "id: b-17")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "year: 1939", "1939", after="id: heligoland-1939"),
                      "IR-TARGET-ATTACKABLE", "Heligoland Bight ('heligoland-1939'), a 1939 target, cannot be "
                      "attacked: no American bomber is in service in 1939 (7.1d)")]),
    "IR-SPECIAL-TYPE: the named bombers lack the bomb load": (
        [("cards/homeland-bombers.yaml", "    bombs: 3\n", "    bombs: 2\n", "id: b-24")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "B-24", after="id: ploesti-1943"), "IR-SPECIAL-TYPE",
                      "Ploiești Refineries ('ploesti-1943') names the B-24 in its special rule, but no B-24 in service in 1943 "
                      "carries its bomb load of 3")]),
    "IR-SPECIAL-TYPE: the Mosquito recon card does not fly the raid (the failing condition is named)": (
        [("cards/targets.yaml", "    special: 'Foul weather: the raid scores 1 VP less (never below 1).'\n",
          "    special: If the raid uses only Mosquitos, +1 VP.\n", "id: berlin-1941")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "only Mosquitos", "Mosquito", after="id: berlin-1941"),
                      "IR-SPECIAL-TYPE", "Berlin ('berlin-1941') names the Mosquito in its special rule, but no Mosquito "
                      "bomber or fighter is in service in 1941 (mosquito 1942-1945, mosquito-nf 1942-1945); mosquito-pr "
                      "(recon) is, but flies no raid")]),
    "IR-SPECIAL-TYPE: a type that flies no raid": (
        [("cards/targets.yaml", "    special: 'Foul weather: the raid scores 1 VP less (never below 1).'\n",
          "    special: If the raid uses only Ju 86s, +1 VP.\n", "id: berlin-1941")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "only Ju 86s", "Ju 86", after="id: berlin-1941"),
                      "IR-SPECIAL-TYPE", "Berlin ('berlin-1941') names the Ju 86 in its special rule, but every Ju 86 "
                      "is a recon (ju-86p), which flies no raid")]),
    "IR-EQUIPMENT-ANATOMY: no weather": (
        [("cards/homeland-bombers.yaml", "    weather: day\n", "", "id: battle")],
        lambda g: [_e(loc(g, "cards/homeland-bombers.yaml", "kind: bomber", "bomber", after="id: battle"),
                      "IR-EQUIPMENT-ANATOMY", "Fairey Battle ('battle') has no weather capability; an aircraft is day, "
                      "night or both")]),
    "IR-EQUIPMENT-ANATOMY: a bore on a bomber": (
        [("cards/homeland-bombers.yaml", "    name: Fairey Battle\n", "    name: Fairey Battle\n    bore: 7.7 mm\n")],
        lambda g: [_e(loc(g, "cards/homeland-bombers.yaml", "bore: 7.7 mm", "7.7"), "IR-EQUIPMENT-ANATOMY",
                      "Fairey Battle ('battle') is a bomber but has a gun bore; only anti-aircraft guns have one")]),
    "IR-ESCORT: Allied escorts only from 1944": (
        [("cards/targets.yaml", "    escort: false\n", "    escort: true\n", "id: ploesti-1943")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "escort: true", "true", after="id: ploesti-1943"), "IR-ESCORT",
                      "Ploiești Refineries ('ploesti-1943') shows the escort symbol on a raid by American bombers in 1943, "
                      "but Allied raids may have escorts only from 1944 (7.71)")]),
    "IR-ESCORT: the Year card must list the escort": (
        [("cards/years.yaml", "    - american\n", "", "id: year-1944")],
        lambda g: [_e(loc(g, "cards/targets.yaml", "escort: true", "true", after="id: berlin-1944"), "IR-ESCORT",
                      "Berlin ('berlin-1944') shows the escort symbol on a raid by American bombers in 1944, but the "
                      "Year card of 1944 does not list American escorts (7.72)")]),
    "IR-BOMB-LOAD: only bombers carry bombs": (
        [("cards/homeland-fighters.yaml", "    attack: 3\n", "    attack: 3\n    bombs: 1\n", "id: spitfire")],
        lambda g: [_e(loc(g, "cards/homeland-fighters.yaml", "bombs: 1", "1", after="id: spitfire"), "IR-BOMB-LOAD",
                      "Supermarine Spitfire ('spitfire') is a fighter, but only bombers carry bombs")]),
    "IR-LEADER-AIRCRAFT: the types the text names": (
        [("cards/homeland-bombers.yaml", "    type: B-26\n", "    type: B-26 Marauder\n")],
        lambda g: [_e(loc(g, "cards/homeland-leaders.yaml", "B-26", after="American twin engine"), "IR-LEADER-AIRCRAFT",
                      "Jimmy Doolittle ('doolittle') names B-26 among the aircraft it helps, but that is not one of the "
                      "American bombers with 2 engines")]),
}


@pytest.mark.parametrize("case", list(MORE_CASES))
def test_more_findings(case, game, capsys, monkeypatch):
    edits, expected = MORE_CASES[case]
    apply(game, edits)
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1, output
    for headline in expected(game):
        assert headline in found, f"\nwant: {headline}\ngot:\n" + "\n".join(found)
    assert "Traceback" not in output


def test_a_target_file_that_fails_to_load_is_not_reported_again_by_other_cards(game, capsys, monkeypatch):
    """A schema error drops targets.yaml; the starter bombers' IR-STARTER-TARGETS must not then say that no
    1939 target exists (card-scope checks run on incomplete content, so the rule guards itself)."""
    game.edit("cards/targets.yaml", "    time: day\n", "")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert found == [_e(loc(game, "cards/targets.yaml", "- id: tczew-bridges", "id"), "E-SCHEMA",
                        "missing required key 'time'")], output


def test_a_bomber_file_that_fails_to_load_is_not_reported_again_by_other_cards(game, capsys, monkeypatch):
    game.edit("cards/homeland-bombers.yaml", "    cost: 2\n", "    cost: two\n")
    code, found, output = check(game, capsys, monkeypatch)
    assert code == 1
    assert [line for line in found if "error[IR-" in line] == [], output


# -- the leaders' effect as a card field (the change game.yaml still needs) -----------------------------

def _leader_effects() -> dict[str, dict]:
    """The effect of each leader and ace, as the rules see it now (from the card or the interim rules)."""
    prep = prepare(GAME, Report(), LAYOUTS)
    return {card.id: card.data["effect"] for card in prep.game.cards() if card.data.get("kind") in ("leader", "ace")}


def _add_effect_field(game: Copy) -> None:
    text = (game.path / "game.yaml").read_text("utf-8")
    if re.search(r"^      effect:", text, re.M):
        return  # game.yaml has it already
    deck = text.index("  - id: homeland\n")
    fields = text.index("    fields:\n", deck) + len("    fields:\n")
    game.write("game.yaml", text[:fields] + f"      effect: {json.dumps(EFFECT_FIELD)}\n" + text[fields:])


def _move_effects_to_the_cards(game: Copy) -> None:
    rules = (game.path / "rules.yaml").read_text("utf-8")
    entry = re.search(r"\n  - name: effect\n.*?(?=\n\S|\n  - )", rules, re.S)
    if entry is None:
        return  # done already
    effects = _leader_effects()
    start = rules.rfind("\n\n", 0, entry.start()) + 1  # with the comment block above it
    game.write("rules.yaml", rules[:start] + rules[entry.end() + 1:])
    text = (game.path / "cards/homeland-leaders.yaml").read_text("utf-8")
    for card_id, effect in effects.items():
        at = text.index("    tabled: true\n", text.index(f"  - id: {card_id}\n")) + len("    tabled: true\n")
        text = text[:at] + f"    effect: {json.dumps(effect)}\n" + text[at:]
    game.write("cards/homeland-leaders.yaml", text)


def test_leader_effect_as_a_card_field(game, capsys, monkeypatch):
    """With EFFECT_FIELD in game.yaml, the interim derived field must go (cardforge says so), and once the
    effects are on the cards the same two rules check them there."""
    interim = "\n  - name: effect\n" in (GAME / "rules.yaml").read_text("utf-8")
    _add_effect_field(game)
    if interim:
        code, found, output = check(game, capsys, monkeypatch)
        assert code == 1
        assert _e(loc(game, "rules.yaml", "  - name: effect", "effect"), "E-RULES-FIELD",
                  "derived field 'effect' is already a field of deck 'homeland'") in found, output
    _move_effects_to_the_cards(game)
    for extra in ((), ("--strict",)):
        code, found, output = check(game, capsys, monkeypatch, *extra)
        assert code == 0 and found == [], output
    game.edit("cards/homeland-leaders.yaml", '"bonus": "damage"', '"bonus": "vp"', "id: dowding")
    code, found, output = check(game, capsys, monkeypatch)
    assert _e(loc(game, "cards/homeland-leaders.yaml", "text: When he", "When", after="id: dowding"),
              "IR-LEADER-EFFECT", "Hugh Dowding ('dowding'): its effect in data is +1 VP for British fighters, but its "
              "text does not say 'increase their Victory Points'") in found, output


def test_derived_fields_reach_the_cards():
    prep = prepare(GAME, Report(), LAYOUTS)
    cards = {card.id: card for card in prep.game.cards()}
    # service 1937-1940, within the Timeline's years (values.timeline_years: a derived field reads a value)
    assert cards["battle"].data["service_years"] == [1939, 1940]
    assert cards["blue-war-bond"].data["deck_nation"] == "british"
    assert cards["white-war-bond"].data["deck_nation"] == "german"
    assert cards["doolittle"].data["effect"] == {"nation": "american", "aircraft": "bomber", "engines": 2,
                                                 "types": ["B-25", "B-26"], "bonus": "vp", "amount": 1}
