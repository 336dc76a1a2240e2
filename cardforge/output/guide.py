"""The print and assembly guide: the kit's first pages after the cover, and its own PDF.

The guide is data drawn by layouts, like every other sheet: this module builds its model from the
kit's final pages (their sections, sheet kinds and page numbers, from the sheet plan in
sheets.py), the game's pieces and the rulebook's component list (frontend/components.py); the
shipped layouts `guide-print`, `guide-assembly` and `guide-components` (layout/common/) draw it
with the same renderer as the cards (docpage.py).  Between them sits the duplex alignment test (calibrate.py),
to print first.  Page numbers are read when the pages are drawn, once the kit's order is final."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..frontend.translations import translator
from ..units import MM
from .calibrate import draw_back, draw_front
from .docpage import layout_page
from .impose import OVERLAP, paper_size, plan_tiles

if TYPE_CHECKING:
    from ..prepare import Prepared
    from .pages import Page, PrintOptions
    from .pdf import Writer

LAYOUTS = ("guide-print", "guide-assembly", "guide-components")
STOCK = {  # what to print each section on
    "cover": "plain paper, 80-100 g/m²",
    "guide": "plain paper, 80-100 g/m²",
    "cards": "card stock, 200-300 g/m² (or paper, sleeved in front of an old playing card)",
    "tokens": "card stock, 250-300 g/m², or paper glued onto 1-2 mm card before cutting",
    "boards": "paper or light card, 120-200 g/m²; glue onto card or foam board",
    "references": "plain paper, 80-120 g/m²",
    "templates": "card stock, 250-300 g/m² (or clear film for the round templates)",
}


def guide_pages(prep: "Prepared", options: "PrintOptions", kit_pages: Callable[[], list["Page"]]) -> list["Page"]:
    """The guide's pages: how to print (the back of the cover), the alignment test (one sheet),
    then what to cut and assemble, and the component counts (one sheet)."""
    from .pages import Page
    width, height = paper_size(options.paper)
    model = _Model(prep, options, kit_pages)
    name = model.tr("Print and assembly guide")

    def guide(label: str, layout: str) -> "Page":
        page = layout_page(options.paper, "guide", f"{name}: {model.tr(label)}", layout, model.data, name=name,
                           header_key="guide" if layout == LAYOUTS[0] else None)
        page.role = "guide"
        return page
    return [guide("how to print", "guide-print"),
            Page(width, height, "guide", model.tr("Duplex alignment test: front (print this sheet first)"),
                 _calibration(options, "front", model.tr), name=model.tr("Duplex alignment test"), role="guide"),
            Page(width, height, "guide", model.tr("Duplex alignment test: back"), _calibration(options, "back", model.tr),
                 name=model.tr("Duplex alignment test"), role="guide"),
            guide("cut and assemble", "guide-assembly"),
            guide("pieces against the rulebook", "guide-components")]


def _calibration(options: "PrintOptions", side: str, tr):
    def draw(writer: "Writer", number: int) -> None:
        fonts = writer.prep.fonts
        font, bold = fonts.family("sans").face("regular"), fonts.family("sans").face("bold")
        w, h = paper_size(options.paper)
        if side == "front":
            draw_front(writer.canvas, w, h, options.paper, options.flip, fonts, font, bold, tr)
        else:
            draw_back(writer.canvas, w, h, fonts, font, bold, tr)
    return draw


def _ranges(numbers: list[int]) -> str:
    """1, 3, 4, 5, 9 -> "1, 3-5, 9"."""
    out: list[str] = []
    for n in numbers:
        if out and n == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


class _Model:
    """The data the guide's layouts draw, computed once the kit's page order is final."""

    def __init__(self, prep: "Prepared", options: "PrintOptions", kit_pages: Callable[[], list["Page"]]):
        self.prep, self.options, self.kit_pages = prep, options, kit_pages
        self._data: dict | None = None
        self.tr = translator(getattr(prep.game.overlay, "strings", None) or {})

    def data(self) -> dict:
        if self._data is None:
            self._data = self._build()
        return self._data

    def _build(self) -> dict:
        pages = list(enumerate(self.kit_pages(), start=1))
        game, options = self.prep.game, self.options
        duplex = options.mode == "duplex"
        runs: list[dict] = []  # consecutive pages of one section and one sheet kind
        for number, page in pages:
            kind = (page.sheet or {}).get("kind", "one-sided") if duplex else options.mode
            key = ("guide" if page.section == "cover" else page.section, kind)
            names = page.names or ([page.name] if page.name else [])
            if runs and runs[-1]["key"] == key:
                runs[-1]["numbers"].append(number)
                runs[-1]["names"] += [name for name in names if name not in runs[-1]["names"]]
            else:
                runs.append({"key": key, "numbers": [number], "names": list(names)})
        tr = self.tr
        flip = tr("double-sided, flip on the {edge} edge", edge=tr(options.flip))
        how = {"two-sided": flip, "reference": flip,
               "one-sided": tr("double-sided with the rest (every back is blank), or only its odd pages single-sided"),
               "simplex": tr("single-sided; the backs follow the fronts at the end"),
               "fold": tr("single-sided, then fold")}
        sections = []
        for run in runs:
            section, kind = run["key"]
            numbers = run["numbers"]
            sheets = (len(numbers) + 1) // 2 if duplex else len(numbers)
            sections.append({"pages": _ranges(numbers), "what": f"{tr(section.capitalize())}: {', '.join(run['names'])}",
                             "print": how[kind], "stock": tr(STOCK.get(section, "plain paper")), "sheets": sheets})
        total = (len(pages) + 1) // 2 if duplex else len(pages)
        first: dict[str, list[int]] = {}  # section -> its pages
        named: dict[str, list[int]] = {}  # board name -> its pages
        for number, page in pages:
            first.setdefault(page.section, []).append(number)
            if page.section == "boards":
                named.setdefault(page.name, []).append(number)
        test = _ranges(first.get("guide", [])[1:3])
        paper = options.paper.upper() if options.paper == "a4" else "US Letter"
        intro = tr("**{sheets} sheets of {paper}**, printed double-sided." if duplex else "**{sheets} sheets of {paper}**.",
                   sheets=total, paper=paper)
        intro += " " + tr("Print at 100% (actual size), never \"fit to page\": the 50 mm bar at the foot of every "
                          "page must measure 50 mm.")
        if duplex:
            intro += " " + tr("Your printer turns each sheet about its {edge} edge (set it so). Print the alignment "
                              "test (pages {pages}) first. Every page of cut pieces has its own backs or a blank page "
                              "behind it, so the whole kit can go through the printer in one double-sided job.",
                              edge=tr(options.flip), pages=test)
        return {"game": game.name, "paper": options.paper.upper() if options.paper == "a4" else "US Letter",
                "intro": intro, "sections": sections, "steps": self._steps(first, named, test),
                "components": self._components(), "source": "components.yaml" if self.prep.components else ""}

    def _steps(self, first: dict[str, list[int]], named: dict[str, list[int]], test: str) -> list[dict]:
        game, options, tr = self.prep.game, self.options, self.tr
        steps: list[str] = []
        if options.mode == "duplex":
            steps.append(tr("Print the duplex alignment test (pages {pages}) and hold it to a light. If the cross on "
                            "the front does not show through at 0,0 on the back's rulers, build again with "
                            "--back-offset X,Y (the test's front says how).", pages=test))
        steps.append(tr("Print the kit. Check the 50 mm bar on one page with a ruler before you cut anything."))
        decks = {section: [d for d in game.component(section) if d.cards] for section in ("cards", "tokens")}
        if decks["cards"]:
            n = sum(c.quantity for d in decks["cards"] for c in d.cards)
            steps.append(tr("Cards (pages {pages}): {count} cards. Cut on the crop marks in the margins: first the "
                            "long cuts across the sheet, then the short ones. A guillotine or a craft knife and a "
                            "steel rule keep the edges straight.", pages=_ranges(first["cards"]), count=n))
        if any(d.mode == "fold" for ds in decks.values() for d in ds):
            steps.append(tr("Fold-over pieces: fold along the dashed line so that the back lies behind the front, "
                            "glue the halves together, then cut."))
        if decks["tokens"]:
            n = sum(c.quantity for d in decks["tokens"] for c in d.cards)
            shaped = any(d.shape != "rect" for d in decks["tokens"])
            steps.append(tr("Tokens (pages {pages}): {count} tokens. For sturdy tokens glue the sheet onto thin card "
                            "first (a two-sided sheet: print on card stock instead). Cut on the crop marks"
                            + ("; round and triangular pieces on their grey outline." if shaped else "."),
                            pages=_ranges(first["tokens"]), count=n))
        for board in game.boards:
            if board.component != "boards":
                continue
            tiles = plan_tiles(options.paper, board.width, board.height, game.bleed)
            pages = named.get(board.name, [])
            if len(tiles) == 1:
                steps.append(tr("{name}: one sheet. Cut on the crop marks; glue it onto card or foam board to "
                                "keep it flat.", name=board.name))
            else:
                cols, rows = tiles[0].cols, tiles[0].rows
                steps.append(tr("{name}: {tiles} tiles ({rows} row" + ("s" if rows > 1 else "") + " of {cols}, pages "
                                "{pages}). Trim the white margin off each tile. Neighbouring tiles share a {overlap} mm "
                                "strip: lay each tile where the small map in its corner shows, over its neighbour, "
                                "until the crossed circles on both match; glue the strip, then glue the whole board "
                                "onto card.", name=board.name, tiles=len(tiles), rows=rows, cols=cols,
                                pages=_ranges(pages), overlap=f"{OVERLAP / MM:.0f}"))
        if game.templates:
            steps.append(tr("Templates (pages {pages}): cut on the magenta line. Strips and rulers longer than a "
                            "page come in segments: join them end to end in the order their ends name and tape them "
                            "on the back. Measure one against a ruler.", pages=_ranges(first["templates"])))
        if first.get("references"):
            steps.append(tr("Reference sheets (pages {pages}): no cutting; keep them beside the table, or in sheet "
                            "protectors.", pages=_ranges(first["references"])))
        return [{"step": i, "text": text} for i, text in enumerate(steps, start=1)]

    def _components(self) -> list[dict]:
        rows = []
        for entry in self.prep.components:
            stated = self.tr("not stated") if entry.count is None else str(entry.count)
            check = "--" if entry.count is None else self.tr("yes") if entry.count == entry.built else self.tr("NO")
            rows.append({"name": self.tr(entry.name), "kit": entry.built, "rulebook": stated, "matches": check,
                         "section": self.tr(entry.section) + (f" ({self.tr(entry.note)})" if entry.note else "")})
        return rows
