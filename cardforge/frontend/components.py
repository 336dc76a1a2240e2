"""The rulebook's component list, as data: `components.yaml` in the game folder (optional).

Each entry names a kind of piece as the rulebook does, the count the rulebook states (or null
where it states none, with a note saying so), the rulebook section that says it, and the pieces of
this game (deck, token sheet, board, reference sheet or template ids) that make it.  The print
guide prints each entry beside the number of pieces the kit holds; a stated count that the kit
does not meet is a warning at the count, so `check` says it before anyone prints.

Two optional keys speak to the player, in the guide's "what you need" page: `bring:`, what the
rulebook asks for that the kit does not print (dice, cubes, miniatures: `{name, count, note}`), and
`rules:`, one sentence saying where the rules are.  They are entries of kind "bring" and "rules"."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import Position, Report
from .load import load_yaml
from .model import Game

COMPONENTS_FILE = "components.yaml"
KEYS = {"name", "count", "section", "pieces", "note"}


@dataclass
class Component:
    name: str
    count: int | None  # what the rulebook states; None where it states no number
    section: str  # where the rulebook says it
    pieces: list[str]
    note: str
    built: int  # how many pieces this kit prints
    pos: Position
    kind: str = "piece"  # piece (printed by the kit), bring (the player supplies it) or rules (where they are)


def built_counts(game: Game) -> dict[str, int]:
    """Pieces the kit prints, by deck, token sheet, board or template id (a board is one piece,
    however many tiles it is printed on)."""
    counts = {deck.id: sum(card.quantity for card in deck.cards) for deck in game.decks}
    counts.update({board.id: 1 for board in game.boards})
    counts.update({piece.id: piece.quantity for piece in game.templates})
    return counts


def load_components(game: Game, report: Report) -> list[Component]:
    path = game.root / COMPONENTS_FILE
    if not path.is_file():
        return []
    doc = load_yaml(path, report)
    if doc is None:
        return []
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("components"), list):
        report.error("E-COMPONENTS", "components.yaml must hold `components:`, a list of the rulebook's pieces",
                     doc.pos(""), help="write `components:` then one `- {name, count, section, pieces}` per piece")
        return []
    counts = built_counts(game)
    out: list[Component] = []
    listed: dict[str, str] = {}
    for i, entry in enumerate(data["components"]):
        at = f"/components/{i}"
        if not isinstance(entry, dict) or not _valid(entry, doc, at, report):
            continue
        for j, piece in enumerate(entry["pieces"]):
            if piece not in counts:
                report.error("E-COMPONENTS", f"'{piece}' is no deck, token sheet, board or template of this game",
                             doc.pos(f"{at}/pieces/{j}"), help=f"one of: {', '.join(sorted(counts))}")
            elif piece in listed:
                report.error("E-COMPONENTS", f"'{piece}' is already counted in '{listed[piece]}'",
                             doc.pos(f"{at}/pieces/{j}"), help="list each piece once")
            else:
                listed[piece] = entry["name"]
        built = sum(counts.get(piece, 0) for piece in entry["pieces"])
        count = entry.get("count")
        if count is not None and count != built:
            report.warning("W-COMPONENTS", f"the rulebook's {entry['name']}: {count} ({entry['section']}), "
                           f"but the kit prints {built}", doc.pos(f"{at}/count"),
                           help="change the quantities, or correct the count read from the rulebook")
        out.append(Component(entry["name"], count, entry["section"], list(entry["pieces"]), entry.get("note", ""),
                             built, doc.pos(at)))
    out += _player_entries(data, doc, report)
    for piece in sorted(set(counts) - set(listed)):
        report.warning("W-COMPONENTS", f"'{piece}' is in no entry of components.yaml, so the guide does not "
                       "count it", doc.pos("/components"), help="add it to the entry of the rulebook's piece it is")
    return out


def _player_entries(data: dict, doc, report: Report) -> list[Component]:
    """`bring:` and `rules:`, the guide's list of what the player brings and where the rules are."""
    out: list[Component] = []
    bring = data.get("bring", [])
    if not isinstance(bring, list):
        report.error("E-COMPONENTS", "`bring:` must be a list of what the player supplies", doc.pos("/bring"),
                     help="e.g. bring: [{name: six-sided dice, count: 6}]")
        bring = []
    for i, entry in enumerate(bring):
        at = f"/bring/{i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            report.error("E-COMPONENTS", "each `bring:` entry needs a `name`", doc.pos(at),
                         help="e.g. - {name: 20-sided die, count: 1, section: \"To play, you'll need\"}")
            continue
        bad = sorted(set(entry) - {"name", "count", "note", "section"})
        for key in bad:
            report.error("E-COMPONENTS", f"unknown key '{key}'", doc.pos(f"{at}/{key}", key=True),
                         help="a `bring:` entry takes name, count, note and section")
        count = entry.get("count")
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            report.error("E-COMPONENTS", "'count' must be a whole number from 1, or left out", doc.pos(f"{at}/count"),
                         help="leave it out where the rulebook states no number, and say so in `note:`")
            continue
        if bad:
            continue
        out.append(Component(entry["name"], count, str(entry.get("section", "")), [], str(entry.get("note", "")), 0,
                             doc.pos(at), kind="bring"))
    rules = data.get("rules")
    if rules is not None:
        if isinstance(rules, str) and rules.strip():
            out.append(Component(rules, None, "", [], "", 0, doc.pos("/rules"), kind="rules"))
        else:
            report.error("E-COMPONENTS", "`rules:` must be one sentence saying where the rules are", doc.pos("/rules"),
                         help="e.g. rules: \"The rulebook: War Eagles Standard Rules, free from the publisher\"")
    return out


def _valid(entry: dict[str, Any], doc, at: str, report: Report) -> bool:
    ok = True
    for key in sorted(set(entry) - KEYS):
        report.error("E-COMPONENTS", f"unknown key '{key}'", doc.pos(f"{at}/{key}", key=True),
                     help=f"the keys are {', '.join(sorted(KEYS))}")
        ok = False
    for key in ("name", "section"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            report.error("E-COMPONENTS", f"'{key}' must be text", doc.pos(f"{at}/{key}" if key in entry else at),
                         help="name the piece as the rulebook does, and the section that lists it")
            ok = False
    count = entry.get("count")
    if "count" not in entry or count is not None and (isinstance(count, bool) or not isinstance(count, int)
                                                      or count < 0):
        report.error("E-COMPONENTS", "'count' must be the whole number the rulebook states, or null",
                     doc.pos(f"{at}/count" if "count" in entry else at),
                     help="write `count: null` and a `note:` where the rulebook states no number")
        ok = False
    elif count is None and not isinstance(entry.get("note"), str):
        report.error("E-COMPONENTS", "a count the rulebook does not state needs a `note:` saying why",
                     doc.pos(f"{at}/count"), help="e.g. note: \"the rulebook gives no number\"")
        ok = False
    pieces = entry.get("pieces")
    if not isinstance(pieces, list) or not pieces or not all(isinstance(p, str) for p in pieces):
        report.error("E-COMPONENTS", "'pieces' must list the ids of this game's pieces that make it",
                     doc.pos(f"{at}/pieces" if "pieces" in entry else at), help="e.g. pieces: [events]")
        ok = False
    return ok
