"""Rich text: parse card markup, fit it into a frame, draw it.

Markup (the output of a frame's template):
  **bold**, *italic*, a line break for a new line, a blank line for a new paragraph,
  :name: for an inline icon drawn at text size on the baseline, and \\* \\: for the
  literal characters.  A :word: that is not an icon name stays text.

Fitting shrinks the text from the frame's size down to its min_size until every
word fits the width and every line the height.  Widths scale linearly with the
font size, so words are measured once at 1 pt and line breaking is repeated
cheaply for each candidate size.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field


from ..units import mm
from .facecode import show
from .fonts import Family, draw_text, pdfmetrics, set_run

_SPACES: dict[str, float] = {}
_WIDTHS: dict[tuple[str, str], float] = {}


def _width(text: str, font: str) -> float:
    """Width at 1 pt, cached: card texts repeat the same words over and over."""
    key = (text, font)
    width = _WIDTHS.get(key)
    if width is None:
        if len(_WIDTHS) > 50_000:
            _WIDTHS.clear()
        width = _WIDTHS[key] = pdfmetrics.stringWidth(text, font, 1)
    return width


_PLAIN_WORDS: dict[tuple[str, str], "Word"] = {}
PLAIN_WORDS_KEPT = 5_000  # a game's vocabulary; a deck of numbered cards brings more, and they come and go


def _plain_word(word: str, font: str, space: float) -> "Word":
    """A word of plain text in one font, shared by every text that has it: card texts repeat the
    same words, and nothing changes a Word once it is made (a Chinese or Japanese word is cut
    into new ones by _cjk_split)."""
    key = (word, font)
    made = _PLAIN_WORDS.get(key)
    if made is None:
        if len(_PLAIN_WORDS) > PLAIN_WORDS_KEPT:
            _PLAIN_WORDS.clear()
        width = _width(word, font)
        made = _PLAIN_WORDS[key] = Word([Frag("text", word, font, width)], width, space)
    return made


def _space(font: str) -> float:
    width = _SPACES.get(font)
    if width is None:
        width = _SPACES[font] = pdfmetrics.stringWidth(" ", font, 1)
    return width


MARKUP_CHARS = re.compile(r"[*:\\\n]")
TOKEN_RE = re.compile(r"\\[*:\\_]|\*\*|\*|:[a-z][a-z0-9-]*:|\n|[ \t]+|[^*:\\\n \t]+|.", re.S)
ICON_WIDTH = 1.0  # inline icons are one em wide and high
PARAGRAPH_GAP = 0.45  # extra space between paragraphs, in ems
BASELINE = 0.8  # baseline below the top of the em box, in ems
STEP = 0.25  # size step when shrinking, in points


@dataclass(slots=True)
class Frag:
    kind: str  # "text" or "icon"
    value: str  # the text, or the icon name
    font: str  # reportlab font name (for text)
    width1: float  # width at 1 pt


@dataclass(slots=True)
class Word:
    frags: list[Frag]
    width1: float
    space1: float  # the space after this word, in the font of its last text, so runs draw exactly
    joined: bool = False  # no space after it: a line may break here, inside Chinese or Japanese text


@dataclass
class RichText:
    paragraphs: list[list[list[Word]]]  # paragraph -> hard line -> words
    space1: float  # width of a space in the regular face at 1 pt (for estimates)
    plain: str  # the text without markup, icons as :name:
    icons: dict[str, int]
    missing: dict[str, list[str]] = field(default_factory=dict)  # font -> characters it lacks


def parse(markup: str, family: Family, base_style: str, is_icon, uppercase: bool = False,
          missing_chars=None, runs=None) -> RichText:
    """`runs(font, text)` cuts text into the parts each font of the font's fallback chain draws."""
    bold = base_style in ("bold", "bold_italic")
    italic = base_style in ("italic", "bold_italic")
    paragraphs: list[list[list[Word]]] = [[[]]]
    current: list[Frag] = []
    plain: list[str] = []
    icons: dict[str, int] = {}
    missing: dict[str, list[str]] = {}
    newlines = 0
    cjk = not markup.isascii()  # lines may break inside words of some scripts (Chinese, Japanese): _cjk_split

    def font_now() -> str:
        style = "bold_italic" if bold and italic else "bold" if bold else "italic" if italic else "regular"
        return family.face(style)

    def end_word():
        if current:
            last_font = next((f.font for f in reversed(current) if f.kind == "text"), family.face("regular"))
            word = Word(list(current), sum(f.width1 for f in current), _space(last_font))
            paragraphs[-1][-1].extend(_cjk_split(word) if cjk else (word,))
            current.clear()

    def add_text(text: str):
        if uppercase:
            text = text.upper()
        font = font_now()
        if missing_chars is not None:
            lacking = missing_chars(font, text)
            if lacking:
                missing.setdefault(font, [])
                missing[font].extend(c for c in lacking if c not in missing[font])
        for part_font, part in runs(font, text) if runs is not None else [(font, text)]:
            width = _width(part, part_font)  # reportlab does not kern, so widths add up
            if current and current[-1].kind == "text" and current[-1].font == part_font:
                prev = current[-1]
                prev.value += part
                prev.width1 += width
            else:
                current.append(Frag("text", part, part_font, width))
        # A literal colon is kept apart from an icon's colons: see _plain_text.
        plain.append(text.replace("\\", "\\\\").replace(":", "\x00") if ":" in text or "\\" in text else text)

    plain_text = not MARKUP_CHARS.search(markup)
    single = runs(font_now(), markup) if plain_text and runs is not None else None
    if plain_text and (single is None or len(single) == 1):
        # Plain text (most card text): words separated by spaces, one font; no tokenizer needed.
        base = font_now()
        font = single[0][0] if single else base  # all of it in one fallback font: a Korean name
        space = _space(font)
        words = (markup.upper() if uppercase else markup).split()
        line = paragraphs[0][0]
        if cjk:
            for word in words:
                line.extend(_cjk_split(_plain_word(word, font, space)))
        else:
            line.extend([_plain_word(word, font, space) for word in words])
        if missing_chars is not None and words:
            lacking = missing_chars(base, "".join(words))
            if lacking:
                missing[base] = lacking
        return RichText(paragraphs, _space(family.face("regular")), " ".join(words), icons, missing)
    for token in TOKEN_RE.findall(markup.strip("\n")):
        if token == "\n":
            end_word()
            newlines += 1
            continue
        if newlines:
            if newlines == 1:
                paragraphs[-1].append([])
                plain.append("\n")
            else:
                paragraphs.append([[]])
                plain.append("\n\n")
            newlines = 0
        if token == "**":
            bold = not bold
        elif token == "*":
            italic = not italic
        elif token[0] in " \t":
            end_word()
            plain.append(" ")
        elif token.startswith("\\"):
            add_text(token[1:] or "\\")  # a lone backslash prints as itself
        elif len(token) > 2 and token[0] == ":" and token[-1] == ":" and is_icon(token[1:-1]):
            name = token[1:-1]
            current.append(Frag("icon", name, "", ICON_WIDTH))
            icons[name] = icons.get(name, 0) + 1
            plain.append(token)
        else:
            add_text(token)
    end_word()
    return RichText(paragraphs, _space(family.face("regular")), _plain_text("".join(plain).strip()), icons, missing)


# Where a line may break inside a word: Unicode's line breaking algorithm (UAX #14, through the Rust
# crate unicode-linebreak of unicode-segmentation-rs), with its East Asian rules: never before closing
# punctuation, a closing quote, a small kana or a prolonged sound mark, never after opening punctuation
# or an opening quote.  It is applied to the words that hold a character of a script written without
# spaces (wide or fullwidth: Chinese, Japanese, Yi, fullwidth forms); the words of scripts written
# with spaces break only at their spaces, as before (Latin, Greek, Cyrillic, and Korean kept whole
# like CSS's word-break: keep-all), so a hyphen or a slash does not start a new line in an English card.
_OBJECT = "\ufffc"  # an inline icon, to the algorithm: an object with break opportunities on both sides
_BREAKS_KEPT = 20_000
_BREAKS: dict[str, tuple[int, ...]] = {}


def _needs_breaks(text: str) -> bool:
    """Whether `text` (not ASCII) holds a character of a script that breaks between characters."""
    from unicodedata import east_asian_width
    return any(not ch.isascii() and east_asian_width(ch) in "WF" and not _HANGUL.match(ch) for ch in text)


_HANGUL = re.compile(r"[\u1100-\u11FF\u3130-\u318F\uA960-\uA97F\uAC00-\uD7FF]")


def _break_offsets(text: str) -> tuple[int, ...]:
    """The offsets inside `text` (one word, no spaces) before which a line may break: UAX #14's
    opportunities, or none for a word of a script written with spaces.  Cached: card texts repeat."""
    found = _BREAKS.get(text)
    if found is None:
        if len(_BREAKS) > _BREAKS_KEPT:
            _BREAKS.clear()
        if text.isascii() or not _needs_breaks(text):
            found = ()
        else:
            from unicode_segmentation_rs import line_breaks
            at_byte, offsets, size = 0, {}, 0  # the library counts in UTF-8 bytes
            for index, ch in enumerate(text):
                offsets[at_byte] = index
                at_byte += len(ch.encode("utf-8"))
            size = at_byte
            found = tuple(offsets[b] for b, _mandatory in line_breaks(text) if 0 < b < size)
        _BREAKS[text] = found
    return found


def _cjk_split(word: Word) -> list[Word]:
    """A word cut where its lines may break (UAX #14), its parts joined (no space between them)."""
    if not any(f.kind == "text" and not f.value.isascii() for f in word.frags):
        return [word]
    offsets = _break_offsets("".join(f.value if f.kind == "text" else _OBJECT for f in word.frags))
    if not offsets:
        return [word]
    cuts = set(offsets)
    parts: list[list[Frag]] = [[]]
    at = 0
    for frag in word.frags:
        units = frag.value if frag.kind == "text" else [None]
        for ch in units:
            if at in cuts:
                parts.append([])
            part = parts[-1]
            if ch is None:
                part.append(frag)
            elif part and part[-1].kind == "text" and part[-1].font == frag.font:
                part[-1] = Frag("text", part[-1].value + ch, frag.font, 0.0)
            else:
                part.append(Frag("text", ch, frag.font, 0.0))
            at += 1
    words = []
    for part in parts:
        for frag in part:
            if frag.kind == "text":
                frag.width1 = _width(frag.value, frag.font)
        words.append(Word(part, sum(f.width1 for f in part), 0.0, joined=True))
    words[-1].space1, words[-1].joined = word.space1, False
    return words


def _plain_text(text: str) -> str:
    """The text a frame prints as its manifest records it: icons as :name:, and a literal colon
    before a letter escaped (\\:) with literal backslashes doubled, so that a printed `Time:foo:`
    is not read back as an icon (verify/verifier.py strips the tokens, then unescapes)."""
    if "\x00" not in text:
        return text
    return re.sub("\x00(?=[a-z])", r"\\:", text).replace("\x00", ":")


@dataclass(slots=True)
class Line:
    words: list[Word]
    width1: float  # at 1 pt, spaces included
    indent1: float = 0.0  # at 1 pt: a list item's lines after its first start under its text


# A hard line that starts with a bullet or a number ("• ", "3. ", "b) ") is a list item (an HTML <li>
# becomes one, layout/markup.py): its next lines hang under its text, not under the marker.
_BULLETS = frozenset("•◦▪‣–-")
_NUMBER_MARKER = re.compile(r"(?:\d{1,3}|[a-z])[.)]")


def _hanging_indent(hard_line: list[Word]) -> float:
    """The indent (at 1 pt) of a list item's lines after its first; 0 for a line that is no item."""
    if len(hard_line) < 2:
        return 0.0
    first = hard_line[0]
    if first.joined or len(first.frags) != 1 or first.frags[0].kind != "text":
        return 0.0
    value = first.frags[0].value
    if value in _BULLETS or _NUMBER_MARKER.fullmatch(value):
        return first.width1 + first.space1
    return 0.0


@dataclass
class Fitted:
    size: float
    leading: float  # line height in points
    paragraphs: list[list[Line]]
    height: float

    def line_count(self) -> int:
        return sum(len(p) for p in self.paragraphs)


@dataclass
class Overflow:
    """Text that does not fit even at its minimum size: what is set as far as it goes (`kept`, the
    lines that fit the frame's height, a word wider than the frame on a line of its own), the lines
    cut off (`cut`: none when only a word's width is at fault) and their words as plain text, so
    that a preview can draw the text, mark the overflow and show what did not fit."""
    size: float
    message: str
    kept: Fitted | None = None
    cut: Fitted | None = None
    cut_text: str = ""
    kept_text: str = ""


def _break(rich: RichText, size: float, width: float, loose: bool = False) -> tuple[list[list[Line]], Word | None]:
    """Greedy line breaking at `size`. Returns the lines and a word too wide for any line (with
    `loose`, such a word is set on a line of its own and breaking goes on)."""
    max1 = width / size
    out: list[list[Line]] = []
    for paragraph in rich.paragraphs:
        lines: list[Line] = []
        for hard_line in paragraph:
            line: list[Word] = []
            used = 0.0
            hang = _hanging_indent(hard_line) if hard_line and len(hard_line[0].frags) == 1 else 0.0
            indent, room = 0.0, max1
            for word in hard_line:
                if word.width1 > room + 1e-9 and not loose:
                    return out, word
                extra = word.width1 + (line[-1].space1 if line else 0.0)
                if line and used + extra > room + 1e-9:
                    lines.append(Line(line, used, indent))
                    indent, room = hang, max1 - hang
                    if word.width1 > room + 1e-9 and not loose:
                        return out, word
                    line, used = [word], word.width1
                else:
                    line.append(word)
                    used += extra
            lines.append(Line(line, used, indent))
        out.append(lines)
    return out, None


def _height(paragraphs: list[list[Line]], size: float, leading: float) -> float:
    lines = sum(len(p) for p in paragraphs)
    return lines * size * leading + (len(paragraphs) - 1) * size * PARAGRAPH_GAP


def fit(rich: RichText, width: float, height: float, size: float, min_size: float,
        leading: float) -> Fitted | Overflow:
    """The largest size in [min_size, size] (in STEP steps) at which the text fits the box."""
    steps = max(0, int((size - min_size) / STEP + 1e-9))
    candidates = [size - i * STEP for i in range(steps + 1) if size - i * STEP >= min_size - 1e-9]
    if candidates[-1] > min_size + 1e-9:
        candidates.append(min_size)

    tried: dict[int, Fitted | None] = {}

    def attempt(i: int):
        if i not in tried:  # each size is broken into lines once
            s = candidates[i]
            paragraphs, too_wide = _break(rich, s, width)
            h = _height(paragraphs, s, leading) if too_wide is None else 0.0
            tried[i] = Fitted(s, s * leading, paragraphs, h) if too_wide is None and h <= height + 0.01 else None
        return tried[i]

    # Fitting gets easier as the size drops, so bisect for the first size that fits.
    lo, hi = 0, len(candidates) - 1
    if attempt(hi) is None:
        return _overset(rich, width, height, min_size, leading)
    while lo < hi:
        mid = (lo + hi) // 2
        if attempt(mid) is not None:
            hi = mid
        else:
            lo = mid + 1
    return attempt(lo)


CUT_QUOTED = 60  # characters of the words cut off, quoted in the diagnostic


def _overset(rich: RichText, width: float, height: float, size: float, leading: float) -> Overflow:
    """The overflow at the minimum size: the lines that fit the height, the lines cut off, and the
    diagnostic's message, which quotes the words that did not fit."""
    paragraphs, _ = _break(rich, size, width, loose=True)
    kept: list[list[Line]] = []
    cut: list[list[Line]] = []
    for paragraph in paragraphs:
        for line in paragraph:
            if not cut:
                trial = kept + [[line]] if not kept or line is paragraph[0] else kept[:-1] + [kept[-1] + [line]]
                if _height(trial, size, leading) <= height + 0.01:
                    kept = trial
                    continue
            if not cut or line is paragraph[0]:
                cut.append([])
            cut[-1].append(line)
    lines_kept = Fitted(size, size * leading, kept, _height(kept, size, leading) if kept else 0.0)
    lines_cut = Fitted(size, size * leading, cut, _height(cut, size, leading)) if cut else None
    cut_text = " ".join(_line_text(line) for paragraph in cut for line in paragraph)
    kept_text = " ".join(_line_text(line) for paragraph in kept for line in paragraph)
    message = _overflow_message(rich, width, height, size, leading, sum(len(p) for p in cut), cut_text)
    return Overflow(size, message, lines_kept, lines_cut, cut_text, kept_text)


def _line_text(line: Line) -> str:
    return "".join("".join(f.value if f.kind == "text" else f":{f.value}:" for f in word.frags)
                   + ("" if word.joined else " ") for word in line.words).rstrip(" ")


def _overflow_message(rich: RichText, width: float, height: float, size: float, leading: float,
                      lost: int, cut_text: str) -> str:
    paragraphs, too_wide = _break(rich, size, width)
    if too_wide is not None:
        text = "".join(f.value if f.kind == "text" else f":{f.value}:" for f in too_wide.frags)
        over = too_wide.width1 * size - width
        return (f"the word '{text}' is {mm(over):.1f} mm wider than the frame "
                f"({mm(width):.1f} mm) even at the minimum size {size:g} pt")
    needed = _height(paragraphs, size, leading)
    lines = sum(len(p) for p in paragraphs)
    quoted = cut_text if len(cut_text) <= CUT_QUOTED else (cut_text[:CUT_QUOTED].rsplit(" ", 1)[0] or
                                                          cut_text[:CUT_QUOTED]) + "…"  # whole words
    return (f"text needs {lines} lines ({mm(needed):.1f} mm) at the minimum size {size:g} pt "
            f"but the frame is {mm(height):.1f} mm high: {mm(needed - height):.1f} mm "
            f"({lost} line{'s' if lost != 1 else ''}) did not fit, from '{quoted}'")


def draw(canvas, fitted: Fitted, rich: RichText, x: float, top: float, width: float, height: float,
         align: str, valign: str, color, icon_painter, icon_color: str) -> list[str]:
    """Draw fitted text with its box's top-left at (x, top); returns the lines as plain text."""
    size = fitted.size
    if valign == "middle":
        top -= (height - fitted.height) / 2
    elif valign == "bottom":
        top -= height - fitted.height
    printed: list[str] = []
    baseline = top - (fitted.leading - size) / 2 - BASELINE * size
    text = canvas.beginText()
    text.setFillColor(color)
    state = {"font": None, "mode": 0, "stroked": False}  # render mode 2: a synthesized bold (fonts.py)
    icons: list[tuple[str, float, float]] = []

    def flush(run: list[str], font: str | None, x0: float, y0: float) -> None:
        # One positioned string per run of same-font text, spaces included: compact, and
        # copy-paste and text extraction see real words.
        if not run:
            return
        if font != state["font"]:
            text.setFont(font, size)
            state["font"] = font
        state["mode"] = set_run(text, font, x0, y0, state["mode"])  # slanted or stroked where synthesized
        state["stroked"] = state["stroked"] or state["mode"] == 2
        show(text, "".join(run))

    for p_index, paragraph in enumerate(fitted.paragraphs):
        if p_index:
            baseline -= PARAGRAPH_GAP * size
        for line in paragraph:
            line_width = (line.width1 + line.indent1) * size
            cursor = x + (width - line_width if align == "right" else (width - line_width) / 2 if align == "center" else 0)
            cursor += line.indent1 * size
            font = _one_font(line.words)
            if font is not None:  # words of one font, spaced: one run, as the loop below would draw it
                joined = " ".join([word.frags[0].value for word in line.words])
                flush([joined], font, cursor, baseline)
                printed.append(joined.rstrip(" "))
                baseline -= fitted.leading
                continue
            run: list[str] = []
            run_font, run_x = None, cursor
            words_plain = []
            for w_index, word in enumerate(line.words):
                if w_index:
                    previous = line.words[w_index - 1]
                    if run and not previous.joined:
                        run.append(" ")  # drawn in the run's font: the width the layout used
                    cursor += previous.space1 * size
                pieces = []
                for frag in word.frags:
                    if frag.kind == "icon":
                        flush(run, run_font, run_x, baseline)
                        run, run_font = [], None
                        icons.append((frag.value, cursor, baseline))
                        pieces.append(f":{frag.value}:")
                    else:
                        if frag.font != run_font or not run:
                            # A trailing space stays with the run whose font measured it.
                            flush(run, run_font, run_x, baseline)
                            run, run_font, run_x = [], frag.font, cursor
                        run.append(frag.value)
                        pieces.append(frag.value)
                    cursor += frag.width1 * size
                words_plain.append("".join(pieces) + ("" if word.joined else " "))
            flush(run, run_font, run_x, baseline)
            printed.append("".join(words_plain).rstrip(" "))
            baseline -= fitted.leading
    draw_text(canvas, text, size, state["stroked"], color)
    for name, ix, base in icons:
        # The icon's em box sits like a capital letter with a small descent, so it reads inline.
        icon_painter.draw(name, ix, base - 0.16 * size, size * ICON_WIDTH, size, icon_color)
    return printed


def _one_font(words: list[Word]) -> str | None:
    """The font of a line whose words are each one text fragment in that font, with spaces
    between them (no icon, no font change, no joined words); else None."""
    if not words:
        return None
    font = words[0].frags[0].font if words[0].frags else None
    for word in words:
        if word.joined or len(word.frags) != 1 or word.frags[0].kind != "text" or word.frags[0].font != font:
            return None
    return font or None


def unescape_recorded(text: str) -> str:
    """The literal text of a manifest record whose icon tokens were removed (see _plain_text)."""
    return _ESCAPED.sub(r"\1", text) if "\\" in text else text


_ESCAPED = re.compile(r"\\(.)")


ICON_RE = re.compile(r"(?<!\\):([a-z][a-z0-9-]*):")


def icon_names(text, prefix: str = "") -> list[str]:
    """The names of the :icon: tokens in a text (escaped ones excepted)."""
    if not isinstance(text, str):
        return []
    return [name for name in ICON_RE.findall(text) if name.startswith(prefix)]
