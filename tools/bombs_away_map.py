"""Regenerate content/bombs-away/images/europe-map.svg, the map under the Bombs Away! Target Display.

Source: Natural Earth's 1:50m land polygons (public domain, naturalearthdata.com), as pre-built
TopoJSON in npm's `world-atlas` package (ISC licence, Mike Bostock). Fetch and unpack it, then run:

    npm pack world-atlas && tar xzf world-atlas-*.tgz
    python tools/bombs_away_map.py package/land-50m.json

Only the coastlines are drawn: the map's borders would be today's, not those of 1941-45.
The projection is equirectangular with the longitude scaled by cos(51 deg N), which keeps shapes
true enough over Germany. The window and scale put each German target's city (MAP in the layout's
comment) near its square of the display; `content/bombs-away/game.yaml` gives each target's
longitude and latitude, and the layout converts them with the same numbers (LON0, LAT0, SCALE).
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "content" / "bombs-away" / "images" / "europe-map.svg"

# The map frame with its bleed: 251 x 378 mm (the board's left 248 mm and its height, plus 3 mm
# bleed on the left, top and bottom). Its top-left corner is at LON0, LAT0.
WIDTH_MM, HEIGHT_MM = 251.0, 378.0
SCALE = 36.0  # mm per degree of latitude
COS = math.cos(math.radians(51.0))  # mm per degree of longitude = SCALE * COS
LON0, LAT0 = 5.5 - 3.0 / (SCALE * COS), 56.8 + 3.0 / SCALE  # the bleed lies beyond the board's corner
MIN_STEP_MM = 0.35  # points closer than this to the previous one are dropped (a fine pen's width)
SEA, LAND, COAST = "#cfdde6", "#efe9d8", "#7f98aa"


def project(lon: float, lat: float) -> tuple[float, float]:
    """Map millimetres from the top-left corner of the frame (y downwards, as SVG)."""
    return (lon - LON0) * SCALE * COS, (LAT0 - lat) * SCALE


def decode_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    """TopoJSON arcs: quantized, delta-encoded positions turned into longitude and latitude."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def ring(arcs: list, indexes: list[int]) -> list[tuple[float, float]]:
    """A ring joined from arcs; a negative index ~i is arc i reversed; each arc repeats the last point."""
    points: list[tuple[float, float]] = []
    for index in indexes:
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        points.extend(arc[1:] if points else arc)
    return points


def polygons(topology: dict, name: str):
    arcs = decode_arcs(topology)
    for geometry in topology["objects"][name]["geometries"]:
        shapes = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for shape in shapes:
            yield [ring(arcs, r) for r in shape]


def clip(points: list[tuple[float, float]], box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of a closed ring inside the box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    edges = ((lambda p: p[0] >= x0, lambda a, b: _at_x(a, b, x0)), (lambda p: p[0] <= x1, lambda a, b: _at_x(a, b, x1)),
             (lambda p: p[1] >= y0, lambda a, b: _at_y(a, b, y0)), (lambda p: p[1] <= y1, lambda a, b: _at_y(a, b, y1)))
    for inside, cross in edges:
        if not points:
            break
        out = []
        for i, p in enumerate(points):
            q = points[i - 1]
            if inside(p):
                if not inside(q):
                    out.append(cross(q, p))
                out.append(p)
            elif inside(q):
                out.append(cross(q, p))
        points = out
    return points


def _at_x(a, b, x):
    t = (x - a[0]) / (b[0] - a[0])
    return x, a[1] + t * (b[1] - a[1])


def _at_y(a, b, y):
    t = (y - a[1]) / (b[1] - a[1])
    return a[0] + t * (b[0] - a[0]), y


def thin(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out = []
    for p in points:
        if not out or math.dist(p, out[-1]) >= MIN_STEP_MM:
            out.append(p)
    return out


def path_data(rings: list[list[tuple[float, float]]]) -> str:
    """SVG path data in tenths of a millimetre (whole numbers keep the file small)."""
    parts = []
    for r in rings:
        coords = [f"{round(x * 10)} {round(y * 10)}" for x, y in r]
        parts.append("M" + " L".join(coords) + "Z")
    return "".join(parts)


def main(source: str) -> None:
    topology = json.loads(Path(source).read_text("utf-8"))
    box = (-1.0, -1.0, WIDTH_MM + 1.0, HEIGHT_MM + 1.0)
    shapes = []
    for polygon in polygons(topology, "land"):
        rings = [thin(clip([project(lon, lat) for lon, lat in r], box)) for r in polygon]
        rings = [r for r in rings if len(r) >= 3]
        if rings:
            shapes.append(path_data(rings))
    w, h = round(WIDTH_MM * 10), round(HEIGHT_MM * 10)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{WIDTH_MM}mm" height="{HEIGHT_MM}mm">\n'
           f'<!-- Generated by tools/bombs_away_map.py from Natural Earth 1:50m land (public domain) via npm world-atlas. -->\n'
           f'<rect x="0" y="0" width="{w}" height="{h}" fill="{SEA}"/>\n'
           + "".join(f'<path d="{d}" fill="{LAND}" fill-rule="evenodd" stroke="{COAST}" stroke-width="4" '
                     f'stroke-linejoin="round"/>\n' for d in shapes)
           + "</svg>\n")
    OUT.write_text(svg, "utf-8")
    print(f"wrote {OUT.relative_to(REPO)}: {len(shapes)} land shapes, {len(svg) // 1024} KB")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
