"""Fonts: TrueType files shipped with cardforge (resources.py: the repository's fonts/ folder,
copied into the package by the build) and a game's own, never the system's.

reportlab embeds and subsets every TTF it draws with.  A family maps the four
styles to registered font names; a style the family lacks falls back to the
nearest one it has (bold_italic -> bold -> regular), so a layout never fails on
a missing style, but a missing *character* is an error (see `missing_chars`).

A family may have `synthesized:` styles (fonts.yaml): a font with one upright face (WenQuanYi
Micro Hei for Chinese, Japanese and Korean) is drawn bold by stroking its outlines as well as
filling them, and italic by slanting the text matrix, as typesetters do for such fonts.  The
synthesized face is its own font name (its own subset in the PDF) over the same parsed file;
text.py and `draw_string` read `synthesized(font)` when they set the text.
"""
from __future__ import annotations

import copy
import json
import math
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .. import diskcache, resources
from ..lazy import lazy_module
from ..limits import MAX_FONT_BYTES, limit_message
from .facecode import show

# reportlab is imported when a font is first registered or measured: a check whose faces all come
# from the disk cache (render/facecache.py) measures no text, and reportlab with Pillow is a third
# of its start-up.  The font files' parsing and embedding live in fontfiles.py, for the same reason.
pdfmetrics = lazy_module("reportlab.pdfbase.pdfmetrics")

STYLES = ("regular", "bold", "italic", "bold_italic")
SLANT = math.tan(math.radians(12))  # a synthesized italic: about the slant of DejaVu's and Noto's obliques
BOLD_STROKE = 0.035  # a synthesized bold: the outline stroked this wide (in ems) on top of its fill
_SYNTHESIZED: dict[str, tuple[bool, bool]] = {}  # font name -> (bold, italic), for every synthesized face
_FALLBACK = {"bold_italic": ("bold_italic", "bold", "italic", "regular"),
             "bold": ("bold", "regular"), "italic": ("italic", "regular"), "regular": ("regular",)}


def synthesized(font_name: str) -> tuple[bool, bool]:
    """Whether a face is drawn bold (outline stroked) and italic (slanted) by the drawing code."""
    return _SYNTHESIZED.get(font_name, (False, False))


def set_run(text, font_name: str, x: float, y: float, mode: int = 0) -> int:
    """Place a run of a text object at (x, y) in `font_name`'s way: slanted for a synthesized
    italic, stroked as well as filled (render mode 2) for a synthesized bold.  `mode` is the text
    object's render mode so far; returns the one now set (the caller strokes with draw_text)."""
    bold, italic = synthesized(font_name)
    if italic:
        text.setTextTransform(1, 0, SLANT, 1, x, y)
    else:
        text.setTextOrigin(x, y)
    if (2 if bold else 0) != mode:
        text.setTextRenderMode(2 if bold else 0)
    return 2 if bold else 0


def draw_text(canvas, text, size: float, stroked: bool, color=None) -> None:
    """Draw a text object; where a run is synthesized bold, its stroke is the fill's colour and
    BOLD_STROKE ems wide (and the render mode does not outlive it: q/Q)."""
    if not stroked:
        canvas.drawText(text)
        return
    canvas.saveState()
    canvas.setLineWidth(size * BOLD_STROKE)
    canvas.setStrokeColor(color if color is not None else canvas._fillColorObj)
    canvas.setLineJoin(1)
    canvas.drawText(text)
    canvas.restoreState()


@dataclass
class Family:
    name: str
    styles: dict[str, str]  # style -> reportlab font name (registered when first used)
    register: Callable[[str], None]

    def face(self, style: str) -> str:
        """The font name of a style (or its nearest), registered with reportlab to draw and measure."""
        font_name = self.face_name(style)
        self.register(font_name)
        return font_name

    def face_name(self, style: str) -> str:
        """The font name of a style (or its nearest), not registered: enough to ask which glyphs it has."""
        for candidate in _FALLBACK[style]:
            if candidate in self.styles:
                return self.styles[candidate]
        return self.styles["regular"]


class FontError(Exception):
    pass


class FontBook:
    """The font families available to one game; each is registered on first use."""

    def __init__(self):
        self.files: dict[str, tuple[dict[str, Path], str]] = {}  # family -> (style -> file, name prefix)
        self.families: dict[str, Family] = {}
        self._glyphs: dict[str, frozenset[int]] = {}  # font name -> its characters (glyphs())
        self._registered: set[str] = set()  # font names registered with reportlab, to draw and measure
        self._paths: dict[str, Path] = {}  # font name -> file
        self._covered: dict[str, set[str]] = {}  # font -> characters seen that it or a fallback has
        self.fallbacks: dict[str, list[str]] = {}  # family -> families drawing the glyphs it lacks, in order
        self._style_of: dict[str, tuple[str, str]] = {}  # font name -> (family, style)
        self.synthesized: dict[str, list[str]] = {}  # family -> styles drawn from its regular face
        self._base_of: dict[str, str] = {}  # a synthesized face's font name -> its regular face's

    def add_family(self, name: str, files: dict[str, Path], prefix: str = "", synthesized=()) -> None:
        self.files[name] = (dict(files), prefix)
        self.synthesized[name] = [s for s in synthesized if s in STYLES and s not in files]
        self.families.pop(name, None)

    def names(self) -> list[str]:
        return sorted(self.files)

    def family(self, name: str) -> Family | None:
        """A family; each of its styles is read from its file when first used (a TrueType file
        takes some 15 ms to parse, and most layouts use two or three of a family's styles)."""
        if name not in self.families:
            if name not in self.files:
                return None
            files, prefix = self.files[name]
            styles = {}
            for style, path in files.items():
                styles[style] = f"{prefix}{name}-{style}"
                self._paths[styles[style]] = Path(path)
                self._style_of[styles[style]] = (name, style)
            if "regular" not in styles:
                raise FontError(f"font family '{name}' has no regular style")
            for style in self.synthesized.get(name, []):
                styles[style] = f"{prefix}{name}-{style}"
                self._base_of[styles[style]] = styles["regular"]
                self._style_of[styles[style]] = (name, style)
            self.families[name] = Family(name, styles, self.register)
        return self.families[name]

    def ensure(self, font_name: str) -> None:
        """Register a font by its name (a face kept by an earlier drawing names it so)."""
        if font_name not in self._registered:
            for family in self.files:
                if font_name in self.family(family).styles.values():
                    self.register(font_name)
                    return
            raise FontError(f"no font is named '{font_name}'")

    def register(self, font_name: str) -> None:
        if font_name in self._registered:
            return
        base = self._base_of.get(font_name)
        if base is not None and font_name not in pdfmetrics.getRegisteredFontNames():
            self.register(base)  # the same parsed file under another name: its own subsets
            style = self._style_of[font_name][1]
            face = copy.copy(pdfmetrics.getFont(base))
            face.fontName, face.state = font_name, {}
            face.face = copy.copy(face.face)  # the PDF's name for a synthesized style: "WenQuanYiMicroHei,Bold"
            face.face.name = bytes(face.face.name) + b"," + style.title().replace("_", "").encode("ascii")
            pdfmetrics.registerFont(face)
            _SYNTHESIZED[font_name] = ("bold" in style, "italic" in style)
        elif font_name not in pdfmetrics.getRegisteredFontNames():
            path = self._paths[font_name]
            try:
                if path.stat().st_size > MAX_FONT_BYTES:  # reportlab reads the whole file into memory
                    raise FontError(f"cannot use font file {path.name}: " + limit_message(
                        f"a file of {path.stat().st_size // 1024 ** 2} MB", f"{MAX_FONT_BYTES // 1024 ** 2} MB per font"))
                from .fontfiles import TTFError, parsed
                pdfmetrics.registerFont(parsed(font_name, path))
            except (TTFError, OSError) as exc:
                raise FontError(f"cannot use font file {path.name}: {exc}") from None
            except FontError:
                raise
            except Exception as exc:  # noqa: BLE001 - a truncated or damaged file: struct.error, IndexError, ...
                raise FontError(f"cannot use font file {path.name}: it is damaged or truncated "
                                f"({type(exc).__name__}: {exc})") from None
        self._glyphs[font_name] = frozenset(pdfmetrics.getFont(font_name).face.charToGlyph)
        self._registered.add(font_name)

    def glyphs(self, font_name: str) -> frozenset[int]:
        """The characters a face has.  From the disk cache when the font file is known there, so
        that the glyph checks of a check with nothing to draw load neither reportlab nor the font."""
        found = self._glyphs.get(font_name)
        if found is None:
            key = self._coverage_key(font_name)
            stored = diskcache.get("font-glyphs", key) if key is not None else None
            if stored is not None:
                try:
                    found = frozenset(json.loads(stored))
                    if not all(type(code) is int for code in found):
                        raise ValueError("not a list of character codes")
                    self._glyphs[font_name] = found
                except (ValueError, TypeError):  # a damaged entry: read the font
                    found = None
            if found is None:  # not stored, or damaged: read from the font, and kept for the next check
                self.register(font_name)
                found = self._glyphs[font_name]
                if key is not None:
                    diskcache.put("font-glyphs", key, json.dumps(sorted(found)).encode("ascii"))
        return found

    def _coverage_key(self, font_name: str) -> bytes | None:
        path = self._paths.get(self._base_of.get(font_name, font_name))
        stamp = diskcache.file_stamp(path) if path is not None else None
        if stamp is None:
            return None
        return diskcache.fingerprint(__file__, "reportlab") + json.dumps(list(stamp)).encode("utf-8", "surrogatepass")

    def chain(self, font_name: str, register: bool = True) -> list[str]:
        """The font, then each fallback family (game.yaml `font_fallbacks`): its face of the same
        style first, then its nearer styles (an italic arrow is drawn slanted where the family has
        an italic, and upright rather than not at all where only its upright face has the glyph)."""
        family, style = self._style_of.get(font_name, ("", "regular"))
        faces = [font_name]
        for other in self.fallbacks.get(family, []):
            found = self.family(other)
            if found is None:
                continue
            for nearer in _FALLBACK[style]:
                if nearer in found.styles and found.face_name(nearer) not in faces:
                    faces.append(found.face(nearer) if register else found.face_name(nearer))
        return faces

    def runs(self, font_name: str, text: str) -> list[tuple[str, str]]:
        """`text` cut into (font, part): each character drawn by the first font of the chain that
        has it (the font itself where none has it: the glyph check reports that)."""
        faces = self.chain(font_name)
        if len(faces) == 1:
            return [(font_name, text)]
        out: list[tuple[str, str]] = []
        for ch in text:
            face = next((f for f in faces if ord(ch) in self._glyphs[f]), font_name)
            if out and out[-1][0] == face:
                out[-1] = (face, out[-1][1] + ch)
            else:
                out.append((face, ch))
        return out

    def string_width(self, canvas, font_name: str, size: float, text: str) -> float:
        return sum(canvas.stringWidth(part, face, size) for face, part in self.runs(font_name, text))

    def draw_string(self, canvas, font_name: str, size: float, x: float, y: float, text: str,
                    align: str = "left") -> None:
        """One line of cardforge's own text (a cover, a footer, the alignment test) drawn through
        the face's fallback chain, as card text is: a translated word in Hangul prints."""
        parts = self.runs(font_name, text)
        x -= {"left": 0, "centre": 0.5, "right": 1}[align] * self.string_width(canvas, font_name, size, text)
        line, mode, stroked = canvas.beginText(), 0, False
        for face, part in parts:
            line.setFont(face, size)
            mode = set_run(line, face, x, y, mode)
            stroked = stroked or mode == 2
            show(line, part)
            x += canvas.stringWidth(part, face, size)
        draw_text(canvas, line, size, stroked)

    def missing_chars(self, font_name: str, text: str) -> list[str]:
        """Characters of `text` that neither the font nor any of its fallbacks has."""
        covered = self._covered.get(font_name)
        if covered is None:
            covered = self._covered[font_name] = set("\n\t")
        unknown = set(text).difference(covered)  # most texts: none, in one set operation
        if not unknown:
            return []
        chain = [self.glyphs(f) for f in self.chain(font_name, register=False)]
        missing = []
        for ch in unknown:
            if any(ord(ch) in g for g in chain):
                covered.add(ch)
            else:
                missing.append(ch)
        return sorted(missing)


    def glyph_message(self, font_name: str, chars: list[str]) -> str:
        return f"font '{font_name}' has no glyph for " + ", ".join(describe_char(ch) for ch in chars)

    def glyph_help(self, font_name: str, chars: list[str]) -> str:
        """How to print `chars`: the family to add to the face's fallback chain where one of ours has
        them all, else how to bring a font of one's own."""
        family = self._style_of.get(font_name, (font_name,))[0]
        chain = self.fallbacks.get(family, [])
        scripts = sorted({s for s in map(script_of, chars) if s})
        what = " and ".join(scripts) + " letters" if scripts else "these characters"
        for other in sorted(self.names(), key=lambda name: (not scripts and name != "symbols", name)):
            if other == family or other in chain:
                continue
            try:
                glyphs = self.glyphs(self.family(other).face_name("regular"))
            except FontError:
                continue  # a game's damaged font is reported where it is declared
            if all(ord(ch) in glyphs for ch in chars):
                return (f"add a font that has {what} to the fallback chain of '{family}' in game.yaml: "
                        f"font_fallbacks: {{{family}: [{', '.join(chain + [other])}]}}")
        return (f"copy a TrueType font that has {what} into the game folder with its licence, name it under "
                "'fonts:' (fonts: {mine: {regular: fonts/Mine.ttf}}) and add it to the fallback chain of "
                f"'{family}': font_fallbacks: {{{family}: [{', '.join(chain + ['mine'])}]}}; or replace the character")


# The first word of a letter's Unicode name is its script, but for these qualifiers and names.
_NAME_QUALIFIERS = {"HALFWIDTH", "FULLWIDTH", "SMALL", "CAPITAL", "MODIFIER", "MATHEMATICAL"}
_SCRIPT_NAMES = {"CJK": "Han", "IDEOGRAPHIC": "Han", "HIRAGANA": "Hiragana", "KATAKANA": "Katakana"}


def script_of(ch: str) -> str | None:
    """The script of a letter as a reader names it ("Cyrillic", "Han", "Hangul"); CJK punctuation
    counts as Han; None for other symbols, digits and punctuation."""
    code = ord(ch)
    if not unicodedata.category(ch).startswith("L"):
        return "Han" if 0x3000 <= code <= 0x303F or 0xFF00 <= code <= 0xFF0F else None
    words = [w for w in unicodedata.name(ch, "").split(" ") if w not in _NAME_QUALIFIERS]
    if not words:
        return None
    return _SCRIPT_NAMES.get(words[0], words[0].capitalize())


def describe_char(ch: str) -> str:
    script = script_of(ch)
    return f"'{ch}' (U+{ord(ch):04X}{', ' + script if script else ''})"


_builtin: FontBook | None = None


def builtin_fonts() -> FontBook:
    """The families listed in fonts/fonts.yaml (loaded once per process)."""
    global _builtin
    if _builtin is None:
        fonts_dir = resources.path("fonts")
        index = fonts_dir / "fonts.yaml"
        if not index.is_file():
            raise FontError(f"cardforge's fonts folder is missing ({fonts_dir}); reinstall cardforge "
                            "('pip install --force-reinstall cardforge', or 'pip install -e .' in a checkout)")
        from ..diagnostics import Report
        from ..frontend.load import load_yaml
        problems = Report()
        doc = load_yaml(index, problems)  # through the disk cache, as a game's files: no YAML parser on a warm check
        if doc is None or problems.has_errors() or not isinstance(doc.data, dict):
            raise FontError(f"cardforge's font index {index} is damaged ({problems.items[0].message if problems.items else 'not a mapping'}); "
                            "reinstall cardforge")
        book = FontBook()
        for family, files in doc.data.items():
            made = files.pop("synthesized", [])
            book.add_family(family, {s: fonts_dir / f for s, f in files.items()}, synthesized=made)
        _builtin = book
    return _builtin


def fonts_for_game(game_id: str, extra: dict[str, dict[str, Path]],
                   fallbacks: dict[str, list[str]] | None = None) -> FontBook:
    """Built-in families plus those the game ships in its own folder, and its fallback chains."""
    base = builtin_fonts()
    if not extra and not fallbacks:
        return base
    book = FontBook()
    book.files.update(base.files)
    book.synthesized.update(base.synthesized)
    book.fallbacks.update(fallbacks or {})
    for family, files in extra.items():
        book.add_family(family, files, prefix=f"{game_id}-")
        for style in files:  # register now, so a broken font file is reported before drawing
            book.family(family).face(style)
    return book
