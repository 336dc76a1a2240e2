"""What a face says: its problems reported once, where they are caused (a layout's own mistake
at the layout line, a piece's at the piece or the field its text comes from), kept with the face
for the disk cache and said again when it is replayed.  The diagnostics half of CardRenderer
(render/face.py), which gives it report, game, _piece, _reported, _saying, _erred and _strings."""
from __future__ import annotations

from typing import Any

from ..diagnostics import refine
from ..frontend.model import Board, Card
from ..layout.icons import IconError
from ..layout.layouts import Frame, Layout
from ..units import mm
from .facecache import stored_call, stored_calls
from .piece import Piece
from .table import RenderError

PIECE = "piece"  # a diagnostic's position: the piece being drawn (see FaceDiagnostics._say)
FIELD = "field"  # a diagnostic's position: ("field", key, needle, nth), in the piece's field `key`
AT = "@"  # in a diagnostic's once-key: its position
# Once-keys of problems said once for every piece they show on (a layout's own mistake, two text
# frames over each other): the message counts the pieces.
_COUNTS_PIECES = {"at", "overlap"}


class FaceDiagnostics:
    def _warn_overlapping_text(self, layout: Layout, piece: Piece, side: str, records: list[dict]) -> None:
        """Two text frames whose `when:` conditions both hold on this face, drawn over each other:
        once per pair at the later frame's line in the layout, naming the first piece it happens on and
        counting the pieces."""
        from ..layout.layouts import overlapping_text
        what = "board" if isinstance(piece, Board) else "card"
        for first, second, w, h in overlapping_text(layout.frames, records):
            self._say(("overlap", AT, first.name, second.name), "warning", "W-TEXT-OVERLAP",
                      f"text frames '{first.name}' and '{second.name}' of layout '{layout.name}' both print on "
                      f"{what} '{piece.id}' ({side}) and overlap by {mm(w):.1f} x {mm(h):.1f} mm: their texts "
                      "are drawn over each other", second.position,
                      f"make their 'when:' conditions exclude each other, or move '{second.name}' "
                      f"clear of '{first.name}'", piece.id)

    def _frame_error(self, exc: RenderError, frame: Frame, layout: Layout, piece: Piece, side: str) -> None:
        """A frame's error: once at the layout when it is the layout's own mistake, else once per
        frame of the piece's face, at the piece (or at the field its text comes from)."""
        if exc.at is None:  # a string table's text is the translation's; a layout's literal, the layout's
            exc.at = (self._translated_at(frame) if exc.code == "E-GLYPH" else None) or _literal_cause(frame, exc)
        if exc.at is not None:  # the layout's own mistake: once, at the layout, for every card
            self._say(("at", AT, exc.message), "error", exc.code,
                      f"frame '{frame.name}' of layout '{layout.name}', {exc.message}", exc.at, exc.help)
            return
        if isinstance(piece, Card) and piece.reads_invalid(t.source for t in frame.templates.values()):
            return  # it follows from a field's schema error, reported already
        what = "board" if isinstance(piece, Board) else "card"
        self._say(("frame", piece.id, side, frame.name), "error", exc.code, f"{what} '{piece.id}' ({side}), "
                  f"frame '{frame.name}' of layout '{layout.name}': {exc.message}", exc.field or PIECE, exc.help,
                  piece.id, side)

    def _icon_error(self, exc: IconError, piece: Piece) -> None:
        """A broken icon file is reported once, at the file, however many faces use it."""
        self._say(("icon", AT), "error", exc.code, exc.message, exc.position or PIECE, exc.help)

    def _repeat_failed(self, layout: Layout, piece: Piece, side: str, frame: Frame, exc: Exception) -> None:
        what = "board" if isinstance(piece, Board) else "card"
        self._say(("frame", piece.id, side, frame.name), "error", getattr(exc, "code", "E-REPEAT"),
                  f"{what} '{piece.id}' ({side}), repeat frame '{frame.name}' of layout '{layout.name}': {exc}", PIECE,
                  getattr(exc, "help", None) or "check the rows and where they are placed", piece.id, side)

    def _say(self, once: tuple, severity: str, code: str, message: str, at, help: str | None = None,
             card: str | None = None, side: str | None = None) -> None:
        """Report a problem once per `once` key (copies of a piece, faces of a layout share it; `AT` in
        the key stands for the position).  `at` is a Position, PIECE (the piece being drawn),
        (FIELD, key, needle, nth) (where the `nth` `needle` is in the piece's field `key`) or
        ("game", pointer): all but the first are looked up when reported, so that a problem kept in
        the disk cache (render/facecache.py) points at the line where the piece is now.  `side`: the
        face of the piece it is on (the preview badges that face alone)."""
        if severity == "error":
            self._erred = True
        if self._saying is not None:  # a face measured for the disk cache: everything it says, in order
            self._saying.append(stored_call(once, severity, code, message, at, help, card, side))
        if at == PIECE:
            position = self._piece.pos()
        elif isinstance(at, tuple) and at[0] == FIELD:
            position = refine(self._piece.pos(at[1]), at[2], at[3])
        elif isinstance(at, tuple):
            position = self.game.doc.pos(at[1])
        else:
            position = at
        key = tuple((str(position.path), position.line, position.col) if part == AT else part for part in once)
        diag = self._reported.get(key)
        if diag is None:
            diag = self._reported[key] = (self.report.error if severity == "error" else self.report.warning)(
                code, message, position, help=help, card=card, side=side)
        if once[0] in _COUNTS_PIECES and self._piece is not None:  # said once for many pieces: count them
            diag.affecting({("board" if isinstance(self._piece, Board) else "card", self._piece.id)})

    def _say_again(self, said: Any) -> bool:
        """Report again what a face measured earlier said; False for an entry that is not one."""
        calls = stored_calls(said)
        for call in calls or ():
            self._say(*call)
        return calls is not None

    def _translated_at(self, frame: Frame, key: str = "text"):
        """Where the string table translates this frame's literal text (None: it does not): a
        translation that overflows is the translation's mistake, reported at its line."""
        template = frame.templates.get(key)
        if template is not None and not template.is_constant:
            return None
        value = frame.props.get(key) if template is None else template.source
        return self._string_at.get(value) if isinstance(value, str) else None


_LITERAL_KEYS = {"E-FONT": ("font",), "E-COLOR": ("color", "fill", "stroke", "empty_fill"), "E-GLYPH": ("text",)}


def _literal_cause(frame: Frame, exc: RenderError):
    """Where the layout writes the value an error is about, when that value is a literal (the same
    on every piece): an unknown font, a misspelt colour, a glyph missing from a frame's own text is
    the layout line's mistake, reported once there. None when a template gives the value."""
    for key in _LITERAL_KEYS.get(exc.code, ()):
        value = frame.props.get(key)
        template = frame.templates.get(key)
        if value is None or (template is not None and not template.is_constant):
            continue
        if exc.code == "E-GLYPH" or f"'{str(value).strip()}'" in exc.message:
            return frame.value_pos(key)
    return None
