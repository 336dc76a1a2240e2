"""Force lists (C6): a player's picks (cards and counts) for one scenario and side.

A force is data: `force: {id, scenario, side, year?, picks: [{card, count, attach_to?}]}` in a YAML
file. The game ships some (`forces: {files: [...]}` in game.yaml, checked by `cardforge check`), and
`cardforge force FILE` checks a player's own. The rules see each force with its picks resolved to the
cards they name (rules/forces.py); the roster sheet prints the same view.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from ..limits import MAX_FORCE_BYTES, MAX_PICKS, limit_message
from .load import Document, load_yaml, pointer_join
from .schema import builtin_schema, validate


@dataclass
class Force:
    id: str
    data: dict[str, Any]  # the force as written
    doc: Document
    picks: list[dict[str, Any]] = field(default_factory=list)  # resolved: see resolve()
    shipped: bool = True  # listed in game.yaml (False: a player's own, from `cardforge force`)

    pointer = "/force"

    def pos(self, path: str | None = None) -> Position:
        """The position of a path inside the force (`picks/2/count`, `scenario`), else its nearest parent."""
        parts = [part for part in (path or "").replace(".", "/").split("/") if part]
        return self.doc.pos(self.pointer + "".join("/" + part for part in parts))


def load_force(path: Path, report: Report, shipped: bool = True) -> Force | None:
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # load_yaml says why it cannot be read
    if size > MAX_FORCE_BYTES:  # refused before parsing: megabytes of YAML take seconds to read
        report.error("E-LIMIT", limit_message(f"a force list of {size / 1024:,.0f} KB",
                                              f"{MAX_FORCE_BYTES // 1024} KB per force list"), Position(path, 1, 1),
                     help=f"a force list names each card once, with its count ({MAX_PICKS} picks take some 20 KB)")
        return None
    doc = load_yaml(path, report)
    if doc is None or not validate(doc, builtin_schema("force"), report):
        return None
    return Force(doc.data["force"]["id"], doc.data["force"], doc, shipped=shipped)


def load_forces(game, report: Report, safe_path) -> list[Force]:
    """The forces game.yaml lists, each validated against the force schema."""
    spec = game.data.get("forces") or {}
    forces: list[Force] = []
    seen: dict[str, Force] = {}
    for index, rel in enumerate(spec.get("files") or []):
        pos = game.doc.pos(f"/forces/files/{index}")
        path = safe_path(game.root, rel)
        if path is None:
            report.error("E-PATH", f"force file '{rel}' is outside the game folder", pos,
                         help="force files must lie inside the game folder")
            continue
        if not path.is_file():
            report.error("E-MISSING-FILE", f"force file '{rel}' does not exist", pos,
                         help="check the file name, relative to the folder of game.yaml")
            continue
        force = load_force(path, report)
        if force is None:
            continue
        game.documents.append(force.doc)
        if force.id in seen:
            first = seen[force.id].pos("id")
            report.error("E-DUPLICATE-ID", f"force id '{force.id}' is already used", force.pos("id"),
                         help=f"first used at {first.path.name}:{first.line}; force ids must be unique")
            continue
        seen[force.id] = force
        forces.append(force)
    return forces


def resolve(force: Force, cards: dict, view, report: Report) -> bool:
    """Attach to each pick the card it names: `record` (the card's data as the rules see it) and
    `deck`. An unknown card is an error at the pick (with a guess); False if any pick is unknown."""
    ok = True
    force.picks = []
    if len(force.data["picks"]) > MAX_PICKS:  # rules run once per pick over the picks before it
        report.error("E-LIMIT", limit_message(f"a force of {len(force.data['picks'])} picks",
                                              f"{MAX_PICKS} picks per force"), force.pos("picks"),
                     help="a force list names each card once, with its count")
        return False
    for index, pick in enumerate(force.data["picks"]):
        card = cards.get(pick["card"])
        if card is None:
            guess = difflib.get_close_matches(pick["card"], list(cards), n=1, cutoff=0.6)
            report.error("E-FORCE-CARD", f"force '{force.id}': pick {index + 1} names card '{pick['card']}', "
                         "which the game does not have", force.pos(f"picks/{index}/card"),
                         help=(f"did you mean '{guess[0]}'? " if guess else "") + "a pick names the id of a card")
            ok = False
            continue
        record = view(card)
        # `total`: every number of the record times the count, so that sheets can add up a field
        # over the picks (`picks | sum(attribute='total.cost')`) without arithmetic in templates.
        total = {key: value * pick["count"] for key, value in record.items()
                 if isinstance(value, (int, float)) and not isinstance(value, bool)}
        force.picks.append({**pick, "index": index, "deck": card.deck.id, "record": record, "total": total})
    for entry in force.picks:
        target = entry.get("attach_to")
        if target is not None and target not in {p["card"] for p in force.picks}:
            report.error("E-FORCE-CARD", f"force '{force.id}': pick {entry['index'] + 1} is attached to "
                         f"'{target}', which is not a pick of this force", force.pos(f"picks/{entry['index']}/attach_to"),
                         help="attach_to names the card id of another pick")
            ok = False
    return ok


def force_view(force: Force) -> dict[str, Any]:
    """What rules and the roster sheet see: the force's fields and its resolved picks."""
    return {**force.data, "picks": force.picks}
