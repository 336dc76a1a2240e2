"""`cardforge serve`: a live preview in the browser that follows every save."""
from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

from .common import (EXIT_OK, GAME_HELP, LANG_ONE_HELP, LAYOUTS_HELP, PAPERS, UsageError, one_game, one_language,
                     out_folder, watched)


def add(sub) -> None:
    v = sub.add_parser("serve", help="a live preview in the browser that follows every save")
    v.add_argument("game", nargs="?", metavar="GAME_DIR", help=GAME_HELP)
    v.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    v.add_argument("--lang", metavar="LANG", help=LANG_ONE_HELP)
    v.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    v.add_argument("--paper", choices=PAPERS + ("all",), default="a4", help="paper of the PDFs rebuilt in the background")
    v.add_argument("--out", help="output folder of those PDFs (default: build/)")
    v.add_argument("--outline", action="store_true", help="draw frame boxes, the safe zone, the trim and the bleed "
                   "on the pictures (not in the PDFs)")
    v.add_argument("--color", choices=("rgb", "cmyk"), default="rgb",
                   help="cmyk: open on the print shop's soft proof, every face converted as `build --target printshop "
                   "--color cmyk` converts it and shown through the game's print profile (needs Ghostscript); the "
                   "page's 'Seen as' menu switches views")
    v.add_argument("--since", metavar="OLD", help="show each piece changed since OLD (a game folder, GAME@REVISION or "
                   "a git revision) beside its old picture")
    v.set_defaults(func=run)


def run(args) -> int:
    from ..serve.server import Builder, Preview, Watcher, make_server
    from ..serve.session import Session
    game = one_game(args)
    out = out_folder(Path(args.out) if args.out else Path("build"), game)
    lang = one_language(game, args.lang)
    session = Session(game, args.layouts, outline=args.outline, lang=lang)
    if args.color == "cmyk":
        from ..serve.session import PROOF_VIEW, proof_unavailable
        if proof_unavailable() is not None:
            raise UsageError(f"--color cmyk: {proof_unavailable()}")
        session.start_view = PROOF_VIEW
    if args.since:
        session.baseline = since(args.since, game, args.layouts)
    print(f"cardforge serve: drawing every piece of {game} …", file=sys.stderr)
    preview = Preview(session, out, PAPERS if args.paper == "all" else (args.paper,))
    preview.refresh()
    preview.builder = Builder(preview, game, args.layouts, lang)  # forked now, before any thread starts
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

    watcher = Watcher(preview, watched(game, args.layouts), report)

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
        watcher.close()
        preview.builder.stop()  # it unwinds while the server closes
        server.close()
        preview.builder.close()
        if session.baseline is not None:
            session.baseline.close()
    return EXIT_OK


def since(old: str, game: Path, layouts: Path | None):
    """The old version the preview compares with (serve/baseline.py); a usage error if it can't be shown."""
    from ..errata.versions import VersionError
    from ..serve.baseline import Baseline, BaselineError
    print(f"cardforge serve: drawing {old} to compare with …", file=sys.stderr)
    try:
        return Baseline(old, game, layouts)
    except (VersionError, BaselineError) as exc:
        raise UsageError(str(exc)) from None
