#!/usr/bin/env python3
"""Benchmark: what the accessibility checks (`cardforge check --access`) cost.

    python bench/access.py                          # every content/*/game.yaml, 3 runs each
    python bench/access.py content/war-eagles --runs 5
    python bench/access.py --baseline ../main       # also `check` with another checkout's code

For each game it runs, as fresh processes the way a user does (`python -m cardforge check GAME`):

- check: the plain check, the user's disk cache warm (the save-loop's check; `--access` is off by
  default, so this is what every save costs);
- baseline (with --baseline DIR): the same plain check with the code of another checkout (its
  folder put first on PYTHONPATH, a disk cache of its own), run by turns with this tree's, for
  "today's time" against this tree's;
- access warm: `check --access`, the game unchanged, every face's measurement from the cache;
- cold: the plain check with an empty disk cache for every run (every face laid out afresh);
- access cold: `check --access` with an empty disk cache for every run: every face drawn twice and
  rendered by PDFium as well (the first check after installing or upgrading, or a kit's first look).

It prints the median wall time and the median CPU time (user + system of the child: on a loaded
machine the wall time is inflated and noisy, the CPU time much less so) of each, the number of
faces measured and the warnings `--access` added.  Targets (issue 42): the plain warm check within
10% of the baseline's, and a cold `check --access` of War Eagles under 15 s: by wall time, or, on a
machine loaded beyond its cores (the load average is printed), by CPU time, which is what the wall
time of a lone process on an idle machine is (the checks run in one process and wait on nothing).

cardforge's modules are byte-compiled first (`compileall`), as `pip install` leaves them.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COLD_TARGET_S = 15.0
WARM_MARGIN = 0.10


def games(paths: list[str]) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p.parent for p in (REPO / "content").glob("*/game.yaml"))


def run_check(game: Path, access: bool, cache: str | None, code: Path | None = None) -> tuple[float, float, list]:
    """(wall s, CPU s, diagnostics) of one `cardforge check` process."""
    env = dict(os.environ)
    if cache is not None:
        env["CARDFORGE_CACHE"] = cache
    if code is not None:
        env["PYTHONPATH"] = str(code) + os.pathsep + env.get("PYTHONPATH", "")
    args = [sys.executable, "-m", "cardforge", "check", str(game), "--format", "json"] + (["--access"] if access else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(args, cwd=str(REPO), capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        items = json.loads(result.stdout or "[]")
    except ValueError:
        items = []
    return wall, cpu, items


def timed(runs: int, one) -> tuple[float, float, list]:
    """Median wall and CPU time of `runs` calls of `one()` (after one call that warms the cache), and
    the last call's diagnostics."""
    one()
    results = [one() for _ in range(runs)]
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results), results[-1][2])


def interleaved(runs: int, game: Path, cache: str | None, baseline: Path) -> tuple[tuple, tuple]:
    """The plain check with this tree's code and with the baseline's, run by turns (so that both see
    the same load), each with a disk cache of its own (a face's results are kept under a key of the
    code: one cache for both would be rewritten by each run), each warmed by one run first."""
    own = tempfile.mkdtemp(prefix="cardforge-access-baseline-")
    try:
        run_check(game, False, cache)
        run_check(game, False, own, baseline)
        mine, theirs = [], []
        for _ in range(runs):
            mine.append(run_check(game, False, cache))
            theirs.append(run_check(game, False, own, baseline))
    finally:
        shutil.rmtree(own, ignore_errors=True)

    def median(results):
        return statistics.median(r[0] for r in results), statistics.median(r[1] for r in results), results[-1][2]
    return median(mine), median(theirs)


def cold(runs: int, game: Path, access: bool) -> tuple[float, float, list]:
    results = []
    for _ in range(runs):
        folder = tempfile.mkdtemp(prefix="cardforge-access-cold-")
        try:
            results.append(run_check(game, access, folder))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return statistics.median(r[0] for r in results), statistics.median(r[1] for r in results), results[-1][2]


def faces(game: Path) -> int:
    from cardforge.access.stage import faces_of
    from cardforge.diagnostics import ContentError, Report
    from cardforge.prepare import prepare
    try:
        return len(faces_of(prepare(game, Report())))
    except ContentError:
        return 0


def _cold_verdict(result: tuple, load: float) -> str:
    """The cold target, by wall time; on a machine busier than its cores, where a lone process's
    wall time is its CPU time stretched by the others', by CPU time, saying so."""
    wall, cpu = result[0], result[1]
    if wall < COLD_TARGET_S:
        return "ok"
    cores = os.cpu_count() or 1
    if cpu < COLD_TARGET_S and load > cores:
        return f"ok by CPU time ({cpu:.1f} s; the wall time is stretched by a load of {load:.1f} on {cores} cores)"
    return "MISSED"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game folders (default: every content/*/game.yaml)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind per game (default 3)")
    parser.add_argument("--baseline", type=Path, help="another checkout (its folder holds cardforge/): time its "
                        "plain `check` too")
    args = parser.parse_args()
    found = games(args.games)
    if not found:
        print("no games found under content/", file=sys.stderr)
        return 2
    compileall.compile_dir(str(REPO / "cardforge"), quiet=1)
    if args.baseline:
        compileall.compile_dir(str(args.baseline / "cardforge"), quiet=1)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"`cardforge check` and `check --access` per game, {args.runs} runs each (medians, wall / cpu); "
          f"load average {load:.2f}\n")
    header = (f"{'game':<12} {'faces':>5}  {'check':>15}  {'baseline':>15}  {'access warm':>15}  {'cold':>15}  "
              f"{'access cold':>15}"
              f"  {'warnings':>8}  targets")
    print(header)
    print("-" * len(header))
    user_cache = os.environ.get("CARDFORGE_CACHE")
    for game in found:
        if args.baseline:
            plain, base = interleaved(args.runs, game, user_cache, args.baseline)
        else:
            plain, base = timed(args.runs, lambda: run_check(game, False, user_cache)), None
        warm = timed(args.runs, lambda: run_check(game, True, user_cache))
        plain_cold = cold(args.runs, game, False)
        first = cold(args.runs, game, True)
        added = sum(1 for d in warm[2] if str(d.get("code", "")).startswith("W-ACCESS"))
        notes = []
        if base is not None:
            notes.append(f"check {plain[0] / base[0] - 1:+.0%} of baseline "
                         f"({'ok' if plain[0] <= base[0] * (1 + WARM_MARGIN) else 'MISSED'}, ≤ +10%)")
        notes.append(f"access cold {_cold_verdict(first, load)} (< {COLD_TARGET_S:g} s)")
        cell = lambda r: f"{r[0]:6.2f}s/{r[1]:5.2f}s" if r else f"{'-':>15}"  # noqa: E731
        print(f"{game.name:<12} {faces(game):>5}  {cell(plain)}  {cell(base)}  {cell(warm)}  {cell(plain_cold)}  {cell(first)}  "
              f"{added:>8}  {'; '.join(notes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
