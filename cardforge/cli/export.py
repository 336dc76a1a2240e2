"""`cardforge export png|tts`: pictures of every face, or Tabletop Simulator decks."""
from __future__ import annotations

import sys
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .common import (EXIT_CONTENT, EXIT_OK, GAME_HELP, LANG_ONE_HELP, LAYOUTS_HELP, ProgressBar, UsageError, emit,
                     one_game, one_language, out_folder)


def add(sub) -> None:
    e = sub.add_parser("export", help="card pictures (png) or Tabletop Simulator decks (tts)")
    e.add_argument("kind", choices=("png", "tts"), help="png: one picture per face; tts: Tabletop Simulator decks")
    e.add_argument("game", nargs="?", metavar="GAME_DIR", help=GAME_HELP)
    e.add_argument("--dpi", type=float, default=300,
                   help="resolution (default 300; tts lowers it where a sheet would pass 4096 px)")
    e.add_argument("--bleed", action="store_true", help="png: include the bleed around each face")
    e.add_argument("--deck", action="append", metavar="ID", help="only this deck (may be given more than once)")
    e.add_argument("--url-base", metavar="URL", help="tts: where the pictures will be uploaded "
                   "(default: file:// URLs of the output folder)")
    e.add_argument("--lang", metavar="LANG", help=LANG_ONE_HELP)
    e.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    e.add_argument("--out", help="output folder (default: build/<game>/png or build/<game>/tts)")
    e.set_defaults(func=run)


def run(args) -> int:
    """`export png` and `export tts`: pictures of every face, or Tabletop Simulator decks."""
    from ..prepare import prepare
    game = one_game(args)
    if not 10 <= args.dpi <= 1200:
        raise UsageError(f"--dpi {args.dpi:g}: choose between 10 and 1200")
    report = Report()
    lang = one_language(game, args.lang)
    # A language's pictures go beside the source's, never over them: build/<game>/png-de
    out = Path(args.out) if args.out else Path("build") / game.resolve().name / (args.kind + (f"-{lang}" if lang else ""))
    out_folder(out.parent, game, out, whole=True)
    if not args.out:  # build/<game>/png: the export takes the lock of the game's build folder (export/staging.py)
        from ..output.lock import lock_path
        lock_path(out.parent).parent.mkdir(parents=True, exist_ok=True)
        lock_path(out.parent).touch()
    try:
        prep = prepare(game, report, args.layouts, lang=lang)
        unknown = [d for d in args.deck or [] if d not in {deck.id for deck in prep.game.decks}]
        if unknown:
            raise UsageError(f"no deck '{unknown[0]}' in {game}; its decks are "
                             + ", ".join(deck.id for deck in prep.game.decks))
        if args.kind == "png":
            from ..export.png import export_png
            written = export_png(prep, out, report, dpi=args.dpi, bleed=args.bleed, decks=args.deck,
                                 progress=ProgressBar(game.name))
            console.result(f"wrote {len(written)} pictures at {args.dpi:g} dpi{' with bleed' if args.bleed else ''} "
                  f"into {out}")
        else:
            from ..export.tts import export_tts
            written, decks = export_tts(prep, out, report, dpi=args.dpi, url_base=args.url_base, decks=args.deck)
            for export in decks:
                sheets = ", ".join(f"{s.cols}x{s.rows} at {s.size[0]}x{s.size[1]} px" for s in export.sheets)
                console.result(f"{export.deck.id}: {len(export.deck_ids)} cards on {len(export.sheets)} sheet(s) ({sheets}), "
                      f"{'a back per card' if export.unique_back else 'one back'}")
            console.result(f"wrote {len(written)} files into {out}; copy {out / (prep.game.id + '.json')} and its .png into "
                  "Tabletop Simulator's Saved Objects folder")
    except ContentError:
        emit(report, "text")
        print(f"{game}: export failed; previous output left untouched", file=sys.stderr)
        return EXIT_CONTENT
    emit(report, "text")
    return EXIT_OK
