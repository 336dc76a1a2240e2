"""Contrast read back from a built PDF: what the player's printer gets, not what the renderer meant.

The same measure as the faces' (drawn.py), on the written file: PDFium opens the PDF and every
page is rendered twice, once with all its text invisible (what is really behind each run: art,
bands, tiles, the next card's bleed) and once with each text object filled in a colour of its own,
without text anti-aliasing.  A run's pixels are those of its colour; its contrast is that of its
worst tenth of them against what the first rendering has there (drawn.measure_face).  Text that
a clip cuts away (a board's tile) or that something drawn later covers shows no pixels there and
is not measured.  Text inside forms (a face kept and placed again) is found and measured too.

Used by tests/test_access_printed.py, which builds a game and reads its kit back."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

from .drawn import DPI, Run, ident, measure_face

BOLD_WEIGHT = 600  # a font at least this heavy counts as bold (WCAG's 14 pt bold large text)


@dataclass
class PrintedRun:
    """One text object of a page as printed, and its measure."""
    page: int  # 1-based
    text: str
    fill: str  # #rrggbb
    background: str  # the colour behind its worst tenth of glyph pixels
    ratio: float
    required: float
    pixels: int


def printed_contrast(pdf: Path | bytes, dpi: float = DPI) -> list[PrintedRun]:
    """Every text run that shows on the PDF's pages, with its contrast against what is printed behind it."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    found: list[PrintedRun] = []
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            try:
                objects = [obj for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=32)]
                if not objects:
                    continue
                runs, texts = [], []
                for obj in objects:
                    runs.append(Run(frame=str(index), fill=_fill(obj.raw), size=_size(obj), bold=_bold(obj.raw)))
                    texts.append(_text(obj.raw, textpage.raw))
                for obj in objects:
                    raw.FPDFTextObj_SetTextRenderMode(obj.raw, raw.FPDF_TEXTRENDERMODE_INVISIBLE)
                background = _render(page, dpi)
                for number, obj in enumerate(objects):
                    raw.FPDFTextObj_SetTextRenderMode(obj.raw, raw.FPDF_TEXTRENDERMODE_FILL)
                    raw.FPDFPageObj_SetFillColor(obj.raw, *ident(number), 255)
                glyphs = _render(page, dpi)
                for run, text, measured in zip(runs, texts, measure_face(runs, background, glyphs)):
                    if measured is not None:
                        fill, behind, ratio, need, pixels = measured
                        found.append(PrintedRun(index + 1, text, fill, behind, ratio, need, pixels))
            finally:
                textpage.close()
                page.close()
    finally:
        document.close()
    return found


def _render(page, dpi: float):
    return page.render(scale=dpi / 72.0, no_smoothtext=True, may_draw_forms=False).to_pil().convert("RGB")


def _fill(handle) -> tuple[int, int, int]:
    import pypdfium2.raw as raw
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not raw.FPDFPageObj_GetFillColor(handle, r, g, b, a):
        return (0, 0, 0)
    return (r.value, g.value, b.value)


def _size(obj) -> float:
    """The type size as printed: the font size times the text object's scale."""
    import pypdfium2.raw as raw
    size = ctypes.c_float()
    if not raw.FPDFTextObj_GetFontSize(obj.raw, size):
        return 0.0
    matrix = obj.get_matrix()
    scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
    return size.value * (scale or 1.0)


def _bold(handle) -> bool:
    import pypdfium2.raw as raw
    font = raw.FPDFTextObj_GetFont(handle)
    if not font:
        return False
    if raw.FPDFFont_GetWeight(font) >= BOLD_WEIGHT:
        return True
    # PDFium renamed FPDFFont_GetFontName (still the name in older pypdfium2 builds) to GetBaseFontName.
    base_name = getattr(raw, "FPDFFont_GetBaseFontName", None) or raw.FPDFFont_GetFontName
    length = base_name(font, None, 0)
    if length <= 0:
        return False
    buffer = ctypes.create_string_buffer(length)
    base_name(font, buffer, length)
    return b"bold" in buffer.value.lower()


def _text(handle, textpage) -> str:
    import pypdfium2.raw as raw
    length = raw.FPDFTextObj_GetText(handle, textpage, None, 0)
    if length <= 2:
        return ""
    buffer = ctypes.create_string_buffer(length)
    raw.FPDFTextObj_GetText(handle, textpage, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), length)
    return buffer.raw[:length - 2].decode("utf-16-le", errors="replace").strip()
