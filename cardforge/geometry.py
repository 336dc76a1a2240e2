"""Plane geometry shared by drawing and imposition: piece outlines and track spaces."""
from __future__ import annotations

import math

from .units import mm


def shape_path(path, shape: str, x: float, y: float, w: float, h: float, grow: float = 0.0) -> None:
    """Add a piece's outline (rect, round, triangle), grown outwards by `grow`, to a reportlab path."""
    if shape == "round":
        path.ellipse(x - grow, y - grow, w + 2 * grow, h + 2 * grow)
    elif shape == "triangle":
        pts = triangle_points(x, y, w, h, grow)
        path.moveTo(*pts[0])
        for px, py in pts[1:]:
            path.lineTo(px, py)
        path.close()
    else:
        path.rect(x - grow, y - grow, w + 2 * grow, h + 2 * grow)


def triangle_points(x: float, y: float, w: float, h: float, grow: float = 0.0) -> list[tuple[float, float]]:
    """The corners of a point-up triangle in the box; growing keeps its incentre and adds `grow`
    to the inradius (so the corners move out further than `grow`)."""
    (ax, ay), (bx, by), (cx, cy) = (x, y), (x + w, y), (x + w / 2, y + h)
    a, b, c_ = math.dist((bx, by), (cx, cy)), math.dist((ax, ay), (cx, cy)), math.dist((ax, ay), (bx, by))
    per = a + b + c_
    ix, iy = (a * ax + b * bx + c_ * cx) / per, (a * ay + b * by + c_ * cy) / per
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    r = 2 * area / per
    k = (r + grow) / r
    return [(ix + (px - ix) * k, iy + (py - iy) * k) for px, py in ((ax, ay), (bx, by), (cx, cy))]


def outline_box(shape: str, x: float, y: float, w: float, h: float, grow: float) -> tuple[float, float, float, float]:
    """The bounding box (x, y, w, h) of a piece's outline grown by `grow` (its clip when drawn)."""
    if shape != "triangle":
        return x - grow, y - grow, w + 2 * grow, h + 2 * grow
    pts = triangle_points(x, y, w, h, grow)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def track_cells(path: str, direction: str, n: int, x: float, y: float, w: float, h: float,
                min_space: float) -> list[tuple[float, float, float, float]] | str:
    """Boxes (x, y, w, h) of n track spaces, or a message saying why they do not fit."""
    if path == "perimeter":
        def capacity(size: float) -> int:
            nx, ny = int(w // size), int(h // size)
            return 0 if nx < 2 or ny < 2 else 2 * (nx + ny) - 4
        if capacity(min_space) < n:
            return (f"a perimeter track of {n} spaces needs spaces smaller than {mm(min_space):.1f} mm; "
                    f"this frame holds {capacity(min_space)}")
        lo, hi = min_space, min(w, h) / 2
        for _ in range(40):  # the largest space size that still holds n spaces
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if capacity(mid) >= n else (lo, mid)
        nx, ny = int(w // lo), int(h // lo)
        sx, sy = w / nx, h / ny
        order = ([(i, 0) for i in range(nx)] + [(nx - 1, j) for j in range(1, ny)] +
                 [(i, ny - 1) for i in range(nx - 2, -1, -1)] + [(0, j) for j in range(ny - 2, 0, -1)])
        return [(x + i * sx, y + h - (j + 1) * sy, sx, sy) for i, j in order[:n]]
    horizontal = direction in ("right", "left")
    along = w if horizontal else h
    size = along / n
    if size < min_space - 1e-6:
        fits = int(along // min_space)
        return (f"a track of {n} spaces needs {mm(n * min_space):.1f} mm at {mm(min_space):.1f} mm per space "
                f"but the frame is {mm(along):.1f} mm long (room for {fits})")
    cells = []
    for i in range(n):
        k = i if direction in ("right", "down") else n - 1 - i
        if horizontal:
            cells.append((x + k * size, y, size, h))
        else:
            cells.append((x, y + h - (k + 1) * size, w, size))
    return cells
