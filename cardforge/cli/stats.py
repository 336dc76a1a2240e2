"""`cardforge stats`: counts by field and numeric distributions per deck, printed and drawn as bar charts."""
from __future__ import annotations

from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import Report
from .common import EXIT_CONTENT, EXIT_OK, GAME_HELP, LAYOUTS_HELP, UsageError, emit, one_game, prepared


def add(sub) -> None:
    t = sub.add_parser("stats", help="counts by field and cost curves per deck, and a PDF of bar charts")
    t.add_argument("game", nargs="?", metavar="GAME_DIR", help=GAME_HELP)
    t.add_argument("--deck", action="append", metavar="ID", help="only this deck (may be given more than once)")
    t.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    t.add_argument("--out", help="folder of the statistics PDF (default: build/<game>/)")
    t.set_defaults(func=run)


def run(args) -> int:
    from ..export.stats import format_text, game_stats, write_pdf
    game = one_game(args)
    report = Report()
    prep = prepared(game, args.layouts, report)
    if prep is None:
        return EXIT_CONTENT
    known = [deck.id for deck in prep.game.decks]
    for deck in args.deck or []:
        if deck not in known:
            raise UsageError(f"no deck '{deck}' in {game}; its decks are " + ", ".join(known))
    decks = game_stats(prep, args.deck)
    console.result(format_text(prep.game.name, decks))
    out = (Path(args.out) if args.out else Path("build") / game.resolve().name) / f"{prep.game.id}-stats.pdf"
    write_pdf(prep, decks, out)
    emit(report, "text")
    console.result(f"wrote {out}")
    return EXIT_OK
