"""`cardforge schema`: the JSON Schemas of game files (and of each deck's cards) for editors."""
from __future__ import annotations

from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .common import EXIT_CONTENT, EXIT_OK, emit


def add(sub) -> None:
    s = sub.add_parser("schema", help="write the JSON Schemas for editors")
    s.add_argument("game", nargs="?", help="also write one card schema per deck of this game")
    s.add_argument("--out", help="folder to write into (default: the game's schemas/ folder, or schemas/ without a "
                   "game); check and build keep the game's schemas/ up to date from then on")
    s.set_defaults(func=run)


def run(args) -> int:
    from ..frontend.schemafiles import write_schemas
    game = None
    if args.game:
        report = Report()
        try:
            from ..frontend.model import load_game
            game = load_game(Path(args.game), report)
        except ContentError:
            emit(report, "text")
            return EXIT_CONTENT
    out = Path(args.out) if args.out else (game.root / "schemas" if game is not None else Path("schemas"))
    for path in write_schemas(out, game):
        console.result(f"wrote {path}")
    where = (out / "game.schema.json").as_posix()
    if game is not None and out.resolve() == (game.root / "schemas").resolve():
        where = "schemas/game.schema.json"  # as game.yaml names it
    console.result("For the YAML language server add a first line such as:\n"
          f"  # yaml-language-server: $schema={where}")
    return EXIT_OK
