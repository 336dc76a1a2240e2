"""Provenance: what the rulebook gives and what is authored, counted per component.

Cards and tokens count printed pieces (a card of quantity 8 is 8 pieces); boards and reference sheets
count the sheets and, separately, the rows of their `data` (every mapping inside a list); tables
count their rows. A piece or row is authored when it says `authored: true`."""
from __future__ import annotations

from typing import Any

from .model import Game


def _rows(value: Any) -> list[dict]:
    """Every mapping that is an item of a list, at any depth."""
    out: list[dict] = []
    if isinstance(value, dict):
        for item in value.values():
            out += _rows(item)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                out.append(item)
            out += _rows(item)
    return out


def _tally(items: list[tuple[bool, int]]) -> dict[str, int]:
    return {"given": sum(n for authored, n in items if not authored),
            "authored": sum(n for authored, n in items if authored)}


def provenance(game: Game) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for component in ("cards", "tokens"):
        pieces = [(bool(card.data.get("authored")), card.quantity)
                  for deck in game.component(component) for card in deck.cards]
        if pieces:
            out[component] = _tally(pieces)
    for component in ("boards", "references"):
        boards = game.component(component)
        if boards:
            sheets = [(bool(_entry(game, board).get("authored")), 1) for board in boards]
            rows = [(bool(row.get("authored")), 1) for board in boards for row in _rows(board.data)]
            out[component] = dict(_tally(sheets), rows=_tally(rows))
    if game.tables:  # typed or bare, from game.yaml or their own files (tables.py)
        out["tables"] = _tally([(bool(row.get("authored")), 1) for rows in game.tables.values()
                                for row in rows if isinstance(row, dict)])
    return out


def _entry(game: Game, board) -> dict:
    data: Any = game.data
    for part in board.pointer.strip("/").split("/"):
        data = data[int(part)] if isinstance(data, list) else data.get(part, {})
    return data if isinstance(data, dict) else {}


def summary(counts: dict[str, dict], tr=None) -> list[str]:
    """One line per component for the kit's cover, in the kit's language (`tr`, translations.py):
    each line's English, with its numbers in braces, is its key in the string table."""
    from .translations import translator
    tr = tr or translator({})
    lines = []
    for component, tally in counts.items():
        total = tally["given"] + tally["authored"]
        unit = {"cards": "card", "tokens": "token", "boards": "board", "references": "sheet",
                "tables": "table row"}[component] + ("" if total == 1 else "s")
        line = tr(f"{component.capitalize()}: {{total}} {unit}, {{given}} given by the rulebook, {{authored}} authored",
                  total=total, given=tally["given"], authored=tally["authored"])
        if "rows" in tally and sum(tally["rows"].values()):
            line += tr("; data rows {given} given, {authored} authored", given=tally["rows"]["given"],
                       authored=tally["rows"]["authored"])
        lines.append(line)
    return lines
