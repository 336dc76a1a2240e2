"""A face's fingerprint: a digest of what is drawn, not of the sources it is drawn from.

Two versions of a game are compared face by face (`cardforge diff`, errata): a layout edit that
moves a frame, recolours a band or changes a font alters the drawing of every face it touches,
and an edit of a frame that a face does not show leaves that face's drawing as it was.

Each face is drawn alone on a fresh canvas, with its trim box at the origin, and the digest is
taken over the page's drawing operators.  Drawn alone, a face's operators depend on nothing
else: not its place on the sheet, and not the order in which other faces first used a font's
glyphs (a font subset numbers glyphs in order of first use within one document).
"""
from __future__ import annotations

import hashlib
import json
import io
from pathlib import Path
from typing import Any

from ..diagnostics import Report
from .face import CardRenderer

DIGEST_CHARS = 16  # hex digits kept: 64 bits tell faces apart in any printed game


class FaceFingerprints:
    """Digests of drawn faces of one prepared game; fonts and icons are loaded once for all."""

    def __init__(self, prep, report: Report | None = None):
        self.prep = prep
        self.report = report if report is not None else Report()
        self._icons: dict = {}  # icon file -> digest of its bytes

    def digest(self, layout, piece: Any, side: str, bleed: float, shape: str = "rect", copy: int = 1) -> str:
        from reportlab.pdfgen.canvas import Canvas  # the PDF writer: `check` imports this module, never this
        self.prep.fonts.family("sans").face("regular")
        canvas = Canvas(io.BytesIO(), invariant=1, pageCompression=0, initialFontName="sans-regular")
        canvas.setPageSize((layout.width + 2 * bleed, layout.height + 2 * bleed))
        renderer = CardRenderer(canvas, self.prep.game, self.prep.fonts, self.prep.icons, self.report)
        renderer.draw(layout, piece, side, copy, bleed, bleed, bleed, shape)
        # The page's operators as reportlab holds them before the page is written out.
        operators = "\n".join(canvas._code)  # noqa: SLF001 - the one place that reads the page's code
        hasher = hashlib.sha256(operators.encode("utf-8", "surrogatepass"))
        hasher.update(repr((layout.width, layout.height, bleed, shape)).encode())
        # Icons are forms named in order of first use (icon0, icon1, ...): what each one is counts too.
        for (name, color), (form, *_size) in sorted(renderer.painter.forms.items(), key=lambda item: item[1][0]):
            hasher.update(f"{form}={name}:{color}:{self._icon_digest(name)}".encode())
        return hasher.hexdigest()[:DIGEST_CHARS]

    def _icon_digest(self, name: str) -> str:
        path = self.prep.icons.sources.get(name)
        if path is None:
            return ""
        if path not in self._icons:
            try:  # a file of the game or library, or a built-in icon's SVG text
                data = path.encode("utf-8") if isinstance(path, str) else Path(path).read_bytes()
                self._icons[path] = hashlib.sha256(data).hexdigest()
            except OSError:
                self._icons[path] = "unreadable"
        return self._icons[path]

    def card(self, card, side: str) -> str | None:
        """The digest of a card's (or token's) side, or None when that side has no layout."""
        layout = self.prep.faces.get((card.id, side))
        if layout is None:
            return None
        return self.digest(layout, card, side, card.deck.bleed, card.deck.shape)

    def board(self, board) -> str | None:
        layout = self.prep.boards.get(board.id)
        if layout is None:
            return None
        return self.digest(layout, board, "front", self.prep.game.bleed)


_layout_digests: dict[tuple, str] = {}


def _layout_digest(layout) -> str:
    """The layout's own files (frames, colours, fonts as written), read once per process."""
    key = (layout.name, tuple(str(p) for p in getattr(layout, "files", ()) or ()))
    if key not in _layout_digests:
        hasher = hashlib.sha256(layout.name.encode())
        for path in key[1]:
            try:
                with open(path, "rb") as handle:
                    hasher.update(handle.read())
            except OSError:
                hasher.update(b"unreadable")
        _layout_digests[key] = hasher.hexdigest()
    return _layout_digests[key]


_PRINTED_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str).encode  # made once, not per face


def recorded_digest(layout, frames: list[dict], trim_mm: tuple[float, float], memo: dict | None = None) -> str:
    """A face's digest as a build's manifest records it, without drawing it again: its layout's
    files and what each frame printed (text, icons, boxes relative to the trim), so two builds can
    be compared without their sources.  Finer than the sources (a frame a face does not show does
    not count) and cheaper than `FaceFingerprints`, which `cardforge diff` uses with sources.
    `memo` holds the digests of one drawn face (render/replay.py Kept) by where its boxes fall
    relative to the trim: everything else it prints is the same wherever it is placed."""
    x0, y0 = trim_mm
    boxes = tuple((round(box[0] - x0, 2), round(box[1] - y0, 2), box[2], box[3]) if (box := frame.get("box")) else None
                  for frame in frames)
    key = (boxes, tuple(tuple(map(tuple, frame["cells"])) for frame in frames if "cells" in frame))
    if memo is not None and key in memo:
        return memo[key]
    # Each frame as recorded, its box relative to the trim (the keys are sorted when written).
    printed = [dict(frame, box=list(box)) if box else {k: v for k, v in frame.items() if k != "box"}
               for frame, box in zip(frames, boxes)]
    hasher = hashlib.sha256(_layout_digest(layout).encode())
    hasher.update(_PRINTED_JSON(printed).encode("utf-8", "surrogatepass"))
    digest = hasher.hexdigest()[:DIGEST_CHARS]
    if memo is not None:
        memo[key] = digest
    return digest
