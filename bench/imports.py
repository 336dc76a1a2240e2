#!/usr/bin/env python3
"""Benchmark: what each command imports, and how long that takes (`python -X importtime`).

    python bench/imports.py            # 3 runs of each command, minimum shown
    python bench/imports.py --runs 5 --tree check   # also the slowest imports of `check`, with who imported them

Each command runs as a fresh process, `python -X importtime -m cardforge ...`, from the repository
root, with its own empty disk cache (cardforge/diskcache.py) for the "cold" rows and a cache that
the previous run filled for the others.  The table shows the time of all imports (the sum of the
top-level imports' cumulative times; the interpreter's own start-up is not in it), the number of
modules, the heavy libraries loaded, and the wall time of the whole process.  `check` should load
none of the PDF writer, platypus, the drawing renderer, PDF readers or SVG library once its icons
are cached: a row that does is marked REGRESSION and the bench exits 1.  (reportlab's font code and
Pillow, which it imports, load only where a face or a true-scale piece must be measured again.)
cardforge is byte-compiled first, as
an install leaves it.
"""
from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEAVY = {  # module -> what it is
    "reportlab.pdfgen.canvas": "PDF writer",
    "reportlab.platypus": "platypus",
    "reportlab.graphics.renderPDF": "drawing renderer",
    "svglib": "svglib",
    "lxml.etree": "lxml",
    "pypdf": "pypdf",
    "pypdfium2": "pdfium",
    "PIL.Image": "Pillow",
    "jsonschema": "jsonschema",
    "jinja2": "jinja2",
    "regex": "regex",
    "yaml": "PyYAML",
    "openpyxl": "openpyxl",
    "watchfiles": "watchfiles",
}

# What a warm `check` must not load (issue 27).
NOT_IN_CHECK = {"PDF writer", "platypus", "drawing renderer", "svglib", "lxml", "pypdf", "pdfium", "jsonschema", "PyYAML"}


def commands(out: Path) -> list[tuple[str, list[str], bool]]:
    """(label, arguments, cold cache)."""
    return [
        ("--version", ["--version"], False),
        ("check bomber-boys, cold cache", ["check", "content/bomber-boys"], True),
        ("check bomber-boys", ["check", "content/bomber-boys"], False),
        ("check steel-rain", ["check", "content/steel-rain"], False),
        ("check war-eagles", ["check", "content/war-eagles"], False),
        ("check war-eagles --format json", ["check", "content/war-eagles", "--format", "json"], False),
        ("render bomber-boys bombardier", ["render", "content/bomber-boys", "bombardier", "--out", str(out / "render")], False),
        ("calibrate", ["calibrate", "--out", str(out / "calibrate")], False),
        ("build bombs-away A4", ["build", "content/bombs-away", "--paper", "a4", "--out", str(out / "build")], False),
    ]


def parse(stderr: str) -> tuple[float, list[tuple[int, int, str]]]:
    """(total import seconds, [(self us, cumulative us, module)]) from -X importtime's lines."""
    rows, total = [], 0
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "imported package" in line:
            continue
        self_us, cumulative, name = line[len("import time:"):].split("|")
        rows.append((int(self_us), int(cumulative), name))
        if name.startswith(" ") and not name.startswith("  "):  # depth 0: one space after the bar
            total += int(cumulative)
    return total / 1e6, rows


def run(args: list[str], cache: Path) -> tuple[float, float, list[tuple[int, int, str]]]:
    env = dict(os.environ, CARDFORGE_CACHE=str(cache))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardforge", *args], cwd=str(REPO), env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"cardforge {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    total, rows = parse(done.stderr)
    return total, wall, rows


def tree(rows: list[tuple[int, int, str]], top: int = 15) -> None:
    """The slowest imports by cumulative time, each with the chain of modules that imported it."""
    parsed = [(s, c, (len(n) - len(n.lstrip())) // 2, n.strip()) for s, c, n in rows]
    chains = []
    for i, (_, cumulative, depth, name) in enumerate(parsed):
        chain, level = [name], depth
        for _, _, d, n in parsed[i + 1:]:  # importtime prints a module after the ones it imported
            if d < level:
                chain.append(n)
                level = d
        chains.append((cumulative, " <- ".join(chain)))
    for cumulative, chain in sorted(chains, reverse=True)[:top]:
        print(f"  {cumulative / 1000:7.1f} ms  {chain}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="imports per command")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tree", metavar="LABEL", help="also show the slowest imports of the command whose label "
                    "starts with LABEL")
    args = ap.parse_args(argv)
    compileall.compile_dir(str(REPO / "cardforge"), quiet=1)
    work = Path(tempfile.mkdtemp(prefix="cardforge-imports-"))
    regressions = []
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"imports per command: python -X importtime -m cardforge ..., minimum of {args.runs} runs; "
          f"load average {load:.2f}")
    print()
    print(f"{'command':<32}{'imports':>9}{'modules':>9}{'process':>9}  heavy libraries loaded")
    print("-" * 100)
    try:
        warm = work / "cache"
        for label, cmd, cold in commands(work / "out"):
            best_imports, best_wall, rows = float("inf"), float("inf"), []
            if not cold:
                run(cmd, warm)  # fills the cache (or finds it filled)
            for i in range(args.runs):
                cache = work / f"cold-{i}" if cold else warm
                total, wall, found = run(cmd, cache)
                if total < best_imports:
                    best_imports, rows = total, found
                best_wall = min(best_wall, wall)
            names = {n.strip() for _, _, n in rows}
            heavy = ", ".join(what for module, what in HEAVY.items() if module in names) or "-"
            forbidden = [what for module, what in HEAVY.items() if module in names and what in NOT_IN_CHECK]
            mark = "  REGRESSION" if label.startswith("check") and not cold and forbidden else ""
            if mark:
                regressions.append(f"{label}: {', '.join(forbidden)}")
            print(f"{label:<32}{best_imports * 1000:>7.0f}ms{len(rows):>9}{best_wall * 1000:>7.0f}ms  {heavy}{mark}")
            if args.tree and label.startswith(args.tree):
                tree(rows)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for line in regressions:
        print(f"REGRESSION: warm {line} loaded")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
