"""War Eagles (content/war-eagles): scenarios (C5), force lists and `cardforge force` (C6), record
views (C7), frame rotation (C10), and the rules as data.

Every rule is tested on a mutated copy of the content: the exact `path:line:col: severity[RULE]` line.
A unit record changed once is read back from both the stat card and the tile in the PDF.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
import yaml

from cardforge.cli import main
from conftest import check_copy, edit, loc, cardforge, headlines, squash, text_in_box

REPO = Path(__file__).resolve().parent.parent
EAGLES = REPO / "content" / "war-eagles"
LAYOUTS = REPO / "layouts"


@pytest.fixture
def game(tmp_path):
    shutil.copytree(EAGLES, tmp_path / "war-eagles")
    return tmp_path / "war-eagles"


def test_shipped_war_eagles_passes_strict(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code = main(["check", "content/war-eagles", "--strict"])
    _, err = capsys.readouterr()
    assert code == 0, err


def test_every_rule_cites_the_rulebook_and_has_a_mutation():
    rules = yaml.safe_load((EAGLES / "rules.yaml").read_text("utf-8"))
    ids = {check["id"] for check in rules["checks"]}
    assert all(check["section"] for check in rules["checks"])
    assert ids == set(MUTATIONS), f"rules without a mutation test: {sorted(ids - set(MUTATIONS))}"


def test_content_is_complete_and_marked():
    """Five nations across the war's years; ~95% authored and marked (given names carry a note)."""
    units = [c for f in sorted((EAGLES / "cards").glob("units-*.yaml")) for c in yaml.safe_load(f.read_text())["cards"]]
    zones = yaml.safe_load((EAGLES / "cards" / "zones.yaml").read_text())["cards"]
    events = yaml.safe_load((EAGLES / "cards" / "events.yaml").read_text())["cards"]
    for nation in ("GE", "JP", "SU", "UK", "US"):
        mine = [u for u in units if u["nationality"] == nation]
        assert len(mine) >= 15 and {u["category"] for u in mine} == {"aircraft", "aa", "radar", "ace"}
        assert min(u["year"] for u in mine) == 1939 or nation == "US"
        assert max(u["year"] for u in mine) >= 1944
        assert sum(1 for z in zones if z["target"]["nationality"] == nation) >= 5
        assert any(e["nationality"] == nation for e in events)
    every = units + zones + events
    assert all(item.get("authored") or item.get("note") for item in every)
    assert sum(1 for item in every if item.get("authored")) / len(every) >= 0.95
    forces = sorted(p.stem for p in (EAGLES / "forces").glob("*.yaml"))
    scenarios = yaml.safe_load((EAGLES / "tables" / "scenarios.yaml").read_text())["rows"]
    assert forces == sorted(f"{s['id']}-{side}" for s in scenarios for side in ("axis", "allied"))


# rule -> (edits [(file, old, new)], (file, line holding the finding, text it points at, nth), message start)
GE, JP, SU, US = "cards/units-ge.yaml", "cards/units-jp.yaml", "cards/units-su.yaml", "cards/units-us.yaml"
ZONES, EVENTS, SCEN = "cards/zones.yaml", "cards/events.yaml", "tables/scenarios.yaml"
SA, PAX, PAL = "forces/standard-axis.yaml", "forces/pacific-axis.yaml", "forces/pacific-allied.yaml"
BF109E = "name: Bf 109E, nationality: GE, category: aircraft, silhouette: fighter, cost: 8, range: 2"
MUTATIONS = {
    "WE-NATION": ([(GE, BF109E, BF109E.replace("GE", "DE"))], (GE, "id: ge-bf109e", "DE", 0),
                  "unit 'Bf 109E' has nationality 'DE'; the nationalities are GE, JP (Axis), SU, UK and US (Allied)"),
    "WE-FIELDS-BY-CATEGORY": ([(GE, "category: aa, cost: 5", "category: aa, range: 2, cost: 5")],
                              (GE, "id: ge-flak88", "2, cost", 0), "Flak 88 is an aa unit, so it may not have 'range'"),
    "WE-RANGE": ([(GE, BF109E, BF109E.replace("range: 2", "range: 0"))], (GE, "id: ge-bf109e", "0, damage", 0),
                 "Bf 109E has range 0; an aircraft must be able to enter at least 1 zone per phase"),
    "WE-YEAR": ([(GE, "air_attack_dice: 4, year: 1939", "air_attack_dice: 4, year: 1938")],
                (GE, "id: ge-bf109e", "1938", 0), "Bf 109E: year 1938 is outside the war, 1939-1945"),
    "WE-ACE-UNIQUE": ([(GE, "name: Erich Hartmann, nationality: GE, category: ace, unique: true",
                        "name: Erich Hartmann, nationality: GE, category: ace, unique: false")],
                      (GE, "id: ge-hartmann", "false", 0), "Ace Erich Hartmann must be unique (unique: true)"),
    "WE-UNIQUE-ONE-TILE": ([(GE, "year: 1943, tiles: 1", "year: 1943, tiles: 2")], (GE, "id: ge-hartmann", "2, auth", 0),
                           "Erich Hartmann is unique, so exactly one tile is printed, not 2"),
    "WE-UNIT-NAMES": ([(GE, "name: Bf 109G,", "name: Bf 109E,")], (GE, "id: ge-bf109g", "Bf 109E", 0),
                      "the name 'Bf 109E' is used by 2 unit records; a name refers to one unit"),
    "WE-INTERCEPTOR-RADAR": ([(GE, "name: Freya Radar, nationality: GE, category: radar",
                               "name: Freya Radar, nationality: GE, category: aa")],
                             (GE, "    special: {name: Interceptor", "{name: Interceptor", 0),
                             "Ta-152 has Interceptor, but GE has no Radar unit, so the ability never works"),
    "WE-RANGE-SANE": ([(GE, BF109E, BF109E.replace("range: 2", "range: 5"))], (GE, "id: ge-bf109e", "5, damage", 0),
                      "Bf 109E has range 5; on two rows of five zones a range over 4 never matters"),
    "WE-COST-CURVE": ([(GE, "silhouette: fighter, cost: 10, range: 2, damage_capacity: 2, bombing_dice: 0, air_attack_dice: 5, year: 1942",
                        "silhouette: fighter, cost: 13, range: 2, damage_capacity: 2, bombing_dice: 0, air_attack_dice: 5, year: 1942")],
                      (GE, "id: ge-bf109g", "13", 0), "Bf 109G costs 13, more than "),
    "WE-NATION-BALANCE": ([(SU, "air_attack_dice: 3, year: 1939", "air_attack_dice: 3, year: 1941"),
                           (SU, "air_attack_dice: 5, year: 1942", "air_attack_dice: 5, year: 1941"),
                           (SU, "air_attack_dice: 4, year: 1942", "air_attack_dice: 4, year: 1941"),
                           (SU, "air_attack_dice: 6, year: 1944", "air_attack_dice: 6, year: 1941")],
                          ("game.yaml", "{code: SU, name: Soviet Union", "SU", 0),
                          "Soviet Union has fighters of 1 distinct years (1941)"),
    "WE-GIVEN-B25-BASE": ([(ZONES, "base: {name: Eastern Island Base, base_type: airstrip",
                            "base: {name: Eastern Island Base, base_type: airfield")],
                          (ZONES, "name: Eastern Island Base", "airfield", 0),
                          "Eastern Island Base is Airfield, which takes the B-25's silhouette; the rulebook says it does not"),
    "WE-CAMPAIGN-EVENTS": ([(SCEN, "free: [{card: ev-bounce,", "free: [{card: ev-bouncy,")],
                           (SCEN, "free: [{card: ev-bouncy,", "[", 0),
                           "The Japanese Advance: the free cards ev-bouncy are not event cards of this game"),
    "WE-CAMPAIGN-EVENT-COPIES": ([(EVENTS, "cost: 4, quantity: 2,", "cost: 4, quantity: 1,")],
                                (EVENTS, "quantity: 1,", "1,", 0),
                                "Bounce: a campaign hands out 2 copies free, but only 1 is printed"),
    "WE-ZONE-UNIQUE": ([(ZONES, "target: {name: Hamburg,", "target: {name: Berlin,")],
                       (ZONES, "target: {name: Berlin, nationality: GE, aa_dice: 2", "Berlin", 0),
                       "2 zone cards have the Target Unit Berlin; zone cards are unique"),
    "WE-ZONE-FIELDS": ([(ZONES, "base: {name: Fuhlsbuettel, base_type: airfield", "base: {name: Fuhlsbuettel, base_type: airport")],
                       (ZONES, "Fuhlsbuettel", "airport", 0),
                       "zone Hamburg: base type 'airport' is not airstrip, airfield or airbase"),
    "WE-ZONE-TRADEOFF": ([(ZONES, "name: Berlin, nationality: GE, aa_dice: 3, damage_capacity: 8, production: 28",
                           "name: Berlin, nationality: GE, aa_dice: 3, damage_capacity: 9, production: 30")],
                         (ZONES, "target: {name: Berlin", "30", 0),
                         "zone Berlin is at least as good as every other zone in VP, production, AA dice and damage capacity"),
    "WE-SILHOUETTE-LANDABLE": ([(ZONES, "name: Tempelhof, base_type: airbase", "name: Tempelhof, base_type: airfield"),
                                (ZONES, "name: Usedom Airbase, base_type: airbase", "name: Usedom Airbase, base_type: airfield")],
                               (GE, "id: ge-he177", "heavy-bomber", 0),
                               "He 177 Greif (heavy-bomber) can land at no base of a GE zone"),
    "WE-BASE-SILHOUETTES": ([("game.yaml", "silhouettes: [fighter, fighter-bomber, light-bomber, recon, medium-bomber]",
                              "silhouettes: [fighter, fighter-bomber, light-bomber, medium-bomber]")],
                            ("game.yaml", "{type: airfield, label: Airfield", "[", 0),
                            "Airfield does not take every silhouette that Airstrip takes"),
    "WE-EVENT-FIELDS": ([(EVENTS, "name: Blitz, nationality: GE, kind: immediate", "name: Blitz, nationality: GE, kind: instant")],
                        (EVENTS, "name: Blitz,", "instant", 0),
                        "event Blitz: kind 'instant' is neither technology nor immediate"),
    "WE-THEATER-NAMES": ([(SCEN, "Port Arthur, Tank Farm,", "Port Arthur, Tank Farms,")],
                         (SCEN, "Tank Farms", "[", 0), "Pacific Theater: no zone card has the Target Unit Tank Farms"),
    "WE-THEATER-SUPPLY": ([(SCEN, "zones: [London, Portsmouth, Coventry, Birmingham, Malta]",
                            "zones: [London, Portsmouth, Coventry, Birmingham]")],
                          (SCEN, "nations: [UK]", "nations", 0),
                          "Blitzkrieg!: the Allied player has 4 zone cards to select from (before the late year), fewer than 5"),
    "WE-CAMPAIGN-POOL": ([("cards/units-uk.yaml", "air_attack_dice: 2, year: 1939", "air_attack_dice: 2, year: 1941"),
                          ("cards/units-uk.yaml", "air_attack_dice: 4, year: 1939", "air_attack_dice: 4, year: 1941"),
                          ("cards/units-uk.yaml", "air_attack_dice: 5, year: 1939", "air_attack_dice: 5, year: 1941"),
                          ("cards/units-uk.yaml", "air_attack_dice: 4, year: 1940", "air_attack_dice: 4, year: 1941")],
                         (SCEN, "nations: [UK]", "[UK]", 0),
                         "Blitzkrieg!: the Allied nations UK have fighters of 1940 or earlier only for none"),
    "WE-FORCE-SCENARIO": ([(SA, "scenario: standard", "scenario: standrd")], (SA, "scenario: standrd", "standrd", 0),
                          "force 'standard-axis' names scenario 'standrd', which is not one of standard, pacific"),
    "WE-FORCE-ZONE-COUNT": ([(SA, "    - {card: z-yawata, count: 1}   # zone: Yawata Steel Works, 25 PP, airstrip\n", "")],
                            (SA, "{card: z-berlin", "-", 0), "force 'standard-axis' selects 4 zone cards; each player selects 5"),
    "WE-FORCE-BUDGET": ([(SA, "{card: ge-flak38, count: 1}", "{card: ge-flak38, count: 3}")], (SA, "ge-flak38", "3}", 0),
                        "Flak 38 (20 mm) x3 brings the spending to 143 PP, over the budget of 137 PP (the Production "
                        "Points of the force's zones)"),
    "WE-FORCE-ZONE-UNIQUE": ([(SA, "{card: z-osaka, count: 1}", "{card: z-tokyo, count: 1}")],
                             (SA, "zone: Osaka", "z-tokyo", 0), "zone Tokyo is selected again; zone cards are unique"),
    "WE-FORCE-ACE-UNIQUE": ([(SA, "    - {card: ge-flak38, count: 1}", "    - {card: ge-flak38, count: 1}\n    - {card: ge-galland, count: 1}")],
                            (SA, "    - {card: ge-galland, count: 1}", "ge-galland", 0),
                            "a second Adolph Galland: Aces are unique, one of a name per force"),
    "WE-FORCE-ACE-FIGHTER": ([(SA, "attach_to: jp-n1k", "attach_to: jp-g8n")], (SA, "attach_to: jp-g8n", "jp-g8n", 0),
                             "Saburo Sakai is attached to G8N Renzan, which is not a JP fighter or fighter-bomber"),
    "WE-FORCE-BASES": ([(SA, "{card: z-berlin, count: 1}", "{card: z-hamburg, count: 1}"),
                        (SA, "{card: z-tokyo, count: 1}", "{card: z-kure, count: 1}")],
                       (SA, "{card: ge-he177", "ge-he177", 0), "He 177 Greif (heavy-bomber) has no base to land at: it needs airbase"),
    "WE-FORCE-NATIONS": ([(PAX, "{card: jp-n1k, count: 2}", "{card: ge-me262, count: 2}")],
                         (PAX, "ge-me262", "ge-me262", 0),
                         "Me 262 is GE; in Pacific Theater the axis player may purchase only JP units and events"),
    "WE-FORCE-ZONES": ([(PAL, "  year: 1945   # the Pacific Allies may field Port Arthur and Soviet units only in 1945\n", "")],
                       (PAL, "z-port-arthur", "z-port-arthur", 0),
                       "zone Port Arthur (SU) may not be selected by the allied player in Pacific Theater: only if the game "
                       "takes place in 1945"),
    "WE-FORCE-YEAR": ([("forces/blitzkrieg-axis.yaml", "{card: ge-he111, count: 1}", "{card: ge-do217, count: 1}")],
                      ("forces/blitzkrieg-axis.yaml", "ge-do217", "ge-do217", 0),
                      "Do 217 first flew in 1941; this force is limited to units of 1940 or earlier (Blitzkrieg!)"),
    "WE-FORCE-FORBID": ([("forces/japanese-advance-allied.yaml", "{card: uk-gladiator, count: 2}",
                         "{card: uk-gladiator, count: 2}\n    - {card: uk-bader, count: 1}")],
                        ("forces/japanese-advance-allied.yaml", "uk-bader", "uk-bader", 0),
                        "Douglas Bader is an ace unit, which the allied player may not purchase in The Japanese Advance"),
    "WE-FACT-BASE-MATRIX": ([("game.yaml", "{type: airstrip, label: Airstrip, silhouettes: [fighter, fighter-bomber, light-bomber, recon]",
                              "{type: airstrip, label: Airstrip, silhouettes: [fighter, fighter-bomber, recon]")],
                            ("game.yaml", "{type: airstrip, label: Airstrip", "[", 0),
                            "Airstrip does not take light-bomber; the rulebook's Airstrip operates fighter, fighter-bomber, "
                            "light-bomber, recon"),
    "WE-FACT-TURNS": ([("game.yaml", "{turns: 10,", "{turns: 12,")], ("game.yaml", "{turns: 12,", "12", 0),
                      "the game ends after turn 12; the rulebook ends it at the end of turn 10"),
    "WE-FACT-DESTROYED-COUNTERS": ([("tokens/counters.yaml", "quantity: 20", "quantity: 10")],
                                   ("tokens/counters.yaml", "quantity: 10", "10", 0),
                                   "10 destroyed counters; every Target and Base unit of both players' 5 zones can be "
                                   "destroyed, so 20 are needed"),
    "WE-THEATER-SIDE": ([(ZONES, "target: {name: Midway Islands, nationality: US", "target: {name: Midway Islands, nationality: JP")],
                        (SCEN, "zones: [Midway Islands", "[", 0),
                        "Pacific Theater: the Allied zone list names Midway Islands (JP), which the Allied player may not "
                        "select (zones of SU, UK, US)"),
    "WE-FORCE-PIECES": ([(SA, "{card: jp-g8n, count: 1}", "{card: jp-g8n, count: 2}"),
                         (SA, "{card: jp-n1k, count: 2}", "{card: jp-n1k, count: 1}"),
                         (SA, "{card: ge-flak38, count: 1}", "{card: ge-flak88, count: 1}")],
                        (SA, "{card: jp-g8n", "2}", 0), "G8N Renzan x2, but the kit prints 1; print more or pick fewer"),
}
WARNINGS = {"WE-INTERCEPTOR-RADAR", "WE-RANGE-SANE", "WE-COST-CURVE", "WE-NATION-BALANCE", "WE-ZONE-TRADEOFF",
            "WE-FORCE-PIECES"}

# The compare rules: the content held against the rulebook's facts (rules.yaml `facts:`), cell by cell.
COMPARE_MUTATIONS = {
    "WE-FACT-NATIONS": ([("game.yaml", "{code: JP, name: Japan, side: axis", "{code: JP, name: Japan, side: allied")],
                        ("game.yaml", "{code: JP, name: Japan", "allied", 0),
                        "table 'nations': nationality 'JP': side is 'allied', but the rulebook says 'axis'"),
    "WE-FACT-SILHOUETTES": ([("game.yaml", "short: R, type: recon}", "short: R, type: fighter}")],
                            ("game.yaml", "{id: recon, label: Recon", "fighter", 0),
                            "table 'silhouettes': silhouette 'recon': type is 'fighter', but the rulebook says 'recon'"),
    "WE-FACT-BASE-TYPES": ([("game.yaml", "{type: airbase, label: Airbase,", "{type: airbase, label: Air Base,")],
                           ("game.yaml", "{type: airbase, label: Air Base", "Air Base", 0),
                           "table 'base_types': base type 'airbase': label is 'Air Base', but the rulebook says 'Airbase'"),
    "WE-FACT-SEQUENCE": ([("game.yaml", '{step: "2", name: Launch Phase', '{step: "2", name: Event Phase'),
                          ("game.yaml", '{step: "1", name: Event Phase', '{step: "1", name: Launch Phase')],
                         ("game.yaml", '{step: "1", name: Launch Phase', "Launch Phase", 0),
                         "table 'sequence': phase 1: name is 'Launch Phase', but the rulebook says 'Event Phase'"),
    "WE-FACT-ROUNDS": ([("game.yaml", '{round: "Bombing", hits: "5-6"', '{round: "Bombing", hits: "6"')],
                       ("game.yaml", '{round: "Bombing", hits: "6"', '"6"', 0),
                       "table 'combat': round 4: hits is '6', but the rulebook says '5-6'"),
    "WE-FACT-TARGETING": ([("game.yaml", "First round only: bombers", "Both rounds: bombers")],
                          ("game.yaml", "Both rounds: bombers", '"Both', 0),
                          "table 'targeting': target selection rule 5: text is 'Both rounds: bombers and recon not until "
                          "ALL enemy fighters and fighter-bombers are engaged.', which does not say 'First round only' "
                          "as the rulebook does"),
    "WE-FACT-VICTORY": ([("game.yaml", "{id: fighter-with-ace, vp: 2", "{id: fighter-with-ace, vp: 1")],
                        ("game.yaml", "{id: fighter-with-ace, vp: 1", "1,", 0),
                        "table 'victory': scoring line 'fighter-with-ace': vp is 1, but the rulebook says 2"),
    "WE-FACT-EVENTS": ([(EVENTS, "{id: ev-bounce, name: Bounce, nationality: JP", "{id: ev-bounce, name: Bounce, nationality: GE")],
                       (EVENTS, "{id: ev-bounce, name: Bounce", "GE", 0),
                       "group 'events': event 'ev-bounce': nationality is 'GE', but the rulebook says 'JP'"),
    "WE-FACT-GIVEN-UNITS": ([(GE, "air_attack_dice: 6      # given", "air_attack_dice: 5      # given")],
                            (GE, "air_attack_dice: 5      # given", "5", 0),
                            "group 'units': unit 'Ta-152': air_attack_dice is 5, but the rulebook says 6"),
    "WE-FACT-GIVEN-ZONES": ([(ZONES, "base: {name: Eastern Island Base,", "base: {name: Eastern Isle Base,")],
                            (ZONES, "Eastern Isle Base", "Eastern Isle Base", 0),
                            "group 'zones': zone 'Midway Islands': base.name is 'Eastern Isle Base', but the rulebook says "
                            "'Eastern Island Base'"),
    "WE-FACT-QUOTES": ([("game.yaml", "the Second Player may assign hits", "the First Player may assign hits")],
                       ("game.yaml", "{topic: Hits on a Base", '"\\"your', 0),
                       "table 'decisions': decision 'Hits on a Base': quote is '\"your opponent may choose to transfer "
                       "hits\" vs \"the First Player may assign hits on Base units\"', which does not say 'the Second "
                       "Player may assign hits on Base units' as the rulebook does"),
    "WE-FACT-SCENARIOS": ([(SCEN, "budget: {US: 80, UK: 34}", "budget: {US: 90, UK: 34}")],
                          (SCEN, "budget: {US: 90, UK: 34}", "{US", 0),
                          "table 'scenarios': scenario 'japanese-advance': allied.budget is {'US': 90, 'UK': 34}, but "
                          "the rulebook says {'US': 80, 'UK': 34}"),
}


def test_every_compare_rule_has_a_mutation():
    rules = yaml.safe_load((EAGLES / "rules.yaml").read_text("utf-8"))
    assert {rule["id"] for rule in rules["compare"]} == set(COMPARE_MUTATIONS)


def test_a_scenario_row_the_content_lacks_is_reported_with_the_rulebook_row(game, capsys, monkeypatch):
    """A rulebook scenario no shipped piece needs is still part of the table: dropping it is an error."""
    text = (game / SCEN).read_text("utf-8")
    start = text.index("  - id: eastern-front")
    end = text.index("  - id: blitzkrieg")
    (game / SCEN).write_text(text[:start] + text[end:], "utf-8")
    for side in ("axis", "allied"):
        (game / "forces" / f"eastern-front-{side}.yaml").unlink()
        edit(game, "game.yaml", f"    - forces/eastern-front-{side}.yaml\n", "")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert any("error[WE-FACT-SCENARIOS]: table 'scenarios' has no scenario 'eastern-front'; the rulebook's table has it"
               in line for line in lines), "\n".join(lines)


@pytest.mark.parametrize("rule", sorted(MUTATIONS) + sorted(COMPARE_MUTATIONS))
def test_rule_reports_a_mutated_copy(rule, game, capsys, monkeypatch):
    edits, (rel, line, at, nth), message = {**MUTATIONS, **COMPARE_MUTATIONS}[rule]
    for file, old, new in edits:
        edit(game, file, old, new)
    code, lines = check_copy(game, capsys, monkeypatch)
    severity = "warning" if rule in WARNINGS else "error"
    wanted = f"{loc(game, rel, line, at, nth)}: {severity}[{rule}]: {message}"
    assert any(line.startswith(wanted) for line in lines), "\n".join([wanted, "--- got:"] + lines)


def test_budget_fails_only_at_the_pick_where_the_running_sum_crosses_it(game, capsys, monkeypatch):
    """Two more Ta-152s (28 PP) early in the list: the sum crosses 137 PP at a later pick, which is
    reported; the picks after it (already over) are not."""
    edit(game, SA, "{card: ge-ta152, count: 2}", "{card: ge-ta152, count: 4}")
    code, lines = check_copy(game, capsys, monkeypatch)
    budget = [line for line in lines if "[WE-FORCE-BUDGET]" in line]
    assert budget == [f"{loc(game, SA, 'jp-ki84', '1}')}: error[WE-FORCE-BUDGET]: Ki-84 Frank x1 brings the spending "
                      "to 138 PP, over the budget of 137 PP (the Production Points of the force's zones)"], lines


# -- cardforge force ----------------------------------------------------------------------------

def test_force_over_budget_fails_at_the_pick_naming_budget_and_sum(game, tmp_path):
    edit(game, SA, "{card: ge-flak38, count: 1}", "{card: ge-flak38, count: 3}")
    out = tmp_path / "rosters"
    result = cardforge("force", game / SA, "--out", out, "--layouts", LAYOUTS, cwd=tmp_path)
    assert result.returncode == 1
    line = loc(game, SA, "ge-flak38", "3}")
    assert (f"{line}: error[WE-FORCE-BUDGET]: Flak 38 (20 mm) x3 brings the spending to 143 PP, over the budget of "
            "137 PP (the Production Points of the force's zones)") in headlines(result.stderr), result.stderr
    assert "no roster written" in result.stderr
    assert not out.exists() or not list(out.iterdir())


def test_force_with_a_duplicated_ace_fails_at_the_second_ace(tmp_path):
    force = tmp_path / "mine.yaml"
    text = (EAGLES / "forces" / "blitzkrieg-axis.yaml").read_text("utf-8")
    text = text.replace("    - {card: ev-ge-bad-weather, count: 1}   # Bad Weather\n",
                        "    - {card: ge-galland, count: 1}   # a second Galland\n")
    force.write_text(text, "utf-8")
    result = cardforge("force", force, "--game", EAGLES, "--out", tmp_path, cwd=REPO)
    assert result.returncode == 1
    lines = [l for l in headlines(result.stderr) if "WE-FORCE-ACE-UNIQUE" in l]
    number = text.splitlines().index("    - {card: ge-galland, count: 1}   # a second Galland") + 1
    assert lines == [f"{force}:{number}:14: error[WE-FORCE-ACE-UNIQUE]: a second Adolph Galland: Aces are unique, "
                     "one of a name per force"], result.stderr
    assert not list(tmp_path.glob("*.pdf"))


def test_legal_force_prints_a_roster(tmp_path):
    result = cardforge("force", EAGLES / "forces" / "japanese-advance-allied.yaml", "--out", tmp_path,
                       "--paper", "all", cwd=REPO)
    assert result.returncode == 0, result.stderr
    for paper in ("a4", "letter"):
        pdf = tmp_path / f"japanese-advance-allied-roster-{paper}.pdf"
        with pdfplumber.open(pdf) as doc:
            assert len(doc.pages) == 1
            text = squash(doc.pages[0].extract_text())
    for want in ("WAR EAGLES ROSTER · The Japanese Advance, Allied", "Singapore", "B-17 Flying Fortress",
                 "Budget: 34 PP of UK, 80 PP of US (not the zones) · Spent: 114 PP"):
        assert squash(want) in text


def test_force_usage_errors(tmp_path):
    result = cardforge("force", tmp_path / "none.yaml", cwd=REPO)
    assert result.returncode == 2 and "no such force file" in result.stderr
    (tmp_path / "f.yaml").write_text("force: {id: x, scenario: standard, side: axis, picks: [{card: z-berlin, count: 1}]}\n")
    result = cardforge("force", tmp_path / "f.yaml", cwd=REPO)
    assert result.returncode == 2 and "--game" in result.stderr


def test_force_unknown_card_is_reported_with_a_guess(tmp_path):
    force = tmp_path / "f.yaml"
    force.write_text("force:\n  id: x\n  scenario: standard\n  side: axis\n  picks:\n    - {card: z-berlinn, count: 1}\n")
    result = cardforge("force", force, "--game", EAGLES, cwd=REPO)
    assert result.returncode == 1
    assert f"{force}:6:14: error[E-FORCE-CARD]: force 'x': pick 1 names card 'z-berlinn', which the game does not " \
           "have" in headlines(result.stderr)
    assert "did you mean 'z-berlin'?" in result.stderr


# -- one record, two components (C7); rotation read back (C10) ---------------------------------

def _piece_text(folder: Path, component: str, piece: str, frame: str, side: str = "front") -> str:
    manifest = json.loads((folder / f"war-eagles-{component}-a4.manifest.json").read_text("utf-8"))
    entry = next(c for c in manifest[component] if c["card"] == piece and c.get("side", "front") == side)
    box = next(f["box"] for f in entry["frames"] if f["name"] == frame)
    with pdfplumber.open(folder / f"war-eagles-{component}-a4.pdf") as pdf:
        return text_in_box(pdf.pages[entry["page"] - 1], box)


def test_changing_one_unit_record_changes_its_stat_card_and_its_tile(game, tmp_path):
    out = tmp_path / "out"
    result = cardforge("build", game, "--paper", "a4", "--out", out, "--layouts", LAYOUTS, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = out / "war-eagles"
    assert squash(_piece_text(folder, "cards", "ge-bf109e", "name")) == "BF 109E"
    assert squash(_piece_text(folder, "tokens", "unit-tiles/ge-bf109e", "name")) == "Bf 109E"
    assert squash(_piece_text(folder, "tokens", "unit-tiles/ge-bf109e", "air", "back")) == "A4"
    kit = folder / "war-eagles-kit-a4.pdf"
    edit(game, GE, "name: Bf 109E, nationality: GE, category: aircraft, silhouette: fighter, cost: 8, range: 2, "
         "damage_capacity: 2, bombing_dice: 0, air_attack_dice: 4",
         "name: Bf 109T, nationality: GE, category: aircraft, silhouette: fighter, cost: 8, range: 2, "
         "damage_capacity: 2, bombing_dice: 0, air_attack_dice: 5")
    edit(game, ZONES, "target: {name: Hamburg,", "target: {name: Greater Hamburg,")  # Berlin is the rulebook's
    # The old kit against the new data: the card, its tile and the zone card's upside-down raid
    # label (read back in reading order) each differ.
    printed = cardforge("check", game, "--printed", kit, "--layouts", LAYOUTS, cwd=tmp_path)
    assert printed.returncode == 1
    text = printed.stderr
    assert "card 'ge-bf109e' (front), frame 'name'" in text
    assert "card 'unit-tiles/ge-bf109e' (front), frame 'name'" in text
    assert "card 'unit-tiles/ge-bf109e' (back), frame 'air'" in text
    assert "card 'z-hamburg' (front), frame 'raid-label': printed 'RAID AREA ·' where the data now gives " \
           "'RAID AREA · Greater'" in text
    result = cardforge("build", game, "--paper", "a4", "--out", out, "--layouts", LAYOUTS, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert squash(_piece_text(folder, "cards", "ge-bf109e", "name")) == "BF 109T"
    assert squash(_piece_text(folder, "cards", "ge-bf109e", "stat3")) == "5"
    assert squash(_piece_text(folder, "tokens", "unit-tiles/ge-bf109e", "name")) == "Bf 109T"
    assert squash(_piece_text(folder, "tokens", "unit-tiles/ge-bf109e", "air", "back")) == "A5"
    with pdfplumber.open(folder / "war-eagles-tokens-a4.pdf") as pdf:
        everything = " ".join(squash(page.extract_text() or "") for page in pdf.pages)
    assert "Bf 109E" not in everything and everything.count("Bf 109T") == 2 * 4  # 4 tiles, front and back


def test_a_turned_frame_is_fitted_in_its_turned_box(game, capsys, monkeypatch):
    """The raid label fits its 117 x 7 mm box upside down; turned a quarter it has 7 mm of line."""
    layouts = game.parent / "layouts"
    shutil.copytree(LAYOUTS, layouts)
    zone = layouts / "war-eagles" / "we-zone.yaml"
    zone.write_text(zone.read_text("utf-8").replace("{type: text, rotate: 180, x: 5mm, y: 30mm",
                                                    "{type: text, rotate: 90, x: 5mm, y: 30mm"), "utf-8")
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--layouts", str(layouts)])
    _, err = capsys.readouterr()
    assert code == 1
    assert "card 'z-berlin' (front), frame 'raid-label' of layout 'we-zone': the word 'RAID' is 1.7 mm wider than " \
           "the frame (7.0 mm) even at the minimum size 10 pt" in err, err


def test_view_errors_point_at_game_yaml(game, capsys, monkeypatch):
    edit(game, "game.yaml", "    view: units\n    quantity: tiles", "    view: unitz\n    quantity: tiles")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert code == 1
    assert f"{loc(game, 'game.yaml', 'view: unitz', 'unitz')}: error[E-VIEW]: deck 'unit-tiles' is a view of 'unitz', " \
           "which is not a deck or token sheet of this game" in lines


def test_view_quantity_field_must_exist(game, capsys, monkeypatch):
    edit(game, "game.yaml", "    view: units\n    quantity: tiles", "    view: units\n    quantity: tile")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert f"{loc(game, 'game.yaml', 'quantity: tile', 'tile')}: error[E-VIEW]: deck 'unit-tiles' takes its quantity " \
           "from field 'tile', which deck 'units' does not have" in lines


def test_scenario_lists_are_sets_against_the_facts(game, capsys, monkeypatch):
    """compare `unordered:` the Allies' nations and zone list in another order are the rulebook's; a
    nation added is not, and is reported at the content's list."""
    edit(game, SCEN, "zones: [Midway Islands, Port Moresby, Singapore,", "zones: [Singapore, Port Moresby, Midway Islands,")
    edit(game, SCEN, "      nations: [UK, US]\n      zone_nations: [UK, US]\n      zones: [Landing Beach",
         "      nations: [US, UK, SU]\n      zone_nations: [US, UK]\n      zones: [Landing Beach")
    code, lines = check_copy(game, capsys, monkeypatch)
    facts = [line for line in lines if "[WE-FACT-SCENARIOS]" in line]
    assert facts == [f"{loc(game, SCEN, 'nations: [US, UK, SU]', '[')}: error[WE-FACT-SCENARIOS]: table 'scenarios': "
                     "scenario 'western-europe': allied.nations is ['US', 'UK', 'SU'], but the rulebook says "
                     "['UK', 'US']"], lines
