"""Fonts: TrueType files from the repository's fonts/ folder (and a game's own), never the system's.

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
import hashlib
import math
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont, TTFError
from ..limits import MAX_FONT_BYTES, limit_message

FONTS_DIR = Path(__file__).resolve().parents[2] / "fonts"
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
        for candidate in _FALLBACK[style]:
            if candidate in self.styles:
                break
        else:
            candidate = "regular"
        font_name = self.styles[candidate]
        self.register(font_name)
        return font_name


class FontError(Exception):
    pass


class SubsetFont(TTFont):
    """A TrueType font whose embedded subsets are tagged by their contents.

    PDF names an embedded subset `TAG+FontName`; reportlab numbers the tags (AAAAAA, AAAAAB, ...),
    so every PDF's first subset of a font is AAAAAA+ whatever it holds.  A print shop that merges
    several PDFs into one job can then take one subset for another and print the wrong glyphs.  Here
    the tag is six letters of a hash of the font and the characters the subset holds: distinct
    subsets get distinct tags, and the same input still gives the same bytes."""

    _lock = threading.Lock()

    def addObjects(self, doc):
        state = self.state.get(doc)
        subsets = list(state.subsets) if state is not None else []
        tags = [_subset_tag(self.face.name, subset) for subset in subsets]
        with SubsetFont._lock:  # reportlab reads the tag from a module function: swap it for this call
            numbered = ttfonts.SUBSETN
            ttfonts.SUBSETN = lambda n, *args: tags[n].encode("ascii")
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered


def _parsed(font_name: str, path: Path) -> SubsetFont:
    """SubsetFont(font_name, path), with reportlab's parse of the file (its tables, character map and
    widths: 30 ms for a Latin font, 230 ms for the CJK collection) from the disk cache (diskcache.py),
    keyed by the file's bytes: `check` runs on every save.  The entry holds the parse without the
    file's bytes, which are read here anyway; a font that does not parse is never stored."""
    import pickle
    from weakref import WeakKeyDictionary
    from .. import diskcache
    data = path.read_bytes()
    key = diskcache.fingerprint(__file__, "reportlab") + hashlib.sha256(data).digest()
    stored = diskcache.get("font-face", key)
    if stored is not None:
        try:
            attributes, face_attributes = pickle.loads(stored)
            font, face = SubsetFont.__new__(SubsetFont), ttfonts.TTFontFace.__new__(ttfonts.TTFontFace)
            font.__dict__.update(attributes, fontName=font_name, face=face, state=WeakKeyDictionary())
            face.__dict__.update(face_attributes, filename=str(path), _ttf_data=data,
                                 _pdfScale=_pdf_scale(face_attributes["unitsPerEm"]))
            return font
        except Exception:  # noqa: BLE001 - a damaged entry, or another reportlab's: a miss
            pass
    font = SubsetFont(font_name, str(path))
    attributes = {k: v for k, v in vars(font).items() if k not in ("fontName", "face", "state")}
    face_attributes = {k: v for k, v in vars(font.face).items() if k not in ("filename", "_ttf_data", "_pdfScale")}
    diskcache.put("font-face", key, pickle.dumps((attributes, face_attributes), protocol=pickle.HIGHEST_PROTOCOL))
    return font


def _pdf_scale(units_per_em: int) -> Callable[[float], float]:
    """Font units to PDF glyph space (1000 a side), as reportlab's TTFontFile computes it."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


def _subset_tag(face_name: bytes, subset: list[int]) -> str:
    digest = hashlib.sha256(bytes(face_name) + b"\0" + ",".join(map(str, subset)).encode("ascii")).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(6):
        number, index = divmod(number, 26)
        letters.append(chr(ord("A") + index))
    return "".join(letters)


class FontBook:
    """The font families available to one game; each is registered on first use."""

    def __init__(self):
        self.files: dict[str, tuple[dict[str, Path], str]] = {}  # family -> (style -> file, name prefix)
        self.families: dict[str, Family] = {}
        self._glyphs: dict[str, frozenset[int]] = {}
        self._paths: dict[str, Path] = {}  # font name -> file
        self._missing: dict[tuple[str, str], list[str]] = {}  # (font, word) -> characters it lacks
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

    def register(self, font_name: str) -> None:
        if font_name in self._glyphs:
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
                pdfmetrics.registerFont(_parsed(font_name, path))
            except (TTFError, OSError) as exc:
                raise FontError(f"cannot use font file {path.name}: {exc}") from None
            except FontError:
                raise
            except Exception as exc:  # noqa: BLE001 - a truncated or damaged file: struct.error, IndexError, ...
                raise FontError(f"cannot use font file {path.name}: it is damaged or truncated "
                                f"({type(exc).__name__}: {exc})") from None
        self._glyphs[font_name] = frozenset(pdfmetrics.getFont(font_name).face.charToGlyph)

    def chain(self, font_name: str) -> list[str]:
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
                if nearer in found.styles and found.face(nearer) not in faces:
                    faces.append(found.face(nearer))
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
            line.textOut(part)
            x += canvas.stringWidth(part, face, size)
        draw_text(canvas, line, size, stroked)

    def missing_chars(self, font_name: str, text: str) -> list[str]:
        """Characters of `text` that neither the font nor any of its fallbacks has."""
        key = (font_name, text)
        missing = self._missing.get(key)
        if missing is None:
            chain = [self._glyphs[f] for f in self.chain(font_name)]
            missing = sorted(ch for ch in set(text) if ch not in "\n\t" and not any(ord(ch) in g for g in chain))
            if len(self._missing) > 50_000:
                self._missing.clear()
            self._missing[key] = missing
        return missing


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
                face = self.family(other).face("regular")
            except FontError:
                continue  # a game's damaged font is reported where it is declared
            if all(ord(ch) in self._glyphs[face] for ch in chars):
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
        index = FONTS_DIR / "fonts.yaml"
        if not index.is_file():
            raise FontError(f"cardforge's fonts folder is missing ({FONTS_DIR}); reinstall with 'pip install -e .'")
        from ..diagnostics import Report
        from ..frontend.load import load_yaml
        problems = Report()
        doc = load_yaml(index, problems)  # through the disk cache, as a game's files: no YAML parser on a warm check
        if doc is None or problems.has_errors() or not isinstance(doc.data, dict):
            raise FontError(f"cardforge's font index {index} is damaged ({problems.items[0].message if problems.items else 'not a mapping'}); "
                            "reinstall with 'pip install -e .'")
        book = FontBook()
        for family, files in doc.data.items():
            made = files.pop("synthesized", [])
            book.add_family(family, {s: FONTS_DIR / f for s, f in files.items()}, synthesized=made)
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
