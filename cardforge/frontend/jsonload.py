"""JSON card files, read with the position of every value and key, like load.py does for YAML.

Python's json module gives no positions, and reading JSON as YAML gets numbers (`1e3`), escapes
(`\\/`) and tabs wrong, so this is a small recursive-descent reader of its own (RFC 8259) that
uses the json module's own string scanner and number pattern.  Duplicate keys are errors, as in
YAML files; nesting and size are bounded.
"""
from __future__ import annotations

import json.decoder
import math
import re
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from ..limits import MAX_DEPTH, MAX_INT_DIGITS, MAX_NODES, depth_message, limit_message

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
_SPACE = re.compile(r"[ \t\n\r]*")


def pointer_join(base: str, part: str | int) -> str:
    """`base` extended by one JSON pointer step (RFC 6901 escapes)."""
    text = str(part).replace("~", "~0").replace("/", "~1")
    return f"{base}/{text}"


# Unicode's noncharacters (U+FDD0..U+FDEF and the last two code points of every plane): reserved
# for a program's own use, never text to print.  Unicode data in a card file is an error.  So is a
# lone surrogate (an escape such as "\ud800" in YAML or JSON): half of a UTF-16 pair, no character,
# and no file name or PDF text can encode it.
_NONCHARACTER = re.compile("[\ud800-\udfff\ufdd0-\ufdef" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17)) + "]")
NONCHARACTER_HELP = ("delete it: it is no text to print (a noncharacter is a program's internal marker; a lone "
                     "surrogate is an escape of half a UTF-16 pair)")
NUMBER_HELP = "write a finite number; NaN and infinity are no values of a game"


def noncharacter(text: str) -> int | None:
    """The index of the first Unicode noncharacter in text, or None."""
    found = _NONCHARACTER.search(text)
    return None if found is None else found.start()


def noncharacter_message(char: str) -> str:
    if 0xD800 <= ord(char) <= 0xDFFF:
        return f"text holds U+{ord(char):04X}, half of a UTF-16 surrogate pair on its own (no character)"
    return f"text holds the Unicode noncharacter U+{ord(char):04X}"


class _Fail(Exception):
    def __init__(self, message: str, offset: int, help: str | None = None, code: str = "E-JSON"):
        self.message, self.offset, self.help, self.code = message, offset, help, code


class _Reader:
    def __init__(self, text: str, doc, report: Report):
        self.text, self.doc, self.report = text, doc, report
        self.count = 0
        # Offsets of line starts, so that an offset becomes line:col by bisection.
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def position(self, offset: int) -> Position:
        import bisect
        line = bisect.bisect_right(self.starts, offset) - 1
        return Position(self.doc.path, line + 1, offset - self.starts[line] + 1)

    def skip(self, i: int) -> int:
        return _SPACE.match(self.text, i).end()

    def value(self, i: int, pointer: str, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise _Fail(depth_message(), i, "a card game's data needs only a few levels; flatten it", "E-LIMIT")
        self.count += 1
        if self.count > MAX_NODES:
            raise _Fail(limit_message("document", f"{MAX_NODES} values"), i, "split it into several files",
                        "E-LIMIT")
        text = self.text
        i = self.skip(i)
        self.doc.positions.setdefault(pointer, self.position(i))
        if i >= len(text):
            raise _Fail("unexpected end of file: a value is missing", i)
        ch = text[i]
        if ch == "{":
            result: dict[str, Any] = {}
            first_seen: dict[str, Position] = {}
            i = self.skip(i + 1)
            if text.startswith("}", i):
                return result, i + 1
            while True:
                if not text.startswith('"', i):
                    raise _Fail("expected a key in double quotes", i,
                                "JSON keys are written in double quotes; a trailing comma is not allowed")
                key_pos = self.position(i)
                key, i = self.string(i)
                i = self.skip(i)
                if not text.startswith(":", i):
                    raise _Fail("expected ':' after the key", i)
                child = pointer_join(pointer, key)
                if key in first_seen:
                    self.report.error("E-DUPLICATE-KEY", f"duplicate key '{key}' (first defined at line "
                                      f"{first_seen[key].line})", key_pos,
                                      help="remove one of the two; JSON readers keep only one of them")
                    _, i = self.value(i + 1, child + "\x00dup", depth + 1)
                else:
                    first_seen[key] = key_pos
                    self.doc.key_positions[child] = key_pos
                    result[key], i = self.value(i + 1, child, depth + 1)
                i = self.skip(i)
                if text.startswith(",", i):
                    i = self.skip(i + 1)
                    continue
                if text.startswith("}", i):
                    return result, i + 1
                raise _Fail("expected ',' or '}'", i, "separate the members of an object with commas")
        if ch == "[":
            items: list[Any] = []
            i = self.skip(i + 1)
            if text.startswith("]", i):
                return items, i + 1
            while True:
                item, i = self.value(i, pointer_join(pointer, len(items)), depth + 1)
                items.append(item)
                i = self.skip(i)
                if text.startswith(",", i):
                    i += 1
                    continue
                if text.startswith("]", i):
                    return items, i + 1
                raise _Fail("expected ',' or ']'", i, "separate the items of a list with commas")
        if ch == '"':
            return self.string(i)
        for word, constant in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, i):
                return constant, i + len(word)
        match = _NUMBER.match(text, i)
        if match and match.end() > i:
            number = match.group(0)
            if match.group(1) or match.group(2):
                value = float(number)
                if not math.isfinite(value):
                    raise _Fail(f"number {number[:40]} is too large to be a number", i, NUMBER_HELP)
                return value, match.end()
            if len(number.lstrip("-")) > MAX_INT_DIGITS:
                raise _Fail(limit_message(f"integer of {len(number)} characters", f"integer size ({MAX_INT_DIGITS} "
                            "digits)"), i, "write a smaller number, or text in double quotes", "E-LIMIT")
            return int(number), match.end()
        shown = text[i:i + 12].split("\n")[0]
        raise _Fail(f"unexpected '{shown}'", i, "a JSON value is an object, a list, text in double quotes, "
                    "a number, true, false or null")

    def string(self, i: int) -> tuple[str, int]:
        try:
            value, end = json.decoder.scanstring(self.text, i + 1, True)
        except json.JSONDecodeError as exc:
            raise _Fail(exc.msg.lower(), exc.pos, "JSON text is in double quotes; write \\\" for a quote, "
                        "\\\\ for a backslash and \\n for a line break") from None
        bad = noncharacter(value)
        if bad is not None:
            raise _Fail(noncharacter_message(value[bad]), i, NONCHARACTER_HELP)
        return value, end


def load_json(doc, text: str, report: Report) -> bool:
    """Fill `doc` (a load.Document) from JSON `text`; False after reporting why it is unusable."""
    reader = _Reader(text, doc, report)
    start = 1 if text.startswith("\ufeff") else 0
    try:
        doc.data, end = reader.value(start, "", 0)
        end = reader.skip(end)
        if end < len(text):
            raise _Fail("unexpected text after the end of the document", end,
                        "a JSON file holds one value: put the items in one list or object")
    except _Fail as exc:
        message = exc.message if exc.code == "E-LIMIT" else f"JSON syntax error: {exc.message}"
        report.error(exc.code, message, reader.position(min(exc.offset, len(text))), help=exc.help)
        return False
    except RecursionError:
        report.error("E-LIMIT", depth_message(), Position(Path(doc.path), 1, 1))
        return False
    return True


def string_offsets(text: str, start: int) -> list[int]:
    """For the JSON string whose opening quote is at `start`: the offset in `text` of each character
    of its decoded value (so that a position inside a value can point at the character)."""
    out: list[int] = []
    i = start + 1
    escapes = {'"', "\\", "/", "b", "f", "n", "r", "t"}
    while i < len(text) and text[i] != '"':
        if text[i] == "\\" and i + 1 < len(text):
            if text[i + 1] in escapes:
                out.append(i)
                i += 2
                continue
            if text[i + 1] == "u":
                code = int(text[i + 2:i + 6] or "0", 16)
                out.append(i)
                if 0xD800 <= code < 0xDC00 and text.startswith("\\u", i + 6):
                    i += 12
                else:
                    i += 6
                continue
        out.append(i)
        i += 1
    return out
