"""`cardforge force FORCE.yaml`: check a player's force list against the game's rules and print it
as a roster sheet (C6).

The force is checked by the same rules as the game's shipped forces (rules with `scope: force` and
`scope: pick`), with every other check of the game. Only a clean force is printed: the roster is the
game's `forces.roster` layout drawn as a one-page sheet that sees `board.force` (the force with its
picks resolved, each with `record`, `deck` and `total`), and read back like every other PDF. A failed
check writes nothing and leaves an earlier roster as it was."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from ..diagnostics import ContentError, Position, Report
from ..frontend.forces import force_view
from ..frontend.model import GAME_FILE, Board, size_points
from ..prepare import Prepared, prepare
from .build import build_paper, commit, replacing_folder
from .pages import PrintOptions
from .replace import refusal


class ForceUsageError(Exception):
    pass


def find_game(force_path: Path) -> Path:
    """The game folder a force file belongs to: the nearest folder above it holding game.yaml."""
    for folder in Path(force_path).resolve().parents:
        if (folder / GAME_FILE).is_file():
            return folder
    raise ForceUsageError(f"{force_path} is not inside a game folder; name the game with --game DIR")


def print_roster(force_path: Path, game_dir: Path | None, out_dir: Path | None, papers: list[str], report: Report,
                 layouts_dir: Path | None = None) -> list[Path]:
    force_path = Path(force_path)
    if not force_path.is_file():
        raise ForceUsageError(f"{force_path}: no such force file")
    game_dir = Path(game_dir) if game_dir is not None else find_game(force_path)
    if out_dir is None:  # beside the force file, unless that is among the game's sources
        out_dir = force_path.resolve().parent
        if Path(os.path.realpath(game_dir)) in out_dir.parents or out_dir == Path(os.path.realpath(game_dir)):
            out_dir = Path("build") / Path(os.path.realpath(game_dir)).name
    problem = refusal(Path(out_dir), game_dir)
    if problem:
        raise ForceUsageError(problem)
    try:
        prep = prepare(game_dir, report, layouts_dir, force_files=[force_path])
    except ContentError:
        return []
    game = prep.game
    if not game.forces:
        return []  # the force file itself was invalid: its errors are in the report
    force = game.forces[0]
    spec = game.data.get("forces", {}).get("roster")
    if spec is None:
        report.error("E-ROSTER", f"game '{game.id}' has no roster layout, so the force cannot be printed",
                     game.doc.pos("/forces") if "forces" in game.data else Position(game.doc.path, 1, 1),
                     help="add `forces: {files: [...], roster: {layout: NAME, size: {width: .., height: ..}}}` to game.yaml")
        return []
    width, height = size_points(spec["size"])
    board = Board(id=f"roster-{force.id}", name=f"Roster: {force.data.get('name') or force.id}", layout=spec["layout"],
                  width=width, height=height, data={"force": force_view(force)}, doc=force.doc, pointer="/force",
                  component="references")
    layout = prep.layouts.get(spec["layout"], width, height, game.doc.pos("/forces/roster/layout"))
    if layout is None or report.has_errors():
        return []
    sheet_game = dataclasses.replace(game, id=force.id, decks=[], boards=[board])
    sheet = Prepared(sheet_game, prep.layouts, prep.fonts, prep.icons, {}, {board.id: layout})
    staged: list[tuple[Path, Path]] = []
    # The roster goes into a folder of the user's (by default the force file's own): it is not
    # swapped as a whole, its files are renamed into it one by one, under the folder's lock.
    with replacing_folder(Path(out_dir), f"the roster of {force.id}", "force", swap=False) as replacement:
        for paper in papers:
            for tmp, final in build_paper(sheet, Path(out_dir), PrintOptions(paper, "simplex"), report, kit=False,
                                          stage_dir=replacement.stage):
                staged.append((tmp, final.with_name(final.name.replace("-references-", "-roster-")
                                                    .replace("-simplex", ""))))
            if report.has_errors():
                return []
        return commit(staged, replacement)
