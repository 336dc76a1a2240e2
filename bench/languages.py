#!/usr/bin/env python3
"""Benchmark: a kit in five languages against the same kit in one (issue 30).

    python bench/languages.py GAME_DIR                     # the game's first five languages
    python bench/languages.py /tmp/arkham --langs de,fr,ru,ko,zh --runs 3

Each run builds, in a fresh process and serially (`-j 1`, A4, the cache off), first the kit of the
first language alone, then the kits of all the languages in one command (`--lang de,fr,...`).  The
two commands take turns, so the machine's other work falls on both alike.  The ratio is the median
five-language time over the median one-language time: each language's own work (load its overlay,
check, draw, verify) repeats, the process start, the imports and the fonts do not.  The target is
5.5 (issue 30): under 5 would mean the languages share some of their own work, and 5 to 5.5 leaves
room for each language's larger glyph set.

The child counts how often a font file is parsed (reportlab's TTFont), per file: each one must be
parsed once for all the languages, not once per language.  The bench fails on a build error or on a
font parsed twice, and prints the ratio last: `ratio: X.XX (target <= 5.5)`.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = 5.5

CHILD = r"""
import collections, json, sys, time
from reportlab.pdfbase import ttfonts
parsed = collections.Counter()
original = ttfonts.TTFontFile.__init__
def counting(self, file, *args, **kwargs):
    parsed[str(file).rsplit("/", 1)[-1]] += 1
    return original(self, file, *args, **kwargs)
ttfonts.TTFontFile.__init__ = counting
start = time.perf_counter()
from cardforge.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "seconds": time.perf_counter() - start, "parsed": parsed}))
"""


def build(game: Path, langs: str, out: Path) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, CARDFORGE_CACHE="off")
    done = subprocess.run([sys.executable, "-c", CHILD, "build", str(game), "--lang", langs, "--paper", "a4",
                           "-j", "1", "--out", str(out)], capture_output=True, text=True, env=env, cwd=str(REPO))
    if done.returncode != 0 or not done.stdout.strip():
        sys.exit(f"build --lang {langs} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result["code"] != 0:
        sys.exit(f"build --lang {langs} exited {result['code']}:\n{done.stderr[-3000:]}")
    kits = sorted(p.name for p in out.rglob("*-kit-a4-*.pdf"))
    result["kits"] = kits
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", type=Path, help="a game folder that lists at least five languages")
    parser.add_argument("--langs", help="comma-separated languages (default: the game's first five)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from cardforge.frontend.translations import game_languages
    langs = args.langs.split(",") if args.langs else game_languages(args.game)[:5]
    if len(langs) < 2:
        sys.exit(f"{args.game} lists {len(langs)} language(s); the bench needs several")
    one, many = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            single = build(args.game.resolve(), langs[0], Path(tmp) / "one")
            every = build(args.game.resolve(), ",".join(langs), Path(tmp) / "many")
            one.append(single["seconds"])
            many.append(every["seconds"])
            print(f"run {run + 1}: 1 language {single['seconds']:.2f} s, {len(langs)} languages "
                  f"{every['seconds']:.2f} s ({len(every['kits'])} kits)")
    twice = {name: n for name, n in every["parsed"].items() if n > 1}
    print(f"font files parsed in the {len(langs)}-language build: "
          + ", ".join(f"{name} x{n}" for name, n in sorted(every["parsed"].items())))
    if twice:
        sys.exit(f"fonts parsed more than once: {twice}")
    if len(every["kits"]) != len(langs):
        sys.exit(f"expected {len(langs)} kits, got {every['kits']}")
    ratio = statistics.median(many) / statistics.median(one)
    print(f"median: 1 language ({langs[0]}) {statistics.median(one):.2f} s, {len(langs)} languages "
          f"({','.join(langs)}) {statistics.median(many):.2f} s")
    print(f"ratio: {ratio:.2f} (target <= {TARGET})")
    if ratio > TARGET:
        sys.exit(1)


if __name__ == "__main__":
    main()
