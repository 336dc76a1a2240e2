"""Stage 5: draw one face of one card (its layout's frames over its data) onto a canvas.

The renderer works in page coordinates given by the imposer: it is told where
the card's trim box lies and draws every frame relative to it, clipped to the
bleed box.  It returns what it drew (text per frame, icons) for the manifest,
and reports content problems (overflowing text, missing glyphs, unknown icons,
missing images) instead of drawing them wrong.
"""
from __future__ import annotations

import difflib
from collections import OrderedDict
from functools import partial
from typing import Any, TYPE_CHECKING


from ..layout import text as richtext
from ..diagnostics import Report, display_path
from ..layout.fonts import FontBook
from ..layout.icons import IconError, IconLibrary, IconPainter
from ..layout.layouts import Frame, Layout
from ..layout.repeat import placed
from ..geometry import shape_path, track_cells
from .facecache import face_memo
from .facesay import FIELD, FaceDiagnostics
from .images import ImageFrames
from .shapes import ShapeFrames
from .versionmark import VersionMarks
from .overset import Overset, draw_overset
from .piece import Piece
from .replay import Kept, FaceReplay, placed_box
from ..layout.facecode import FaceCode, asked_versions, face_pieces, watch_versions
from .table import RenderError, draw_table
from ..frontend.model import Card, Game
from ..frontend.translations import translator
from ..layout.templates import Expression, Template, TemplateFailure, fields_read, truthy
from ..units import MM, length as _length, mm
from ..lazy import lazy_module

if TYPE_CHECKING:
    from reportlab.lib.colors import Color

colors = lazy_module("reportlab.lib.colors")  # only when a face is drawn: a check's cached faces are not

BASIC_COLORS = {"black": "#000000", "white": "#ffffff", "red": "#b3261e", "blue": "#1f4e8c",
                "green": "#2e7d32", "yellow": "#f2c230", "grey": "#808080", "gray": "#808080",
                "none": "none"}
EDGE = 0.01  # points: a frame edge this close to the trim edge "touches" it
CACHE_LIMIT = 500  # parsed texts kept per PDF (a 40-word text parsed and fitted holds ~20 KB)



def rendered(piece: Piece, template: Template, ctx: dict, face_ctx: dict | None) -> Any:
    """A template's value for one face of a piece, rendered once and remembered on the piece, so
    that the rules stage, `check` and the drawing of each paper do not render it again.  The
    key is the template and the face (side, copy); only a value rendered in the face's own
    context (`ctx is face_ctx`) is remembered, not one that also sees a track space or a row."""
    if template.is_constant:
        return template.source
    if ctx is not face_ctx:
        return template.render(ctx)
    key = (template, ctx["side"], ctx["copy"])  # the template itself: no other can take its address
    memo = piece.rendered
    if key not in memo:
        memo[key] = template.render(ctx)
    return memo[key]


class CardRenderer(FaceReplay, ImageFrames, ShapeFrames, VersionMarks, FaceDiagnostics):
    """Draws faces of one game onto one canvas, with caches shared by all the faces it draws."""

    faces_drawn = 0  # in this process: lets a test prove that a build draws each face once

    def __init__(self, canvas, game: Game, fonts: FontBook, icons: IconLibrary, report: Report):
        self.canvas, self.game, self.fonts, self.icons, self.report = canvas, game, fonts, icons, report
        # A translation's string table (frontend/translations.py): a layout's literal text, and tr('...')
        strings = getattr(getattr(game, "overlay", None), "strings", None) or {}
        tr = translator(strings)  # tr('Crew position'), tr('... the **{total}** cards.', total=card.total)
        self._strings, self._tr = strings, (lambda text, **values: tr(str(text), **values))
        self._string_at = getattr(getattr(game, "overlay", None), "string_at", None) or {}
        self.painter = IconPainter(canvas, icons)
        if not self.painter.measuring:
            watch_versions(canvas)
        self._rich_cache: dict[tuple, Any] = {}
        self._fit_cache: dict[tuple, Any] = {}
        self._color_cache: dict[tuple, Any] = {}
        self._shape_code: dict[tuple, tuple] = {}  # render/shapes.py
        self._game_data = game.template_data()
        self._boards = {board.id: board.data for board in game.boards}  # every board's data, by id
        self._reported: dict[tuple, Any] = {}  # copies of a card share their problems: report once
        self._piece, self._face_ctx = None, None  # the face being evaluated, and its context
        self._deck_sizes: dict[tuple, float] = {}  # fit: deck, per frame and deck
        self.outline = False  # --outline: frame boxes, safe zone, trim and bleed over each face (render/outline.py)
        self._replays: OrderedDict[Any, Kept] = OrderedDict()  # face key -> what its drawing wrote (render/replay.py)
        self._kept_keys: dict[tuple, str | None] = {}  # face key -> its key for other documents (render/replay.py)
        self._replayable: dict[int, bool] = {}  # per layout
        self._copy_blind: dict[int, tuple[Layout, bool]] = {}  # per layout (kept alive): no copy can differ
        self._frame_names: dict[int, tuple[Layout, set]] = {}  # per layout (kept alive): its frames' names
        self._last_measured: tuple | None = None  # `check`: the face last laid out
        self._saying: list | None = None  # what the face being measured reported (render/facecache.py)
        self._memo = None  # the game's face keys and kept faces (render/facecache.py), once a face is kept
        self.last_kept: Kept | None = None  # what the face drawn last placed or kept (output/pdf.py)
        self._kept_chars = 0  # of the operators this document kept (replay.KEEP_BUDGET)
        self._marked: list[RenderError] = []  # errors of the frame being drawn that it drew (overflow)
        self._oversets: list[Overset] = []  # the face's overflowing frames, marked over it at the end
        self._turn: tuple | None = None  # the rotated frame being drawn: its centre and angle
        self._erred = False  # the face being drawn has an error (reported now or for an earlier copy)

    def context(self, piece: Piece, side: str, copy: int) -> dict[str, Any]:
        ctx = piece.context()
        ctx.update(game=self._game_data, tables=self._game_data["tables"], boards=self._boards, side=side, copy=copy,
                   tr=self._tr)
        if hasattr(piece, "copy_context"):
            ctx.update(piece.copy_context(copy))  # `number` and `variant` of a numbered series
        return ctx

    def draw(self, layout: Layout, piece: Piece, side: str, copy: int, x: float, y: float,
             bleed: float, shape: str = "rect") -> list[dict[str, Any]]:
        """Draw `layout` for a card or board with the trim box's lower-left at (x, y).

        The drawing is clipped to the piece's shape grown by the bleed. Returns frame records.
        """
        CardRenderer.faces_drawn += 1
        self.last_kept = None
        c = self.canvas
        ctx = self.context(piece, side, copy)
        self._piece, self._face_ctx = piece, ctx
        if self.painter.measuring:  # `check`: copies of a piece laid out once (they report once anyway)
            return self._measured(layout, piece, side, copy, ctx, x, y, bleed, shape)
        local, kept_key, kept = self._look_up(layout, piece, side, copy, ctx, bleed, shape)
        if kept is not None:
            return self._replay(kept, x, y)
        before = self._accumulators() if local is not None else None
        self._erred = False
        records, kept = self._draw_frames(layout, piece, side, ctx, x, y, bleed, shape)
        # a face with an error is never kept, even where its copies report it once: placed again (in
        # the next build, from the disk cache) it would bring its drawing without its error
        if local is not None and before[2:] == self._accumulators()[2:] and kept is not None and not self._erred:
            self._remember(local, kept)
            if kept_key is not None:
                self._keep(kept_key, kept)
            self.last_kept = kept
        return self._placed(records, x, y)

    @staticmethod
    def _placed(records: list[dict], x: float, y: float) -> list[dict[str, Any]]:
        """Records of a face drawn at its origin, with their boxes on the page where it is placed
        at (x, y): a fresh drawing and a kept one give the same numbers."""
        out = []
        for record in records:
            record = dict(record)
            if "box" in record:
                record["box"] = placed_box(record["box"], x, y)
            if "cells" in record:
                record["cells"] = [placed_box(cell, x, y) for cell in record["cells"]]
            out.append(record)
        return out

    def _measured(self, layout: Layout, piece: Piece, side: str, copy: int, ctx: dict, x: float, y: float,
                  bleed: float, shape: str) -> list[dict[str, Any]]:
        """A face laid out on the measuring canvas for what it reports (it keeps no records: `check`
        writes no manifest).  Laid out once per piece where nothing in the layout can tell its copies
        apart (no template or property mentions `copy`, no numbered series), and not at all where
        the disk cache holds what it reported (render/facecache.py)."""
        copy = self._copy_of(layout, piece, copy)
        key = (id(layout), piece.id, side, shape, bleed, copy)
        if key == self._last_measured:
            return []
        self._last_measured = key
        memo = face_memo(self.game, self.fonts, self.icons)
        stored_key = memo.key("face-fit", layout, piece, side, copy, shape, bleed)
        said = memo.get("face-fit", stored_key)
        if self._say_again(said):
            return []
        self._saying = []
        try:
            self._draw_frames(layout, piece, side, ctx, x, y, bleed, shape)
            memo.put("face-fit", stored_key, self._saying)
        finally:
            self._saying = None
        return []

    def _draw_frames(self, layout: Layout, piece: Piece, side: str, ctx: dict, x: float, y: float,
                     bleed: float, shape: str) -> tuple[list[dict[str, Any]], Kept | None]:
        """Draw the face with its trim box's lower-left at (x, y): at its own origin, moved there by one
        `cm`, so that what it writes is the same wherever it is placed.  Returns its records (boxes
        at its origin) and what it wrote, to place again (None: it wrote something in the
        document's own terms)."""
        c = self.canvas
        if self.painter.measuring:
            return self._frames_of(layout, piece, side, ctx, x, y, bleed, shape), None
        c.saveState()
        c.translate(x, y)
        start, forms_before, asked = len(c._code), len(c._formsinuse), asked_versions(c)
        asked_before = len(asked) if asked is not None else 0
        code = c._face_code = FaceCode()
        code.spoiled = asked is None  # what it asks of the document is not known
        try:
            records = self._frames_of(layout, piece, side, ctx, x, y, bleed, shape)
        finally:
            c._face_code = None
        kept = Kept(face_pieces(c, code, c._code[start:]), code.marks, c._formsinuse[forms_before:], records,
                    sorted(set(asked[asked_before:])) if asked is not None else [])
        self._write(kept)
        c._code[start:] = [kept.written]  # the same lines of the page
        c.restoreState()
        if self.outline:
            from .outline import draw_outline
            draw_outline(c, layout, x, y, bleed, self.game.version_mark.safe, self.fonts.family("sans").face("regular"))
        return records, None if code.spoiled else kept

    def _frames_of(self, layout: Layout, piece: Piece, side: str, ctx: dict, x: float, y: float,
                   bleed: float, shape: str) -> list[dict[str, Any]]:
        """Every frame drawn at the origin (on the measuring canvas, at (x, y)); records at the origin."""
        c = self.canvas
        if not self.painter.measuring:
            x = y = 0.0
        records = []
        c.saveState()
        clip = c.beginPath()
        shape_path(clip, shape, x, y, layout.width, layout.height, bleed)
        c.clipPath(clip, stroke=0, fill=0)
        self._oversets = []
        for frame, frame_ctx in placed(layout.frames, ctx, self._holds, (RenderError,),
                                       partial(self._repeat_failed, layout, piece, side)):
            self._marked = []
            try:
                record = self._frame(frame, layout, piece, frame_ctx, x, y, bleed)
            except IconError as exc:
                self._icon_error(exc, piece)
                continue
            except RenderError as exc:
                self._frame_error(exc, frame, layout, piece, side)
                continue
            finally:
                self._turn = None
            for exc in self._marked:  # drawn, and marked, but errors all the same: no kit is built with them
                self._frame_error(exc, frame, layout, piece, side)
            if record is not None:
                records.append(record)
        self._warn_overlapping_text(layout, piece, side, records)
        if isinstance(piece, Card) and side == "front" and self.game.version_mark.show == "always":
            mark = self._version_mark(piece, layout, x, y, records)
            if mark is not None:
                records.append(mark)
        if not self.painter.measuring:
            for overset in self._oversets:  # over every frame, so that no art hides them
                draw_overset(c, overset, self.painter)
        self._oversets = []
        c.restoreState()
        return records

    def _holds(self, frame: Frame, ctx: dict) -> bool:
        return truthy(str(self._value(frame, "when", ctx)))

    # -- frames ---------------------------------------------------------------------------

    def literal(self, frame: Frame, key: str, template) -> Any:
        """A frame's value written as a literal: a text the language's string table may translate."""
        value = frame.props.get(key) if template is None else template.source
        return self._strings.get(value, value) if key == "text" and isinstance(value, str) else value

    def _value(self, frame: Frame, key: str, ctx: dict) -> Any:
        template = frame.templates.get(key)
        if template is None or template.is_constant:
            return self.literal(frame, key, template)
        try:
            return rendered(self._piece, template, ctx, self._face_ctx)
        except TemplateFailure as exc:
            if exc.code == "E-LAYOUT-FIELD":
                raise RenderError(exc.code, f"'{key}': {exc.message}", help=exc.help, at=frame.value_pos(key)) from None
            raise RenderError(exc.code, f"'{key}': {exc.message}",
                              help=f"the template is at {display_path(frame.layout_file, None)}:{frame.position.line}") from None

    def _frame(self, frame: Frame, layout: Layout, card: Card, ctx: dict, x: float, y: float,
               bleed: float) -> dict | None:
        if "when" in frame.props and not truthy(str(self._value(frame, "when", ctx))):
            return None
        fx, fy, fw, fh = box = self._box(frame, layout, x, y, bleed)
        record = {"name": frame.name, "type": frame.type, "box": box}  # placed by _placed
        draw = getattr(self, f"_draw_{frame.type}")
        rotate = frame.props.get("rotate", 0)
        if not rotate:
            draw(frame, layout, card, ctx, fx, fy, fw, fh, record)
            return record
        # Turned clockwise about the frame's centre: the content is laid out (and its text fitted) in
        # the turned box (width and height swapped at 90 and 270), so it fills the frame's box.
        record["rotate"] = rotate
        w, h = (fh, fw) if rotate in (90, 270) else (fw, fh)
        c = self.canvas
        c.saveState()
        c.translate(fx + fw / 2, fy + fh / 2)
        c.rotate(-rotate)
        self._turn = (fx + fw / 2, fy + fh / 2, rotate)
        try:
            draw(frame, layout, card, ctx, -w / 2, -h / 2, w, h, record)
        finally:
            c.restoreState()
        return record

    def _box(self, frame: Frame, layout: Layout, x: float, y: float, bleed: float):
        """The frame's box in page coordinates, grown into the bleed where it touches the edge."""
        left, top = x + frame.x, y + layout.height - frame.y
        right, bottom = left + frame.width, top - frame.height
        if frame.props.get("bleed"):
            if frame.x <= EDGE:
                left -= bleed
            if frame.y <= EDGE:
                top += bleed
            if frame.x + frame.width >= layout.width - EDGE:
                right += bleed
            if frame.y + frame.height >= layout.height - EDGE:
                bottom -= bleed
        return left, bottom, right - left, top - bottom

    def color(self, value: Any, layout: Layout) -> Color | None:
        key = (value, id(layout))
        if key not in self._color_cache:
            text = str(value).strip()
            text = layout.colors.get(text, BASIC_COLORS.get(text, text))
            if text == "none" or text == "":
                result = None
            elif text.startswith("#") and len(text) in (7, 9):
                try:
                    result = colors.HexColor(text, hasAlpha=len(text) == 9)
                except ValueError:
                    raise RenderError("E-COLOR", f"'{value}' is not a colour") from None
            else:
                guess = difflib.get_close_matches(text, [*layout.colors, *BASIC_COLORS], n=1, cutoff=0.6)
                raise RenderError("E-COLOR", f"unknown colour '{value}'",
                                  help=(f"did you mean '{guess[0]}'? " if guess else "")
                                  + "use '#rrggbb' or a name from the layout's 'colors'")
            self._color_cache[key] = result
        return self._color_cache[key]

    def _color_hex(self, value: Any, layout: Layout) -> str:
        col = self.color(value, layout)
        return "#000000" if col is None else "#" + col.hexval()[2:]

    def _rich(self, markup: str, font: str, style: str, uppercase: bool = False) -> richtext.RichText:
        """Parsed rich text (cached); a character the font lacks is an error, never an empty box."""
        family = self.fonts.family(font)
        if family is None:
            guess = difflib.get_close_matches(str(font), self.fonts.names(), n=1, cutoff=0.6)
            raise RenderError("E-FONT", f"unknown font '{font}'",
                              help=(f"did you mean '{guess[0]}'? " if guess else "")
                              + f"known fonts: {', '.join(self.fonts.names())}")
        key = (markup, font, style, uppercase)
        rich = self._rich_cache.get(key)
        if rich is None:
            if len(self._rich_cache) > CACHE_LIMIT:  # repeated texts hit; a long run of unique ones must not hoard memory
                self._rich_cache.clear()
                self._fit_cache.clear()
            rich = richtext.parse(markup, family, style, self.icons.__contains__, uppercase=uppercase,
                                  missing_chars=self.fonts.missing_chars,
                                  runs=self.fonts.runs if self.fonts.fallbacks else None)
            self._rich_cache[key] = rich
        if rich.missing:
            shown = "; ".join(self.fonts.glyph_message(f, chars) for f, chars in rich.missing.items())
            first, chars = next(iter(rich.missing.items()))
            raise RenderError("E-GLYPH", shown, help=self.fonts.glyph_help(first, chars))
        return rich

    def _fit(self, rich, markup_key, w, h, size, min_size, leading):
        key = (markup_key, round(w, 3), round(h, 3), size, min_size, leading)
        fitted = self._fit_cache.get(key)
        if fitted is None:
            fitted = self._fit_cache[key] = richtext.fit(rich, w, h, size, min_size, leading)
        return fitted

    def _draw_text(self, frame, layout, piece, ctx, x, y, w, h, record):
        props = frame.props
        markup = str(self._value(frame, "text", ctx))
        uppercase = bool(props.get("uppercase"))
        rich = self._rich(markup, props["font"], props["style"], uppercase)
        size, min_size = props["size_pt"], props["min_size_pt"]
        if props.get("fit") == "deck" and hasattr(piece, "deck"):
            size = min_size = max(min_size, self._deck_size(frame, layout, piece, ctx["side"], w, h))
        fitted = self._fit(rich, (markup, props["font"], props["style"], uppercase), w, h,
                           size, min_size, props["leading"])
        valign = props["valign"]
        if isinstance(fitted, richtext.Overflow):
            at = self._translated_at(frame)
            self._marked.append(RenderError(
                "E-TEXT-OVERFLOW", fitted.message, at=at, field=None if at is not None else
                self._field_of(frame, fitted),
                help="shorten the translation, or give the frame more room in this language "
                "(the layout's languages:)" if at is not None else
                "shorten the text, or give the frame more room or a smaller min_size"))
            fitted, valign = self._overset(fitted, rich, x, y, w, h, props["align"]), "top"
        color_value = self._value(frame, "color", ctx)
        lines = self._draw_fitted(fitted, rich, x, y + h, w, h, props["align"], valign,
                                  self.color(color_value, layout), self._color_hex(color_value, layout))
        record.update(text=rich.plain, lines=lines, size=fitted.size)
        if rich.icons:
            record["icons"] = dict(rich.icons)

    def _deck_size(self, frame: Frame, layout: Layout, card: Card, side: str, w: float, h: float) -> float:
        """`fit: deck`: the largest size at which this frame's text fits on every card of the deck
        that uses this layout, so that the deck's text does not change size from card to card."""
        key = (id(frame), card.deck.id, side, round(w, 3), round(h, 3))
        if key not in self._deck_sizes:
            props, sizes = frame.props, []
            piece, face_ctx = self._piece, self._face_ctx
            try:
                for other in card.deck.cards:
                    if (other.front if side == "front" else other.back) != layout.name:
                        continue
                    ctx = self.context(other, side, 1)
                    self._piece, self._face_ctx = other, ctx
                    if "when" in props and not truthy(str(self._value(frame, "when", ctx))):
                        continue
                    markup = str(self._value(frame, "text", ctx))
                    uppercase = bool(props.get("uppercase"))
                    rich = self._rich(markup, props["font"], props["style"], uppercase)
                    fitted = self._fit(rich, (markup, props["font"], props["style"], uppercase), w, h,
                                       props["size_pt"], props["min_size_pt"], props["leading"])
                    if not isinstance(fitted, richtext.Overflow):
                        sizes.append(fitted.size)
            finally:
                self._piece, self._face_ctx = piece, face_ctx
            self._deck_sizes[key] = min(sizes) if sizes else props["min_size_pt"]
        return self._deck_sizes[key]

    def _draw_field(self, frame, layout, piece, ctx, x, y, w, h, record):
        """A write-in field (C19): its label, then a rule to write on, to the frame's right edge."""
        label_w = _length(frame.props["label_width"]) if "label_width" in frame.props else None
        if label_w is None:  # as wide as the label's text
            rich = self._rich(str(self._value(frame, "text", ctx)), frame.props["font"], frame.props["style"])
            natural = max((sum(wd.width1 for wd in hard) + rich.space1 * max(0, len(hard) - 1)
                           for para in rich.paragraphs for hard in para), default=0.0)
            label_w = min(w, natural * frame.props["size_pt"] + 1.5 * MM)
        self._draw_text(frame, layout, piece, ctx, x, y, label_w, h, record)
        record["type"] = "text"  # the verifier reads it as the text frame it prints
        c = self.canvas
        c.saveState()
        c.setLineWidth(_length(frame.props.get("stroke_width", "0.5pt")))
        c.setStrokeColor(self.color(frame.props.get("stroke", "#555555"), layout))
        c.line(x + label_w, y + 0.8 * MM, x + w, y + 0.8 * MM)
        c.restoreState()

    def _label(self, markup: str, props: dict, layout: Layout, x, y, w, h, size, min_size, align="center",
               valign="middle", style=None) -> list[str]:
        """Fitted text in a box, for track spaces and table cells; returns the printed lines."""
        style = style or props.get("style", "regular")
        rich = self._rich(markup, props.get("font", "sans"), style)
        fitted = self._fit(rich, (markup, props.get("font", "sans"), style, False), w, h, size, min_size,
                           props.get("leading", 1.15))
        if isinstance(fitted, richtext.Overflow):
            self._marked.append(RenderError("E-TEXT-OVERFLOW", f"'{markup}': {fitted.message}",
                                            help="give the frame more room or a smaller min_size"))
            fitted, valign = self._overset(fitted, rich, x, y, w, h, align), "top"
        color = props.get("color", "black")
        return self._draw_fitted(fitted, rich, x, y + h, w, h, align, valign, self.color(color, layout),
                                 self._color_hex(color, layout))

    def _overset(self, overflow: richtext.Overflow, rich: richtext.RichText, x: float, y: float, w: float, h: float,
                 align: str) -> richtext.Fitted:
        """Text that does not fit: the lines that do, to draw in the frame; the frame is marked, and the
        lines cut off are shown, once the face is drawn (render/overset.py)."""
        self._oversets.append(Overset(overflow, rich, (x, y, w, h), align, self._turn))
        return overflow.kept

    def _field_of(self, frame: Frame, overflow: richtext.Overflow) -> tuple | None:
        """Where the words that did not fit are in the piece's own data: the field the frame's text
        reads that holds them (else the first it reads), at the first word cut off."""
        template = frame.templates.get("text")
        if template is None or template.is_constant:
            return None
        data = self._piece.data
        names = [name for name in fields_read(template.source) if isinstance(data.get(name), str)]
        if not names:
            return None
        first = overflow.cut_text.split()[:1]
        needle = first[0] if first else None
        holding = [name for name in names if needle and needle in data[name]]
        name = (holding or names)[0]
        return (FIELD, name, needle, overflow.kept_text.count(needle) if needle else 0)

    def _draw_fitted(self, fitted, rich, x, top, w, h, align, valign, color, icon_color) -> list[str]:
        """Draw fitted text; on a measuring canvas only its inline icons are loaded (to prove they
        load), since fitting has already found whatever drawing could."""
        if self.painter.measuring:
            for name in rich.icons:
                self.painter.draw(name, x, top, h, h)
            return []
        return richtext.draw(self.canvas, fitted, rich, x, top, w, h, align, valign, color, self.painter, icon_color)

    def _draw_track(self, frame, layout, piece, ctx, x, y, w, h, record):
        """Numbered spaces in a line or clockwise round the frame's edge (victory point tracks)."""
        props = frame.props
        labels = self._track_labels(frame, ctx)
        n = len(labels)
        if n == 0:
            return
        min_space = _length(props.get("min_space", "5mm"))
        cells = track_cells(props.get("path", "line"), props.get("direction", "right"), n, x, y, w, h, min_space)
        if isinstance(cells, str):
            raise RenderError("E-TRACK-ROOM", cells, help="make the frame larger, or the track shorter")
        c = self.canvas
        stroke = self.color(self._value(frame, "stroke", ctx) or "black", layout)
        c.saveState()
        c.setLineWidth(_length(props.get("stroke_width", "0.6pt")))
        if stroke is not None:
            c.setStrokeColor(stroke)
        for index, (label, (bx, by, bw, bh)) in enumerate(zip(labels, cells)):
            # `fill` may depend on the space: {{ 'gold' if space.index % 10 == 0 }}
            fill = self.color(self._value(frame, "fill", dict(ctx, space={"index": index, "label": label}))
                              or "none", layout)
            if fill is not None:
                c.setFillColor(fill)
            c.rect(bx, by, bw, bh, stroke=int(stroke is not None), fill=int(fill is not None))
        c.restoreState()
        size = _length(props.get("size", "9pt"))
        for label, (bx, by, bw, bh) in zip(labels, cells):
            pad = min(bw, bh) * 0.08
            label_size = max(min(size, bh * 0.6), self.game.min_type)
            self._label(label, props, layout, bx + pad, by + pad, bw - 2 * pad, bh - 2 * pad,
                        label_size, self.game.min_type, style=props.get("style", "bold"))
        record.update(spaces=n, labels=labels, cells=cells)  # placed by _placed

    def _track_labels(self, frame, ctx) -> list[str]:
        props = frame.props
        if "labels" in props:
            labels = props["labels"]
            if isinstance(labels, str):
                try:
                    labels = Expression(labels).evaluate(ctx)
                except TemplateFailure as exc:
                    raise RenderError(exc.code, f"'labels': {exc.message}") from None
            if not isinstance(labels, (list, tuple)):
                raise RenderError("E-TEMPLATE", "'labels' must give a list")
            return [str(label) for label in labels]
        start, stop = int(props.get("from", 1)), int(props.get("to", 0))
        if stop - start > 500:
            raise RenderError("E-TRACK-ROOM", f"a track of {stop - start + 1} spaces is too long")
        return [str(i) for i in range(start, stop + 1)]

    def _draw_table(self, frame, layout, piece, ctx, x, y, w, h, record):
        """A table built from data (render/table.py)."""
        draw_table(self, frame, layout, ctx, x, y, w, h, record)

    def _icon_name(self, frame, ctx, key: str) -> str:
        name = str(self._value(frame, key, ctx)).strip()
        if name not in self.icons:
            guess = self.icons.suggest(name)
            raise RenderError("E-UNKNOWN-ICON", f"unknown icon '{name}'",
                              help=f"did you mean '{guess}'?" if guess else
                              "put an SVG file of that name in the game's icons/ folder")
        return name

    def _draw_icon(self, frame, layout, card, ctx, x, y, w, h, record):
        name = self._icon_name(frame, ctx, "icon")
        self.painter.draw(name, x, y, w, h, self._color_hex(self._value(frame, "color", ctx), layout))
        record["icons"] = {name: 1}

    def _draw_icon_row(self, frame, layout, card, ctx, x, y, w, h, record):
        name = self._icon_name(frame, ctx, "icon")
        count = _count(self._value(frame, "count", ctx), "count")
        total = _count(self._value(frame, "total", ctx), "total") if "total" in frame.props else count
        empty = self._icon_name(frame, ctx, "empty_icon") if total > count and "empty_icon" in frame.props else None
        places = max(total, count)
        if places == 0:
            record["icons"] = {}
            return
        gap = _length(frame.props["gap"])
        size = min(h, (w - gap * (places - 1)) / places)
        if size <= 0:
            raise RenderError("E-ICON-ROW", f"{places} icons do not fit in {mm(w):.1f} mm")
        used = places * size + (places - 1) * gap
        align = frame.props["align"]
        cursor = x + (w - used if align == "right" else (w - used) / 2 if align == "center" else 0)
        hex_color = self._color_hex(self._value(frame, "color", ctx), layout)
        # The last `accent` of the counted icons take the accent colour (Iron Rain's red bombs).
        accent = min(count, _count(self._value(frame, "accent", ctx), "accent")) if "accent" in frame.props else 0
        accent_hex = self._color_hex(self._value(frame, "accent_color", ctx) or "red", layout) if accent else hex_color
        for i in range(places):
            icon = name if i < count else empty
            if icon is not None:
                color = accent_hex if count - accent <= i < count else hex_color
                self.painter.draw(icon, cursor, y + (h - size) / 2, size, size, color)
            cursor += size + gap
        icons = {name: count}
        if accent:
            record["accent"] = accent
        if empty and places > count:
            icons[empty] = icons.get(empty, 0) + places - count
        record["icons"] = icons

def _count(value: Any, key: str) -> int:
    try:
        n = int(str(value).strip() or 0)
    except ValueError:
        raise RenderError("E-TEMPLATE", f"'{key}' must be a whole number, got '{value}'") from None
    if not 0 <= n <= 100:
        raise RenderError("E-TEMPLATE", f"'{key}' must be between 0 and 100, got {n}")
    return n
