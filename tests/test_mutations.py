"""The mutation suites of every game (tests/mutations/<game>.yaml), run by tests/mutation_suite.py.

For each suite file present: at least 40 cases, at least 95% of them caught by `cardforge check`
(an error, and the `expect`ed code when given), and no valid edit flagged. The per-game table is
printed by `python bench/mutations.py`.
"""
from __future__ import annotations

import pytest

from mutation_suite import (MIN_CASES, Case, Edit, Result, Suite, SuiteError, load_suite, run_suite, suite_paths,
                            table)

PATHS = suite_paths()


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_suite_catches_the_mistakes_and_passes_the_valid_edits(path, tmp_path):
    suite = load_suite(path)
    result = run_suite(suite, tmp_path)
    print("\n" + table([result]))
    failures = result.failures()
    assert not failures, "\n".join(failures)


def test_every_game_suite_names_its_own_game():
    for path in PATHS:
        assert load_suite(path).game == path.stem, f"{path.name} is for another game"


def _write(tmp_path, text: str):
    path = tmp_path / "bomber-boys.yaml"
    path.write_text(text, "utf-8")
    return path


def test_a_suite_not_in_the_format_is_refused_with_the_reason(tmp_path):
    bad = {
        "game: nowhere\n": "content/nowhere is not a game folder",
        "game: bomber-boys\ncases:\n  - id: a\n    cite: x\n    file: game.yaml\n    find: a\n    replace: a\n":
            "'replace' is the same as 'find'",
        "game: bomber-boys\ncases:\n  - id: a\n    cite: x\n    file: ../x.yaml\n    find: a\n    replace: b\n":
            "must be a path inside the game folder",
        "game: bomber-boys\ncases:\n  - {id: a, cite: x, file: game.yaml, find: a, replace: b}\n"
        "valid:\n  - {id: a, cite: x, file: game.yaml, find: a, replace: c}\n": "ids used more than once: ['a']",
        "game: bomber-boys\ncases:\n  - {id: a, cite: x, file: game.yaml, find: a, replace: b, expcet: X}\n":
            "unknown keys ['expcet']",
        "game: bomber-boys\ncases:\n  - {id: a, file: game.yaml, find: a, replace: b}\n": "'cite' is required",
        "game: bomber-boys\ncases:\n  - {id: a, cite: x, edits: [], file: game.yaml}\n": "give either 'edits'",
    }
    for text, message in bad.items():
        with pytest.raises(SuiteError, match=message.replace("[", r"\[").replace("(", r"\(")):
            load_suite(_write(tmp_path, text))


def test_the_runner_counts_a_miss_a_wrong_code_a_missing_text_and_a_flagged_valid_edit(tmp_path):
    """The thresholds can fail: an edit of a comment is missed, a caught case with the wrong `expect`
    is missed, a `find` that is not in the file is reported, and a breaking 'valid' edit is flagged."""
    game = "bomber-boys"
    from mutation_suite import REPO
    text = (REPO / "content" / game / "game.yaml").read_text("utf-8")
    first_line = text.splitlines()[0]
    id_line = next(line for line in text.splitlines() if line.startswith("id:"))
    suite = Suite(tmp_path / "bomber-boys.yaml", game, cases=[
        Case("harmless", "none", (Edit("game.yaml", "\n", "\n# a comment\n"),)),
        Case("wrong-code", "none", (Edit("game.yaml", id_line, "id: 7"),), expect="NO-SUCH-CODE"),
        Case("absent", "none", (Edit("game.yaml", "no such text anywhere", "x"),)),
        Case("caught", "none", (Edit("game.yaml", id_line, "id: 7"),)),
    ], valid=[Case("breaks", "none", (Edit("game.yaml", id_line, "id: 7"),))])
    result = run_suite(suite, tmp_path)
    assert [o.caught for o in result.cases] == [False, False, False, True], first_line
    assert result.cases[2].problem == "'no such text anywhere' occurs fewer than 1 times in game.yaml"
    assert result.false_positives == 1
    failures = "\n".join(result.failures())
    assert f"4 cases, at least {MIN_CASES} are needed" in failures
    assert "1/4 caught (25%)" in failures
    assert "missed 'wrong-code' [none]:" in failures and "(expected NO-SUCH-CODE)" in failures
    assert "valid edit 'breaks' flagged" in failures
    # the copy is as it was after every case: the unedited game checks clean again
    from mutation_suite import GameCopy
    assert [d for d in GameCopy(game, tmp_path).check() if d["severity"] == "error"] == []
    assert "| bomber-boys | 1/4 | 25% | 1/1 |" in table([result])


def test_the_nth_occurrence_is_the_one_replaced(tmp_path):
    from mutation_suite import GameCopy
    copy = GameCopy("bomber-boys", tmp_path)
    path = copy.path / "game.yaml"
    before = path.read_text("utf-8")
    needle = "type: string"
    assert before.count(needle) >= 2
    assert copy.apply(Edit("game.yaml", needle, "type: STRING", nth=1)) is None
    after = path.read_text("utf-8")
    first = before.index(needle)
    assert after.index(needle) == first and after.index("type: STRING") == before.index(needle, first + 1)
    copy.restore()
    assert path.read_text("utf-8") == before


def test_results_table_totals(tmp_path):
    suite = Suite(tmp_path / "x.yaml", "x", [], [])
    assert "| x | 0/0 | 0% | 0/0 |" in table([Result(suite)])
