"""The JSON Schema files for editors: the built-in schemas and one card schema per deck.

Written by `cardforge schema` and by `cardforge new` (into the new game's schemas/ folder)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .model import Game
from .schema import SCHEMA_NAMES, builtin_schema, deck_card_schema


def write_schemas(out: Path, game: Game | None = None) -> list[Path]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMA_NAMES:
        path = out / f"{name}.schema.json"
        path.write_text(json.dumps(builtin_schema(name), indent=2) + "\n", "utf-8")
        written.append(path)
    for deck in game.decks if game is not None else []:
        key = "decks" if deck.component == "cards" else "tokens"
        deck_data = game.data[key][int(deck.pointer.rsplit("/", 1)[1])]
        if "schema" in deck_data:  # a community set's cards: its own schema is the one editors use
            print(f"deck '{deck.id}': its cards follow the set's own schema, {deck_data['schema']}",
                  file=sys.stderr)
            continue
        schema = deck_card_schema(deck.fields, deck_data.get("required", []))
        schema["$id"] = f"https://cardforge.dev/schemas/{game.id}/{deck.id}.cards.schema.json"
        path = out / f"{game.id}.{deck.id}.cards.schema.json"
        path.write_text(json.dumps(schema, indent=2) + "\n", "utf-8")
        written.append(path)
    return written
