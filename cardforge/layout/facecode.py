"""A face's drawing kept apart from the document it is written into.

A PDF's text is written in codes of font subsets that each document numbers in the order it meets
characters; icons are forms, and a colour's alpha a graphics state, that each document names in
the order it first uses them.  So the bytes of a drawn face depend on what the document drew
before it.  While a face is drawn, its text runs and icons are written as marks (`FaceCode.mark`),
its graphics states become marks after (`face_pieces`), and the rest of its operators stay as
they are (the face is drawn at its own origin, moved into place by one `cm`: render/face.py).
What it asks of the document besides (PDF 1.4 for transparency) is collected by watch_versions.
`resolve` then writes each mark for one document, in order: the codes are assigned and the forms
named exactly as drawing there directly would, so a face kept and placed again, in this document
or another (A4 and Letter, the next build: render/replay.py), writes the bytes a fresh drawing
would.
"""
from __future__ import annotations

import weakref
from pathlib import Path

from ..lazy import lazy_module

pdfmetrics = lazy_module("reportlab.pdfbase.pdfmetrics")

MARK = "\x00"  # around a mark's number in an operator string; reportlab escapes it in any PDF string
TEXT, ICON, STATE = "t", "i", "g"


class FaceCode:
    """The marks of one face being drawn, and whether anything it drew is not markable."""
    __slots__ = ("marks", "spoiled")

    def __init__(self):
        self.marks: list[tuple] = []
        self.spoiled = False  # something was written in the document's own terms: never kept

    def mark(self, item: tuple) -> str:
        self.marks.append(item)
        return f"{MARK}{len(self.marks) - 1}{MARK}"


def watch_versions(canvas) -> None:
    """Collect every PDF feature a drawing asks the document for (reportlab makes a document PDF 1.4
    where transparency is set, even where no operator shows it), so that a face or an icon's form
    placed again asks for the same (`asked_versions`)."""
    doc = getattr(canvas, "_doc", None)
    if doc is None:  # no canvas: the asset check evaluates faces without drawing them
        return
    asked: list[str] = []
    original = doc.ensureMinPdfVersion

    def ensure(*keys: str) -> None:
        asked.extend(keys)
        original(*keys)

    doc.ensureMinPdfVersion = ensure
    canvas._asked_versions = asked


def pdf_feature(key) -> bool:
    """Whether `key` is a PDF feature reportlab knows (a kept entry's, read back from the disk cache)."""
    from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION
    return isinstance(key, str) and key in PDF_SUPPORT_VERSION


def asked_versions(canvas) -> list[str] | None:
    """What the canvas's drawing has asked for so far (watch_versions), or None: not watched."""
    asked = canvas.__dict__.get("_asked_versions") if hasattr(canvas, "__dict__") else None
    return asked if isinstance(asked, list) else None


WRITTEN_KEPT = 1000  # drawings kept per document by written_once


def written_once(canvas, memo: dict, key, draw):
    """`draw()` on `canvas`, whose operators do not depend on where they are drawn (a shape of a
    face drawn at its own origin; a sheet's crop marks): drawn once per document for each `key`,
    then its operators are written again, with the PDF features it asked for (a colour asks for
    transparency).  Returns what `draw` returned.  Not kept: what sets a graphics state (the
    document names it) or draws on an unwatched canvas (`check`'s measuring one)."""
    asked = asked_versions(canvas)
    if asked is None:
        return draw()
    key = (key, tuple(canvas._extgstate._d.items()))  # what the current graphics state leaves unwritten
    kept = memo.get(key)
    if kept is not None:
        code, features, result = kept
        if features:
            canvas._doc.ensureMinPdfVersion(*features)
        canvas._code.extend(code)
        return result
    start, asked_before = len(canvas._code), len(asked)
    result = draw()
    code = canvas._code[start:]
    if not any(" gs" in line for line in code):
        if len(memo) >= WRITTEN_KEPT:
            memo.clear()
        memo[key] = (code, tuple(asked[asked_before:]), result)
    return result


def recording(canvas) -> FaceCode | None:
    """The face being drawn on `canvas`, where its text and icons are written as marks."""
    code = canvas.__dict__.get("_face_code") if hasattr(canvas, "__dict__") else None
    return code if isinstance(code, FaceCode) else None


def text_mark(code: FaceCode, text, string: str) -> str:
    """A run of `text` (a reportlab text object in a TrueType font), as a mark.  A run right after
    the object's setFont writes its font first; later runs continue in the subset the one before
    ended in, as reportlab's own text output does."""
    fresh = text._curSubset == -1
    text._curSubset = -2  # the subset is known only when the mark is written
    marks = code.marks
    marks.append((TEXT, text._fontname, text._fontsize, text._leading, fresh, string))
    return f"{MARK}{len(marks) - 1}{MARK}"


def icon_mark(code: FaceCode, name: str, color: str, source: Path | None) -> str:
    return code.mark((ICON, name, color, None if source is None else str(source)))


def face_pieces(canvas, code: FaceCode, entries: list[str]) -> list[str]:
    """A face's operator strings as reportlab writes them into the page (one per line), split at
    the marks: literal text and mark numbers, in turn.  The graphics states the face set (`/gRLs0
    gs`: a colour's alpha) become marks first: reportlab names each (key, value) pair in the order a
    canvas first sets it.  It writes a state only where it differs from the canvas's, so a face is
    kept only if it began in the default state."""
    joined = "\n".join(entries)
    if " gs" in joined:
        names = None
        for i, entry in enumerate(entries):
            if entry[-3:] == " gs" and entry[:1] == "/":
                if names is None:
                    if canvas._extgstate._d:
                        code.spoiled = True
                        break
                    names = {name: pair for pair, name in canvas._extgstate._c.items()}
                key, value = names[entry[1:-3]]
                entries[i] = code.mark((STATE, key, value))
        joined = "\n".join(entries)
    return joined.split(MARK)


def resolve(canvas, painter, pieces: list[str], marks: list) -> str:
    """The face's operators (face_pieces) with every mark written for `canvas`'s document, in order:
    one string, the lines reportlab would have written."""
    doc, escape, out = canvas._doc, canvas._escape, list(pieces)
    state, fonts, subset = _state(doc), {}, -1
    for i in range(1, len(out), 2):
        item = marks[int(out[i])]
        if item[0] == TEXT:
            _, font_name, size, leading, fresh, string = item
            font = fonts.get(font_name)
            if font is None:
                font = fonts[font_name] = pdfmetrics.getFont(font_name)
            out[i], subset = encode_run(font, state, doc, escape, size, leading, string, -1 if fresh else subset)
        elif item[0] == STATE:  # named as reportlab's ExtGState.set names it
            states = canvas._extgstate._c
            pair = (item[1], item[2])
            if pair not in states:
                states[pair] = f"gRLs{len(states)}"
            out[i] = f"/{states[pair]} gs"
        else:
            _, name, color, source = item
            form = painter.form(name, color, None if source is None else Path(source))
            canvas._formsinuse.append(form)
            out[i] = f"/{doc.getXObjectName(form)} Do"
    return "".join(out)


def show(text, string: str) -> None:
    """Write `string` into a reportlab text object in its current font, as its textOut does, but
    without moving its cursor (every run is placed by set_run, so the cursor is never read).
    While a face is drawn (layout/facecode.py) a TrueType run is written as a mark, and its codes
    when the face is placed."""
    if getattr(text, "measuring", False) is True:  # check's NullCanvas (output/pdf.py) answers for its text objects
        return
    code = recording(text._canvas)
    dynamic = _DYNAMIC.get(text._fontname)
    if dynamic is None:
        dynamic = _DYNAMIC[text._fontname] = bool(pdfmetrics.getFont(text._fontname)._dynamicFont)
    if not dynamic:
        if code is not None:
            code.spoiled = True  # a Type 1 font's name is the document's: this face is not kept
        text._textOut(string)  # reportlab's own way
        return
    if code is not None:
        text._code.append(text_mark(code, text, string))
        return
    doc = text._doc
    written, text._curSubset = encode_run(pdfmetrics.getFont(text._fontname), _state(doc), doc, text._canvas._escape,
                                          text._fontsize, text._leading, string, text._curSubset)
    text._code.append(written)


_DYNAMIC: dict[str, bool] = {}  # font name -> whether reportlab subsets it (TrueType) as text is written


def encode_run(font, state: _DocumentText, doc, escape, size: float, leading: float, string: str,
               subset: int) -> tuple[str, int]:
    """What reportlab's text output writes for `string` in a TrueType font in `doc`, where the text
    object's current subset is `subset` (-1: none yet); returns it and the subset it ends in.
    Where every character already has a code in the first subset (all but a document's first few
    texts), it is encoded with one str.translate instead of reportlab's per-character splitString,
    and remembered: a code once given keeps its character for the rest of the document."""
    shown = state.shown.get((font.fontName, string))
    if shown is None:
        encoded = _encoded(font, state, doc, string)
        if encoded is not None:
            shown = f"({escape(encoded)}) Tj"
            if len(state.shown) > SHOWN_LIMIT:
                state.shown.clear()
            state.shown[(font.fontName, string)] = shown
    if shown is not None:
        if subset == 0:
            return shown, 0
        # The font's first subset set, as every text object's first run of it sets it.
        first = state.first.get((font.fontName, size, leading))
        if first is None:
            from reportlab.lib.rl_accel import fp_str
            first = state.first[(font.fontName, size, leading)] = \
                f"{font.getSubsetInternalName(0, doc)} {fp_str(size)} Tf {fp_str(leading)} TL "
        return first + shown, 0
    from reportlab.lib.rl_accel import fp_str
    written, switch = [], None
    for part, chars in font.splitString(string, doc):  # as reportlab's PDFTextObject._formatText
        if part != subset:
            switch = switch or f"{fp_str(size)} Tf {fp_str(leading)} TL"
            written.append(f"{font.getSubsetInternalName(part, doc)} {switch}")
            subset = part
        written.append(f"({escape(chars)}) Tj")
    return " ".join(written), subset


class _FirstSubset:
    """A TrueType font's codes in one document's first subset, as a str.translate table."""
    __slots__ = ("table", "chars", "seen")

    def __init__(self):
        self.table: dict[int, int] = {}
        self.chars: set[str] = set()
        self.seen = -1  # how many of the font's assignments the table holds


SHOWN_LIMIT = 4_000  # runs remembered per document, as written (a 10,000-card kit has more)


class _DocumentText:
    """One document's text state: each font's first-subset codes, runs as written, and the
    operators that set a font's first subset."""
    __slots__ = ("subsets", "shown", "first")

    def __init__(self):
        self.subsets: dict[str, _FirstSubset] = {}
        self.shown: dict[tuple[str, str], str] = {}
        self.first: dict[tuple[str, float, float], str] = {}  # (font, size, leading) -> its Tf and TL


# Per document (reportlab's PDFDocument), dropped with it.
_documents: "weakref.WeakKeyDictionary[object, _DocumentText]" = weakref.WeakKeyDictionary()


def _state(doc) -> _DocumentText:
    state = _documents.get(doc)
    if state is None:
        state = _documents[doc] = _DocumentText()
    return state


def _encoded(font, state: _DocumentText, doc, string: str) -> bytes | None:
    """`string` in the font's first-subset codes of `doc`, or None where reportlab must assign
    codes (a character met for the first time, one the font lacks) or use another subset."""
    font_state = font.state.get(doc)  # reportlab's: the codes it has assigned in this document
    if font_state is None:
        return None
    subsets = state.subsets
    known = subsets.get(font.fontName)
    if known is None:
        known = subsets[font.fontName] = _FirstSubset()
    assignments = font_state.assignments
    if known.seen != len(assignments):  # codes were assigned since: take the new ones in
        for code, n in assignments.items():
            if n < 256 and code not in known.table and code != 0:
                known.table[code] = n
                known.chars.add(chr(code))
        if 32 in known.table:
            known.table[0xA0] = known.table[32]  # reportlab prints a no-break space as a space
            known.chars.add("\xa0")
        known.seen = len(assignments)
    if not known.chars.issuperset(string):
        return None
    return string.translate(known.table).encode("latin-1")
