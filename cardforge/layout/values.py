"""Value maps: a database's encodings printed as the card shows them.

Card databases store some printed values as numbers with a meaning: ArkhamDB writes an X cost as
-2, a * as -3, and a card with no cost at all (a dash on the card) as null.  A deck maps them:

    decks:
      - id: core
        values:
          cost: {-2: X, -3: "*", null: "—"}   # field -> {stored value: printed text}

When the game is prepared (after the markup dialect, layout/markup.py), a card whose field holds a
mapped value gets the text instead, as literal text (a `*` prints as a star, not as italics), so
that every layout, the manifest and the rules see what the card prints.  Keys match the stored
value as written: -2 matches -2 and "-2", null matches a null field and a missing one is left alone.
"""
from __future__ import annotations

import difflib

from ..diagnostics import Report


def _key(value) -> str:
    """A stored value as a map key: YAML's -2 and JSON's -2 alike, null as 'null'."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _literal(text: str) -> str:
    """Printed as written: the characters that are cardforge markup escaped."""
    return text.replace("\\", "\\\\").replace("*", "\\*").replace(":", "\\:")


def apply_value_maps(game, report: Report) -> None:
    """Replace each mapped value of every card of a deck with `values:` by its printed text."""
    entries = game.data.get("decks")
    by_pointer = {f"/decks/{i}": d for i, d in enumerate(entries if isinstance(entries, list) else [])
                  if isinstance(d, dict)}
    for deck in game.decks:
        spec = by_pointer.get(deck.pointer, {}).get("values")
        if not isinstance(spec, dict) or not spec:
            continue
        # game.yaml's loader writes every key as text: YAML's null key arrives as 'None'
        maps = {name: {("null" if k in (None, "None", "~") else _key(k)): str(v) for k, v in mapping.items()}
                for name, mapping in spec.items() if isinstance(mapping, dict)}
        seen = set()
        for card in deck.cards:
            for name, mapping in maps.items():
                if name not in card.data:
                    continue
                seen.add(name)
                printed = mapping.get(_key(card.data[name]))
                if printed is not None:
                    card.data[name] = _literal(printed)
        fields = sorted({key for card in deck.cards for key in card.data})
        for name in maps:
            if name not in seen and deck.cards:
                guess = difflib.get_close_matches(name, fields, n=1)
                report.warning("W-VALUES-FIELD", f"deck '{deck.id}': values for '{name}', which no card of the deck has",
                               game.doc.pos(f"{deck.pointer}/values/{name}", key=True),
                               help=f"did you mean '{guess[0]}'?" if guess else
                               f"the deck's fields are {', '.join(fields)}")
