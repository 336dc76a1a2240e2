"""A designer's saved printers: `printers.yaml` in the user's settings folder
($XDG_CONFIG_HOME/cardforge/, by default ~/.config/cardforge/; $CARDFORGE_PRINTERS names another file).

    office-laser:
      back-offset: 0.5,-1   # mm, X,Y as the duplex alignment test reads it (or [0.5, -1])
      flip: long            # optional: long or short

`cardforge build --printer office-laser` then builds with that correction and flip, unless
--back-offset or --flip say otherwise.  The offset is in the paper's frame, as the test reads it:
the kit turns it with every landscape page (output/pages.py `page_offset`).  Every bad value is an
error at its line, all at once."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Report
from .load import load_yaml

LIMIT_MM = 20.0  # more than this is not a printer's misregistration
KEYS = ("back-offset", "flip")


@dataclass(frozen=True)
class Printer:
    name: str
    back_offset: tuple[float, float]  # mm, paper frame
    flip: str | None


def printers_file() -> Path:
    if os.environ.get("CARDFORGE_PRINTERS"):
        return Path(os.environ["CARDFORGE_PRINTERS"])
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "cardforge" / "printers.yaml"


def load_printer(name: str, report: Report, path: Path | None = None) -> Printer | None:
    """The printer `name` of the printers file; None, with the reasons in `report`, when it is
    missing or any of its values is bad."""
    path = path or printers_file()
    if not path.is_file():
        report.error("E-PRINTER", f"no printers file at {path}, so no printer '{name}'",
                     help=f"create it with an entry such as:  {name}: {{back-offset: '0.5,-1', flip: long}}")
        return None
    doc = load_yaml(path, report)
    if doc is None:
        return None
    data = doc.data
    if not isinstance(data, dict):
        report.error("E-PRINTER", "printers.yaml must map each printer's name to its settings", doc.pos(""),
                     help="e.g.  office-laser: {back-offset: '0.5,-1', flip: long}")
        return None
    if name not in data:
        report.error("E-PRINTER", f"no printer '{name}' in {path}", doc.pos(""),
                     help=f"the printers are: {', '.join(map(str, data)) or 'none yet'}")
        return None
    entry, at = data[name], f"/{name}"
    if not isinstance(entry, dict):
        report.error("E-PRINTER", f"printer '{name}' must hold its settings: back-offset and flip", doc.pos(at),
                     help="e.g.  back-offset: 0.5,-1")
        return None
    errors = len(report.errors)
    for key in entry:
        if key not in KEYS:
            report.error("E-PRINTER", f"unknown setting '{key}' of printer '{name}'", doc.pos(f"{at}/{key}", key=True),
                         help=f"the settings are {', '.join(KEYS)}")
    offset = _offset(entry.get("back-offset", "0,0"), doc, f"{at}/back-offset", report)
    flip = entry.get("flip")
    if flip is not None and flip not in ("long", "short"):
        report.error("E-PRINTER", f"flip must be long or short, not '{flip}'", doc.pos(f"{at}/flip"),
                     help="the edge your printer turns the sheet over in duplex")
    if len(report.errors) > errors or offset is None:
        return None
    return Printer(name, offset, flip)


def _offset(value, doc, at: str, report: Report) -> tuple[float, float] | None:
    parts = value.replace(" ", "").split(",") if isinstance(value, str) else value
    try:
        if not isinstance(parts, list) or len(parts) != 2 or any(isinstance(p, bool) for p in parts):
            raise ValueError
        x, y = (float(p) for p in parts)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError
    except (TypeError, ValueError):
        report.error("E-PRINTER", f"back-offset takes two numbers in mm, X,Y, not '{value}'", doc.pos(at),
                     help="as the duplex alignment test reads it, for example  back-offset: 0.5,-1")
        return None
    if abs(x) > LIMIT_MM or abs(y) > LIMIT_MM:
        report.error("E-PRINTER", f"back-offset {x:g},{y:g}: more than {LIMIT_MM:g} mm is not a printer's "
                     "misregistration", doc.pos(at), help="print the duplex alignment test again and read it")
        return None
    return (x, y)
