"""What a face should show, from the current data: a layout's frames evaluated for one piece as
the renderer would evaluate them, without drawing.  The rules stage (asset checks) and the
printed-output verifier both use it."""
from __future__ import annotations

from functools import partial
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report, display_path
from ..frontend.model import Game
from ..layout import text as richtext
from ..layout.text import icon_names
from ..layout.layouts import Frame, Layout
from ..layout.templates import Expression, Template, TemplateFailure, fields_read, truthy
from ..layout.repeat import placed
from .face import CardRenderer, rendered
from .facecache import face_memo
from .table import table_texts


@dataclass
class FrameInfo:
    name: str
    type: str
    fields: list[str]  # card (or board) fields its templates read, text and counts first
    frame: Frame | None
    words: list[str] | None = None  # printed words (text frames, track labels, table cells)
    icons: dict[str, int] = field(default_factory=dict)  # icons the frame draws
    icon_names: list[str] = field(default_factory=list)  # names of icon / icon_row frames (unchecked)
    symbols: list[str] = field(default_factory=list)  # :name: tokens in text
    image: str | None = None
    error: tuple[str, str] | None = None

    @property
    def source(self) -> str:
        """Where the frame is defined (layout file:line), for messages."""
        return f"{display_path(self.frame.layout_file, None)}:{self.frame.position.line}"


def template_fields(source: str) -> list[str]:
    """Fields of `card` / `board` a template reads, in order of appearance (layout/templates.py)."""
    return fields_read(source)


class FaceEvaluator:
    """Evaluates a layout's frames for one piece as the renderer would, without drawing."""

    def __init__(self, game: Game, fonts, icons):
        self.game, self.fonts, self.icons = game, fonts, icons
        # The renderer's own context (card, deck, game, tables, side, copy): one source of truth.
        self._renderer = CardRenderer(None, game, fonts, icons, Report())
        self._rich: dict[tuple, tuple[list[str], dict[str, int]]] = {}
        self._fields_of: dict[int, list[str]] = {}  # id(frame) -> fields; frames live as long as their layout
        self._piece, self._face_ctx = None, None  # the face being evaluated, and its context

    def context(self, piece, side: str, copy: int) -> dict[str, Any]:
        return self._renderer.context(piece, side, copy)

    def _value(self, frame: Frame, key: str, ctx: dict) -> Any:
        template = frame.templates.get(key)
        if template is None or template.is_constant:  # the renderer's literal: translated by a string table
            return self._renderer.literal(frame, key, template)
        return rendered(self._piece, template, ctx, self._face_ctx)

    def _words(self, markup: str, font: str, style: str, uppercase: bool) -> tuple[list[str], dict[str, int]]:
        """The words a text frame prints (icons left out) and its inline icons.

        Tokenized exactly as text.parse does, but without measuring: only the characters matter."""
        key = (markup, uppercase)
        cached = self._rich.get(key)
        if cached is None:
            if self.fonts.family(font) is None:
                raise TemplateFailure(f"unknown font '{font}'")
            cached = self._rich[key] = plain_words(markup, self.icons.__contains__, uppercase)
        return list(cached[0]), dict(cached[1])

    def frames(self, layout: Layout, piece, side: str, copy: int, text: bool = True) -> list[FrameInfo]:
        ctx = self.context(piece, side, copy)
        self._piece, self._face_ctx = piece, ctx
        out = []
        for frame, frame_ctx in placed(layout.frames, ctx, self._holds, (TemplateFailure,),
                                       partial(self._repeat_failed, out)):
            info = FrameInfo(frame.name, frame.type, self._fields(frame), frame)
            try:
                if "when" in frame.props and not truthy(str(self._value(frame, "when", frame_ctx))):
                    continue
                getattr(self, f"_{frame.type}", self._other)(frame, frame_ctx, info, text)
            except TemplateFailure as exc:
                info.error = (exc.code, exc.message)
            except _CountError as exc:
                info.error = ("E-TEMPLATE", str(exc))
            out.append(info)
        return out

    def named(self, layout: Layout, piece, side: str) -> list[FrameInfo]:
        """What each frame of a face (copy 1) names, without its words: the icons, :symbols: and image
        the asset check resolves.  Kept in the disk cache between checks (render/facecache.py)."""
        memo = face_memo(self.game, self.fonts, self.icons)
        key = memo.key("face-assets", layout, piece, side, 1)
        infos = _stored_infos(memo.get("face-assets", key))
        if infos is None:
            infos = self.frames(layout, piece, side, 1, text=False)
            # Only frames that name something or failed: the rest give the asset check nothing to do.
            memo.put("face-assets", key, [[i.name, i.type, i.fields, i.icon_names, i.symbols, i.image, i.error]
                                          for i in infos if i.icon_names or i.symbols or i.image or i.error])
        return infos

    def remember(self) -> None:
        """Store what `named` evaluated, for the next check."""
        face_memo(self.game, self.fonts, self.icons).flush("face-assets")

    def _holds(self, frame: Frame, ctx: dict) -> bool:
        return truthy(str(self._value(frame, "when", ctx)))

    def _repeat_failed(self, out: list, frame: Frame, exc: Exception) -> None:
        info = FrameInfo(frame.name, frame.type, self._fields(frame), frame)
        info.error = ("E-REPEAT", getattr(exc, "message", None) or str(exc))
        out.append(info)

    def _fields(self, frame: Frame) -> list[str]:
        cached = self._fields_of.get(id(frame))
        if cached is None:
            cached = self._fields_of[id(frame)] = self._fields_static(frame)
        return cached

    @staticmethod
    def _fields_static(frame: Frame) -> list[str]:
        fields: list[str] = []
        for key in ("text", "count", "total", "icon", "src", "rows", "labels", "when"):
            source = frame.props.get(key)
            if isinstance(source, str):
                for name in template_fields(source if key not in ("rows", "labels") else "{{ " + source + " }}"):
                    if name not in fields:
                        fields.append(name)
        return fields

    def _text(self, frame, ctx, info, text):
        markup = str(self._value(frame, "text", ctx))
        info.symbols = icon_names(markup)
        if text:
            props = frame.props
            info.words, info.icons = self._words(markup, props["font"], props["style"], bool(props.get("uppercase")))

    _field = _text  # a write-in field prints its label as a text frame does

    def _icon(self, frame, ctx, info, text):
        name = str(self._value(frame, "icon", ctx)).strip()
        info.icon_names = [name]
        info.icons = {name: 1}

    def _icon_row(self, frame, ctx, info, text):
        name = str(self._value(frame, "icon", ctx)).strip()
        count = _count(self._value(frame, "count", ctx), "count")
        total = _count(self._value(frame, "total", ctx), "total") if "total" in frame.props else count
        info.icon_names = [name]
        icons = {name: count} if max(total, count) else {}
        if total > count and "empty_icon" in frame.props:
            empty = str(self._value(frame, "empty_icon", ctx)).strip()
            info.icon_names.append(empty)
            icons[empty] = icons.get(empty, 0) + total - count
        info.icons = {k: v for k, v in icons.items() if v}

    def _image(self, frame, ctx, info, text):
        info.image = str(self._value(frame, "src", ctx)).strip()

    def _shape(self, frame, ctx, info, text):
        pass

    def _other(self, frame, ctx, info, text):
        pass

    def _track(self, frame, ctx, info, text):
        if not text:
            return
        props = frame.props
        if "labels" in props:
            labels = props["labels"]
            if isinstance(labels, str):
                labels = Expression(labels).evaluate(ctx)
            labels = [str(label) for label in labels or []]
        else:
            labels = [str(i) for i in range(int(props.get("from", 1)), int(props.get("to", 0)) + 1)]
        info.words = []
        for label in labels:
            words, icons = self._words(label, props.get("font", "sans"), props.get("style", "bold"), False)
            info.words += words
            for k, v in icons.items():
                info.icons[k] = info.icons.get(k, 0) + v

    def _table(self, frame, ctx, info, text):
        if not text:
            return
        props = frame.props
        header_texts, cells, _, chunks = table_texts(props, ctx)
        info.words = []
        font = props.get("font", "sans")
        row_header = bool(props.get("row_header"))
        styled = [(cell, "bold") for cell in header_texts]
        styled += [(cell, "bold" if row_header and col == 0 else props.get("style", "regular"))
                   for chunk in chunks for row in chunk for col, cell in enumerate(row)]
        for cell, style in styled:
            words, icons = self._words(cell, font, style, False)
            info.words += words
            for k, v in icons.items():
                info.icons[k] = info.icons.get(k, 0) + v


def _stored_infos(stored: Any) -> list[FrameInfo] | None:
    """FaceEvaluator.named's stored result (without the frames themselves: the asset check names
    them); None for an entry that is not one (damaged): evaluated afresh."""
    if type(stored) is not list:
        return None
    infos = []
    for item in stored:
        if type(item) is not list or len(item) != 7:
            return None
        name, kind, fields, icons, symbols, image, error = item
        if not (type(fields) is type(icons) is type(symbols) is list and type(image) in (str, type(None))
                and all(type(text) is str for text in fields + icons + symbols)
                and (error is None or type(error) is list and len(error) == 2)):
            return None
        infos.append(FrameInfo(name, kind, fields, None, icon_names=icons, symbols=symbols, image=image,
                               error=None if error is None else tuple(error)))
    return infos


def plain_words(markup: str, is_icon, uppercase: bool = False) -> tuple[list[str], dict[str, int]]:
    """Rich text (see text.py) as the words it prints, without icons, and the icons it draws."""
    words: list[str] = []
    icons: dict[str, int] = {}
    current: list[str] = []
    for token in richtext.TOKEN_RE.findall(markup.strip("\n")):
        if token == "\n" or token[0] in " \t":
            if current:
                words.append("".join(current))
                current = []
        elif token == "**" or token == "*":
            continue
        elif token.startswith("\\"):
            current.append(token[1])
        elif len(token) > 2 and token[0] == ":" and token[-1] == ":" and is_icon(token[1:-1]):
            icons[token[1:-1]] = icons.get(token[1:-1], 0) + 1
        else:
            current.append(token.upper() if uppercase else token)
    if current:
        words.append("".join(current))
    return [w for w in words if w], icons


class _CountError(Exception):
    pass


def _count(value: Any, key: str) -> int:
    try:
        n = int(str(value).strip() or 0)
    except ValueError:
        raise _CountError(f"'{key}' must be a whole number, got '{value}'") from None
    if not 0 <= n <= 100:
        raise _CountError(f"'{key}' must be between 0 and 100, got {n}")
    return n
