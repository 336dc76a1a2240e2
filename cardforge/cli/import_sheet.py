"""`cardforge import csv|xlsx`: a sheet of cards as a YAML card file, typed by the deck's fields."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .common import EXIT_CONTENT, EXIT_OK, GAME_FILE, UsageError, emit, games, one_game


def add(sub) -> None:
    i = sub.add_parser("import", help="convert a .csv or .xlsx sheet of cards into a YAML card file")
    i.add_argument("kind", choices=("csv", "xlsx"))
    i.add_argument("file", metavar="FILE", help="the sheet (an .xlsx file may name its sheet: cards.xlsx#Crew)")
    i.add_argument("--deck", required=True, metavar="ID", help="the deck whose fields type the columns")
    i.add_argument("--game", metavar="GAME_DIR", help="the game (default: the game folder holding FILE)")
    i.add_argument("--out", help="the YAML file to write (default: FILE with .yaml)")
    i.add_argument("--force", action="store_true", help="replace --out if it exists")
    i.set_defaults(func=run)


def game_of(file: Path, given: str | None) -> Path:
    """The game a spreadsheet belongs to: --game, else the folder above it with a game.yaml."""
    if given:
        return games([given])[0]
    for folder in file.resolve().parents:
        if (folder / GAME_FILE).is_file():
            return folder
    return one_game(argparse.Namespace(game=None))


def run(args) -> int:
    """A .csv or .xlsx sheet of cards as a YAML card file, typed by the deck's fields."""
    from ..frontend.model import load_game
    from ..frontend.sheetimport import sheet_to_yaml
    from ..frontend.sheets import split_sheet
    rel, sheet = split_sheet(args.file)
    source = Path(rel)
    if source.suffix.lower() != f".{args.kind}":
        raise UsageError(f"{source} is not a .{args.kind} file")
    if not source.is_file():
        raise UsageError(f"{source} does not exist")
    game_dir = game_of(source, args.game)
    target = Path(args.out) if args.out else source.with_suffix(".yaml")
    if target.exists() and not args.force:
        raise UsageError(f"{target} exists; choose another --out, or --force to replace it")
    report = Report()
    try:
        game = load_game(game_dir, report)
    except ContentError:
        emit(report, "text")
        return EXIT_CONTENT
    deck = next((d for d in game.decks if d.id == args.deck), None)
    if deck is None:
        raise UsageError(f"no deck '{args.deck}' in {game_dir}; its decks are " + ", ".join(d.id for d in game.decks))
    result = sheet_to_yaml(game, deck, source, sheet, report)
    emit(report, "text")
    if result is None:
        print(f"{source}: not imported; nothing written", file=sys.stderr)
        return EXIT_CONTENT
    text, count = result
    from ..output.replace import replacing
    with replacing(target) as tmp:  # a killed import never leaves half a card file over the old one
        tmp.write_text(text, "utf-8")
    console.result(f"wrote {target} ({count} cards); name it in game.yaml under the deck "
          f"'{deck.id}' as its cards")
    return EXIT_OK
