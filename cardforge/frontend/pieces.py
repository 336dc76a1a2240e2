"""True-scale templates (C11, C12): pieces that players lay on the table and measure with.

    templates:
      - id: burst-60
        name: Artillery burst
        shape: circle            # circle, rect, grid, strip, wedge, rose, ruler
        diameter: 60mm
        quantity: 4
      - {id: fascam, shape: grid, cols: 3, rows: 3, cell: 20mm}
      - {id: corridor, shape: strip, width: 80mm, length: 1000mm, ticks: 10mm}
      - {id: heading, shape: wedge, angle: 60, radius: 80mm}
      - {id: scatter, shape: rose, marks: [30mm, 60mm, 100mm], long: [N, E, S, W], longest: 100mm}
      - {id: stick, shape: ruler, length: 1250mm, width: 24mm, bands: {table: to_hit}}

Each piece's outline is its cut line, drawn exactly; its size is printed on it; `verify` measures
every outline in the PDF. A piece longer than the printable page (strips, rulers) is cut into
segments whose graduation continues from one to the next.

This module turns the data into pieces with their exact outline sizes (points); drawing and
packing are in output/truescale.py, measuring in verify/outlines.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report
from ..units import MM, length, mm
from .load import Document

CUT_RGB = (0.9, 0.0, 0.45)  # the cut line's colour: used for nothing else, so that it can be measured
SHAPES = ("circle", "rect", "grid", "strip", "wedge", "rose", "ruler")
# What each shape's size is made of: the schema cannot say it per shape, so load_templates does.
NEEDS = {"circle": ("diameter",), "rect": ("width", "height"), "grid": ("cols", "rows", "cell"),
         "strip": ("length", "width"), "ruler": ("length", "width"), "wedge": ("radius", "angle"), "rose": ("marks",)}
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


@dataclass
class TemplatePiece:
    id: str
    name: str
    shape: str
    spec: dict[str, Any]
    doc: Document
    pointer: str
    quantity: int = 1
    width: float = 0.0   # the outline's bounding box, points (a ruler: its whole length)
    height: float = 0.0
    dimension: str = ""  # printed on the piece: "Ø 60 mm", "30 × 30 mm"
    bands: list[dict] = field(default_factory=list)  # ruler bands: {min, max, label} in cm

    def pos(self, key: str | None = None):
        return self.doc.pos(f"{self.pointer}/{key}" if key else self.pointer)


def _fmt(points: float) -> str:
    return f"{mm(points):g}"


def wedge_box(angle: float, radius: float) -> tuple[float, float, float]:
    """Width, height of a wedge pointing up (apex at the bottom centre), and the apex's x offset."""
    half = math.radians(angle) / 2
    width = 2 * radius * math.sin(half) if angle <= 180 else 2 * radius
    height = radius if angle <= 180 else radius * (1 - math.cos(half))
    return width, height, width / 2


def load_templates(data: dict, doc: Document, tables: dict, report: Report) -> list[TemplatePiece]:
    """The `templates:` of game.yaml (already schema-checked) as pieces with their sizes."""
    out: list[TemplatePiece] = []
    for index, spec in enumerate(data.get("templates") or []):
        if not isinstance(spec, dict) or spec.get("shape") not in SHAPES:
            continue
        pointer = f"/templates/{index}"
        piece = TemplatePiece(spec["id"], spec.get("name", spec["id"]), spec["shape"], spec, doc, pointer,
                              quantity=int(spec.get("quantity", 1)))
        missing = [key for key in NEEDS[piece.shape] if key not in spec]
        if missing:
            report.error("E-TEMPLATE-PIECE", f"template '{piece.id}': a {piece.shape} needs "
                         + " and ".join(f"'{key}'" for key in missing), doc.pos(pointer),
                         help=f"a {piece.shape} is sized by " + ", ".join(NEEDS[piece.shape]))
            continue
        try:
            _size(piece, spec, tables, report)
        except ValueError as exc:
            report.error("E-TEMPLATE-PIECE", f"template '{piece.id}': {exc}", doc.pos(pointer),
                         help="give every size as a length with a unit, e.g. 60mm")
            continue
        out.append(piece)
    return out


def _size(piece: TemplatePiece, spec: dict, tables: dict, report: Report) -> None:
    shape = piece.shape
    if shape == "circle":
        d = length(spec["diameter"])
        piece.width = piece.height = d
        piece.dimension = f"Ø {_fmt(d)} mm"
    elif shape == "rect":
        piece.width, piece.height = length(spec["width"]), length(spec["height"])
        piece.dimension = f"{_fmt(piece.width)} × {_fmt(piece.height)} mm"
    elif shape == "grid":
        cell = length(spec["cell"])
        piece.width, piece.height = spec["cols"] * cell, spec["rows"] * cell
        piece.dimension = (f"{spec['cols']} × {spec['rows']} blocks of {_fmt(cell)} mm = "
                           f"{_fmt(piece.width)} × {_fmt(piece.height)} mm")
    elif shape in ("strip", "ruler"):
        piece.width, piece.height = length(spec["length"]), length(spec["width"])
        piece.dimension = f"{_fmt(piece.height)} mm wide" if shape == "strip" else f"0–{_fmt(piece.width / 10)} cm"
        bands = spec.get("bands")
        if shape == "ruler" and isinstance(bands, dict):
            rows = tables.get(bands.get("table"))
            if rows is None or rows.table is None:
                report.error("E-TEMPLATE-PIECE", f"template '{piece.id}': unknown table '{bands.get('table')}'",
                             piece.pos("bands/table"), help=f"tables: {', '.join(sorted(tables))}")
            else:
                source = rows.table.columns if bands.get("from", "columns") == "columns" else list(rows)
                piece.bands = [{"min": b.get("min") or 0, "max": b.get("max"), "label": str(b.get("label", ""))}
                               for b in source if isinstance(b, dict)]
    elif shape == "wedge":
        radius, angle = length(spec["radius"]), float(spec["angle"])
        piece.width, piece.height, _ = wedge_box(angle, radius)
        piece.dimension = f"±{angle / 2:g}°, {_fmt(radius)} mm"
    elif shape == "rose":
        radius = max(length(m) for m in spec["marks"]) + length(spec.get("margin", "6mm"))
        piece.width = piece.height = 2 * radius
        piece.dimension = "marks at " + ", ".join(f"{mm(length(m)) / 10:g}" for m in spec["marks"]) + " cm"
    if piece.width <= 0 or piece.height <= 0:
        raise ValueError("its size must be greater than zero")
    piece.dimension = spec.get("dimension", piece.dimension)


def cut_outline(piece: TemplatePiece, length_pt: float | None = None) -> tuple[float, float]:
    """The (width, height) a verifier must measure for the piece (or one segment of it)."""
    if piece.shape in ("strip", "ruler") and length_pt is not None:
        return length_pt, piece.height
    return piece.width, piece.height


__all__ = ["TemplatePiece", "load_templates", "wedge_box", "cut_outline", "SHAPES", "DIRECTIONS", "MM"]
