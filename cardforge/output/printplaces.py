"""Where a fault of a print shop's CMYK PDF lies, in the designer's terms: the frame the manifest
records at a point of the page (`Locator`), and the layout line that wrote that frame's value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from .printcolor import PrintColor, hex_of, mapper


# --- where a point of the page is: the frame the manifest records there ---------------------

@dataclass(frozen=True)
class Place:
    piece: str  # "card bomber-1 front", "board map"
    frame: str | None
    layout: str | None
    key: tuple | None = None  # (piece id, side, frame name): the layout line, by the caller

    def __str__(self) -> str:
        return f"{self.piece}, frame '{self.frame}'" if self.frame else self.piece


class Locator:
    """The frame drawn at a point of a page, from the manifest's records (boxes in mm, origin at
    the page's lower left): the smallest box that holds the point."""

    def __init__(self, records: Iterable[dict]):
        self.pages: dict[int, list[tuple[dict, list]]] = {}
        for record in records:
            self.pages.setdefault(record["page"], []).append((record, record.get("frames") or []))

    def at(self, page: int, box: tuple[float, float, float, float] | None) -> Place:
        faces = self.pages.get(page, [])
        if not faces:
            return Place(f"page {page}", None, None)
        record = faces[0][0]
        best, best_area = None, math.inf
        if box is not None:
            cx, cy = (box[0] + box[2]) / 2 * 25.4 / 72, (box[1] + box[3]) / 2 * 25.4 / 72
            for face, frames in faces:
                for frame in frames:
                    fb = frame.get("box")
                    if not fb or not (fb[0] - 0.01 <= cx <= fb[0] + fb[2] + 0.01 and fb[1] - 0.01 <= cy <= fb[1] + fb[3] + 0.01):
                        continue
                    area = fb[2] * fb[3]
                    if area <= best_area:
                        best, best_area, record = frame, area, face
        piece_id = record.get("card") or record.get("board") or "?"
        kind = "card" if "card" in record else "board"
        piece = f"{kind} {piece_id} {record.get('side', 'front')}"
        name = best.get("name") if best else None
        return Place(piece, name, record.get("layout"), (piece_id, record.get("side", "front"), name))



# --- diagnostics at the layout lines ---------------------------------------------------------------

SHIFT_WARNING = 5.0  # ΔE2000: a shift a designer sees side by side


def report_faults(prep, conversion, report, label: str) -> None:
    """What converting a PDF found (a cmykpdf.Conversion), each at the layout line of its frame."""
    for fault in conversion.faults:
        say = report.error if fault.severity == "error" else report.warning
        say(fault.code, f"{label}: {fault.place}: {fault.message}", frame_pos(prep, fault.place, fault.key),
            help=fault.help)


def frame_pos(prep, place, key: str | tuple):
    """Where the layout of the face at `place` writes the frame's `key` (the first of several it
    writes), else where the frame is; None where no frame is known."""
    from ..layout.repeat import walk_frames
    if place is None or place.key is None:
        return None
    piece, side, name = place.key
    layout = prep.faces.get((piece, side)) or prep.boards.get(piece)
    if layout is None or name is None:
        return None
    for frame in walk_frames(layout.frames):
        if frame.name == name:
            for one in (key,) if isinstance(key, str) else key:
                if one in frame.written:
                    return frame.value_pos(one)
            return frame.position
    return None


def shift_warnings(prep, cmyk: PrintColor, shifts: dict, report) -> None:
    """Each colour whose print shifts by more than SHIFT_WARNING, with the frames that use it."""
    m = mapper(cmyk)
    found = []
    for rgb, places in shifts.items():
        if len(set(rgb)) == 1:
            # A grey (black among them) prints in K alone by rule, at the lightness K reaches: its
            # shift is the press's black, the same for every game, and no other grey would print
            # closer.  The proof shows it; the guide says so once (docs/guides/print-colour.md).
            continue
        shift = m.shift(tuple(v / 255 for v in rgb))
        if shift > SHIFT_WARNING:
            found.append((shift, rgb, places))
    for shift, rgb, places in sorted(found, key=lambda f: (-f[0], f[1])):
        frames = sorted({f"{p.layout}:{p.frame}" if p.frame else p.piece for p in places})
        shown = ", ".join(frames[:6]) + (f" and {len(frames) - 6} more" if len(frames) > 6 else "")
        first = min(places, key=str)
        printed = hex_of(m.proof(m.cmyk(tuple(v / 255 for v in rgb))))
        report.warning("W-COLOUR-SHIFT", f"{hex_of(rgb)} prints as {printed} on {cmyk.profile.name} "
                       f"(ΔE2000 {shift:.1f}), in {shown}", frame_pos(prep, first, "fill"),
                       help="see it with `cardforge render GAME CARD --color cmyk --proof`; choose a colour the press "
                            "can print if the shift matters")


