"""Reading a page back (verify/pdfread.py): what reportlab writes on one line and the reader takes
as one token (a positioned string "Tm (string) Tj", a stroked segment "n m l S", a clipping
rectangle "n re W* n") reads as the same operators written any other way."""
from __future__ import annotations

import io
import zlib

from pypdf import PdfReader
from pypdf.generic import NameObject, StreamObject
from reportlab.pdfgen.canvas import Canvas

from cardforge.verify.pdfread import FaceBodies, PageReader


def _page(draw):
    buffer = io.BytesIO()
    c = Canvas(buffer, pageCompression=0)
    draw(c)
    c.save()
    return PdfReader(buffer).pages[0]


def _lines(c):
    c.line(10, 20, 300, 20)  # n 10 20 m 300 20 l S
    p = c.beginPath()
    p.rect(60, 600, 200, 150)
    c.clipPath(p, stroke=0, fill=0, fillMode=0)  # n 60 600 200 150 re W* n
    text = c.beginText()
    text.setFont("Helvetica", 10)
    for i, line in enumerate(["first (line)", "back\\slash", "Tj 1 0 0 1 9 9 Tm"]):
        text.setTextOrigin(72, 700 - 12 * i)
        text.textOut(line)
    c.drawText(text)


def _runs(page) -> list[tuple]:
    reader = PageReader(page, {}).read()
    return [(r.text, round(r.x0, 3), round(r.y0, 3), round(r.x1, 3), b.clip) for b in reader.blocks for r in b.runs] \
        + [(colour, [line for _, line in path]) for colour, path in reader.strokes]


def test_one_line_text_reads_as_its_operators():
    page = _page(_lines)
    data = page.get_contents().get_data()
    assert b"1 0 0 1 72 688 Tm (back\\\\slash) Tj" in data  # the form the reader takes in one token
    runs = _runs(page)
    assert [r[0] for r in runs[:3]] == ["first (line)", "back\\slash", "Tj 1 0 0 1 9 9 Tm"]
    assert [r[1:3] for r in runs[:3]] == [(72, 700), (72, 688), (72, 676)]
    assert runs[0][4] == (60, 600, 260, 750)  # drawn inside the clipping rectangle
    assert runs[3] == ((0.0, 0.0, 0.0), [b"10 20 m", b"300 20 l"])
    # The same operators, one a line: the same runs, clip and strokes.
    assert b"n 10 20 m 300 20 l S" in data and b"n 60 600 200 150 re W* n" in data
    spread = data.replace(b" Tm ", b" Tm\n").replace(b") Tj", b")\nTj").replace(b" l S", b" l\nS") \
        .replace(b" re W* n", b" re\nW*\nn")
    assert spread != data
    stream = StreamObject()
    stream.set_data(spread)
    page[NameObject("/Contents")] = stream
    assert _runs(page) == runs


# -- a face placed again is read once (FaceBodies) ---------------------------------------------

def _face(c, x, y, title):
    c.saveState()
    c.translate(x, y)  # q / 1 0 0 1 x y cm, as render/face.py moves a face into place
    p = c.beginPath()
    p.rect(0, 0, 100, 140)
    c.clipPath(p, stroke=0, fill=0, fillMode=0)
    c.roundRect(5, 5, 90, 130, 4)
    text = c.beginText()
    text.setFont("Helvetica", 9)
    text.setTextOrigin(10, 120)
    text.textOut(title)
    c.drawText(text)
    c.restoreState()


def _sheet(c, titles):
    c.line(0, 5, 20, 5)  # furniture before and after the faces
    for i, title in enumerate(titles):
        _face(c, 20 + 110 * (i % 4), 500 - 150 * (i // 4), title)
    c.drawString(30, 20, "page footer")


def _pages(draw_pages):
    buffer = io.BytesIO()
    c = Canvas(buffer, pageCompression=0)
    for titles in draw_pages:
        _sheet(c, titles)
        c.showPage()
    c.save()
    return PdfReader(buffer).pages


def _everything(reader) -> list:
    return ([(b.clip, [(r.text, r.x0, r.y0, r.x1, r.size, r.y1, r.up) for r in b.runs]) for b in reader.blocks]
            + [(p.name, p.x0, p.y0, p.x1, p.y1, p.clip) for p in reader.placed]
            + [(colour, [(m, line) for m, line in path]) for colour, path in reader.strokes])


def _close(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) < 1e-9
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def test_a_face_placed_again_reads_as_when_read_anew():
    pages = _pages([["BACK"] * 7 + ["Other"], ["BACK"] * 3, ["Front 1", "Front 2"]])
    faces, fonts = FaceBodies(), {}
    for page in pages:
        whole = PageReader(page, fonts).read()
        kept = PageReader(page, fonts).read(faces)
        assert _close(_everything(kept), _everything(whole))
    kept_faces = [key[0] for key in faces._read if key[0] != b"opening"]
    assert len(kept_faces) == 1 and kept_faces[0].count(b"(BACK) Tj") == 1  # once for all ten placements
    # The fronts' opening (clip and border, alike on every face) is read once too, not their text.
    openings = [key[1] for key in faces._read if key[0] == b"opening"]
    assert len(openings) == 1 and b" re W* n" in openings[0] and b"Tj" not in openings[0]
    assert [r.text for b in kept.blocks for r in b.runs] == ["Front 1", "Front 2", "page footer"]
    second = PageReader(pages[1], fonts).read(faces)
    backs = [(round(r.x0, 3), round(r.y0, 3)) for b in second.blocks for r in b.runs if r.text == "BACK"]
    assert backs == [(30, 620), (140, 620), (250, 620)]  # each where it was placed


def _raw_page(content: bytes):
    page = _pages([["X", "X"]])[0]
    stream = StreamObject()
    stream.set_data(content)
    page[NameObject("/Contents")] = stream
    return page


def test_what_only_looks_like_a_face_is_read_whole():
    face = b"q\n1 0 0 1 %d 100 cm\nBT /F1 9 Tf 1 0 0 1 5 5 Tm (%s) Tj ET\nQ\n"
    # A string with a line break and what follows one in a face's start: the page is read whole.
    trick = b"1 0 0 1 0 0 cm\n" + face % (10, b"A") + face % (120, b"A") + \
        b"BT /F1 9 Tf 1 0 0 1 5 5 Tm (B\nq\n1 0 0 1 5 5 cm\nC) Tj ET\n" + face % (230, b"A") + face % (340, b"A")
    # A face whose Q is followed by operators of the page: not kept as a face.
    after = b"1 0 0 1 0 0 cm\n" + (face % (10, b"A") + b"BT /F1 9 Tf 1 0 0 1 7 7 Tm (page) Tj ET\n") * 3
    # A face with no text, then the page's: what comes before that BT is not one face's opening.
    bare = b"q\n1 0 0 1 %d 100 cm\nq\n0 0 1 RG\nn 1 1 m 9 9 l S\nQ\nQ\n"
    textless = b"1 0 0 1 0 0 cm\n" + b"".join(bare % x + b"BT /F1 9 Tf 1 0 0 1 7 7 Tm (page) Tj ET\n"
                                             for x in (10, 120, 230))
    for content in (trick, after, textless):
        page = _raw_page(content)
        whole = PageReader(page, {}).read()
        kept = PageReader(page, {}).read(FaceBodies())
        assert _everything(kept) == _everything(whole)
        assert len(whole.blocks) >= 3
    texts = [r.text for b in PageReader(_raw_page(trick), {}).read(FaceBodies()).blocks for r in b.runs]
    assert texts == ["A", "A", "B\nq\n1 0 0 1 5 5 cm\nC", "A", "A"]
    pages = [(round(r.x0), round(r.y0)) for b in PageReader(_raw_page(after), {}).read(FaceBodies()).blocks
             for r in b.runs if r.text == "page"]
    assert pages == [(7, 7)] * 3  # not moved with the face before it
    read = PageReader(_raw_page(textless), {}).read(FaceBodies())
    assert [(round(r.x0), round(r.y0)) for b in read.blocks for r in b.runs] == [(7, 7)] * 3
    assert [(colour, round(path[0][0][4])) for colour, path in read.strokes] == [((0.0, 0.0, 1.0), x)
                                                                                 for x in (10, 120, 230)]


# -- a font's strings decoded (text and width) -------------------------------------------------

def _font(widths: list[float], cmap: dict[int, str]):
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NumberObject

    from cardforge.verify.pdfread import _Font
    lines = "".join(f"<{code:02X}> <{''.join(f'{ord(c):04X}' for c in text)}>\n" for code, text in cmap.items())
    stream = StreamObject()
    stream.set_data(f"{len(cmap)} beginbfchar\n{lines}endbfchar\n".encode())
    font = DictionaryObject()
    font[NameObject("/FirstChar")] = NumberObject(32)
    font[NameObject("/Widths")] = ArrayObject(FloatObject(w) for w in widths)
    font[NameObject("/ToUnicode")] = stream
    return _Font(font)


def test_a_string_reads_as_its_codes_say_by_whichever_path():
    """The common font (one Latin-1 character per code, whole widths) is read by translate and
    by the word; a ligature's code, or a width with a fraction, by the code: the same answers."""
    widths = [250.0, 600.0, 610.0, 500.0, 333.0]  # codes 32 (space) to 36
    raw = b"!\"# $!! %$ !"
    common = _font(widths, {33: "A", 34: "\xe9", 35: "", 36: "b"})
    ligature = _font(widths, {33: "A", 34: "\xe9", 35: "", 36: "fi"})
    fraction = _font(widths[:4] + [333.5], {33: "A", 34: "\xe9", 35: "", 36: "b"})
    # codes 33 34 35 32 36 33 33 32 37 36 32 33; 35 says nothing, 37 is unmapped and has no width
    assert common.decode(raw) == ("A\xe9 bAA %b A", (600 * 4 + 610 + 500 + 250 * 3 + 333 * 2) / 1000)
    assert common._latin is not None and common._words is not None
    assert ligature.decode(raw) == ("A\xe9 fiAA %fi A", common.decode(raw)[1])
    assert ligature._latin is None
    assert fraction.decode(raw) == ("A\xe9 bAA %b A", (600 * 4 + 610 + 500 + 250 * 3 + 333.5 * 2) / 1000)
    assert fraction._words is None
    assert common.decode(raw) == common.decode(raw)  # the second time from the words it knows
