"""What every command shares: exit codes, usage errors, the games named on the command line, the
output folder a build replaces, diagnostics on stderr (or JSON on stdout) and the progress bar.

Each command (one module each beside this one) imports the stages it needs when it runs."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from ..diagnostics import Report
from ..frontend.model import GAME_FILE
from ..units import MODES, PAPERS  # not from output/: `check` loads no PDF code

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2
LAYOUTS_HELP = "the layouts library (default: layouts/ beside content/)"
GAME_HELP = "the game folder (default: the current folder when it holds game.yaml, else the only game in content/)"
__all__ = ["EXIT_OK", "EXIT_CONTENT", "EXIT_USAGE", "LAYOUTS_HELP", "GAME_HELP", "MODES", "PAPERS", "GAME_FILE",
           "UsageError", "out_folder", "games", "one_game", "emit", "ProgressBar", "watched"]


class UsageError(Exception):
    """The command line asks for something impossible: printed as `cardforge: error: ...`, exit 2."""


def out_folder(out_root: Path, game: Path, folder: Path | None = None, whole: bool = False) -> Path:
    """The folder that output of `game` replaces (out_root/<game folder's name> by default),
    refused when that would destroy content (output/replace.py)."""
    from ..output.replace import refusal
    folder = folder if folder is not None else out_root / game.resolve().name
    problem = refusal(folder, game, whole)
    if problem:
        raise UsageError(problem)
    return folder


def games(paths: list[str]) -> list[Path]:
    """The game folders named, or every game under content/ when none is."""
    if paths:
        found = [Path(p) for p in paths]
        for game in found:
            if not (game / GAME_FILE).is_file():
                raise UsageError(f"{game} is not a game folder (it has no {GAME_FILE})")
        return found
    if Path(GAME_FILE).is_file():  # run from the game's own folder, as a designer does
        return [Path(".")]
    content = Path("content")
    found = sorted(p for p in content.glob("*") if (p / GAME_FILE).is_file()) if content.is_dir() else []
    if not found:
        raise UsageError(f"no game given: run this in a game's folder (the one with {GAME_FILE}), name the "
                         "folder (cardforge build mygame), or run it beside a content/ folder of games")
    return found


def one_game(args) -> Path:
    """The one game a command works on: its GAME_DIR, else the only game in content/."""
    found = games([args.game] if args.game else [])
    if len(found) != 1:
        raise UsageError("name one game folder: " + " ".join(str(g) for g in found))
    return found[0]


def emit(report: Report, fmt: str) -> None:
    """A run's diagnostics: text on stderr; json, github (workflow commands) and sarif on stdout,
    where CI reads them, and parseable when nothing is wrong (diagformats.py)."""
    if fmt == "json":
        print(report.format_json())
    elif fmt == "github":
        from ..diagformats import format_github
        if report.items:
            print(format_github(report))
    elif fmt == "sarif":
        from ..diagformats import format_sarif
        print(format_sarif(report))
    elif report.items:
        import cardforge.cli.console as console
        if console.quiet():  # -q: the errors alone, and their tally
            report = Report(items=list(report.errors))
        if report.items:
            console.diagnostics(report.format_text())


LANG_ONE_HELP = ("one language the game lists under 'languages:': its overlay from translations/LANG/ replaces "
                 "the fields it translates (default: the source language)")


def one_language(game: Path, lang: str | None) -> str | None:
    """The one language `--lang` names for a command that shows one (render, export, serve), or a
    usage error: 'all' and lists are for check and build."""
    if lang is None:
        return None
    from ..frontend.translations import chosen_languages
    if lang == "all" or "," in lang:
        raise UsageError(f"--lang {lang}: this command shows one language at a time; name one, as in --lang de")
    chosen = chosen_languages(game, lang)
    if isinstance(chosen, str):
        raise UsageError(chosen)
    return chosen[0]


def prepared(game: Path, layouts: Path | None, report: Report, lang: str | None = None):
    """The game through the front end (in `lang`, one of its languages), or None after printing
    its diagnostics (the command then exits with EXIT_CONTENT)."""
    from ..diagnostics import ContentError
    from ..prepare import prepare
    try:
        return prepare(game, report, layouts, lang=lang)
    except ContentError:
        emit(report, "text")
        return None


def watched(game: Path, layouts: Path | None) -> list[Path]:
    """The folders whose changes `serve` and `watch` follow: the game, its layouts and the fonts."""
    from .. import resources
    from ..prepare import layout_roots
    roots = layout_roots(game, game.resolve().name, layouts)
    return [game] + [r for r in roots[1:] if r.is_dir()] + [resources.path("fonts")]


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
