"""The print and assembly guide: the kit's first pages after the cover, and its own PDF.

Written for a player with the PDF, a printer and scissors.  The guide is data drawn by layouts,
like every other sheet: this module builds its model from the kit's final pages (their sections,
sheet kinds and page numbers, from the sheet plan in sheets.py), the game's pieces and the
components.yaml list (frontend/components.py: the pieces, what the player brings, where the rules
are); the shipped layouts `guide-print`, `guide-assembly` and `guide-components` (layout/common/)
draw it with the same renderer as the cards (docpage.py).  Between them sits the duplex alignment
test (calibrate.py), to print first.  Page numbers are the PDF's own, the ones the player's viewer
and every footer show, read when the pages are drawn, once the kit's order is final.  The
"cut and assemble" page ends with each page's ink coverage, known only once the kit is drawn: that
page is drawn again with it and put in the kit's place (ink.print_ink).

No page of the guide speaks to the designer: the counts against the rulebook go to the manifest
(the guide's header record, `rulebook_counts`) and `cardforge check`, never onto paper."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..frontend.translations import translator
from ..units import MM
from .calibrate import draw_back, draw_flip_diagrams, draw_front
from .docpage import SIZE, layout_page
from .impose import OVERLAP, paper_size, plan_tiles
from .ink import percent

if TYPE_CHECKING:
    from ..prepare import Prepared
    from .ink import KitInk
    from .pages import Page, PrintOptions
    from .pdf import Writer

LAYOUTS = ("guide-print", "guide-assembly", "guide-components")
# What to print each section on, by paper weight: one row of the guide's table per weight.
PLAIN = "Plain paper, 80-120 g/m²"
LIGHT_CARD = "Paper or light card, 120-200 g/m²"
CARD = "Card stock, 200-300 g/m²"
STOCK = {"cover": PLAIN, "guide": PLAIN, "references": PLAIN, "boards": LIGHT_CARD,
         "cards": CARD, "tokens": CARD, "templates": CARD}
DIAGRAM = (4 * MM, 4 * MM, 182 * MM, 50 * MM)  # the flip drawing's box in guide-print, from its bottom-left


def guide_pages(prep: "Prepared", options: "PrintOptions", kit_pages: Callable[[], list["Page"]],
                ink: "KitInk | None" = None) -> list["Page"]:
    """The guide's pages: how to print (the back of the cover), the alignment test (one sheet),
    then what to cut and assemble with each page's ink (`ink`, once measured: output/ink.py), and
    what the game needs (one sheet)."""
    from .pages import Page
    width, height = paper_size(options.paper)
    model = _Model(prep, options, kit_pages, ink)
    name = model.tr("Print and assembly guide")

    def diagrams(writer: "Writer", x: float, y: float) -> None:
        fonts = writer.prep.fonts
        font, bold = fonts.family("sans").face("regular"), fonts.family("sans").face("bold")
        bx, by, bw, bh = DIAGRAM
        draw_flip_diagrams(writer.canvas, fonts, font, bold, x + bx, y + by, bw, bh, options.flip, model.tr)

    def guide(label: str, layout: str) -> "Page":
        first = layout == LAYOUTS[0]
        data = model.with_ink if layout == "guide-assembly" else model.data
        page = layout_page(options.paper, "guide", f"{name}: {model.tr(label)}", layout, data, name=name,
                           header_key="guide" if first else None,
                           overlay=diagrams if first and options.mode == "duplex" else None)
        page.role = "guide"
        page.prints_ink = layout == "guide-assembly"  # drawn again once the kit's ink is measured (ink.py)
        return page
    return [guide("how to print", "guide-print"),
            Page(width, height, "guide", model.tr("Duplex alignment test: front (print this sheet first)"),
                 _calibration(options, "front", model.tr), name=model.tr("Duplex alignment test"), role="guide"),
            Page(width, height, "guide", model.tr("Duplex alignment test: back"), _calibration(options, "back", model.tr),
                 name=model.tr("Duplex alignment test"), role="guide"),
            guide("cut and assemble", "guide-assembly"),
            guide("what you need", "guide-components")]


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

    def __init__(self, prep: "Prepared", options: "PrintOptions", kit_pages: Callable[[], list["Page"]],
                 ink: "KitInk | None" = None):
        self.prep, self.options, self.kit_pages, self.ink = prep, options, kit_pages, ink
        self._data: dict | None = None
        self.tr = translator(getattr(prep.game.overlay, "strings", None) or {})

    def data(self) -> dict:
        if self._data is None:
            self._data = self._build()
        return self._data

    def with_ink(self) -> dict:
        """The data and each page's ink coverage, as measured when the page is drawn (the kit is
        drawn more than once: output/ink.py), never cached."""
        return dict(self.data(), **self._ink())

    def _ink(self) -> dict:
        """Each page's ink, runs of pages with the same whole percent as one range: "1: 16 % · 3-4: 2 %"."""
        coverage = self.ink.pages if self.ink is not None else None
        if not coverage:
            return {"ink_label": "", "ink_intro": "", "ink": ""}
        runs: list[list] = []
        for number, value in enumerate(coverage, start=1):
            shown = percent(value)
            if runs and runs[-1][2] == shown:
                runs[-1][1] = number
            else:
                runs.append([number, number, shown])
        entries = (f"{a}: {v}" if a == b else f"{a}-{b}: {v}" for a, b, v in runs)
        listed = " · ".join(entry.replace(" ", "\u00a0") for entry in entries)  # lines break between entries only
        mean = percent(sum(coverage) / len(coverage))
        intro = self.tr("How much of each page your printer covers with ink (0 % is blank paper, 100 % solid black), "
                        "by page number; the pages' mean is {mean}.", mean=mean)
        return {"ink_label": self.tr("INK PER PAGE"), "ink_intro": intro, "ink": listed}

    def _build(self) -> dict:
        pages = list(enumerate(self.kit_pages(), start=1))
        game, options, tr = self.prep.game, self.options, self.tr
        duplex = options.mode == "duplex"
        # One row per paper weight and way of printing, its pages in the PDF's numbers.
        groups: dict[tuple[str, str], dict] = {}
        for number, page in pages:
            kind = (page.sheet or {}).get("kind", "one-sided") if duplex else options.mode
            sides = {"two-sided": "both", "reference": "both"}.get(kind, "front" if duplex else kind)
            section = "guide" if page.section == "cover" else page.section
            row = groups.setdefault((STOCK.get(section, PLAIN), sides), {"numbers": [], "sections": []})
            row["numbers"].append(number)
            for held in (section, *page.shares):  # tokens on a card sheet: the same stock
                if held not in row["sections"]:
                    row["sections"].append(held)
        how = {"both": tr("both sides"),
               "front": tr("front only: the backs are blank, so print only the odd pages, or run them "
                           "double-sided with the rest"),
               "simplex": tr("one side; the backs follow the fronts at the end"),
               "fold": tr("one side, then fold")}
        papers = []
        for (stock, sides), row in groups.items():
            numbers = row["numbers"]
            sheets = (len(numbers) + 1) // 2 if duplex and sides != "front" else \
                len([n for n in numbers if n % 2]) if duplex else len(numbers)
            papers.append({"paper": tr(stock), "pages": _ranges(numbers), "sheets": sheets,
                           "what": ", ".join(tr(s.capitalize()) for s in row["sections"]), "sides": how[sides]})
        total = (len(pages) + 1) // 2 if duplex else len(pages)
        first: dict[str, list[int]] = {}  # section -> its pages
        named: dict[str, list[int]] = {}  # piece name -> its pages
        for number, page in pages:
            for section in page.sections:
                first.setdefault(section, []).append(number)
            for name in page.names or ([page.name] if page.name else []):
                named.setdefault(name, []).append(number)
        test = _ranges(first.get("guide", [])[1:3])
        paper = options.paper.upper() if options.paper == "a4" else "US Letter"
        intro = tr("**{sheets} sheets of {paper}** in all, on the papers below. Print at 100% (actual size), never "
                   "\"fit to page\": the 50 mm bar at the foot of every page must measure 50 mm. Page numbers are "
                   "those your PDF viewer shows, and every page's footer.", sheets=total, paper=paper)
        data = {"game": game.name, "paper": paper, "intro": intro, "papers": papers, "test": test,
                "duplex": self._duplex(test) if duplex else [], "steps": self._steps(first, named, test)}
        data.update(self._needs(named, first))
        return data

    def _duplex(self, test: str) -> list[dict]:
        """How to print both sides: with a printer that does it, and by hand."""
        tr, edge = self.tr, self.tr(self.options.flip)
        return [
            {"head": tr("With a duplex printer"),
             "text": tr("Choose two-sided printing, flipped on the {edge} edge, and print the pages of each paper "
                        "as one job, with that paper in the tray. Print the alignment test (pages {pages}) first: "
                        "it shows whether the backs land behind the fronts, and what to do if they do not.",
                        edge=edge, pages=test)},
            {"head": tr("Without one (by hand)"),
             "text": tr("1. Print only the odd pages of a paper's range (the print dialog's \"odd pages\"). "
                        "2. Put the printed stack back in the tray in the same order, turned over about the "
                        "paper's {edge} edge, as drawn below: the same turn for every sheet, whichever way its "
                        "page is printed. Which side must face up depends on your printer: pencil an arrow on a "
                        "blank sheet and see where it comes out. 3. Print the even pages of the same range; if the "
                        "first back lands on the last front, print them in reverse order. Try it on the alignment "
                        "test (pages {pages}) first.", edge=edge, pages=test)},
            {"head": tr("No way to print both sides well"),
             "text": tr("Print single-sided, fronts and backs on separate sheets, and glue each back sheet behind "
                        "its front, lined up against a window, before you cut.")}]

    def _needs(self, named: dict[str, list[int]], first: dict[str, list[int]]) -> dict:
        """The "what you need" page: the kit's pieces to count after cutting, what the player brings,
        where the rules are; and, for the manifest only, the counts against the rulebook."""
        tr, game = self.tr, self.prep.game
        names = {piece.id: piece.name for piece in [*game.decks, *game.boards]}
        names.update({piece.id: "Templates" for piece in game.templates})
        kit, bring, rules, counts = [], [], "", []
        for entry in self.prep.components:
            if entry.kind == "bring":
                bring.append({"name": tr(entry.name), "count": "" if entry.count is None else str(entry.count),
                              "note": tr(entry.note) if entry.note else ""})
            elif entry.kind == "rules":
                rules = tr(entry.name)
            else:
                where = sorted({n for piece in entry.pieces for n in named.get(names.get(piece, ""), [])})
                kit.append({"name": tr(entry.name), "count": entry.built, "pages": _ranges(where)})
                counts.append({"name": entry.name, "kit": entry.built, "rulebook": entry.count,
                               "matches": None if entry.count is None else entry.count == entry.built,
                               "section": entry.section, "note": entry.note})
        if first.get("references") and not rules:
            rules = tr("The reference sheets (pages {pages}) hold the turn in brief.",
                       pages=_ranges(first["references"]))
        return {"kit": kit, "bring": bring, "rules": rules, "rulebook_counts": counts,
                "bring_intro": tr("The kit prints every piece of the game: bring nothing else.") if not bring else
                tr("The kit does not print these: have them ready.")}

    def _steps(self, first: dict[str, list[int]], named: dict[str, list[int]], test: str) -> list[dict]:
        game, options, tr = self.prep.game, self.options, self.tr
        steps: list[str] = []
        if options.mode == "duplex":
            steps.append(tr("Print the duplex alignment test (pages {pages}) and hold it to a light: its back says "
                            "what to do if the backs are off.", pages=test))
        steps.append(tr("Print the kit. Check the 50 mm bar on one page with a ruler before you cut anything."))
        steps.append(tr("Tools: a craft knife and a steel rule on a cutting mat (or a paper trimmer), scissors for "
                        "round pieces, and a glue stick for boards and glued tokens."))
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
