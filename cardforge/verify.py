"""Printed-output check: prove, card by card, that a built PDF shows what the data says.

`cardforge build` runs it on every PDF it has just written; `cardforge check --printed
OLD.pdf` runs it on an earlier build against the data as it is now.  For each card face (and
board, token, reference sheet) recorded in the PDF's manifest (`<pdf>` -> `<pdf
stem>.manifest.json`; trims in mm from the page's lower left) it checks:

* the text printed inside the piece's trim box is the text its *current* data gives when its
  layout's templates are evaluated again, frame by frame (where lines were broken does not
  matter), so an edited number on one card is named, with the words that differ;
* no glyph lies outside the trim box of its piece (nothing cut off);
* each frame draws the icons the data asks for (damage-track boxes = damage_spaces,
  difficulty stars, inline dice such as :d6-4:);
* each card is printed as many times as its quantity says;
* every font in the PDF is embedded.

Diagnostics point at the card field the differing frame is made from (card.pos('damage_spaces')).

The PDF is opened with pypdf (pure Python) to get at its objects; the page content is read
here by a small content-stream interpreter that follows the text and transformation matrices,
the clipping path (a piece is drawn clipped to its bleed box, which tells what belongs to it)
and form XObjects (the icons): all that reportlab's output uses.  It takes about 2 ms per
page of cards.  When a build checks what it has just written, the manifest was made
from the same data in the same run, so it stands for the data (the templates are not
evaluated twice); `check --printed` evaluates them again, since the data may have changed.
"""
from __future__ import annotations

import difflib
import json
import re
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import text as richtext
from .diagnostics import ContentError, Report, display_path
from .expressions import _env as _jinja_env, icon_names
from .layout import Frame, Layout
from .model import Game
from .templates import Expression, Template, TemplateFailure, truthy
from .units import MM

SECTIONS = ("cards", "tokens", "boards", "references")
TOL = 0.75  # points of slack when placing glyphs and icons in boxes


class PrintedUsageError(Exception):
    """The PDF or its game cannot be found: a usage error, not a content error."""


# -- what a face should show, from the current data ----------------------------------------

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


_field_cache: dict[str, list[str]] = {}
_PIECE_VARS = ("card", "board")


def template_fields(source: str) -> list[str]:
    """Fields of `card` / `board` a template reads, in order of appearance."""
    if source not in _field_cache:
        from jinja2 import nodes
        found: list[str] = []
        try:
            tree = _jinja_env.parse(source)
        except Exception:
            tree = None
        if tree is not None:
            for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
                if isinstance(node.node, nodes.Name) and node.node.name in _PIECE_VARS:
                    key = node.attr if isinstance(node, nodes.Getattr) else getattr(node.arg, "value", None)
                    if isinstance(key, str) and key not in found:
                        found.append(key)
        _field_cache[source] = found
    return _field_cache[source]


class FaceEvaluator:
    """Evaluates a layout's frames for one piece as the renderer would, without drawing."""

    def __init__(self, game: Game, fonts, icons):
        from .diagnostics import Report as _Report
        from .render import CardRenderer
        self.game, self.fonts, self.icons = game, fonts, icons
        # The renderer's own context (card, deck, game, tables, side, copy): one source of truth.
        self._renderer = CardRenderer(None, game, fonts, icons, _Report())
        self._rich: dict[tuple, tuple[list[str], dict[str, int]]] = {}
        self._fields_of: dict[int, list[str]] = {}  # id(frame) -> fields; frames live as long as their layout

    def context(self, piece, side: str, copy: int) -> dict[str, Any]:
        return self._renderer.context(piece, side, copy)

    @staticmethod
    def _value(frame: Frame, key: str, ctx: dict) -> Any:
        template = frame.templates.get(key)
        if template is None:
            return frame.props.get(key)
        return template.render(ctx)

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
        out = []
        for frame in layout.frames:
            info = FrameInfo(frame.name, frame.type, self._fields(frame), frame)
            try:
                if "when" in frame.props and not truthy(str(self._value(frame, "when", ctx))):
                    continue
                getattr(self, f"_{frame.type}", self._other)(frame, ctx, info, text)
            except TemplateFailure as exc:
                info.error = ("E-TEMPLATE", exc.message)
            except _CountError as exc:
                info.error = ("E-TEMPLATE", str(exc))
            out.append(info)
        return out

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
        rows = Expression(props["rows"]).evaluate(ctx)
        columns = props["columns"]
        templates = [Template(col["value"]) for col in columns]
        cells = [[col["header"] for col in columns]]
        for row in rows or []:
            row_ctx = dict(ctx, row=row)
            cells.append([str(t.render(row_ctx)) for t in templates])
        info.words = []
        font = props.get("font", "sans")
        for r, row in enumerate(cells):
            for cell in row:
                words, icons = self._words(cell, font, "bold" if r == 0 else props.get("style", "regular"), False)
                info.words += words
                for k, v in icons.items():
                    info.icons[k] = info.icons.get(k, 0) + v


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


# -- reading the PDF -------------------------------------------------------------------------

_NUM = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
# One token per operator together with the numbers and names written before it (the common
# case), or a string, a bracket, or a lone number or name (inside a TJ array). Lines of path
# construction ("x y m", "x1 y1 x2 y2 x3 y3 c", "h"), as reportlab writes them, are one token: a
# path only matters when it becomes a clipping path, and most are just filled or stroked.
_TOKEN = re.compile(rb"((?<=\n)(?:(?:[-+\d. ]+(?:m|l|c|v|y|re)|h)\r?\n)+)"
                    rb"|(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)"
                    rb"|([\[\]])"
                    rb"|((?:(?:/[^\s/\[\]()<>{}%]+|" + _NUM + rb")\s+)*)([A-Za-z'\"*]+[01]?)"
                    rb"|(" + _NUM + rb")|(/[^\s/\[\]()<>{}%]+)", re.S)


def _hex(token: bytes) -> bytes:
    digits = re.sub(rb"\s", b"", token[1:-1])
    return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())


_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f", b"(": b"(", b")": b")", b"\\": b"\\"}
_ESC_RE = re.compile(rb"\\([0-7]{1,3}|.|\n)", re.S)


def _literal(token: bytes) -> bytes:
    body = token[1:-1]
    if b"\\" not in body:
        return body

    def sub(m):
        esc = m.group(1)
        if esc[:1].isdigit():
            return bytes([int(esc, 8) & 0xFF])
        if esc == b"\n":
            return b""
        return _ESCAPES.get(esc, esc)
    return _ESC_RE.sub(sub, body)


def _mul(a, b):
    """Matrix product a x b of PDF matrices [a b c d e f]."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass
class Run:
    text: str
    x0: float
    y0: float
    x1: float
    size: float  # effective size in points


@dataclass
class Block:
    runs: list[Run]
    clip: tuple | None = None  # the clipping box it was drawn in (a piece's bleed box), None = the page


_NUMBER_START = frozenset(b"+-.0123456789")
_PATH_OPS = {b"m", b"l", b"c", b"v", b"y", b"re", b"h"}


class _Str(bytes):
    """A string operand (numbers stay as their bytes)."""


def _path_box(path: list[tuple]) -> tuple | None:
    """Bounding box, on the page, of the points of a path (runs of path construction)."""
    xs, ys = [], []
    for ctm, run in path:
        numbers: list[float] = []
        for word in run.split():
            if word[0] in _NUMBER_START:
                numbers.append(float(word))
                continue
            if word == b"re" and len(numbers) >= 4:
                x, y, w, h = numbers[-4:]
                points = [(x, y), (x + w, y + h)]
            else:
                points = list(zip(numbers[0::2], numbers[1::2]))
            for px, py in points:
                gx, gy = _apply(ctm, px, py)
                xs.append(gx)
                ys.append(gy)
            numbers = []
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


_PAINT_OPS = {b"n", b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"}


@dataclass
class Placed:
    """A form XObject drawn on the page (an icon) and its bounding box."""
    name: str
    x0: float
    y0: float
    x1: float
    y1: float
    clip: tuple | None = None

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


class _Font:
    """A simple (one byte per glyph) font of the PDF: its ToUnicode map and glyph widths."""

    def __init__(self, obj):
        self.map: dict[int, str] = {}
        self._table: dict[int, str] | None = None
        self._widths: list[float] = []
        self.first = int(obj.get("/FirstChar", 0))
        self.widths = [float(w) for w in obj.get("/Widths", [])]
        descriptor = obj.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else None
        self.missing = float(descriptor.get("/MissingWidth", 0)) if descriptor is not None else 0.0
        cmap = obj.get("/ToUnicode")
        if cmap is not None:
            self._cmap(cmap.get_object().get_data())

    def _cmap(self, data: bytes) -> None:
        for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
            for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
                self.map[int(src, 16)] = _utf16(dst)
        for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
            for lo, hi, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
                base = int(dst, 16)
                for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                    self.map[code] = chr(base + i)

    def decode(self, raw: bytes) -> tuple[str, float]:
        """The text of a string and its width in text space units (ems)."""
        if self._table is None:
            self._table = {code: char for code, char in self.map.items() if code < 256 and char != chr(code)}
            self._widths = [(self.widths[code - self.first] if 0 <= code - self.first < len(self.widths)
                             else self.missing) for code in range(256)]
        text = raw.decode("latin-1").translate(self._table) if self._table else raw.decode("latin-1")
        return text, sum(map(self._widths.__getitem__, raw)) / 1000.0


def _utf16(hexdigits: bytes) -> str:
    if not hexdigits:
        return ""
    try:
        return bytes.fromhex(hexdigits.decode()).decode("utf-16-be").replace("\x00", "")
    except (ValueError, UnicodeDecodeError):
        return ""


def _embedded(font) -> bool:
    """True when the font program is in the PDF (or the font draws its glyphs itself, Type 3)."""
    subtype = font.get("/Subtype")
    if subtype == "/Type3":
        return True
    if subtype == "/Type0":
        descendants = font.get("/DescendantFonts") or []
        return all(_embedded(d.get_object()) for d in descendants)
    descriptor = font.get("/FontDescriptor")
    if descriptor is None:
        return False
    descriptor = descriptor.get_object()
    return any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


_A85_TABLE = bytes((c - 33) % 256 for c in range(256))


def _a85(data: bytes) -> bytes:
    """ASCII85 decoding (Adobe framing), a few times faster than base64.a85decode."""
    data = b"".join(data.split())
    if data.startswith(b"<~"):
        data = data[2:]
    end = data.find(b"~>")
    if end >= 0:
        data = data[:end]
    data = data.replace(b"z", b"!!!!!")
    pad = -len(data) % 5
    digits = (data + b"u" * pad).translate(_A85_TABLE)
    if max(digits, default=0) > 84:
        raise ValueError("not ASCII85")
    d0, d1, d2, d3, d4 = (digits[i::5] for i in range(5))
    values = [(((a * 85 + b) * 85 + c) * 85 + d) * 85 + e for a, b, c, d, e in zip(d0, d1, d2, d3, d4)]
    out = struct.pack(f">{len(values)}I", *values)
    return out[:len(out) - pad] if pad else out


def _page_content(page) -> bytes | None:
    """The page's content stream, decoded; reportlab's ASCII85 + Flate streams take the fast path."""
    contents = page.get("/Contents")
    if contents is None:
        return None
    parts = contents.get_object()
    parts = [parts] if not isinstance(parts, list) else [p.get_object() for p in parts]
    out = []
    for stream in parts:
        filters = stream.get("/Filter")
        filters = [filters] if isinstance(filters, str) else list(filters or [])
        raw = getattr(stream, "_data", None)
        try:
            if raw is not None and filters == ["/ASCII85Decode", "/FlateDecode"] and "/DecodeParms" not in stream:
                out.append(zlib.decompress(_a85(raw)))
                continue
        except (ValueError, zlib.error, struct.error):
            pass
        out.append(stream.get_data())
    return b"\n".join(out)


class PageReader:
    """Interprets one page's content stream: text runs (by BT..ET block) and placed forms."""

    def __init__(self, page, fonts_seen: dict):
        self.page = page
        resources = page.get("/Resources")
        resources = resources.get_object() if resources is not None else {}
        self.fonts: dict[str, _Font] = {}
        self.font_objects: dict[str, Any] = {}
        font_dict = resources.get("/Font")
        if font_dict is not None:
            for name, ref in font_dict.get_object().items():
                obj = ref.get_object()
                key = getattr(ref, "idnum", None) or id(obj)
                if key not in fonts_seen:
                    fonts_seen[key] = (_Font(obj), obj)
                self.fonts[name[1:]] = fonts_seen[key][0]
                self.font_objects[name[1:]] = obj
        self.forms: dict[str, tuple] = {}
        xobjects = resources.get("/XObject")
        if xobjects is not None:
            for name, ref in xobjects.get_object().items():
                obj = ref.get_object()
                if obj.get("/Subtype") == "/Form":
                    bbox = [float(v) for v in obj.get("/BBox", [0, 0, 0, 0])]
                    matrix = tuple(float(v) for v in obj.get("/Matrix", IDENTITY))
                    self.forms[name[1:]] = (bbox, matrix, obj)
        self.blocks: list[Block] = []
        self.placed: list[Placed] = []

    def read(self) -> "PageReader":
        data = _page_content(self.page)
        if data is None:
            return self
        pending: list = []  # strings, arrays, lone numbers and names before an operator
        ctm = IDENTITY
        clip = None  # bounding box (x0, y0, x1, y1) of the clipping path; None = the whole page
        stack: list[tuple] = []
        font, size, leading, tc, tw, tz = None, 0.0, 0.0, 0.0, 0.0, 1.0
        tm = tlm = IDENTITY
        block: Block | None = None
        array: list | None = None
        path: list[tuple] = []  # (ctm, lines of path construction) of the path being built
        clip_pending = False
        for run, string, bracket, ops, op, number, name in _TOKEN.findall(data):
            if op:
                # An operator with the numbers and names written just before it.
                operands = pending + ops.split() if pending else ops.split()
                pending = []
                try:
                    if op in _PAINT_OPS:
                        if clip_pending and path:
                            box = _path_box(path)
                            if box is not None:
                                clip = box if clip is None else (max(clip[0], box[0]), max(clip[1], box[1]),
                                                                 min(clip[2], box[2]), min(clip[3], box[3]))
                        clip_pending = False
                        path = []
                    elif op == b"Tm":
                        tm = tlm = tuple(map(float, operands[-6:]))
                    elif op == b"Tj" or op == b"TJ" or op == b"'" or op == b'"':
                        if op == b"'" or op == b'"':
                            if op == b'"':
                                tw, tc = float(operands[-3]), float(operands[-2])
                            tlm = _mul((1, 0, 0, 1, 0, -leading), tlm)
                            tm = tlm
                        parts = operands[-1] if op == b"TJ" else [operands[-1]]
                        for part in parts if isinstance(parts, list) else [parts]:
                            if isinstance(part, _Str):
                                tm = self._show(part, font, size, tc, tw, tz, tm, ctm, block)
                            else:
                                tm = _mul((1, 0, 0, 1, -float(part) / 1000.0 * size * tz, 0), tm)
                    elif op == b"Tf":
                        font, size = operands[-2][1:].decode("latin-1"), float(operands[-1])
                    elif op == b"BT":
                        tm = tlm = IDENTITY
                        block = Block([], clip)
                    elif op == b"ET":
                        if block is not None:
                            self.blocks.append(block)
                        block = None
                    elif op == b"q":
                        stack.append((ctm, clip, font, size, leading, tc, tw, tz))
                    elif op == b"Q":
                        if stack:
                            ctm, clip, font, size, leading, tc, tw, tz = stack.pop()
                    elif op == b"cm":
                        ctm = _mul(tuple(map(float, operands[-6:])), ctm)
                        if ctm == IDENTITY:
                            ctm = IDENTITY  # the fast path of _show
                    elif op == b"W" or op == b"W*":
                        clip_pending = True
                    elif op in _PATH_OPS:  # path construction not on lines of its own
                        path.append((ctm, b" ".join(operands) + b" " + op))
                    elif op == b"TL":
                        leading = float(operands[-1])
                    elif op == b"Tc":
                        tc = float(operands[-1])
                    elif op == b"Tw":
                        tw = float(operands[-1])
                    elif op == b"Tz":
                        tz = float(operands[-1]) / 100.0
                    elif op == b"Td" or op == b"TD":
                        tx, ty = float(operands[-2]), float(operands[-1])
                        if op == b"TD":
                            leading = -ty
                        tlm = _mul((1, 0, 0, 1, tx, ty), tlm)
                        tm = tlm
                    elif op == b"T*":
                        tlm = _mul((1, 0, 0, 1, 0, -leading), tlm)
                        tm = tlm
                    elif op == b"Do":
                        form_name = operands[-1][1:].decode("latin-1")
                        form = self.forms.get(form_name)
                        if form is not None:
                            bbox, matrix, _ = form
                            m = _mul(matrix, ctm)
                            xs, ys = zip(*(_apply(m, x, y) for x, y in ((bbox[0], bbox[1]), (bbox[2], bbox[1]),
                                                                        (bbox[0], bbox[3]), (bbox[2], bbox[3]))))
                            self.placed.append(Placed(form_name, min(xs), min(ys), max(xs), max(ys), clip))
                except (IndexError, TypeError, ValueError, AttributeError):
                    pass  # a malformed operator: skip it, as a viewer would
            elif run:
                path.append((ctm, run))
            elif string:
                value = _Str(_literal(string) if string[0] == 40 else _hex(string))
                (pending if array is None else array).append(value)
            elif bracket:
                if bracket == b"[":
                    array = []
                else:
                    pending.append(array or [])
                    array = None
            else:
                (pending if array is None else array).append(number or name)
        return self

    def _show(self, raw: bytes, font, size, tc, tw, tz, tm, ctm, block):
        info = self.fonts.get(font) if font else None
        if info is None:
            text, width = raw.decode("latin-1"), 0.5 * len(raw)
        else:
            text, width = info.decode(raw)
        advance = (width * size + tc * len(raw) + tw * raw.count(b" ")) * tz
        m = tm if ctm is IDENTITY else _mul(tm, ctm)
        if block is not None and text:
            x0, y0 = m[4], m[5]
            block.runs.append(Run(text, x0, y0, x0 + advance * m[0], size * (m[2] * m[2] + m[3] * m[3]) ** 0.5))
        # The text matrix moves on by the advance: translate(advance, 0) x tm.
        return (tm[0], tm[1], tm[2], tm[3], tm[4] + advance * tm[0], tm[5] + advance * tm[1])


# -- the check ---------------------------------------------------------------------------------

def _squash(text: str) -> str:
    return "".join(text.split())


def _block_words(runs: list[Run]) -> list[str]:
    """The words of a block of text runs: runs that touch continue a word, a gap starts a new one."""
    text = ""
    prev = None
    for run in runs:
        touching = prev is not None and abs(run.y0 - prev.y0) < 0.2 * max(run.size, 1) \
            and abs(run.x0 - prev.x1) < 0.15 * max(run.size, 1)
        text += run.text if touching else " " + run.text
        prev = run
    return text.split()


_ICON_TOKEN = re.compile(r"(?<!\\):[a-z][a-z0-9-]*:")


def _has_text(markup: Any) -> bool:
    return bool(_squash(_ICON_TOKEN.sub("", str(markup or ""))))


def _blocks_of(frame: dict) -> int:
    """How many blocks of text a frame's record says it drew (one per text, label or table cell)."""
    kind = frame.get("type")
    if kind == "text":
        return 1 if _has_text(frame.get("text")) else 0
    if kind == "track":
        return sum(1 for label in frame.get("labels") or [] if _has_text(label))
    if kind == "table":
        cells = list(frame.get("header") or []) + [c for row in frame.get("rows") or [] for c in row]
        return sum(1 for cell in cells if _has_text(cell))
    return 0


def _in_order(items: list, frames: list[dict], capacity: list[int], fits) -> list[str]:
    """The frame that drew each item. Frames draw in their order and each drew as many items as
    its record says; an item lies in its frame's box. Overlapping frames are told apart by order."""
    boxes = [_pt(frame["box"]) for frame in frames]
    left = list(capacity)
    current = 0
    out = []
    for item in items:
        choice = next((i for i in range(current, len(frames)) if left[i] > 0 and fits(item, boxes[i])), None)
        if choice is None:
            choice = next((i for i in range(len(frames)) if fits(item, boxes[i])), None)
        if choice is None:
            out.append("(outside every frame)")
            continue
        current = choice
        left[choice] -= 1
        out.append(frames[choice]["name"])
    return out


def _inside(x: float, y: float, box, tol: float = TOL) -> bool:
    bx, by, bw, bh = box
    return bx - tol <= x <= bx + bw + tol and by - tol <= y <= by + bh + tol


def _pt(values) -> tuple:
    return tuple(float(v) * MM for v in values)


def _diff(printed: list[str], expected: list[str]) -> tuple[str, str | None]:
    """Where two word lists first differ, with a little context; and the first new word."""
    matcher = difflib.SequenceMatcher(a=printed, b=expected, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        before = printed[max(0, i1 - 3):i1]
        a = " ".join(before + printed[i1:i2]) or "(nothing)"
        b = " ".join(before + expected[j1:j2]) or "(nothing)"
        return f"printed '{_clip(a)}' where the data now gives '{_clip(b)}'", (expected[j1] if j2 > j1 else None)
    return (f"printed '{_clip(' '.join(printed))}', the data now gives '{_clip(' '.join(expected))}'", None)


def _clip(text: str, n: int = 90) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


def _icon_words(icons: dict[str, int]) -> str:
    return ", ".join(f"{'unrecognised' if name == '?' else name} x{n}" for name, n in sorted(icons.items()) if n) \
        or "none"


class Verifier:
    """Checks PDFs of one prepared game; what the data gives is computed once for all of them.

    With `fresh=True` (a build checking what it has just written) the manifest was written from
    this same data by this same process, so it stands for what the data gives: the PDF is proved
    against it and the templates are not evaluated a second time."""

    def __init__(self, prep, report: Report, fresh: bool = False):
        self.prep, self.report, self.fresh = prep, report, fresh
        self.game: Game = prep.game
        self.evaluator = FaceEvaluator(self.game, prep.fonts, prep.icons)
        self.cards = {card.id: card for card in self.game.cards()}
        self.boards = {board.id: board for board in self.game.boards}
        self._expected: dict[tuple, dict[str, FrameInfo]] = {}
        self._reported: set[tuple] = set()
        self._pdf = ""

    # -- what the data gives, frame by frame ------------------------------------------------

    def expected(self, piece, side: str, copy: int, layout: Layout, record: dict) -> dict[str, FrameInfo]:
        if self.fresh:
            return {frame["name"]: _recorded(frame, layout, self.prep.icons.__contains__)
                    for frame in record.get("frames", [])}
        per_copy = any("copy" in t.source for f in layout.frames for t in f.templates.values())
        key = (type(piece).__name__, piece.id, side, copy if per_copy else 0, layout.name)
        if key not in self._expected:
            frames = self.evaluator.frames(layout, piece, side, copy, text=True)
            self._expected[key] = {f.name: f for f in frames}
        return self._expected[key]

    def error(self, code: str, message: str, piece=None, fields: list[str] | None = None, help: str | None = None,
              once: tuple = (), find: str | None = None) -> None:
        key = (self._pdf, code) + (once or (message,))
        if key in self._reported:
            return
        self._reported.add(key)
        pos = None
        if piece is not None:
            from .rules import _piece_pos, refine
            pos = refine(_piece_pos(piece, fields or []), find)
        self.report.error(code, message, pos, help=help, card=getattr(piece, "id", None))

    # -- one PDF ------------------------------------------------------------------------------

    def verify(self, pdf: Path, manifest: dict | None = None, shown_as: Path | None = None) -> None:
        pdf = Path(pdf)
        name = self._pdf = display_path(shown_as or pdf, None)
        if manifest is None:
            mpath = pdf.with_suffix(".manifest.json")
            try:
                manifest = json.loads(mpath.read_text("utf-8"))
            except (OSError, ValueError) as exc:
                self.error("E-PRINTED-MANIFEST", f"{name}: cannot read its manifest {mpath.name}: {exc}",
                           help="the manifest is written next to the PDF by `cardforge build`; rebuild")
                return
        if manifest.get("game") not in (None, self.game.id):
            self.error("E-PRINTED-MANIFEST", f"{name} is a build of game '{manifest.get('game')}', "
                       f"not of '{self.game.id}'", help="name the game folder it was built from")
            return
        try:
            from pypdf import PdfReader
            from pypdf.errors import PdfReadError
        except ImportError:  # pragma: no cover - pypdf is a dependency
            self.error("E-PRINTED-PDF", "pypdf is not installed, so printed PDFs cannot be read",
                       help="pip install pypdf")
            return
        try:
            pages = list(PdfReader(str(pdf)).pages)
        except (OSError, PdfReadError, ValueError) as exc:
            self.error("E-PRINTED-PDF", f"{name}: cannot read the PDF: {exc}")
            return
        if len(pages) != len(manifest.get("pages", [])):
            self.error("E-PRINTED-MANIFEST", f"{name} has {len(pages)} pages but its manifest lists "
                       f"{len(manifest.get('pages', []))}",
                       help="the PDF and its manifest come from different builds; rebuild")
            return
        records: dict[int, list[tuple[str, dict]]] = {}
        for section in SECTIONS:
            for record in manifest.get(section) or []:
                records.setdefault(int(record.get("page", 0)), []).append((section, record))
        fonts_seen: dict = {}
        counts: dict[tuple, int] = {}
        sections_seen: set[str] = set()
        for number, page in enumerate(pages, start=1):
            reader = PageReader(page, fonts_seen)
            self._fonts(name, number, reader)
            if number in records:
                reader.read()
                self._page(name, number, reader, records[number], counts, sections_seen)
        self._quantities(name, counts, sections_seen)

    def _fonts(self, name: str, number: int, reader: "PageReader") -> None:
        fonts = [(font_name, obj, "") for font_name, obj in reader.font_objects.items()]
        for form_name, (_, _, form) in reader.forms.items():
            resources = form.get("/Resources")
            font_dict = resources.get_object().get("/Font") if resources is not None else None
            for font_name, ref in (font_dict.get_object().items() if font_dict is not None else []):
                fonts.append((font_name, ref.get_object(), f" (in {form_name})"))
        for font_name, obj, where in fonts:
            if not _embedded(obj):
                base = str(obj.get("/BaseFont", font_name)).lstrip("/")
                self.error("E-PRINTED-FONT", f"{name} page {number}: font '{base}'{where} is not embedded",
                           once=("font", base), help="cardforge embeds its TrueType fonts; a font that is not "
                           "embedded prints differently on every printer")

    def _page(self, name, number, reader: "PageReader", entries, counts, sections_seen) -> None:
        faces = []
        for section, record in entries:
            trim = _pt(record["trim"])
            bleed = float(record.get("bleed", 0)) * MM
            box = (trim[0] - bleed, trim[1] - bleed, trim[2] + 2 * bleed, trim[3] + 2 * bleed)
            faces.append((section, record, trim, box, [], []))
        # A piece is drawn clipped to its bleed box: what was drawn inside that clip belongs to it.
        # (Page furniture, crop marks and a tiled board's assembly map are drawn outside any clip.)
        for block in reader.blocks:
            face = _owner(block.clip, faces)
            if face is not None and block.runs:
                face[4].append(block)
        for placed in reader.placed:
            face = _owner(placed.clip, faces)
            if face is not None:
                face[5].append(placed)
        forms = _form_names(faces)
        for section, record, trim, _, blocks, placed in faces:
            sections_seen.add(section)
            self._face(name, number, section, record, trim, blocks, placed, forms, counts)

    def _face(self, name, number, section, record, trim, blocks, placed, forms, counts) -> None:
        side, copy = record.get("side", "front"), int(record.get("copy", 1))
        is_board = "board" in record
        piece_id = record.get("board") if is_board else record.get("card")
        what = "board" if is_board else "card"
        piece = self.boards.get(piece_id) if is_board else self.cards.get(piece_id)
        if piece is None:
            self.error("E-PRINTED-CARD", f"{name}: {what} '{piece_id}' is printed (page {number}) but is no longer "
                       "in the data", once=("gone", piece_id), help="rebuild to drop it, or restore it in the data")
            return
        if not is_board:
            counts[(section, piece_id, side)] = counts.get((section, piece_id, side), 0) + 1
        layout = self.prep.boards.get(piece_id) if is_board else self.prep.faces.get((piece_id, side))
        if layout is None:
            self.error("E-PRINTED-CARD", f"{name}: {what} '{piece_id}' has a {side} in the PDF but none in the "
                       "data", piece, once=("noside", piece_id, side), help="rebuild the PDF")
            return
        expected = self.expected(piece, side, copy, layout, record)
        label = f"{what} '{piece_id}' ({side}{', copy ' + str(copy) if copy > 1 else ''})"
        self._clipped(name, number, label, piece, side, trim, blocks)
        self._texts(name, number, label, piece, side, record, blocks, expected)
        self._icons(name, number, label, piece, side, record, placed, forms, expected)

    def _clipped(self, name, number, label, piece, side, trim, blocks) -> None:
        """Nothing cut off: every glyph lies inside the trim box of its piece."""
        tx, ty, tw, th = trim
        for block in blocks:
            for run in block.runs:
                top, bottom = run.y0 + 0.72 * run.size, run.y0 - 0.22 * run.size
                if run.x0 < tx - 0.1 or run.x1 > tx + tw + 0.1 or bottom < ty - 0.1 or top > ty + th + 0.1:
                    self.error("E-PRINTED-CLIP", f"{name} page {number}: {label}: '{_clip(run.text.strip(), 40)}' "
                               "reaches outside the trim box and is cut off", piece,
                               once=("clip", piece.id, side, run.text),
                               help="move the frame inside the piece, or shorten the text")

    def _texts(self, name, number, label, piece, side, record, blocks, expected) -> None:
        """The words printed in each frame are the words the data gives."""
        frames = [f for f in record.get("frames", []) if f.get("type") in ("text", "track", "table")]
        order = [f["name"] for f in frames]
        printed: dict[str, list[str]] = {}
        for block, frame_name in zip(blocks, _in_order(blocks, frames, [_blocks_of(f) for f in frames],
                                                        lambda b, box: all(_inside(r.x0, r.y0, box) for r in b.runs))):
            printed.setdefault(frame_name, []).extend(_block_words(block.runs))
        if not self.fresh:  # the manifest must describe this PDF, or its frame names mean nothing
            for frame in frames:
                recorded = frame.get("text")
                shown = printed.get(frame["name"], [])
                if frame.get("type") == "text" and recorded is not None \
                        and _squash(_ICON_TOKEN.sub("", recorded)) != _squash("".join(shown)):
                    self.error("E-PRINTED-MANIFEST", f"{name} page {number}: {label}, frame '{frame['name']}': the "
                               f"PDF shows '{_clip(' '.join(shown))}' but its manifest says '{_clip(recorded)}'",
                               piece, once=("manifest", piece.id, side, frame["name"]),
                               help="the PDF and its manifest come from different builds; rebuild")
        names = set(printed) | {n for n, info in expected.items() if info.words}
        for frame_name in sorted(names, key=lambda n: order.index(n) if n in order else len(order)):
            shown = printed.get(frame_name, [])
            info = expected.get(frame_name)
            want = (info.words or []) if info is not None else []
            if _squash("".join(shown)) == _squash("".join(want)):
                continue
            find = None
            if info is not None and info.error is not None:
                detail = f"the data now fails: {info.error[1]}"
            elif info is None:
                detail = (f"printed '{_clip(' '.join(shown))}' outside every frame" if frame_name == _NOWHERE else
                          f"printed '{_clip(' '.join(shown))}', but the data no longer draws this frame")
            else:
                detail, find = _diff(shown, want)
            self.error("E-PRINTED-TEXT", f"{name}: {label}, frame '{frame_name}': {detail}", piece,
                       _fields_of(info), once=("text", piece.id, side, frame_name),
                       find=find, help="the data changed since this PDF was built: rebuild it (or undo the change)")

    def _icons(self, name, number, label, piece, side, record, placed, forms, expected) -> None:
        """Each frame draws the icons (damage boxes, stars, inline dice) the data asks for.

        The PDF gives how many icons each frame drew, and which ones where a form is known to be a
        given icon; the manifest names them all. Where the two agree, the manifest's names are what
        was printed, and they are compared with the names the data gives now."""
        icon_frames = [f for f in record.get("frames", []) if f.get("icons") is not None]
        order = [f["name"] for f in icon_frames]
        recorded = {f["name"]: {k: v for k, v in f["icons"].items() if v} for f in icon_frames}
        drawn: dict[str, list[Placed]] = {}
        owners = _in_order(placed, icon_frames, [sum(f["icons"].values()) for f in icon_frames],
                           lambda p, box: _inside(*p.centre, box))
        for p, frame_name in zip(placed, owners):
            drawn.setdefault(frame_name, []).append(p)
        names = set(drawn) | set(recorded) | {n for n, info in expected.items() if info.icons}
        for frame_name in sorted(names, key=lambda n: order.index(n) if n in order else len(order)):
            got = drawn.get(frame_name, [])
            by_name: dict[str, int] = {}
            for p in got:
                icon = forms.get(p.name, "?")
                by_name[icon] = by_name.get(icon, 0) + 1
            known = {k: v for k, v in by_name.items() if k != "?"}
            said = recorded.get(frame_name, {})
            agrees = len(got) == sum(said.values()) and all(said.get(k, 0) >= v for k, v in known.items())
            shown = said if agrees else by_name
            info = expected.get(frame_name)
            want = {k: v for k, v in ((info.icons if info is not None else {}) or {}).items() if v}
            if not agrees and not self.fresh:
                self.error("E-PRINTED-MANIFEST", f"{name} page {number}: {label}, frame '{frame_name}': the PDF "
                           f"draws {len(got)} icons ({_icon_words(by_name)}) but its manifest says "
                           f"{sum(said.values())} ({_icon_words(said)})", piece,
                           once=("manifest-icons", piece.id, side, frame_name),
                           help="the PDF and its manifest come from different builds; rebuild")
            if shown == want or (len(got) == sum(want.values()) and "?" in shown
                                 and all(want.get(k, 0) >= v for k, v in known.items())):
                continue
            self.error("E-PRINTED-ICONS", f"{name}: {label}, frame '{frame_name}': the PDF shows {len(got)} "
                       f"icon{'s' if len(got) != 1 else ''} ({_icon_words(shown)}), the data now gives "
                       f"{sum(want.values())} ({_icon_words(want)})", piece, _fields_of(info),
                       once=("icons", piece.id, side, frame_name),
                       help="the data changed since this PDF was built: rebuild it (or undo the change)")

    def _quantities(self, name: str, counts: dict, sections_seen: set[str]) -> None:
        """Every card is printed as many times as its quantity says (in the sections this PDF holds)."""
        for deck in self.game.decks:
            if deck.component not in sections_seen:
                continue
            for card in deck.cards:
                for side in ("front", "back") if card.back else ("front",):
                    got = counts.get((deck.component, card.id, side), 0)
                    if got == card.quantity:
                        continue
                    what = (f"is not in the PDF, but the data has {card.quantity} of it" if got == 0 else
                            f"is printed {got} time{'s' if got != 1 else ''}, but its quantity is now "
                            f"{card.quantity}")
                    self.error("E-PRINTED-CARDS", f"{name}: card '{card.id}' {what}", card, ["quantity"],
                               once=("qty", card.id), help="rebuild the PDF")


_NOWHERE = "(outside every frame)"


def _fields_of(info: FrameInfo | None) -> list[str]:
    if info is None:
        return []
    if not info.fields and info.frame is not None:
        info.fields = FaceEvaluator._fields_static(info.frame)
    return info.fields


def _owner(clip, faces):
    """The face whose bleed box holds a clipping box (what was drawn clipped to it is the face's)."""
    if clip is None:
        return None
    for face in faces:
        bx, by, bw, bh = face[3]
        if clip[0] >= bx - 1 and clip[1] >= by - 1 and clip[2] <= bx + bw + 1 and clip[3] <= by + bh + 1:
            return face
    return None


def _form_names(faces) -> dict[str, str]:
    """Form XObject -> icon name, learned from frames that draw a single kind of icon."""
    names: dict[str, set[str]] = {}
    for _, record, _, _, _, placed in faces:
        for frame in record.get("frames", []):
            icons = {k: v for k, v in (frame.get("icons") or {}).items() if v}
            if len(icons) != 1:
                continue
            icon = next(iter(icons))
            box = _pt(frame["box"])
            for p in placed:
                if _inside(*p.centre, box):
                    names.setdefault(p.name, set()).add(icon)
    return {form: next(iter(icons)) for form, icons in names.items() if len(icons) == 1}


def _recorded(frame: dict, layout: Layout, is_icon) -> FrameInfo:
    """What a manifest's frame record says was drawn, as a FrameInfo."""
    layout_frame = next((f for f in layout.frames if f.name == frame["name"]), None)
    info = FrameInfo(frame["name"], frame.get("type", ""), [], layout_frame)  # fields: found when needed
    kind = frame.get("type")
    if kind == "text":
        info.words = _ICON_TOKEN.sub(" ", frame.get("text") or "").split()
    elif kind == "track":  # labels and cells are recorded as markup
        info.words = [w for label in frame.get("labels") or [] for w in plain_words(str(label), is_icon)[0]]
    elif kind == "table":
        cells = list(frame.get("header") or []) + [c for row in frame.get("rows") or [] for c in row]
        info.words = [w for cell in cells for w in plain_words(str(cell), is_icon)[0]]
    info.icons = {k: v for k, v in (frame.get("icons") or {}).items() if v}
    return info


def verify_outputs(prep, outputs, report: Report) -> None:
    """Check every PDF a build has just written (the paths may include the manifests)."""
    verifier = Verifier(prep, report, fresh=True)
    for path in outputs:
        if Path(path).suffix == ".pdf":
            verifier.verify(Path(path))


def find_game(pdf: Path, games: list[Path]) -> tuple[Path, dict | None]:
    """The game folder a printed PDF belongs to: one of `games`, or content/<game id>."""
    manifest_path = pdf.with_suffix(".manifest.json")
    manifest = None
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
    except (OSError, ValueError):
        pass
    game_id = manifest.get("game") if isinstance(manifest, dict) else None
    if len(games) == 1:
        return games[0], manifest
    for game in games:
        if game.resolve().name == game_id:
            return game, manifest
    if game_id:
        for base in (Path("content"), pdf.resolve().parent.parent.parent / "content"):
            if (base / game_id / "game.yaml").is_file():
                return base / game_id, manifest
    raise PrintedUsageError(f"cannot tell which game {pdf} was built from; name its folder: "
                            f"cardforge check GAME_DIR --printed {pdf}")


def check_printed(pdfs: list[Path], games: list[Path], layouts_dir: Path | None, report: Report) -> None:
    """`cardforge check --printed PDF...`: the data as it is now against earlier builds."""
    from .build import prepare
    prepared: dict[Path, Any] = {}
    for pdf in map(Path, pdfs):
        if not pdf.is_file():
            raise PrintedUsageError(f"{pdf}: no such PDF")
        game_dir, manifest = find_game(pdf, games)
        if manifest is None:
            report.error("E-PRINTED-MANIFEST", f"{display_path(pdf, None)}: its manifest "
                         f"{pdf.with_suffix('.manifest.json').name} is missing or unreadable", None,
                         help="`cardforge build` writes it next to the PDF; check a PDF together with its manifest")
            continue
        key = Path(game_dir).resolve()
        if key not in prepared:
            try:
                prepared[key] = Verifier(prepare(game_dir, report, layouts_dir), report)
            except ContentError:
                prepared[key] = None
                report.error("E-PRINTED-DATA", f"the data of {display_path(Path(game_dir), None)} has errors, so "
                             "printed PDFs cannot be compared with it", None, help="fix the errors above first")
        if prepared[key] is not None:
            prepared[key].verify(pdf, manifest)
