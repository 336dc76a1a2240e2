"""Each face's results kept between checks (issue 27: `check` runs on every save), and between
builds: a face's drawing (render/replay.py, kind "face-draw") is kept under a key made the same way.

`cardforge check` evaluates every face's templates twice over: the rules' asset check reads what
each face names (icons, symbols, images), and the fit pass lays each face out on a measuring
canvas (text fitted, glyphs and icons checked).  Both are pure functions of what is keyed here,
so their results go into the disk cache (diskcache.py) under a digest of everything they depend
on, and a check after an edit evaluates only the faces the edit touched.

What a key holds, and why (leave out nothing a face's result can depend on):
- the code: every module of cardforge, the Python and the libraries (an upgrade is a new key);
- the working directory: messages name layout files relative to it;
- the game folder's path, the game data templates see (`game`, `tables`, `boards`), the
  language and its string table with where each string is written (a translation's overflow is
  reported there), `min_type` and the version mark's settings;
- the layout: its name, the size it was resolved for, and each file of its `extends` chain (its
  path and identity: which library it came from, and any edit of it);
- the piece: its kind, id, the record as its templates see it (after markup, translation and
  derived fields), the fields with schema errors (a face reading them reports nothing), the side,
  the copy where copies can differ, the shape and bleed; for `fit: deck`, every record of the deck
  that uses the layout (the size is the smallest that fits them all);
- for the fit pass, the fonts (each family's files, fallbacks, synthesized styles) and icons
  (every name and file: a missing one suggests the nearest name).
Positions in the game's own files (a card's line, game.yaml's) are not keyed: results store a
pointer (the piece, a game.yaml pointer) and the position is looked up when the result is used, so
lines shifted above a card move its diagnostics without measuring it again.  The fit pass reads the
pictures of `image` frames: one named by a literal `src` is keyed by its content; a layout that
names a picture with a template (another file for each face) is never cached.
"""
from __future__ import annotations

import hashlib
import json
import marshal
import os
from pathlib import Path
from typing import Any

from .. import diskcache
from ..diagnostics import Position
from ..layout.repeat import walk_frames

FORMAT = 1  # of a stored entry; another format is a miss


class Uncacheable(Exception):
    """A value no key can describe exactly: the face is evaluated every time."""


_SCALARS = frozenset({str, int, float, bool, type(None)})
_MAPPINGS = frozenset({"dict", "Fields"})  # a card's fields (frontend/model.py): a dict with `declared`
_SEQUENCES = frozenset({"list", "tuple", "TableRows"})  # a table's rows (frontend/tables.py): a list


def _plain(value: Any, declared: list) -> None:
    """Raise Uncacheable unless `value` is plain data, whose repr is exact: it tells 1, 1.0, True
    and '1' apart, a list from a tuple, and keeps a mapping's order.  A card's declared fields are
    collected into `declared` (an absent declared field is no error, an undeclared one is)."""
    kind = type(value)
    if kind in _SCALARS:
        return
    name = kind.__name__
    if name in _MAPPINGS and isinstance(value, dict):
        if name == "Fields":
            declared.append(sorted(value.declared))
        for k, v in value.items():  # (scalars tested here: a call per value would double the time)
            if type(k) not in _SCALARS:
                _plain(k, declared)
            if type(v) not in _SCALARS:
                _plain(v, declared)
    elif name in _SEQUENCES and isinstance(value, (list, tuple)):
        for item in value:
            if type(item) not in _SCALARS:
                _plain(item, declared)
    else:
        raise Uncacheable(name)


def digest(*parts: Any) -> bytes:
    declared: list = []
    _plain(parts, declared)
    return hashlib.sha256(repr((parts, declared)).encode("utf-8", "surrogatepass")).digest()


def _stamp(path) -> list:
    stamp = diskcache.file_stamp(path)
    if stamp is None:
        raise Uncacheable(f"{path} was written a moment ago")
    return list(stamp)


def _position(pos) -> list | None:
    return None if pos is None else [str(pos.path), pos.line, pos.col, pos.cell, pos.quote]


_RECORD = ("record digest",)  # its key in a piece's own memo (Card.rendered, Board.rendered)


def _record(piece) -> bytes:
    """The record as the templates see it (markup, translation, derived fields), digested once
    per piece and kept on the piece, not under its id(): the guide's pages are boards made anew
    for each drawing, and one made at a freed one's address took its digest, so the guide's ink
    page, drawn again with new figures, was placed as drawn with the old ones."""
    memo = piece.rendered
    if _RECORD not in memo:
        try:
            memo[_RECORD] = digest(piece.context())
        except Uncacheable:
            memo[_RECORD] = None
    if memo[_RECORD] is None:
        raise Uncacheable("piece")
    return memo[_RECORD]


class FaceMemo:
    """The keys of one prepared game's faces, and their stored results."""

    def __init__(self, game, fonts, icons):
        self.game, self.fonts, self.icons = game, fonts, icons
        self._parts: dict[tuple, bytes | None] = {}  # once per check: game, layouts, fonts, icons
        self._owners: list = []  # the layouts its parts name by id() (_once)
        self._stored: dict[str, dict] = {}  # kind -> face key -> result, as read from the disk cache
        self._used: dict[str, dict] = {}  # kind -> face key -> result, of the faces this check looked up

    def _once(self, key: tuple, make, owner: object = None) -> bytes:
        """A part of keys, made once.  `owner`: the object a key names by its id() (a layout), kept
        while the memo lives, so that no other object is made at its address and takes its part."""
        if key not in self._parts:
            if owner is not None:
                self._owners.append(owner)
            try:
                self._parts[key] = make()
            except Uncacheable:
                self._parts[key] = None  # asked once: every face it is part of is evaluated afresh
        part = self._parts[key]
        if part is None:
            raise Uncacheable(key[0])
        return part

    def _game_part(self, kind: str) -> bytes:
        game = self.game
        overlay = getattr(game, "overlay", None)
        strings = getattr(overlay, "strings", None) or {}
        string_at = getattr(overlay, "string_at", None) or {}
        mark = game.version_mark
        code = diskcache.code_fingerprint("jinja2", "reportlab", "PIL", "svglib", "regex")  # the code that measures
        return code + digest(
            FORMAT, kind,
            os.getcwd(),  # messages name layout files relative to it
            str(game.root),  # another copy of the game is another game
            game.template_data(), {b.id: b.data for b in game.boards},  # `game`, `tables`, `boards`
            game.lang, dict(strings), {k: _position(v) for k, v in string_at.items()},  # tr() and literal labels
            game.min_type,  # a track's labels are set no smaller
            getattr(game, "ink_saver", False),  # build --ink-saver draws other layouts (output/inksaver.py)
            [mark.show, mark.text, mark.corner, mark.size, mark.safe])  # the version mark's room

    def _drawing_part(self) -> bytes:
        """Fonts and icons: what fitting text and loading icons read."""
        fonts, parts = self.fonts, []
        for family in sorted(fonts.files):
            files, prefix = fonts.files[family]
            parts.append([family, prefix, [[style, _stamp(path)] for style, path in files.items()],
                          list(fonts.synthesized.get(family, [])), list(fonts.fallbacks.get(family, []))])
        icons = [[name, source if isinstance(source, str) else _stamp(source)]
                 for name, source in self.icons.sources.items()]
        return digest(parts, icons)

    def _layout_part(self, layout, kind: str) -> bytes:
        def make() -> bytes:
            # The fit pass reads the picture an image frame names (the asset check only its name).
            pictures = self._pictures(layout) if kind in ("face-fit", "face-draw") else []
            return digest(layout.name, layout.width, layout.height,  # resolved for this size
                          [_stamp(path) for path in layout.files],  # the files of its `extends` chain, by content
                          pictures)
        return self._once(("layout", id(layout), kind), make, layout)

    def _pictures(self, layout) -> list:
        """The files the layout's image frames draw, by content: a picture named by a literal `src`
        is the same file for every face.  One named by a template may differ from face to face,
        and is not cached."""
        from ..frontend.model import safe_path
        pictures = []
        for frame in walk_frames(layout.frames):
            if frame.type != "image":
                continue
            template = frame.templates.get("src")
            if template is not None and not template.is_constant:
                raise Uncacheable("an image frame names its picture with a template")
            src = str(frame.props.get("src") if template is None else template.source).strip()
            path = safe_path(self.game.root, src)
            pictures.append([src, None if path is None else _stamp(path)])  # outside, missing or its bytes
        return pictures

    def _deck_part(self, layout, card, side: str) -> bytes:
        """`fit: deck`: the records of the deck that use this layout on this side."""
        def make() -> bytes:
            if not any(frame.props.get("fit") == "deck" for frame in walk_frames(layout.frames)):
                return b""
            return digest([other.data for other in card.deck.cards
                           if (other.front if side == "front" else other.back) == layout.name])
        return self._once(("deck", id(layout), card.deck.id, side), make, layout)

    def key(self, kind: str, layout, piece, side: str, copy: int | None, shape: str | None = None,
            bleed: float | None = None) -> str | None:
        """The key of one face's result of `kind` ("face-assets", "face-fit", "face-draw": a drawn face
        keyed by its piece's whole record, render/replay.py), or None: not cached."""
        try:
            parts = [self._once(("game", kind), lambda: self._game_part(kind)), self._layout_part(layout, kind)]
            if kind in ("face-fit", "face-draw"):
                parts.append(self._once(("drawing",), self._drawing_part))
            is_card = hasattr(piece, "deck")
            record = _record(piece)
            extra: list[Any] = [type(piece).__name__, piece.id,  # messages name the piece
                                side, copy, shape, bleed]  # the face (copy None: no copy can differ)
            invalid = sorted(piece.invalid) if is_card else None  # frames reading these report nothing
            if is_card:
                parts.append(self._deck_part(layout, piece, side))
                mark = self.game.version_mark
                if side == "front" and mark.show == "always":  # the mark's text, as drawn now
                    from ..frontend.record_digest import card_digest
                    extra.append(mark.label(str(self.game.data.get("version", "")), card_digest(piece), piece.id))
            # Plain values (the common case) are told apart exactly by their repr.
            plain = all(type(v) in _SCALARS for v in extra) and all(type(f) is str for f in invalid or ())
            tail = repr((extra, invalid)).encode("utf-8", "surrogatepass") if plain else digest(extra, invalid)
            return hashlib.sha256(b"".join(parts) + record + tail).hexdigest()
        except Uncacheable:
            return None

    def drawing_key(self, layout, piece, side: str, shape: str, bleed: float, deck: str | None,
                    values: tuple) -> str | None:
        """The key of a drawn face (render/replay.py), or None: not kept.  A face's drawing depends on
        what its replay key holds (the layout, the face, the values of the templates that differ
        from face to face) and on the game, its fonts and icons, the pictures the layout names and,
        for `fit: deck`, the deck's records."""
        def make() -> bytes:
            parts = [self._once(("game", "face-draw"), lambda: self._game_part("face-draw")),
                     self._layout_part(layout, "face-draw"), self._once(("drawing",), self._drawing_part)]
            if hasattr(piece, "deck"):
                parts.append(self._deck_part(layout, piece, side))
            return b"".join(parts)
        try:
            prefix = self._once(("drawn", id(layout), deck, side), make, layout)  # one layout on one deck's side
            face = (side, shape, bleed, deck, values)
            # Plain values (the common case) are told apart exactly by their repr.
            tail = repr(face).encode("utf-8", "surrogatepass") if all(type(v) in _SCALARS for v in values) \
                else digest(list(face))
            return hashlib.sha256(prefix + tail).hexdigest()
        except Uncacheable:
            return None

    def _bundle(self, kind: str) -> dict[str, Any]:
        """Every stored result of this game folder's faces of one kind, read as one entry: a check
        reads one file rather than one per face.  Each result is still found by its face's own key."""
        if kind not in self._stored:
            self._stored[kind], self._used[kind] = {}, {}
            stored = diskcache.get("faces", self._bundle_key(kind))
            try:
                entry = _load(kind, stored) if stored is not None else None
            except (ValueError, EOFError, TypeError):  # damaged: nothing is stored
                entry = None
            if isinstance(entry, dict) and entry.get("format") == FORMAT and isinstance(entry.get("faces"), dict):
                self._stored[kind] = entry["faces"]
        return self._stored[kind]

    def _bundle_key(self, kind: str) -> bytes:
        return digest(FORMAT, kind, str(self.game.root), self.game.lang, os.getcwd())

    def stored(self, kind: str) -> bool:
        """Whether the disk cache holds any result of `kind` for this game."""
        return bool(self._bundle(kind))

    def get(self, kind: str, key: str | None) -> Any:
        """The stored result, or None (none stored: evaluated afresh)."""
        if key is None:
            return None
        result = self._bundle(kind).get(key)
        if result is None:
            return self._used[kind].get(key)  # put by this process (the other paper of one build)
        self._used[kind][key] = result
        return result

    def put(self, kind: str, key: str | None, result: Any) -> None:
        if key is not None:
            self._bundle(kind)
            self._used[kind][key] = result

    def flush(self, kind: str, shared: bool = False) -> None:
        """Store this check's results of `kind`: those of the faces it looked up, so that the entry
        holds the game's faces as they are and does not grow with every edit.  A `shared` entry
        (drawn faces: each paper's documents use most of them, and a few of their own) keeps the
        results stored before as well, until they are as many again as those looked up now."""
        used = self._used.get(kind)
        stored = self._stored.get(kind, {})
        # A key is a digest of everything its result depends on: the same keys, the same entry.
        if used is None or used.keys() == stored.keys() or (shared and used.keys() <= stored.keys()):
            return
        if shared and len(stored.keys() | used.keys()) <= 2 * len(used):
            used = {**stored, **used}
        diskcache.put("faces", self._bundle_key(kind), _dump(kind, {"format": FORMAT, "faces": used}))
        self._stored[kind] = dict(used)


# Drawn faces (render/replay.py: a game's are megabytes) are stored with marshal, which writes and
# reads such lists of strings ten times as fast as JSON; the key holds the Python version
# (diskcache.code_fingerprint), and what is read is checked before it is used (replay._usable).
_MARSHALLED = frozenset({"face-draw"})


def _dump(kind: str, entry: dict) -> bytes:
    return marshal.dumps(entry) if kind in _MARSHALLED else json.dumps(entry).encode()


def _load(kind: str, data: bytes) -> Any:
    return marshal.loads(data) if kind in _MARSHALLED else json.loads(data)


_latest: list = []  # the memo of the game being checked: (game, fonts, icons, memo)


def face_memo(game, fonts, icons) -> FaceMemo:
    """The memo of this prepared game, shared by the asset check and the fit pass."""
    if not (_latest and _latest[0] is game and _latest[1] is fonts and _latest[2] is icons):
        _latest[:] = [game, fonts, icons, FaceMemo(game, fonts, icons)]
    return _latest[3]


def stored_call(once: tuple, severity: str, code: str, message: str, at, help: str | None, card: str | None,
                side: str | None = None) -> list:
    """One diagnostic a face reported (CardRenderer._say), as JSON: a position in a file the key
    describes (a layout, an icon, a string table) as it is; the piece, a field of the piece, or a
    game.yaml pointer, as such."""
    if isinstance(at, Position):
        at = ["at", str(at.path), at.line, at.col, at.cell, at.quote]
    return [list(once), severity, code, message, at, help, card, side]


def stored_calls(said: Any) -> list[tuple] | None:
    """The arguments of CardRenderer._say for each stored diagnostic; None for an entry that is not
    a list of them (damaged, or written by other code under a colliding name): measured afresh."""
    if not isinstance(said, list):
        return None
    calls = []
    try:
        for once, severity, code, message, at, help_, card, side in said:
            if isinstance(at, list) and at[:1] == ["at"] and len(at) == 6:
                at = Position(Path(at[1]), *at[2:])
            elif isinstance(at, list) and len(at) == 2 and at[0] == "game":
                at = tuple(at)
            elif isinstance(at, list) and len(at) == 4 and at[0] == "field" and isinstance(at[1], str) \
                    and isinstance(at[3], int):
                at = tuple(at)
            elif at != "piece":
                return None
            if not (isinstance(once, list) and severity in ("error", "warning") and isinstance(message, str)):
                return None
            calls.append((tuple(once), severity, code, message, at, help_, card, side))
    except (TypeError, ValueError):
        return None
    return calls
