"""The coverage matrices (content/<game>/RULES.md): the rulebook, section by section, against rules.yaml.

Each document is a table: a section of the rulebook (named as tests/rulebook_sections.py reads it
from the rulebook), then what encodes it: rule ids in backticks, `schema: deck.field` for a
constraint held by a field's JSON Schema, "**not checkable from data:** why" or "**not yet:** why"
(cardforge/rules/coverage.py parses it; `cardforge rules --coverage GAME` prints it). For every game
whose RULES.md exists:
- every rule id it cites exists in rules.yaml, and every rule of rules.yaml is cited;
- every schema field it cites is a field of that deck in game.yaml;
- every row is mapped: rules, a schema field, or "not checkable" with a reason (100%);
- every section of the rulebook (../shared/seeds/) has its row, in the rulebook's order, and every
  row is a section, so a section left out is found.
"""
from __future__ import annotations

import shutil

import pytest
import yaml

from cardforge.diagnostics import Report
from cardforge.rules.coverage import RULE_ID, read_coverage
from conftest import REPO, cardforge
from rulebook_sections import PARSERS, rulebook_sections

GAMES = [game for game in PARSERS if (REPO / "content" / game / "RULES.md").is_file()]
PREFIX = {"bomber-boys": "BB", "iron-rain": "IR", "bombs-away": "BA", "steel-rain": "SR", "war-eagles": "WE"}


def coverage(game: str):
    report = Report()
    cov = read_coverage(REPO / "content" / game, report)
    return cov, report


@pytest.mark.parametrize("game", GAMES)
def test_every_row_cites_what_exists_and_every_rule_is_cited(game):
    cov, report = coverage(game)
    assert [d.headline() for d in report.items] == []
    assert cov.uncited == []
    assert all(rule.startswith(PREFIX[game] + "-") for row in cov.rows for rule in row.rules)


@pytest.mark.parametrize("game", GAMES)
def test_every_section_is_mapped(game):
    cov, _ = coverage(game)
    assert len(cov.rows) > 40
    assert [row.section for row in cov.rows if not row.mapped] == []
    assert cov.percent == 100.0


@pytest.mark.parametrize("game", GAMES)
def test_every_section_of_the_rulebook_has_its_row(game):
    sections = rulebook_sections(game)
    if sections is None:
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    documented = [row.section for row in coverage(game)[0].rows]
    assert set(sections) - set(documented) == set(), "sections of the rulebook without a row"
    assert set(documented) - set(sections) == set(), "rows that are no section of the rulebook"
    order = [s for s in sections if s in documented]
    assert documented == order, "rows not in the rulebook's order"


def test_the_section_readers_find_known_sections():
    expected = {"iron-rain": {"1.0", "3.21", "6.3e", "7.1d", "10.15a", "A.8", "A.35", "Tabled"},
                "bombs-away": {"I.A", "I.B.2", "II.B.3f", "V.A.1", "VI.D.4", "VII.A.2", "VII.B.2", "VII.G"},
                "war-eagles": {"GETTING STARTED", "1. Flip a Coin", "Units", "Pacific Theater:", "Russian Front:"},
                "steel-rain": {"Setup", "Appendix B: Tables of Organization and Equipment", "Armored Cavalry Troop",
                               "To Hit Table", "Speed vs. Weight Table", "Afterword"},
                "bomber-boys": {"# CREW CARDS", "## Mission Side"}}
    for game, known in expected.items():
        sections = rulebook_sections(game)
        if sections is None:
            pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
        assert known <= set(sections), game


def test_a_rule_missing_from_the_document_and_a_bad_row_are_found(tmp_path):
    """The cross-check can fail: a rule the document no longer cites, an unknown id, a row with no reason."""
    game = tmp_path / "iron-rain"
    shutil.copytree(REPO / "content" / "iron-rain", game)
    text = (game / "RULES.md").read_text("utf-8")
    assert "`IR-AMERICAN-ENTRY`" in text
    text = text.replace("`IR-AMERICAN-ENTRY`", "IR-AMERICAN-ENTRY").replace("`IR-YEAR-DECK`", "`IR-YEAR-DECKS`", 1)
    text = text.replace("| 2.1 | **not checkable from data:** a rule of play, not of the components. |", "| 2.1 | |")
    (game / "RULES.md").write_text(text + "| 2.1 | again |\n", "utf-8")
    report = Report()
    cov = read_coverage(game, report)
    assert "IR-AMERICAN-ENTRY" in cov.uncited
    said = "\n".join(d.headline(tmp_path) for d in report.items)
    assert "error[E-COVERAGE]: section '1.1' cites rule IR-YEAR-DECKS, which rules.yaml does not have" in said
    assert "section '2.1' names no rule, no schema field and no reason" in said
    assert "error[E-COVERAGE]: section '2.1' has two rows" in said
    assert "warning[W-COVERAGE-UNCITED]: rule IR-AMERICAN-ENTRY of rules.yaml is cited by no section" in said
    assert cov.percent < 100


def test_cardforge_rules_coverage_prints_the_matrix_and_the_percentage(tmp_path):
    result = cardforge("rules", "--coverage", "iron-rain", cwd=REPO)
    assert result.returncode == 0, result.stderr
    cov, _ = coverage("iron-rain")
    n = len(cov.rows)
    checkable = sum(1 for r in cov.rows if not (r.rules or r.schema))
    assert f"coverage: {n}/{n} sections mapped (100.0%); {n - checkable} by rules or schema, {checkable} not " \
           "checkable from data" in result.stdout
    assert "  3.1 " in result.stdout and "IR-STARTER-NATION" in result.stdout
    assert "not checkable from data:\n  1.0: a heading" in result.stdout
    # a game with a gap: exit 1, the unmapped section listed with its reason
    game = tmp_path / "content" / "iron-rain"
    shutil.copytree(REPO / "content" / "iron-rain", game)
    doc = game / "RULES.md"
    doc.write_text(doc.read_text("utf-8").replace(
        "| 2.1 | **not checkable from data:** a rule of play, not of the components. |",
        "| 2.1 | **not yet:** waiting for the errata. |"), "utf-8")
    result = cardforge("rules", "--coverage", "iron-rain", cwd=tmp_path)
    assert result.returncode == 1
    assert f"coverage: {n - 1}/{n} sections mapped" in result.stdout
    assert "unmapped:\n  2.1: waiting for the errata" in result.stdout
    result = cardforge("rules", "--coverage", str(REPO / "content" / "bomber-boys" / "cards"), cwd=tmp_path)
    assert result.returncode == 2 and "is not a game folder" in result.stderr


def test_espionage_is_explained_and_the_1942_raid_notes_its_conflict():
    doc = (REPO / "content" / "iron-rain" / "RULES.md").read_text("utf-8")
    intro = next(row.coverage for row in coverage("iron-rain")[0].rows if row.section == "Introduction")
    assert "**not yet:** espionage" in intro and "new rule of play" in intro
    targets = yaml.safe_load((REPO / "content" / "iron-rain" / "cards" / "targets.yaml").read_text("utf-8"))
    rouen = next(card for card in targets["cards"] if card["id"] == "rouen-1942")
    assert rouen["year"] == 1942 and rouen["attacker"] == "american"
    assert "Conflicts with 4.5" in rouen["note"] and "3.1" in rouen["note"]
    assert "IR-AMERICAN-ENTRY" in RULE_ID.findall(doc)


def test_squadron_leader_down_is_marked_changed():
    events = yaml.safe_load((REPO / "content" / "bomber-boys" / "cards" / "events.yaml").read_text("utf-8"))
    card = next(card for card in events["cards"] if card["id"] == "squadron-leader-down")
    assert card["changed"] == ["text"]
    assert "Evasive Action" in card["note"] and "Evade" in card["note"]


def test_bomber_boys_quoted_card_numbers_are_the_rulebook_s():
    """The facts a card's text is held to are the rulebook's words, not the content's."""
    from rulebook_sections import seeds_dir
    seeds = seeds_dir()
    if seeds is None:
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    book = " ".join((seeds / "bomber-boys.txt").read_text("utf-8").replace("*", "").split()).lower()
    rules = yaml.safe_load((REPO / "content" / "bomber-boys" / "rules.yaml").read_text("utf-8"))
    quoted = [row for row in rules["facts"]["printed_numbers"]["value"] if "section" not in row]
    assert len(quoted) >= 20
    assert [row["says"] for row in quoted if row["says"].lower() not in book] == []
