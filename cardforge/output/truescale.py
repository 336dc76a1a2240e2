"""True-scale templates on pages: packing and drawing (C11, C12).

Pieces (frontend/pieces.py) are packed in shelves on landscape pages, each copy on its own. A strip
or ruler longer than the printable width is cut into segments; the graduation of each segment
continues from the one before (its labels count from the segment's offset), and its ends say which
segment joins on. Every outline is stroked in the cut colour, exactly once, as one path, and recorded
in the manifest with the size the data gives, so that verify/outlines.py can measure it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..frontend.pieces import CUT_RGB, DIRECTIONS, TemplatePiece, wedge_box
from ..units import MM, length, mm
from .impose import FOOTER_TOP, paper_size

# Fills name their rule (see calibrate.py: svglib 1.5 patches Canvas.drawPath): reportlab's
# FILL_EVEN_ODD, written here because `check` lays pages out without loading reportlab's canvas.
FILL_EVEN_ODD = 0

if TYPE_CHECKING:
    from .pdf import Writer

CUT_WIDTH = 0.5              # points; the line is centred on the exact outline
MARGIN = 10 * MM
GAP = 5 * MM                 # between pieces (room to cut)
CAPTION = 4 * MM             # under each piece: its name and dimension


class PieceTooLarge(ValueError):
    def __init__(self, piece: TemplatePiece, message: str):
        super().__init__(message)
        self.piece = piece


@dataclass
class Item:
    piece: TemplatePiece
    copy: int
    width: float   # the outline (a segment of a long piece)
    height: float
    offset: float = 0.0   # a segment: where it starts along the piece
    segment: int = 1
    segments: int = 1
    x: float = 0.0
    y: float = 0.0


def _items(pieces: list[TemplatePiece], usable_w: float) -> list[Item]:
    items: list[Item] = []
    for piece in pieces:
        for copy in range(1, piece.quantity + 1):
            if piece.shape in ("strip", "ruler") and piece.width > usable_w:
                step = math.floor(mm(usable_w) / 10) * 10 * MM  # whole centimetres per segment
                n = math.ceil(piece.width / step - 1e-9)
                for i in range(n):
                    seg = min(step, piece.width - i * step)
                    items.append(Item(piece, copy, seg, piece.height, i * step, i + 1, n))
            else:
                items.append(Item(piece, copy, piece.width, piece.height))
    return items


def plan_templates(prep, paper: str) -> list[tuple[float, float, str, object]]:
    """Pages of every template piece, packed in shelves, tallest first, each onto the first shelf
    with room: (width, height, label, draw)
    for pages.py to plan."""
    pieces = prep.game.templates
    if not pieces:
        return []
    pw, ph = paper_size(paper)
    width, height = max(pw, ph), min(pw, ph)  # landscape: room for long strips
    usable_w = width - 2 * MARGIN
    top, bottom = height - MARGIN, FOOTER_TOP + 4 * MM
    items = sorted(_items(pieces, usable_w), key=lambda it: (-(it.height + CAPTION), it.piece.id, it.offset))
    # First fit, decreasing height: each piece goes onto the first shelf, on any page so far, with
    # room left for it; a new shelf opens on the first page with room below its shelves.
    pages: list[list[Item]] = []
    shelves: list[list[float]] = []  # [page index, top, height, next free x]
    floors: list[float] = []  # per page: the top of its free part
    for item in items:
        need_h = item.height + CAPTION
        if need_h > top - bottom or item.width > usable_w + 0.01:
            raise PieceTooLarge(item.piece, f"template '{item.piece.id}' ({mm(item.width):.0f} x {mm(item.height):.0f} mm) does "
                             f"not fit on {paper.upper() if paper == 'a4' else paper.capitalize()} paper")
        shelf = next((sh for sh in shelves if sh[2] >= need_h - 0.01 and sh[3] + item.width <= width - MARGIN + 0.01),
                     None)
        if shelf is None:
            page = next((i for i, free in enumerate(floors) if free - need_h >= bottom - 0.01), None)
            if page is None:
                pages.append([])
                floors.append(top)
                page = len(pages) - 1
            shelf = [page, floors[page], need_h, MARGIN]
            shelves.append(shelf)
            floors[page] -= need_h + GAP
        item.x, item.y = shelf[3], shelf[1] - item.height
        pages[int(shelf[0])].append(item)
        shelf[3] += item.width + GAP
    out = []
    for number, chunk in enumerate(pages, start=1):
        label = "Templates (print at 100%, cut on the magenta line)" + (f", sheet {number}" if len(pages) > 1 else "")
        out.append((width, height, label, _draw_page(chunk)))
    return out


def _draw_page(items: list[Item]):
    def draw(writer: "Writer", number: int) -> None:
        for item in items:
            draw_item(writer, item, number)
    return draw


def draw_item(writer: "Writer", item: Item, page: int) -> None:
    c = writer.canvas
    family = writer.prep.fonts.family("sans")
    # Registered to draw; check's measuring canvas draws nothing and measures no text, so it needs
    # only the names (and reportlab stays unloaded on a check with every face in the disk cache).
    face = family.face_name if getattr(c, "measuring", False) else family.face
    _FONTS.update(regular=face("regular"), bold=face("bold"))
    piece, spec = item.piece, item.piece.spec
    x, y, w, h = item.x, item.y, item.width, item.height
    fill = spec.get("fill")
    c.saveState()
    c.setLineWidth(0.4)
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.setFillColorRGB(0.2, 0.2, 0.2)
    shape = piece.shape
    if fill:
        c.setFillColor(fill)
    path = c.beginPath()
    if shape == "circle":
        path.circle(x + w / 2, y + h / 2, w / 2)
    elif shape == "wedge":
        angle, radius = float(spec["angle"]), length(spec["radius"])
        ax = x + w / 2
        path.moveTo(ax, y)
        path.arcTo(ax - radius, y - radius, ax + radius, y + radius, startAng=90 - angle / 2, extent=angle)
        path.close()
    elif shape == "rose":
        path.circle(x + w / 2, y + h / 2, w / 2)
    else:
        path.rect(x, y, w, h)
    if fill:
        c.drawPath(path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
    c.setFillColorRGB(0.15, 0.15, 0.15)
    inner = {"grid": _grid, "strip": _strip, "ruler": _ruler, "rose": _rose, "wedge": _wedge,
             "circle": _centre, "rect": _plain}.get(shape)
    if inner:
        inner(c, item)
    # The cut line, last and on top: one path, one colour.
    c.setStrokeColorRGB(*CUT_RGB)
    c.setLineWidth(CUT_WIDTH)
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()
    _caption(c, item)
    record = {"page": page, "template": piece.id, "shape": shape, "copy": item.copy,
              "outline": [round(mm(v), 3) for v in (x, y, w, h)]}
    if item.segments > 1:
        record.update(segment=[item.segment, item.segments], offset=round(mm(item.offset), 3))
    if writer.manifest is not None:
        writer.manifest.add("templates", record)


_FONTS = {"regular": "sans-regular", "bold": "sans-bold"}  # the registered names, set when drawing


def _text(c, text: str, x: float, y: float, size: float, align: str = "center", bold: bool = False) -> None:
    c.setFont(_FONTS["bold" if bold else "regular"], size)
    if align == "center":
        c.drawCentredString(x, y, text)
    elif align == "right":
        c.drawRightString(x, y, text)
    else:
        c.drawString(x, y, text)


def _fit(c, text: str, width: float, size: float, minimum: float = 6.0, bold: bool = False) -> float | None:
    """The largest size from `size` down to `minimum`, in half points, at which `text` fits `width`;
    measured by the canvas (check's measuring canvas answers 0, and needs no font for it)."""
    font = _FONTS["bold" if bold else "regular"]
    while size >= minimum:
        if c.stringWidth(text, font, size) <= width:
            return size
        size -= 0.5
    return None


def _caption(c, item: Item) -> None:
    piece = item.piece
    label = piece.name  # the whole name under the piece; its `label` is printed on it (_name)
    text = f"{label} · {piece.dimension}"
    if item.segments > 1:
        text = f"{label} · part {item.segment} of {item.segments} ({mm(item.offset) / 10:g}–" \
               f"{mm(item.offset + item.width) / 10:g} cm)"
    room = item.width + GAP * 0.8
    for option in (text, label, piece.dimension):
        size = _fit(c, option, room, 6.5)
        if size:
            c.setFillColorRGB(0.15, 0.15, 0.15)
            _text(c, option, item.x, item.y - 2.8 * MM, size, align="left")
            return


def _name(c, item: Item, x: float, y: float, width: float) -> None:
    """The piece's name inside its cut line, centred on (x, y), so a cut piece still says what it is:
    its label, or its name without a closing remark in brackets."""
    spec = item.piece.spec
    name = spec.get("label") or re.sub(r"\s*\([^)]*\)$", "", item.piece.name)
    size = _fit(c, name, width, 7.5, bold=True)
    if size:
        _text(c, name, x, y - size / 3, size, bold=True)


def _centre(c, item: Item) -> None:
    cx, cy = item.x + item.width / 2, item.y + item.height / 2
    arm = min(2 * MM, item.width / 8)
    c.line(cx - arm, cy, cx + arm, cy)
    c.line(cx, cy - arm, cx, cy + arm)
    size = _fit(c, item.piece.dimension, item.width * 0.8, 7)
    if size:
        _text(c, item.piece.dimension, cx, cy - arm - size, size)
    _name(c, item, cx, cy + arm + 3 * MM, item.width * 0.75)
    _boxes(c, item)


def _plain(c, item: Item) -> None:
    """A plain rectangle (smoke): its name in the middle, and its tick boxes."""
    _name(c, item, item.x + item.width / 2, item.y + item.height / 2, item.width * 0.9)
    _boxes(c, item)


def _boxes(c, item: Item, x=None, y=None, w=None) -> None:
    n = int(item.piece.spec.get("boxes", 0))
    if not n:
        return
    side = 2.2 * MM
    x = item.x if x is None else x
    y = item.y if y is None else y
    w = item.width if w is None else w
    start = x + (w - n * side - (n - 1) * 0.6 * MM) / 2
    for i in range(n):
        c.rect(start + i * (side + 0.6 * MM), y + 1.2 * MM, side, side, stroke=1, fill=0)


def _grid(c, item: Item) -> None:
    spec = item.piece.spec
    cell = length(spec["cell"])
    c.setDash(1.5, 1.5)
    for col in range(1, spec["cols"]):
        c.line(item.x + col * cell, item.y, item.x + col * cell, item.y + item.height)
    for row in range(1, spec["rows"]):
        c.line(item.x, item.y + row * cell, item.x + item.width, item.y + row * cell)
    c.setDash()
    for col in range(spec["cols"]):
        for row in range(spec["rows"]):
            _boxes(c, item, item.x + col * cell, item.y + row * cell, cell)
    _name(c, item, item.x + item.width / 2, item.y + item.height - cell / 2, item.width * 0.9)


def _graduate(c, item: Item, step: float, along_top: bool, along_bottom: bool, label_every: int | None = 1) -> None:
    """Ticks every `step` from the piece's origin, numbered in cm, continuing across segments."""
    first = math.ceil(item.offset / step - 1e-9)
    last = math.floor((item.offset + item.width) / step + 1e-9)
    for k in range(first, last + 1):
        pos = item.x + k * step - item.offset
        major = bool(label_every) and k % label_every == 0
        tick = (3 if major or label_every is None else 1.8) * MM
        if along_bottom:
            c.line(pos, item.y, pos, item.y + tick)
        if along_top:
            c.line(pos, item.y + item.height, pos, item.y + item.height - tick)
        if major and 0.5 * MM < pos - item.x < item.width - 0.5 * MM:
            _text(c, f"{mm(k * step) / 10:g}", pos, item.y + item.height - tick - 2.6 * MM, 6)


def _strip(c, item: Item) -> None:
    spec = item.piece.spec
    step = length(spec.get("ticks", "10mm"))
    _graduate(c, item, step, True, True, label_every=1 if step >= 10 * MM else 5)
    _joins(c, item)
    size = _fit(c, item.piece.spec.get("label", item.piece.name), item.width / 3, 8, bold=True)
    if size:
        _text(c, item.piece.spec.get("label", item.piece.name), item.x + item.width / 2,
              item.y + item.height / 2 - size / 3, size, bold=True)


def _ruler(c, item: Item) -> None:
    spec = item.piece.spec
    shade = False
    for band in item.piece.bands:
        lo = length(f"{band['min']}cm")
        hi = length(f"{band['max']}cm") if band.get("max") is not None else item.piece.width
        a, b = max(lo, item.offset), min(hi, item.offset + item.width)
        if b > a:
            if shade:
                c.saveState()
                c.setFillColorRGB(0.88, 0.88, 0.86)
                c.rect(item.x + a - item.offset, item.y, b - a, item.height * 0.45, stroke=0, fill=1)
                c.restoreState()
            size = _fit(c, band["label"], b - a - 1 * MM, 6.5)
            if size:
                _text(c, band["label"], item.x + (a + b) / 2 - item.offset, item.y + 2 * MM, size)
        shade = not shade
    _graduate(c, item, length(spec.get("minor", "5mm")), False, True, label_every=None)
    _graduate(c, item, length(spec.get("ticks", "10mm")), True, False, label_every=1)
    for mark in spec.get("marks", []):
        at = length(mark) - item.offset
        if 0 <= at <= item.width:
            px = item.x + at
            top = item.y + item.height
            path = c.beginPath()
            path.moveTo(px, top - 6.8 * MM)
            path.lineTo(px - 1.2 * MM, top - 8.8 * MM)
            path.lineTo(px + 1.2 * MM, top - 8.8 * MM)
            path.close()
            c.drawPath(path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
    _joins(c, item)
    _name(c, item, item.x + item.width / 2, item.y + item.height * 0.52, item.width / 3)


def _joins(c, item: Item) -> None:
    if item.segments == 1:
        return
    mid = item.y + item.height / 2
    if item.segment > 1:
        _text(c, f"< part {item.segment - 1}", item.x + 1 * MM, mid - 2, 6, align="left")
    if item.segment < item.segments:
        _text(c, f"part {item.segment + 1} >", item.x + item.width - 1 * MM, mid - 2, 6, align="right")


def _wedge(c, item: Item) -> None:
    spec = item.piece.spec
    ax, ay = item.x + item.width / 2, item.y
    radius = length(spec["radius"])
    c.setDash(1.5, 1.5)
    c.line(ax, ay, ax, ay + radius)
    c.setDash()
    _text(c, item.piece.dimension, ax, ay + radius * 0.55, 6.5)
    _text(c, "heading", ax, ay + radius * 0.55 - 8, 6)
    half = radius * 0.75 * math.sin(math.radians(float(spec["angle"]) / 2))  # the wedge's half-width there
    _name(c, item, ax, ay + radius * 0.75, 2 * half * 0.9)


def _rose(c, item: Item) -> None:
    spec = item.piece.spec
    cx, cy = item.x + item.width / 2, item.y + item.height / 2
    marks = sorted(length(m) for m in spec["marks"])
    long = set(spec.get("long", DIRECTIONS))
    for i, name in enumerate(DIRECTIONS):
        theta = math.radians(90 - 45 * i)
        reach = marks[-1] if name in long else (marks[-2] if len(marks) > 1 else marks[-1])
        dx, dy = math.cos(theta), math.sin(theta)
        c.line(cx, cy, cx + dx * reach, cy + dy * reach)
        for m in marks:
            if m > reach + 0.01:
                continue
            px, py = cx + dx * m, cy + dy * m
            c.line(px - dy * 1.2 * MM, py + dx * 1.2 * MM, px + dy * 1.2 * MM, py - dx * 1.2 * MM)
            _text(c, f"{mm(m) / 10:g}", px + dy * 2.6 * MM, py - dx * 2.6 * MM - 2, 6)
        _text(c, name, cx + dx * (reach + 3 * MM), cy + dy * (reach + 3 * MM) - 2.5, 7, bold=True)
    theta, radius = math.radians(-67.5), item.width / 2  # between the S and SE arms, clear of both
    _name(c, item, cx + math.cos(theta) * radius * 0.62, cy + math.sin(theta) * radius * 0.62, radius * 0.45)
