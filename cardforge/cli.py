"""Command line: `cardforge check`, `cardforge build`, `cardforge force`, `cardforge schema`.

Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage errors.  A
content error is printed as a diagnostic, never as a traceback.
"""
from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path

from . import __version__
from .output.pages import MODES, PAPERS
from .output.pdf import lay_out
from .prepare import prepare
from .diagnostics import ContentError, Report
from .frontend.model import GAME_FILE

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def _out_folder(out_root: Path, game: Path, folder: Path | None = None, whole: bool = False) -> Path:
    """The folder that output of `game` replaces (out_root/<game folder's name> by default),
    refused when that would destroy content (output/replace.py)."""
    from .output.replace import refusal
    folder = folder if folder is not None else out_root / game.resolve().name
    problem = refusal(folder, game, whole)
    if problem:
        raise UsageError(problem)
    return folder


def _games(paths: list[str]) -> list[Path]:
    if paths:
        games = [Path(p) for p in paths]
        for game in games:
            if not (game / GAME_FILE).is_file():
                raise UsageError(f"{game} is not a game folder (it has no {GAME_FILE})")
        return games
    content = Path("content")
    games = sorted(p for p in content.glob("*") if (p / GAME_FILE).is_file()) if content.is_dir() else []
    if not games:
        raise UsageError("no game given and no content/<game>/game.yaml under the current folder")
    return games


def _emit(report: Report, fmt: str) -> None:
    if fmt == "json":
        print(report.format_json())
    elif report.items:
        print(report.format_text(), file=sys.stderr)


class ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, label: str):
        self.label, self.enabled, self.last = label, sys.stderr.isatty(), 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or (done < total and now - self.last < 0.05):
            return
        self.last = now
        width = 30
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} card faces")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def cmd_check(args) -> int:
    combined = Report()
    if args.printed:  # the data as it is now against earlier builds (cardforge/verify/)
        from .verify import PrintedUsageError, check_printed
        try:
            check_printed(args.printed, _games(args.games) if args.games else [], args.layouts, combined)
        except PrintedUsageError as exc:
            raise UsageError(str(exc)) from None
    for game in [] if args.printed else _games(args.games):
        report = Report()
        try:
            lay_out(prepare(game, report, args.layouts), report)
        except ContentError:
            pass
        combined.extend(report)
    _emit(combined, args.format)
    if args.format != "json" and not combined.items:
        print("ok: no problems found", file=sys.stderr)
    failed = combined.has_errors() or (args.strict and combined.warnings)
    return EXIT_CONTENT if failed else EXIT_OK


def _offset(text: str | None) -> tuple[float, float]:
    """--back-offset X,Y in mm (as `cardforge calibrate` measures it), in points."""
    if not text:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise UsageError(f"--back-offset takes two numbers in mm, X,Y (for example 0.5,-1), not '{text}'") from None
    if abs(x) > 20 or abs(y) > 20:
        raise UsageError(f"--back-offset {text}: more than 20 mm is not a printer's misregistration; measure it "
                         "again with `cardforge calibrate`")
    return (x * 72 / 25.4, y * 72 / 25.4)


def cmd_calibrate(args) -> int:
    from .output.calibrate import write_calibration
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"calibrate-{args.paper}.pdf"
    write_calibration(target, args.paper, args.flip)
    print(f"wrote {target}", file=sys.stderr)
    return EXIT_OK


def cmd_build(args) -> int:
    from .output.parallel import Job, build_all  # the writer and PDF reader: not needed by `check`
    if args.target == "printshop":
        return _build_printshop(args)
    combined = Report()
    papers = PAPERS if args.paper == "all" else (args.paper,)
    games = _games(args.games)
    out = Path(args.out) if args.out else Path("build")
    offset = _offset(args.back_offset)
    jobs = [Job(game, _out_folder(out, game), paper, args.mode, args.layouts, flip=args.flip, back_offset=offset,
                imposition=args.imposition) for game in games for paper in papers]
    label = games[0].name if len(games) == 1 else f"{len(games)} games"
    for result in build_all(jobs, ProgressBar(label), workers=args.jobs):
        combined.extend(result.report)
        if not result.report.has_errors():
            for path in result.outputs:
                print(f"wrote {path}", file=sys.stderr)
        else:
            print(f"{result.game_dir}: build failed; previous output left untouched", file=sys.stderr)
    _emit(combined, args.format)
    return EXIT_CONTENT if combined.has_errors() else EXIT_OK


def _build_printshop(args) -> int:
    """`build --target printshop`: one PDF per deck (and board), one piece per page, and its PNGs."""
    from .output.printshop import build_printshop
    kit_only = [flag for flag, value, default in (("--paper", args.paper, "all"), ("--mode", args.mode, "duplex"),
                ("--flip", args.flip, "long"), ("--imposition", args.imposition, "bleed"),
                ("--back-offset", args.back_offset, None)) if value != default]
    if kit_only:
        raise UsageError(f"{', '.join(kit_only)}: the print-shop target has one page per piece and no paper; "
                         "these options are for the home-print kit")
    combined = Report()
    out = Path(args.out) if args.out else Path("build")
    for game in _games(args.games):
        result = build_printshop(game, _out_folder(out, game), args.layouts, ProgressBar(game.name))
        combined.extend(result.report)
        if result.report.has_errors():
            print(f"{game}: print-shop build failed; previous output left untouched", file=sys.stderr)
            continue
        for path in result.outputs:
            if path.suffix == ".pdf":
                print(f"wrote {path} and its pictures", file=sys.stderr)
        for note in result.notes:
            print(f"note: {note}", file=sys.stderr)
    _emit(combined, args.format)
    return EXIT_CONTENT if combined.has_errors() else EXIT_OK


def cmd_force(args) -> int:
    """Check a player's force list against the game's rules; print its roster when it is legal."""
    from .output.roster import ForceUsageError, print_roster
    report = Report()
    papers = list(PAPERS) if args.paper == "all" else [args.paper]
    out = Path(args.out) if args.out else Path(args.force).resolve().parent
    game = Path(args.game) if args.game else None
    if game is not None and not (game / GAME_FILE).is_file():
        raise UsageError(f"{game} is not a game folder (it has no {GAME_FILE})")
    try:
        outputs = print_roster(Path(args.force), game, out, papers, report, args.layouts)
    except ForceUsageError as exc:
        raise UsageError(str(exc)) from None
    _emit(report, args.format)
    if report.has_errors():
        print(f"{args.force}: the force breaks the rules above; no roster written", file=sys.stderr)
        return EXIT_CONTENT
    for path in outputs:
        print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def _one_game(args) -> Path:
    games = _games([args.game] if args.game else [])
    if len(games) != 1:
        raise UsageError("name one game folder: " + " ".join(str(g) for g in games))
    return games[0]


def cmd_serve(args) -> int:
    from .serve.server import Builder, Preview, Watcher, make_server
    from .serve.session import Session
    game = _one_game(args)
    out = _out_folder(Path(args.out) if args.out else Path("build"), game)
    session = Session(game, args.layouts)
    print(f"cardforge serve: drawing every piece of {game} …", file=sys.stderr)
    preview = Preview(session, out, PAPERS if args.paper == "all" else (args.paper,))
    preview.refresh()
    preview.builder = Builder(preview, game, args.layouts)  # forked now, before any thread starts
    if not session.stale:
        preview.builder.request()
    try:
        server = make_server(preview, args.port)
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}; choose another --port") from None

    def report(changes, redrawn, seconds):
        errors = sum(1 for d in session.diagnostics if d["severity"] == "error")
        print(f"{len(changes)} file(s) changed: {len(redrawn)} face(s) redrawn in {seconds:.2f} s"
              + (f", {errors} error(s)" if errors else ""), file=sys.stderr)

    watcher = Watcher(preview, _watched(game, args.layouts), report)

    def stop(_signum, _frame):  # a terminated server still stops its builder and watcher
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    print(f"preview of {session.game_name}: http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C to stop)",
          file=sys.stderr)
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    serving.start()
    try:
        watcher.run()  # refreshes on the main thread: the expression time limit works only there
    finally:
        server.closing = True
        server.shutdown()
        watcher.close()
        preview.builder.close()
        server.server_close()
    return EXIT_OK


def _watched(game: Path, layouts: Path | None) -> list[Path]:
    from .layout.fonts import FONTS_DIR
    from .prepare import layout_roots
    roots = layout_roots(game, game.resolve().name, layouts)
    return [game] + [r for r in roots[1:] if r.is_dir()] + [FONTS_DIR]


def cmd_watch(args) -> int:
    """Rebuild the PDFs after every save and print the diagnostics, until Ctrl+C."""
    from watchfiles import watch
    from .frontend import load
    load.file_memo = load.FileMemo()  # unchanged files are not read again
    game = _one_game(args)
    out_root = Path(args.out) if args.out else Path("build")
    out = (out_root / game.resolve().name).resolve()
    args.games = [str(game)]

    def relevant(_change, path: str) -> bool:
        resolved = Path(path).resolve()
        return out not in resolved.parents and not resolved.name.endswith((".tmp", "~", ".swp"))

    def once() -> None:
        start = time.monotonic()
        status = cmd_build(args)
        print(f"[{time.strftime('%H:%M:%S')}] {'built' if status == EXIT_OK else 'build failed'} in "
              f"{time.monotonic() - start:.2f} s; watching {game} for changes (Ctrl+C to stop)", file=sys.stderr)

    once()
    for _ in watch(*_watched(game, args.layouts), watch_filter=relevant, step=30, debounce=400):
        once()
    return EXIT_OK


def cmd_export(args) -> int:
    """`export png` and `export tts`: pictures of every face, or Tabletop Simulator decks."""
    game = _one_game(args)
    if not 10 <= args.dpi <= 1200:
        raise UsageError(f"--dpi {args.dpi:g}: choose between 10 and 1200")
    report = Report()
    out = Path(args.out) if args.out else Path("build") / game.resolve().name / args.kind
    _out_folder(out.parent, game, out, whole=True)
    if not args.out:  # build/<game>/png: the export takes the lock of the game's build folder (export/staging.py)
        from .output.lock import lock_path
        lock_path(out.parent).parent.mkdir(parents=True, exist_ok=True)
        lock_path(out.parent).touch()
    try:
        prep = prepare(game, report, args.layouts)
        unknown = [d for d in args.deck or [] if d not in {deck.id for deck in prep.game.decks}]
        if unknown:
            raise UsageError(f"no deck '{unknown[0]}' in {game}; its decks are "
                             + ", ".join(deck.id for deck in prep.game.decks))
        if args.kind == "png":
            from .export.png import export_png
            written = export_png(prep, out, report, dpi=args.dpi, bleed=args.bleed, decks=args.deck,
                                 progress=ProgressBar(game.name))
            print(f"wrote {len(written)} pictures at {args.dpi:g} dpi{' with bleed' if args.bleed else ''} "
                  f"into {out}", file=sys.stderr)
        else:
            from .export.tts import export_tts
            written, decks = export_tts(prep, out, report, dpi=args.dpi, url_base=args.url_base, decks=args.deck)
            for export in decks:
                sheets = ", ".join(f"{s.cols}x{s.rows} at {s.size[0]}x{s.size[1]} px" for s in export.sheets)
                print(f"{export.deck.id}: {len(export.deck_ids)} cards on {len(export.sheets)} sheet(s) ({sheets}), "
                      f"{'a back per card' if export.unique_back else 'one back'}", file=sys.stderr)
            print(f"wrote {len(written)} files into {out}; copy {out / (prep.game.id + '.json')} and its .png into "
                  "Tabletop Simulator's Saved Objects folder", file=sys.stderr)
    except ContentError:
        _emit(report, "text")
        print(f"{game}: export failed; previous output left untouched", file=sys.stderr)
        return EXIT_CONTENT
    _emit(report, "text")
    return EXIT_OK


def _game_of(file: Path, given: str | None) -> Path:
    """The game a spreadsheet belongs to: --game, else the folder above it with a game.yaml."""
    if given:
        return _games([given])[0]
    for folder in file.resolve().parents:
        if (folder / GAME_FILE).is_file():
            return folder
    return _one_game(argparse.Namespace(game=None))


def cmd_import(args) -> int:
    """A .csv or .xlsx sheet of cards as a YAML card file, typed by the deck's fields."""
    from .frontend.model import load_game
    from .frontend.sheetimport import sheet_to_yaml
    from .frontend.sheets import split_sheet
    rel, sheet = split_sheet(args.file)
    source = Path(rel)
    if source.suffix.lower() != f".{args.kind}":
        raise UsageError(f"{source} is not a .{args.kind} file")
    if not source.is_file():
        raise UsageError(f"{source} does not exist")
    game_dir = _game_of(source, args.game)
    target = Path(args.out) if args.out else source.with_suffix(".yaml")
    if target.exists() and not args.force:
        raise UsageError(f"{target} exists; choose another --out, or --force to replace it")
    report = Report()
    try:
        game = load_game(game_dir, report)
    except ContentError:
        _emit(report, "text")
        return EXIT_CONTENT
    deck = next((d for d in game.decks if d.id == args.deck), None)
    if deck is None:
        raise UsageError(f"no deck '{args.deck}' in {game_dir}; its decks are " + ", ".join(d.id for d in game.decks))
    result = sheet_to_yaml(game, deck, source, sheet, report)
    _emit(report, "text")
    if result is None:
        print(f"{source}: not imported; nothing written", file=sys.stderr)
        return EXIT_CONTENT
    text, count = result
    from .output.replace import replacing
    with replacing(target) as tmp:  # a killed import never leaves half a card file over the old one
        tmp.write_text(text, "utf-8")
    print(f"wrote {target} ({count} cards); name it in game.yaml under the deck "
          f"'{deck.id}' as its cards", file=sys.stderr)
    return EXIT_OK


def cmd_stats(args) -> int:
    """Counts by field and numeric distributions per deck, printed and drawn as bar charts."""
    from .export.stats import format_text, game_stats, write_pdf
    game = _one_game(args)
    report = Report()
    try:
        prep = prepare(game, report, args.layouts)
    except ContentError:
        _emit(report, "text")
        return EXIT_CONTENT
    known = [deck.id for deck in prep.game.decks]
    for deck in args.deck or []:
        if deck not in known:
            raise UsageError(f"no deck '{deck}' in {game}; its decks are " + ", ".join(known))
    decks = game_stats(prep, args.deck)
    print(format_text(prep.game.name, decks))
    out = (Path(args.out) if args.out else Path("build") / game.resolve().name) / f"{prep.game.id}-stats.pdf"
    write_pdf(prep, decks, out)
    _emit(report, "text")
    print(f"wrote {out}", file=sys.stderr)
    return EXIT_OK


def cmd_schema(args) -> int:
    from .frontend.schemafiles import write_schemas
    game = None
    if args.game:
        report = Report()
        try:
            from .frontend.model import load_game
            game = load_game(Path(args.game), report)
        except ContentError:
            _emit(report, "text")
            return EXIT_CONTENT
    out = Path(args.out)
    for path in write_schemas(out, game):
        print(f"wrote {path}", file=sys.stderr)
    print("For the YAML language server add a first line such as:\n"
          f"  # yaml-language-server: $schema={(out / 'game.schema.json').as_posix()}", file=sys.stderr)
    return EXIT_OK


def cmd_new(args) -> int:
    """A new game folder that builds and checks clean at once."""
    from .scaffold import ScaffoldError, new_game
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
    _emit(report, "text")
    print(f"created {folder}/ ({len(new_game_files)} files): game.yaml, cards/cards.yaml, rules.yaml, "
          f"layouts/front.yaml and back.yaml, schemas/\nnext: cardforge build {folder}   "
          f"(or cardforge serve {folder} to see it in the browser)", file=sys.stderr)
    return EXIT_CONTENT if report.has_errors() else EXIT_OK


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardforge", description="Compile card games into print-and-play PDFs.")
    p.add_argument("--version", action="version", version=f"cardforge {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp):
        sp.add_argument("games", nargs="*", metavar="GAME_DIR", help="game folders (default: every game in content/)")
        sp.add_argument("--layouts", type=Path, default=None, help="the layouts library (default: layouts/ beside content/)")
        sp.add_argument("--format", choices=("text", "json"), default="text", help="diagnostics format")

    c = sub.add_parser("check", help="validate games without writing anything")
    common(c)
    c.add_argument("--strict", action="store_true", help="treat warnings as errors")
    c.add_argument("--printed", action="append", type=Path, metavar="PDF",
                   help="check a built PDF (and its .manifest.json) against the data as it is now: "
                        "the text, icons and copies of every card; may be given more than once")
    c.set_defaults(func=cmd_check)

    b = sub.add_parser("build", help="build the print-and-play PDFs")
    common(b)
    b.add_argument("--paper", choices=PAPERS + ("all",), default="all")
    b.add_argument("--mode", choices=MODES, default="duplex",
                   help="duplex: backs on the next page for a long-edge flip; simplex: backs at the end; "
                        "fold: each front beside its back")
    b.add_argument("--flip", choices=("long", "short"), default="long",
                   help="how your printer turns the sheet in duplex: about its long edge (the default) or short edge")
    b.add_argument("--back-offset", metavar="X,Y", help="shift every back page by X,Y mm to correct your printer's "
                   "duplex misregistration (measure it with `cardforge calibrate`)")
    b.add_argument("--imposition", choices=("bleed", "gang"), default="bleed",
                   help="bleed: every card its own bleed (the default; a miscut never shows a neighbour); "
                        "gang: cards edge to edge with shared cut lines, more per sheet")
    b.add_argument("--target", choices=("kit", "printshop"), default="kit",
                   help="kit: the home-print kit (the default); printshop: one PDF per deck, one piece per page "
                        "with 1/8 in bleed and trim boxes, and 300 dpi PNGs, into <game>/printshop/")
    b.add_argument("--out", help="output folder (default: build/); each game gets a subfolder")
    b.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="processes drawing games and papers at once (default: one per core)")
    b.set_defaults(func=cmd_build)

    v = sub.add_parser("serve", help="a live preview in the browser that follows every save")
    v.add_argument("game", nargs="?", metavar="GAME_DIR", help="the game folder (default: the only game in content/)")
    v.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    v.add_argument("--layouts", type=Path, default=None, help="the layouts library (default: layouts/ beside content/)")
    v.add_argument("--paper", choices=PAPERS + ("all",), default="a4", help="paper of the PDFs rebuilt in the background")
    v.add_argument("--out", help="output folder of those PDFs (default: build/)")
    v.set_defaults(func=cmd_serve)

    w = sub.add_parser("watch", help="rebuild the PDFs after every save and print the diagnostics")
    w.add_argument("game", nargs="?", metavar="GAME_DIR", help="the game folder (default: the only game in content/)")
    w.add_argument("--layouts", type=Path, default=None, help="the layouts library (default: layouts/ beside content/)")
    w.add_argument("--paper", choices=PAPERS + ("all",), default="all")
    w.add_argument("--mode", choices=MODES, default="duplex")
    w.add_argument("--out", help="output folder (default: build/)")
    w.add_argument("--format", choices=("text", "json"), default="text", help="diagnostics format")
    w.add_argument("--jobs", "-j", type=int, default=1, help=argparse.SUPPRESS)
    w.set_defaults(func=cmd_watch, flip="long", back_offset=None, imposition="bleed", target="kit")

    f = sub.add_parser("force", help="check a force list against the game's rules and print its roster sheet")
    f.add_argument("force", metavar="FORCE.yaml", help="the force list (force: {id, scenario, side, picks})")
    f.add_argument("--game", metavar="GAME_DIR", help="the game (default: the game folder the file lies in)")
    f.add_argument("--layouts", type=Path, default=None, help="the layouts library (default: layouts/ beside content/)")
    f.add_argument("--paper", choices=PAPERS + ("all",), default="a4")
    f.add_argument("--out", help="folder for <force id>-roster-<paper>.pdf (default: the force file's folder)")
    f.add_argument("--format", choices=("text", "json"), default="text", help="diagnostics format")
    f.set_defaults(func=cmd_force)

    e = sub.add_parser("export", help="card pictures (png) or Tabletop Simulator decks (tts)")
    e.add_argument("kind", choices=("png", "tts"), help="png: one picture per face; tts: Tabletop Simulator decks")
    e.add_argument("game", nargs="?", metavar="GAME_DIR", help="the game folder (default: the only game in content/)")
    e.add_argument("--dpi", type=float, default=300,
                   help="resolution (default 300; tts lowers it where a sheet would pass 4096 px)")
    e.add_argument("--bleed", action="store_true", help="png: include the bleed around each face")
    e.add_argument("--deck", action="append", metavar="ID", help="only this deck (may be given more than once)")
    e.add_argument("--url-base", metavar="URL", help="tts: where the pictures will be uploaded "
                   "(default: file:// URLs of the output folder)")
    e.add_argument("--layouts", type=Path, default=None, help="the layouts library (default: layouts/ beside content/)")
    e.add_argument("--out", help="output folder (default: build/<game>/png or build/<game>/tts)")
    e.set_defaults(func=cmd_export)

    t = sub.add_parser("stats", help="counts by field and cost curves per deck, and a PDF of bar charts")
    t.add_argument("game", nargs="?", metavar="GAME_DIR", help="the game folder (default: the only game in content/)")
    t.add_argument("--deck", action="append", metavar="ID", help="only this deck (may be given more than once)")
    t.add_argument("--layouts", type=Path, default=None, help="the layouts library (default: layouts/ beside content/)")
    t.add_argument("--out", help="folder of the statistics PDF (default: build/<game>/)")
    t.set_defaults(func=cmd_stats)

    n = sub.add_parser("new", help="start a new game: game.yaml, a deck with layouts, sample cards, rules")
    n.add_argument("name", metavar="NAME", help="the folder to create (its name becomes the game's id)")
    n.add_argument("--title", help="the game's name as printed (default: from NAME)")
    n.add_argument("--layouts", type=Path, default=None, help=argparse.SUPPRESS)
    n.set_defaults(func=cmd_new)

    i = sub.add_parser("import", help="convert a .csv or .xlsx sheet of cards into a YAML card file")
    i.add_argument("kind", choices=("csv", "xlsx"))
    i.add_argument("file", metavar="FILE", help="the sheet (an .xlsx file may name its sheet: cards.xlsx#Crew)")
    i.add_argument("--deck", required=True, metavar="ID", help="the deck whose fields type the columns")
    i.add_argument("--game", metavar="GAME_DIR", help="the game (default: the game folder holding FILE)")
    i.add_argument("--out", help="the YAML file to write (default: FILE with .yaml)")
    i.add_argument("--force", action="store_true", help="replace --out if it exists")
    i.set_defaults(func=cmd_import)

    k = sub.add_parser("calibrate", help="write a one-sheet duplex test that measures --back-offset")
    k.add_argument("--paper", choices=PAPERS, default="a4")
    k.add_argument("--flip", choices=("long", "short"), default="long")
    k.add_argument("--out", default="build", help="folder for calibrate-<paper>.pdf (default: build/)")
    k.set_defaults(func=cmd_calibrate)

    s = sub.add_parser("schema", help="write the JSON Schemas for editors")
    s.add_argument("game", nargs="?", help="also write one card schema per deck of this game")
    s.add_argument("--out", default="schemas", help="folder to write into (default: schemas/)")
    s.set_defaults(func=cmd_schema)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"cardforge: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # output that cannot be written: a full disk, a file where a folder should be
        target = exc.filename or getattr(args, "out", None)
        where = f" '{target}'" if target else ""
        print(f"cardforge: error: cannot write{where}: {exc.strerror or exc}; choose another --out, or make "
              "room on the disk (the previous output is as it was)", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
