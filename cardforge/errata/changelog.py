"""A game's changes, written for playtesters: in the terminal, as Markdown, and as JSON.

All three are written from the same GameDiff, in the same order: pieces added, changed and
removed (per deck), layout changes that redraw a whole deck side, then rules.
"""
from __future__ import annotations

import json
from typing import Any

from .compare import ABSENT, FieldChange, GameDiff, PieceChange

MAX_VALUE_CHARS = 200  # a long non-text value (a list of actions) is cut in the summary


def value_text(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS - 1] + "…"


def counts(diff: GameDiff) -> str:
    by = {"added": 0, "changed": 0, "removed": 0}
    for piece in diff.pieces:
        by[piece.status] += 1
    parts = [f"{n} {status}" for status, n in by.items() if n]
    parts.append(f"{len(diff.reprint)} to reprint")
    if diff.rules:
        parts.append(f"{len(diff.rules)} rule change{'s' * (len(diff.rules) != 1)}")
    return ", ".join(parts)


def _what(piece: PieceChange) -> str:
    return f"{piece.kind} '{piece.id}' ({piece.title})" if piece.title != piece.id else f"{piece.kind} '{piece.id}'"


def _field_words(change: FieldChange, deleted: tuple[str, str], inserted: tuple[str, str]) -> str:
    words = change.words()
    if words is None:
        return f"{value_text(change.old)} → {value_text(change.new)}"
    out = []
    for op, text in words:
        if op == " ":
            out.append(text)
        else:
            start, end = deleted if op == "-" else inserted
            core = text.strip()
            lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
            out.append(f"{lead}{start}{core}{end}{trail}" if core else text)
    return "".join(out).replace("\n", " ⏎ ")


def _piece_lines(piece: PieceChange, deleted, inserted, sources: bool = True) -> list[str]:
    lines = []
    for change in piece.fields:
        lines.append(f"{change.name}: {_field_words(change, deleted, inserted)}")
    if piece.copies:
        lines.append(f"copies: {piece.copies[0]} → {piece.copies[1]}")
    if piece.drawn and not piece.fields and not piece.copies:
        why = ": a layout, icon or font edit" if sources else ""
        lines.append(f"drawing changed ({' and '.join(piece.drawn)}){why}")
    return lines


def text(diff: GameDiff) -> str:
    """For the terminal: words removed in [-…-], added in {+…+} (as `git diff --word-diff`)."""
    out = [f"{diff.game}: {diff.old_label} → {diff.new_label}: " + (counts(diff) if not diff.empty() else "no changes")]
    for status in ("added", "changed", "removed"):
        for piece in (p for p in diff.pieces if p.status == status):
            out.append(f"  {status} {_what(piece)} in {piece.group}")
            out += [f"      {line}" for line in _piece_lines(piece, ("[-", "-]"), ("{+", "+}"), diff.sources)]
    for layout in diff.layouts:
        files = ", ".join(layout.files) or "no layout file differs: an icon, font or shared setting"
        out.append(f"  layout: every {layout.side} of deck '{layout.group}' changed ({layout.faces} faces): {files}")
    for rule in diff.rules:
        keys = f" ({', '.join(rule.keys)})" if rule.keys else ""
        out.append(f"  rules: {rule.section} '{rule.id}' {rule.status}{keys}")
    return "\n".join(out)


def markdown(diff: GameDiff) -> str:
    out = [f"# {diff.game}: changes from {diff.old_label} to {diff.new_label}", "",
           counts(diff) if not diff.empty() else "No changes.", ""]
    for status in ("added", "changed", "removed"):
        pieces = [p for p in diff.pieces if p.status == status]
        if not pieces:
            continue
        out += [f"## {status.capitalize()}", ""]
        for piece in pieces:
            out.append(f"- **{piece.title}** (`{piece.id}`, {piece.kind} in `{piece.group}`)")
            out += [f"  - {line}" for line in _piece_lines(piece, ("~~", "~~"), ("**", "**"), diff.sources)]
        out.append("")
    if diff.layouts:
        out += ["## Layouts", ""]
        for layout in diff.layouts:
            files = ", ".join(f"`{f}`" for f in layout.files) or "an icon, font or shared setting"
            out.append(f"- Every {layout.side} of deck `{layout.group}` is drawn differently "
                       f"({layout.faces} faces): {files}")
        out.append("")
    if diff.rules:
        out += ["## Rules", ""]
        for rule in diff.rules:
            keys = f": {', '.join(rule.keys)}" if rule.keys else ""
            out.append(f"- `{rule.section}` **{rule.id}** {rule.status}{keys}")
        out.append("")
    return "\n".join(out)


def _json_value(value: Any) -> Any:
    return None if value is ABSENT else json.loads(json.dumps(value, default=str))


def as_json(diff: GameDiff) -> str:
    doc = {
        "game": diff.game, "old": diff.old_label, "new": diff.new_label,
        "pieces": [{
            "kind": p.kind, "group": p.group, "id": p.id, "title": p.title, "status": p.status,
            "reprint": p.reprint, "drawn": p.drawn, "faces": p.digests,
            "copies": list(p.copies) if p.copies else None,
            "fields": [{"name": f.name, "old": _json_value(f.old), "new": _json_value(f.new),
                        "absent": [side for side, v in (("old", f.old), ("new", f.new)) if v is ABSENT],
                        **({"words": [list(w) for w in f.words()]} if f.words() is not None else {})}
                       for f in p.fields],
        } for p in diff.pieces],
        "layouts": [{"group": l.group, "side": l.side, "faces": l.faces, "files": l.files} for l in diff.layouts],
        "rules": [{"section": r.section, "id": r.id, "status": r.status, "keys": r.keys} for r in diff.rules],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
