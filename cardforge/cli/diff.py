"""`cardforge diff OLD NEW`: what changed between two versions of a game, for playtesters."""
from __future__ import annotations

from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from .common import EXIT_CONTENT, EXIT_OK, LAYOUTS_HELP, UsageError, emit


def add(sub) -> None:
    d = sub.add_parser("diff", help="what changed between two versions of a game (folders or git revisions)")
    d.add_argument("old", metavar="OLD", help="a game folder, GAME@REVISION, or a git revision of the other's game")
    d.add_argument("new", metavar="NEW", help="the same, for the newer version")
    d.add_argument("--game", default=None, help="the game folder, when OLD and NEW are both bare revisions")
    d.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    d.add_argument("--markdown", type=Path, default=None, metavar="FILE", help="also write the changelog as Markdown")
    d.add_argument("--json", type=Path, default=None, metavar="FILE", help="also write the changelog as JSON")
    d.set_defaults(func=run)


def run(args) -> int:
    from ..errata import changelog
    from ..errata.run import diff_games
    from ..errata.versions import VersionError
    try:
        result = diff_games(args.old, args.new, args.layouts, args.game)
    except VersionError as exc:
        raise UsageError(str(exc)) from None
    if result.diff is None:
        emit(result.report, "text")
        return EXIT_CONTENT
    console.result(changelog.text(result.diff))
    for path, write in ((args.markdown, changelog.markdown), (args.json, changelog.as_json)):
        if path is not None:
            path.write_text(write(result.diff), "utf-8")
            console.result(f"wrote {path}")
    return EXIT_OK
