"""Steel Rain (content/steel-rain): computed record cards, rules as data, transcription checks.

Every rule is tested on a mutated copy of the content: the exact `path:line:col: error[RULE]` line.
The printed numbers are read back from the PDF after a weapon change.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
import yaml

from cardforge.cli import main
from conftest import check_copy, edit, loc, MM, cardforge, headlines, text_in_box

REPO = Path(__file__).resolve().parent.parent
STEEL = REPO / "content" / "steel-rain"
LAYOUTS = REPO / "layouts"


@pytest.fixture
def game(tmp_path):
    shutil.copytree(STEEL, tmp_path / "steel-rain")
    return tmp_path / "steel-rain"


def test_shipped_steel_rain_passes(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    code = main(["check", "content/steel-rain", "--strict"])
    _, err = capsys.readouterr()
    assert code == 0, err


def test_every_rule_cites_the_rulebook_and_has_a_mutation():
    """Every check and compare rule cites its section and is made to fail: by a mutation below (the exact
    diagnostic line) or by a case of the mutation suite that expects it (tests/mutations/steel-rain.yaml)."""
    rules = yaml.safe_load((STEEL / "rules.yaml").read_text("utf-8"))
    specs = rules["checks"] + rules["compare"]
    ids = {spec["id"] for spec in specs}
    assert all(spec["section"] for spec in specs)
    suite = yaml.safe_load((REPO / "tests" / "mutations" / "steel-rain.yaml").read_text("utf-8"))
    expected = {case.get("expect") for case in suite["cases"]}
    assert set(MUTATIONS) <= ids
    assert ids - set(MUTATIONS) - expected == set(), "rules without a mutation test"


def test_every_rulebook_table_is_held_against_its_own_transcription():
    """The rulebook's printed tables are facts of rules.yaml, each compared with the kit's table of the
    same rows, and a fact row the kit leaves out is reported there (the rows no design uses count)."""
    rules = yaml.safe_load((STEEL / "rules.yaml").read_text("utf-8"))
    compared = {spec["table"]: spec["fact"] for spec in rules["compare"] if "table" in spec}
    assert set(compared) == {"terrain", "to_hit", "to_damage", "profile_mod", "direct_fire", "scatter", "speed_weight",
                             "turn_multiplier", "vtol_landing", "aircraft_weapons", "propulsion", "armor", "equipment",
                             "infantry_weapons", "special_units", "turn_sequence"}
    facts = rules["facts"]
    assert len(facts["to_hit_table"]["value"]) == 30 and len(facts["equipment_table"]["value"]) == 13
    assert {"Gel Flamer", "Microwave Projector", "AVLB Bridge"} <= {r["system"] for r in facts["equipment_table"]["value"]}


def test_a_row_no_design_uses_is_checked(game, capsys, monkeypatch):
    """The Gel Flamer is on no record card: its weight is still the rulebook's."""
    edit(game, "tables/equipment.yaml", "{system: Gel Flamer, kind: weapon, weight: 10,", "{system: Gel Flamer, kind: weapon, weight: 12,")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert code == 1
    pos = loc(game, "tables/equipment.yaml", "system: Gel Flamer, kind: weapon, weight: 12", "12")
    assert f"{pos}: error[SR-RB-EQUIPMENT]: table 'equipment': system 'Gel Flamer': weight is 12, but the rulebook says 10" \
        in lines, "\n".join(lines)


# rule -> (edits [(file, old, new)], (file, line holding the finding, text it points at, nth), message start)
CARDS = "cards/vehicles.yaml"
MUTATIONS = {
    "SR-PROPULSION": ([(CARDS, "    propulsion: wheeled\n    armor: 1\n    weapons: [Chain Guns, Chemical Laser]",
                        "    propulsion: legs\n    armor: 1\n    weapons: [Chain Guns, Chemical Laser]")],
                      (CARDS, "propulsion: legs", "legs", 0),
                      "Light Recon Vehicle: a ground vehicle needs propulsion wheeled, tracked or hover, not 'legs'"),
    "SR-ARMOR": ([(CARDS, "    armor: 4\n", "    armor: 0\n")], (CARDS, "armor: 0", "0", 0),
                 "AVLB: armor 0 is outside 1 to 5"),
    "SR-WEAPON-COUNT": ([(CARDS, "weapons: [Rail Gun, Rail Gun, Chain Guns]",
                          "weapons: [Rail Gun, Rail Gun, Chain Guns, Chain Guns]")],
                        (CARDS, "weapons: [Rail Gun, Rail Gun, Chain Guns, Chain Guns]", "Chain Guns", 1),
                        "Bunker carries 4 weapon systems; at most 3 (repeats count)"),
    "SR-EXTRAS-COUNT": ([(CARDS, "extras: [AVLB Bridge]", "extras: [AVLB Bridge, Engineer Package]")],
                        (CARDS, "extras: [AVLB Bridge, Engineer Package]", "Engineer Package", 0),
                        "AVLB has 2 Extras packages; at most one"),
    "SR-WEAPON-TABLE": ([("cards/air.yaml", "weapons: [Anti-Tank Guided Missile, Anti-Tank Guided Missile, Chain Guns]",
                          "weapons: [Anti-Tank Guided Missile, Rail Gun, Chain Guns]")],
                        ("cards/air.yaml", "Rail Gun", "Rail Gun", 0),
                        "Heavy Attack Helicopter: 'Rail Gun' is not a weapon system of the Aircraft Weapons Table"),
    "SR-EXTRAS-TABLE": ([(CARDS, "extras: [AVLB Bridge]", "extras: [Rail Gun]")],
                        (CARDS, "extras: [Rail Gun]", "Rail Gun", 0),
                        "AVLB: 'Rail Gun' is not an Extras package of the Vehicle Weapons and Equipment Table"),
    "SR-FASCAM": ([(CARDS, "extras: [AVLB Bridge]", "extras: [FASCAM Package]")],
                  (CARDS, "extras: [FASCAM Package]", "FASCAM Package", 0),
                  "AVLB: FASCAM on a ground; only helicopters and VTOLs carry FASCAM"),
    "SR-CAPACITY": ([(CARDS, "    infantry_capacity: 2\n    source: \"Appendix B: Mechanized",
                      "    infantry_capacity: 9\n    source: \"Appendix B: Mechanized")],
                    (CARDS, "infantry_capacity: 9", "9", 0),
                    "Infantry Fighting Vehicle: infantry capacity 9 is outside 0 to 8"),
    "SR-ELINT-OPTION": ([(CARDS, "    weapons: [Chain Guns, Chemical Laser]\n",
                          "    weapons: [Chain Guns, Chemical Laser]\n    elint_option: doppelganger\n")],
                        (CARDS, "elint_option: doppelganger", "doppelganger", 0),
                        "Light Recon Vehicle: doppelganger without an ELINT package"),
    "SR-INFANTRY-LOADOUT": ([("cards/special.yaml", "weapons: [Small Arms, Mortar]", "weapons: [Small Arms, Mortar, SAM]")],
                            ("cards/special.yaml", "weapons: [Small Arms, Mortar, SAM]", "[", 0),
                            "Mortar Infantry: an infantry stand has Small Arms and at most one heavy weapon"),
    "SR-FAST-MOVER-WEIGHT": ([("game.yaml", "weight: 18, profile: 3, move: 100", "weight: 0, profile: 3, move: 100"),
                              ("cards/air.yaml", "weapons: [Air-to-Air Missiles]", "weapons: [Chain Guns]")],
                             ("cards/air.yaml", "weapons: [Chain Guns]\n", "[", 0) if False else
                             ("cards/air.yaml", "    weapons: [Chain Guns]\n    source: \"Fast", "[", 0),
                             "YAK-33 weighs 6 t; the Speed vs. Weight Table starts at 15 t"),
    "SR-NO-WEAPONS-AIR": ([("cards/air.yaml", "weapons: [Air-to-Air Missiles]", "weapons: []")],
                          ("cards/air.yaml", "    weapons: []\n    source: \"Fast", "[", 0),
                          "YAK-33 carries no weapon system"),
    "SR-CARRY": ([("cards/formations.yaml", "design: inf-mortar, count: 8", "design: inf-mortar, count: 10")],
                 ("cards/formations.yaml", "{element: Mortar Platoon, design: ifv", "{", 0),
                 "Mechanized Infantry Company, Mortar Platoon: the carriers hold 8 stands but the element has 10"),
    "SR-REPLACES": ([("cards/formations.yaml", "count: 5, replaces: Line Platoon}", "count: 5, replaces: Line Platon}")],
                    ("cards/formations.yaml", "replaces: Line Platon", "Line Platon", 0),
                    "Armored Cavalry Troop: 'Recon Platoon' replaces 'Line Platon', which the formation does not have"),
    "SR-TOHIT-MONOTONE": ([("tables/to-hit.yaml", "label: \"17\", close: 2, r2_10: 8, r11_20: 8",
                            "label: \"17\", close: 2, r2_10: 8, r11_20: 3")],
                          ("tables/to-hit.yaml", "label: \"17\"", "\"17\"", 0),
                          "To Hit row 17 is not non-decreasing with range"),
    "SR-TOHIT-PROFILE": ([("tables/to-hit.yaml", "{profile: 12, label: \"12\", close: 3, r2_10: 9", "{profile: 12, label: \"12\", close: 3, r2_10: 7")],
                         ("tables/to-hit.yaml", "{profile: 12, label", "12", 0),
                         "To Hit row 12: rows go down by 1 profile"),
    "SR-TODAMAGE-MONOTONE": ([("game.yaml", "{armor: 3, l1: 12, l2: 11", "{armor: 3, l1: 12, l2: 13")],
                             ("game.yaml", "{armor: 3, l1: 12", "3", 0),
                             "To Damage row Armor 3 must fall with Lethality"),
    "SR-SPEED-WEIGHT-MONOTONE": ([("tables/speed-weight.yaml", "label: \"41 to 50\", s20_30: 1, s31_40: 2",
                                   "label: \"41 to 50\", s20_30: 3, s31_40: 2")],
                                 ("tables/speed-weight.yaml", "label: \"41 to 50\"", "\"41 to 50\"", 0),
                                 "Speed vs. Weight row 41 to 50: turns must not fall"),
    "SR-SCATTER": ([("tables/scatter.yaml", "{roll: 4, distance: 3, direction: \"NE\"}",
                     "{roll: 4, distance: 10, direction: \"NE\"}")],
                   ("tables/scatter.yaml", "{roll: 4, distance: 10", "10", 0),
                   "Scatter roll 4: one row per d20 face in order"),
    "SR-WEAPON-TABLES-AGREE": ([("tables/direct-fire.yaml", "{system: Autocannon, weight: 5, profile: 2, range: 70",
                                 "{system: Autocannon, weight: 5, profile: 2, range: 75")],
                               ("tables/direct-fire.yaml", "{system: Autocannon", "Autocannon", 0),
                               "Autocannon differs between the Direct Fire table and the design table (5/+2/70/3)"),
    "SR-AIR-WEAPONS-AGREE": ([("tables/aircraft-weapons.yaml", "kind: weapon, weight: 9, profile: 3, range: 80",
                               "kind: weapon, weight: 9, profile: 3, range: 90")],
                             ("tables/aircraft-weapons.yaml", "system: Air-to-Air Missiles", "Air-to-Air Missiles", 0),
                             "Air-to-Air Missiles differs between the Aircraft Weapons table and the design table"),
    "SR-TERRAIN-ROWS": ([("tables/vtol-landing.yaml", "{terrain: Pavement, land: true}", "{terrain: Paved road, land: true}")],
                        ("tables/profile-mod.yaml", "{terrain: Pavement", "Pavement", 0),
                        "terrain row 5 is 'Pavement' here but 'Pavement' in the movement table and 'Paved road'"),
    "SR-ROLE": ([(CARDS, "    extras: [Engineer Package]\n", "")],
                ("cards/vehicles.yaml", "role: Combat Engineer (CEV)", "Combat Engineer (CEV)", 0),
                "Combat Engineer Vehicle: a Combat Engineer (CEV) needs an Engineer Package"),
    "SR-DRONE-STATS": ([("game.yaml", "{unit: Drone, profile: 1, armor: 1, move: 20", "{unit: Drone, profile: 1, armor: 1, move: 25")],
                       ("game.yaml", "{unit: Drone, profile: 1", "25", 0),
                       "Drone: the rulebook gives Profile 1, Armor 1 and 20 cm per Action"),
    "SR-DERIVED-CONSTANTS": ([("cards/air.yaml", "weapons: [Air-to-Air Missiles]", "weapons: [Autocannon]")],
                             ("rules.yaml", "  - id: SR-DERIVED-CONSTANTS", None, 0),
                             "the YAK-33 example (32 t, 65 cm/turn, 270 degrees: 2 x 2 = 4 turns) no longer holds"),
}


def _expected_pos(game: Path, where) -> str:
    rel, line, at, nth = where
    if rel == "rules.yaml":  # a game check points at its assert
        lines = (game / rel).read_text("utf-8").splitlines()
        start = next(i for i, text in enumerate(lines) if line in text)
        index = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("assert:"))
        text = lines[index]
        value = text.index(":") + 2  # the value, or its `>-` indicator
        return f"{game.name}/{rel}:{index + 1}:{value + 1}"
    if "\n" in line:  # a multi-line needle: the line of its last part
        text = (game / rel).read_text("utf-8")
        start = text.index(line)
        first_line = line.split("\n")[0]
        number = text[:start].count("\n") + 1
        lines = text.splitlines()
        return f"{game.name}/{rel}:{number}:{lines[number - 1].index(at, len(lines[number - 1]) - len(first_line)) + 1}"
    return loc(game, rel, line, at, nth)


@pytest.mark.parametrize("rule", sorted(MUTATIONS))
def test_rule_reports_a_mutated_copy(rule, game, capsys, monkeypatch):
    edits, where, message = MUTATIONS[rule]
    for rel, old, new in edits:
        edit(game, rel, old, new)
    code, lines = check_copy(game, capsys, monkeypatch)
    pos = _expected_pos(game, where)
    severity = "warning" if rule == "SR-NO-WEAPONS-AIR" else "error"
    wanted = f"{pos}: {severity}[{rule}]: {message}"
    assert any(line.startswith(wanted) for line in lines), "\n".join([wanted, "--- got:"] + lines)


def test_unknown_weapon_is_reported_once_at_its_line(game, capsys, monkeypatch):
    edit(game, CARDS, "weapons: [Rail Gun, Chain Guns]\n    source: \"Appendix B: main",
         "weapons: [Rail Gunn, Chain Guns]\n    source: \"Appendix B: main")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert code == 1
    assert lines == [f"{loc(game, CARDS, 'Rail Gunn', 'Rail Gunn')}: error[SR-WEAPON-TABLE]: Main Battle Tank: "
                     "'Rail Gunn' is not a weapon system of the Vehicle Weapons and Equipment Table"]


def test_computed_designs_match_the_tables():
    """The worked designs of SPEC 3.2.6, computed from the rulebook's tables."""
    from cardforge.diagnostics import Report
    from cardforge.prepare import prepare
    prepared = prepare(STEEL, Report(), LAYOUTS)
    cards = {card.id: card.data for card in prepared.game.cards()}
    expected = {"mbt": (85, 12, 7), "cev": (90, 15, 7), "avlb": (83, 12, 6), "ifv": (51, 12, 5), "apc": (38, 6, 5),
                "anti-tank": (46, 16, 4), "recon": (16, 5, 3), "recon-fo": (12, 5, 3), "spa": (25, 8, 3),
                "spa-hover": (44, 11, 4), "assault-hover": (48, 11, 5), "light-truck": (9, 3, 3),
                "heavy-truck": (16, 4, 4), "recon-buggy": (10, 4, 3), "tank-killer": (38, 12, 4),
                "bunker": (85, 14, 7), "yak-33": (32, 7, 3)}
    for design, (weight, profile, bleed) in expected.items():
        got = cards[design]
        assert (got["weight"], got["profile"], got["bleed_off"]) == (weight, profile, bleed), design
    # the rulebook's movement data points, from the authored Movement Table
    assert cards["recon-buggy"]["move"] == 16 and cards["air-defense"]["move"] == 16
    assert cards["recon-fo"]["drones"] == 4
    assert cards["mech-infantry"]["total_tons"] == 2 * 38 + 2 * 16 + 2 * 9 + 3 * 4 * 51 + 4 * 46 + 4 * 51


def _card_text(pdf_path: Path, manifest_path: Path, card_id: str, frame: str) -> str:
    manifest = json.loads(manifest_path.read_text("utf-8"))
    entry = next(c for c in manifest["cards"] if c["card"] == card_id)
    box = next(f["box"] for f in entry["frames"] if f["name"] == frame)
    with pdfplumber.open(pdf_path) as pdf:
        return text_in_box(pdf.pages[entry["page"] - 1], box)


def test_changing_a_weapon_changes_the_printed_weight_and_profile(game, tmp_path):
    """MBT: Rail Gun + Chain Guns -> Rail Gun + Autocannon. Weight 12+60+12+5 = 89 t (was 85), profile
    2+5+4+2 = 13 (was 12): the Propulsion Type, Armor and Weapons tables' values."""
    out = tmp_path / "out"
    result = cardforge("build", game, "--paper", "a4", "--out", out, "--layouts", LAYOUTS, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    folder = out / "steel-rain"
    pdf, manifest = folder / "steel-rain-cards-a4.pdf", folder / "steel-rain-cards-a4.manifest.json"
    assert _card_text(pdf, manifest, "mbt", "weight") == "85 t"
    assert _card_text(pdf, manifest, "mbt", "profile") == "12"
    edit(game, CARDS, "weapons: [Rail Gun, Chain Guns]\n    source: \"Appendix B: main",
         "weapons: [Rail Gun, Autocannon]\n    source: \"Appendix B: main")
    result = cardforge("build", game, "--paper", "a4", "--out", out, "--layouts", LAYOUTS, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _card_text(pdf, manifest, "mbt", "weight") == "89 t"
    assert _card_text(pdf, manifest, "mbt", "profile") == "13"
    assert "Autocannon" in _card_text(pdf, manifest, "mbt", "weapons")
    assert "8 cm/turn" in _card_text(pdf, manifest, "mbt", "move")  # 81-100 t tracked: 8 cm


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    """Steel Rain built for A4 and Letter."""
    root = tmp_path_factory.mktemp("steel-kit")
    result = cardforge("build", STEEL, "--out", root, cwd=REPO)
    assert result.returncode == 0, result.stderr
    return root / "steel-rain"


def _frame_lines(pdf_path: Path, manifest_path: Path, board: str, frame: str) -> list[list[str]]:
    """The words of one frame of a reference sheet, read from the PDF, as lines top to bottom."""
    manifest = json.loads(manifest_path.read_text("utf-8"))
    entry = next(r for r in manifest["references"] if r.get("board") == board or r.get("card") == board
                 or r.get("id") == board)
    x, y, w, h = next(f["box"] for f in entry["frames"] if f["name"] == frame)
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[entry["page"] - 1]
        top = page.height - (y + h) * MM
        words = page.crop((x * MM, top, (x + w) * MM, top + h * MM)).extract_words()
    lines: dict[int, list] = {}
    for word in words:
        lines.setdefault(round(word["top"]), []).append(word)
    return [[w["text"] for w in sorted(ws, key=lambda w: w["x0"])] for _, ws in sorted(lines.items())]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_reference_tables_print_the_rulebook_values(kit, paper):
    pdf, manifest = kit / f"steel-rain-references-{paper}.pdf", kit / f"steel-rain-references-{paper}.manifest.json"
    to_hit = _frame_lines(pdf, manifest, "ref-to-hit", "to-hit")
    rows = {line[0]: line[1:] for line in to_hit}
    # The rulebook's To Hit Table, rows 30+, 17 and 1 (steel-rain.txt)
    assert rows["30+"] == "2 6 7 7 8 8 9 9 10 11 12".split()
    assert rows["17"] == "2 8 8 9 10 10 11 12 13 14 15".split()
    assert rows["1"] == "8 10 11 12 13 14 15 16 17 19 20".split()
    assert to_hit[0] == ["Range", "(cm)"]  # the spanning header over the 11 range columns
    assert len(rows) == 32  # the spanning header, the header and 30 profiles
    damage = {line[0]: line[1:] for line in _frame_lines(pdf, manifest, "ref-terrain", "damage")}
    assert damage["1"] == ["6", "4", "3", "2", "Kill"]
    assert damage["5"] == ["20", "16", "13", "9", "6"]
    terrain = [" ".join(line) for line in _frame_lines(pdf, manifest, "ref-terrain", "movement")]
    assert "Deep water (>8 ft) -- 4 1 River Asslt -10 N" in terrain
    scatter = [" ".join(line) for line in _frame_lines(pdf, manifest, "ref-artillery", "scatter")]
    assert "5 6 cm NE 15 6 cm SW" in scatter  # split into two side-by-side blocks, as the rulebook prints it


CUT = (0.9, 0.0, 0.45)


def _cut_outlines(pdf_path: Path) -> list[tuple[int, float, float, float, float]]:
    """(page, x0, y0, width, height) in mm of every magenta cut line, read by pdfplumber."""
    out = []
    with pdfplumber.open(pdf_path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            for obj in page.curves + page.rects:
                colour = obj.get("stroking_color")
                if obj.get("stroke") and colour is not None and tuple(round(v, 3) for v in colour) == CUT:
                    out.append((number, obj["x0"] / MM, (page.height - obj["bottom"]) / MM,
                                (obj["x1"] - obj["x0"]) / MM, (obj["bottom"] - obj["top"]) / MM))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_burst_template_is_60_mm_across_in_the_pdf(kit, paper):
    pdf = kit / f"steel-rain-templates-{paper}.pdf"
    manifest = json.loads((kit / f"steel-rain-templates-{paper}.manifest.json").read_text("utf-8"))
    bursts = [r for r in manifest["templates"] if r["template"] == "burst-artillery"]
    assert len(bursts) == 4
    outlines = _cut_outlines(pdf)
    for record in bursts:
        x, y, w, h = record["outline"]
        found = [o for o in outlines if o[0] == record["page"] and abs(o[1] - x) < 0.05 and abs(o[2] - y) < 0.05]
        assert len(found) == 1, (record, outlines[:5])
        assert round(found[0][3], 1) == 60.0 and round(found[0][4], 1) == 60.0
    # every other piece too: the cut line is the size the data gives
    sizes = {"burst-mortar": (20, 20), "microwave-sweep": (50, 50), "gel-flamer": (30, 30), "smoke-artillery": (60, 60),
             "smoke-grenade": (20, 20), "smoke-screen": (60, 20), "block-mines": (20, 20), "fascam-artillery": (60, 60),
             "fascam-air": (200, 40), "avlb-bridge": (60, 20), "footbridge": (10, 10)}
    # (the heading wedge's arc peaks between pdfplumber's points; the build's own verifier measures it exactly)
    for record in manifest["templates"]:
        if record["template"] in sizes:
            x, y, w, h = record["outline"]
            found = [o for o in outlines if o[0] == record["page"] and abs(o[1] - x) < 0.05 and abs(o[2] - y) < 0.05]
            assert found and (round(found[0][3], 1), round(found[0][4], 1)) == sizes[record["template"]], record
    # the range stick: 0-125 cm in segments whose lengths add up to 1250 mm, continuous
    stick = sorted((r for r in manifest["templates"] if r["template"] == "range-stick"), key=lambda r: r["offset"])
    assert sum(r["outline"][2] for r in stick) == pytest.approx(1250.0)
    assert all(b["offset"] == pytest.approx(a["offset"] + a["outline"][2]) for a, b in zip(stick, stick[1:]))
    corridor = [r for r in manifest["templates"] if r["template"] == "strafing"]
    assert all(r["outline"][3] == 80.0 for r in corridor)


def test_verifier_measures_templates(kit, tmp_path, game, capsys, monkeypatch):
    """A PDF whose template no longer has the data's size, or was scaled, is reported."""
    from pypdf import PdfWriter, Transformation
    pdf = kit / "steel-rain-templates-a4.pdf"
    # 1. the data changed: the AVLB bridge (its width is authored, so no rule forbids it) is now 21 mm wide
    edit(game, "game.yaml", "shape: rect, width: 60mm, height: 20mm, quantity: 2", "shape: rect, width: 60mm, height: 21mm, quantity: 2")
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--layouts", str(LAYOUTS), "--printed", str(pdf)])
    err = capsys.readouterr().err
    assert code == 1
    assert "template 'avlb-bridge' was drawn 60.0 x 20.0 mm, but the data gives 60.0 x 21.0 mm" in err, err
    # 2. the PDF was scaled by 1 % after the build
    edit(game, "game.yaml", "height: 21mm, quantity: 2", "height: 20mm, quantity: 2")
    writer = PdfWriter(clone_from=str(pdf))
    for page in writer.pages:
        page.add_transformation(Transformation().scale(1.01, 1.01))
    scaled = tmp_path / "scaled.pdf"
    with open(scaled, "wb") as out:
        writer.write(out)
    shutil.copy(kit / "steel-rain-templates-a4.manifest.json", tmp_path / "scaled.manifest.json")
    code = main(["check", game.name, "--layouts", str(LAYOUTS), "--printed", str(scaled)])
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"template 'burst-artillery' \(copy \d\) should measure 60\.0 x 60\.0 mm, but its cut line in "
                     r"the PDF measures 60\.60 x 60\.60 mm", err), err


def test_numbered_series_per_side(kit):
    """`series: {from: 1, to: 30}` with two `variants` prints blips 1-30 for each side, each a
    manifest entry of its own, its number read back from the PDF."""
    manifest = json.loads((kit / "steel-rain-tokens-a4.manifest.json").read_text("utf-8"))
    blips = [r for r in manifest["tokens"] if r["card"] == "blip"]
    assert len(blips) == 60 and sorted(r["copy"] for r in blips) == list(range(1, 61))
    with pdfplumber.open(kit / "steel-rain-tokens-a4.pdf") as pdf:
        for record in blips:
            box = next(f["box"] for f in record["frames"] if f["name"] == "number")
            assert text_in_box(pdf.pages[record["page"] - 1], box) == str((record["copy"] - 1) % 30 + 1)
    fills = {r["copy"]: next(f for f in r["frames"] if f["name"] == "background") for r in blips}
    assert len(fills) == 60


def test_check_printed_reports_a_changed_derived_value(kit, game, capsys, monkeypatch):
    """The printed weight is a derived field: a weapon change makes the old PDF stale, and
    `check --printed` names the card and the frame, with the new value."""
    edit(game, CARDS, "weapons: [Rail Gun, Chain Guns]\n    source: \"Appendix B: main",
         "weapons: [Rail Gun, Autocannon]\n    source: \"Appendix B: main")
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name, "--layouts", str(LAYOUTS), "--printed", str(kit / "steel-rain-cards-a4.pdf")])
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"card 'mbt' \(front\), frame 'weight': .*85.*89", err), err
    assert re.search(r"card 'mbt' \(front\), frame 'profile': .*12.*13", err), err


def test_forms_have_write_in_fields_and_boxes(kit):
    """The blank record sheet: three blocks of the rulebook's fields, each a label and a rule to write on."""
    manifest = json.loads((kit / "steel-rain-references-a4.manifest.json").read_text("utf-8"))
    sheet = next(r for r in manifest["references"] if r["board"] == "form-record")
    names = {f["name"]: f for f in sheet["frames"]}
    for block in range(3):
        for field, label in (("name", "Name:"), ("type", "Type:"), ("weight", "Weight:"), ("profile", "Profile:"),
                             ("propulsion", "Propulsion:"), ("armor", "Armor:"), ("weapons", "Weapons:"),
                             ("extras", "Extras:"), ("stands", "Inf. Stands:"), ("overall", "Overall:")):
            assert names[f"blocks[{block}].{field}"]["text"] == label
        assert names[f"blocks[{block}].suppression"]["icons"] == {"box": 25}
    with pdfplumber.open(kit / "steel-rain-references-a4.pdf") as pdf:
        page = pdf.pages[sheet["page"] - 1]
        x, y, w, h = names["blocks[0].name"]["box"]
        # the rule to write on: a line along the bottom of the field, from the label to the frame's end
        rules = [ln for ln in page.lines if abs(ln["x1"] / MM - (x + w)) < 0.05
                 and abs((page.height - ln["top"]) / MM - (y + 0.8)) < 0.1]
        assert rules and (rules[0]["x1"] - rules[0]["x0"]) / MM > w * 0.7


def test_template_scope_points_at_the_templates_key(game, capsys, monkeypatch):
    """scope: template sees each template's lengths in mm; a finding points at the key in game.yaml, and
    a rule naming a template that does not exist is an error in rules.yaml."""
    edit(game, "game.yaml", "shape: circle, diameter: 60mm", "shape: circle, diameter: 30mm")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert code == 1
    pos = loc(game, "game.yaml", "diameter: 30mm", "30mm")
    assert any(line.startswith(f"{pos}: error[SR-RB-TEMPLATE]: Artillery burst: diameter 30.0, but the rulebook gives 60 "
                               "(Burst Radius: ") for line in lines), "\n".join(lines)
    edit(game, "game.yaml", "diameter: 30mm", "diameter: 60mm")
    edit(game, "rules.yaml", "    scope: template\n", "    scope: template\n    template: [burst-artilery]\n")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert code == 1
    assert any("error[E-RULES-REF]: unknown template 'burst-artilery'" in line for line in lines), "\n".join(lines)


# -- the facts of rules.yaml are the rulebook's: found in steel-rain.txt ---------------------------------

def _rulebook() -> str | None:
    from rulebook_sections import seeds_dir
    seeds = seeds_dir()
    return (seeds / "steel-rain.txt").read_text("utf-8") if seeds else None


def _plain(text: str) -> str:
    """The rulebook's words without markup and quotation marks, one space between words."""
    text = re.sub(r"</?i>|\*\*?|[\"“”]", "", text).replace("’", "'")
    return " ".join(text.split())


def test_every_quoted_fact_is_in_the_rulebook():
    text = _rulebook()
    if text is None:
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    plain = _plain(text)
    facts = yaml.safe_load((STEEL / "rules.yaml").read_text("utf-8"))["facts"]
    quoted = [(name, row.get("quote") or row.get("noun")) for name in ("template_sizes", "marker_numbers", "stated_moves",
                                                                       "appendix_b") for row in facts[name]["value"]]
    assert len(quoted) > 90
    for name, quote in quoted:
        for fragment in re.split(r"\s*(?:\.\.\.|; |: |\(|\))\s*", quote):
            fragment = _plain(fragment).strip(" ,")
            if fragment:
                assert fragment in plain, f"{name}: '{fragment}' is not in the rulebook"
    for name in ("turn_sequence",):
        for row in facts[name]["value"]:
            assert f"{row['step']}. {row['text']}" in plain
    for row in facts["formation_names"]["value"]:
        assert f"\n{row['name']}\n" in text


def _table_lines(text: str, title: str) -> list[list[str]]:
    """The rows of the table printed under `title`, as cells (markup removed, a leading '+' dropped)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title or line.startswith(title + "\t"))
    rows, i = [], start + 1
    while not lines[i].strip():
        i += 1
    while i < len(lines) and lines[i].strip():
        cells = lines[i].split("\t")
        cells = [re.sub(r"\s*<i>.*?</i>", "", cells[0]).strip(" *")] + [re.sub(r"</?i>", "", c).strip() for c in cells[1:]]
        rows.append([c[1:] if re.fullmatch(r"\+\d+", c) else c for c in cells])
        i += 1
    return rows


def test_every_table_fact_is_the_rulebooks_printed_table():
    """Each fact row is a line of the printed table: its key, then its values in the printed order."""
    text = _rulebook()
    if text is None:
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    facts = yaml.safe_load((STEEL / "rules.yaml").read_text("utf-8"))["facts"]
    weapons = ["weight", "profile", "range", "lethality"]
    printed = {  # fact -> (title, key, the fields printed after the key)
        "terrain_table": ("Terrain-Movement Cost Modifier Table", "terrain", ["wheeled", "tracked", "hover", "infantry"]),
        "to_hit_table": ("To Hit Table", "label", ["close", "r2_10", "r11_20", "r21_30", "r31_40", "r41_50", "r51_60",
                                                    "r61_70", "r71_80", "r81_90", "r91_100"]),
        "to_damage_table": ("To Damage Table", "armor", ["l1", "l2", "l3", "l4", "l5"]),
        "speed_weight_table": ("Speed vs. Weight Table", "label", ["s20_30", "s31_40", "s41_50", "s51_60", "s61_70",
                                                                   "s71_80", "s81_90", "s91_100"]),
        "direct_fire_table": ("Vehicle Direct Fire Weapons Table", "system", weapons),
        "aircraft_weapons_table": ("Aircraft Weapons Table", "system", weapons),
        "equipment_table": ("Vehicle Weapons and Equipment Table", "system", weapons),
        "infantry_weapons_table": ("Infantry Weapons and Equipment Table", "system", weapons[1:]),
        "vtol_landing_table": ("VTOL Landing Ability", "terrain", ["land"]),
        "profile_mod_table": ("Terrain Profile Modifier (Cover and Concealment)", "terrain", ["modifier"]),
    }
    aliases = {"Anti-Tank Guided Missile": ("Anti-Tank Guided Missile", "Anti-Tank Guided Missiles")}

    def shown(value) -> str:
        return {True: "Y", False: "N"}.get(value, str(value)) if isinstance(value, bool) else str(value)

    for name, (title, key, fields) in printed.items():
        lines = {row[0]: row[1:] for row in _table_lines(text, title)}
        rows = facts[name]["value"]
        assert len(rows) == len([k for k in lines if k not in ("", "Profile", "Terrain", "System", "Armor Value",
                                                               "Weight", "Terrain Type")]), name
        for row in rows:
            names = aliases.get(str(row[key]), (str(row[key]),))
            cells = next(lines[n] for n in names if n in lines)
            want = [shown(row[f]) for f in fields]
            got = cells[:len(fields)]
            if name == "profile_mod_table" and "infantry" in row and row["infantry"] is not None:
                want = [f"{row['modifier']} ({row['infantry']} for Infantry)"]
            if name == "infantry_weapons_table" and row["system"] == "Small Arms":
                want[0] = "--"
            assert got == want, f"{name}, {row[key]}: {want} but the rulebook prints {got}"
    scatter = " ".join(" ".join(r) for r in _table_lines(text, "Artillery Scatter Table (d20)"))
    for row in facts["scatter_table"]["value"]:
        assert re.search(rf"(?<!\d){row['roll']} {row['distance']}{row['direction']}(?![A-Z])", scatter), row
    for title, name, key in (("Propulsion Type", "propulsion_table", "type"), ("Armor", "armor_table", "value")):
        table = {r[0]: r[1:] for r in _table_lines(text, title)}
        head = table["Type" if key == "type" else "Value"]
        for i, row in enumerate(facts[name]["value"]):
            assert [head[i].lower(), table["Weight"][i], table["Profile"][i]] == \
                [str(row[key]).lower(), str(row["weight"]), str(row["profile"])], row
    for row in facts["turn_multiplier_table"]["value"]:
        assert f"{row['degrees']}\t{row['multiplier']}\t{row['example']}" in text


# -- Appendix B: "4 squads of heavy infantry" (issue 43) ---------------------------------------------

_AMPHIBIOUS_HEAVY = "{element: Line Platoon, times: 4, design: inf-heavy, count: 8, note: \"4 squads of heavy infantry\"}"


def _formation_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if "[SR-RB-FORMATION" in line]


def test_heavy_infantry_of_any_heavy_design_fills_the_amphibious_line_platoon(game, capsys, monkeypatch):
    # The rulebook's heavy infantry carries "a heavy weapon or Extras package, which include Chain Guns,
    # ATGM's, SAM's, mortars, or an ELINT or Engineer package": any of those stands is heavy infantry.
    edit(game, "cards/formations.yaml", _AMPHIBIOUS_HEAVY,
         "{element: Line Platoon, times: 4, design: inf-heavy, count: 2, note: \"MG squad\"}\n"
         "      - {element: Line Platoon, times: 4, design: inf-atgm, count: 2, note: \"ATGM squad\"}\n"
         "      - {element: Line Platoon, times: 4, design: inf-sam, count: 2, note: \"SAM squad\"}\n"
         "      - {element: Line Platoon, times: 4, design: inf-engineer, count: 2, note: \"engineer squad\"}")
    code, lines = check_copy(game, capsys, monkeypatch)
    assert _formation_lines(lines) == [], "\n".join(lines)


def test_heavy_infantry_stands_are_counted_together_and_light_infantry_is_not_heavy(game, capsys, monkeypatch):
    edit(game, "cards/formations.yaml", _AMPHIBIOUS_HEAVY,
         "{element: Line Platoon, times: 4, design: inf-mortar, count: 4}\n"
         "      - {element: Line Platoon, times: 4, design: inf-elint, count: 2}\n"
         "      - {element: Line Platoon, times: 4, design: inf-light, count: 2}")
    code, lines = check_copy(game, capsys, monkeypatch)
    found = _formation_lines(lines)
    mortar = loc(game, "cards/formations.yaml", "design: inf-mortar, count: 4", "4}", 0)
    light = loc(game, "cards/formations.yaml", "design: inf-light, count: 2}", "inf-light", 0)
    assert code == 1
    assert any(line.startswith(f"{mortar}: error[SR-RB-FORMATION]: Amphibious Assault Company, Line Platoon: "
                               "6 stands of heavy infantry (inf-mortar, inf-elint), but Appendix B gives 8")
               for line in found), "\n".join(lines)
    assert any(line.startswith(f"{light}: error[SR-RB-FORMATION]: Amphibious Assault Company, Line Platoon: "
                               "'inf-light' is not what Appendix B lists there") for line in found), "\n".join(lines)
