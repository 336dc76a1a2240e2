"""Contrast (WCAG 2.x 1.4.3): every text run against what is drawn behind it, reported once per
frame and text colour, at the frame's line, naming the faces it was measured on."""
from __future__ import annotations

import re

from ..diagnostics import Report
from ..layout.repeat import walk_frames

EXEMPT = ("decorative", "inactive", "logo")  # what WCAG 1.4.3 itself exempts: incidental text, logotypes
SHOWN = 3  # face ids named in a message


_ROW = re.compile(r"^(?P<parent>.+?)\[\d+\]\.(?P<child>.+)$")


def frame_named(layout, name: str):
    """The layout's frame of that name; a repeat frame's child as drawn ("targets[0].slot-label",
    layout/repeat.py) is its child frame, whatever the row."""
    frames = {frame.name: frame for frame in walk_frames(layout.frames)}
    if name in frames:
        return frames[name]
    while (row := _ROW.match(name)) is not None:
        parent = frames.get(row["parent"])
        if parent is None or parent.type != "repeat":
            return None
        frames = {frame.name: frame for frame in walk_frames(parent.props["children"])}
        name = row["child"]
        if name in frames:
            return frames[name]
    return None


def exemption(frame) -> str | None:
    access = frame.props.get("access")
    return access.get("exempt") if isinstance(access, dict) else None


def faces_named(labels: list[str], what: str = "face", shown: int = SHOWN) -> str:
    """'12 faces (a, b, c, …)'"""
    unique = list(dict.fromkeys(labels))
    listed = ", ".join(unique[:shown]) + (", …" if len(unique) > shown else "")
    return f"{len(unique)} {what}{'s' if len(unique) != 1 else ''} ({listed})"


def report_contrast(faces, report: Report) -> None:
    """One warning per frame (a repeat's rows are its one child frame): its worst colour pair, the
    next worst ones, and every face on which some run of it fails."""
    groups: dict[tuple, dict] = {}
    for face in faces:
        for frame_name, fill, bg, ratio, need, _pixels in face.result["runs"]:
            if ratio >= need:
                continue
            frame = frame_named(face.layout, frame_name)
            if frame is not None and exemption(frame) in EXEMPT:
                continue
            if frame is None:  # not a frame of the layout as written: reported at the layout
                pos, name = face.layout.doc.pos("/frames"), frame_name
            else:
                pos, name = (frame.value_pos("color") if "color" in frame.props else frame.position), frame.name
            group = groups.setdefault((str(pos.path), pos.line, pos.col, name),
                                      {"pos": pos, "frame": name, "layout": face.layout.name, "faces": [], "pairs": {}})
            group["faces"].append(face.label)
            pair = group["pairs"].setdefault((fill, bg), (ratio, need))
            if ratio < pair[0]:
                group["pairs"][(fill, bg)] = (ratio, need)
    for group in sorted(groups.values(), key=lambda g: (str(g["pos"].path), g["pos"].line, g["pos"].col)):
        ranked = sorted((ratio, need, fill, bg) for (fill, bg), (ratio, need) in group["pairs"].items())
        ratio, need, fill, bg = ranked[0]
        others = [f"on {b} {r:.2f}:1" if f == fill else f"{f} on {b} {r:.2f}:1" for r, _, f, b in ranked[1:]]
        also = "; also " + ", ".join(others[:2]) + (f" and {len(others) - 2} more" if len(others) > 2 else "") \
            if others else ""
        size = "large text (18 pt, or 14 pt bold)" if need < 4.5 else "text under 18 pt (14 pt bold)"
        report.warning(
            "W-ACCESS-CONTRAST",
            f"frame '{group['frame']}' of layout '{group['layout']}': text {fill} on {bg} has a contrast of "
            f"{ratio:.2f}:1, below the {need:g}:1 WCAG asks of {size}{also}; on {faces_named(group['faces'])}",
            group["pos"],
            help="darken the text or lighten what is behind it (or the reverse); where the text is decoration, an "
                 "inactive control or a logotype, say so: access: {exempt: decorative|inactive|logo}")
