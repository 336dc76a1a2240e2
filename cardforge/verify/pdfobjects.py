"""A lean reader of the object structure of the PDFs cardforge writes, for the verifier.

Every build reads its PDFs back (verifier.py).  pypdf reads any PDF, but importing it takes a
tenth of a second and some twenty megabytes (issue 27: a 540-card build is timed against a plain
reportlab script, and a 10,000-card build must stay under 150 MB), and its general object model
costs time on every page.  The files reportlab and pypdf write are the simple kind: a classic
cross-reference table, plain objects, no encryption.  This module reads that kind, lazily, object
by object, and gives the verifier what it asks of pypdf's objects: `.pages`, dictionaries with
`get`, references with `get_object()` and `idnum`, streams with their stored bytes `_data` and
`get_data()`.

Anything else (a cross-reference stream, object streams, encryption, a damaged table) raises
`Unsupported`, and the verifier reads the file with pypdf instead, which also repairs what can
be repaired and words what cannot.
"""
from __future__ import annotations

import re
import sys
import zlib
from pathlib import Path

from .pdftokens import _a85, _hex, _literal


class Unsupported(Exception):
    """Not the simple kind of PDF this module reads: read it with pypdf."""


class Ref:
    """An indirect reference, `12 0 R`."""
    __slots__ = ("idnum", "generation", "_reader")

    def __init__(self, idnum: int, generation: int, reader: "LeanReader"):
        self.idnum, self.generation, self._reader = idnum, generation, reader

    def get_object(self):
        return self._reader.resolve(self.idnum)


class Dict(dict):
    """A PDF dictionary: names (with their slash) to values, references unresolved, as pypdf's `get` gives them."""

    def get_object(self) -> "Dict":
        return self


class Array(list):
    def get_object(self) -> "Array":
        return self


class Stream(Dict):
    """A stream: its dictionary, and its bytes as stored (`_data`, sliced from the file when asked)."""
    _file: bytes = b""
    _span: tuple[int, int] = (0, 0)

    @property
    def _data(self) -> bytes:
        return self._file[self._span[0]:self._span[1]]

    def get_data(self) -> bytes:
        filters = self.get("/Filter")
        filters = [filters] if isinstance(filters, str) else list(filters or [])
        if not filters:
            return self._data
        if "/DecodeParms" not in self:
            if filters == ["/FlateDecode"]:
                return zlib.decompress(self._data)
            if filters == ["/ASCII85Decode", "/FlateDecode"]:
                return zlib.decompress(_a85(self._data))
        raise Unsupported(f"stream filters {filters}")


_SPACE = re.compile(rb"(?:[\x00\t\n\x0c\r ]+|%[^\r\n]*)*")
_ATOM = re.compile(rb"(\d+)[\x00\t\n\x0c\r ]+(\d+)[\x00\t\n\x0c\r ]+R(?![^\x00\t\n\x0c\r /\[\]()<>{}%])"  # 1 0 R
                   rb"|([-+]?(?:\d+\.?\d*|\.\d+))"  # a number
                   rb"|/([^\x00\t\n\x0c\r /\[\]()<>{}%]*)"  # a name
                   rb"|(true|false|null)(?![^\x00\t\n\x0c\r /\[\]()<>{}%])")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_DELIMITED = rb"(?=[\x00\t\n\x0c\r /\[\]()<>{}%])"  # a delimiter or white space follows
_PLAIN_KEY = re.compile(rb"/([^\x00\t\n\x0c\r /\[\]()<>{}%#]*)" + _DELIMITED)
# A number that is not the start of a reference (`12 0 R`), ended by a delimiter.
_PLAIN_NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)" + _DELIMITED +
                           rb"(?![\x00\t\n\x0c\r ]+\d+[\x00\t\n\x0c\r ]+R(?![^\x00\t\n\x0c\r /\[\]()<>{}%]))")
_OBJ = re.compile(rb"[\x00\t\n\x0c\r ]*(\d+)[\x00\t\n\x0c\r ]+(\d+)[\x00\t\n\x0c\r ]+obj")
_STREAM = re.compile(rb"[\x00\t\n\x0c\r ]*stream\r?\n")
_ENDSTREAM = re.compile(rb"[\x00\t\n\x0c\r ]*endstream")
_SECTION = re.compile(rb"(\d+)[ ]+(\d+)[ \t]*\r?\n?")  # a cross-reference section: first number, count
CUT_SHORT = "the file ends without its cross-reference table: it was cut short, or is no PDF"
MAX_DEPTH = 64  # nesting of arrays and dictionaries: deeper is no file of ours


class LeanReader:
    """The pages and objects of a PDF with a classic cross-reference table."""

    def __init__(self, path: Path):
        with open(path, "rb") as fh:
            self.data = fh.read()
        self.offsets: dict[int, int] = {}
        self._objects: dict[int, object] = {}
        try:
            self.trailer = self._xref()
            if "/Encrypt" in self.trailer:
                raise Unsupported("encrypted")
            for number in list(self.offsets):  # every object parsed now: a damaged one is found here
                self.resolve(number)
            self.pages = self._pages()
        except (IndexError, ValueError, KeyError, TypeError, AttributeError, RecursionError, zlib.error) as exc:
            raise Unsupported(f"{type(exc).__name__}: {exc}") from None

    # -- the cross-reference table -----------------------------------------------------------

    def _xref(self) -> Dict:
        data = self.data
        at = data.rfind(b"startxref", max(0, len(data) - 2048))
        if at < 0:
            raise Unsupported(CUT_SHORT)
        offset = int(data[at + 9:].split()[0])
        trailer: Dict | None = None
        seen: set[int] = set()
        while offset not in seen:  # the newest table first; /Prev leads to older ones
            seen.add(offset)
            pos = _SPACE.match(data, offset).end()
            if not data.startswith(b"xref", pos):
                raise Unsupported("a cross-reference stream")
            pos = _SPACE.match(data, pos + 4).end()
            while not data.startswith(b"trailer", pos):
                header = _SECTION.match(data, pos)
                if header is None:
                    raise Unsupported("a damaged cross-reference table")
                first, count = int(header.group(1)), int(header.group(2))
                pos = header.end()
                for number in range(first, first + count):
                    entry = data[pos:pos + 20]
                    if entry[17:18] == b"n":
                        self.offsets.setdefault(number, int(entry[:10]))
                    pos += 20
                pos = _SPACE.match(data, pos).end()
            section, _ = self._value(pos + 7, 0)
            if not isinstance(section, Dict):
                raise Unsupported("a damaged trailer")
            if trailer is None:
                trailer = section
            if "/XRefStm" in section:
                raise Unsupported("a hybrid cross-reference")
            previous = section.get("/Prev")
            if not isinstance(previous, int):
                break
            offset = previous
        return trailer

    def _pages(self) -> list[Dict]:
        """The page tree's leaves in order, each with the attributes it inherits (pypdf does the same)."""
        root = self.trailer["/Root"].get_object()
        pages: list[Dict] = []
        seen: set[int] = set()

        def walk(ref, inherited: dict, depth: int) -> None:
            node = ref.get_object() if isinstance(ref, Ref) else ref
            if not isinstance(node, Dict) or id(node) in seen or depth > MAX_DEPTH:
                raise Unsupported("a damaged page tree")
            seen.add(id(node))
            here = dict(inherited)
            for key in ("/Resources", "/MediaBox", "/CropBox", "/Rotate"):
                if key in node:
                    here[key] = node[key]
            if node.get("/Type") == "/Pages" or "/Kids" in node:
                for kid in node["/Kids"].get_object():
                    walk(kid, here, depth + 1)
            else:
                for key, value in here.items():
                    node.setdefault(key, value)
                pages.append(node)

        walk(root["/Pages"], {}, 0)
        return pages

    # -- objects -------------------------------------------------------------------------------

    def resolve(self, number: int):
        if number in self._objects:
            return self._objects[number]
        offset = self.offsets.get(number)
        if offset is None:
            return None  # a free or missing object is null
        header = _OBJ.match(self.data, offset)
        if header is None or int(header.group(1)) != number:
            raise Unsupported(f"object {number} is not where the table says")
        value, pos = self._value(header.end(), 0)
        if isinstance(value, Dict):
            start = _STREAM.match(self.data, pos)
            if start is not None:
                length = value["/Length"]
                length = length.get_object() if isinstance(length, Ref) else length
                stream = Stream(value)
                end = start.end() + int(length)
                if not _ENDSTREAM.match(self.data, end):
                    raise Unsupported(f"object {number}: its stream's /Length is wrong")
                stream._file, stream._span = self.data, (start.end(), end)
                value = stream
        self._objects[number] = value
        return value

    def _value(self, pos: int, depth: int):
        """The object that starts at `pos` (after white space), and the position after it."""
        data = self.data
        pos = _SPACE.match(data, pos).end()
        if depth > MAX_DEPTH:
            raise Unsupported("nested too deep")
        if data.startswith(b"<<", pos):
            result = Dict()
            pos += 2
            while True:
                pos = _SPACE.match(data, pos).end()
                if data.startswith(b">>", pos):
                    return result, pos + 2
                plain = _PLAIN_KEY.match(data, pos)  # most keys: a name without # escapes
                if plain is not None:
                    key, pos = "/" + plain.group(1).decode("latin-1"), plain.end()
                else:
                    key, pos = self._value(pos, depth + 1)
                    if not isinstance(key, str):
                        raise Unsupported("a dictionary key that is no name")
                result[key], pos = self._value(pos, depth + 1)
        if data.startswith(b"[", pos):
            items = Array()
            pos += 1
            while True:
                pos = _SPACE.match(data, pos).end()
                if data.startswith(b"]", pos):
                    return items, pos + 1
                number = _PLAIN_NUMBER.match(data, pos)  # most items (a box, widths): a number, not `1 0 R`
                if number is not None:
                    text = number.group()
                    items.append(float(text) if b"." in text else int(text))
                    pos = number.end()
                    continue
                item, pos = self._value(pos, depth + 1)
                items.append(item)
        if data.startswith(b"(", pos):
            end = _string_end(data, pos)
            return _literal(data[pos:end]), end
        if data.startswith(b"<", pos):
            end = data.index(b">", pos) + 1
            return _hex(data[pos:end]), end
        atom = _ATOM.match(data, pos)
        if atom is None:
            raise Unsupported(f"unexpected {data[pos:pos + 10]!r} at byte {pos}")
        ref, generation, number, name, keyword = atom.groups()
        if ref is not None:
            return Ref(int(ref), int(generation), self), atom.end()
        if number is not None:
            return (float(number) if b"." in number else int(number)), atom.end()
        if name is not None:
            if b"#" in name:
                name = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), name)
            return "/" + name.decode("latin-1"), atom.end()
        return {b"true": True, b"false": False, b"null": None}[keyword], atom.end()


def _string_end(data: bytes, pos: int) -> int:
    """The position after the literal string (with balanced parentheses) that starts at `pos`."""
    depth, index = 0, pos
    while True:
        index = _PAREN.search(data, index).start()
        char = data[index]
        if char == 0x5C:  # a backslash escapes the next byte
            index += 2
            continue
        depth += 1 if char == 0x28 else -1
        index += 1
        if depth == 0:
            return index


_PAREN = re.compile(rb"[()\\]")


def damage_errors() -> tuple[type[BaseException], ...]:
    """What reading a damaged file's objects and streams may raise, with either reader: the page
    objects are read lazily, as the verifier walks them."""
    errors: tuple[type[BaseException], ...] = (Unsupported, ValueError, TypeError, AttributeError, KeyError,
                                               IndexError, RecursionError, NotImplementedError, zlib.error)
    pypdf_errors = sys.modules.get("pypdf.errors")
    return errors + (pypdf_errors.PyPdfError,) if pypdf_errors is not None else errors


def read_pages(pdf: Path, opened=None) -> list:
    """The pages of `pdf` (or of `opened`, a pypdf reader of it): read by this module when it is the
    simple kind, else by pypdf.  Raises OSError, or ValueError for a file pypdf cannot read either."""
    reason = None
    if isinstance(opened, LeanReader):
        return opened.pages
    if opened is None:
        try:
            return LeanReader(pdf).pages
        except Unsupported as exc:
            reason = str(exc)
    from pypdf import PdfReader
    try:
        return list((opened or PdfReader(str(pdf))).pages)
    except damage_errors() as exc:  # pypdf's words, unless ours say it better
        raise ValueError(reason if reason == CUT_SHORT else str(exc) or type(exc).__name__) from None
