#!/usr/bin/env python3
"""Benchmark: what game-icons.net's set (cardforge/iconsets/game-icons.zip) costs.

    python bench/icons.py              # 5 runs of each
    python bench/icons.py --runs 9

In fresh processes, as a user runs them (median wall time), beside `cardforge --version`'s:
- `cardforge icons search plane` and `cardforge icons show airplane` (with its terminal preview);
- `cardforge check` of a small game (`cardforge new`) whose cards draw 12 library icons named in
  game.yaml, against the same game with those 12 icons as SVG files of its icons/ folder, the disk
  cache warm: what naming icons instead of copying files adds to the save-loop's check.
In this process: opening the set (reading the archive and its index), one search, one icon's SVG.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ICONS = ["airplane", "falling-bomb", "death-skull", "coins", "crossed-swords", "shield", "castle", "compass",
         "anchor", "hourglass", "crown", "spell-book"]


def _wall(args: list[str], cwd: Path, env: dict, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "cardforge", *args], cwd=cwd, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0,):
            raise SystemExit(f"cardforge {' '.join(args)} failed: {done.stderr.decode()[-800:]}")
    return statistics.median(times)


def _games(root: Path, env: dict) -> tuple[Path, Path]:
    """The same new game twice: naming ICONS in game.yaml, and with them as files of icons/."""
    sys.path.insert(0, str(REPO))
    from cardforge.layout.iconsets import icon_set
    games = []
    for name in ("named", "files"):
        subprocess.run([sys.executable, "-m", "cardforge", "new", name], cwd=root, env=env, check=True,
                       capture_output=True)
        game = root / name
        cards = game / "cards" / "cards.yaml"
        text = cards.read_text("utf-8")
        cards.write_text(text.replace('Then draw a card."', 'Then draw a card. ' +
                                      " ".join(f":{icon}:" for icon in ICONS) + '"'), "utf-8")
        if name == "named":
            with open(game / "game.yaml", "a", encoding="utf-8") as out:
                out.write("icons:\n" + "".join(f"  {icon}: game-icons:{icon}\n" for icon in ICONS))
        else:
            (game / "icons").mkdir()
            for icon in ICONS:
                (game / "icons" / f"{icon}.svg").write_text(icon_set().svg(icon), "utf-8")
        games.append(game)
    return games[0], games[1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    import compileall
    compileall.compile_dir(str(REPO / "cardforge"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="bench-icons-") as tmp:
        root = Path(tmp)
        env = dict(os.environ, CARDFORGE_CACHE=str(root / "cache"), PYTHONPATH=str(REPO))
        print(f"cardforge --version:       {_wall(['--version'], root, env, args.runs):.3f} s (for comparison)")
        print(f"icons search plane:        {_wall(['icons', 'search', 'plane'], root, env, args.runs):.3f} s")
        print(f"icons show airplane:       {_wall(['icons', 'show', 'airplane'], root, env, args.runs):.3f} s")
        named, files = _games(root, env)
        for game in (named, files):
            _wall(["check", game.name], root, env, 1)  # the disk cache warmed
        print(f"check, 12 icons named:     {_wall(['check', named.name], root, env, args.runs):.3f} s")
        print(f"check, 12 icon files:      {_wall(['check', files.name], root, env, args.runs):.3f} s")
    sys.path.insert(0, str(REPO))
    from cardforge.layout import iconsets
    iconsets._opened.cache_clear()  # opened above to write the icon files
    start = time.perf_counter()
    library = iconsets.icon_set()
    opened = time.perf_counter() - start
    start = time.perf_counter()
    library.search("plane", limit=None)
    searched = time.perf_counter() - start
    start = time.perf_counter()
    library.svg("airplane")
    read = time.perf_counter() - start
    print(f"in process: open the set {opened * 1000:.0f} ms, one search {searched * 1000:.1f} ms, "
          f"one icon's SVG {read * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
