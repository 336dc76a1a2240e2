"""Component PDFs cut out of the kit: the pages are copied, not drawn again.

pypdf copies each page with only the objects it uses (its content stream, the font subsets and
icon forms it references), so a component file is complete on its own.  `same_pages` then proves
the copy: every copied page has the same size and the same content stream bytes as the kit page.
The writer adds no date and no random file id, so the same kit gives the same bytes.
"""
from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, NameObject, TextStringObject


def copy_pages(source: Path, pages: range, target: Path, title: str) -> None:
    reader = PdfReader(str(source))
    writer = PdfWriter()
    for index in pages:
        writer.add_page(reader.pages[index])
    info = reader.metadata or {}
    writer.add_metadata({NameObject(key): TextStringObject(str(value)) for key, value in info.items()
                         if key in ("/Author", "/Creator", "/Producer")})
    writer.add_metadata({NameObject("/Title"): TextStringObject(title)})
    with open(target, "wb") as out:
        writer.write(out)


def same_pages(source: Path, pages: range, copy: Path) -> bool:
    """Whether `copy` holds exactly pages `pages` of `source`: sizes and drawing operators alike.
    The content streams are compared as stored (compressed), so nothing is decoded."""
    original, copied = PdfReader(str(source)), PdfReader(str(copy))
    if len(copied.pages) != len(pages):
        return False
    for index, number in zip(pages, range(len(pages))):
        kit_page, page = original.pages[index], copied.pages[number]
        if [float(v) for v in kit_page.mediabox] != [float(v) for v in page.mediabox]:
            return False
        if _stored(kit_page) != _stored(page):
            return False
    return True


def _stored(page) -> bytes:
    contents = page.get("/Contents")
    contents = contents.get_object() if contents is not None else None
    if isinstance(contents, ArrayObject):
        return b"".join(part.get_object()._data for part in contents)
    return contents._data if contents is not None else b""
