"""The print shop's CMYK build against its RGB build, per game: time, file sizes, colour shift.

    python bench/printshop.py                       # every game in content/, 3 runs of each side
    python bench/printshop.py content/bomber-boys --runs 5 --keep /tmp/ps

Each run is `cardforge build GAME --target printshop [--color cmyk]` in a fresh process, the two
sides taking turns, after one unmeasured run of each that fills the disk cache (a designer
rebuilding a game, not a first build). The table gives the median wall time of each side and
their ratio, the size of every PDF each side wrote, the largest ΔE2000 colour shift the manifests
record (sRGB against its print through the profile, `color.largest_shift`) and the warnings the CMYK
build printed, by code.
"""
from __future__ import annotations

import argparse
import collections
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


def run(game: Path, out: Path, cmyk: bool, env: dict) -> tuple[float, list[dict]]:
    cmd = [sys.executable, "-m", "cardforge", "build", str(game), "--target", "printshop", "--out", str(out),
           "--format", "json", "-q"]
    if cmyk:
        cmd += ["--color", "cmyk"]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return wall, json.loads(done.stdout or "[]")


def pdf_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*.pdf"))


def largest_shift(folder: Path) -> float:
    shifts = [json.loads(m.read_text("utf-8")).get("color", {}).get("largest_shift", 0.0)
              for m in folder.rglob("*.manifest.json")]
    return max(shifts, default=0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the builds and the cache here")
    args = parser.parse_args()
    games = args.games or sorted(p.parent for p in (REPO / "content").glob("*/game.yaml"))
    work = args.keep or Path(tempfile.mkdtemp(prefix="cardforge-printshop-"))
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CARDFORGE_CACHE=str(work / "cache"), NO_COLOR="1")
    print(f"{'game':12} {'rgb s':>6} {'cmyk s':>7} {'ratio':>6} {'rgb PDFs':>9} {'cmyk PDFs':>10} "
          f"{'ΔE max':>7}  warnings (cmyk)")
    try:
        for game in games:
            game = game.resolve()
            sides = {False: work / game.name / "rgb", True: work / game.name / "cmyk"}
            times: dict[bool, list[float]] = {False: [], True: []}
            found: list[dict] = []
            for cmyk, out in sides.items():
                run(game, out, cmyk, env)          # fills the cache
            for _ in range(args.runs):
                for cmyk, out in sides.items():
                    wall, diagnostics = run(game, out, cmyk, env)
                    times[cmyk].append(wall)
                    if cmyk:
                        found = diagnostics
            rgb, cmyk = statistics.median(times[False]), statistics.median(times[True])
            codes = collections.Counter(d["code"] for d in found)
            said = ", ".join(f"{code} {n}" for code, n in sorted(codes.items())) or "none"
            print(f"{game.name:12} {rgb:6.1f} {cmyk:7.1f} {cmyk / rgb:5.2f}x "
                  f"{pdf_bytes(sides[False]) / 1e6:7.2f}MB {pdf_bytes(sides[True]) / 1e6:8.2f}MB "
                  f"{largest_shift(sides[True]):7.1f}  {said}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
