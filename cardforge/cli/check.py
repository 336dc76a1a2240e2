"""`cardforge check`: validate games (data, rules, layouts) without writing anything; with
--printed, check built PDFs against the data as it is now."""
from __future__ import annotations

from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .common import EXIT_CONTENT, EXIT_OK, LAYOUTS_HELP, UsageError, emit, games


def add_game_arguments(sp) -> None:
    """GAME_DIR..., --layouts and --format: the arguments of `check` and `build`."""
    sp.add_argument("games", nargs="*", metavar="GAME_DIR", help="game folders (default: the current folder when it holds game.yaml, else every game in content/)")
    sp.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    sp.add_argument("--format", choices=("text", "json", "github", "sarif"), default="text",
                    help="diagnostics format: text (stderr), json, github (GitHub Actions annotations: workflow "
                         "commands) or sarif (SARIF 2.1.0, for code scanning), on stdout")
    sp.add_argument("--lang", metavar="LANG", help="a language the game lists under 'languages:' (its overlay "
                    "from translations/LANG/ replaces the fields it translates), several (de,fr), or 'all': the source "
                    "and every language")
    sp.add_argument("--access", action="store_true", help="check that every player can read the faces: text "
                    "contrast measured from the drawn faces, and colours that tell categories apart under "
                    "colour-blind vision and in greyscale (docs: guides/accessibility.md)")


def add(sub) -> None:
    c = sub.add_parser("check", help="validate games without writing anything")
    add_game_arguments(c)
    c.add_argument("--strict", action="store_true", help="treat warnings as errors")
    c.add_argument("--printed", action="append", type=Path, metavar="PDF",
                   help="check a built PDF (and its .manifest.json) against the data as it is now: "
                        "the text, icons and copies of every card; may be given more than once")
    c.set_defaults(func=run)


def languages_of(game: Path, lang: str | None) -> list[str | None]:
    """The languages `--lang` names for a game (None: the source), or a usage error."""
    from ..frontend.translations import chosen_languages
    chosen = chosen_languages(game, lang)
    if isinstance(chosen, str):
        raise UsageError(chosen)
    return chosen


def refreshed(game) -> None:
    """The game's editor schemas brought up to date, if it has them (frontend/schemafiles.py)."""
    from ..frontend.schemafiles import refresh_schemas
    for path in refresh_schemas(game):
        console.result(f"refreshed {path}")


def access_report(game: Path, layouts: Path | None, lang: str | None, ink_saver: bool = False) -> Report:
    """`build --access`: the accessibility checks of a game that built (its own errors are the build's),
    of its ink-saver kit's faces with --ink-saver."""
    from ..access import check_access
    from ..prepare import prepare
    report = Report()
    try:
        prep = prepare(game, report, layouts, lang=lang)
        if ink_saver:
            from ..output.inksaver import apply_ink_saver
            apply_ink_saver(prep)
        check_access(prep, report)
    except ContentError:
        pass
    return Report([d for d in report.items if d.code.startswith("W-ACCESS")])


def run(args) -> int:
    from ..output.dryrun import lay_out, lay_out_despite
    from ..prepare import prepare
    combined = Report()
    if args.printed:  # the data as it is now against earlier builds (cardforge/verify/)
        from ..verify import PrintedUsageError, check_printed
        try:
            check_printed(args.printed, games(args.games) if args.games else [], args.layouts, combined)
        except PrintedUsageError as exc:
            raise UsageError(str(exc)) from None
    for game in [] if args.printed else games(args.games):
        for lang in languages_of(game, args.lang):
            report = Report()
            try:
                prep = prepare(game, report, args.layouts, lang=lang)
                if lang is None:
                    refreshed(prep.game)
                lay_out(prep, report)
                if lang is not None and not report.has_errors():
                    from ..frontend.coverage import report_coverage
                    report_coverage(game, lang, report)
                if args.access:
                    from ..access import check_access  # the drawing and PDFium: only when asked
                    check_access(prep, report)
            except ContentError as failure:
                lay_out_despite(failure, report)
            combined.extend_once(report)
    emit(combined, args.format)
    if args.format == "text" and not combined.items:
        console.result("ok: no problems found")
    failed = combined.has_errors() or (args.strict and combined.warnings)
    return EXIT_CONTENT if failed else EXIT_OK
