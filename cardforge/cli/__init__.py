"""Command line: `cardforge check`, `build`, `render`, `serve`, `watch`, `force`, `export`, `stats`, `new`,
`import`, `calibrate`, `schema`, `diff`, `rules`, `translate`; one module per command in this package.

Each command module has `add(subparsers)`, which declares its arguments and sets `func`, and
`run(args)`, which imports the stages it needs when it runs: `cardforge check` never loads the
PDF writer, and `--help` loads no stage at all.

Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage errors.  A content error is
printed as a diagnostic, never as a traceback.
"""
from __future__ import annotations

import argparse
import gc
import sys

from .. import __version__
from . import (build, calibrate, check, diff, export, force, import_sheet, new, render, rules, schema, serve, stats,
               translate, watch)
from .console import closed_pipes_dropped
from .common import EXIT_CONTENT, EXIT_OK, EXIT_USAGE, UsageError

__all__ = ["main", "parser", "UsageError", "EXIT_OK", "EXIT_CONTENT", "EXIT_USAGE"]

# In the order `cardforge --help` lists them.
COMMANDS = (check, build, render, serve, watch, force, export, stats, diff, rules, translate, new, import_sheet, calibrate, schema)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardforge", description="Compile card games into print-and-play PDFs.")
    p.add_argument("--version", action="version", version=f"cardforge {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    from ..interrupt import EXIT_INTERRUPTED, interruptible
    args = None
    try:
        with interruptible(), closed_pipes_dropped():
            args = parser().parse_args(argv)
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
    except KeyboardInterrupt:  # everything is cleaned up by now (cardforge/interrupt.py)
        print(("\n" if sys.stderr.isatty() else "") + "interrupted", file=sys.stderr)
        gc.freeze()  # the collection at exit would walk every object of a loaded game: 0.4 s of a 1 s budget
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
