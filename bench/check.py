#!/usr/bin/env python3
"""Benchmark: how long `cardforge check` takes on every game in content/.

    python bench/check.py              # every content/*/game.yaml, 5 runs each
    python bench/check.py --runs 9 content/bomber-boys

For each game it runs `python -m cardforge check GAME` as a fresh process, the way a user (or an
editor on save) runs it, and reports the median wall time of the runs, with the exit code and the
number of errors and warnings of the last run. It also times, in this process, the stages of the
check itself (the same work without interpreter start-up and imports):

- load: game.yaml and the card files, validated against their schemas (model.load_game);
- check: everything `cardforge check` does (build.prepare: load, layouts, the rules engine);
- rules: the rules engine alone (rules.check_game: built-in checks and the game's rules.yaml).

The target (issue 27): every game under 0.5 s for the whole process, start-up included.

Before timing, cardforge's modules are byte-compiled (`compileall`), as `pip install` leaves them:
with PYTHONDONTWRITEBYTECODE set and no __pycache__ (a fresh checkout), every process would compile
cardforge's source again, which no installed copy does.  The disk cache (cardforge/diskcache.py) is
the user's, as for any run after the first; `--cold` gives every run an empty one instead.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 0.5


def games(paths: list[str]) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p.parent for p in (REPO / "content").glob("*/game.yaml"))


def run_cli(game: Path, cold: bool) -> tuple[float, int, int, int]:
    env = None
    if cold:
        env = dict(os.environ, CARDFORGE_CACHE=tempfile.mkdtemp(prefix="cardforge-cold-"))
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game), "--format", "json"],
                            cwd=str(REPO), capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if env is not None:
        shutil.rmtree(env["CARDFORGE_CACHE"], ignore_errors=True)
    try:
        items = json.loads(result.stdout or "[]")
    except ValueError:
        items = []
    errors = sum(1 for d in items if d.get("severity") == "error")
    return elapsed, result.returncode, errors, len(items) - errors


def stages(game: Path, runs: int) -> dict[str, float]:
    """Median time of each stage, in this process (imports done, caches as after one run)."""
    from cardforge import prepare as prepare_module
    from cardforge.diagnostics import ContentError, Report
    from cardforge.frontend.model import load_game
    from cardforge.prepare import prepare
    rules_module = prepare_module  # check_game is called through the name prepare.py imported

    times: dict[str, list[float]] = {"load": [], "check": [], "rules": []}
    original = rules_module.check_game

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            times["rules"].append(time.perf_counter() - start)

    rules_module.check_game = timed
    try:
        for _ in range(runs + 1):  # the first run warms the font and schema caches; it is dropped
            start = time.perf_counter()
            try:
                load_game(game, Report())
            except ContentError:
                pass
            times["load"].append(time.perf_counter() - start)
            start = time.perf_counter()
            try:
                prepare(game, Report())
            except ContentError:
                pass
            times["check"].append(time.perf_counter() - start)
    finally:
        rules_module.check_game = original
    return {name: statistics.median(values[1:] or values) for name, values in times.items() if values}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game folders (default: every content/*/game.yaml)")
    parser.add_argument("--runs", type=int, default=5, help="runs per game (default 5)")
    parser.add_argument("--cold", action="store_true", help="an empty disk cache for every run (the first check "
                        "after installing, or after an upgrade)")
    args = parser.parse_args()
    found = games(args.games)
    if not found:
        print("no games found under content/", file=sys.stderr)
        return 2
    compileall.compile_dir(str(REPO / "cardforge"), quiet=1)  # as installed (see above)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cache = "an empty disk cache each run" if args.cold else "the user's disk cache"
    print(f"`cardforge check` per game: median of {args.runs} runs, wall time of a fresh process ({cache}); "
          f"load average {load:.2f}")
    print("in-process stages (medians): load = load_game, check = prepare.prepare, rules = rules.check_game\n")
    header = f"{'game':<16} {'process':>9} {'load':>8} {'check':>8} {'rules':>8}  exit  errors  warnings  target"
    print(header)
    print("-" * len(header))
    worst = 0.0
    for game in found:
        results = [run_cli(game, args.cold) for _ in range(args.runs)]
        wall = statistics.median(r[0] for r in results)
        _, code, errors, warnings = results[-1]
        inner = stages(game, args.runs)
        ok = "ok" if wall < TARGET_S else "MISSED"
        worst = max(worst, wall)
        print(f"{game.name:<16} {wall * 1000:>7.0f}ms {inner.get('load', 0) * 1000:>6.0f}ms "
              f"{inner.get('check', 0) * 1000:>6.0f}ms {inner.get('rules', 0) * 1000:>6.0f}ms  "
              f"{code:>4}  {errors:>6}  {warnings:>8}  {ok} (< {TARGET_S:g} s)")
    print(f"\nslowest: {worst:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
