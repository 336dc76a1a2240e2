"""Icons: SVG files from the game's (and layouts') icons/ folders plus a few built-in shapes.

Each icon is parsed once per process (svglib turns SVG into a reportlab drawing)
and drawn once per PDF into a form XObject; every later use of the icon is a
reference to that form, which keeps PDFs small and rendering fast.  Icons are
single-colour: `currentColor` in the SVG takes the colour asked for.
"""
from __future__ import annotations

import difflib
import io
import logging
from pathlib import Path

from reportlab.graphics import renderPDF
from reportlab.graphics.renderbase import STATE_DEFAULTS
from svglib.svglib import svg2rlg

logging.getLogger("svglib").setLevel(logging.ERROR)
# reportlab's drawing renderer selects a default font (Helvetica, never embedded) even for
# drawings without text; point it at our embedded sans so no unembedded font reaches the PDF.
STATE_DEFAULTS["fontName"] = "sans-regular"

_PIPS = {
    1: [(50, 50)], 2: [(28, 28), (72, 72)], 3: [(26, 26), (50, 50), (74, 74)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(26, 26), (74, 26), (50, 50), (26, 74), (74, 74)],
    6: [(28, 24), (72, 24), (28, 50), (72, 50), (28, 76), (72, 76)],
}


def _die(n: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9" fill="currentColor"/>' for x, y in _PIPS.get(n, []))
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<rect x="4" y="4" width="92" height="92" rx="16" fill="#ffffff" stroke="currentColor" stroke-width="7"/>'
            f'{pips}</svg>')


def _star(filled: bool) -> str:
    points = "50,4 61,38 97,38 68,59 79,94 50,72 21,94 32,59 3,38 39,38"
    fill = "currentColor" if filled else "none"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><polygon points="{points}" '
            f'fill="{fill}" stroke="currentColor" stroke-width="5" stroke-linejoin="round"/></svg>')


def _box(filled: bool) -> str:
    fill = "currentColor" if filled else "#ffffff"
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="6" y="6" width="88" height="88" '
            f'rx="10" fill="{fill}" stroke="currentColor" stroke-width="8"/></svg>')


def _dot() -> str:
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="30" fill="currentColor"/></svg>'


BUILTIN_ICONS: dict[str, str] = {f"d6-{n}": _die(n) for n in range(1, 7)}
BUILTIN_ICONS.update({"d6": _die(0), "star": _star(True), "star-empty": _star(False),
                      "box": _box(False), "box-filled": _box(True), "dot": _dot()})


class IconLibrary:
    """Icon names -> SVG sources, searched in order: given folders, then the built-ins."""

    def __init__(self, folders: list[Path]):
        self.sources: dict[str, Path | str] = {}
        for folder in folders:
            if folder.is_dir():
                for path in sorted(folder.glob("*.svg")):
                    self.sources.setdefault(path.stem, path)
        for name, svg in BUILTIN_ICONS.items():
            self.sources.setdefault(name, svg)

    def __contains__(self, name: str) -> bool:
        return name in self.sources

    def suggest(self, name: str) -> str | None:
        guess = difflib.get_close_matches(name, list(self.sources), n=1, cutoff=0.6)
        return guess[0] if guess else None


_drawings: dict[tuple, object] = {}


def _drawing(source: Path | str, color: str):
    # Keyed by the file's size and time too: the preview server reloads an icon that was edited.
    stamp = (source.stat().st_mtime_ns, source.stat().st_size) if isinstance(source, Path) else ()
    key = (str(source), color, stamp)
    if key not in _drawings:
        text = source.read_text("utf-8") if isinstance(source, Path) else source
        text = text.replace("currentColor", color)
        drawing = svg2rlg(io.BytesIO(text.encode("utf-8")))
        if drawing is None:
            raise ValueError(f"cannot read SVG {source}")
        _drawings[key] = drawing
    return _drawings[key]


class IconPainter:
    """Draws icons on one canvas, each (icon, colour) pair stored once as a form."""

    def __init__(self, canvas, library: IconLibrary):
        self.canvas, self.library = canvas, library
        self.forms: dict[tuple[str, str], tuple[str, float, float]] = {}
        # On a measuring canvas (`check`) an icon is read once to prove it loads, in any colour.
        self.measuring = getattr(canvas, "measuring", False) is True

    def _form(self, name: str, color: str) -> tuple[str, float, float]:
        if self.measuring:
            color = "#000000"
        key = (name, color)
        if key not in self.forms:
            drawing = _drawing(self.library.sources[name], color)
            form = f"icon{len(self.forms)}"
            c = self.canvas
            c.beginForm(form, 0, 0, drawing.width, drawing.height)
            renderPDF.draw(drawing, c, 0, 0)
            c.endForm()
            self.forms[key] = (form, drawing.width, drawing.height)
        return self.forms[key]

    def draw(self, name: str, x: float, y: float, width: float, height: float, color: str = "#000000") -> None:
        """Draw icon `name` fitted (aspect kept, centred) into the box with lower-left (x, y)."""
        form, w, h = self._form(name, color)
        if self.measuring:
            return
        scale = min(width / w, height / h)
        c = self.canvas
        c.saveState()
        c.translate(x + (width - w * scale) / 2, y + (height - h * scale) / 2)
        c.scale(scale, scale)
        c.doForm(form)
        c.restoreState()
