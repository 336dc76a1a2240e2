"""Rulebook facts (`facts:` in rules.yaml) and `compare:` rules holding the content against them,
cell by cell: every finding is the exact headline a user sees, at the content's path:line:col."""
from __future__ import annotations

import pytest

from conftest import check_copy, make_game

GAME = """\
id: tiny
name: Tiny
decks:
  - id: crew
    cards: cards/crew.yaml
    front: front
    fields:
      title: {type: string}
      position: {type: integer}
      steps: {type: array, items: {type: string}}
tables:
  scores:
    key: band
    fields:
      band: {type: string}
      low: {type: integer}
      high: {type: integer}
      result: {type: string}
    rows:
      - {band: a, low: 0, high: 2, result: Utter Disappointment}
      - {band: b, low: 3, high: 9, result: Good Show}
      - {band: c, low: 10, high: 10, result: Perfect Performance}
boards:
  - id: mat
    name: Mat
    size: {width: 100mm, height: 100mm}
    layout: mat
    data:
      sequence:
        - {step: "1", text: "Axis Deploys Forces face down"}
        - {step: "2", text: "Allied Deploys Forces face down"}
        - {step: "3", text: "Both Players Execute Combat"}
"""

CREW = """\
cards:
  - {id: pilot, title: Pilot, position: 3, steps: [draw, act, score]}
  - {id: navigator, title: Navigator, position: 2, steps: [draw, act, score]}
"""

RULES = """\
facts:
  scores:
    section: "Scoring table"
    value:
      - {band: a, low: 0, high: 2, result: Utter Disappointment}
      - {band: b, low: 3, high: 9, result: Good Show}
      - {band: c, low: 10, high: 10, result: Perfect Performance, section: "Scoring: a perfect 10"}
  turn:
    section: "II.B The Turn Sequence"
    value:
      - {step: "1", title: Axis Deploys Forces}
      - {step: "2", title: Allied Deploys Forces}
      - {step: "3", title: Both Players Execute Combat}
  positions:
    section: "Crew: Navigator is position 2, Pilot 3"
    value:
      - {title: Navigator, position: 2}
      - {title: Pilot, position: 3}
  phases:
    section: "Turn: draw, act, score"
    value: [draw, act, score]
  crew_cards:
    section: "Components: 2 crew cards"
    value: 2
compare:
  - id: TT-SCORES
    section: "Scoring table"
    fact: scores
    table: scores
    key: band
    label: band
  - id: TT-TURN
    section: "II.B"
    fact: turn
    board: mat
    data: sequence
    key: step
    fields: {step: step}
    contains: [title]
    label: step
  - id: TT-POSITIONS
    section: "Crew"
    fact: positions
    group: crew
    key: title
    order: false
  - id: TT-PHASES
    section: "Turn"
    fact: phases
    card: pilot
    field: steps
    label: phase
checks:
  - id: TT-CREW-COUNT
    section: "Components"
    scope: game
    assert: "count(groups.crew) == facts.crew_cards"
    message: "{{ count(groups.crew) }} crew cards; the rulebook has {{ facts.crew_cards }}"
groups:
  crew: {deck: crew}
"""

FRONT = "frames:\n  t: {type: text, x: 1mm, y: 1mm, width: 50mm, height: 8mm, text: \"{{ card.title }}\"}\n"


def _game(tmp_path, game=GAME, crew=CREW, rules=RULES):
    # the board's `text` compared against the fact's `title` (contains): map it
    rules = rules.replace("fields: {step: step}\n    contains: [title]", "fields: {step: step, title: text}\n"
                          "    contains: [title]")
    return make_game(tmp_path, game_yaml=game, cards_yaml=None, layout_yaml=FRONT, back_layout_yaml=None,
                     files={"rules.yaml": rules, "cards/crew.yaml": crew,
                            "layouts/mat.yaml": "frames:\n  t: {type: text, x: 1mm, y: 1mm, width: 50mm, height: 8mm, "
                                                "text: Mat}\n"})


def _check(tmp_path, capsys, monkeypatch, **kw):
    game = _game(tmp_path, **kw)
    return check_copy(game, capsys, monkeypatch)


def test_content_that_matches_the_facts_is_clean(tmp_path, capsys, monkeypatch):
    code, found = _check(tmp_path, capsys, monkeypatch)
    assert (code, found) == (0, [])


# Each case: what the designer changed (in game.yaml, or in the crew cards) and the exact headlines.
FINDINGS = {
    "a changed cell, at the content's cell": (
        {"game": ("high: 9, result: Good Show", "high: 8, result: Good Show")},
        ["tiny/game.yaml:21:33: error[TT-SCORES]: table 'scores': band 'b': high is 8, but the rulebook says 9"]),
    "a row no piece uses is still compared: dropped, it is missing": (
        {"game": ("      - {band: c, low: 10, high: 10, result: Perfect Performance}\n", "")},
        ["tiny/game.yaml:20:7: error[TT-SCORES]: table 'scores' has no band 'c'; the rulebook's table has it "
         "(band: 'c', low: 10, high: 10, result: 'Perfect Performance')"]),
    "a row the rulebook lacks": (
        {"game": ("      - {band: c,", "      - {band: d, low: 11, high: 12, result: More}\n      - {band: c,")},
        ["tiny/game.yaml:22:16: error[TT-SCORES]: table 'scores': band 'd' is not in the rulebook's table "
         "('a', 'b', 'c')"]),
    "a row given twice": (
        {"game": ('        - {step: "3",', '        - {step: "2", text: "Allied Deploys Forces again"}\n'
                                          '        - {step: "3",')},
        ["tiny/game.yaml:32:18: error[TT-TURN]: board 'mat' sequence: step '2' is there twice (rows 2 and 3); the "
         "rulebook has it once"]),
    "the order of a sequence": (
        {"game": ('        - {step: "1", text: "Axis Deploys Forces face down"}\n'
                  '        - {step: "2", text: "Allied Deploys Forces face down"}\n',
                  '        - {step: "2", text: "Allied Deploys Forces face down"}\n'
                  '        - {step: "1", text: "Axis Deploys Forces face down"}\n')},
        ["tiny/game.yaml:31:18: error[TT-TURN]: board 'mat' sequence: step '1' comes after step '2', but the "
         "rulebook puts it before: '1', '2', '3'"]),
    "printed text must contain the rulebook's words": (
        {"game": ('"Allied Deploys Forces face down"', '"Allied Builds Forces"')},
        ["tiny/game.yaml:31:29: error[TT-TURN]: board 'mat' sequence: step '2': text is 'Allied Builds Forces', "
         "which does not say 'Allied Deploys Forces' as the rulebook does"]),
    "the rulebook's words as whole words, not inside others (a cost of 14 does not say 4)": (
        {"game": ('"Allied Deploys Forces face down"', '"Allied Deploys Forcesless"')},
        ["tiny/game.yaml:31:29: error[TT-TURN]: board 'mat' sequence: step '2': text is 'Allied Deploys "
         "Forcesless', which does not say 'Allied Deploys Forces' as the rulebook does"]),
    "the cards of a group, and a list in one card": (
        {"crew": ("position: 3, steps: [draw, act, score]", "position: 4, steps: [draw, score, act]")},
        ["tiny/cards/crew.yaml:2:41: error[TT-POSITIONS]: group 'crew': row 'Pilot': position is 4, but the "
         "rulebook says 3",
         "tiny/cards/crew.yaml:2:58: error[TT-PHASES]: card 'pilot' steps: phase 2 is 'score', but the rulebook "
         "has 'act' there",
         "tiny/cards/crew.yaml:2:65: error[TT-PHASES]: card 'pilot' steps: phase 3 is 'act', but the rulebook "
         "has 'score' there"]),
}


@pytest.mark.parametrize("case", FINDINGS)
def test_compare_reports_each_difference_at_the_content(case, tmp_path, capsys, monkeypatch):
    edits, expected = FINDINGS[case]
    texts = {"game": GAME, "crew": CREW}
    for which, (old, new) in edits.items():
        assert old in texts[which]
        texts[which] = texts[which].replace(old, new)
    code, found = _check(tmp_path, capsys, monkeypatch, game=texts["game"], crew=texts["crew"])
    assert code == 1
    assert found == expected


def test_a_number_stated_as_a_fact_is_read_by_a_check(tmp_path, capsys, monkeypatch):
    crew = CREW + "  - {id: gunner, title: Gunner, position: 5, steps: [draw, act, score]}\n"
    code, found = _check(tmp_path, capsys, monkeypatch, crew=crew)
    assert "error[TT-CREW-COUNT]: 3 crew cards; the rulebook has 2" in "\n".join(found)
    assert any("error[TT-POSITIONS]: group 'crew': row 'Gunner' is not in the rulebook's table" in f for f in found)


def test_mistakes_in_facts_and_compare_rules_are_reported_in_rules_yaml(tmp_path, capsys, monkeypatch):
    rules = (RULES.replace('== facts.crew_cards"', '== facts.crew_card"')
             .replace("    fact: positions\n", "    fact: positons\n")
             .replace("  crew_cards:\n", "  unused:\n    section: \"nowhere at all\"\n    value: 1\n  crew_cards:\n"))
    code, found = _check(tmp_path, capsys, monkeypatch, rules=rules)
    text = "\n".join(found)
    assert "tiny/rules.yaml:22:3: warning[W-FACT-UNUSED]: fact 'unused' is read by no rule" in text
    assert "error[E-RULES-REF]: unknown fact 'positons'" in text
    assert "error[E-RULES-REF]: unknown fact 'crew_card'" in text
