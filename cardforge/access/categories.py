"""Colour vision and colour alone (WCAG 1.4.1): the colours that tell categories apart.

A category colour is one a frame's template chooses (`fill: "{{ nation }}"`): the faces of one
layout fall into groups by the colour each frame gave them.  Two groups are told apart by
something other than colour when a frame prints one thing on every face of one group and never
that thing on the other (a label, an icon, a picture, a frame shown on one side only, the form a
number is printed in).  Where
nothing does, the colour carries the category alone, and the pair is reported:
- W-ACCESS-VISION when the two colours look alike to a protanope, deuteranope or tritanope
  (ΔE2000 under wcag.VISION_DE after simulation) or on a black-and-white printer (lightness alone,
  under wcag.GREY_DE);
- W-ACCESS-COLOUR-ONLY when every viewer can tell them apart but only by hue: their lightness
  differs by less than 3:1, the contrast WCAG's technique G183 asks of a colour-only distinction.
A pair is reported once per layout, with the frame whose colours differ most.
"""
from __future__ import annotations

import re
from itertools import combinations

from ..diagnostics import Report
from .contrast import faces_named, frame_named
from .wcag import LIGHTNESS_CONTRAST, confusions, contrast, hex_rgb


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _cue(face, frame: str, numbers: bool) -> str | None:
    """What a frame printed on a face; without its numbers (`numbers` False), the form a value is
    printed in: "A(2)" against "A3" tells a bomber from a fighter whatever the dice."""
    sigs = face.result["cues"].get(frame)
    if sigs is None:
        return None
    text = "\n".join(sigs)
    return text if numbers else _NUMBER.sub("#", text)


def told_apart(one: list, other: list) -> bool:
    """Whether a frame prints something on every face of one group and never on the other's: the
    same value (a label, an icon, a bond's value), or the same form of a value."""
    frames = {name for face in one + other for name in face.result["cues"]}
    for name in frames:
        for numbers in (True, False):
            a = {_cue(face, name, numbers) for face in one}
            b = {_cue(face, name, numbers) for face in other}
            if a.isdisjoint(b) and (len(a) == 1 or len(b) == 1):
                return True
    return False


def colour_pairs(faces, every: bool = False) -> list[dict]:
    """The pairs of category colours of every layout, one per pair of groups of faces: its colours,
    its groups, whether anything else tells the groups apart ("cued") and, for a pair that nothing
    else tells apart (or `every` pair), the ways of seeing that confuse its colours and their
    lightness contrast.  Where several frames' colours split the faces alike, the frame whose
    colours differ most stands for the pair."""
    by_layout: dict[str, list] = {}
    for face in faces:
        by_layout.setdefault(face.layout.name, []).append(face)
    pairs = []
    for name, members in sorted(by_layout.items()):
        partitions: dict[tuple, list[dict]] = {}
        props = sorted({(frame, key) for face in members for frame, keys in face.result["colours"].items() for key in keys})
        for frame, key in props:
            groups: dict[str, list] = {}
            for face in members:
                colour = face.result["colours"].get(frame, {}).get(key)
                if colour is not None:
                    groups.setdefault(colour, []).append(face)
            for a, b in combinations(sorted(groups), 2):
                split = tuple(sorted((frozenset(id(f) for f in groups[a]), frozenset(id(f) for f in groups[b])),
                                     key=sorted))
                partitions.setdefault(split, []).append({
                    "layout": members[0].layout, "frame": frame, "key": key, "colours": (a, b),
                    "groups": (groups[a], groups[b])})
        for candidates in partitions.values():
            cued = told_apart(*candidates[0]["groups"])
            if cued and not every:  # colour is not the only cue: its colours are not weighed (nor coloraide imported)
                pairs.append(dict(candidates[0], cued=True, confusions=[], lightness=None))
                continue
            for c in candidates:
                c["confusions"] = confusions(*c["colours"])
                c["lightness"] = contrast(hex_rgb(c["colours"][0]), hex_rgb(c["colours"][1]))
            best = min(candidates, key=lambda c: (len(c["confusions"]), -min([de for _, de in c["confusions"]] or [99]),
                                                  -c["lightness"]))
            best["cued"] = cued
            pairs.append(best)
    return pairs


def report_categories(faces, report: Report) -> None:
    """One warning per frame's colour and kind of problem, naming each pair of colours."""
    found: dict[tuple, list[dict]] = {}
    for pair in colour_pairs(faces):
        if pair["cued"]:
            continue
        if pair["confusions"]:
            kind = "W-ACCESS-VISION"
        elif pair["lightness"] < LIGHTNESS_CONTRAST:
            kind = "W-ACCESS-COLOUR-ONLY"
        else:
            continue
        frame = frame_named(pair["layout"], pair["frame"])  # a repeat's rows: its one child frame
        name = frame.name if frame is not None else pair["frame"]
        found.setdefault((pair["layout"].name, name, pair["key"], kind), []).append((frame, pair))
    for (_name, frame_name, key, kind), framed in found.items():
        frame, pairs = framed[0][0], [pair for _, pair in framed]
        layout = pairs[0]["layout"]
        pos = frame.value_pos(key) if frame is not None else layout.doc.pos("")
        where = f"frame '{frame_name}' of layout '{layout.name}'"
        if kind == "W-ACCESS-VISION":
            listed = "; ".join(f"{_pair(p)} look alike in " + ", ".join(f"{name} (ΔE2000 {de:.1f})"
                                                                        for name, de in p["confusions"]) for p in pairs)
            report.warning("W-ACCESS-VISION", f"{where}: nothing but its {key} tells these faces apart, and {listed}",
                           pos, help="add a label or an icon that differs between them, or choose colours that "
                                     "differ in lightness too (the accessibility guide has palettes that do)")
        else:
            listed = "; ".join(f"{_pair(p)} (lightness contrast {p['lightness']:.2f}:1)" for p in pairs)
            report.warning("W-ACCESS-COLOUR-ONLY", f"{where}: these faces differ by colour alone: {listed}", pos,
                           help="add a label or an icon that differs between them, or make one colour at least 3:1 "
                                "lighter than the other (WCAG 1.4.1)")


def _pair(pair: dict) -> str:
    (a, b), (one, other) = pair["colours"], pair["groups"]
    return f"{a} on {faces_named([f.label for f in one], shown=1)} and {b} on {faces_named([f.label for f in other], shown=1)}"
