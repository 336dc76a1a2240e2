"""Rules that see more than cards: deck metadata, boards and their data, token sheets.

* `decks` and `boards` in every rule's context: each deck (cards and tokens) by id with its size,
  shape, front and back layouts, the back layouts its cards use, how many cards and copies it has;
  each board and reference sheet by id with its size and `data`.
* `scope: board` checks run on one board (`board:` its id), optionally for `each` item of its data,
  and point at the board datum in game.yaml (`at: targets/{{ index }}/flak`).
* `scope: deck` checks run on each deck named by `deck:` and point at the deck's entry in game.yaml
  (`at: size`); a token's own data is checked like a card's (scope card, the token sheet as group).
* `templates` in every rule's context: each true-scale template by id with its data, every length in mm
  (`templates['burst'].diameter == 60`), `outline.width`/`outline.height` in mm and `quantity`; `scope:
  template` checks run on the templates named by `template:` (all when absent) and point at the
  template's entry in game.yaml (`at: diameter`).
* `hidden_backs`: decks whose cards must look the same face down share one back layout, one size,
  and that back reads no card data (card fields, the copy number or the deck).
"""
from __future__ import annotations

from typing import Any

from ..diagnostics import Position, Report
from ..frontend.model import Board, Deck, Game
from ..frontend.pieces import TemplatePiece
from ..layout.repeat import walk_frames
from ..layout.templates import parse
from ..units import LengthError, length, mm
from .positions import _with_section, card_pos, refine

SCOPES = ("board", "deck", "template")


def deck_view(deck: Deck) -> dict[str, Any]:
    return {"id": deck.id, "name": deck.name, "component": deck.component, "width": round(mm(deck.width), 2),
            "height": round(mm(deck.height), 2), "shape": deck.shape, "front": deck.front, "back": deck.back,
            "backs": sorted({c.back for c in deck.cards if c.back}), "fronts": sorted({c.front for c in deck.cards}),
            "count": len(deck.cards), "quantity": sum(c.quantity for c in deck.cards)}


def board_view(board: Board) -> dict[str, Any]:
    return {"id": board.id, "name": board.name, "component": board.component, "layout": board.layout,
            "width": round(mm(board.width), 2), "height": round(mm(board.height), 2), "data": board.data}


def _in_mm(value: Any) -> Any:
    """A length ('60mm', '2.5cm') as a number of mm; lists and other values as they are."""
    if isinstance(value, list):
        return [_in_mm(v) for v in value]
    if isinstance(value, str):
        try:
            return round(mm(length(value)), 3)
        except LengthError:
            return value
    return value


def template_view(piece: TemplatePiece) -> dict[str, Any]:
    view = {key: _in_mm(value) for key, value in piece.spec.items()}
    view.update(id=piece.id, name=piece.name, shape=piece.shape, quantity=piece.quantity,
                outline={"width": round(mm(piece.width), 3), "height": round(mm(piece.height), 3)})
    return view


def views(game: Game) -> dict[str, dict]:
    """`decks`, `boards` and `templates` as rules see them."""
    return {"decks": {deck.id: deck_view(deck) for deck in game.decks},
            "boards": {board.id: board_view(board) for board in game.boards},
            "templates": {piece.id: template_view(piece) for piece in game.templates}}


def scope_targets(game: Game, spec: dict) -> list:
    """The boards, decks or templates a board-, deck- or template-scope check runs on."""
    if spec.get("scope") == "board":
        return [b for b in game.boards if b.id == spec.get("board")]
    if spec.get("scope") == "template":
        wanted = spec.get("template")
        wanted = [wanted] if isinstance(wanted, str) else list(wanted or [])
        return [t for t in game.templates if not wanted or t.id in wanted]
    wanted = spec.get("deck")
    wanted = [wanted] if isinstance(wanted, str) else list(wanted or [])
    return [d for d in game.decks if not wanted or d.id in wanted]


def scope_context(base: dict, piece, scope: str) -> dict:
    ctx = dict(base)
    if scope == "board":
        ctx["board"] = piece.data
        ctx["board_info"] = board_view(piece)
    elif scope == "template":
        ctx["template"] = template_view(piece)
    else:
        ctx["deck"] = deck_view(piece)
    return ctx


def scope_position(game: Game, piece, scope: str, at: str | None) -> Position:
    """The board datum (`data/<at>`), or the deck's or template's key in game.yaml (`<at>`), a finding points at."""
    path = [p for p in str(at or "").replace(".", "/").split("/") if p]
    if scope == "board":
        pointer = piece.pointer + "/data" + "".join("/" + p for p in path)
        if not path:
            pointer = piece.pointer
    else:
        pointer = piece.pointer + "".join("/" + p for p in path)
    doc = game.doc
    while pointer and not _exists(doc, pointer):
        pointer = pointer.rsplit("/", 1)[0]  # a key the data lacks: point at what holds it
    return doc.pos(pointer or piece.pointer)


def _exists(doc, pointer: str) -> bool:
    value: Any = doc.data
    for part in pointer.strip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return False
    return True


# -- hidden backs ---------------------------------------------------------------------------------

_CARD_NAMES = {"card", "copy", "deck", "row", "index"}


def reads_card_data(source: str) -> list[str]:
    """The per-card names a template reads (card.*, copy, deck), in order."""
    from jinja2 import nodes
    try:
        tree = parse(source)
    except Exception:
        return []
    found: list[str] = []
    for node in tree.find_all(nodes.Name):
        if node.name in ("card", "copy", "deck") and node.name not in found:
            found.append(node.name)
    return found


def check_hidden_backs(game: Game, rules_doc, specs: list[dict], faces: dict, report: Report) -> None:
    """Each set of decks shares one back layout and size, and that back reads no card data."""
    by_id = {deck.id: deck for deck in game.decks}
    for i, spec in enumerate(specs):
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        emit = report.error if severity == "error" else report.warning
        decks = [by_id[d] for d in spec["decks"] if d in by_id]
        if not decks:
            continue
        names = ", ".join(d.id for d in decks)
        # The back most cards use is the shared one; every other card is reported where it chose its back.
        uses: dict[str | None, int] = {}
        for deck in decks:
            for card in deck.cards:
                uses[card.back] = uses.get(card.back, 0) + card.quantity
        if not uses:
            continue
        shared = max(uses, key=lambda name: (uses[name], name is not None))
        for deck in decks:
            for card in deck.cards:
                if card.back == shared:
                    continue
                own = "back" in card.doc.data["cards"][int(card.pointer.rsplit("/", 1)[1])]
                pos = card_pos(card, "back") if own else game.doc.pos(deck.pointer + ("/back" if deck.back else ""))
                what = f"layout '{card.back}'" if card.back else "no back"
                emit(rule, f"card '{card.id}' of deck '{deck.id}' has {what}, but the decks {names} must share one "
                     f"back ('{shared}', used by {uses[shared]} cards), so that they cannot be told apart face down",
                     pos, help=_with_section(f"give it back: {shared}", section), card=card.id)
        sizes = {(round(d.width, 1), round(d.height, 1)) for d in decks}
        if len(sizes) > 1:
            first = decks[0]
            for deck in decks[1:]:
                if (round(deck.width, 1), round(deck.height, 1)) != (round(first.width, 1), round(first.height, 1)):
                    key = "/size" if _exists(game.doc, deck.pointer + "/size") else ""
                    emit(rule, f"deck '{deck.id}' is {mm(deck.width):.1f} x {mm(deck.height):.1f} mm but deck "
                         f"'{first.id}' is {mm(first.width):.1f} x {mm(first.height):.1f} mm: decks that share a "
                         "hidden back must share a size", game.doc.pos(deck.pointer + key),
                         help=_with_section("give them the same size", section))
        layout = next((faces.get((c.id, "back")) for d in decks for c in d.cards if c.back == shared), None)
        if layout is None:
            continue
        for frame in walk_frames(layout.frames):
            sources = [(k, t.source) for k, t in frame.templates.items()]
            sources += [(k, "{{ " + frame.props[k] + " }}") for k in ("rows", "labels")
                        if isinstance(frame.props.get(k), str)]
            for key, source in sources:
                read = reads_card_data(source)
                if read:
                    pos = refine(frame.position, None)
                    emit(rule, f"the shared back '{layout.name}' of {names} reads {', '.join(read)} in frame "
                         f"'{frame.name}' ('{key}'), so cards could differ face down", pos,
                         help=_with_section("a hidden back prints the same on every card: use fixed text and "
                                            "colours only", section))
