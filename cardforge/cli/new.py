"""`cardforge new`: a new game folder that builds and checks clean at once."""
from __future__ import annotations

import argparse
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .common import EXIT_CONTENT, EXIT_OK, UsageError, emit


def add(sub) -> None:
    n = sub.add_parser("new", help="start a new game: game.yaml, a deck with layouts, sample cards, rules")
    n.add_argument("name", metavar="NAME", help="the folder to create (its name becomes the game's id)")
    n.add_argument("--title", help="the game's name as printed (default: from NAME)")
    n.add_argument("--layouts", type=Path, default=None, help=argparse.SUPPRESS)
    n.set_defaults(func=run)


def run(args) -> int:
    """A new game folder that builds and checks clean at once."""
    import shlex  # here, not at the top: every command line imports this module
    from ..output.dryrun import lay_out
    from ..prepare import prepare
    from ..scaffold import ScaffoldError, new_game
    folder = Path(args.name)
    try:
        new_game_files = new_game(folder, args.title)
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    report = Report()
    try:  # prove it: the new game must check clean
        lay_out(prepare(folder, report, args.layouts), report)
    except ContentError:
        pass
    emit(report, "text")
    console.result(f"created {folder}/ ({len(new_game_files)} files): game.yaml, cards/cards.yaml, rules.yaml, "
          f"layouts/front.yaml and back.yaml, schemas/\nnext: cardforge build {shlex.quote(str(folder))}   "
          f"(or cardforge serve {shlex.quote(str(folder))} to see it in the browser)")
    return EXIT_CONTENT if report.has_errors() else EXIT_OK
