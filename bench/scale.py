#!/usr/bin/env python3
"""Benchmark: does a build stay linear in time and flat in memory as a game grows?

    python bench/scale.py                   # 1,000, 5,000 and 10,000 cards
    python bench/scale.py 1000 10000 --kit  # other sizes; --kit: the default build (kit + components)

For each size it writes a generated game (the card of bench/cards.py: a rounded border, a
title and a 40-word paragraph, every card different) and builds it for A4 in a fresh
process, the way `cardforge build GAME --paper a4` does (the cards PDF alone unless --kit),
--runs times (default 3, the sizes in turn, so that a slow minute of a shared machine falls
on every size alike), each time as the first build of a new game folder.  It prints the median time of the builds, the time per card, and the
largest peak resident memory (VmHWM) of the children.  Targets (issue 9): at 10,000 cards the time per card within 10% of the 1,000-card
figure, and peak memory under 150 MB (issue 27).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cards import peak_rss_kb, write_game  # noqa: E402  (the same generated card as the cards bench)

TARGET_SLOWDOWN = 1.10
TARGET_RSS_MB = 150.0  # issue 27 (issue 9 said 200 MB)


def child(game_dir: str, out_dir: str, kit: bool) -> None:
    import time

    from cardforge.output.build import build_game
    start = time.perf_counter()
    result = build_game(Path(game_dir), Path(out_dir), papers=("a4",), kit=kit)
    seconds = time.perf_counter() - start
    if result.report.has_errors():
        sys.stderr.write(result.report.format_text() + "\n")
        sys.exit(1)
    print(json.dumps({"seconds": seconds, "peak_kb": peak_rss_kb(),
                      "pdf_bytes": sum(p.stat().st_size for p in result.outputs if p.suffix == ".pdf")}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 5000, 10000])
    parser.add_argument("--kit", action="store_true", help="the default build: the kit and the component PDFs")
    parser.add_argument("--runs", type=int, default=3, help="builds of each size, in turn; the median is shown")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child, kit=args.kit)
        return 0
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    work = Path(tempfile.mkdtemp(prefix="cardforge-scale-"))
    runs: dict[int, list[dict]] = {n: [] for n in args.sizes}
    try:
        for run in range(args.runs):
            for n in args.sizes:
                # Each build is the first of its game: a new folder is a new game to the disk cache
                # (parsed YAML and drawn faces are keyed by the game's path), as the first run's was.
                game = work / f"game-{n}-{run + 1}"
                write_game(game, n)
                command = [sys.executable, __file__, "--child", str(game), str(work / f"out-{n}")]
                done = subprocess.run(command + (["--kit"] if args.kit else []), capture_output=True, text=True)
                if done.returncode != 0:
                    sys.stderr.write(done.stderr)
                    return 1
                runs[n].append(json.loads(done.stdout.strip().splitlines()[-1]))
                shutil.rmtree(game, ignore_errors=True)
                shutil.rmtree(work / f"out-{n}", ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = [(n, {"seconds": statistics.median(r["seconds"] for r in facts), "peak_kb": max(r["peak_kb"] for r in facts),
                 "pdf_bytes": facts[-1]["pdf_bytes"], "all": [r["seconds"] for r in facts]})
            for n, facts in runs.items()]
    print(f"scale bench: build --paper a4 {'(kit and components)' if args.kit else '(cards PDF)'}, fresh process each, "
          f"median of {args.runs} run{'s' if args.runs != 1 else ''}")
    print(f"{'cards':>7} {'time':>8} {'ms/card':>8} {'vs first':>9} {'peak RSS':>9} {'PDFs':>9}  runs")
    first = rows[0][1]["seconds"] / rows[0][0]
    for n, facts in rows:
        per = facts["seconds"] / n
        print(f"{n:>7} {facts['seconds']:>7.2f}s {per * 1000:>8.2f} {per / first:>8.2f}x "
              f"{facts['peak_kb'] / 1024:>6.1f} MB {facts['pdf_bytes'] / 1048576:>6.1f} MB  "
              + "/".join(f"{s:.2f}" for s in facts["all"]))
    n, facts = rows[-1]
    slowdown = facts["seconds"] / n / first
    peak = facts["peak_kb"] / 1024
    print(f"targets at {n} cards: time per card within {TARGET_SLOWDOWN:.2f}x of {rows[0][0]} cards: "
          f"{slowdown:.2f}x {'ok' if slowdown <= TARGET_SLOWDOWN else 'MISSED'}; "
          f"peak memory < {TARGET_RSS_MB:g} MB: {peak:.1f} MB {'ok' if peak < TARGET_RSS_MB else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
