"""`cardforge force`: check a player's force list against the game's rules and print its roster."""
from __future__ import annotations

import sys
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import Report
from .common import EXIT_CONTENT, EXIT_OK, GAME_FILE, LAYOUTS_HELP, PAPERS, UsageError, emit


def add(sub) -> None:
    f = sub.add_parser("force", help="check a force list against the game's rules and print its roster sheet")
    f.add_argument("force", metavar="FORCE.yaml", help="the force list (force: {id, scenario, side, picks})")
    f.add_argument("--game", metavar="GAME_DIR", help="the game (default: the game folder the file lies in)")
    f.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    f.add_argument("--paper", choices=PAPERS + ("all",), default="a4")
    f.add_argument("--out", help="folder for <force id>-roster-<paper>.pdf (default: the force file's folder, "
                   "or build/<game> when that is inside the game folder)")
    f.add_argument("--format", choices=("text", "json"), default="text", help="diagnostics format")
    f.set_defaults(func=run)


def run(args) -> int:
    """Check a player's force list against the game's rules; print its roster when it is legal."""
    from ..output.roster import ForceUsageError, print_roster
    report = Report()
    papers = list(PAPERS) if args.paper == "all" else [args.paper]
    out = Path(args.out) if args.out else None  # beside the force file, or build/<game> (roster.py)
    game = Path(args.game) if args.game else None
    if game is not None and not (game / GAME_FILE).is_file():
        raise UsageError(f"{game} is not a game folder (it has no {GAME_FILE})")
    try:
        outputs = print_roster(Path(args.force), game, out, papers, report, args.layouts)
    except ForceUsageError as exc:
        raise UsageError(str(exc)) from None
    emit(report, args.format)
    if report.has_errors():
        print(f"{args.force}: the force breaks the rules above; no roster written", file=sys.stderr)
        return EXIT_CONTENT
    for path in outputs:
        console.result(f"wrote {path}")
    return EXIT_OK
