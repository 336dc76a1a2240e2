"""A content stream's tokens, as the reader takes them (verify/pdfread.py): numbers, names,
strings and the one-token forms of what reportlab writes most; and the decoding of strings and of
ASCII85 data (verify/pdfobjects.py reads the file's objects with them)."""
from __future__ import annotations

import re
import struct

# A number, matched one way only: with "\d+\.?\d*" a run of digits could be split between the two
# digit runs in as many ways as it is long, and a damaged stream's long runs of numbers with no
# operator after them backtracked for minutes (bench/fuzz-style mutation of a kit, issue 27).
_NUM = rb"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
# One token per operator together with the numbers and names written before it (the common
# case), or a string, a bracket, or a lone number or name (inside a TJ array). Lines of path
# construction ("x y m", "x1 y1 x2 y2 x3 y3 c", "h"), as reportlab writes them, are one token: a
# path only matters when it becomes a clipping path, and most are just filled or stroked.
# A line of text as reportlab writes it, "1 0 0 1 x y Tm (string) Tj", is one token too (the
# first alternative), with the font set before a text object's first string ("/F1+0 8 Tf 9.6 TL"):
# most of a card's text is drawn so.  So is the start of reportlab's text object, "BT 1 0 0 1 0 0 Tm".
# Leading white space is skipped by the match rather than by failed matches at every blank.
# No alternative backtracks over more than it consumes (possessive repeats, at most 32 operands
# before an operator, a string without its closing parenthesis runs to the end), so a damaged
# stream takes time in proportion to its length.  A string's runs of plain bytes are matched
# as one repeat each, not byte by byte: a quarter of reading a card's text was its strings.
# So are a stroked segment, "n x0 y0 m x1 y1 l S" (crop marks), and a rectangle made the clip,
# "n x y w h re W* n" (each piece's bleed box).
_END = rb"(?![^\s/\[\]()<>{}%])"  # the end of an operator
_TOKEN = re.compile(rb"\s*(?:1 0 0 1 (" + _NUM + rb") (" + _NUM + rb") Tm"
                    rb"(?: /([^\s/\[\]()<>{}%]+) (" + _NUM + rb") Tf (" + _NUM + rb") TL)?"
                    rb" (\([^\\)]*+(?:\\.[^\\)]*+)*+\)) Tj" + _END +
                    rb"|(BT) 1 0 0 1 0 0 Tm" + _END +
                    rb"|n (" + _NUM + rb" " + _NUM + rb" m) (" + _NUM + rb" " + _NUM + rb" l) S" + _END +
                    rb"|n (" + _NUM + rb" " + _NUM + rb" " + _NUM + rb" " + _NUM + rb" re) W\* n" + _END +
                    rb"|((?<=\n)(?:(?:[-+\d. ]++(?:m|l|c|v|y|re)|h)\r?\n)+)"
                    rb"|(\([^\\)]*+(?:\\.[^\\)]*+)*+(?:\)|\Z)|<[0-9A-Fa-f\s]*+>)"
                    rb"|([\[\]])"
                    rb"|((?:(?:/[^\s/\[\]()<>{}%]+|" + _NUM + rb")\s+){0,32}+)([A-Za-z'\"*]+[01]?)"
                    rb"|(" + _NUM + rb")|(/[^\s/\[\]()<>{}%]+))", re.S)


def _hex(token: bytes) -> bytes:
    digits = re.sub(rb"\s", b"", token[1:-1])
    return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())


_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f", b"(": b"(", b")": b")", b"\\": b"\\"}
_ESC_RE = re.compile(rb"\\([0-7]{1,3}|.|\n)", re.S)


def _literal(token: bytes) -> bytes:
    body = token[1:-1] if token.endswith(b")") else token[1:]  # a damaged stream's string may not end
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


class _Str(bytes):
    """A string operand (numbers stay as their bytes)."""
