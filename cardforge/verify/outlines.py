"""Measuring the outlines of true-scale templates in a written PDF (C11).

Every template piece is stroked once in the cut colour (output/truescale.py). Here the page's
stroked paths of that colour are read back (pdfread.PageReader.strokes) and their exact extent is
computed: line ends, and the true extremes of each Bézier curve (not its control points, which lie
outside a circle's arc). Each manifest record must match one such path within 0.1 mm, and the size
the record claims must be the size the data gives now. A piece drawn at the wrong size, or a PDF
scaled by a viewer or a later tool, fails here.
"""
from __future__ import annotations

import math

from ..frontend.pieces import CUT_RGB
from ..units import MM, mm

TOLERANCE_MM = 0.1
_NUM = frozenset(b"+-.0123456789")


def _cubic_extremes(p0: float, p1: float, p2: float, p3: float) -> list[float]:
    """The values of a cubic Bézier coordinate at t = 0, 1 and where its derivative is zero."""
    out = [p0, p3]
    a = -p0 + 3 * p1 - 3 * p2 + p3
    b = 2 * (p0 - 2 * p1 + p2)
    c = p1 - p0
    roots: list[float] = []
    if abs(a) < 1e-12:
        if abs(b) > 1e-12:
            roots.append(-c / b)
    else:
        disc = b * b - 4 * a * c
        if disc >= 0:
            sq = math.sqrt(disc)
            roots += [(-b + sq) / (2 * a), (-b - sq) / (2 * a)]
    for t in roots:
        if 0 < t < 1:
            mt = 1 - t
            out.append(mt ** 3 * p0 + 3 * mt * mt * t * p1 + 3 * mt * t * t * p2 + t ** 3 * p3)
    return out


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def path_extent(path: list[tuple]) -> tuple[float, float, float, float] | None:
    """The exact bounding box (points, on the page) of a path: [(ctm, construction bytes)]."""
    xs: list[float] = []
    ys: list[float] = []
    current = None  # the current point, on the page
    for ctm, run in path:
        numbers: list[float] = []
        for word in run.split():
            if word[0] in _NUM:
                numbers.append(float(word))
                continue
            if word == b"re" and len(numbers) >= 4:
                x, y, w, h = numbers[-4:]
                for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
                    gx, gy = _apply(ctm, px, py)
                    xs.append(gx)
                    ys.append(gy)
                current = _apply(ctm, x, y)
            elif word in (b"m", b"l") and len(numbers) >= 2:
                current = _apply(ctm, *numbers[-2:])
                xs.append(current[0])
                ys.append(current[1])
            elif word == b"c" and len(numbers) >= 6 and current is not None:
                n = numbers[-6:]
                p1, p2, p3 = _apply(ctm, n[0], n[1]), _apply(ctm, n[2], n[3]), _apply(ctm, n[4], n[5])
                xs.extend(_cubic_extremes(current[0], p1[0], p2[0], p3[0]))
                ys.extend(_cubic_extremes(current[1], p1[1], p2[1], p3[1]))
                current = p3
            numbers = []
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def cut_paths(reader, rgb: tuple) -> list[tuple[float, float, float, float]]:
    want = tuple(round(v, 4) for v in rgb)
    out = []
    for colour, path in reader.strokes:
        if tuple(round(v, 4) for v in colour) == want:
            box = path_extent(path)
            if box is not None:
                out.append(box)
    return out


def measure_templates(verifier, name: str, number: int, reader, records: list[dict], pieces: dict) -> None:
    """Each template record of a page: its outline is in the PDF at its size, and that size is the
    size the data gives (a segment: its part of the piece's length)."""
    boxes = cut_paths(reader, CUT_RGB)
    used: set[int] = set()
    for record in records:
        piece = pieces.get(record.get("template"))
        label = f"template '{record.get('template')}'"
        if piece is None:
            verifier.error("E-PRINTED-TEMPLATE", f"{name}: {label} is printed (page {number}) but is no longer in "
                           "the data", once=("tgone", record.get("template")), help="rebuild the PDF")
            continue
        x, y, w, h = record["outline"]
        want_w, want_h = mm(piece.width), mm(piece.height)
        if record.get("segment"):
            want_w = min(w, mm(piece.width) - float(record.get("offset", 0)))
        if abs(w - want_w) > TOLERANCE_MM or abs(h - want_h) > TOLERANCE_MM:
            verifier.error("E-PRINTED-TEMPLATE", f"{name} page {number}: {label} was drawn {w:.1f} x {h:.1f} mm, "
                           f"but the data gives {want_w:.1f} x {want_h:.1f} mm", piece,
                           once=("tsize", piece.id), help="the data changed since this PDF was built: rebuild it")
            continue
        match = None
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            if i in used:
                continue
            if all(abs(a - b) <= TOLERANCE_MM for a, b in ((mm(x0), x), (mm(y0), y), (mm(x1 - x0), w),
                                                          (mm(y1 - y0), h))):
                match = i
                break
        if match is None:
            near = min(boxes, key=lambda b: abs(mm(b[0]) - x) + abs(mm(b[1]) - y), default=None)
            got = f"{mm(near[2] - near[0]):.2f} x {mm(near[3] - near[1]):.2f} mm" if near else "no cut line"
            verifier.error("E-PRINTED-TEMPLATE", f"{name} page {number}: {label} (copy {record.get('copy', 1)}) "
                           f"should measure {w:.1f} x {h:.1f} mm, but its cut line in the PDF measures {got}",
                           piece, once=("tmeasure", piece.id, number, x, y),
                           help="the PDF was changed or scaled after the build; rebuild it and print at 100%")
            continue
        used.add(match)
        record["measured"] = [round(mm(boxes[match][2] - boxes[match][0]), 3),
                              round(mm(boxes[match][3] - boxes[match][1]), 3)]


__all__ = ["measure_templates", "path_extent", "cut_paths", "MM", "TOLERANCE_MM"]
