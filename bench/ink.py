#!/usr/bin/env python3
"""Benchmark: what seeing as others see and measuring ink cost.

    python bench/ink.py                      # every game in content/, A4
    python bench/ink.py content/iron-rain

For each game, it builds the A4 kit and the ink-saver kit (`build --ink-saver`) into a temporary
folder and prints:
- the mean ink coverage of each kit's pages as its manifest records it, and the cut;
- the time output/ink.py takes to measure the kit's pages (part of every build: pages per second);
- the time access/vision.py takes to show one card face at the preview's resolution (110 dpi) as
  each viewer sees it (`serve`'s view selector, `render --view`): the median of 20 runs, PNG
  decoding and encoding included.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cardforge.access.vision import VIEWS, simulate_png  # noqa: E402
from cardforge.output.ink import page_coverage  # noqa: E402


def main(games: list[Path]) -> None:
    import json

    from cardforge.diagnostics import Report
    from cardforge.output.raster import Face, face_images
    from cardforge.prepare import prepare
    with tempfile.TemporaryDirectory() as out:
        print(f"{'game':<14} {'kit':>7} {'saver':>7} {'cut':>5} {'pages':>5} {'ink s':>6} " +
              " ".join(f"{v + ' ms':>9}" for v in VIEWS))
        for game in games:
            for extra in ([], ["--ink-saver"]):
                subprocess.run([sys.executable, "-m", "cardforge", "build", str(game), "--paper", "a4", "--out", out,
                                *extra], cwd=REPO, check=True, capture_output=True)
            folder = Path(out) / game.name
            full, saver = (json.loads((folder / f"{game.name}-kit{v}-a4.manifest.json").read_text())["ink"]["mean"]
                           for v in ("", "-inksaver"))
            pdf = folder / f"{game.name}-kit-a4.pdf"
            start = time.perf_counter()
            pages = len(page_coverage(pdf))
            ink_seconds = time.perf_counter() - start
            prep = prepare(game, Report(), REPO / "layouts")
            card = next(iter(prep.game.cards()))
            [png] = face_images(prep, [Face(card, "front")], Report(), dpi=110)
            timings = []
            for view in VIEWS:
                runs = []
                for _ in range(20):
                    start = time.perf_counter()
                    simulate_png(png, view)
                    runs.append(time.perf_counter() - start)
                timings.append(statistics.median(runs) * 1000)
            print(f"{game.name:<14} {full:>7.1%} {saver:>7.1%} {1 - saver / full:>5.0%} {pages:>5} {ink_seconds:>6.2f} "
                  + " ".join(f"{t:>9.1f}" for t in timings))


if __name__ == "__main__":
    chosen = [Path(a).resolve() for a in sys.argv[1:]] or sorted(p.parent for p in (REPO / "content").glob("*/game.yaml"))
    main(chosen)
