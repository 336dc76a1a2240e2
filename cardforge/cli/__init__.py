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
import difflib
import gc
import sys

from .. import __version__
from . import (build, calibrate, check, diff, export, force, icons, import_sheet, new, render, rules, schema, serve,
               stats, translate, watch)
from .console import be_quiet, be_verbose, closed_pipes_dropped, machine_readable_stdout, usage_error
from .common import EXIT_CONTENT, EXIT_OK, EXIT_USAGE, UsageError

__all__ = ["main", "parser", "UsageError", "EXIT_OK", "EXIT_CONTENT", "EXIT_USAGE"]

# In the order `cardforge --help` lists them.
COMMANDS = (check, build, render, serve, watch, force, export, stats, diff, rules, translate, new, import_sheet, calibrate, schema,
            icons)


# Shown under each command's --help: what a designer types most, from a game's folder or beside it.
EXAMPLES = {
    "check": ["cardforge check                 # the game in this folder (or every game in content/)",
              "cardforge check mygame --lang de",
              "cardforge check --format sarif > cardforge.sarif"],
    "build": ["cardforge build                 # the game in this folder, A4 and Letter, into build/",
              "cardforge build mygame --paper a4 --only lantern",
              "cardforge build mygame --target printshop"],
    "render": ["cardforge render heavy-blow     # in the game's folder: heavy-blow-front.png",
               "cardforge render mygame heavy-blow --side back --zoom 2 --outline"],
    "serve": ["cardforge serve                 # every card in the browser, redrawn on each save"],
    "watch": ["cardforge watch mygame          # build again on each save"],
    "export": ["cardforge export png mygame", "cardforge export tts mygame --url-base https://example.org/cards/"],
    "stats": ["cardforge stats mygame --deck cards"],
    "diff": ["cardforge diff v1.0 HEAD --game mygame"],
    "new": ["cardforge new mygame --title \"My Game\""],
    "translate": ["cardforge translate status mygame", "cardforge translate update mygame de"],
    "force": ["cardforge force my-force.yaml --game content/war-eagles"],
    "import": ["cardforge import csv cards.csv --deck cards --game mygame"],
    "calibrate": ["cardforge calibrate --paper letter"],
    "rules": ["cardforge rules --coverage mygame"],
    "schema": ["cardforge schema mygame --out schemas/"],
    "icons": ["cardforge icons search plane", "cardforge icons show airplane", "cardforge icons export airplane --png"],
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardforge", description="Compile card games into print-and-play PDFs.",
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="examples:\n  cardforge new mygame && cd mygame\n  cardforge check\n"
                                       "  cardforge build\n  cardforge serve\n\n"
                                       "`cardforge COMMAND --help` tells more of each command.")
    p.add_argument("--version", action="version", version=f"cardforge {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add(sub)
    quiet = dict(action="store_true", help="print errors alone: no results, no warnings")
    verbose = dict(action="store_true", help="print the detail of each result: every file written, each kit's sheets")
    p.add_argument("-q", "--quiet", **quiet)
    p.add_argument("-v", "--verbose", **verbose)
    for command_parser in sub.choices.values():  # before or after the command, as ruff and cargo take it
        command_parser.add_argument("-q", "--quiet", default=argparse.SUPPRESS, **quiet)
        command_parser.add_argument("-v", "--verbose", default=argparse.SUPPRESS, **verbose)
    for name, lines in EXAMPLES.items():
        command_parser = sub.choices[name]
        command_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        command_parser.epilog = "examples:\n" + "\n".join(f"  {line}" for line in lines)
    return p


def _unknown_command(argv: list[str], p: argparse.ArgumentParser) -> str | None:
    """The first word when it names no command (with the nearest command, as git and cargo suggest)."""
    word = next((a for a in argv if not a.startswith("-")), None) if argv else None
    if word is None or argv[0].startswith("-"):
        return None
    names = list(next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices)
    if word in names:
        return None
    guess = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    return (f"'{word}' is not a cardforge command" + (f"; did you mean '{guess[0]}'?" if guess else "") +
            " (cardforge --help lists them)")


def main(argv: list[str] | None = None) -> int:
    from ..interrupt import EXIT_INTERRUPTED, interruptible
    args = None
    try:
        with interruptible(), closed_pipes_dropped():
            p = parser()
            words = sys.argv[1:] if argv is None else list(argv)
            unknown = _unknown_command(words, p)
            if unknown:
                raise UsageError(unknown)
            args = p.parse_args(words)
            be_quiet(args.quiet)
            be_verbose(args.verbose)
            machine_readable_stdout(getattr(args, "format", "text") not in (None, "text"))
            if args.command is None:  # bare `cardforge`: what it can do, not an error
                p.print_help()
                return EXIT_OK
            return args.func(args)
    except UsageError as exc:
        usage_error(str(exc))
        return EXIT_USAGE
    except OSError as exc:  # output that cannot be written: a full disk, a file where a folder should be
        target = exc.filename or getattr(args, "out", None)
        where = f" '{target}'" if target else ""
        usage_error(f"cannot write{where}: {exc.strerror or exc}; choose another --out, or make room on the disk "
                    "(the previous output is as it was)")
        return EXIT_USAGE
    except KeyboardInterrupt:  # everything is cleaned up by now (cardforge/interrupt.py)
        print(("\n" if sys.stderr.isatty() else "") + "interrupted", file=sys.stderr)
        gc.freeze()  # the collection at exit would walk every object of a loaded game: 0.4 s of a 1 s budget
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
