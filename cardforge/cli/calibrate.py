"""`cardforge calibrate`: the duplex alignment test, one sheet that measures the printer's back offset."""
from __future__ import annotations

from pathlib import Path

import cardforge.cli.console as console  # the module alone: `from . import` would import the package
from .common import EXIT_OK, PAPERS


def add(sub) -> None:
    k = sub.add_parser("calibrate", help="write the duplex alignment test, one sheet that measures the printer's "
                       "back offset (X,Y in the paper's frame)")
    k.add_argument("--paper", choices=PAPERS, default="a4")
    k.add_argument("--flip", choices=("long", "short"), default="long")
    k.add_argument("--out", default="build", help="folder for calibrate-<paper>.pdf (default: build/)")
    k.set_defaults(func=run)


def run(args) -> int:
    from ..output.calibrate import write_calibration
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"calibrate-{args.paper}.pdf"
    write_calibration(target, args.paper, args.flip)
    console.result(f"wrote {target}")
    return EXIT_OK
