"""Reading a PDF page back: a small content-stream interpreter that follows the text and
transformation matrices, the clipping path and form XObjects (the icons): all that reportlab's
output uses."""
from __future__ import annotations

import re
import struct
import zlib
from typing import Any

from ..layout.icons import PICTURE_FORM
from .drawn import IDENTITY, Block, Placed, Run, _apply, _mul
from .pdftokens import _NUM, _TOKEN, _Str, _a85, _hex, _literal

PICTURES = f"FormXob.{PICTURE_FORM}"  # reportlab's name of a picture's form XObject (layout/icons.py)


_NUMBER_START = frozenset(b"+-.0123456789")
_PATH_OPS = {b"m", b"l", b"c", b"v", b"y", b"re", b"h"}


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
# Operators that change nothing the reader follows (colours, line style, rendering mode): the
# commonest ones, answered before the other tests.
_IGNORED_OPS = {b"rg", b"g", b"k", b"w", b"J", b"j", b"M", b"d", b"G", b"cs", b"CS", b"sc", b"SC",
                b"scn", b"SCN", b"gs", b"ri", b"i", b"Tr", b"Ts"}
_STROKE_OPS = {b"S", b"s", b"B", b"B*", b"b", b"b*"}


WORDS_KEPT = 20_000  # words' widths remembered per font (a game's vocabulary)


class _WordWidths(dict):
    """The width of each word (bytes without a space) met so far, in one font's glyph widths."""

    def __init__(self, widths: list[float]):
        super().__init__()
        self.widths = widths

    def __missing__(self, word: bytes) -> float:
        width = self[word] = sum(map(self.widths.__getitem__, word))
        return width


class _Font:
    """A simple (one byte per glyph) font of the PDF: its ToUnicode map and glyph widths."""

    def __init__(self, obj):
        self.map: dict[int, str] = {}
        self._table: dict[int, str] | None = None
        self._widths: list[float] = []
        self._latin: tuple[bytes, bytes] | None = None  # bytes.translate's table and the codes it deletes
        self._words: _WordWidths | None = None
        self._space = 0.0
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
            self._prepare()
        if self._latin is not None:
            text = raw.translate(*self._latin).decode("latin-1")
        else:
            text = raw.decode("latin-1").translate(self._table) if self._table else raw.decode("latin-1")
        words = self._words
        if words is not None:  # by the word: a card's text says the same words again and again
            if len(words) > WORDS_KEPT:
                words.clear()
            return text, (sum(map(words.__getitem__, raw.split(b" "))) + self._space * raw.count(b" ")) / 1000.0
        return text, sum(map(self._widths.__getitem__, raw)) / 1000.0

    def _prepare(self) -> None:
        self._table = {code: char for code, char in self.map.items() if code < 256 and char != chr(code)}
        self._widths = [(self.widths[code - self.first] if 0 <= code - self.first < len(self.widths)
                         else self.missing) for code in range(256)]
        # Where every code stands for one character of Latin-1 or none, the text is one bytes.translate.
        chars = [self._table.get(code, chr(code)) for code in range(256)]
        if all(len(char) <= 1 and (not char or ord(char) < 256) for char in chars):
            self._latin = (bytes(ord(char) if char else 0 for char in chars),
                           bytes(code for code, char in enumerate(chars) if not char))
        # Whole widths (as reportlab writes them) add up exactly in any order: a string's width
        # is then the sum of its words' widths, each summed once.
        if all(width.is_integer() and abs(width) < 2 ** 40 for width in self._widths):
            self._words = _WordWidths(self._widths)
            self._space = self._widths[32]


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


def _page_content(page) -> bytes | None:
    """The page's content stream, decoded; reportlab's Flate (and ASCII85 + Flate) streams take the fast path."""
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
            if raw is not None and "/DecodeParms" not in stream:
                # Decoded here rather than by pypdf, which would keep the decoded copy of every
                # page read (tens of megabytes for 10,000 cards).
                if filters == ["/FlateDecode"]:
                    out.append(zlib.decompress(raw))
                    continue
                if filters == ["/ASCII85Decode", "/FlateDecode"]:
                    out.append(zlib.decompress(_a85(raw)))
                    continue
        except (ValueError, zlib.error, struct.error):
            pass
        out.append(stream.get_data())
    return b"\n".join(out)


# Where a face begins, as render/face.py draws it: saved state, moved to its place (then its
# clip, frames and the Q that ends it).  Only ever preceded by a line break in reportlab's output.
_FACE_START = re.compile(rb"\nq\n1 0 0 1 (" + _NUM + rb") (" + _NUM + rb") cm\n")


class _State:
    """Where the interpreter stands in a content stream: graphics and text state, and what an
    operator in progress has gathered."""
    __slots__ = ("pending", "ctm", "clip", "stack", "font", "size", "leading", "tc", "tw", "tz", "tm", "tlm",
                 "block", "array", "path", "clip_pending", "stroke", "unclean")

    def __init__(self):
        self.pending: list = []  # strings, arrays, lone numbers and names before an operator
        self.ctm = IDENTITY
        self.clip = None  # bounding box (x0, y0, x1, y1) of the clipping path; None = the whole page
        self.stack: list[tuple] = []
        self.font, self.size, self.leading, self.tc, self.tw, self.tz = None, 0.0, 0.0, 0.0, 0.0, 1.0
        self.tm = self.tlm = IDENTITY
        self.block: Block | None = None
        self.array: list | None = None
        self.path: list[tuple] = []  # (ctm, lines of path construction) of the path being built
        self.clip_pending = False
        self.stroke: tuple = (0.0, 0.0, 0.0)
        self.unclean = False  # a string held a raw line break


class _Drawn:
    """What one face's operators (or its opening) drew, read at the origin, to be moved where the
    face is placed."""
    __slots__ = ("blocks", "placed", "strokes", "tm", "opened")

    def __init__(self):
        self.blocks: list[Block] = []
        self.placed: list[Placed] = []
        self.strokes: list[tuple[tuple, list]] = []
        self.tm: tuple = (IDENTITY, IDENTITY)  # the text matrices it leaves (they are not moved)
        # For an opening: the graphics state it leaves inside the face, at the origin (stack above
        # the face's own q, ctm, clip, font, size, leading, tc, tw, tz, stroke).
        self.opened: tuple = ()

    def moved_into(self, out, dx: float, dy: float) -> None:
        for block in self.blocks:
            out.blocks.append(Block([Run(r.text, r.x0 + dx, r.y0 + dy, r.x1 + dx, r.size,
                                         None if r.y1 is None else r.y1 + dy, r.up) for r in block.runs],
                                    _moved(block.clip, dx, dy)))
        for p in self.placed:
            out.placed.append(Placed(p.name, p.x0 + dx, p.y0 + dy, p.x1 + dx, p.y1 + dy, _moved(p.clip, dx, dy)))
        for stroke, path in self.strokes:
            out.strokes.append((stroke, [((m[0], m[1], m[2], m[3], m[4] + dx, m[5] + dy), run) for m, run in path]))


def _moved(box, dx: float, dy: float):
    return None if box is None else (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _moved_ctm(m: tuple, dx: float, dy: float) -> tuple:
    # m x translate(dx, dy), as a face's `cm` composes it, added in the same order.
    return (m[0], m[1], m[2], m[3], m[4] + dx, m[5] + dy)


class FaceBodies:
    """The faces of one PDF read so far, by their operators and what those name: a deck's back,
    placed on every sheet, is read once.  A face is kept when it is met a second time, so a deck
    of unique cards keeps nothing; at most LIMIT are kept."""
    LIMIT = 512
    SEEN_LIMIT = 200_000

    def __init__(self):
        self._read: dict[tuple, _Drawn] = {}
        self._seen: set[int] = set()  # hashes of faces met once (a collision only keeps a face early)

    def get(self, key: tuple) -> _Drawn | None:
        return self._read.get(key)

    def again(self, key: tuple) -> bool:
        """Whether this face was met before and should be kept now."""
        digest = hash(key)
        if digest in self._seen:
            return len(self._read) < self.LIMIT
        if len(self._seen) < self.SEEN_LIMIT:
            self._seen.add(digest)
        return False

    def keep(self, key: tuple, read: _Drawn) -> None:
        self._read[key] = read


def _between_faces(state: "_State") -> bool:
    """Whether the page stands where a face can be read at the origin and moved: outside any
    operator, text object and clip, with no transformation but a move."""
    return not (state.block is not None or state.pending or state.array is not None or state.path
                or state.clip_pending or state.clip is not None or state.ctm[:4] != (1.0, 0.0, 0.0, 1.0))


def _text_state(state: "_State") -> tuple:
    """What a face starts from besides its place: the state its own `q` saves."""
    return state.font, state.size, state.leading, state.tc, state.tw, state.tz, state.stroke


def _origin_state(state: "_State") -> "_State":
    """The state inside a face read at the origin: the face's own `q` saved the page's state."""
    inner = _State()
    inner.stack = [(IDENTITY, None, *_text_state(state))]
    inner.font, inner.size, inner.leading, inner.tc, inner.tw, inner.tz, inner.stroke = _text_state(state)
    return inner


def _face_origin(start, state: "_State") -> tuple[float, float]:
    """Where the face that begins at `start` is placed on the page: its `cm` after the page's."""
    return float(start.group(1)) + state.ctm[4], float(start.group(2)) + state.ctm[5]


class PageReader:
    """Interprets one page's content stream: text runs (by BT..ET block) and placed forms."""

    def __init__(self, page, fonts_seen: dict):
        self.page = page
        resources = page.get("/Resources")
        resources = self.resources = resources.get_object() if resources is not None else {}
        self._content: bytes | None = None
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
        # Stroked paths with their stroke colour: (rgb, [(ctm, path construction)]), for measuring
        # the outlines of true-scale templates (verify/outlines.py).
        self.strokes: list[tuple[tuple, list]] = []
        self._resources_key: tuple | None = None

    def read(self, faces: "FaceBodies | None" = None) -> "PageReader":
        """Interpret the page's content.  With `faces`, a face placed again (the same operators
        between `q 1 0 0 1 x y cm` and its `Q`, in the same fonts and forms) is read once per PDF
        and its text, icons and clips moved to where it is placed again."""
        data = self.content()
        if data is None:
            return self
        state = _State()
        starts = list(_FACE_START.finditer(data)) if faces is not None else []
        if len(starts) < 2:
            self._interpret(data, state, self)
            return self
        # Each part ends with the line break before a face's `q`: a string that the split cut
        # would hold it, and unclean says so.
        self._interpret(data[:starts[0].start() + 1], state, self)
        for i, start in enumerate(starts):
            end = starts[i + 1].start() + 1 if i + 1 < len(starts) else len(data)
            if self._placed_again(data, start, end, state, faces):
                continue
            rest = self._opened_again(data, start, end, state, faces)
            self._interpret(data[start.start() + 1 if rest is None else rest:end], state, self)
        if state.unclean:
            # A string held a line break, so one may have been cut where the page was split:
            # read the page whole instead (reportlab writes every line break in a string escaped).
            self.blocks, self.placed, self.strokes = [], [], []
            self._interpret(data, _State(), self)
        return self

    def content(self) -> bytes | None:
        """The page's content stream, decoded once (read, and the resource check, use it)."""
        if self._content is None:
            self._content = _page_content(self.page)
        return self._content

    def _placed_again(self, data: bytes, start, end: int, state: "_State", faces: "FaceBodies") -> bool:
        """Read the face that begins at `start` from `faces`, moved into place, if it was read
        before (or is met for the second time: then read it now, at the origin, and keep it)."""
        if not _between_faces(state):
            return False
        body = data[start.end() - 1:end]  # from the line break after `cm`, as the whole page has it
        key = (body, *_text_state(state), self.resources_key())
        read = faces.get(key)
        if read is None:
            if not faces.again(key):
                return False
            inner, read = _origin_state(state), _Drawn()
            if not self._interpret(body, inner, read, closing=True) or inner.unclean:
                return False  # not one face's q ... Q (or a line break in a string): read it whole
            read.tm = inner.tm, inner.tlm
            faces.keep(key, read)
        read.moved_into(self, *_face_origin(start, state))
        state.tm, state.tlm = read.tm
        return True

    def _opened_again(self, data: bytes, start, end: int, state: "_State", faces: "FaceBodies") -> int | None:
        """Read the opening of the face that begins at `start` (its clip, border and background:
        all before its first text object, alike on every card of a deck) from `faces`, moved into
        place, and leave `state` where it ends.  Returns where the rest of the face begins, or
        None to read the face whole."""
        if not _between_faces(state):
            return None
        cut = data.find(b"\nBT ", start.end() - 1, end)
        if cut < 0:
            return None
        # The opening keeps the line break before BT: a string that the cut would split holds it.
        opening = data[start.end() - 1:cut + 1]
        text_state = _text_state(state)
        key = (b"opening", opening, *text_state, self.resources_key())
        read = faces.get(key)
        if read is None:
            if not faces.again(key):
                return None
            inner, read = _origin_state(state), _Drawn()
            own = inner.stack[0]
            self._interpret(opening, inner, read)
            if (inner.unclean or not inner.stack or inner.stack[0] is not own or inner.block is not None
                    or inner.pending or inner.array is not None or inner.path or inner.clip_pending):
                return None  # it left the face, or stopped mid-operator: read the face whole
            read.tm = inner.tm, inner.tlm
            read.opened = (inner.stack[1:], inner.ctm, inner.clip, inner.font, inner.size, inner.leading,
                           inner.tc, inner.tw, inner.tz, inner.stroke)
            faces.keep(key, read)
        dx, dy = _face_origin(start, state)
        read.moved_into(self, dx, dy)
        stack, ctm, clip, *text = read.opened
        state.stack.append((state.ctm, state.clip, *text_state))  # the face's own `q`
        state.stack.extend((_moved_ctm(c, dx, dy), _moved(box, dx, dy), *kept) for c, box, *kept in stack)
        state.ctm, state.clip = _moved_ctm(ctm, dx, dy), _moved(clip, dx, dy)
        state.font, state.size, state.leading, state.tc, state.tw, state.tz, state.stroke = text
        state.tm, state.tlm = read.tm
        return cut + 1

    def resources_key(self) -> tuple:
        """What a face's operators name on this page: its fonts and forms."""
        if self._resources_key is None:
            self._resources_key = (tuple((name, id(font)) for name, font in self.fonts.items()),
                                   tuple((name, id(form[2])) for name, form in self.forms.items()))
        return self._resources_key

    def _interpret(self, data: bytes, st: "_State", out, closing: bool = False) -> bool:
        """Follow `data`'s operators from state `st` (updated), adding what they draw to `out`.
        With `closing`, `data` is a face's body after its `q ... cm`: True if its own `Q` (which
        empties `st.stack`) is its last operator."""
        tokens = _TOKEN.findall(data)
        fonts = self.fonts
        last = len(tokens) - 1
        closed = emptied = False
        pending, ctm, clip, stack = st.pending, st.ctm, st.clip, st.stack
        font, size, leading, tc, tw, tz = st.font, st.size, st.leading, st.tc, st.tw, st.tz
        tm, tlm, block, array, path = st.tm, st.tlm, st.block, st.array, st.path
        clip_pending, stroke, unclean = st.clip_pending, st.stroke, st.unclean
        for index, (shown_x, shown_y, shown_font, shown_size, shown_leading, shown, begin, move, line, rect, run,
                    string, bracket, ops, op, number, name) in enumerate(tokens):
            # The one-token forms (see _TOKEN) do what their operators do below, one by one.
            if shown:  # 1 0 0 1 x y Tm [/F1+0 size Tf leading TL] (string) Tj
                if 10 in shown:
                    unclean = True
                if pending:
                    pending = []
                if shown_font:
                    font, size, leading = shown_font.decode("latin-1"), float(shown_size), float(shown_leading)
                raw = shown[1:-1]  # the one-token form's string always closes
                if 92 in raw:  # a backslash: an escape
                    raw = _literal(shown)
                x = float(shown_x)
                info = fonts.get(font) if font else None
                if info is not None and tc == 0.0 and tw == 0.0 and tz == 1.0 and \
                        (ctm is IDENTITY or (ctm[0] == 1 and ctm[1] == 0 and ctm[2] == 0 and ctm[3] == 1)):
                    # _show, for upright text in a face moved into place (most of a card's text)
                    text, width = info.decode(raw)
                    advance = width * size
                    y = float(shown_y)
                    if block is not None and text:
                        x0 = x + ctm[4]
                        block.runs.append(Run(text, x0, y + ctm[5], x0 + advance, size))
                    tlm, tm = (1.0, 0.0, 0.0, 1.0, x, y), (1.0, 0.0, 0.0, 1.0, x + advance, y)
                else:
                    tm = tlm = (1.0, 0.0, 0.0, 1.0, x, float(shown_y))
                    tm = self._show(_Str(raw), font, size, tc, tw, tz, tm, ctm, block)
            elif begin:  # BT 1 0 0 1 0 0 Tm
                pending = []
                tm = tlm = IDENTITY
                block = Block([], clip)
            elif move:  # n x0 y0 m x1 y1 l S (crop marks): _painted's stroke, inline
                pending = []
                if path or clip_pending:
                    clip = _painted(out, b"n", path, clip, clip_pending, stroke)
                out.strokes.append((stroke, [(ctm, move), (ctm, line)]))
                clip_pending, path = False, []
            elif rect:  # n x y w h re W* n
                pending = []
                if path or clip_pending:
                    clip = _painted(out, b"n", path, clip, clip_pending, stroke)
                clip = _painted(out, b"n", [(ctm, rect)], clip, True, stroke)
                clip_pending, path = False, []
            elif op == b"q":  # (the operators with no operands to read, answered first)
                pending = []
                stack.append((ctm, clip, font, size, leading, tc, tw, tz, stroke))
            elif op == b"Q":
                pending = []
                if stack:
                    ctm, clip, font, size, leading, tc, tw, tz, stroke = stack.pop()
                    if closing and not stack:  # the face's own Q: the last token, met once
                        closed = index == last and not emptied
                        emptied = True
            elif op:
                # An operator with the numbers and names written just before it.
                operands = pending + ops.split() if pending else ops.split()
                pending = []
                try:
                    if op in _IGNORED_OPS:
                        pass
                    elif op in _PAINT_OPS:
                        clip = _painted(out, op, path, clip, clip_pending, stroke)
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
                            out.blocks.append(block)
                        block = None
                    elif op == b"q":
                        stack.append((ctm, clip, font, size, leading, tc, tw, tz, stroke))
                    elif op == b"Q":
                        if stack:
                            ctm, clip, font, size, leading, tc, tw, tz, stroke = stack.pop()
                            if closing and not stack:  # the face's own Q: the last token, met once
                                closed = index == last and not emptied
                                emptied = True
                    elif op == b"RG":
                        stroke = tuple(round(float(v), 4) for v in operands[-3:])
                    elif op == b"K":  # a CMYK print-shop file's stroke (4 values: never an RGB cut line's)
                        stroke = tuple(round(float(v), 4) for v in operands[-4:])
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
                        if form is not None and not form_name.startswith(PICTURES):  # icons only
                            bbox, matrix, _ = form
                            m = _mul(matrix, ctm)
                            xs, ys = zip(*(_apply(m, x, y) for x, y in ((bbox[0], bbox[1]), (bbox[2], bbox[1]),
                                                                        (bbox[0], bbox[3]), (bbox[2], bbox[3]))))
                            out.placed.append(Placed(form_name, min(xs), min(ys), max(xs), max(ys), clip))
                except (IndexError, TypeError, ValueError, AttributeError):
                    pass  # a malformed operator: skip it, as a viewer would
            elif run:
                path.append((ctm, run))
            elif string:
                if 10 in string:
                    unclean = True
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
        st.pending, st.ctm, st.clip, st.stack = pending, ctm, clip, stack
        st.font, st.size, st.leading, st.tc, st.tw, st.tz = font, size, leading, tc, tw, tz
        st.tm, st.tlm, st.block, st.array, st.path = tm, tlm, block, array, path
        st.clip_pending, st.stroke, st.unclean = clip_pending, stroke, unclean
        return closed

    def _show(self, raw: bytes, font, size, tc, tw, tz, tm, ctm, block):
        info = self.fonts.get(font) if font else None
        if info is None:
            text, width = raw.decode("latin-1"), 0.5 * len(raw)
        else:
            text, width = info.decode(raw)
        advance = (width * size + tc * len(raw) + tw * raw.count(b" ")) * tz
        if ctm is IDENTITY:
            m = tm
        elif ctm[0] == 1 and ctm[1] == 0 and ctm[2] == 0 and ctm[3] == 1:  # a face moved into place: its `cm`
            m = (tm[0], tm[1], tm[2], tm[3], tm[4] + ctm[4], tm[5] + ctm[5])
        else:
            m = _mul(tm, ctm)
        if block is not None and text:
            x0, y0 = m[4], m[5]
            scale = (m[2] * m[2] + m[3] * m[3]) ** 0.5
            if m[1] == 0 and m[2] == 0 and m[0] > 0:
                block.runs.append(Run(text, x0, y0, x0 + advance * m[0], size * scale))
            else:  # turned text (a rotated frame): keep its direction
                up = (m[2] / scale, m[3] / scale) if scale else (0.0, 1.0)
                block.runs.append(Run(text, x0, y0, x0 + advance * m[0], size * scale, y0 + advance * m[1], up))
        # The text matrix moves on by the advance: translate(advance, 0) x tm.
        return (tm[0], tm[1], tm[2], tm[3], tm[4] + advance * tm[0], tm[5] + advance * tm[1])


def _painted(out, op: bytes, path: list, clip, clip_pending: bool, stroke: tuple):
    """A path painted (or ended, `n`): kept if stroked; and the clip, narrowed by the path if
    W or W* came before."""
    if op in _STROKE_OPS and path:
        out.strokes.append((stroke, path))
    if clip_pending and path:
        box = _path_box(path)
        if box is not None:
            clip = box if clip is None else (max(clip[0], box[0]), max(clip[1], box[1]),
                                             min(clip[2], box[2]), min(clip[3], box[3]))
    return clip
