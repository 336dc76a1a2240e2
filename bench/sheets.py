"""Paper used by each duplex kit: sheets, under-filled sheets and the lower bound (issue 22).

    python bench/sheets.py BUILD_DIR            # a folder written by `cardforge build --out BUILD_DIR`
    python bench/sheets.py BUILD_DIR --pages    # and every page's coverage

Reads only the kits' manifests (`<game>-kit-<paper>.manifest.json`).  A duplex sheet is pages
2k-1 and 2k.  A page's coverage is the area of the pieces printed on it (trim boxes of cards and
tokens, the window of a board tile, the outline of a template) over the page's area.  A sheet is
under-filled when both its sides are under 30% covered; cover, guide and reference sheets do not
count.  The cards column counts the sheets of cards alone (to compare `--imposition gang`).  The lower bound is what the cut pieces need at best: the sheet sides of
the cover, guide and reference pages, plus the total bleed-box area of every piece's front over
the usable area of one sheet side (the page less 4 mm at the sides and 8.2 mm at top and bottom,
which is where cardforge lets pieces go); a kit whose manifest states the build's own bound
(`sheets.lower_bound`, output/sheets.py) is shown with that one.
"""
from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

UNDER = 0.30
NOT_CUT = ("cover", "guide", "references")  # sections whose sheets are not judged by fill
MARGIN_X, MARGIN_Y = 4.0, 8.2  # mm


def page_areas(manifest: dict) -> tuple[dict[int, float], float]:
    """Covered area per page (mm²), and the total bleed-box area of the fronts of every piece."""
    covered: dict[int, float] = defaultdict(float)
    need = 0.0
    for section in ("cards", "tokens", "boards", "references", "templates"):
        for record in manifest.get(section) or []:
            if section == "templates":
                w, h = record["outline"][2:]
                covered[record["page"]] += w * h
                need += w * h
                continue
            if "window" in (record.get("tile") or {}):
                w, h = record["tile"]["window"][2:]
                covered[record["page"]] += w * h
                need += w * h
                continue
            w, h = record["trim"][2:]
            b = record.get("bleed", 0.0)
            covered[record["page"]] += w * h
            if record["side"] == "front" and section != "references":
                need += (w + 2 * b) * (h + 2 * b)
    return covered, need


def measure(path: Path) -> dict:
    manifest = json.loads(path.read_text("utf-8"))
    pages = manifest["pages"]
    covered, need = page_areas(manifest)
    fill = {p["page"]: covered.get(p["page"], 0.0) / (p["size"][0] * p["size"][1]) for p in pages}
    sheets = math.ceil(len(pages) / 2)
    under, fixed = [], 0
    for k in range(sheets):
        sides = [p for p in pages[2 * k:2 * k + 2]]
        if any(p["section"] in NOT_CUT for p in sides):
            fixed += 1
            continue
        if all(fill[p["page"]] < UNDER for p in sides):
            under.append(sides[0]["page"])
    w, h = pages[0]["size"]
    usable = (min(w, h) - 2 * MARGIN_X) * (max(w, h) - 2 * MARGIN_Y)
    cards = sum(1 for k in range(sheets) if pages[2 * k]["section"] == "cards")
    return {"pages": len(pages), "sheets": sheets, "under": under, "fixed": fixed, "cards": cards,
            "bound": (manifest.get("sheets") or {}).get("lower_bound", fixed + math.ceil(need / usable)), "fill": fill, "manifest": manifest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path)
    parser.add_argument("--pages", action="store_true", help="print every page's coverage")
    args = parser.parse_args()
    print(f"{'kit':34} {'pages':>5} {'sheets':>6} {'bound':>5} {'under':>5} {'cards':>5}  under-filled sheets (first page)")
    totals = defaultdict(int)
    for path in sorted(args.build.glob("*/*-kit-*.manifest.json")):
        m = measure(path)
        kit = path.name.removesuffix(".manifest.json")
        print(f"{kit:34} {m['pages']:5} {m['sheets']:6} {m['bound']:5} {len(m['under']):5} {m['cards']:5}  "
              f"{', '.join(map(str, m['under']))}")
        paper = "a4" if "-a4" in kit else "letter"
        totals[paper, "sheets"] += m["sheets"]
        totals[paper, "bound"] += m["bound"]
        totals[paper, "under"] += len(m["under"])
        totals[paper, "cards"] += m["cards"]
        if args.pages:
            for p in m["manifest"]["pages"]:
                print(f"    {p['page']:3} {p['section']:10} {m['fill'][p['page']]:5.0%}  {p['content']}")
    for paper in ("a4", "letter"):
        print(f"total {paper:28} {'':5} {totals[paper, 'sheets']:6} {totals[paper, 'bound']:5} "
              f"{totals[paper, 'under']:5} {totals[paper, 'cards']:5}")


if __name__ == "__main__":
    main()
