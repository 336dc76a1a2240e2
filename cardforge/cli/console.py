"""The terminal that cardforge's commands write to.

A reader who pipes a build into `head -3` has seen what they wanted once the pipe closes: the build
goes on to its end (a half-written kit is worse than a quiet one), and what it would still have
printed is dropped, with no "cannot write" about a pipe that was closed on purpose.
"""
from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from typing import TextIO


class _ClosedPipeSafe:
    """A text stream whose writes stop, silently, once its reader has gone away."""

    def __init__(self, stream: TextIO):
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._reader_left()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_left()

    def _reader_left(self) -> None:
        self.gone = True
        try:  # what is still buffered goes nowhere, and so does the flush at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def closed_pipes_dropped():
    """While a command runs, stdout and stderr drop output once their reader closes the pipe."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = (s if s is None or isinstance(s, _ClosedPipeSafe) else _ClosedPipeSafe(s)
                              for s in saved)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, _ClosedPipeSafe):
                stream.flush()
        sys.stdout, sys.stderr = saved


# Results (what the command made or found) go to stdout, where `| head` and `> file` take them;
# diagnostics, progress and failures go to stderr, as ruff and rustc do. With --format json, github
# or sarif, stdout holds the machine-readable report alone, so the results move to stderr.
_results_to_stderr = False
_quiet = False  # -q: errors alone; no results, no warnings, no notes
_verbose = False  # -v: the detail of each result (every file written, each kit's sheets)


def be_quiet(on: bool) -> None:
    global _quiet
    _quiet = on


def quiet() -> bool:
    return _quiet


def be_verbose(on: bool) -> None:
    global _verbose
    _verbose = on


def verbose() -> bool:
    return _verbose and not _quiet


def machine_readable_stdout(on: bool) -> None:
    """Keep stdout for a machine-readable report: results then go to stderr with the diagnostics."""
    global _results_to_stderr
    _results_to_stderr = on


def result(text: str = "") -> None:
    """A result line: what was written, found or listed (none with -q)."""
    if _quiet:
        return
    print(text, file=sys.stderr if _results_to_stderr else sys.stdout)


def diagnostic(text: str) -> None:
    """A line for the person watching: a hint, a note; never part of the results (none with -q)."""
    if _quiet:
        return
    print(text, file=sys.stderr)


# Colour, as rustc and ruff use it: the severity word bold in its colour, the location bold. Only on
# a terminal; never in a pipe or a file, nor with NO_COLOR set to anything (no-color.org); FORCE_COLOR
# set to anything but 0 colours a pipe too (for CI logs that render it). NO_COLOR wins over both.
_STYLES = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "help": "\x1b[1;36m", "note": "\x1b[1;36m",
           "bold": "\x1b[1m"}
_RESET = "\x1b[0m"
_HEADLINE = re.compile(r"^(?P<where>\S.*?:\d+(?::\d+)?): (?P<severity>error|warning)(?P<rest>\[[^\]]+\]: |: )")
_HELP = re.compile(r"^(?P<indent>\s*(?:= )?)(?P<word>help|note):")
_TALLY = re.compile(r"^(?P<errors>\d+ errors?), (?P<warnings>\d+ warnings?)$")


def colour_wanted(stream: TextIO) -> bool:
    """Whether text written to this stream should carry colour."""
    if os.environ.get("NO_COLOR"):
        return False
    forced = os.environ.get("FORCE_COLOR")
    if forced:
        return forced != "0"
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):
        return False


def _paint(text: str, style: str) -> str:
    return f"{_STYLES[style]}{text}{_RESET}"


def coloured_diagnostics(text: str) -> str:
    """Diagnostic text with its headlines, help lines and tally coloured (the words stay the same)."""
    lines = []
    for line in text.split("\n"):
        if match := _HEADLINE.match(line):
            rest = match["rest"]
            line = (_paint(match["where"], "bold") + ": " + _paint(match["severity"] + rest.rstrip(": "),
                                                                   match["severity"])
                    + ": " + line[match.end():])
        elif match := _HELP.match(line):
            line = match["indent"] + _paint(match["word"], match["word"]) + ":" + line[match.end():]
        elif match := _TALLY.match(line):
            errors, warnings = match["errors"], match["warnings"]
            line = (_paint(errors, "error") if not errors.startswith("0 ") else errors) + ", " + \
                (_paint(warnings, "warning") if not warnings.startswith("0 ") else warnings)
        lines.append(line)
    return "\n".join(lines)


def usage_error(message: str) -> None:
    """`cardforge: error: ...` on stderr, for a command line cardforge cannot run (exit 2): the word
    error in its colour, as a diagnostic's, when stderr wants colour."""
    word = _paint("error", "error") if colour_wanted(sys.stderr) else "error"
    print(f"cardforge: {word}: {message}", file=sys.stderr)


def diagnostics(text: str) -> None:
    """A report's diagnostics on stderr, coloured when stderr is a terminal that wants colour."""
    print(coloured_diagnostics(text) if colour_wanted(sys.stderr) else text, file=sys.stderr)
