"""`cardforge build`: the print-and-play kit of each game and paper (--target kit), or the print
shop's files (--target printshop)."""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from ..diagnostics import ContentError, Report
from .check import add_game_arguments, refreshed, languages_of
from .common import EXIT_CONTENT, EXIT_OK, MODES, PAPERS, ProgressBar, UsageError, emit, games, out_folder


def defaults() -> dict:
    """Every `build` option at its default: what `watch`, which runs this build, leaves unset."""
    import argparse
    sub = argparse.ArgumentParser().add_subparsers()
    add(sub)
    return vars(sub.choices["build"].parse_args([]))


def add(sub) -> None:
    b = sub.add_parser("build", help="build the print-and-play PDFs")
    add_game_arguments(b)
    b.add_argument("--paper", choices=PAPERS + ("all",), default="all")
    b.add_argument("--mode", choices=MODES, default="duplex",
                   help="duplex: backs on the next page for a long-edge flip; simplex: backs at the end; "
                        "fold: each front beside its back")
    b.add_argument("--flip", choices=("long", "short"), default=None,
                   help="how your printer turns the sheet in duplex: about its long edge (the default) or short edge")
    b.add_argument("--back-offset", metavar="X,Y", help="shift every back by X,Y mm, in the paper's frame as the "
                   "duplex alignment test reads it, to correct your printer's misregistration (landscape sheets "
                   "turn it with the paper)")
    b.add_argument("--printer", metavar="NAME", help="the back offset and flip saved for printer NAME in "
                   "printers.yaml (~/.config/cardforge/; --back-offset and --flip win over it)")
    b.add_argument("--imposition", choices=("bleed", "gang"), default="bleed",
                   help="bleed: every card its own bleed (the default; a miscut never shows a neighbour); "
                        "gang: cards edge to edge with shared cut lines, more per sheet")
    b.add_argument("--target", choices=("kit", "printshop"), default="kit",
                   help="kit: the home-print kit (the default); printshop: one PDF per deck, one piece per page "
                        "with 1/8 in bleed and trim boxes, and 300 dpi PNGs, into <game>/printshop/")
    b.add_argument("--color", choices=("rgb", "cmyk"), default="rgb",
                   help="with --target printshop: rgb (as drawn, the default) or cmyk: through the game's print "
                        "profile under its ink limit, as PDF/X (game.yaml `printshop:`; the PNGs stay RGB)")
    b.add_argument("--errata", metavar="OLD", help="only the pieces changed since OLD (a game folder, GAME@REVISION or a "
                   "git revision), with a changelog page first and a version mark, into <game>/errata/")
    b.add_argument("--only", metavar="ID", help="build one deck, card, board or template alone, as a proof (into "
                   "build/preview/only-ID/ unless --out is given, so the full kit stays as it was)")
    b.add_argument("--outline", action="store_true", help="draw frame boxes and their names, the safe zone, the trim "
                   "and the bleed over every face (into build/preview/outline/ unless --out is given)")
    b.add_argument("--proof", action="store_true", help="a proof to try the game out: the pieces' sheets alone, "
                   "without cover, guide and alignment test, in one PDF <game>-proof-<paper>.pdf (into "
                   "build/preview/proof/ unless --out is given)")
    b.add_argument("--ink-saver", action="store_true", help="the kit for home printers, most of its ink left out: "
                   "backgrounds become paper with a coloured edge, backs an outline and an emblem "
                   "(<game>-kit-inksaver-a4.pdf, beside the full-colour kit)")
    b.add_argument("--out", help="output folder (default: build/); each game gets a subfolder")
    b.add_argument("--jobs", "-j", type=count, default=None, metavar="N",
                   help="processes drawing games and papers at once (default: one per core)")
    b.set_defaults(func=run)


def count(text: str) -> int:
    """--jobs N: a whole number from 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give at least 1")
    return value


def offset(text: str | None) -> tuple[float, float]:
    """--back-offset X,Y in mm (as `cardforge calibrate` measures it), in points."""
    if not text:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in text.replace(" ", "").split(","))
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(text)
    except ValueError:
        raise UsageError(f"--back-offset takes two numbers in mm, X,Y (for example 0.5,-1), not '{text}'") from None
    if abs(x) > 20 or abs(y) > 20:
        raise UsageError(f"--back-offset {text}: more than 20 mm is not a printer's misregistration; measure it "
                         "again with `cardforge calibrate`")
    return (x * 72 / 25.4, y * 72 / 25.4)


def apply_printer(args) -> None:
    """--printer NAME: the saved printer's back offset and flip, where the command line gives none;
    the printers file's errors are diagnostics at their lines, and the build does not start."""
    if getattr(args, "printer", None):
        from ..frontend.printers import load_printer
        report = Report()
        printer = load_printer(args.printer, report)
        if printer is None:
            emit(report, getattr(args, "format", "text"))
            raise UsageError(f"--printer {args.printer}: the printers file has the errors above")
        if args.back_offset is None:
            args.back_offset = f"{printer.back_offset[0]},{printer.back_offset[1]}"
        if args.flip is None and printer.flip:
            args.flip = printer.flip
    if args.flip is None:
        args.flip = "long"


def run(args) -> int:
    apply_printer(args)
    if args.color != "rgb" and args.target != "printshop":
        raise UsageError("--color cmyk is for the print shop's files: add --target printshop")
    if args.lang is not None and (args.errata is not None or args.target != "kit"):
        raise UsageError("--lang builds the home-print kit of each language; leave out --errata and --target")
    if args.ink_saver and (args.errata is not None or args.target != "kit"):
        raise UsageError("--ink-saver builds the home-print kit with less ink; leave out --errata and --target")
    looks = [flag for flag, given in (("--only", args.only), ("--outline", args.outline), ("--proof", args.proof))
             if given]
    if looks and (args.errata is not None or args.target != "kit"):
        raise UsageError(f"{', '.join(looks)}: a preview of the home-print kit; leave out --errata and --target")
    if args.errata is not None:
        return run_errata(args)
    if args.target == "printshop":
        return run_printshop(args)
    from ..output.parallel import Job, build_all  # the writer and PDF reader: not needed by `check`
    from ..output.sheets import summary as sheet_summary
    combined = Report()
    papers = PAPERS if args.paper == "all" else (args.paper,)
    found = games(args.games)
    for game in found:
        if (game / "schemas" / "game.schema.json").is_file():  # the game keeps editor schemas: keep them current
            from ..frontend.model import load_game
            try:
                refreshed(load_game(game, Report()))
            except ContentError:
                pass  # its errors are reported by the build itself
    # A subset, an outlined kit or a proof never replaces the real kit, nor one another: each kind of
    # preview has its own folder.  --only builds a proof: a subset's cover and guide would be empty talk.
    proof = bool(args.proof or args.only)
    preview = bool(args.only or args.outline or args.proof)
    out = Path(args.out) if args.out else Path("build") / "preview" / _preview_folder(args) if preview \
        else Path("build")
    back_offset = offset(args.back_offset)
    if args.only:
        _check_only(found, args.only)
    jobs = [Job(game, out_folder(out, game), paper, args.mode, args.layouts, flip=args.flip, back_offset=back_offset,
                imposition=args.imposition, lang=lang, only=args.only, outline=args.outline,
                ink_saver=args.ink_saver, proof=proof, preview=preview)
            for game in found for lang in languages_of(game, args.lang) for paper in papers]
    label = found[0].name if len(found) == 1 else f"{len(found)} games"
    told: set[Path] = set()
    for result in build_all(jobs, ProgressBar(label), workers=args.jobs):
        combined.extend_once(result.report)
        if result.outputs:  # a preview is written despite the errors its faces show
            for path in result.outputs if console.verbose() else ():  # -v: every file and each kit's sheets
                console.result(f"wrote {path}")
                line = sheet_summary(path.with_suffix(".manifest.json")) if _is_kit(path) else None
                if line:
                    console.result(f"  {path.name}: {line}")
                if line and path.parent not in told:  # once per game: the same for every paper
                    told.add(path.parent)
                    _print_provenance(path.with_suffix(".manifest.json"))
            console.result(_game_line(result))
            if result.report.has_errors():
                print(f"{result.game_dir}: a preview with the errors below drawn in (overflowing text marked in "
                      "red); the kit is not built until they are fixed", file=sys.stderr)
        else:
            print(f"{result.game_dir}: build failed; previous output left untouched", file=sys.stderr)
    if args.access:
        from .check import access_report
        for game in found:
            for lang in languages_of(game, args.lang):
                combined.extend_once(access_report(game, args.layouts, lang, args.ink_saver))
    emit(combined, args.format)
    return EXIT_CONTENT if combined.has_errors() else EXIT_OK


def _preview_folder(args) -> str:
    """build/preview/<this>: one folder per kind of preview, so that none overwrites another."""
    parts = ([f"only-{args.only}"] if args.only else []) + (["proof"] if args.proof and not args.only else []) \
        + (["outline"] if args.outline else [])
    return "-".join(parts)


def _is_kit(path: Path) -> bool:
    return ("-kit-" in path.name or "-proof-" in path.name) and path.suffix == ".pdf"


def _game_line(result) -> str:
    """A game's one line: how many PDFs, where, and each kit's sheets, as
    `bomber-boys: 12 PDFs in build/bomber-boys (sheets: kit-a4 13, kit-letter 12)`."""
    import json
    pdfs = [p for p in result.outputs if p.suffix == ".pdf"]
    game = Path(result.game_dir).resolve().name
    sheets = []
    for path in filter(_is_kit, pdfs):
        try:
            count = json.loads(path.with_suffix(".manifest.json").read_text("utf-8"))["sheets"]["count"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        sheets.append(f"{path.stem.removeprefix(game + '-')} {count}")
    line = f"{game}: {len(pdfs)} PDF{'s' if len(pdfs) != 1 else ''} in {', '.join(sorted({str(p.parent) for p in pdfs}))}"
    return line + (f" (sheets: {', '.join(sheets)})" if sheets else "")


def _print_provenance(manifest_path: Path) -> None:
    """What the rulebook gives and what the kit authored, for the designer: on the terminal and in the
    manifest, never on a printed page (frontend/provenance.py)."""
    import json
    from ..frontend.provenance import summary
    try:
        counts = json.loads(manifest_path.read_text("utf-8")).get("provenance") or {}
    except (OSError, ValueError):
        return
    if any(tally.get("authored") or (tally.get("rows") or {}).get("authored") for tally in counts.values()):
        console.result(f"  provenance: {'; '.join(summary(counts))}")


def _check_only(found: list[Path], wanted: str) -> None:
    """--only names a deck, card, board or template of each game built: else a usage error."""
    from ..frontend.model import load_game
    from ..frontend.only import unknown
    for game_dir in found:
        problem = unknown(load_game(game_dir, Report()), wanted, str(game_dir))
        if problem:
            raise UsageError(problem)


def run_printshop(args) -> int:
    """`build --target printshop`: one PDF per deck (and board), one piece per page, and its PNGs."""
    from ..output.printshop import build_printshop
    kit_only = [flag for flag, value, default in (("--paper", args.paper, "all"), ("--mode", args.mode, "duplex"),
                ("--flip", args.flip, "long"), ("--imposition", args.imposition, "bleed"),
                ("--back-offset", args.back_offset, None)) if value != default]
    if kit_only:
        raise UsageError(f"{', '.join(kit_only)}: the print-shop target has one page per piece and no paper; "
                         "these options are for the home-print kit")
    combined = Report()
    out = Path(args.out) if args.out else Path("build")
    for game in games(args.games):
        result = build_printshop(game, out_folder(out, game), args.layouts, ProgressBar(game.name), args.color)
        combined.extend_once(result.report)
        if result.report.has_errors():
            print(f"{game}: print-shop build failed; previous output left untouched", file=sys.stderr)
            continue
        for path in result.outputs:
            if path.suffix == ".pdf":
                console.result(f"wrote {path} and its pictures")
        for line in result.color:
            console.result(f"  {line}")
        for note in result.notes:
            print(f"note: {note}", file=sys.stderr)
    emit(combined, args.format)
    return EXIT_CONTENT if combined.has_errors() else EXIT_OK


def run_errata(args) -> int:
    """`build --errata OLD`: per game and paper, the changed pieces alone, after a changelog page."""
    from ..errata.build import build_errata
    from ..errata.versions import VersionError
    if args.target != "kit" or args.mode != "duplex":
        raise UsageError("--errata prints a duplex sheet for home printing; leave out --target and --mode")
    papers = PAPERS if args.paper == "all" else (args.paper,)
    out = Path(args.out) if args.out else Path("build")
    combined = Report()
    for game in games(args.games):
        try:
            result = build_errata(game, out_folder(out, game), args.errata, papers, args.layouts,
                                  ProgressBar(game.name), args.flip, offset(args.back_offset), args.imposition)
        except VersionError as exc:
            raise UsageError(str(exc)) from None
        combined.extend_once(result.report)
        if result.report.has_errors():
            print(f"{game}: errata build failed; previous output left untouched", file=sys.stderr)
            continue
        console.result(f"{game}: {result.summary}")
        for path in result.outputs:
            console.result(f"wrote {path}")
    emit(combined, args.format)
    return EXIT_CONTENT if combined.has_errors() else EXIT_OK
