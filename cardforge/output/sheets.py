"""The sheet plan of a duplex kit: which pages share a sheet of paper, and why.

A duplex printer puts page 2k-1 on the front of a sheet and page 2k on its back, so whatever two
pages share a sheet are cut together.  A sheet is one of three kinds:

- `two-sided`: cut pieces on the front and their own backs on the back, each behind its front
  (a piece without a back of its own has blank paper behind it);
- `one-sided`: cut pieces (a board tile, templates, single-sided tokens) with a blank back, so
  that cutting them cuts through nothing else;
- `reference`: pages read rather than cut (the cover and guide, reference and rules sheets),
  printed back to back.

Each component starts a sheet of its own, so that its PDF, cut out of the kit, pairs the same way.
The manifest records every page's sheet kind and side; the guide and the tests read it there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .pages import Page

KINDS = {
    "two-sided": "print double-sided",
    "one-sided": "print single-sided (its back stays blank)",
    "reference": "print double-sided",
}
READ = ("cover", "guide", "reference")  # page roles whose pages are read, not cut
FRONT_MATTER = {"cover", "guide"}  # sections whose pages share sheets with each other


@dataclass
class Sheet:
    kind: str
    front: "Page"
    back: "Page"  # a blank page where nothing belongs on the back

    @property
    def pages(self) -> tuple["Page", "Page"]:
        return self.front, self.back


def kind_of(page: "Page") -> str:
    if page.role in READ:
        return "reference"
    return "two-sided" if page.role == "fronts" else "one-sided"


def plan_sheets(pages: list["Page"], blank: str = "intentionally blank") -> list[Sheet]:
    """Pages paired into sheets: fronts with the backs that follow them, two read pages of one
    section back to back, and every other page alone on its sheet with a blank back."""
    from .pages import blank_page
    sheets: list[Sheet] = []
    i = 0
    while i < len(pages):
        page = pages[i]
        after = pages[i + 1] if i + 1 < len(pages) else None
        kind = kind_of(page)
        same = after is not None and (after.section == page.section or {page.section, after.section} == FRONT_MATTER)
        pairs = same and (
            (page.role == "fronts" and after.role == "backs") or
            (kind == "reference" and kind_of(after) == "reference"))
        sheets.append(Sheet(kind, page, after if pairs else blank_page(page, blank)))
        i += 2 if pairs else 1
    return sheets


def duplex_pages(pages: list["Page"], blank: str = "intentionally blank") -> list["Page"]:
    """The pages in print order, each sheet's front on an odd page and its back (or a blank
    page, saying `blank` in the kit's language) on the even page after it; every page knows its
    sheet's kind and side."""
    out: list["Page"] = []
    for sheet in plan_sheets(pages, blank):
        for side, page in zip(("front", "back"), sheet.pages):
            page.sheet = {"kind": sheet.kind, "side": side}
            out.append(page)
    return out


def lower_bound(prep, paper: str, pages: list["Page"], gang: bool = False) -> dict:
    """The kit's sheets beside the fewest it could have: its read sheets (cover, guide, reference
    sheets) as they are, plus the bleed-box area of every piece's front (a ganged card's trim box: its
    block has one bleed round it) over the area one sheet side offers pieces (the page less 4 mm at
    the sides and the 8.2 mm footer band top and bottom)."""
    from .impose import FOOTER_TOP, MIN_MARGIN, paper_size, plan
    from .pack import as_dense_as_other_papers
    game = prep.game

    def piece_bleed(deck) -> float:
        """Ganged cards (pack.py) share one bleed round their block: each needs its trim box only."""
        if deck.shape != "rect" or deck.gap or deck.mode == "fold":
            return deck.bleed
        sheet = plan(paper, deck.width, deck.height, deck.bleed, gap=deck.gap)
        return 0.0 if gang or sheet is not None and as_dense_as_other_papers(paper, deck, sheet) is not None else deck.bleed
    area = 0.0
    for deck in game.decks:
        b = piece_bleed(deck)
        area += sum(card.quantity for card in deck.cards) * (deck.width + 2 * b) * (deck.height + 2 * b)
    area += sum((b.width + 2 * game.bleed) * (b.height + 2 * game.bleed) for b in game.component("boards"))
    area += sum(piece.quantity * piece.width * piece.height for piece in game.templates)
    short, long = paper_size(paper)
    usable = (short - 2 * MIN_MARGIN) * (long - 2 * FOOTER_TOP)
    sheets = [pages[i:i + 2] for i in range(0, len(pages), 2)]
    read = sum(1 for pair in sheets if (pair[0].sheet or {}).get("kind") == "reference")
    return {"count": len(sheets), "read": read, "lower_bound": read + math.ceil(area / usable - 1e-9)}


def summary(manifest_path) -> str | None:
    """One line for the build's summary: a kit's sheets beside its lower bound (from its manifest)."""
    import json
    with open(manifest_path, encoding="utf-8") as handle:
        sheets = json.load(handle).get("sheets")
    if not sheets:
        return None
    return (f"{sheets['count']} sheets (lower bound {sheets['lower_bound']}: {sheets['read']} to read, "
            f"{sheets['lower_bound'] - sheets['read']} by the pieces' area)")
