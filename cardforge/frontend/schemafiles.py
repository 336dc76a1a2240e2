"""The JSON Schema files for editors: the built-in schemas and one card schema per deck.

Written by `cardforge schema` and by `cardforge new` (into the new game's schemas/ folder), and
refreshed by `check` and `build` when the game's schemas/ folder holds them and they are stale
(a field added to a deck in game.yaml, a newer cardforge): never created unasked."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .model import Game
from .schema import SCHEMA_NAMES, builtin_schema, deck_card_schema


def schema_files(game: Game | None = None) -> dict[str, str]:
    """File name -> text of every schema file: the built-in schemas, then one per deck of `game`."""
    files = {f"{name}.schema.json": json.dumps(builtin_schema(name), indent=2) + "\n" for name in SCHEMA_NAMES}
    for deck in game.decks if game is not None else []:
        key = "decks" if deck.component == "cards" else "tokens"
        deck_data = game.data[key][int(deck.pointer.rsplit("/", 1)[1])]
        if "schema" in deck_data:  # a community set's cards: its own schema is the one editors use
            continue
        schema = deck_card_schema(deck.fields, deck_data.get("required", []))
        schema["$id"] = f"https://cardforge.dev/schemas/{game.id}/{deck.id}.cards.schema.json"
        files[f"{game.id}.{deck.id}.cards.schema.json"] = json.dumps(schema, indent=2) + "\n"
    return files


def write_schemas(out: Path, game: Game | None = None) -> list[Path]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for deck in game.decks if game is not None else []:
        key = "decks" if deck.component == "cards" else "tokens"
        deck_data = game.data[key][int(deck.pointer.rsplit("/", 1)[1])]
        if "schema" in deck_data:
            print(f"deck '{deck.id}': its cards follow the set's own schema, {deck_data['schema']}", file=sys.stderr)
    written = []
    for name, text in schema_files(game).items():
        _write(out / name, text)
        written.append(out / name)
    return written


def refresh_schemas(game: Game) -> list[Path]:
    """Rewrite the stale schema files of the game's schemas/ folder (written by `cardforge schema`
    or `new`); the deck schemas a newly added deck lacks are added.  Nothing when the folder does
    not hold cardforge's game.schema.json: a game without editor schemas gets none unasked."""
    folder = game.root / "schemas"
    if not (folder / "game.schema.json").is_file():
        return []
    written = []
    for name, text in schema_files(game).items():
        path = folder / name
        try:
            if path.read_text("utf-8") == text:
                continue
        except (OSError, UnicodeDecodeError):
            pass
        _write(path, text)
        written.append(path)
    return written


def _write(path: Path, text: str) -> None:
    """Whole or not at all: an editor reading the file meanwhile never sees half a schema."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, "utf-8")
    tmp.replace(path)
