"""`cardforge watch`: rebuild the PDFs after every save and print the diagnostics, until Ctrl+C."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .build import defaults as build_defaults, run as run_build
from .common import EXIT_OK, GAME_HELP, LAYOUTS_HELP, MODES, PAPERS, one_game, watched


def add(sub) -> None:
    w = sub.add_parser("watch", help="rebuild the PDFs after every save and print the diagnostics")
    w.add_argument("game", nargs="?", metavar="GAME_DIR", help=GAME_HELP)
    w.add_argument("--layouts", type=Path, default=None, help=LAYOUTS_HELP)
    w.add_argument("--paper", choices=PAPERS + ("all",), default="all")
    w.add_argument("--mode", choices=MODES, default="duplex")
    w.add_argument("--out", help="output folder (default: build/)")
    w.add_argument("--format", choices=("text", "json"), default="text", help="diagnostics format")
    w.add_argument("--jobs", "-j", type=int, default=1, help=argparse.SUPPRESS)
    # The build it runs gets every other build option at its default (a new build option needs nothing here).
    w.set_defaults(func=run, **{k: v for k, v in build_defaults().items()
                                if k not in ("func", "games", "layouts", "paper", "mode", "out", "format", "jobs")})


def run(args) -> int:
    """Rebuild the PDFs after every save and print the diagnostics, until Ctrl+C."""
    from watchfiles import watch
    from ..frontend import load
    load.file_memo = load.FileMemo()  # unchanged files are not read again
    game = one_game(args)
    out_root = Path(args.out) if args.out else Path("build")
    out = (out_root / game.resolve().name).resolve()
    args.games = [str(game)]

    def relevant(_change, path: str) -> bool:
        resolved = Path(path).resolve()
        return out not in resolved.parents and not resolved.name.endswith((".tmp", "~", ".swp"))

    def once() -> None:
        start = time.monotonic()
        status = run_build(args)
        print(f"[{time.strftime('%H:%M:%S')}] {'built' if status == EXIT_OK else 'build failed'} in "
              f"{time.monotonic() - start:.2f} s; watching {game} for changes (Ctrl+C to stop)", file=sys.stderr)

    once()
    for _ in watch(*watched(game, args.layouts), watch_filter=relevant, step=30, debounce=400):
        once()
    return EXIT_OK
