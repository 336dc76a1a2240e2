"""Faces drawn for the accessibility checks, and what is measured on them.

Each face is drawn twice into one PDF by the same renderer as the kit (render/face.py), so what is
measured is what prints: once without its text (what is really behind each run: art, gradients,
tiles, bands), and once with each text run filled in a colour of its own.  PDFium renders both
pages; the second without text anti-aliasing, so a glyph's pixels are exactly its run's colour.
A run's pixels are those of its colour on the second page; the background under them is read
from the first.  Text that something drawn later covers, or that a clip cuts away, has no pixels
there and is not measured: what a player cannot see cannot fail.

While it draws, the renderer also notes, for every frame, the colours its templates chose
(`fill: "{{ ... }}"`: a colour that tells categories apart) and what else it printed (text, icons,
pictures, whether it was drawn at all): the cues categories.py weighs against colour alone.
"""
from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from ..diagnostics import Report
from ..render.face import CardRenderer
from ..render.table import RenderError
from .wcag import contrast, required, rgb_hex

MEASURING_CODE = __file__  # a measurement is kept under a key of this module (access/stage.py)
DPI = 144.0  # 2 px per point: a 6 pt letter's strokes are a pixel or more
MAX_PIXELS = 3_000_000  # a large board is measured at a lower resolution
PERCENTILE = 0.10  # a run's contrast is that of its worst tenth of glyph pixels: specks of art do not decide it
MIN_PIXELS = 4  # fewer visible glyph pixels than this: nothing a reader could read
COLOUR_KEYS = ("color", "fill", "stroke", "accent_color")
_COLOR_OP = re.compile(r"^(?:[\d.]+ ){2}[\d.]+ (?:rg|RG)$|^(?:[\d.]+ ){3}[\d.]+ (?:k|K)$|^[\d.]+ (?:g|G)$")


@dataclass
class Run:
    """One text run as drawn: its frame, its fill, its size and whether all of it is bold."""
    frame: str
    fill: tuple[int, int, int]
    size: float
    bold: bool


@dataclass
class Drawn:
    """What one face's drawing tells the checks."""
    runs: list[Run] = field(default_factory=list)
    colours: dict[str, dict[str, str]] = field(default_factory=dict)  # frame -> templated colour key -> #rrggbb
    cues: dict[str, list[str]] = field(default_factory=dict)  # frame -> what it printed besides colour
    measured: list = field(default_factory=list)  # per run: measure()'s list, or None

    def result(self) -> dict:
        """As kept in the disk cache (JSON): each measured run with its frame."""
        runs = [[run.frame, *m] for run, m in zip(self.runs, self.measured) if m is not None]
        return {"runs": runs, "colours": self.colours, "cues": self.cues}


class AccessCanvas(Canvas):
    """A canvas that leaves text out (`mode` "background") or fills each run in a colour of its own
    ("runs"), and notes the runs it drew."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mode = "background"
        self.frame: str | None = None  # the name of the frame being drawn
        self.runs: list[Run] = []

    def drawText(self, textobject):  # noqa: N802 - reportlab's name
        if self.frame is None:  # the version mark, page furniture: not a layout's text
            if self.mode == "runs":
                super().drawText(textobject)
            return
        if self.mode == "background":
            return
        code = textobject._code  # noqa: SLF001 - the run's operators, before they are written
        fill = _fill_of(code)
        colour = ident(len(self.runs))
        fonts = getattr(textobject, "font_names", [])
        bold = bool(fonts) and all("bold" in name.lower() for name in fonts)
        self.runs.append(Run(self.frame, fill, float(textobject._fontsize), bold))
        op = "%s %s %s" % tuple(_num(v / 255) for v in colour)
        textobject._code = [f"{op} rg" if _COLOR_OP.match(item) else item for item in code]
        self.saveState()
        self.setStrokeColorRGB(*(v / 255 for v in colour))  # a synthesized bold's stroke too
        self.setFillAlpha(1)
        super().drawText(textobject)
        self.restoreState()

    def beginText(self, x=0, y=0, direction=None):  # noqa: N802 - reportlab's name
        return _NotedText(self, x, y, direction)


class _NotedText(PDFTextObject):
    """A text object that remembers the fonts its run is set in (is all of it bold?)."""

    def setFont(self, psfontname, size, leading=None):  # noqa: N802 - reportlab's name
        self.__dict__.setdefault("font_names", []).append(psfontname)
        super().setFont(psfontname, size, leading)


def _num(value: float) -> str:
    return ("%.6f" % value).rstrip("0").rstrip(".") or "0"


def _fill_of(code: list[str]) -> tuple[int, int, int]:
    """The run's fill as its operators set it (black when they set none)."""
    for item in code:
        if _COLOR_OP.match(item):
            *values, op = item.split()
            v = [float(x) for x in values]
            if op in ("rg", "RG"):
                return tuple(round(x * 255) for x in v)
            if op in ("g", "G"):
                return (round(v[0] * 255),) * 3
            c, m, y, k = v  # CMYK as a screen shows it: what a run in print colour reads as
            return tuple(round(255 * (1 - min(1, x + k))) for x in (c, m, y))
    return (0, 0, 0)


class AccessRenderer(CardRenderer):
    """The kit's renderer, drawing every face afresh (no replay of kept drawings: the canvas must
    see each run), and noting what each frame printed."""

    def __init__(self, canvas: AccessCanvas, prep, report: Report):
        super().__init__(canvas, prep.game, prep.fonts, prep.icons, report)
        self.noted: Drawn | None = None

    def _look_up(self, *args, **kwargs):
        return None, None, None

    def _frame(self, frame, layout, card, ctx, x, y, bleed):
        canvas = self.canvas
        canvas.frame = frame.name
        try:
            record = super()._frame(frame, layout, card, ctx, x, y, bleed)
        finally:
            canvas.frame = None
        if self.noted is not None and record is not None:
            self._note(frame, layout, ctx, record)
        return record

    def _note(self, frame, layout, ctx, record: dict) -> None:
        """The frame's templated colours, and what else it printed (its cue)."""
        cue = {k: v for k, v in record.items() if k not in ("box", "cells", "lines", "size", "name", "rotate")}
        for key, template in frame.templates.items():
            if template.is_constant or key == "when":
                continue
            try:
                value = self._value(frame, key, ctx)
                if key in COLOUR_KEYS:
                    color = self.color(value, layout)
                    if color is not None:
                        self.noted.colours.setdefault(frame.name, {})[key] = "#" + color.hexval()[2:8].lower()
                else:
                    cue[key] = str(value)
            except (RenderError, ValueError):
                continue  # a track's fill per space, a template that failed: reported by the fit pass
        self.noted.cues.setdefault(frame.name, []).append(json.dumps(cue, sort_keys=True, default=str))


@dataclass
class FaceToDraw:
    layout: Any
    piece: Any
    side: str
    bleed: float
    shape: str


def draw_faces(prep, faces: list[FaceToDraw]) -> list[Drawn]:
    """Each face drawn twice (without text, then each run in its own colour) into one PDF, then
    measured: the runs' contrast, the frames' colours and cues.  A face without text is not
    rendered, and one whose two pages are those of a face before it (a deck's backs, a token's
    copies under other ids) is measured once."""
    import pypdfium2 as pdfium  # on first use: only `--access` and pictures need PDFium

    buffer = io.BytesIO()
    prep.fonts.family("sans").face("regular")
    canvas = AccessCanvas(buffer, invariant=1, pageCompression=0, initialFontName="sans-regular")
    renderer = AccessRenderer(canvas, prep, Report())  # the fit pass reports what drawing finds
    drawn: list[Drawn] = []
    same_as: dict[int, int] = {}  # face -> the earlier face drawn exactly alike
    first: dict[int, int] = {}  # digest of a face's two pages -> the face that drew them first
    for index, face in enumerate(faces):
        size = (face.layout.width, face.layout.height)
        pages = []
        for mode in ("background", "runs"):
            if index or mode == "runs":
                canvas.showPage()
            canvas.setPageSize(size)
            canvas.mode, canvas.runs = mode, []
            noted = Drawn() if mode == "runs" else None
            renderer.noted = noted
            renderer.draw(face.layout, face.piece, face.side, 1, 0.0, 0.0, face.bleed, face.shape)
            pages.append(hash((size, tuple(canvas._code))))  # noqa: SLF001 - the page's operators
            if noted is not None:
                noted.runs = canvas.runs
                drawn.append(noted)
        key = hash((tuple(pages), repr(drawn[-1].runs)))
        same_as[index] = first.setdefault(key, index)
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        for index, face in enumerate(faces):
            if not drawn[index].runs:
                continue
            if same_as[index] != index:
                drawn[index].measured = drawn[same_as[index]].measured
                continue
            width, height = face.layout.width, face.layout.height
            scale = min(DPI / 72.0, (MAX_PIXELS / max(1.0, width * height)) ** 0.5)
            background = _render(document, 2 * index, scale)
            glyphs = _render(document, 2 * index + 1, scale)
            drawn[index].measured = measure_face(drawn[index].runs, background, glyphs)
    finally:
        document.close()
    return drawn


def _render(document, index: int, scale: float):
    page = document[index]
    try:
        return page.render(scale=scale, no_smoothtext=True).to_pil().convert("RGB")
    finally:
        page.close()


def _equals(value: int) -> list[int]:
    """A lookup table: 255 where a channel is `value`, else 0."""
    return [255 if v == value else 0 for v in range(256)]


_NONZERO = [0] + [255] * 255
IDENT_BLUE = 0x97  # the blue of every run's own colour; its red and green number the run


def ident(index: int) -> tuple[int, int, int]:
    """The colour of run `index` (from 0): its red is never 0, so that no run is the empty pixel."""
    return index % 255 + 1, index // 255, IDENT_BLUE


def measure_face(runs: list[Run], background, glyphs) -> list[list | None]:
    """[fill, background, ratio, required ratio, glyph pixels] of each run, or None where no pixel
    of it shows.  A run's background is the colour at its worst tenth of glyph pixels.

    One pass over the page: the glyph pixels are those that differ between the two pages and have
    the runs' blue; each is counted with its run's number (red, and green above 255 runs) and the
    colour behind it, by PIL's getcolors on an RGBA picture (the background's RGB, the run's red)."""
    from PIL import Image, ImageChops
    if background.size != glyphs.size:
        return [None] * len(runs)
    box = glyphs.getchannel("B").point(_equals(IDENT_BLUE)).getbbox()
    if box is None:  # no run shows
        return [None] * len(runs)
    background, glyphs = background.crop(box), glyphs.crop(box)  # where the text is: the rest is not read again
    changed = ImageChops.difference(background, glyphs).split()
    moved = ImageChops.lighter(ImageChops.lighter(changed[0], changed[1]), changed[2]).point(_NONZERO)
    red, green, blue = glyphs.split()
    mask = ImageChops.multiply(moved, blue.point(_equals(IDENT_BLUE)))
    behind = Image.merge("RGBA", (*background.split(), red))
    empty = Image.new("RGBA", background.size, (0, 0, 0, 0))
    counts: dict[int, list] = {}
    for high in range((len(runs) - 1) // 255 + 1):
        part = mask if len(runs) <= 255 else ImageChops.multiply(mask, green.point(_equals(high)))
        found = Image.composite(behind, empty, part).getcolors(background.width * background.height) or []
        for n, (r, g, b, low) in found:
            if low:
                counts.setdefault(high * 255 + low - 1, []).append((n, (r, g, b)))
    return [_rated(run, counts.get(index, [])) for index, run in enumerate(runs)]


def _rated(run: Run, counts: list) -> list | None:
    total = sum(n for n, _ in counts)
    if total < MIN_PIXELS:
        return None
    rated = sorted((contrast(run.fill, c), n, c) for n, c in counts)
    seen, cut = 0, PERCENTILE * total
    for ratio, n, color in rated:
        seen += n
        if seen >= cut:
            break
    return [rgb_hex(run.fill), rgb_hex(color), round(ratio, 3), required(run.size, run.bold), total]
