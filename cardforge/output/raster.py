"""Pieces as pictures: each face drawn by the same renderer as the PDF, then rasterised.

A batch of faces is drawn into one in-memory PDF, one page per face, each page the size of the
face's bleed box (or its trim box, without bleed).  pypdfium2 (PDFium, the PDF engine of
Chromium) turns each page into pixels.  Drawing through the PDF rather than a second raster
renderer means the picture is exactly what prints: the same fonts, fitting and icons.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Iterator

from reportlab.pdfgen.canvas import Canvas

from ..diagnostics import Report
from ..limits import MAX_RASTER_PIXELS, LimitError, limit_message
from ..prepare import Prepared
from ..render.face import CardRenderer

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0


@dataclass(frozen=True)
class Face:
    """One face to picture: a card or token (with its deck) or a board, a side and a copy."""
    piece: Any
    side: str
    copy: int = 1

    @property
    def is_board(self) -> bool:
        return not hasattr(self.piece, "deck")


def face_geometry(prep: Prepared, face: Face) -> tuple[Any, float, str]:
    """(layout, bleed in points, outline shape) of a face."""
    if face.is_board:
        return prep.boards[face.piece.id], prep.game.bleed, "rect"
    deck = face.piece.deck
    return prep.faces[(face.piece.id, face.side)], deck.bleed, deck.shape


def faces_pdf(prep: Prepared, faces: list[Face], report: Report, bleed: bool = True, outline: bool = False,
              records: list | None = None) -> bytes:
    """One page per face, sized to the face (with or without its bleed); `outline`: with frame
    boxes, safe zone, trim and bleed drawn over it (render/outline.py).  `records` receives each
    face's frames as the manifest records them (the soft proof names frames by them)."""
    buffer = io.BytesIO()
    prep.fonts.family("sans").face("regular")
    canvas = Canvas(buffer, invariant=1, pageCompression=0, initialFontName="sans-regular")
    renderer = CardRenderer(canvas, prep.game, prep.fonts, prep.icons, report)
    renderer.outline = outline
    for index, face in enumerate(faces):
        layout, face_bleed, shape = face_geometry(prep, face)
        margin = face_bleed if bleed else 0.0
        if index:
            canvas.showPage()
        canvas.setPageSize((layout.width + 2 * margin, layout.height + 2 * margin))
        frames = renderer.draw(layout, face.piece, face.side, face.copy, margin, margin, face_bleed, shape)
        if records is not None:
            kind = "card" if hasattr(face.piece, "deck") else "board"
            records.append({"page": index + 1, kind: face.piece.id, "side": face.side, "layout": layout.name,
                            "frames": frames})
    canvas.save()
    return buffer.getvalue()


def raster_pixels(width_pt: float, height_pt: float, dpi: float) -> int:
    """The pixels of a page of that size at `dpi`, as raster_pages draws it."""
    return round(width_pt * dpi / PT_PER_INCH) * round(height_pt * dpi / PT_PER_INCH)


def rasterize(pdf: bytes, dpi: float, fmt: str = "PNG") -> list[bytes]:
    """Every page of a PDF as an image file's bytes (PNG by default) at `dpi`."""
    return list(raster_pages(pdf, dpi, fmt))


def raster_pages(pdf: bytes, dpi: float, fmt: str = "PNG") -> Iterator[bytes]:
    """`rasterize`, one page at a time (a long PDF at 300 dpi is never held as pictures at once)."""
    import pypdfium2 as pdfium  # imported on first use: only previews and exports need it

    document = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            page = document[index]
            pixels = raster_pixels(*page.get_size(), dpi)
            if pixels > MAX_RASTER_PIXELS:  # callers report it first; this is the last line of defence
                raise LimitError(limit_message(f"a picture of {pixels // 1_000_000} million pixels",
                                               f"{MAX_RASTER_PIXELS // 1_000_000} million pixels per picture"))
            bitmap = page.render(scale=dpi / PT_PER_INCH)
            image = bitmap.to_pil()
            # PDFium rounds a fractional pixel up; the nearest whole pixel is the true size
            # (a 94 mm side at 300 dpi is 1110.2 px: 1110, as print shops specify).
            width, height = (round(v * dpi / PT_PER_INCH) for v in page.get_size())
            if image.size != (width, height):
                image = image.crop((0, 0, width, height))
            out = io.BytesIO()
            image.save(out, format=fmt, dpi=(dpi, dpi))
            page.close()
            yield out.getvalue()
    finally:
        document.close()


def face_images(prep: Prepared, faces: list[Face], report: Report, dpi: float = 150,
                bleed: bool = True, outline: bool = False) -> list[bytes]:
    """PNG bytes for each face, in order."""
    if not faces:
        return []
    return rasterize(faces_pdf(prep, faces, report, bleed, outline), dpi)
