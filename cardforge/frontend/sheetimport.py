"""`cardforge import csv|xlsx FILE --deck ID`: a spreadsheet of cards as a YAML card file.

The sheet is read exactly as a deck's `cards:` reads it (frontend/sheets.py: typed by the deck's
fields, empty rows skipped, merged cells and formulas as values) and checked against the deck's
card schema; the YAML is written only when the sheet is clean."""
from __future__ import annotations

from pathlib import Path

import yaml

from ..diagnostics import Position, Report
from .model import Deck, Game
from .schema import deck_card_schema
from .sheets import load_sheet, validate_sheet

COMMON_FIRST = ("id", "quantity", "front", "back")


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _list(dumper, value: list):
    flow = all(not isinstance(v, (list, dict)) for v in value) and len(value) <= 12
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_Dumper.add_representer(str, _str)
_Dumper.add_representer(list, _list)


def sheet_to_yaml(game: Game, deck: Deck, path: Path, sheet: str | None, report: Report) -> tuple[str, int] | None:
    """The YAML text of a card file holding the sheet's cards and their number, or None after
    reporting why not."""
    deck_data = game.data["decks" if deck.component == "cards" else "tokens"][int(deck.pointer.rsplit("/", 1)[1])]
    schema = deck_card_schema(deck.fields, deck_data.get("required", []))
    doc = load_sheet(path, sheet, schema["$defs"]["card"]["properties"], [deck.id, deck.name], report,
                     Position(path, 1, 1))
    if doc is None or not validate_sheet(doc, schema, report):
        return None
    cards = []
    for card in doc.data["cards"]:
        ordered = {k: card[k] for k in COMMON_FIRST if k in card}
        ordered.update({k: v for k, v in card.items() if k not in ordered})
        cards.append(ordered)
    header = f"# {deck.name}: imported from {path.name}{'#' + sheet if sheet else ''} by `cardforge import`.\n"
    body = yaml.dump({"cards": cards}, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=False)
    return header + body.replace("\n- id:", "\n\n- id:").replace("cards:\n\n", "cards:\n", 1), len(cards)
