"""What a planned page is: its size, its section and role, and how it is drawn (a callback the
writer runs), with the print options it was planned for.  Planning (pages.py, sheets.py, guide.py)
makes pages and the writer (pdf.py) draws them; both read these types, so imports run one way:
planning -> writer -> page."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class PrintOptions:
    """How the user will print: paper, print mode, duplex flip, the printer's back misregistration
    (points, added to every back page) and the imposition of cards."""
    paper: str = "a4"
    mode: str = "duplex"
    flip: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    imposition: str = "bleed"
    lang: str | None = None  # a translation's language: last in the file name (bomber-boys-kit-a4-de.pdf)

    @property
    def suffix(self) -> str:
        """File-name suffix: the default kit has none, so its name stays the same."""
        parts = [self.mode] if self.mode != "duplex" else []
        parts += ["short-flip"] if self.flip == "short" and self.mode == "duplex" else []
        parts += ["gang"] if self.imposition == "gang" else []
        parts += [self.lang] if self.lang else []
        return "".join(f"-{p}" for p in parts)


@dataclass
class Page:
    """One planned page: its size, what it holds, and how to draw it."""
    width: float
    height: float
    section: str  # cards, boards, tokens, references (or cover)
    label: str  # shown in the footer and, for a component's first page, in the contents
    draw: Callable[[Any, int], None]  # (the writer of pdf.py, which imports this module; the page number)
    scale_bar: bool = True
    name: str = ""  # the deck, board or sheet on it, as the kit's contents list it
    names: list[str] | None = None  # every deck on it, where several share the page (pack.py)
    role: str = "single"  # fronts, backs, single (cut, one-sided), reference or cover: see sheets.py
    footer_left: bool = False  # the block fills the page's height: the footer runs up the left margin
    furniture: bool = True  # the footer and scale bar (a print shop's page holds the piece alone)
    sheet: dict | None = None  # in a duplex kit: its sheet's kind and the side it prints on
    shares: tuple[str, ...] = ()  # the other sections whose pieces it holds (tokens on the last card sheet)

    @property
    def sections(self) -> tuple[str, ...]:
        """Every section with pieces on the page: its own first."""
        return (self.section, *self.shares)


def blank_page(like: Page, label: str = "intentionally blank") -> Page:
    """The back of a sheet that holds nothing (sheets.py).  Only its footer says so (`label`, in the
    kit's language), in the band no piece uses, so that a printer set to skip empty pages cannot
    shift every later back."""
    return Page(like.width, like.height, like.section, label, lambda writer, number: None,
                footer_left=like.footer_left, role="blank", shares=like.shares)
