"""Component PDFs cut out of the kit: the pages are copied, not drawn again.

reportlab gives every page (and every icon form) the document's whole font dictionary, so a page
copied as it is would carry every font subset of the kit.  Each copied page (and each form it
draws) therefore keeps only the resources its own content stream names: pypdf then copies only
those objects, and a component file holds the fonts and forms its pages use, complete on its own.  `same_pages` then proves
the copy: every copied page has the same size and the same content stream bytes as the kit page.
The writer adds no date and no random file id, so the same kit gives the same bytes.

The kit is opened once (`open_kit`) for all its components: opening it reads every page object
of the kit (pypdf flattens the page tree), and a kit has up to ten components, each copied and
then compared.  Pruning a page's or a form's resources to what its own content names gives the
same result however often it is done, so components that share forms share them pruned.
"""
from __future__ import annotations

import re
from pathlib import Path

from ..lazy import lazy_module

# Imported when a kit is cut: a build without the kit (and `check`) reads its PDFs with
# verify/pdfobjects.py and never needs pypdf.
pypdf = lazy_module("pypdf")
pypdf_errors = lazy_module("pypdf.errors")
pypdf_filters = lazy_module("pypdf.filters")
pypdf_generic = lazy_module("pypdf.generic")

NAME = re.compile(rb"/([^\s/\[\]()<>{}%]+)")  # a PDF name token in a content stream


def open_kit(source: Path) -> "pypdf.PdfReader | None":
    """The kit, read once for the verifier and every component cut from it (copy_pages,
    same_pages); None when it cannot be read, which the verifier, reading it itself, reports."""
    try:
        return pypdf.PdfReader(str(source))
    except (OSError, pypdf_errors.PdfReadError, ValueError):
        return None


def copy_pages(reader: "pypdf.PdfReader", pages: range, target: Path, title: str) -> None:
    writer = pypdf.PdfWriter()
    pruned: set[int] = set()
    for index in pages:
        page = reader.pages[index]
        _keep_used(page, _names(page.get("/Contents")), pruned)
        writer.add_page(page)
    info = reader.metadata or {}
    name, text = pypdf_generic.NameObject, pypdf_generic.TextStringObject
    writer.add_metadata({name(key): text(str(value)) for key, value in info.items()
                         if key in ("/Author", "/Creator", "/Producer")})
    writer.add_metadata({name("/Title"): text(title)})
    with open(target, "wb") as out:
        writer.write(out)


def _names(contents) -> set[str]:
    """Every name a content stream (or array of them) mentions: /F1+0 in `Tf`, /FormXob.icon2 in `Do`.
    Decoded without pypdf's cache of the decoded stream, which would keep (and copy) the old resources."""
    contents = contents.get_object() if contents is not None else None
    parts = contents if isinstance(contents, pypdf_generic.ArrayObject) else [contents] if contents is not None else []
    data = b"".join(pypdf_filters.decode_stream_data(part.get_object()) for part in parts)
    return {"/" + m.decode("latin-1") for m in NAME.findall(data)}


def _keep_used(holder, used: set[str], pruned: set[int]) -> None:
    """Replace `holder`'s /Resources with a copy that keeps, in each category (fonts, forms,
    graphics states ...), only the entries its content names; forms kept are pruned the same way
    by their own content (each once: `pruned` holds the forms done)."""
    resources = holder.get("/Resources")
    if resources is None:
        return
    resources = resources.get_object()
    dictionary, name = pypdf_generic.DictionaryObject, pypdf_generic.NameObject
    kept = dictionary()
    for category, entries in resources.items():
        entries = entries.get_object()
        if category == "/ProcSet" or not isinstance(entries, dictionary):
            kept[name(category)] = entries
            continue
        subset = dictionary({name(k): v for k, v in entries.items() if k in used})
        if subset:
            kept[name(category)] = subset
        if category == "/XObject":
            for ref in subset.values():
                form = ref.get_object()
                key = getattr(ref, "idnum", id(form))
                if form.get("/Subtype") == "/Form" and key not in pruned:
                    pruned.add(key)
                    _keep_used(form, _names(form), pruned)
    holder[name("/Resources")] = kept


def same_pages(original: "pypdf.PdfReader", pages: range, copy: Path) -> bool:
    """Whether `copy` holds exactly pages `pages` of the kit: sizes and drawing operators alike.
    The content streams are compared as stored (compressed), so nothing is decoded."""
    copied = pypdf.PdfReader(str(copy))
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
    if isinstance(contents, pypdf_generic.ArrayObject):
        return b"".join(part.get_object()._data for part in contents)
    return contents._data if contents is not None else b""
