"""Pages to read, drawn from a shipped layout and data: the errata changelog (and any other page
whose words are computed, not drawn by hand).  The layout draws a synthetic reference sheet whose
`board` data the caller computes when the page is drawn, so page numbers known only once the PDF's
order is final can be part of it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..frontend.model import Board
from ..units import MM
from .impose import paper_size

if TYPE_CHECKING:
    from .pages import Page
    from .pdf import Writer

SIZE = (190 * MM, 255 * MM)  # fits inside the printable area of A4 and of Letter


def layout_page(paper: str, section: str, label: str, layout_name: str, data: Callable[[], dict],
                name: str = "", header_key: str | None = None,
                overlay: Callable[["Writer", float, float], None] | None = None) -> "Page":
    """A page of `paper` with `layout_name` (a 190 x 255 mm layout) drawn in its middle from
    `data()`; with `header_key`, that data is also recorded in the manifest's header.  `overlay(writer,
    x, y)` then draws what a layout cannot (the guide's flip drawing), from the layout's bottom-left."""
    from .pages import Page
    width, height = paper_size(paper)

    def draw(writer: "Writer", number: int) -> None:
        prep = writer.prep
        layout = prep.layouts.get(layout_name, *SIZE, prep.game.doc.pos(""))
        if layout is None:
            return  # the layout's own diagnostic is in the report
        values = data()
        sheet = Board(id=layout_name, name=label, layout=layout_name, width=SIZE[0], height=SIZE[1],
                      data=values, doc=prep.game.doc, pointer="", component="references")
        x, y = (width - SIZE[0]) / 2, (height - SIZE[1]) / 2 + 2 * MM
        writer.renderer.draw(layout, sheet, "front", 1, x, y, 0.0)
        if overlay is not None:
            overlay(writer, x, y)
        if header_key and writer.manifest is not None:
            writer.manifest.header.setdefault(header_key, []).append(values)
    return Page(width, height, section, label, draw, name=name or label, role="reference")  # read, not cut
