"""The coverage documents (content/<game>/RULES.md): the rulebook, section by section, against rules.yaml.

Each document is a table: a heading or section number of the rulebook, then what encodes it: rule ids
in backticks, `schema: deck.field` for a constraint held by a field's JSON Schema, "**not checkable from
data:** why" or "**not yet:** why". The tests parse it so that it cannot rot:
- every rule id it cites exists in rules.yaml, and every rule of rules.yaml is cited;
- every schema field it cites is a field of that deck in game.yaml;
- every row says something: ids, a schema field, or one of the two phrases with a reason;
- every heading (Bomber Boys) or numbered section (Iron Rain) of the rulebook has its row, read from
  the rulebook itself (../shared/seeds/), so a section left out is found.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
GAMES = {"bomber-boys": "BB", "iron-rain": "IR"}
ROW = re.compile(r"^\|(?P<section>[^|]+)\|(?P<coverage>.+)\|\s*$")
RULE_ID = re.compile(r"`([A-Z]{2,}(?:-[A-Z0-9]+)+)`")
SCHEMA = re.compile(r"`schema: ([a-z0-9-]+)\.([a-z0-9_]+)`")
PHRASES = ("**not checkable from data:**", "**not yet:**")


def seeds_dir() -> Path | None:
    """The rulebooks: ../shared/seeds beside the main checkout (worktrees live one level deeper)."""
    for base in (REPO.parent, REPO.parent.parent):
        if (base / "shared" / "seeds" / "iron-rain.txt").is_file():
            return base / "shared" / "seeds"
    return None


def rows(game: str) -> list[tuple[str, str]]:
    text = (REPO / "content" / game / "RULES.md").read_text("utf-8")
    out = []
    for line in text.splitlines():
        match = ROW.match(line)
        if match and not set(match["section"].strip()) <= set("-") and match["section"].strip() not in (
                "Heading", "Section"):
            out.append((match["section"].strip(), match["coverage"].strip()))
    return out


def rule_ids(game: str) -> set[str]:
    rules = yaml.safe_load((REPO / "content" / game / "rules.yaml").read_text("utf-8"))
    ids = {rule["id"] for kind in ("checks", "recipes", "references", "hidden_backs") for rule in rules.get(kind) or []}
    glossary = rules.get("glossary") or {}
    ids |= {glossary[key] for key in ("id",) if key in glossary}
    if glossary.get("actions"):
        ids.add(glossary["actions"]["id"])
    return ids


def deck_fields(game: str) -> dict[str, set[str]]:
    data = yaml.safe_load((REPO / "content" / game / "game.yaml").read_text("utf-8"))
    return {deck["id"]: set(deck.get("fields") or {}) for key in ("decks", "tokens") for deck in data.get(key) or []}


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_cited_exists_and_every_rule_is_cited(game):
    cited = {rule for _, coverage in rows(game) for rule in RULE_ID.findall(coverage)}
    ids = rule_ids(game)
    assert cited - ids == set(), f"{game}/RULES.md cites rules that rules.yaml does not have"
    assert ids - cited == set(), f"rules of {game}/rules.yaml that RULES.md does not cite"
    assert all(rule.startswith(GAMES[game] + "-") for rule in cited)


@pytest.mark.parametrize("game", GAMES)
def test_every_schema_field_cited_exists(game):
    fields = deck_fields(game)
    for section, coverage in rows(game):
        for deck, field in SCHEMA.findall(coverage):
            assert deck in fields, f"{section}: no deck '{deck}'"
            assert field in fields[deck], f"{section}: deck '{deck}' has no field '{field}'"


@pytest.mark.parametrize("game", GAMES)
def test_every_row_is_accounted_for(game):
    found = rows(game)
    assert len(found) > 40
    for section, coverage in found:
        said = bool(RULE_ID.search(coverage) or SCHEMA.search(coverage))
        for phrase in PHRASES:
            if phrase in coverage:
                reason = coverage.split(phrase, 1)[1].split("**")[0]
                assert len(reason.split()) >= 2, f"{section}: '{phrase}' without a reason"
                said = True
        assert said, f"{section}: neither rule ids, a schema field, nor 'not checkable from data' / 'not yet'"
    sections = [section for section, _ in found]
    assert len(sections) == len(set(sections)), "a section has two rows"


def test_every_heading_of_bomber_boys_has_its_row():
    seeds = seeds_dir()
    if seeds is None:
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    headings = {line.strip() for line in (seeds / "bomber-boys.txt").read_text("utf-8").splitlines()
                if line.startswith("#")}
    documented = {section for section, _ in rows("bomber-boys")}
    assert headings - documented == set()
    assert documented - headings == set()


def iron_rain_sections(text: str) -> list[str]:
    """Numbered sections (1.0, 3.21, 10.15a, A.31) and the lettered items under them (6.3a, 7.1d)."""
    sections: list[str] = []
    last = None
    for line in text.splitlines():
        match = re.match(r"^(\d+\.\d+[a-z]?|A\.\d+)(?=[\s\-–])", line)
        if match:
            last = match.group(1)
            if last not in sections:
                sections.append(last)
            continue
        letter = re.match(r"^([a-e])\. ", line)
        if letter and last and re.fullmatch(r"\d+\.\d+", last):
            sections.append(last + letter.group(1))
    return sections


def test_every_numbered_section_of_iron_rain_has_its_row():
    seeds = seeds_dir()
    if seeds is None:
        pytest.skip("the rulebooks (../shared/seeds) are not beside this checkout")
    sections = iron_rain_sections((seeds / "iron-rain.txt").read_text("utf-8"))
    assert {"1.0", "3.21", "6.3e", "7.1d", "10.15a", "A.8", "A.35"} <= set(sections)
    # The unnumbered headings of the rulebook.
    sections += ["Introduction", "Card Types", "Tabled", "A. Leadership/Aces"]
    documented = [section for section, _ in rows("iron-rain")]
    assert set(sections) - set(documented) == set()
    assert set(documented) - set(sections) == set()
    assert documented == [s for s in documented if s in sections]


def test_a_rule_missing_from_the_document_is_found(tmp_path):
    """The cross-check can fail: a rules.yaml with one rule more than the document cites."""
    text = (REPO / "content" / "iron-rain" / "RULES.md").read_text("utf-8")
    cited = set(RULE_ID.findall(text))
    assert "IR-AMERICAN-ENTRY" in cited
    without = text.replace("`IR-AMERICAN-ENTRY`", "IR-AMERICAN-ENTRY")
    assert rule_ids("iron-rain") - set(RULE_ID.findall(without)) == {"IR-AMERICAN-ENTRY"}


def test_espionage_is_explained_and_the_1942_raid_notes_its_conflict():
    doc = (REPO / "content" / "iron-rain" / "RULES.md").read_text("utf-8")
    intro = next(coverage for section, coverage in rows("iron-rain") if section == "Introduction")
    assert "**not yet:** espionage" in intro and "new rule of play" in intro
    targets = yaml.safe_load((REPO / "content" / "iron-rain" / "cards" / "targets.yaml").read_text("utf-8"))
    rouen = next(card for card in targets["cards"] if card["id"] == "rouen-1942")
    assert rouen["year"] == 1942 and rouen["attacker"] == "american"
    assert "Conflicts with 4.5" in rouen["note"] and "3.1" in rouen["note"]
    assert "IR-AMERICAN-ENTRY" in doc


def test_squadron_leader_down_is_marked_changed():
    events = yaml.safe_load((REPO / "content" / "bomber-boys" / "cards" / "events.yaml").read_text("utf-8"))
    card = next(card for card in events["cards"] if card["id"] == "squadron-leader-down")
    assert card["changed"] == ["text"]
    assert "Evasive Action" in card["note"] and "Evade" in card["note"]
