"""Every resource a page uses is defined by the page.

A content stream names what it draws with: fonts (`/F1 8 Tf`), graphics states (`/gRLs0 gs`),
forms and images (`/X1 Do`), shadings (`/Sh0 sh`), patterns (`/P0 scn`) and colour spaces
(`/CS0 cs`).  Each name must be a key of the matching dictionary of the page's /Resources (a
form's own, for the operators of a form it draws).  A viewer draws a page that names an undefined
one without it (poppler: "Syntax Error: ExtGState 'gRLs0' is unknown"): a transparency or a font
silently lost, so the build refuses the PDF.

This runs on every page of every PDF a build writes, so the names used are found by one regular
expression over the content; only where one of them is not defined is the page tokenized as the
reader does (verify/pdftokens.py), so that a name inside a text string is not taken for one.
"""
from __future__ import annotations

import re
from typing import Any

from .pdftokens import _END, _NUM, _TOKEN

_NAME = rb"[^\s/\[\]()<>{}%]+"
# A name and the operator that uses it: `/F1 8 Tf` has the size between them.
_USE = re.compile(rb"/(" + _NAME + rb")\s+(?:" + _NUM + rb"\s+)?(Tf|gs|Do|sh|scn|SCN|cs|CS)" + _END)
CATEGORY = {b"Tf": "/Font", b"gs": "/ExtGState", b"Do": "/XObject", b"sh": "/Shading", b"scn": "/Pattern",
            b"SCN": "/Pattern", b"cs": "/ColorSpace", b"CS": "/ColorSpace"}
ORDER = ("/Font", "/ExtGState", "/XObject", "/Shading", "/Pattern", "/ColorSpace")  # as a message names them
WHAT = {"/Font": "font", "/ExtGState": "graphics state", "/XObject": "XObject", "/Shading": "shading",
        "/Pattern": "pattern", "/ColorSpace": "colour space"}
DEVICE_SPACES = frozenset({"DeviceGray", "DeviceRGB", "DeviceCMYK", "Pattern"})  # named by the operator itself
MAX_FORM_DEPTH = 8  # forms drawing forms (an icon inside a picture): deeper is a damaged file


class Undefined:
    """What a PDF's pages use and do not define, with the names each resource dictionary defines
    and each form's findings remembered for the whole PDF (every page shares the fonts and forms)."""

    def __init__(self):
        self._names: dict[int, tuple[Any, frozenset[str]]] = {}
        self._forms: dict[tuple, tuple[Any, list[tuple[str, list[str]]]]] = {}

    def page(self, content: bytes | None, resources) -> tuple[list[str], list[tuple[str, list[str]]]]:
        """What the page's `content` uses that its `resources` do not define ("graphics state
        /gRLs0"), and for each form it draws whose content does the same: (its name, that list)."""
        if not content:
            return [], []
        missing, forms = self._used(content, resources, 0)
        return missing, forms

    def _used(self, content: bytes, resources, depth: int) -> tuple[list[str], list[tuple[str, list[str]]]]:
        used = set(_USE.findall(content))
        missing = [(op, name) for name, op in used if not self._defined(resources, CATEGORY[op], name)]
        if missing:
            missing = _exact(content, set(missing))  # a name inside a string is not used
        forms: list[tuple[str, list[str]]] = []
        if depth < MAX_FORM_DEPTH:
            for name, op in sorted(used):
                if op == b"Do":
                    forms.extend(self._form(name, resources, depth))
        named = sorted((ORDER.index(CATEGORY[op]), name.decode("latin-1")) for op, name in missing)
        return [f"{WHAT[ORDER[kind]]} /{name}" for kind, name in dict.fromkeys(named)], forms

    def _form(self, name: bytes, resources, depth: int) -> list[tuple[str, list[str]]]:
        """What the form `name` of `resources` (and the forms it draws) uses and does not define."""
        xobjects = _get(resources, "/XObject")
        form = _get(xobjects, "/" + name.decode("latin-1")) if xobjects is not None else None
        if form is None or _get(form, "/Subtype") != "/Form" or not hasattr(form, "get_data"):
            return []
        own = _get(form, "/Resources")
        # A form without resources of its own uses those of the page that draws it (as viewers do).
        key = (id(form), id(own if own is not None else resources))
        found = self._forms.get(key)
        if found is None:
            missing, inner = self._used(form.get_data(), own if own is not None else resources, depth + 1)
            label = f"form /{name.decode('latin-1')}"
            found = (form, ([(label, missing)] if missing else []) + [(f"{label} > {n}", m) for n, m in inner])
            self._forms[key] = found  # the form is kept with its findings: its id stays its own
        return found[1]

    def _defined(self, resources, category: str, name: bytes) -> bool:
        if category == "/ColorSpace" and name.decode("latin-1") in DEVICE_SPACES:
            return True
        table = _get(resources, category)
        if table is None:
            return False
        kept = self._names.get(id(table))
        if kept is None or kept[0] is not table:
            kept = self._names[id(table)] = (table, frozenset(table.keys()))
        return "/" + name.decode("latin-1") in kept[1]


def _get(holder, key: str):
    """`holder[key]` resolved (an indirect object read), or None."""
    if holder is None:
        return None
    value = holder.get(key)
    return value.get_object() if value is not None and hasattr(value, "get_object") else value


def _exact(content: bytes, suspects: set[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Those of `suspects` ((operator, name)) that the content really uses: read token by token,
    as the reader does, so that text strings are skipped."""
    found = set()
    for token in _TOKEN.finditer(content):
        font, op = token.group(3), token.group(15)
        if font is not None and (b"Tf", font) in suspects:
            found.add((b"Tf", font))
        if op in CATEGORY:
            operands = token.group(14).split()
            names = [o for o in operands if o[:1] == b"/"]
            if names and (op, names[-1][1:]) in suspects:
                found.add((op, names[-1][1:]))
    return sorted(found)
