#!/usr/bin/env python3
"""Benchmark: the default build (`cardforge build`: every game in content/, A4 and Letter, the kit
and its component PDFs) stage by stage.

    python bench/stages.py                 # every game, both papers, 1 run
    python bench/stages.py --runs 3 content/bomber-boys
    python bench/stages.py --cold          # an empty disk cache before each build

First the real thing: `python -m cardforge build --out TMP` as a fresh process (parallel, one worker
per core), wall time.  Then the same jobs one after another in this process, as a serial build runs
them (output/parallel.py run_job: each (game, paper) prepares its game, then draws, verifies and
stages its PDFs), with each stage timed by wrapping the function that does it:

| stage | function | what it does |
|---|---|---|
| load | frontend/model.py load_game | YAML files read and positioned, validated against their schemas |
| fonts+layouts | the rest of prepare.prepare | fonts, layouts, icons, markup (prepare minus load and rules) |
| rules | rules.check_game | the built-in checks and the game's rules.yaml |
| plan | output/pages.py plan_sections | which piece goes on which page |
| draw | output/pdf.py Writer.write | every page drawn and the PDF written (reportlab) |
| verify | verify/verifier.py Verifier.verify | the PDF read back and compared with the data |
| cut | output/build.py _cut | the component PDFs copied out of the kit, checked page by page |
| manifests | output/build.py _stage_manifest | the manifests written |

By default the disk cache is the user's, as a designer's builds find it: the fresh process fills
it, and the serial build after it finds there what that one parsed, compiled and drew (each face
it drew, render/replay.py).  --cold empties a cache of the bench's own before each build: the
first build after installing or upgrading.

Times are the minimum over --runs of the sum over all jobs; the table also shows each stage's share
of the serial total, and the slowest stage.  The work of other processes on the machine shows in
wall times, so the load average is printed too.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STAGES = ("load", "fonts+layouts", "rules", "plan", "draw", "verify", "cut", "manifests")


def games(paths: list[str]) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p.parent for p in (REPO / "content").glob("*/game.yaml"))


def whole_build(game_dirs: list[Path], out: Path) -> float:
    """Wall time of `cardforge build` (the default: both papers, the kit, parallel) in a fresh process."""
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardforge", "build", "--out", str(out)] + [str(g) for g in game_dirs],
                          cwd=str(REPO), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"cardforge build failed:\n{done.stderr}")
    return elapsed


class Timer:
    """Wraps module attributes so that each call adds its wall time to a stage."""

    def __init__(self):
        self.spent: dict[str, float] = {}
        self.undo: list[tuple[object, str, object]] = []

    def wrap(self, owner, name: str, stage: str) -> None:
        original = getattr(owner, name)  # an AttributeError here means the bench needs updating

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.spent[stage] = self.spent.get(stage, 0.0) + time.perf_counter() - start

        setattr(owner, name, timed)
        self.undo.append((owner, name, original))

    def restore(self) -> None:
        for owner, name, original in reversed(self.undo):
            setattr(owner, name, original)
        self.undo.clear()


def serial_stages(game_dirs: list[Path], out: Path) -> tuple[dict[str, float], float]:
    """One serial default build in this process: (seconds per stage, total seconds)."""
    from cardforge import prepare as prepare_module
    from cardforge.output import build as build_module
    from cardforge.output import parallel
    from cardforge.output.pages import PAPERS
    from cardforge.output.pdf import Writer
    from cardforge.verify.verifier import Verifier

    timer = Timer()
    timer.wrap(parallel, "prepare", "prepare")
    timer.wrap(prepare_module, "load_game", "load")
    timer.wrap(prepare_module, "check_game", "rules")
    timer.wrap(build_module, "plan_sections", "plan")
    timer.wrap(Writer, "write", "draw")
    timer.wrap(Verifier, "verify", "verify")
    timer.wrap(build_module, "_cut", "cut")
    timer.wrap(build_module, "_stage_manifest", "manifests")
    shutil.rmtree(out, ignore_errors=True)
    jobs = [parallel.Job(game, out / game.name, paper, "duplex", None) for game in game_dirs for paper in PAPERS]
    start = time.perf_counter()
    try:
        results = parallel.build_all(jobs, workers=1)
    finally:
        timer.restore()
    total = time.perf_counter() - start
    failed = [r for r in results if r.report.has_errors()]
    if failed:
        sys.exit(f"build failed:\n{failed[0].report.format_text()}")
    spent = dict(timer.spent)
    # The cut copies a manifest too; a manifest of the kit is its own stage. Prepare = its parts.
    spent["fonts+layouts"] = spent.pop("prepare", 0.0) - spent.get("load", 0.0) - spent.get("rules", 0.0)
    return {stage: spent.get(stage, 0.0) for stage in STAGES}, total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="the default build, stage by stage")
    ap.add_argument("games", nargs="*", help="game folders (default: every game in content/)")
    ap.add_argument("--runs", type=int, default=1, help="runs of each measurement; the minimum is shown")
    ap.add_argument("--cold", action="store_true", help="an empty disk cache before each build")
    args = ap.parse_args(argv)
    game_dirs = games(args.games)
    work = Path(tempfile.mkdtemp(prefix="cardforge-stages-"))

    def fresh_cache() -> None:
        if args.cold:
            from cardforge import diskcache
            shutil.rmtree(work / "cache", ignore_errors=True)
            os.environ["CARDFORGE_CACHE"] = str(work / "cache")
            diskcache.cache_root.cache_clear()
            diskcache._folder.cache_clear()

    try:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        walls = []
        for _ in range(args.runs):
            fresh_cache()
            walls.append(whole_build(game_dirs, work / "cli"))
        wall = min(walls)
        best: dict[str, float] = {}
        best_total = float("inf")
        for _ in range(args.runs):
            fresh_cache()
            spent, total = serial_stages(game_dirs, work / "serial")
            best_total = min(best_total, total)
            for stage, seconds in spent.items():
                best[stage] = min(best.get(stage, float("inf")), seconds)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    names = ", ".join(g.name for g in game_dirs)
    print(f"default build of {len(game_dirs)} game(s) ({names}), A4 and Letter, kit and components"
          + (", an empty disk cache each build" if args.cold else ", the user's disk cache"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.2f} at the start")
    print()
    print(f"`cardforge build` (fresh process, parallel): {wall:.2f} s")
    print(f"serial, in this process (imports done):      {best_total:.2f} s")
    print()
    print(f"{'stage':<16}{'seconds':>9}{'share':>8}")
    print("-" * 33)
    for stage in STAGES:
        print(f"{stage:<16}{best[stage]:>9.2f}{best[stage] / best_total:>8.0%}")
    other = best_total - sum(best.values())
    print(f"{'other':<16}{other:>9.2f}{other / best_total:>8.0%}")
    slowest = max(STAGES, key=lambda s: best[s])
    print()
    print(f"slowest stage: {slowest} ({best[slowest]:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
