"""Write an export folder as a whole: into a staging folder beside it, swapped into place at the end.

A failed export (content errors, a full disk) leaves the previous folder as it was, and so does a
killed one: the swap is atomic (output/replace.py), and the staging folder a killed export leaves
is removed by the next one.  The export holds the lock of the game's build folder when it writes
into one (build/<game>/png), so it never interleaves with a build of that game (output/lock.py)."""
from __future__ import annotations

from pathlib import Path

from ..output.lock import OutputLock, enclosing_lock
from ..output.replace import Replacement


class Staging:
    """`with Staging(target) as tmp:` write into `tmp`; on success it replaces `target`."""

    def __init__(self, target: Path, command: str = "export"):
        self.target = Path(target)
        self.lock = OutputLock(enclosing_lock(self.target), self.target.name, command)
        self.replacement = Replacement(self.target, keep=False)

    def __enter__(self) -> Path:
        self.lock.__enter__()
        try:
            return self.replacement.open()
        except BaseException:
            self.lock.__exit__(None, None, None)
            raise

    def __exit__(self, kind, value, traceback) -> None:
        try:
            if kind is None:
                self.replacement.commit()
        finally:
            self.replacement.discard()
            self.lock.__exit__(None, None, None)
