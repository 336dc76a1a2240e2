"""Property-based fuzzing (issue 17): hypothesis mutates copies of the shipped games and cardforge
must answer every mutation with a diagnostic, never a traceback.

Each example copies a game (with its layouts) into a sandbox, applies one mutation drawn from the
engine (tests/fuzzing.py) with hypothesis's own random generator (so it shrinks), and runs
`cardforge check` -- or, for some, `cardforge build --paper a4` -- in a forked child of this warm
process (tests/fuzzrun.py).  The properties: no traceback, no crash, no hang, exit code 0, 1 or 2,
every error at a position, nothing written outside the output folder, no file of the copy changed.

CI runs a bounded, derandomized number of examples per family; `bench/fuzz.py N` runs many more.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st

from fuzzing import ALL, FAMILIES, Mutation, make_sandbox, mutate, plan, pool
from fuzzrun import GOOD, Outcome, classify, execute, run_many, run_one, slot_root, snapshot, warm_up

EXAMPLES = int(os.environ.get("CARDFORGE_FUZZ_EXAMPLES", "7"))  # per family (10 families: about a minute)

# Classes found by the fuzzer whose fix is not on main yet, each as (class, signature, mutation) patterns.
# An outcome matching one is tolerated (and noted); any other bad outcome fails the test.
KNOWN: list[tuple[str, str, str]] = [
]


def known(outcome: Outcome) -> bool:
    return any(outcome.cls == cls and re.search(sig, outcome.signature) and re.search(mut, outcome.mutation)
               for cls, sig, mut in KNOWN)


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    warm_up(root, ALL)
    pristine = {game: make_sandbox(root / "pristine" / game, game).root for game in ALL}
    return root, pristine


def _run(root: Path, pristine: dict, game: str, rng, family: str, build: bool) -> Outcome:
    folder = slot_root(root, 0)  # where the warm-up checked each game (run_one runs in slot 0)
    shutil.rmtree(folder, ignore_errors=True)
    box = make_sandbox(folder, game, source=pristine[game])
    try:
        mutation = mutate(box, rng, family)
        note(mutation.describe())
        outcome = run_one(lambda report: execute(box.root, box.game, box.layouts, box.out, build))
        outcome.mutation = mutation.describe()
        return outcome
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), rng=st.randoms(use_true_random=False), build=st.integers(0, 9).map(lambda n: n == 0))
def test_mutated_game_gets_diagnostics_not_a_traceback(fuzz_root, family, data, rng, build):
    root, pristine = fuzz_root
    game = data.draw(st.sampled_from(pool(family)), label="game")
    outcome = _run(root, pristine, game, rng, family, build)
    if outcome.cls in GOOD or known(outcome):
        return
    pytest.fail(f"{outcome.cls}: {outcome.signature}\n  mutation: {outcome.mutation}\n  command: cardforge "
                f"{outcome.command}\n{outcome.detail}", pytrace=False)


# -- the fuzzer itself: each bad outcome is seen (a fuzzer that cannot fail is no test) ---------------

def test_same_seed_same_mutation(tmp_path):
    made = []
    for n in (1, 2):
        game, build, family, rng = plan(4242)
        box = make_sandbox(tmp_path / str(n), game)
        mutation = mutate(box, rng, family)
        made.append((mutation, snapshot(box.root)))
    assert made[0] == made[1]
    assert isinstance(made[0][0], Mutation) and made[0][0].describe()


def test_every_family_changes_the_copy(tmp_path):
    import random
    for n, family in enumerate(FAMILIES):
        box = make_sandbox(tmp_path / family, "bomber-boys")
        before = snapshot(box.root)
        mutation = mutate(box, random.Random(n), family)
        assert mutation.family == family
        assert snapshot(box.root) != before, mutation.describe()


def _tasks(*fns):
    return [(n, lambda report, fn=fn: fn()) for n, fn in enumerate(fns)]


def test_runner_sees_crash_hang_and_traceback():
    def crash():
        os.kill(os.getpid(), signal.SIGSEGV)

    def spin():  # a hang in computation: judged on its CPU time
        while True:
            pass

    def sleep():  # a hang waiting on nothing: caught by the wall-clock cap
        time.sleep(60)

    def ok():
        return Outcome("ok", 0)

    outcomes = {o.key: o for o in run_many(_tasks(crash, spin, sleep, ok), jobs=4, timeout=1, wall=6)}
    assert (outcomes[0].cls, outcomes[0].signature) == ("CRASH", "signal SIGSEGV")
    assert (outcomes[1].cls, outcomes[1].signature.split(" (")[0]) == ("HANG", "past 1 s of CPU"), outcomes[1]
    assert outcomes[1].cpu > 0.9
    assert outcomes[2].cls == "HANG" and outcomes[2].signature.startswith("killed at the wall-clock cap"), outcomes[2]
    assert outcomes[2].cpu < 1
    assert outcomes[3].cls == "ok"


def test_classify():
    root = Path(".")
    trace = ('Traceback (most recent call last):\n  File "/x/cardforge/render/face.py", line 3, in draw\n'
             'KeyError: 1\n')
    assert classify(None, "", trace, [], root).cls == "TRACEBACK"
    assert classify(1, "printed\n" + trace, "", [], root).cls == "TRACEBACK"
    assert classify(1, "cardforge: error[E-X]: boom\n", "", [], root).cls == "NO-POSITION"
    assert classify(1, "a.yaml:3:4: error[E-X]: boom\n", "", [], root).cls == "diagnosed"
    assert classify(1, "a.xlsx:Crew!B12: error[E-X]: boom\n", "", [], root).cls == "diagnosed"
    assert classify(1, "warning only\n", "", [], root).cls == "BAD-EXIT"
    assert classify(3, "", "", [], root).cls == "BAD-EXIT"
    assert classify(0, "", "", ["open /etc/x"], root).cls == "ESCAPE"
    assert classify(2, "cardforge: error: usage", "", [], root).cls == "usage"


def test_execute_sees_a_write_outside_and_a_changed_source(tmp_path, monkeypatch):
    box = make_sandbox(tmp_path / "box", "bombs-away")

    def writes_outside(argv):
        (tmp_path / "escaped.txt").write_text("x")
        return 0, "", ""

    def changes_source(argv):  # in another process, so that only the hashes can see it
        subprocess.run(["sh", "-c", f"echo changed >> '{box.game / 'game.yaml'}'"], check=True)
        return 0, "", ""

    import fuzzrun
    for fn, expected in ((writes_outside, "escaped.txt"), (changes_source, "changed content/bombs-away/game.yaml")):
        def task(report, fn=fn):
            fuzzrun.run_cardforge = fn
            return execute(box.root, box.game, box.layouts, box.out, build=False)
        outcome = run_one(task)
        assert outcome.cls == "ESCAPE" and expected in outcome.detail, outcome


def test_the_write_watch_places_a_name_removed_within_an_open_folder_in_that_folder(tmp_path):
    """shutil.rmtree removes a folder's files by name relative to the open folder (dir_fd): a
    staging folder's leftovers removed so are inside the output folder, not in the working folder
    (bench/fuzz.py seed 13752 was reported as an ESCAPE for that)."""
    from fuzzrun import WriteWatch
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    (out / ".stage").mkdir(parents=True)
    elsewhere.mkdir()
    watch = WriteWatch([out])
    watch.active = True
    inside, outside = os.open(out / ".stage", os.O_RDONLY), os.open(elsewhere, os.O_RDONLY)
    try:
        watch("os.remove", (".manifest-cards-x.tmp", inside))
        watch("os.rmdir", ("sub", inside))
        assert watch.escapes == []
        watch("os.remove", (".manifest-cards-x.tmp", outside))
        watch("os.remove", (str(elsewhere / "a.pdf"), -1))
        assert watch.escapes == ["os.remove .manifest-cards-x.tmp", f"os.remove {elsewhere / 'a.pdf'}"]
    finally:
        os.close(inside)
        os.close(outside)
