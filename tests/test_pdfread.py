"""Reading a page back (verify/pdfread.py): reportlab's one-line "Tm (string) Tj" text, which the
reader takes as one token, reads as the same runs as the same operators written any other way."""
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
    text = c.beginText()
    text.setFont("Helvetica", 10)
    for i, line in enumerate(["first (line)", "back\\slash", "Tj 1 0 0 1 9 9 Tm"]):
        text.setTextOrigin(72, 700 - 12 * i)
        text.textOut(line)
    c.drawText(text)


def _runs(page) -> list[tuple]:
    reader = PageReader(page, {}).read()
    return [(r.text, round(r.x0, 3), round(r.y0, 3), round(r.x1, 3)) for b in reader.blocks for r in b.runs]


def test_one_line_text_reads_as_its_operators():
    page = _page(_lines)
    data = page.get_contents().get_data()
    assert b"1 0 0 1 72 688 Tm (back\\\\slash) Tj" in data  # the form the reader takes in one token
    runs = _runs(page)
    assert [r[0] for r in runs] == ["first (line)", "back\\slash", "Tj 1 0 0 1 9 9 Tm"]
    assert [r[1:3] for r in runs] == [(72, 700), (72, 688), (72, 676)]
    # The same operators, one a line: the same runs.
    spread = data.replace(b" Tm ", b" Tm\n").replace(b") Tj", b")\nTj")
    assert spread != data
    stream = StreamObject()
    stream.set_data(spread)
    page[NameObject("/Contents")] = stream
    assert _runs(page) == runs
