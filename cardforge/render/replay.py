"""Placing again a face drawn before.

Most faces of a kit are drawn more than once: a deck's back behind every card, copies of a card,
every face again for the other paper, and all of them again in the next build.  A face is drawn at
its own origin and moved into place by one `cm`, its text and icons are written for the document
when it is placed (layout/facecode.py), and its records keep their boxes at the origin until
placed.  So what a face's first drawing wrote can be placed anywhere, in any document, and writes
the very bytes a fresh drawing there would: the output never depends on what was kept.

A face is looked up by its piece's whole record first (render/facecache.py FaceMemo.key), which
needs no template rendered.  Where its layout's templates give the same values on many pieces (a
deck's back on every card), the face is kept once, under those values with the game, its fonts and
icons (FaceMemo.drawing_key), and the record's key names that key.  Kept faces live in memory for
the document, and in the disk cache for the other paper and the next build.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..frontend.model import Card
from ..layout.facecode import ICON, STATE, TEXT, pdf_feature, resolve
from ..layout.fonts import FontError
from ..layout.layouts import names_copy
from ..layout.repeat import walk_frames
from .facecache import face_memo
from .piece import Piece
from ..units import MM
from .table import RenderError
from ..lazy import lazy_module

rl_accel = lazy_module("reportlab.lib.rl_accel")  # reportlab's number format, when a face is placed again

if TYPE_CHECKING:
    from ..layout.layouts import Layout

KEPT_KEYS_LIMIT = 4096  # faces' keys for other documents remembered per document (a digest each)
_UNKNOWN = object()
REPLAY_LIMIT = 64  # faces kept in memory per document: a deck's shared back, copies of a card
KEPT = "face-draw"  # the faces kept in the disk cache, for the other paper and the next build
# Characters of operators (and keys) one document keeps there: the five games' largest keeps 0.6
# million; a 10,000-card build keeps its first thousand faces or so, and stays well within its memory.
KEEP_BUDGET = 1_000_000
# Frame types whose drawing reads more than the frame's own templates (a track's per-space fill,
# a table's rows, a repeat's rows): their faces are keyed by the piece's whole record.
NOT_REPLAYED = ("repeat", "track", "table")
# What a template may read and still give the same value on every face this renderer draws.
SHARED_NAMES = frozenset({"game", "tables", "boards", "tr"})


@dataclass
class Kept:
    """A face as its drawing wrote it: its operators between its `cm` and its closing Q, split at
    their marks (layout/facecode.py face_pieces); forms it placed directly (pictures, which are not
    marked); its records, with boxes at its origin (CardRenderer._placed); the PDF features it
    asked for.  Once placed in this document, what the marks were written as: the codes and form
    names stay the same for the rest of the document, but reportlab names graphics states per page
    (and per form), so `states` holds the names the written operators give them, and a page that
    names them otherwise (or not at all) has the face written again (FaceReplay._replay)."""
    pieces: list[str]
    marks: list
    forms: list[str]
    records: list[dict]
    versions: list[str]  # the PDF features its drawing asked the document for (layout/facecode.py)
    written: str | None = None
    icon_forms: list[str] = field(default_factory=list)
    digests: dict = field(default_factory=dict)  # its manifest digests (render/fingerprint.py recorded_digest)
    states: tuple = ()  # ((key, value), name) of each graphics state `written` sets (written_states)


class FaceReplay:
    """The replay half of CardRenderer (render/face.py), which gives it canvas, game, fonts, icons,
    painter, report, outline, _replays, _kept_keys, _replayable, _copy_blind, _frame_names, _value, _placed, _memo
    and _kept_chars."""

    def _replay_key(self, layout: Layout, piece: Piece, side: str, ctx: dict, bleed: float, shape: str):
        """What the face's drawing depends on in this document, or None where it is not replayed by
        its values: its layout, shape, bleed, deck (`fit: deck`) and the value of every template of
        its frames in this face."""
        if self.outline:
            return None
        if isinstance(piece, Card) and side == "front" and self.game.version_mark.show == "always":
            return None  # the mark names the card
        if not self._replayable_layout(layout):
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

    def _replayable_layout(self, layout: Layout) -> bool:
        """Whether the layout's faces are keyed by the values of their templates (see NOT_REPLAYED)."""
        replayable = self._replayable.get(id(layout))
        if replayable is None:
            replayable = self._replayable[id(layout)] = not any(
                frame.type in NOT_REPLAYED or "opacity" in frame.props for frame in layout.frames)
        return replayable

    def _copy_of(self, layout: Layout, piece: Piece, copy: int) -> int | None:
        """The copy, where the face can tell its copies apart (a template or property that mentions
        `copy`, a numbered series); None where every copy is drawn the same."""
        if id(layout) not in self._copy_blind:
            self._copy_blind[id(layout)] = (layout, not any(
                frame.type in NOT_REPLAYED or names_copy(frame) for frame in layout.frames))
        blind = self._copy_blind[id(layout)][1] and not (hasattr(piece, "copy_context") and piece.copy_context(copy))
        return None if blind else copy

    def _look_up(self, layout: Layout, piece: Piece, side: str, copy: int, ctx: dict, bleed: float,
                 shape: str) -> tuple[Any, str | None, Kept | None]:
        """The face's key in this document and its key for others (None: not kept), and the face as
        drawn before (None: it is drawn now).  A face is looked up first by its piece's whole record,
        without rendering a template; a face whose templates give the same values on many pieces (a
        deck's back) is kept once, under those values, which the record's key then names."""
        if self.outline:
            return None, None, None
        if self._memo is None:
            self._memo = face_memo(self.game, self.fonts, self.icons)
        memo = self._memo
        # The record's key costs a digest of the whole record: a build that finds no face stored
        # (the first, or the first after an upgrade) asks it only of faces not keyed by values.
        replayable = self._replayable_layout(layout)
        piece_key = self._record_key(layout, piece, side, copy, bleed, shape) \
            if memo.stored(KEPT) or not replayable else None
        if piece_key is not None:
            entry = memo.get(KEPT, piece_key)
            local = entry if type(entry) is str else piece_key  # in this document, a face with a picture too
            kept = self._kept(local, local if entry is not None else None, layout)
            if kept is not None:
                return local, local, kept
        key = self._replay_key(layout, piece, side, ctx, bleed, shape) if replayable else None
        if key is None:
            if piece_key is None and replayable:  # a version mark, or a template that failed
                piece_key = self._record_key(layout, piece, side, copy, bleed, shape)
                return piece_key, piece_key, self._kept(piece_key, piece_key, layout) if piece_key else None
            return piece_key, piece_key, None
        kept_key = self._kept_keys.get(key, _UNKNOWN)  # a deck's back: asked once per document, not per card
        if kept_key is _UNKNOWN:
            if len(self._kept_keys) >= KEPT_KEYS_LIMIT:
                self._kept_keys.clear()
            kept_key = self._kept_keys[key] = memo.drawing_key(layout, piece, side, shape, bleed, key[4], key[5])
        if kept_key is not None and piece_key is not None and self._kept_chars < KEEP_BUDGET:
            self._kept_chars += len(piece_key) + len(kept_key)
            memo.put(KEPT, piece_key, kept_key)  # the record's key names the values' key
        local = kept_key if kept_key is not None else key
        return local, kept_key, self._kept(local, kept_key, layout)

    def _record_key(self, layout: Layout, piece: Piece, side: str, copy: int, bleed: float, shape: str) -> str | None:
        """The face's key by its piece's whole record (render/facecache.py FaceMemo.key)."""
        return self._memo.key(KEPT, layout, piece, side, self._copy_of(layout, piece, copy), shape, bleed)

    def _kept(self, key: Any, kept_key: str | None, layout: Layout) -> Kept | None:
        """The face as drawn before in this document, or kept by another, or None."""
        kept = self._replays.get(key) if key is not None else None
        if kept is not None and self.canvas._extgstate._d:
            kept = None  # it set its graphics states from the default state (layout/facecode.py)
        if kept is None and kept_key is not None:
            entry = self._memo.get(KEPT, kept_key)
            kept = self._usable(entry, layout) if type(entry) is not str else None
            if kept is not None:
                self._remember(key, kept)
                self._kept_chars += sum(map(len, kept.pieces))  # kept again: the stored faces stay within budget
        if kept is not None:
            self._replays.move_to_end(key)
        self.last_kept = kept
        return kept

    def _remember(self, key: Any, kept: Kept) -> None:
        self._replays[key] = kept
        if len(self._replays) > REPLAY_LIMIT:
            self._replays.popitem(last=False)

    def _keep(self, kept_key: str, kept: Kept) -> None:
        """Keep a face for other documents: not one that placed a picture directly, which the document
        names; and a large build keeps only its first faces."""
        size = sum(map(len, kept.pieces))
        if kept.forms or self._kept_chars + size > KEEP_BUDGET:
            return
        self._kept_chars += size
        # Its digests too: the manifest's (output/pdf.py) are added to the same dict as it is placed.
        self._memo.put(KEPT, kept_key, [kept.pieces, kept.marks, kept.records, kept.versions, kept.digests])

    def flush_kept(self) -> None:
        """Store the faces this document drew and placed, for the other paper and the next build."""
        if self._memo is not None:
            self._memo.flush(KEPT, shared=True)

    def _usable(self, entry: Any, layout: Layout) -> Kept | None:
        """A face from the disk cache, or None where the entry is not one (damaged, or written by
        other code) or names a font or icon this game does not have."""
        try:
            pieces, marks, records, versions, digests = entry
            if not (type(digests) is dict and all(type(k) is tuple and type(v) is str and _DIGEST.fullmatch(v)
                                                  for k, v in digests.items())):
                return None
            names = self._frame_names.get(id(layout))
            if names is None:
                names = self._frame_names[id(layout)] = (
                    layout, {frame.name for frame in walk_frames(layout.frames)} | {"version-mark"})
            numbers = pieces[1::2]
            "".join(pieces)  # a TypeError unless every piece is a string
            if not (type(pieces) is list and len(pieces) % 2 and all(map(str.isdigit, numbers))
                    and max(map(int, numbers), default=-1) < len(marks) and all(pdf_feature(v) for v in versions)
                    and all(type(r) is dict and r.get("name") in names[1] and _boxes(r) for r in records)):
                return None
            for mark in marks:
                kind = mark[0]
                if kind == TEXT and len(mark) == 6 and type(mark[1]) is str and type(mark[2]) in NUMBERS \
                        and type(mark[3]) in NUMBERS and type(mark[4]) is bool and type(mark[5]) is str:
                    self.fonts.ensure(mark[1])
                elif kind == STATE and len(mark) == 3 and type(mark[1]) is str and type(mark[2]) in (*NUMBERS, str):
                    pass
                elif not (kind == ICON and len(mark) == 4 and type(mark[2]) is str and _HEX.fullmatch(mark[2])
                          and (mark[1] in self.icons if mark[3] is None else self._in_game(mark[3]))):
                    return None
        except (TypeError, ValueError, IndexError, FontError):
            return None
        return Kept(pieces, marks, [], records, versions, digests=digests)

    def _in_game(self, path: Any) -> bool:
        """Whether a kept picture's file is inside the game folder (render/images.py draws no other)."""
        return type(path) is str and Path(path).resolve().is_relative_to(Path(self.game.root).resolve())

    def _accumulators(self) -> tuple:
        """The lengths of the canvas's page accumulators: a face is kept only if its drawing added
        operators and placed forms, and nothing else a page collects (annotations, colour spaces),
        and reported nothing.  reportlab only ever appends to them."""
        c = self.canvas
        return (len(c._code), len(c._formsinuse), len(c._annotationrefs), len(c._colorsUsed), len(c._shadingUsed),
                len(self.report.items))

    def _write(self, kept: Kept) -> None:
        """Write the face's marks for the page (or form) being drawn: its text in the document's
        font subsets, its icons as the document's forms (which the page now uses), its graphics
        states as this page names them."""
        c = self.canvas
        before = len(c._formsinuse)
        kept.written = resolve(c, self.painter, kept.pieces, kept.marks)
        kept.icon_forms = c._formsinuse[before:]
        kept.states = written_states(c, kept.marks)

    def _replay(self, kept: Kept, x: float, y: float) -> list[dict[str, Any]]:
        """Place a kept face with its trim box's lower-left at (x, y)."""
        c = self.canvas
        c._code.append("q")
        c._code.append(f"{rl_accel.fp_str(1, 0, 0, 1, x, y)} cm")  # as the fresh drawing's c.translate
        c._formsinuse.extend(kept.forms)
        if kept.versions:
            c._doc.ensureMinPdfVersion(*kept.versions)
        if kept.written is None or (kept.states and not _states_hold(c, kept.states)):
            self._write(kept)
        else:
            c._formsinuse.extend(kept.icon_forms)
        c._code.append(kept.written)
        c._code.append("Q")
        return self._placed(kept.records, x, y)


def written_states(canvas, marks: list) -> tuple:
    """The graphics states a face's marks set, each with the name `canvas`'s page (or form) gives it
    now: what its written operators stay right for (layout/facecode.py resolve names them)."""
    states = canvas._extgstate._c
    return tuple((pair, states[pair]) for pair in {(m[1], m[2]) for m in marks if m[0] == STATE})


def _states_hold(canvas, states: tuple) -> bool:
    """Whether the page (or form) being drawn names every one of `states` as the face was written:
    reportlab starts each page's names afresh, so a face written on an earlier page would set a
    state this page does not define (or another one of the same name)."""
    named = canvas._extgstate._c
    return all(named.get(pair) == name for pair, name in states)


@lru_cache(maxsize=4096)
def _words(source: str) -> frozenset[str]:
    """Every name-like word of a template's source: a superset of the names it reads from its context."""
    return frozenset(_WORD.findall(source))


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEX = re.compile(r"#[0-9a-f]{6}")  # an icon's colour, as CardRenderer._color_hex writes it
_DIGEST = re.compile(r"[0-9a-f]{16}")  # a face's manifest digest (render/fingerprint.py DIGEST_CHARS)
NUMBERS = (int, float, bool)


def _boxes(record: dict) -> bool:
    """Whether a kept record's boxes can be placed (CardRenderer._placed): placing one that is not
    four numbers raises TypeError or ValueError."""
    if "box" in record:
        placed_box(record["box"], 0.0, 0.0)
    for cell in record.get("cells", ()):
        placed_box(cell, 0.0, 0.0)
    return True


def placed_box(box, x: float, y: float) -> list[float]:
    """A box drawn at a face's origin, as a record gives it: on the page, in mm (units.mm, written
    out: a kit places tens of thousands), to 0.01 mm."""
    bx, by, bw, bh = box
    return [round((bx + x) / MM, 2), round((by + y) / MM, 2), round(bw / MM, 2), round(bh / MM, 2)]
