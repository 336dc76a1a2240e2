#!/usr/bin/env python3
"""The mutation fuzzer (issue 17): N mutated copies of the shipped games through `cardforge check`
(and, 1 in 10, `cardforge build --paper a4`), each in a forked child of a warm process.

    python bench/fuzz.py 10000                      # seeds 0..9999, 2 at a time
    python bench/fuzz.py 2000 --seed 50000 --jobs 2 --game iron-rain --family icons
    python bench/fuzz.py --replay 4711              # rebuild input 4711 in a folder and run it here
    python bench/fuzz.py --seeds 41,46,219          # exactly these inputs (the bad ones of a run, after a fix)
    python bench/fuzz.py --http 3000                # 3000 hostile requests to `cardforge serve`

Input number `seed` is reproducible: the seed picks the game, whether it builds, and the mutation
(tests/fuzzing.py), and is described in one line.  At the end it prints the outcome table (class,
count, an example seed and its mutation, with the commit, inputs/s and CPU s per input above it, fit
to quote) and the bad outcomes grouped by kind; every 500 inputs or 60 s it prints a progress line
with the running counts of every class, so a run cut short still tells something.  A child is a HANG
past --timeout seconds of its own CPU time, or at the wall-clock cap (--wall).  It writes a reproducer of every bad outcome to --out (default
build/fuzz-reproducers/): seeds.txt lists them all, and for the first few of each kind a folder
holds the mutated game with a note saying how to run it.  The exit status is 1 if any outcome was bad.
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from fuzzing import ALL, FAMILIES, make_sandbox, mutate, plan  # noqa: E402
import fuzzrun  # noqa: E402
import fuzz_formats  # noqa: E402,F401 - imported once here, not in every child
from fuzzrun import (BAD, GOOD, TIMEOUT_S, WALL_FACTOR, Outcome, argv_for, execute, run_cardforge, run_many, slot_root,  # noqa: E402
                     warm_up)

FOLDERS_PER_KIND = 3
PROGRESS_EVERY = (500, 60.0)  # a progress line every 500 inputs or 60 s, whichever comes first


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=1000, help="number of inputs (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (inputs are seed .. seed+n-1)")
    ap.add_argument("--seeds", type=lambda s: [int(x) for x in s.split(",")], metavar="A,B,...",
                    help="run exactly these seeds (the bad ones of an earlier run, after a fix)")
    ap.add_argument("--jobs", type=int, default=2, help="children at once (default 2)")
    ap.add_argument("--game", action="append", choices=ALL, help="only this game or card set (repeatable)")
    ap.add_argument("--family", choices=FAMILIES, help="only this family of mutations")
    ap.add_argument("--build-every", type=int, default=10, help="1 in N inputs runs build (default 10)")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S,
                    help=f"CPU seconds of a child before it is a HANG (default {TIMEOUT_S:.0f})")
    ap.add_argument("--wall", type=float, help="wall-clock seconds before a child is killed as a HANG "
                    f"(default {WALL_FACTOR} x --timeout: a child waiting on I/O uses no CPU)")
    ap.add_argument("--out", type=Path, default=REPO / "build" / "fuzz-reproducers", help="reproducers folder")
    ap.add_argument("--replay", type=int, metavar="SEED", help="rebuild one input into --out and run it here")
    ap.add_argument("--http", type=int, metavar="N", help="instead: N hostile requests to `cardforge serve` "
                    "(tests/fuzz_http.py), from --seed")
    args = ap.parse_args(argv)
    if args.seeds:
        args.n = len(args.seeds)
    if args.http is not None:
        from fuzz_http import bench
        return bench(args.http, args.seed)
    games = tuple(args.game or ALL)
    if args.replay is not None:
        return replay(args.replay, games, args)
    base = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else None
    work = Path(tempfile.mkdtemp(prefix="cardforge-fuzz-", dir=base))
    try:
        return fuzz(work, games, args)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def fuzz(work: Path, games: tuple[str, ...], args) -> int:
    start = time.monotonic()
    args.commit = _commit()  # what the run imported: the worktree may move on while it runs
    pristine = {g: make_sandbox(work / "pristine" / g, g).root for g in games}
    warm_up(work, games, args.jobs, build=args.build_every > 0)
    print(f"fuzz: {args.n} inputs from seed {args.seed}, {args.jobs} at a time, games {', '.join(games)}"
          f"{', family ' + args.family if args.family else ''}; warm after {time.monotonic() - start:.1f} s",
          flush=True)

    def task_for(seed: int):
        def task(report):
            game, build, family, rng = plan(seed, games, args.build_every, args.family)
            folder = slot_root(work, fuzzrun.SLOT)  # where the warm-up checked this game: its files are known
            shutil.rmtree(folder, ignore_errors=True)
            box = make_sandbox(folder, game, source=pristine[game])
            mutation = mutate(box, rng, family).describe()
            report(mutation)
            outcome = execute(box.root, box.game, box.layouts, box.out, build)
            outcome.mutation = mutation
            return outcome
        return task

    outcomes: list[Outcome] = []
    counts: collections.Counter = collections.Counter()
    seeds = args.seeds or range(args.seed, args.seed + args.n)
    tasks = ((seed, task_for(seed)) for seed in seeds)
    started, last = time.monotonic(), time.monotonic()  # rates count from here, after the warm-up
    for outcome in run_many(tasks, args.jobs, args.timeout, args.wall):
        outcomes.append(outcome)
        counts[outcome.cls] += 1
        if outcome.bad:
            print(f"  {outcome.cls:<11} seed {outcome.key}: {outcome.mutation[:110]}\n"
                  f"              {outcome.signature[:150]}", flush=True)
        now = time.monotonic()
        if len(outcomes) % PROGRESS_EVERY[0] == 0 or now - last > PROGRESS_EVERY[1]:
            last = now
            print(f"[{len(outcomes)}/{args.n}] {now - started:.0f} s, {_rates(outcomes, now - started)}; "
                  + ", ".join(f"{cls} {counts[cls]}" for cls in GOOD + BAD), flush=True)
    elapsed = time.monotonic() - started
    report_table(outcomes, elapsed, args)
    write_reproducers(outcomes, games, args)
    return 1 if any(o.bad for o in outcomes) else 0


def _rates(outcomes: list[Outcome], elapsed: float) -> str:
    cpu = sum(o.cpu for o in outcomes) / max(1, len(outcomes))
    return f"{len(outcomes) / max(elapsed, 1e-9):.2f} inputs/s, {cpu:.2f} CPU s/input"


def _commit() -> str:
    try:
        head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown commit"
    return (head or "unknown commit") + (" (with uncommitted changes)" if dirty else "")


def report_table(outcomes: list[Outcome], elapsed: float, args) -> None:
    if not outcomes:
        print("no inputs ran")
        return
    by_class: dict[str, list[Outcome]] = collections.defaultdict(list)
    for o in outcomes:
        by_class[o.cls].append(o)
    which = f"seeds {','.join(map(str, args.seeds))}" if args.seeds else f"seeds {args.seed}..{args.seed + args.n - 1}"
    cpus = [o.cpu for o in outcomes]
    bad = [o for o in outcomes if o.bad]
    print(f"\n`bench/fuzz.py {len(outcomes)}` on {args.commit}, {which}, {args.jobs} jobs, "
          f"{sum(o.command == 'build' for o in outcomes)} builds: {elapsed:.0f} s, {_rates(outcomes, elapsed)} "
          f"(median {statistics.median(cpus):.2f}, max {max(cpus):.1f}); {len(bad)} bad")
    print(f"\n| class | count | example seed | mutation |\n|---|---:|---:|---|")
    for cls in GOOD + BAD:
        group = by_class.get(cls, [])
        example = group[0] if group else None
        print(f"| {cls} | {len(group)} | {example.key if example else '-'} | "
              f"{example.mutation[:100] if example else '-'} |")
    if not bad:
        return
    kinds: dict[tuple[str, str], list[Outcome]] = collections.defaultdict(list)
    for o in bad:
        kinds[(o.cls, o.signature if o.cls == "TRACEBACK" else o.signature.split(" ")[0])].append(o)
    print(f"\n| class | kind | count | example seed | mutation |\n|---|---|---:|---:|---|")
    for (cls, kind), group in sorted(kinds.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        print(f"| {cls} | {kind} | {len(group)} | {group[0].key} | {group[0].mutation[:90]} |")


def write_reproducers(outcomes: list[Outcome], games: tuple[str, ...], args) -> None:
    bad = [o for o in outcomes if o.bad]
    if not bad:
        return
    args.out.mkdir(parents=True, exist_ok=True)
    shown: collections.Counter = collections.Counter()
    with (args.out / "seeds.txt").open("w", encoding="utf-8") as fh:
        for o in sorted(bad, key=lambda o: (o.cls, o.signature, o.key)):
            game, build, _, _ = plan(o.key, games, args.build_every, args.family)
            fh.write(f"{o.cls}\t{o.key}\t{game}\t{o.command}\t{o.signature}\t{o.mutation}\n")
            kind = (o.cls, o.signature)
            shown[kind] += 1
            if shown[kind] <= FOLDERS_PER_KIND:
                folder = args.out / f"{o.cls}-{o.key}"
                rebuild(o.key, games, args, folder)
                (folder / "outcome.txt").write_text(
                    f"{o.cls}: {o.signature}\nmutation: {o.mutation}\n"
                    f"run: cd {folder} && cardforge {' '.join(argv_for(Path('content') / game, Path('layouts'), Path('out'), build))}\n"
                    f"or:  python bench/fuzz.py --replay {o.key}{_game_args(args)}\n\n{o.detail}\n", "utf-8")
    print(f"\nreproducers: {args.out}/seeds.txt ({len(bad)} inputs), one folder for the first "
          f"{FOLDERS_PER_KIND} of each kind")


def _game_args(args) -> str:
    text = "".join(f" --game {g}" for g in args.game or ())
    return text + (f" --family {args.family}" if args.family else "") + (
        f" --build-every {args.build_every}" if args.build_every != 10 else "")


def rebuild(seed: int, games: tuple[str, ...], args, folder: Path):
    if folder.exists():
        shutil.rmtree(folder)
    game, build, family, rng = plan(seed, games, args.build_every, args.family)
    box = make_sandbox(folder, game)
    return box, build, mutate(box, rng, family)


def replay(seed: int, games: tuple[str, ...], args) -> int:
    folder = args.out / f"replay-{seed}"
    box, build, mutation = rebuild(seed, games, args, folder)
    print(f"seed {seed}: {mutation.describe()}\nin {folder}\n$ cardforge {' '.join(argv_for(box.game, box.layouts, box.out, build))}")
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        code, output, trace = run_cardforge(argv_for(box.game.relative_to(folder), Path("layouts"), Path("out"), build))
    finally:
        os.chdir(cwd)
    print(output[-5000:] + trace)
    print(f"exit {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
