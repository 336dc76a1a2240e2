"""Where a rule's finding points: a card field, a needle inside a value, a rulebook section."""
from __future__ import annotations

import difflib
from pathlib import Path

from ..diagnostics import Position
from ..frontend.load import pointer_join
from ..frontend.model import Card

_lines: dict[tuple, list[str]] = {}


def _source(path: Path) -> list[str]:
    """The lines of a source file (cached while the file is unchanged)."""
    try:
        stat = Path(path).stat()
    except OSError:
        return []
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _lines:
        if len(_lines) > 256:
            _lines.clear()
        try:
            _lines[key] = Path(path).read_text("utf-8", errors="replace").splitlines()
        except OSError:
            _lines[key] = []
    return _lines[key]


def refine(pos: Position, needle: str | None) -> Position:
    """`pos` moved to where `needle` occurs in the value starting there (same or continuation lines)."""
    if not needle or pos.cell:  # a spreadsheet cell is as precise as it gets
        return pos
    lines = _source(pos.path)
    if not 1 <= pos.line <= len(lines):
        return pos
    first = lines[pos.line - 1]
    index = first.find(needle, pos.col - 1)
    if index >= 0:
        return Position(pos.path, pos.line, index + 1)
    indent = len(first) - len(first.lstrip())
    for number in range(pos.line, min(len(lines), pos.line + 40)):
        line = lines[number]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        index = line.find(needle)
        if index >= 0:
            return Position(pos.path, number + 1, index + 1)
    return pos


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
            entry = piece.doc.data["cards"][int(piece.pointer.rsplit("/", 1)[1])]
            if name in entry:
                return piece.pos(name)
        elif name in piece.data:
            return piece.pos(f"data/{name}")
    return piece.pos()
