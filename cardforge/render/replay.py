"""Replaying a face drawn before.

Most faces of a kit are drawn more than once: a deck's back behind every card, copies of a card.
A face whose layout's templates all give the same values draws the same operators, so the
operators emitted the first time are written again, moved by a `cm` translation, instead of
laying out and drawing every frame again.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any


from ..frontend.model import Card
from ..units import mm
from .table import RenderError
from ..lazy import lazy_module

rl_accel = lazy_module("reportlab.lib.rl_accel")  # reportlab's number format, when a face is replayed

if TYPE_CHECKING:
    from ..layout.layouts import Layout
    from .face import Piece

REPLAY_LIMIT = 64  # drawn faces kept for replay: a deck's shared back, copies of a card
# Frame types whose drawing reads more than the frame's own templates (a track's per-space fill,
# a table's rows, a repeat's rows): faces with them are always drawn afresh.
NOT_REPLAYED = ("repeat", "track", "table")
# What a template may read and still give the same value on every face this renderer draws.
SHARED_NAMES = frozenset({"game", "tables", "boards", "tr"})


class FaceReplay:
    """The replay half of CardRenderer (render/face.py), which gives it canvas, game, painter,
    report, outline, _replayable, _value and _box."""

    def _replay_key(self, layout: Layout, piece: Piece, side: str, ctx: dict, bleed: float, shape: str):
        """What the face's drawing depends on, or None where it is not replayed: its layout, shape,
        bleed, deck (`fit: deck`) and the value of every template of its frames in this face."""
        if self.outline or self.painter.measuring:
            return None
        if isinstance(piece, Card) and side == "front" and self.game.version_mark.show == "always":
            return None  # the mark names the card
        replayable = self._replayable.get(id(layout))
        if replayable is None:
            replayable = self._replayable[id(layout)] = not any(
                frame.type in NOT_REPLAYED or "opacity" in frame.props for frame in layout.frames)
        if not replayable:
            return None
        values = []
        per_face = ctx.keys() - SHARED_NAMES  # a template that names none of these is the same on every face
        try:
            for frame in layout.frames:
                for name, template in frame.templates.items():
                    if not template.is_constant and not _words(template.source).isdisjoint(per_face):
                        values.append(self._value(frame, name, ctx))
            key = (id(layout), side, shape, bleed, getattr(getattr(piece, "deck", None), "id", None), tuple(values))
            hash(key)
        except (RenderError, TypeError):
            return None  # drawn afresh, which reports what is wrong
        return key

    def _accumulators(self) -> tuple:
        """The lengths of the canvas's page accumulators: a face is kept for replay only if its
        drawing added operators and placed forms, and nothing else a page collects (annotations,
        colour spaces), and reported nothing.  reportlab only ever appends to them."""
        c = self.canvas
        return (len(c._code), len(c._formsinuse), len(c._annotationrefs), len(c._colorsUsed), len(c._shadingUsed),
                len(self.report.items))

    def _replay(self, drawn: tuple, layout: Layout, x: float, y: float, bleed: float) -> list[dict[str, Any]]:
        x0, y0, code, forms, records = drawn
        c = self.canvas
        c._code.append(f"q 1 0 0 1 {rl_accel.fp_str(x - x0, y - y0)} cm")
        c._code.extend(code)
        c._code.append("Q")
        c._formsinuse.extend(forms)
        frames = {frame.name: frame for frame in layout.frames}
        moved = []
        for record in records:
            box = self._box(frames[record["name"]], layout, x, y, bleed)
            moved.append(dict(record, box=[round(mm(v), 2) for v in box]))
        return moved


@lru_cache(maxsize=4096)
def _words(source: str) -> frozenset[str]:
    """Every name-like word of a template's source: a superset of the names it reads from its context."""
    return frozenset(_WORD.findall(source))


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
