"""Component PDFs cut out of the kit: the pages are copied, not drawn again.

reportlab gives every page (and every icon form) the document's whole font dictionary, so a page
copied as it is would carry every font subset of the kit.  Each copied page (and each form it
draws) therefore keeps only the resources its own content stream names, and only the objects
those reach are written: a component file holds the fonts and forms its pages use, complete on
its own.  `same_pages` then proves the copy: every copied page has the same size and the same
content stream bytes as the kit page.  Objects are numbered in the order they are met, with no
date and no random file id, so the same kit gives the same bytes.

The kit is read once (`open_kit`, with the verifier's lean reader, verify/pdfobjects.py) for its
check and all its components; the stored bytes of every stream are copied as they are, never
decoded and compressed again.  A component's forms are pruned copies, made once per kit, so
components that share forms share them pruned.  The same copy writes the kit again with the
guide's ink page, drawn once the kit's ink is measured, in place of the first (`replace_pages`).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..verify.pdfobjects import Array, Dict, LeanReader, Ref, Stream, Unsupported

NAME = re.compile(rb"/([^\s/\[\]()<>{}%]+)")  # a PDF name token in a content stream


def open_kit(source: Path) -> LeanReader | None:
    """The kit, read once for the verifier and every component cut from it (copy_pages,
    same_pages); None when it cannot be read this way, which the verifier, reading it itself, reports."""
    try:
        return LeanReader(source)
    except (OSError, Unsupported):
        return None


def copy_pages(reader: LeanReader, pages: range, target: Path, title: str) -> None:
    """Write pages `pages` (0-based) of the kit to `target` as a PDF of their own, titled `title`."""
    write_pages([(reader, index) for index in pages], reader, target, title)


def replace_pages(reader: LeanReader, replacements: dict[int, tuple[LeanReader, int]], target: Path) -> None:
    """Write the kit to `target` with some of its pages (0-based) replaced by pages of other PDFs
    (reader, 0-based page): the guide's page drawn again once the kit's ink is known (ink.py)."""
    write_pages([replacements.get(index, (reader, index)) for index in range(len(reader.pages))], reader, target)


def write_pages(pages: list[tuple[LeanReader, int]], kit: LeanReader, target: Path, title: str | None = None) -> None:
    """Write `pages` (each a reader and its 0-based page) to `target`, with the kit's metadata
    (its title, unless `title` is given)."""
    out = _Out()
    catalog, tree, info = out.new(), out.new(), out.new()
    kids = []
    pruned: dict[int, dict[int, Dict]] = {}  # per reader: its forms, pruned, by their number there
    for reader, index in pages:
        page = reader.pages[index]
        copy = Dict((k, v) for k, v in page.items() if k != "/Parent")
        copy["/Parent"] = tree
        copy["/Resources"] = _used_resources(page, pruned.setdefault(id(reader), {}))
        kids.append(out.add(copy))
    out.put(tree, Dict({"/Type": "/Pages", "/Count": len(kids), "/Kids": Array(kids)}))
    out.put(catalog, Dict({"/Type": "/Catalog", "/Pages": tree}))
    kit_info = kit.trailer.get("/Info")
    kit_info = kit_info.get_object() if kit_info is not None else None
    metadata = Dict((k, v) for k, v in (kit_info or {}).items()
                    if k in ("/Author", "/Creator", "/Producer") or (k == "/Title" and title is None))
    if title is not None:  # a text string: PDFDocEncoding (ASCII here) or UTF-16BE with its byte order mark
        metadata["/Title"] = title.encode("ascii") if title.isascii() else b"\xfe\xff" + title.encode("utf-16-be")
    out.put(info, metadata)
    with open(target, "wb") as fh:
        fh.write(out.file(catalog, info))


def _content(holder) -> bytes:
    """The decoded content stream(s) of a page or form."""
    contents = holder.get("/Contents") if not isinstance(holder, Stream) else holder
    contents = contents.get_object() if contents is not None else None
    parts = contents if isinstance(contents, list) else [contents] if contents is not None else []
    return b"".join(part.get_object().get_data() for part in parts)


def _used_resources(holder, pruned: dict[int, "Dict"]) -> "Dict | None":
    """`holder`'s /Resources keeping, in each category (fonts, forms, graphics states ...), only the
    entries its content names; the forms kept are copies pruned the same way by their own content
    (each once: `pruned` holds them by their number in the kit)."""
    resources = holder.get("/Resources")
    if resources is None:
        return None
    resources = resources.get_object()
    used = {"/" + m.decode("latin-1") for m in NAME.findall(_content(holder))}
    kept = Dict()
    for category, entries in resources.items():
        entries = entries.get_object() if isinstance(entries, Ref) else entries
        if category == "/ProcSet" or not isinstance(entries, dict):
            kept[category] = entries
            continue
        subset = Dict((name, ref) for name, ref in entries.items() if name in used)
        if category == "/XObject":
            for name, ref in subset.items():
                form = ref.get_object()
                if isinstance(form, Stream) and form.get("/Subtype") == "/Form":
                    key = ref.idnum if isinstance(ref, Ref) else id(form)
                    if key not in pruned:
                        pruned[key] = Stream(form)
                        pruned[key]._file, pruned[key]._span = form._file, form._span
                        pruned[key]["/Resources"] = _used_resources(form, pruned)
                    subset[name] = pruned[key]
        if subset:
            kept[category] = subset
    return kept


class _Out:
    """A PDF written from objects: kit references are renumbered as they are met, in a fixed
    order, so the same kit gives the same bytes.  No date and no random file id."""

    def __init__(self):
        self.bodies: dict[int, bytes] = {}
        self.numbers: dict[int, int] = {}  # id of a kit object (or a copy) -> its number here
        self.pending: list[tuple[int, object]] = []
        self.count = 0

    def new(self) -> "_Number":
        self.count += 1
        return _Number(self.count)

    def put(self, number: "_Number", value) -> None:
        self.bodies[number.value] = self._serialize(value)
        self._drain()

    def add(self, value) -> "_Number":
        number = self.new()
        self.put(number, value)
        return number

    def _number(self, value) -> int:
        """The number of a kit object (a reference) or a pruned copy, allotted on first sight."""
        key = id(value)
        if key not in self.numbers:
            self.numbers[key] = self.new().value
            self.pending.append((self.numbers[key], value))
        return self.numbers[key]

    def _drain(self) -> None:
        while self.pending:
            number, value = self.pending.pop(0)
            self.bodies[number] = self._serialize(value)

    def _serialize(self, value, top: bool = True) -> bytes:
        if isinstance(value, _Number):
            return b"%d 0 R" % value.value
        if isinstance(value, Ref):
            return b"%d 0 R" % self._number(value.get_object())
        if isinstance(value, Stream) and not top:
            return b"%d 0 R" % self._number(value)
        if isinstance(value, dict):
            items = b"".join(b"%s %s\n" % (_name(k), self._serialize(v, False)) for k, v in value.items()
                             if not (isinstance(value, Stream) and k == "/Length"))
            if isinstance(value, Stream):
                data = value._data
                return b"<<\n%s/Length %d\n>>\nstream\n%s\nendstream" % (items, len(data), data)
            return b"<<\n%s>>" % items
        if isinstance(value, list):
            return b"[ " + b" ".join(self._serialize(v, False) for v in value) + b" ]"
        if isinstance(value, bool):
            return b"true" if value else b"false"
        if value is None:
            return b"null"
        if isinstance(value, int):
            return b"%d" % value
        if isinstance(value, float):
            return repr(value).encode("ascii") if value != int(value) else b"%d" % int(value)
        if isinstance(value, str):  # a name
            return _name(value)
        if isinstance(value, bytes):
            return b"<" + value.hex().encode("ascii") + b">"
        raise TypeError(f"cannot write {type(value).__name__} to a PDF")

    def file(self, root: "_Number", info: "_Number") -> bytes:
        parts = [b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"]
        offsets = []
        at = len(parts[0])
        for number in range(1, self.count + 1):
            body = b"%d 0 obj\n%s\nendobj\n" % (number, self.bodies[number])
            offsets.append(at)
            parts.append(body)
            at += len(body)
        xref = [b"xref\n0 %d\n0000000000 65535 f \n" % (self.count + 1)]
        xref += [b"%010d 00000 n \n" % offset for offset in offsets]
        parts += xref
        parts.append(b"trailer\n<<\n/Size %d\n/Root %d 0 R\n/Info %d 0 R\n>>\nstartxref\n%d\n%%%%EOF\n"
                     % (self.count + 1, root.value, info.value, at))
        return b"".join(parts)


class _Number:
    """An object number of the file being written (objects made here: catalog, page tree, info)."""
    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = value


_NAME_SAFE = re.compile(rb"[^\x21-\x7e]|[#/\[\]()<>{}%]")


def _name(name: str) -> bytes:
    raw = name[1:].encode("latin-1")
    return b"/" + _NAME_SAFE.sub(lambda m: b"#%02x" % m.group(0)[0], raw)


def same_pages(original: LeanReader, pages: range, copy: Path) -> bool:
    """Whether `copy` holds exactly pages `pages` of the kit: sizes and drawing operators alike.
    The content streams are compared as stored (compressed), so nothing is decoded."""
    try:
        copied = LeanReader(copy).pages
    except (OSError, Unsupported):
        return False
    if len(copied) != len(pages):
        return False
    for index, number in zip(pages, range(len(pages))):
        kit_page, page = original.pages[index], copied[number]
        if [float(v) for v in kit_page["/MediaBox"]] != [float(v) for v in page["/MediaBox"]]:
            return False
        if _stored(kit_page) != _stored(page):
            return False
    return True


def _stored(page) -> bytes:
    contents = page.get("/Contents")
    contents = contents.get_object() if contents is not None else None
    if isinstance(contents, list):
        return b"".join(part.get_object()._data for part in contents)
    return contents._data if contents is not None else b""
