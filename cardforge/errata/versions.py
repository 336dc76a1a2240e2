"""Which two versions of a game to compare: folders on disk, or a game folder at a git revision.

A version is written one of three ways:
* `PATH`: a game folder as it is on disk now;
* `PATH@REV`: that game folder as git revision REV holds it (`content/bomber-boys@v1.2`);
* `REV`: the other version's game folder at revision REV (`cardforge diff HEAD~1 content/bomber-boys`).

A revision is taken out of git with `git archive` into a temporary folder, with the layouts
library beside it as the revision holds it too (`<repo>/layouts`, where cardforge looks for a
game's layouts), so a layout edit between two revisions is seen.  Nothing in the repository or
its work tree is touched.
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..frontend.model import GAME_FILE

GIT_TIMEOUT_S = 60
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024  # a game at a revision larger than this is refused


class VersionError(Exception):
    """A version that cannot be found: a usage error (exit 2)."""


@dataclass
class Version:
    label: str  # what the user wrote, for the changelog's heading
    folder: Path  # the game folder to load
    layouts: Path | None  # the layouts library that goes with it (None: cardforge's default guess)


def _is_game(path: Path) -> bool:
    return (path / GAME_FILE).is_file()


def _git(repo: Path, *args: str, binary: bool = False):
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, timeout=GIT_TIMEOUT_S,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except FileNotFoundError:
        raise VersionError("git is not installed, so a revision cannot be read; give two folders instead") from None
    except subprocess.TimeoutExpired:
        raise VersionError(f"git took longer than {GIT_TIMEOUT_S} s for: git {' '.join(args)}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise VersionError(message[-1] if message else f"git {' '.join(args)} failed")
    return done.stdout if binary else done.stdout.decode("utf-8", "replace").strip()


def _split(spec: str) -> tuple[str | None, str | None]:
    """(path, revision) of a version as written; either may be None."""
    if Path(spec).is_dir():
        return spec, None
    if "@" in spec:
        path, _, rev = spec.rpartition("@")
        if path and Path(path).is_dir() and rev:
            return path, rev
    return None, spec


def resolve_pair(old: str, new: str, workdir: Path, game: str | None = None) -> tuple[Version, Version]:
    """Both versions, with a bare revision taking its game folder from the other side, from
    `game` (--game), or from the current folder when that is a game."""
    (old_path, old_rev), (new_path, new_rev) = _split(old), _split(new)
    if old_path is None and new_path is None:
        if game is None and not _is_game(Path(".")):
            raise VersionError(f"'{old}' and '{new}' are neither folders nor GAME@REVISION; name the game "
                               f"with --game, e.g. `cardforge diff {old} {new} --game content/<game>`")
        old_path = new_path = game or "."
    old_path = old_path or new_path
    new_path = new_path or old_path
    return _version(old, old_path, old_rev, workdir / "old"), _version(new, new_path, new_rev, workdir / "new")


def _version(label: str, path: str, rev: str | None, scratch: Path) -> Version:
    folder = Path(path)
    if rev is None:
        if not _is_game(folder):
            raise VersionError(f"{folder} is not a game folder (it has no {GAME_FILE})")
        return Version(label, folder, None)
    return _at_revision(label, folder, rev, scratch)


def _at_revision(label: str, folder: Path, rev: str, scratch: Path) -> Version:
    repo = Path(_git(folder, "rev-parse", "--show-toplevel"))
    game_rel = folder.resolve().relative_to(repo.resolve()).as_posix()
    commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    layouts_rel = "layouts"
    wanted = [game_rel]
    if _git(repo, "ls-tree", "--name-only", commit, "--", layouts_rel):
        wanted.append(layouts_rel)
    if not _git(repo, "ls-tree", "--name-only", commit, "--", f"{game_rel}/{GAME_FILE}"):
        raise VersionError(f"revision '{rev}' has no game at {game_rel} (no {GAME_FILE} there)")
    archive = _git(repo, "archive", "--format=tar", commit, "--", *wanted, binary=True)
    if len(archive) > MAX_ARCHIVE_BYTES:
        raise VersionError(f"the game at revision '{rev}' is larger than {MAX_ARCHIVE_BYTES >> 20} MB")
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(scratch, filter="data")  # no member may leave the scratch folder
    # The game folder keeps its place relative to layouts/, so the default layouts guess finds them
    # when the game sits at content/<game>; otherwise the library is passed on explicitly.
    layouts = scratch / layouts_rel if (scratch / layouts_rel).is_dir() else None
    return Version(label, scratch / game_rel, layouts)


def scratch_folder() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="cardforge-diff-")
