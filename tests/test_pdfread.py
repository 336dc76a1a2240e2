"""Reading a page back (verify/pdfread.py): what reportlab writes on one line and the reader takes
as one token (a positioned string "Tm (string) Tj", a stroked segment "n m l S", a clipping
rectangle "n re W* n") reads as the same operators written any other way."""
from __future__ import annotations

import io
import zlib

from pypdf import PdfReader
from pypdf.generic import NameObject, StreamObject
from reportlab.pdfgen.canvas import Canvas

from cardforge.verify.pdfread import PageReader


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
