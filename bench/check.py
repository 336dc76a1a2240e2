#!/usr/bin/env python3
"""Benchmark: how long `cardforge check` takes on every game in content/.

    python bench/check.py              # every content/*/game.yaml, 5 runs each
    python bench/check.py --runs 9 content/bomber-boys
    python bench/check.py --edit       # a designer's loop: one card edited before every run
    python bench/check.py --cold       # an empty disk cache for every run

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
Three modes, so that a designer's real loop is reported beside the best and the worst case:

- repeat (default): the game as it is, checked again; every face's results come from the cache;
- --edit: before each run a word is appended to one card's text, in a copy of the game in a
  temporary folder (so the card's faces are laid out again, and the rest come from the cache);
- --cold: an empty disk cache for every run (the first check after installing or upgrading).

Each run's CPU time (user + system of the child) is given beside its wall time: on a loaded
machine the wall time is inflated and noisy, the CPU time much less so.
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
TARGET_S = 0.5


def games(paths: list[str]) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted(p.parent for p in (REPO / "content").glob("*/game.yaml"))


def run_cli(game: Path, cold: bool, layouts: Path | None = None) -> tuple[float, float, int, int, int]:
    """(wall s, CPU s, exit code, errors, warnings) of one `cardforge check` process."""
    env = None
    if cold:
        env = dict(os.environ, CARDFORGE_CACHE=tempfile.mkdtemp(prefix="cardforge-cold-"))
    extra = ["--layouts", str(layouts)] if layouts is not None else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "cardforge", "check", str(game), "--format", "json", *extra],
                            cwd=str(REPO), capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if env is not None:
        shutil.rmtree(env["CARDFORGE_CACHE"], ignore_errors=True)
    try:
        items = json.loads(result.stdout or "[]")
    except ValueError:
        items = []
    errors = sum(1 for d in items if d.get("severity") == "error")
    return elapsed, cpu, result.returncode, errors, len(items) - errors


TEXT_FIELDS = ("text", "flavour", "flavor", "description", "effect", "ability", "rules", "name", "title")


class CardEdit:
    """A copy of a game in a temporary folder, and one card's text in it, to which each `next()`
    appends a word, the way a designer edits between two checks.  The card is the first with a text
    field (TEXT_FIELDS, in that order) written on one line of its file: the edit is a plain insertion."""

    def __init__(self, game: Path):
        self.folder = Path(tempfile.mkdtemp(prefix="cardforge-edit-"))
        self.game = self.folder / game.name
        shutil.copytree(game, self.game, symlinks=True)
        self.layouts = game.resolve().parent.parent / "layouts"  # as for the game in its own place
        self.path, self.offset, self.label, self.words = self._find()

    def _find(self):
        from cardforge.diagnostics import Report
        from cardforge.frontend.model import load_game
        model = load_game(self.game, Report())
        for name in TEXT_FIELDS:  # a card's text or flavour before its name, which rules may check
            for card in model.records():
                value = card.data.get(name)
                if not isinstance(value, str) or not value or "\n" in value or "\\" in value:
                    continue
                at = card.pos(name)
                lines = at.path.read_text("utf-8").splitlines(keepends=True)
                line = lines[at.line - 1]
                start = at.col - 1 + (line[at.col - 1:at.col] in ("'", '"'))
                if line[start:start + len(value)] == value:
                    offset = sum(len(x.encode("utf-8")) for x in lines[:at.line - 1]) + \
                        len(line[:start + len(value)].encode("utf-8"))
                    return at.path, offset, f"{card.id}.{name}", 0
        raise SystemExit(f"{self.game.name}: no card with a one-line text field to edit ({', '.join(TEXT_FIELDS)})")

    def next(self) -> None:
        """The text with a word appended that differs from the last run's (which it replaces, so a
        field with a maximum length stays valid run after run)."""
        data = self.path.read_bytes()
        last = f" w{self.words - 1}".encode() if self.words else b""
        word = f" w{self.words}".encode()
        self.path.write_bytes(data[:self.offset] + word + data[self.offset + len(last):])
        self.words += 1

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


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
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--cold", action="store_true", help="an empty disk cache for every run (the first check "
                      "after installing, or after an upgrade)")
    mode.add_argument("--edit", action="store_true", help="append a word to one card's text (in a temporary copy "
                      "of the game) before every run: a designer's loop of edit and check")
    args = parser.parse_args()
    found = games(args.games)
    if not found:
        print("no games found under content/", file=sys.stderr)
        return 2
    compileall.compile_dir(str(REPO / "cardforge"), quiet=1)  # as installed (see above)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    what = ("cold: an empty disk cache each run" if args.cold else
            "edit: one card's text one word longer each run, the user's disk cache" if args.edit else
            "repeat: the game unchanged, the user's disk cache")
    print(f"`cardforge check` per game, mode {what}; load average {load:.2f}")
    print(f"process = median wall time of {args.runs} fresh processes, cpu = their median user+sys time;")
    print("in-process stages (medians, the game unchanged): load = load_game, check = prepare.prepare, "
          "rules = rules.check_game\n")
    header = (f"{'game':<16} {'process':>9} {'cpu':>8} {'load':>8} {'check':>8} {'rules':>8}  exit  errors  "
              f"warnings  target")
    print(header)
    print("-" * len(header))
    worst = 0.0
    for game in found:
        edit = CardEdit(game) if args.edit else None
        try:
            results = []
            for _ in range(args.runs + (1 if edit else 0)):  # --edit: a first run fills the copy's cache
                if edit:
                    edit.next()
                results.append(run_cli(edit.game if edit else game, args.cold, edit.layouts if edit else None))
            results = results[1:] if edit else results
        finally:
            if edit:
                edit.close()
        wall = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        _, _, code, errors, warnings = results[-1]
        inner = stages(game, args.runs)
        ok = "ok" if wall < TARGET_S else "MISSED"
        worst = max(worst, wall)
        print(f"{game.name:<16} {wall * 1000:>7.0f}ms {cpu * 1000:>6.0f}ms {inner.get('load', 0) * 1000:>6.0f}ms "
              f"{inner.get('check', 0) * 1000:>6.0f}ms {inner.get('rules', 0) * 1000:>6.0f}ms  "
              f"{code:>4}  {errors:>6}  {warnings:>8}  {ok} (< {TARGET_S:g} s)"
              + (f"  edited: {edit.label}" if edit else ""))
    print(f"\nslowest: {worst:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
