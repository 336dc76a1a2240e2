"""Write an export folder as a whole: into a temporary sibling, renamed into place at the end.

A failed export (content errors, a full disk) leaves the previous folder as it was."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


class Staging:
    """`with Staging(target) as tmp:` write into `tmp`; on success it replaces `target`."""

    def __init__(self, target: Path):
        self.target = Path(target)
        self.tmp: Path | None = None

    def __enter__(self) -> Path:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.target.name}.", dir=self.target.parent))
        umask = os.umask(0)
        os.umask(umask)
        self.tmp.chmod(0o777 & ~umask)  # mkdtemp makes it private; the export is an ordinary folder
        return self.tmp

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            return
        old = None
        if self.target.exists():
            old = self.target.with_name(f".{self.target.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(self.target, old)
        os.replace(self.tmp, self.target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
