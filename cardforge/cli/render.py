"""`cardforge render GAME CARD`: one face as a PNG, to look at one thing closely (with --outline:
its frame boxes, safe zone, trim and bleed; with --view: as a colour-blind viewer or a black-and-white
printer sees it). Drawn through the PDF renderer (output/raster.py),
so the picture is what prints."""
from __future__ import annotations

import difflib
import sys
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import Report
from .common import EXIT_CONTENT, EXIT_OK, LANG_ONE_HELP, LAYOUTS_HELP, UsageError, emit, games, one_language, prepared

SCREEN_DPI = 96  # --zoom 1: the size a browser shows at 100 %


def add(sub) -> None:
    r = sub.add_parser("render", help="one card, token or board face as a PNG")
    r.add_argument("names", nargs="+", metavar="[GAME_DIR] CARD",
                   help="the game folder (default: the current folder when it holds game.yaml, else the only game "
                        "in content/) and the id of a card, token, board or reference sheet")
    r.add_argument("--side", choices=("front", "back"), default="front")
    size = r.add_mutually_exclusive_group()
    size.add_argument("--zoom", type=float, help=f"scale: 1 is the real size on a screen ({SCREEN_DPI} dpi), 2 twice it")
    size.add_argument("--dpi", type=float, help="resolution in dots per inch (default 300)")
    r.add_argument("--outline", action="store_true", help="draw frame boxes, the safe zone, the trim and the bleed")
    r.add_argument("--no-bleed", dest="bleed", action="store_false", help="the trimmed face, without its bleed")
    r.add_argument("--color", choices=("rgb", "cmyk"), default="rgb",
                   help="cmyk: the face as the print shop prints it (with --proof)")
    r.add_argument("--proof", action="store_true",
                   help="with --color cmyk: a soft proof, the face converted as `build --target printshop --color "
                        "cmyk` converts it and shown through the game's print profile (needs Ghostscript)")
    r.add_argument("--view", choices=("protan", "deutan", "tritan", "grey"), default=None,
                   help="the face as a viewer with protanopia, deuteranopia or tritanopia, or a black-and-white "
                        "printer (grey), would see it (access/vision.py)")
    r.add_argument("--lang", metavar="LANG", help=LANG_ONE_HELP)
    r.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    r.add_argument("--out", type=Path, help="the PNG to write (default: <CARD>-<side>.png in the current folder; "
                   "build/render/ in the game's own folder)")
    r.set_defaults(func=run)


def run(args) -> int:
    from ..output.raster import Face, face_images
    if len(args.names) > 2:
        raise UsageError(f"render takes a game folder and one card id, not {len(args.names)} names: "
                         + " ".join(args.names))
    *game, args.piece = args.names
    found = games(game)
    if len(found) != 1:
        raise UsageError("name the game: cardforge render GAME_DIR " + args.piece)
    game_dir = found[0]
    dpi = args.zoom * SCREEN_DPI if args.zoom is not None else (args.dpi or 300)
    if not 10 <= dpi <= 1200:
        raise UsageError(f"{'--zoom %g' % args.zoom if args.zoom is not None else '--dpi %g' % dpi} asks for "
                         f"{dpi:g} dpi: choose between 10 and 1200 dpi (--zoom 0.1 to 12.5)")
    if args.proof != (args.color == "cmyk"):
        raise UsageError("a soft proof is of the print shop's CMYK: give both --color cmyk and --proof")
    if args.proof and args.outline:
        raise UsageError("--outline draws over the RGB face; leave it out of a soft proof")
    report = Report()
    prep = prepared(game_dir, args.layouts, report, one_language(game_dir, args.lang))
    if prep is None:
        return EXIT_CONTENT
    piece = _piece(prep, args.piece, game_dir)
    is_board = not hasattr(piece, "deck")
    if args.side == "back" and (is_board or prep.faces.get((piece.id, "back")) is None):
        raise UsageError(f"'{piece.id}' has no back to render")
    if (prep.boards.get(piece.id) if is_board else prep.faces.get((piece.id, args.side))) is None:
        emit(report, "text")  # its layout is missing or broken: said above
        return EXIT_CONTENT
    face = Face(piece, "front" if is_board else args.side)
    if args.proof:
        pngs = _proof(prep, face, report, dpi, args.bleed)
        if not pngs:
            emit(report, "text")
            print(f"{game_dir}: '{piece.id}' not rendered", file=sys.stderr)
            return EXIT_CONTENT
        [png] = pngs
    else:
        # drawn despite its errors: overflowing text set as far as it goes and marked in red
        # (render/overset.py), a frame that cannot be drawn left out; the exit status still says so
        [png] = face_images(prep, [face], report, dpi, args.bleed, args.outline)
    emit(report, "text")
    seen = ""
    if args.view:
        from ..access.vision import VIEW_NAMES, simulate_png  # numpy: imported only for a simulated view
        png = simulate_png(png, args.view)
        seen = f", as {VIEW_NAMES[args.view]} sees it"
    out = args.out or Path(f"{piece.id}-{args.side}{'-' + args.lang if args.lang else ''}"
                           f"{'-' + args.view if args.view else ''}.png")
    if args.out is None and game_dir.resolve() == Path.cwd().resolve():
        out = Path("build") / "render" / out  # not among the game's own files, which check reads
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_bytes(png)
    tmp.replace(out)
    console.result(f"wrote {out} ({dpi:g} dpi{', outlined' if args.outline else ''}"
          f"{', soft proof' if args.proof else ''}{seen})"
          f"{_with_errors(report)}")
    return EXIT_CONTENT if report.has_errors() else EXIT_OK


def _with_errors(report: Report) -> str:
    """What the picture of a face with errors shows of them."""
    if not report.has_errors():
        return ""
    if any(d.code == "E-TEXT-OVERFLOW" for d in report.errors):
        return ", with the text that does not fit marked in red"
    return ", with the errors above"


def _proof(prep, face, report: Report, dpi: float, bleed: bool) -> list[bytes]:
    """The face as the game's print profile prints it (output/printcolor.py soft_proof)."""
    from ..output.printcolor import settings
    from ..output.softproof import ghostscript_missing, soft_proof
    if ghostscript_missing():
        raise UsageError("--proof renders the CMYK page with Ghostscript: install it (Debian: apt-get install ghostscript)")
    color = settings(prep.game, report)
    if color is None:
        return []
    return soft_proof(prep, [face], report, dpi, bleed, color)


def _piece(prep, wanted: str, game_dir: Path):
    """The card, token, board or reference sheet of that id; else a usage error with did-you-mean."""
    pieces = {card.id: card for card in prep.game.cards()}
    pieces.update({board.id: board for board in prep.game.boards})
    if wanted in pieces:
        return pieces[wanted]
    guess = difflib.get_close_matches(wanted, list(pieces), n=1, cutoff=0.6)
    raise UsageError(f"no card, token or board '{wanted}' in {game_dir}"
                     + (f"; did you mean '{guess[0]}'?" if guess else ""))
