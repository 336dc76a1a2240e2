#!/usr/bin/env python3
"""Benchmark: text setting alone (layout/text.py): parse a card's markup and fit it into a frame.

    python bench/textfit.py            # every text field of the games in content/, and a CJK corpus
    python bench/textfit.py --runs 5

The texts are every string field of every card of content/*/cards/*.yaml (English), and Chinese and
Japanese sentences (written for the tests) made into 300 different card-length texts.
Each run empties the caches of text.py (the widths, the shared words, the break offsets), then
parses and fits every text in a 55 x 40 mm frame from 9 pt down to 6 pt, as a card's body frame
does.  Printed: the minimum over --runs of the time per text, in microseconds, for each corpus.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cardforge.layout import text as richtext  # noqa: E402
from cardforge.layout.fonts import builtin_fonts  # noqa: E402
from cardforge.units import mm  # noqa: E402,F401

CJK = ["他说：“你好。”然后走了。（这是一张牌。）在你的回合：“抽1张牌”，然后获得2点资源。",
       "このカードをプレイしたとき、「準備はできた」と宣言する。“あなたの手札”から1枚を捨てる。"]


def english_texts() -> list[str]:
    texts = []
    for path in sorted(REPO.glob("content/*/cards/*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8")) or {}
        for card in data.get("cards") or []:
            if isinstance(card, dict):
                texts += [v for v in card.values() if isinstance(v, str) and len(v) > 20]
    return texts


def run(texts: list[str], family, runs: int) -> float:
    best = float("inf")
    width, height = 55 * 72 / 25.4, 40 * 72 / 25.4
    for _ in range(runs):
        for cache in ("_WIDTHS", "_PLAIN_WORDS", "_BREAKS"):
            getattr(richtext, cache, {}).clear()
        start = time.perf_counter()
        for text in texts:
            rich = richtext.parse(text, family, "regular", lambda name: False)
            richtext.fit(rich, width, height, 9, 6, 1.2)
        best = min(best, time.perf_counter() - start)
    return best / len(texts) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    fonts = builtin_fonts()
    english = english_texts()
    cjk = [f"第{n}：" + sentence * k for n in range(50) for sentence in CJK for k in (1, 2, 3)]  # each text once
    print(f"english: {len(english)} texts, {run(english, fonts.family('sans'), args.runs):.1f} us per text")
    print(f"cjk: {len(cjk)} texts, {run(cjk, fonts.family('cjk'), args.runs):.1f} us per text")


if __name__ == "__main__":
    main()
