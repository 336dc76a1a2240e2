"""Where a rule's finding points: a card field, a needle inside a value, a rulebook section."""
from __future__ import annotations

import difflib

from ..diagnostics import Position, refine  # noqa: F401  (refine: where a needle is in a value)
from ..frontend.load import pointer_join
from ..frontend.model import Card

def _field_pointer(path: str) -> str:
    pointer = ""
    for part in str(path).replace("/", ".").split("."):
        if part:
            pointer = pointer_join(pointer, part)
    return pointer


def card_pos(card: Card, path: str | None) -> Position:
    if not path:
        return card.pos()
    return card.doc.pos(card.pointer + _field_pointer(path))


def _with_section(help_text: str | None, section: str | None) -> str | None:
    parts = [p for p in (help_text, f"rulebook: {section}" if section else None) if p]
    return "; ".join(parts) if parts else None


def _guess(name: str, options) -> str:
    match = difflib.get_close_matches(str(name), sorted(set(map(str, options))), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'? " if match else ""


def piece_pos(piece, fields: list[str]) -> Position:
    """The first card field a frame's templates use that the card's file sets, else the card."""
    for name in fields:
        if isinstance(piece, Card):
            if name in piece.entry:
                return piece.pos(name)
        elif name in piece.data:
            return piece.pos(f"data/{name}")
    return piece.pos()
