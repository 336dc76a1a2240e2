"""Two prepared versions of a game, compared piece by piece: what a playtester needs to hear.

A piece (card, token, board or reference sheet) is matched across versions by its deck and id.
It is added, removed, or changed: in its fields (the values the rules derive included, since those
are printed too), in its number of copies, or only in its drawing (a layout, icon or font edit),
which is found by comparing the drawn faces (render/fingerprint.py), not the sources.  When every
face of a deck's side changed, that is one layout change, named by the layout files that differ,
rather than a list of every card.  Rules are compared by id.
"""
from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from ..prepare import Prepared
from ..render.fingerprint import FaceFingerprints

ABSENT = object()  # a field the piece does not set in that version
WORD = re.compile(r"\s+|[^\s]+")


@dataclass
class FieldChange:
    name: str
    old: Any
    new: Any

    def words(self) -> list[tuple[str, str]] | None:
        """For text on both sides: the word-by-word diff as (op, text) with op in ' ', '-', '+'."""
        if not (isinstance(self.old, str) and isinstance(self.new, str)):
            return None
        return word_diff(self.old, self.new)


@dataclass
class PieceChange:
    kind: str  # card, token, board, reference
    group: str  # the deck id, or "boards" / "references"
    id: str
    title: str
    status: str  # added, removed, changed
    fields: list[FieldChange] = field(default_factory=list)
    copies: tuple[int, int] | None = None  # (old, new) when the number of copies changed
    drawn: list[str] = field(default_factory=list)  # sides whose drawing changed
    digests: dict[str, str] = field(default_factory=dict)  # side -> the new version's face digest

    @property
    def reprint(self) -> bool:
        """Whether the piece must be printed again: new, or anything on it looks different."""
        return self.status == "added" or (self.status == "changed" and bool(self.drawn or self.fields
                                                                             or self.copies))


@dataclass
class LayoutChange:
    group: str  # the deck
    side: str
    faces: int  # how many faces of that side changed (all of them)
    files: list[str]  # the layout files that differ, relative to their library


@dataclass
class RuleChange:
    section: str  # checks, groups, values, ...
    id: str
    status: str  # added, removed, changed
    keys: list[str] = field(default_factory=list)  # for a changed rule: which of its keys changed


@dataclass
class GameDiff:
    game: str
    old_label: str
    new_label: str
    pieces: list[PieceChange] = field(default_factory=list)
    layouts: list[LayoutChange] = field(default_factory=list)
    rules: list[RuleChange] = field(default_factory=list)
    sources: bool = True  # False when compared from two builds' manifests: only drawings are known

    @property
    def reprint(self) -> list[PieceChange]:
        return [p for p in self.pieces if p.reprint]

    def empty(self) -> bool:
        return not (self.pieces or self.layouts or self.rules)


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """Word-level diff; runs of the same op are joined, whitespace stays with its words."""
    a, b = WORD.findall(old), WORD.findall(new)
    out: list[tuple[str, str]] = []

    def add(op: str, text: str) -> None:
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        elif text:
            out.append((op, text))

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            add(" ", "".join(a[i1:i2]))
        else:
            add("-", "".join(a[i1:i2]))
            add("+", "".join(b[j1:j2]))
    return out


def _title(piece: Any) -> str:
    data = piece.data
    for key in ("title", "name", "label"):
        value = data.get(key)
        if isinstance(value, (str, int, float)) and str(value).strip():
            return str(value)
    return piece.id


def _pieces(prep: Prepared) -> dict[tuple[str, str], Any]:
    """Every piece by (group, id). View decks print records again; their pieces count on their own."""
    out: dict[tuple[str, str], Any] = {}
    for deck in prep.game.decks:
        for card in deck.cards:
            out[(deck.id, card.id)] = card
    for board in prep.game.boards:
        out[(board.component, board.id)] = board
    return out


def _kind(piece: Any) -> str:
    if hasattr(piece, "deck"):
        return "token" if piece.deck.component == "tokens" else "card"
    return "reference" if piece.component == "references" else "board"


def _sides(piece: Any) -> tuple[str, ...]:
    return ("front", "back") if hasattr(piece, "deck") else ("front",)


class _Faces:
    """Face digests of one version, drawn on first use."""

    def __init__(self, prep: Prepared):
        self.prints = FaceFingerprints(prep)

    def of(self, piece: Any, side: str) -> str | None:
        return self.prints.card(piece, side) if hasattr(piece, "deck") else self.prints.board(piece)


def _field_changes(old: dict, new: dict) -> list[FieldChange]:
    changes = []
    for name in list(old) + [k for k in new if k not in old]:
        a, b = old.get(name, ABSENT), new.get(name, ABSENT)
        if a != b:
            changes.append(FieldChange(name, a, b))
    return changes


def compare(old: Prepared, new: Prepared, old_label: str, new_label: str,
            old_rules: dict | None = None, new_rules: dict | None = None) -> GameDiff:
    diff = GameDiff(new.game.name, old_label, new_label)
    before, after = _pieces(old), _pieces(new)
    old_faces, new_faces = _Faces(old), _Faces(new)
    drawn_by_side: dict[tuple[str, str], list[bool]] = {}  # (deck, side) -> changed? per unchanged-data piece
    for key in list(before) + [k for k in after if k not in before]:
        a, b = before.get(key), after.get(key)
        piece = b if b is not None else a
        change = PieceChange(_kind(piece), key[0], key[1], _title(piece), "changed")
        if a is None:
            change.status = "added"
            change.digests = {side: d for side in _sides(b) if (d := new_faces.of(b, side))}
            diff.pieces.append(change)
            continue
        if b is None:
            change.status = "removed"
            diff.pieces.append(change)
            continue
        change.fields = _field_changes(dict(a.data), dict(b.data))
        qa, qb = getattr(a, "quantity", 1), getattr(b, "quantity", 1)
        if qa != qb:
            change.copies = (qa, qb)
        for side in _sides(b):
            da, db = old_faces.of(a, side), new_faces.of(b, side)
            if db:
                change.digests[side] = db
            if da != db:
                change.drawn.append(side)
            if not change.fields and hasattr(b, "deck"):
                drawn_by_side.setdefault((key[0], side), []).append(da != db)
        if change.fields or change.copies or change.drawn:
            diff.pieces.append(change)
    diff.layouts = _layout_changes(old, new, drawn_by_side)
    diff.rules = _rule_changes(old_rules or {}, new_rules or {})
    return diff


def _layout_changes(old: Prepared, new: Prepared, drawn: dict[tuple[str, str], list[bool]]) -> list[LayoutChange]:
    """A deck side whose every face changed although no card's data did: one layout change."""
    out = []
    for (deck, side), flags in drawn.items():
        if len(flags) >= 2 and all(flags):
            out.append(LayoutChange(deck, side, len(flags), _changed_layout_files(old, new, deck, side)))
    return out


def _layout_files(prep: Prepared, deck_id: str, side: str) -> dict[str, str]:
    """name -> content digest of the layout files a deck's side is drawn from."""
    files: dict[str, str] = {}
    for deck in prep.game.decks:
        if deck.id != deck_id:
            continue
        for card in deck.cards:
            layout = prep.faces.get((card.id, side))
            for path in getattr(layout, "files", []) or []:
                name = "/".join(path.parts[-2:])  # <library folder>/<file>: the same in both versions
                if name not in files:
                    try:
                        files[name] = hashlib.sha256(path.read_bytes()).hexdigest()
                    except OSError:
                        files[name] = "unreadable"
    return files


def _changed_layout_files(old: Prepared, new: Prepared, deck: str, side: str) -> list[str]:
    a, b = _layout_files(old, deck, side), _layout_files(new, deck, side)
    return sorted(name for name in set(a) | set(b) if a.get(name) != b.get(name))


def _keyed(items: Any) -> dict[str, Any] | None:
    """A list of rules (mappings with an id or a name) as a mapping by that key."""
    if not isinstance(items, list) or not all(isinstance(i, dict) and ("id" in i or "name" in i) for i in items):
        return None
    return {str(i.get("id", i.get("name"))): i for i in items}


def _rule_changes(old: dict, new: dict) -> list[RuleChange]:
    out = []
    for section in list(old) + [k for k in new if k not in old]:
        a, b = old.get(section, ABSENT), new.get(section, ABSENT)
        if a == b:
            continue
        ka, kb = _keyed(a if a is not ABSENT else []), _keyed(b if b is not ABSENT else [])
        if ka is None and isinstance(a, dict) and (b is ABSENT or isinstance(b, dict)):
            ka, kb = a, (b if isinstance(b, dict) else {})
        if ka is None or kb is None:
            status = "added" if a is ABSENT else "removed" if b is ABSENT else "changed"
            out.append(RuleChange(section, section, status))
            continue
        for rid in list(ka) + [k for k in kb if k not in ka]:
            ra, rb = ka.get(rid, ABSENT), kb.get(rid, ABSENT)
            if ra == rb:
                continue
            if ra is ABSENT or rb is ABSENT:
                out.append(RuleChange(section, rid, "added" if ra is ABSENT else "removed"))
            else:
                keys = sorted(k for k in set(ra) | set(rb) if ra.get(k, ABSENT) != rb.get(k, ABSENT)) \
                    if isinstance(ra, dict) and isinstance(rb, dict) else []
                out.append(RuleChange(section, rid, "changed", keys))
    return out
