"""Replacing output so that a killed cardforge never leaves a mix of old and new files.

A build writes many files into one folder (per paper a kit PDF, one PDF per component, and a
manifest beside each).  Renaming them over the old ones one by one is not enough: a SIGKILL between
two renames leaves a new kit beside an old manifest.  So the *whole folder* is replaced at once:

1. `Replacement(folder).open()` makes an empty staging folder beside it,
   `.<folder>.cardforge-stage-<pid>`, and the build writes its new files there;
2. `commit(names)` hard-links every other entry of the current folder into the staging folder
   (files this build does not rewrite, such as the other paper's PDFs or `export png` pictures,
   stay the same inodes: no copy, no change), then swaps the two folders in one system call,
   renameat2(RENAME_EXCHANGE); that swap is the commit point;
3. the old folder, now under the staging name, is removed; anything that appeared in it while
   the build ran (a file a user saved into the output folder) is moved into the new folder first.

A kill before the swap leaves the previous folder untouched; after it, the complete new one.  The
staging folder a killed build leaves is removed by the next writer of that folder, under the
folder's lock (see lock.py): only entries named `.<folder>.cardforge-stage-<pid>` beside it,
never anything else; and the `*.pdf.tmp` files that builds before this design left inside a
game's output folder are not carried into the new one.  Where the swap is not available (not Linux, or a file system without
RENAME_EXCHANGE or hard links), the new files are renamed into place one by one: each file is
still whole, but a kill during those renames can leave some files new and others old.

This protects against killed processes; against a power cut it would also need fsync, which a
print-and-play build (rebuilt in seconds) does not pay for.
"""
from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

STAGED = re.compile(r"^\.(?P<name>.+)\.cardforge-stage-(?P<pid>\d+)$")
# What builds of cardforge before the staging folder left in a game's output folder when killed:
# `<game>-<part>-<paper><suffix>.pdf.tmp` (and `.manifest.json.tmp`) and the manifest's spool files.
LEGACY = re.compile(r"^(.+-(a4|letter)(-[a-z]+)*\.(pdf|manifest\.json)\.tmp"
                    r"|\.manifest-(cards|tokens|boards|references|templates)-[A-Za-z0-9_]{8}\.tmp)$")
KILL_POINTS = ("staged", "linked", "swapped")


def stage_path(target: Path) -> Path:
    """The staging entry of `target` for this process: beside it, named after it and the pid."""
    return target.with_name(f".{target.name}.cardforge-stage-{os.getpid()}")


def test_kill(point: str) -> None:
    """Test-only fault injection: with CARDFORGE_TEST_KILL_AT=<point> the process kills itself with
    SIGKILL there (tests/test_crash_safety.py uses it to kill a build inside its commit)."""
    if os.environ.get("CARDFORGE_TEST_KILL_AT") == point:
        os.kill(os.getpid(), signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale(target: Path, locked: bool = True) -> list[Path]:
    """Remove the staging entries of `target` left by killed cardforge processes.  Under the
    target's lock every one but this process's own is stale; without it, only those whose process
    is gone.  Returns what was removed."""
    removed = []
    parent = target.parent
    if not parent.is_dir():
        return removed
    for entry in os.scandir(parent):
        match = STAGED.match(entry.name)
        if not match or match["name"] != target.name:
            continue
        pid = int(match["pid"])
        if pid != os.getpid() and not locked and _alive(pid):
            continue
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        removed.append(path)
    return removed


# -- the atomic swap -----------------------------------------------------------------------------

_AT_FDCWD, _RENAME_EXCHANGE = -100, 2
_SYSCALL_RENAMEAT2 = {"x86_64": 316, "aarch64": 276, "armv7l": 382, "i686": 353, "ppc64le": 357, "s390x": 347}


def _renameat2():
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    if hasattr(libc, "renameat2"):  # glibc 2.28 and later
        fn = libc.renameat2
        fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        return fn
    number = _SYSCALL_RENAMEAT2.get(os.uname().machine)
    if number is None:
        return None
    return lambda *args: libc.syscall(ctypes.c_long(number), *args)


def exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths atomically (Linux renameat2 with RENAME_EXCHANGE).  False when the
    system or the file system cannot; any other failure is raised."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EPERM, errno.EBUSY):
        return False
    raise OSError(err, os.strerror(err), str(a), None, str(b))


def _link_tree(src: Path, dst: Path) -> None:
    """Hard-link every entry of `src` that `dst` lacks into `dst` (folders recreated, symbolic
    links copied as links).  Staging entries and other special files are left out."""
    for entry in os.scandir(src):
        target = dst / entry.name
        if STAGED.match(entry.name) or LEGACY.match(entry.name) or os.path.lexists(target):
            continue  # a killed build's leftovers are not carried into the new folder
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir():
            target.mkdir()
            _link_tree(Path(entry.path), target)
            shutil.copystat(entry.path, target)
        elif entry.is_file():
            os.link(entry.path, target, follow_symlinks=False)


class Replacement:
    """The next content of folder `target`, staged beside it (see the module's docstring).

    With `keep`, entries of the current folder that the new content does not have stay (a build
    rewrites some files of its game's folder); without, the folder is replaced as a whole (an
    export).  Without `swap` the new files are always renamed one by one: for a folder that is
    the user's own, such as the one a force roster is printed into."""

    def __init__(self, target: Path, keep: bool = True, swap: bool = True):
        self.given = Path(target)
        self.target = Path(os.path.realpath(target))
        self.keep, self.swap = keep, swap
        self.stage = stage_path(self.target)
        self.committed = False

    def relative(self, final: Path) -> Path:
        """Where a final path of the target lies inside it (and so inside the staging folder)."""
        try:
            return Path(final).relative_to(self.given)
        except ValueError:
            return Path(os.path.realpath(final)).relative_to(self.target)

    def open(self) -> Path:
        """Create the staging folder (removing what killed builds left).  Call it under the lock."""
        self.target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(self.target)
        self.stage.mkdir()
        if self.target.is_dir():
            shutil.copystat(self.target, self.stage)
        else:
            umask = os.umask(0)
            os.umask(umask)
            self.stage.chmod(0o777 & ~umask)
        return self.stage

    def commit(self, names: list[str] | None = None) -> None:
        """Make the staged folder the target's content.  `names`: the staged entries that are new
        output (only these are renamed if the folder cannot be swapped); by default all of them."""
        names = sorted(os.listdir(self.stage)) if names is None else names
        test_kill("staged")
        if not os.path.lexists(self.target):
            os.rename(self.stage, self.target)
            self.committed = True
            return
        if not self.swap:
            self._rename_each(names)
            return
        try:
            if self.keep:
                _link_tree(self.target, self.stage)
            test_kill("linked")
            swapped = exchange(self.stage, self.target)
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EMLINK, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
            swapped = False  # no hard links here: rename file by file below
        if not swapped:
            self._rename_each(names)
            return
        self.committed = True
        test_kill("swapped")
        old = self.stage  # now the previous content
        if self.keep:  # what appeared in the old folder while this build ran is not lost
            for entry in os.scandir(old):
                if not STAGED.match(entry.name) and not LEGACY.match(entry.name) \
                        and not os.path.lexists(self.target / entry.name):
                    os.rename(entry.path, self.target / entry.name)
        shutil.rmtree(old, ignore_errors=True)

    def _rename_each(self, names: list[str]) -> None:
        """The fallback: each new entry renamed over the old one; the rest of the stage removed.
        Without `keep`, the old folder is renamed aside and the new one into its place."""
        if not self.keep and self.swap:
            aside = stage_path(self.stage)
            os.rename(self.target, aside)
            os.rename(self.stage, self.target)
            self.committed = True
            shutil.rmtree(aside, ignore_errors=True)
            return
        self.target.mkdir(exist_ok=True)
        for name in names:
            source, final = self.stage / name, self.target / name
            if os.path.isdir(final) and not os.path.islink(final):
                aside = stage_path(final)
                os.rename(final, aside)
                os.rename(source, final)
                shutil.rmtree(aside, ignore_errors=True)
            else:
                os.replace(source, final)
        self.committed = True
        shutil.rmtree(self.stage, ignore_errors=True)

    def discard(self) -> None:
        """Remove the staging folder of a build that failed (or of the old content after a swap)."""
        shutil.rmtree(self.stage, ignore_errors=True)


@contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """`with replacing(path) as tmp:` write `tmp`; it replaces `path` in one rename when the block
    succeeds, and is removed when it fails.  For single files (calibration sheet, statistics)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(target, locked=False)
    tmp = stage_path(target)
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        if os.path.lexists(tmp):
            tmp.unlink()


def refusal(folder: Path, game: Path, whole: bool = False) -> str | None:
    """Why output of `game` must not replace `folder`, or None.  It must not be the game folder nor
    hold it; and a folder replaced as a whole (an export) must hold nothing but what an export
    writes, pictures and JSON: `--out ~/Documents` would otherwise delete the documents."""
    real, source = Path(os.path.realpath(folder)), Path(os.path.realpath(game))
    if real == source or real in source.parents:
        return f"the output folder {folder} is the game folder {game} or holds it; choose another --out"
    if source in real.parents and not (real == source / "build" or source / "build" in real.parents):
        return (f"the output folder {folder} lies inside the game folder {game}: the output would be written "
                "among its sources; choose a folder outside it (or the game's own build/)")
    if whole and real.is_dir():
        for parent, dirs, files in os.walk(real):
            for name in files + [d for d in dirs if os.path.islink(os.path.join(parent, d))]:
                path = Path(parent) / name
                if path.is_symlink() or path.suffix.lower() not in (".png", ".json"):
                    return (f"{folder} holds {path.relative_to(real)}, which no export wrote; an export replaces "
                            "its folder as a whole, so give --out a new or empty folder (or the export's own)")
    return None
