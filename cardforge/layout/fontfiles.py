"""The font files themselves, through reportlab: parsed (from the disk cache when it has them) and
embedded as subsets with content-derived tags.  Kept apart from fonts.py, which imports this only
when a font is first registered, so that a check with nothing to measure never loads reportlab."""
from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Callable

from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTFont, TTFError  # noqa: F401 - TTFError: caught by fonts.py


class SubsetFont(TTFont):
    """A TrueType font whose embedded subsets are tagged by their contents.

    PDF names an embedded subset `TAG+FontName`; reportlab numbers the tags (AAAAAA, AAAAAB, ...),
    so every PDF's first subset of a font is AAAAAA+ whatever it holds.  A print shop that merges
    several PDFs into one job can then take one subset for another and print the wrong glyphs.  Here
    the tag is six letters of a hash of the font and the characters the subset holds: distinct
    subsets get distinct tags, and the same input still gives the same bytes."""

    _lock = threading.Lock()

    def addObjects(self, doc):
        state = self.state.get(doc)
        subsets = list(state.subsets) if state is not None else []
        tags = [_subset_tag(self.face.name, subset) for subset in subsets]
        with SubsetFont._lock:  # reportlab reads the tag from a module function: swap it for this call
            numbered = ttfonts.SUBSETN
            ttfonts.SUBSETN = lambda n, *args: tags[n].encode("ascii")
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered


def parsed(font_name: str, path: Path) -> SubsetFont:
    """SubsetFont(font_name, path), with reportlab's parse of the file (its tables, character map and
    widths: 30 ms for a Latin font, 230 ms for the CJK collection) from the disk cache (diskcache.py),
    keyed by the file's bytes: `check` runs on every save.  The entry holds the parse without the
    file's bytes, which are read here anyway; a font that does not parse is never stored."""
    import pickle
    from weakref import WeakKeyDictionary
    from .. import diskcache
    data = path.read_bytes()
    key = diskcache.fingerprint(__file__, "reportlab") + hashlib.sha256(data).digest()
    stored = diskcache.get("font-face", key)
    if stored is not None:
        try:
            attributes, face_attributes = pickle.loads(stored)
            font, face = SubsetFont.__new__(SubsetFont), ttfonts.TTFontFace.__new__(ttfonts.TTFontFace)
            font.__dict__.update(attributes, fontName=font_name, face=face, state=WeakKeyDictionary())
            face.__dict__.update(face_attributes, filename=str(path), _ttf_data=data,
                                 _pdfScale=_pdf_scale(face_attributes["unitsPerEm"]))
            return font
        except Exception:  # noqa: BLE001 - a damaged entry, or another reportlab's: a miss
            pass
    font = SubsetFont(font_name, str(path))
    attributes = {k: v for k, v in vars(font).items() if k not in ("fontName", "face", "state")}
    face_attributes = {k: v for k, v in vars(font.face).items() if k not in ("filename", "_ttf_data", "_pdfScale")}
    diskcache.put("font-face", key, pickle.dumps((attributes, face_attributes), protocol=pickle.HIGHEST_PROTOCOL))
    return font


def _pdf_scale(units_per_em: int) -> Callable[[float], float]:
    """Font units to PDF glyph space (1000 a side), as reportlab's TTFontFile computes it."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


def _subset_tag(face_name: bytes, subset: list[int]) -> str:
    digest = hashlib.sha256(bytes(face_name) + b"\0" + ",".join(map(str, subset)).encode("ascii")).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(6):
        number, index = divmod(number, 26)
        letters.append(chr(ord("A") + index))
    return "".join(letters)
