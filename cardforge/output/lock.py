"""One writer at a time per output folder: a lock file beside the folder, held with flock.

Two builds into the same folder (two terminals, `watch` and a manual build, a Makefile run
twice) would otherwise both stage and swap it; each result would be whole, but the second build
would also remove the first one's staging folder as stale.  So every writer of an output folder
holds `.<folder>.cardforge.lock` beside it for the whole of its work, and a second writer waits,
saying on stderr whom it waits for.  The lock file stays (removing a lock file is what makes
lock files race); it holds the pid and command of the last holder.

flock is released by the kernel when its holder dies, so a killed build never leaves a stuck
lock.  Processes forked while a lock is held (the build's worker pool) close their copy of it,
so a worker orphaned by a killed build does not keep the lock either.  Without fcntl (Windows)
there is no lock.
"""
from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

_held: set[int] = set()


def _forget_in_child() -> None:
    for fd in list(_held):
        try:
            os.close(fd)  # the parent's lock stays: its own descriptor is still open
        except OSError:
            pass
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def lock_path(folder: Path) -> Path:
    folder = Path(os.path.realpath(folder))
    return folder.with_name(f".{folder.name}.cardforge.lock")


class OutputLock:
    """`with OutputLock(folder, "tiny", "build"):` hold the folder's lock, waiting for it if need be."""

    def __init__(self, folder: Path, what: str, command: str = "build"):
        self.folder = Path(os.path.realpath(folder))
        self.path = lock_path(self.folder)
        self.what, self.command = what, command
        self.fd: int | None = None

    def __enter__(self) -> "OutputLock":
        if fcntl is None:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 200, 0).decode("utf-8", "replace").split()
                pid, command = (holder + ["?", "build"])[:2] if holder else ("unknown", "build")
                print(f"waiting for another cardforge {command} (pid {pid}) of {self.what} in {self.folder}",
                      file=sys.stderr, flush=True)
                fcntl.flock(fd, fcntl.LOCK_EX)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {self.command}\n".encode(), 0)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        _held.add(fd)
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            _held.discard(self.fd)
            os.close(self.fd)  # releases the lock
            self.fd = None


def lock_all(stack: ExitStack, folders: dict[Path, str], command: str = "build") -> None:
    """Take the locks of several folders (folder -> what is built there) in one fixed order, so
    that two builds of overlapping sets of games cannot wait for each other."""
    for folder in sorted(folders, key=lambda f: str(lock_path(f))):
        stack.enter_context(OutputLock(folder, folders[folder], command))


def enclosing_lock(folder: Path) -> Path:
    """The folder whose lock a writer of `folder` takes: the folder above it when that is an
    output folder with a lock of its own (`export png` into build/<game>/png), else `folder`."""
    folder = Path(os.path.realpath(folder))
    return folder.parent if lock_path(folder.parent).exists() else folder
