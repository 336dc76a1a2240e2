"""`cardforge rules --coverage [GAME ...]`: the rulebook coverage matrix of each game (RULES.md)."""
from __future__ import annotations

from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import Report
from .common import EXIT_CONTENT, EXIT_OK, GAME_FILE, UsageError, emit, games


def add(sub) -> None:
    r = sub.add_parser("rules", help="the rulebook coverage matrix: each section and the rules that encode it")
    r.add_argument("games", nargs="*", metavar="GAME", help="game folders, or names under content/ "
                   "(default: every game in content/)")
    r.add_argument("--coverage", action="store_true", required=True,
                   help="print each section of the rulebook (from the game's RULES.md) with the rule ids, schema "
                        "fields or reason that cover it, and the percentage mapped")
    r.set_defaults(func=run)


def _folders(names: list[str]) -> list[Path]:
    # a bare name is the game of that name under content/
    return games([n if (Path(n) / GAME_FILE).is_file() or not (Path("content") / n / GAME_FILE).is_file()
                  else str(Path("content") / n) for n in names])


def run(args) -> int:
    from ..rules.coverage import COVERAGE_FILE, format_matrix, read_coverage
    report = Report()
    failed = False
    for game in _folders(args.games):
        cov = read_coverage(game, report)
        if cov is None:
            if args.games:
                raise UsageError(f"{game} has no {COVERAGE_FILE}: write one row per section of the rulebook "
                                 "(see README, 'Rulebook coverage')")
            continue
        console.result(format_matrix(cov) + "\n")
        failed |= cov.percent < 100.0
    emit(report, "text")
    return EXIT_CONTENT if failed or report.has_errors() else EXIT_OK
