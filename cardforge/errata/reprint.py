"""The errata sheet: the new version's pieces that must be printed again, and nothing else.

`reprint_only` narrows a prepared game to the pieces a GameDiff marks for reprint (new cards and
tokens, and those whose printing changed), with the version mark turned on, so the ordinary build
(sheet plan, imposition, duplex backs, verification) prints them exactly as the kit would.  The
changelog pages that open the errata PDF are data for the shipped `errata-changelog` layout.
"""
from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any

from ..prepare import Prepared
from .changelog import counts, value_text
from .compare import FieldChange, GameDiff, PieceChange, word_diff

CHANGELOG_LAYOUT = "errata-changelog"
ROWS_PER_PAGE = 14  # table rows of one changelog page (the table shrinks its type to fit, down to 6 pt)
CONTEXT_WORDS = 4  # words shown around a change in a text field
MARKUP = re.compile(r"([\\*:_])")
EMPHASIS = re.compile(r"\*\*|\*|(?<!\w)_|_(?!\w)")  # the source's own bold and italic marks


def reprint_only(prep: Prepared, diff: GameDiff) -> Prepared:
    """The prepared game cut down to the pieces to reprint, version mark on (unless `never`)."""
    keep = {(p.group, p.id) for p in diff.reprint if p.kind in ("card", "token")}
    game = copy.copy(prep.game)
    game.decks = []
    for deck in prep.game.decks:
        cards = [card for card in deck.cards if (deck.id, card.id) in keep]
        if cards:
            narrowed = copy.copy(deck)
            narrowed.cards = cards
            game.decks.append(narrowed)
    game.boards, game.templates = [], []
    if game.version_mark.show != "never":
        game.version_mark = dataclasses.replace(game.version_mark, show="always")
    return dataclasses.replace(prep, game=game, boards={})


def _escaped(text: str) -> str:
    """Source text shown as it reads: its emphasis marks dropped, other markup shown as typed."""
    return MARKUP.sub(r"\\\1", EMPHASIS.sub("", text)).replace("\n", " ")


def _plain(value: Any) -> str:
    """A field's value as a player reads it: 'roll 4, damage 1; roll 6, damage 2' for a list of
    mappings, not JSON."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ("; " if any(isinstance(v, (dict, list)) for v in value) else ", ").join(_plain(v) for v in value)
    if value is None:
        return "none"
    return value_text(value).strip("'") if isinstance(value, str) else value_text(value)


def _text_change(change: FieldChange) -> str:
    """'name: …up to **3** (was "2") Minor Damage…': each changed run with a few words around it."""
    parts, ops = [], word_diff(change.old, change.new)
    for i, (op, text) in enumerate(ops):
        if op == " ":
            continue
        if op == "+" and i and ops[i - 1][0] == "-":
            continue  # written with its deletion
        before = ops[i - 1][1].split() if i and ops[i - 1][0] == " " else []
        old = text if op == "-" else ""
        new = text if op == "+" else (ops[i + 1][1] if i + 1 < len(ops) and ops[i + 1][0] == "+" else "")
        after_at = i + (2 if op == "-" and new else 1)
        after = ops[after_at][1].split() if after_at < len(ops) and ops[after_at][0] == " " else []
        lead = ("…" if len(before) > CONTEXT_WORDS else "") + _escaped(" ".join(before[-CONTEXT_WORDS:]))
        tail = _escaped(" ".join(after[:CONTEXT_WORDS])) + ("…" if len(after) > CONTEXT_WORDS else "")
        core = f"**{_escaped(new.strip()) or '(deleted)'}** (was \"{_escaped(old.strip()) or 'nothing'}\")"
        parts.append(" ".join(x for x in (lead, core, tail) if x))
    return f"{change.name}: " + "; ".join(parts)


def _change_text(piece: PieceChange) -> str:
    if piece.status == "added":
        return "New piece: print it and add it to the game."
    if piece.status == "removed":
        return "Removed: take it out of the game."
    lines = []
    for change in piece.fields:
        if change.words() is not None:
            lines.append(_text_change(change))
        else:
            lines.append(f"{change.name}: **{_escaped(_plain(change.new))}** (was {_escaped(_plain(change.old))})")
    if piece.copies:
        lines.append(f"copies: **{piece.copies[1]}** (was {piece.copies[0]})")
    if piece.drawn and not piece.fields and not piece.copies:
        lines.append(f"drawn differently ({' and '.join(piece.drawn)}): a layout or art change")
    return "\n".join(lines)


def changelog_pages(diff: GameDiff, version: str) -> list[dict[str, Any]]:
    """The data of each changelog page (at least one, which says so when nothing changed)."""
    rows = [{"title": _escaped(p.title), "where": f"{p.kind} · {p.group} · {p.id}", "change": _change_text(p)}
            for status in ("changed", "added", "removed") for p in diff.pieces if p.status == status]
    rows += [{"title": f"Every {l.side} of {l.group}", "where": "layout", "change": "drawn differently: "
              + (_escaped(", ".join(l.files)) or "an icon, font or shared setting")} for l in diff.layouts]
    rows += [{"title": _escaped(r.id), "where": f"rules · {r.section}",
              "change": r.status + (": " + ", ".join(r.keys) if r.keys else "")} for r in diff.rules]
    chunks = [rows[i:i + ROWS_PER_PAGE] for i in range(0, len(rows), ROWS_PER_PAGE)] or [[]]
    mark = "the version and a short code of the card's data" if "{hash}" in version else "the version"
    return [{"game": diff.game, "old": _escaped(diff.old_label), "new": _escaped(diff.new_label),
             "summary": counts(diff) if not diff.empty() else "no changes", "rows": chunk, "mark": mark,
             "part": f"({n} of {len(chunks)})" if len(chunks) > 1 else ""}
            for n, chunk in enumerate(chunks, start=1)]
