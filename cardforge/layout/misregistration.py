"""Designs that forgive the printer: a two-sided piece whose front or back draws a hard edge (a
border line, or a colour change) close to the trim shows any duplex misregistration, since a back
shifted by 1 mm turns an even 2 mm border into 1 mm on one side and 3 mm on the other.

The check looks at the shape frames of every layout drawn on a side of a two-sided piece: an edge
of a filled or stroked shape running along the trim, less than MISREGISTRATION_TOLERANCE inside
it, is reported once at the frame (where the layout writes it). A fill that reaches the trim and
grows into the bleed (`bleed: true`) forgives the printer and is not reported; a fill the same
colour as the ground under it draws no edge at all."""
from __future__ import annotations

from ..diagnostics import Report
from ..units import MM, mm
from .repeat import walk_frames

MISREGISTRATION_TOLERANCE = 3 * MM  # a home duplex printer's usual front-to-back error, with room
MIN_RUN = 0.25  # an edge shorter than this share of its side is a detail (an icon), not a border
_NONE = ("", "none", "transparent")


def _paint(value) -> str:
    return str(value or "none").strip().lower()


def _edges(frame, width: float, height: float):
    """(side name, distance from that trim edge, run along it) of each edge of the frame's box
    that runs along a trim edge; a line is one edge, a box four."""
    x, y, w, h = frame.x, frame.y, frame.width, frame.height
    if frame.props.get("shape") == "line":
        if h == 0:  # horizontal
            yield from (("top", y, w), ("bottom", height - y, w))
        elif w == 0:
            yield from (("left", x, h), ("right", width - x, h))
        return
    yield "left", x, h
    yield "right", width - (x + w), h
    yield "top", y, w
    yield "bottom", height - (y + h), w


def _ground(frames, index: int, frame) -> str:
    """The fill of the last opaque shape drawn before `frame` that covers its whole box: the colour
    its own fill meets at its edges."""
    for below in reversed(frames[:index]):
        if below.type != "shape" or below.props.get("shape") == "line" or _paint(below.props.get("fill")) in _NONE:
            continue
        if below.x <= frame.x and below.y <= frame.y and below.x + below.width >= frame.x + frame.width \
                and below.y + below.height >= frame.y + frame.height:
            return _paint(below.props.get("fill"))
    return "paper-white"


def hard_edges_near_trim(layout, tolerance: float = MISREGISTRATION_TOLERANCE):
    """(frame, side name, distance, what) for each hard edge of `layout` within `tolerance` of the trim."""
    frames = [f for f in walk_frames(layout.frames) if f.type == "shape"]
    found = []
    for i, frame in enumerate(frames):
        fill, stroke = _paint(frame.props.get("fill")), _paint(frame.props.get("stroke"))
        is_line = frame.props.get("shape") == "line"
        stroked = stroke not in _NONE
        filled = not is_line and fill not in _NONE and fill != _ground(frames, i, frame)
        if not (stroked or filled):
            continue
        bleeds = bool(frame.props.get("bleed"))
        for side, distance, run in _edges(frame, layout.width, layout.height):
            along = layout.height if side in ("left", "right") else layout.width
            if run < MIN_RUN * along or distance >= tolerance - 0.01:
                continue
            if stroked:
                found.append((frame, side, distance, "border line"))
                break
            if distance > 0.05 or not bleeds:  # a fill to the trim without bleed leaves a white sliver
                found.append((frame, side, distance, "colour edge"))
                break
    return found


def check_duplex_edges(game, report: Report, faces: dict,
                       tolerance: float = MISREGISTRATION_TOLERANCE) -> None:
    """W-DUPLEX-EDGE: per layout drawn on either side of a two-sided piece, each frame whose border
    or colour edge lies within `tolerance` of the trim, once at the frame."""
    two_sided = {card_id for card_id, side in faces if side == "back" and (card_id, "front") in faces}
    seen: set[tuple] = set()
    for (card_id, side), layout in faces.items():
        if card_id not in two_sided or layout is None:
            continue
        for frame, edge, distance, what in hard_edges_near_trim(layout, tolerance):
            key = (str(frame.position.path) if frame.position else "", frame.position.line if frame.position else 0,
                   frame.name)
            if key in seen:
                continue
            seen.add(key)
            report.warning(
                "W-DUPLEX-EDGE",
                f"frame '{frame.name}' of layout '{layout.name}' draws a {what} {mm(distance):.1f} mm from "
                f"the {edge} trim of a two-sided piece: a duplex misregistration of a millimetre shows there",
                frame.position,
                help=f"extend the colour into the bleed ('bleed: true', reaching the trim) or move the edge in "
                     f"at least {mm(tolerance):.0f} mm from the trim")
