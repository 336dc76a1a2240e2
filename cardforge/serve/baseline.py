"""`cardforge serve GAME --since OLD`: the preview shows each changed piece beside its old picture.

The old version (a folder, GAME@REVISION or a bare revision, as `cardforge diff` takes it) is a
Session of its own, refreshed once: its pictures are the "before" ones.  After each refresh of the
game, a piece is *new* when the old version has no piece of its key, and *changed* when its source
fingerprint differs from the old one and its drawing does too (render/fingerprint.py: a layout
edit that touches a frame the face does not show leaves it unchanged).  Drawn digests are kept
per (key, fingerprint), so an unchanged piece costs nothing on the next save.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from ..diagnostics import ContentError, Report
from ..errata.versions import resolve_pair
from ..prepare import Prepared, prepare
from ..render.fingerprint import FaceFingerprints
from .session import Session


class BaselineError(Exception):
    """The old version cannot be shown (it is missing, or its content has errors)."""


class Baseline:
    def __init__(self, old: str, game_dir: Path, layouts_dir: Path | None = None, dpi: float | None = None):
        self.label = old
        self._scratch = tempfile.TemporaryDirectory(prefix="cardforge-since-")  # kept while serving
        version, _ = resolve_pair(old, str(game_dir), Path(self._scratch.name))
        self.session = Session(version.folder, version.layouts or layouts_dir, **({"dpi": dpi} if dpi else {}))
        self.session.refresh()
        if self.session.prep is None or self.session.stale:
            problems = [d["text"] for d in self.session.diagnostics if d["severity"] == "error"][:3]
            self.close()
            raise BaselineError(f"the old version '{old}' has errors, so it cannot be shown:\n" + "\n".join(problems))
        self.old_prints = FaceFingerprints(self.session.prep)
        self._drawn: dict[tuple[str, str, str], str | None] = {}  # (which, key, fingerprint) -> digest

    def close(self) -> None:
        self._scratch.cleanup()

    def image(self, key: str, view: str | None = None) -> bytes | None:
        return self.session.image(key, view)

    def _digest(self, which: str, prints: FaceFingerprints, prep: Prepared, key: str, fingerprint: str) -> str | None:
        memo = (which, key, fingerprint)
        if memo not in self._drawn:
            kind, ident, *side = key.split("/")
            if kind == "card":
                piece = next((c for c in prep.game.cards() if c.id == ident), None)
                self._drawn[memo] = prints.card(piece, side[0]) if piece is not None else None
            else:
                board = next((b for b in prep.game.boards if b.id == ident), None)
                self._drawn[memo] = prints.board(board) if board is not None else None
        return self._drawn[memo]

    def mark(self, views: dict, prep: Prepared) -> None:
        """Set each view's `since`: "new", "changed" or None."""
        old = self.session.pieces
        new_prints = FaceFingerprints(prep)
        for key, view in views.items():
            before = old.get(key)
            if before is None:
                view.since = "new"
            elif before.fingerprint == view.fingerprint:
                view.since = None
            else:
                a = self._digest("old", self.old_prints, self.session.prep, key, before.fingerprint)
                b = self._digest("new", new_prints, prep, key, view.fingerprint)
                view.since = "changed" if a != b else None

    def removed(self, views: dict) -> list[str]:
        return sorted(set(self.session.pieces) - set(views))
