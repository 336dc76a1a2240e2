"""The values the mutation engine (tests/fuzzing.py) puts into a game: strings, numbers, templates,
expressions, frame geometry, SVG edits and PNG files.  Each comes with a one-line label."""
from __future__ import annotations

import functools
import io
import re
import zlib


def _q(text: str) -> str:
    """A double-quoted YAML scalar (escapes as YAML reads them)."""
    return '"' + text + '"'


BIG_INTS = [
    ("a 20-digit integer", "9" * 20),
    ("a 400-digit integer", "7" * 400),
    ("a 5000-digit integer", "3" * 5000),
    ("a 50000-digit integer", "1" * 50000),
    ("-2**63", str(-2 ** 63)),
    ("1e308 float", "1.0e+308"),
    ("1e400 float (overflows to inf)", "1.0e+400"),
    ("a hex integer 0x7fffffffffffffffff", "0x7fffffffffffffffff"),
    ("a sexagesimal integer 190:20:30", "190:20:30"),
]


def nested(kind: str, depth: int) -> str:
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    return "{a: " * depth + "1" + "}" * depth


STRINGS = [(label, _q(text)) for label, text in [
    ("an RTL override", "\\u202eevil text\\u202c"),
    ("zero-width characters", "a\\u200bb\\u200dc\\ufeffd"),
    ("200 combining accents", "e" + "\\u0301" * 200),
    ("emoji and a ZWJ family", "\\U0001F0CF \\U0001F4A3 \\U0001F468\\u200d\\U0001F469\\u200d\\U0001F467"),
    ("Japanese text", "\\u7206\\u6483\\u6a5f\\u306e\\u4e57\\u7d44\\u54e1"),
    ("Arabic text", "\\u0642\\u0627\\u0630\\u0641\\u0629"),
    ("control characters", "bell\\a escape\\e[31m back\\b"),
    ("a NUL character", "a\\0b"),
    ("line and paragraph separators", "a\\u2028b\\u2029c"),
    ("a lone surrogate", "x\\ud800y"),
    ("a private-use character", "\\ue000"),
    ("non-characters", "\\uffff\\ufffe"),
    ("fullwidth letters", "\\uff22\\uff2f\\uff2d\\uff22"),
    ("tabs and CRLF", "a\\tb\\r\\nc\\rd"),
    ("unbalanced rich-text markup", "**bold *ital ** :star :no-such-icon: :d6-9: :: ::"),
    ("XML markup", "<b>&amp;</b><font name='x' size='-9'>x</font><br/>&#0;"),
    ("a Jinja template in data", "{{ 7 * 7 }} {% raw %} {{ card.__class__ }}"),
    ("format directives", "%s %(x)s {0} {} %n"),
    ("only spaces", "     "),
    ("an empty string", ""),
    ("a 500-character word", "W" * 500),
    ("a path out of the folder", "../../../outside/secret"),
    ("NFD and NFC forms", "e\\u0301 \\u00e9"),
    ("backslashes", "\\\\x\\\\n\\\\"),
    ("an icon name with a slash", ":../../outside/secret:"),
]]


TEMPLATES = [
    ("an unclosed {{", "{{ card.title"),
    ("an unknown attribute", "{{ card.nope.deeper }}"),
    ("a division by zero", "{{ 1 / 0 }}"),
    ("a million-fold repetition", "{{ card.title * 1000000 }}"),
    ("a 100,000-step loop", "{% for i in range(100000000) %}x{% endfor %}"),
    ("a sandbox escape (__class__)", "{{ ''.__class__.__mro__[1].__subclasses__() }}"),
    ("attr('__class__')", "{{ card | attr('__class__') }}"),
    ("a filter on none", "{{ none.x.y }}"),
    ("an include", "{% include 'card.yaml' %}"),
    ("an extends", "{% extends '../../outside/secret.yaml' %}"),
    ("an import", "{% import 'x' as y %}{{ y.z }}"),
    ("a huge power", "{{ 9 ** 9 ** 9 }}"),
    ("lipsum(100000)", "{{ lipsum(100000) }}"),
    ("wordwrap(0)", "{{ card.title | wordwrap(0) }}"),
    ("center(10**8)", "{{ 'a' | center(100000000) }}"),
    ("dictsort of a string", "{{ 'abc' | dictsort }}"),
    ("round(-400)", "{{ 3.5 | round(-400) }}"),
    ("an overflowing float", "{{ 1e308 * 10 }}"),
    ("a missing %-key", "{{ '%(a)s' % {} }}"),
    ("str.format", "{{ '{0.__class__}'.format(card) }}"),
    ("bytes", "{{ card.id.encode('utf-16') }}"),
    ("a dict", "{{ card }}"),
    ("int of text", "{{ card.id | int / 0 }}"),
    ("a syntax error", "{{ ) }}"),
    ("an unknown filter", "{{ card.id | no_such_filter }}"),
    ("an unknown test", "{{ card.id is no_such_test }}"),
    ("deep parentheses", "{{ " + "(" * 500 + "1" + ")" * 500 + " }}"),
    ("a recursive macro", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"),
    ("a namespace loop", "{% set ns = namespace(x='a') %}{% for i in range(40) %}{% set ns.x = ns.x ~ ns.x %}"
                         "{% endfor %}{{ ns.x | length }}"),
    ("an icon name out of the folder", "../../outside/secret"),
    ("a 500-character icon name", "z" * 500),
    ("an empty template", ""),
    ("a colour that is no colour", "{{ 'notacolour' }}"),
    ("a number as text", "{{ 12345678901234567890 }}"),
]

EXPRESSIONS = TEMPLATES[:4] + [
    ("a syntax error", "card.id +"),
    ("an unknown name", "no_such_name"),
    ("an unknown group", "groups.no_such_group | length"),
    ("a deep attribute", "card.x.y.z"),
    ("a division by zero", "1 / 0"),
    ("a huge power", "9 ** 9 ** 9"),
    ("a huge list", "[1] * 1000000000"),
    ("a long range", "range(10 ** 9) | list | length"),
    ("deep parentheses", "(" * 2000 + "1" + ")" * 2000),
    ("a catastrophic regex", "matches('a' * 40 ~ '!', '(a+)+$')"),
    ("a bad regex", "matches(card.id, '(')"),
    ("a sandbox escape", "card.__class__.__init__.__globals__"),
    ("none", "none"),
    ("a list", "[1, 2, 3]"),
    ("a string", "'text'"),
    ("a comparison of types", "card.id < 3"),
    ("pluck of a number", "pluck(7, 'x')"),
    ("count of none", "count(none)"),
    ("where with no field", "where(groups.crew)"),
    ("sum of strings", "sum(['a', 'b'])"),
    ("max of nothing", "[] | max"),
    ("first of nothing", "[] | first | attr('x')"),
    ("a self reference", "values.d6 + values.no_such_value"),
    ("a template", "{{ card.id }}"),
    ("an empty expression", ""),
]

GEOMETRY = ["-5mm", "0mm", "0", "1e9mm", "1e400mm", "nanmm", "infmm", "5 furlongs", "'12'", "[1, 2]", "{a: 1}",
            "null", "true", "-0mm", "0.0000001mm", "99999999999999999999999pt", "5mm5mm", "1e-400pt", ".inf",
            "'{{ 1 / 0 }}mm'", "'{{ card.title }}'", "200mm", "-200mm", "100%", "3cm", "2in", "0.5pt"]


# -- SVG ----------------------------------------------------------------------------------------------

def _attr(name: str, value: str):
    def edit(text: str, rng) -> str:
        text = re.sub(rf'\s{name}=(["\'])[^"\']*\1', "", text, count=1)
        return text.replace("<svg ", f"<svg {name}='{value}' ", 1)
    return edit


def _drop(*names: str):
    def edit(text: str, rng) -> str:
        for name in names:
            text = re.sub(rf'\s{name}=(["\'])[^"\']*\1', "", text)
        return text
    return edit


def _inside(fragment: str):
    def edit(text: str, rng) -> str:
        at = text.rfind("</svg>")
        return text[:at] + fragment + text[at:] if at >= 0 else text + fragment
    return edit


def _truncate(text: str, rng) -> str:
    return text[:rng.randrange(len(text))]


def _prolog(prolog: str):
    def edit(text: str, rng) -> str:
        return prolog + text
    return edit


SVG_EDITS = [
    ("without viewBox, width and height", _drop("viewBox", "width", "height")),
    ("truncated XML", _truncate),
    ("UTF-16 with a BOM", lambda text, rng: text.encode("utf-16")),
    ("width='1q0'", _attr("width", "1q0")),
    ("a zero viewBox", _attr("viewBox", "0 0 0 0")),
    ("a negative viewBox", _attr("viewBox", "0 0 -10 -10")),
    ("a NaN viewBox", _attr("viewBox", "nan nan nan nan")),
    ("a viewBox of 3 numbers", _attr("viewBox", "0 0 10")),
    ("a 1e9 viewBox", _attr("viewBox", "0 0 1e9 1e9")),
    ("width 1e9", _attr("width", "1000000000")),
    ("width 100%", _attr("width", "100%")),
    ("width 10em", _attr("width", "10em")),
    ("zero width and height", lambda text, rng: _attr("height", "0")(_attr("width", "0")(text, rng), rng)),
    ("an entity bomb", _prolog("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'aaaaaaaaaa'>"
                               "<!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'><!ENTITY c '&b;&b;&b;&b;&b;&b;&b;&b;'>]>")),
    ("an external entity", _prolog("<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>")),
    ("an external image", _inside("<image href='../../../outside/secret.yaml' width='5' height='5'/>")),
    ("a data: image", _inside("<image href='data:image/png;base64,iVBORw0KGgo=' width='5' height='5'/>")),
    ("a use of itself", _inside("<g id='loop'><use href='#loop'/></g>")),
    ("a use of a missing id", _inside("<use href='#nowhere'/>")),
    ("5000 nested groups", _inside("<g>" * 5000 + "</g>" * 5000)),
    ("100,000 path segments", _inside("<path d='M0 0 " + "L1 1 " * 100_000 + "Z'/>")),
    ("garbage path data", _inside("<path d='M 0 0 L x y Q Z 1e999 nan'/>")),
    ("bad CSS", _inside("<rect width='5' height='5' style='fill:url(#nope);stroke-width:-1;opacity:nan'/>")),
    ("a bad transform", _inside("<rect width='5' height='5' transform='matrix(1 2) rotate(nan)'/>")),
    ("a text element", _inside("<text x='1' y='5' font-family='NoSuchFont' font-size='1e9'>A\u202eB</text>")),
    ("an html root", lambda text, rng: "<html><body/></html>"),
    ("not XML at all", lambda text, rng: "cards: [1, 2]\n"),
    ("PNG bytes", lambda text, rng: b"\x89PNG\r\n\x1a\n" + bytes(range(256))),
    ("an empty file", lambda text, rng: ""),
    ("a NUL inside", lambda text, rng: text[:len(text) // 2] + "\x00" + text[len(text) // 2:]),
    ("a stylesheet import", _inside("<style>@import url('http://example.com/x.css'); rect {fill: red}</style>")),
    ("a gradient to nowhere", _inside("<rect width='5' height='5' fill='url(#nowhere)'/>")),
]


# -- PNG ----------------------------------------------------------------------------------------------

def _chunk(kind: bytes, body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")


def _png(width: int, height: int, depth: int, colour: int, rows: bytes) -> bytes:
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([depth, colour, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(rows, 9))
            + _chunk(b"IEND", b""))


@functools.lru_cache(maxsize=None)
def _valid() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 40, 40)).save(out, "PNG")
    return out.getvalue()


@functools.lru_cache(maxsize=None)
def _bomb() -> bytes:
    """20,000 x 20,000 pixels of 1 bit (400 million pixels) in about 50 KB."""
    row = b"\x00" + b"\x00" * (20_000 // 8)
    return _png(20_000, 20_000, 1, 0, row * 20_000)


def _other(fmt: str, mode: str = "RGB") -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new(mode, (16, 16)).save(out, fmt)
    return out.getvalue()


PNG_KINDS = {
    "valid": lambda rng: _valid(),
    "truncated": lambda rng: _valid()[:rng.randrange(8, len(_valid()))],
    "garbage": lambda rng: bytes(rng.randrange(256) for _ in range(400)),
    "header-only": lambda rng: _valid()[:8],
    "flipped": lambda rng: (lambda d, i: d[:i] + bytes([d[i] ^ 0x10]) + d[i + 1:])(_valid(), rng.randrange(8, 60)),
    "decompression-bomb": lambda rng: _bomb(),
    "lying-header": lambda rng: _png(100_000, 100_000, 8, 2, b"\x00" * 64),
    "zero-size": lambda rng: _png(0, 0, 8, 2, b""),
    "16-bit": lambda rng: _png(4, 4, 16, 2, (b"\x00" + b"\xff" * 24) * 4),
    "jpeg-named-png": lambda rng: _other("JPEG"),
    "cmyk-jpeg": lambda rng: _other("JPEG", "CMYK"),
    "gif": lambda rng: _other("GIF", "P"),
    "empty": lambda rng: b"",
    "svg-named-png": lambda rng: b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/>",
    "folder": lambda rng: None,
}


def png_bytes(kind: str, rng) -> bytes | None:
    return PNG_KINDS[kind](rng)
