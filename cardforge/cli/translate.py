"""`cardforge translate status [GAME]` and `cardforge translate update GAME LANG`: the coverage and
staleness of a game's translations, and a skeleton of what a language still misses
(frontend/coverage.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .common import EXIT_CONTENT, EXIT_OK, GAME_HELP, UsageError, emit, one_game


def add(sub) -> None:
    t = sub.add_parser("translate", help="translations: what each language covers, and a skeleton of what it misses")
    actions = t.add_subparsers(dest="action", required=True)
    s = actions.add_parser("status", help="per language: records translated, untranslated fields, stale records")
    s.add_argument("game", nargs="?", metavar="GAME_DIR", help=GAME_HELP)
    s.add_argument("--lang", help="only this language")
    u = actions.add_parser("update", help="write a YAML skeleton of the missing records and fields into the "
                           "language's overlay files, with the source's fingerprints; every translation is kept")
    u.add_argument("names", nargs="+", metavar="[GAME_DIR] LANG",
                   help="the game folder (default: the current folder when it holds game.yaml) and a language the "
                        "game lists under 'languages:'")
    t.set_defaults(func=run)


def run(args) -> int:
    from ..frontend.coverage import status, summary, update
    from ..frontend.translations import game_languages, language_folder
    if args.action == "update":
        if len(args.names) > 2:
            raise UsageError("translate update takes a game folder and one language: " + " ".join(args.names))
        *game, args.lang = args.names
        args.game = game[0] if game else None
    game_dir = one_game(args)
    lang = getattr(args, "lang", None)
    known = game_languages(game_dir)
    if lang is not None and lang not in known:
        raise UsageError(f"{game_dir} has no language '{lang}' (it has: {', '.join(known) or 'none'}); list it "
                         "under 'languages:' in its game.yaml")
    if not known:
        raise UsageError(f"{game_dir} lists no languages: add 'languages: [de]' to its game.yaml")
    if args.action == "update":  # a new language starts from an empty folder of its own
        folder = language_folder(game_dir, lang)
        if folder is not None and not folder.exists():
            folder.mkdir(parents=True)
            console.result(f"created {folder.relative_to(Path(game_dir).resolve())}/")
    report = Report()
    try:
        game, found = status(Path(game_dir), report, lang)
    except ContentError:
        emit(report, "text")
        return EXIT_CONTENT
    if report.has_errors():
        emit(report, "text")
        print(f"{game_dir}: fix these first: the status would count cards that are merely unreadable", file=sys.stderr)
        return EXIT_CONTENT
    if args.action == "status":
        for entry in found:
            console.result("\n".join(summary(entry)))
    else:
        for path in update(game, found[0]):
            console.result(f"wrote {path}")
    emit(report, "text")
    return EXIT_OK
