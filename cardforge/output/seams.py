"""Where a tiled board's seams go, and the check that no seam cuts its words.

A board larger than the paper is printed as tiles that overlap by a strip (impose.py).  Each strip
has two cut lines, one per edge (the player trims one tile at its edge and lays it over the other),
and both must fall where the board prints no word and, if possible, no play area:

- text, tables, icons and the middle of each space of a track (its number) are kept out (`hard`): a cut through them is
  reported (`crossings`), at the frame's line in the layout;
- slots and other shapes smaller than most of the board (a card space, a target square, a panel)
  are avoided where the paper allows (`soft`); pictures and backgrounds may be cut.

The boxes come from drawing the board once (pages.py), so frames placed by templates and repeats
count as drawn.  All lengths are in points; boxes are (x, y, w, h) from the lower-left corner of the
board's bleed box, the same frame as a tile's window.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..units import MM

WORDS = ("text", "table", "icon", "icon_row", "track")  # frame types whose drawing is read
ART = ("image",)
BIG = 0.5  # a shape at least this share of the board in both directions is a background
EDGE = 0.25 * MM  # a cut this close to a box's edge runs beside it, not through it
STEP = 1 * MM  # the seam positions tried
MIN_TILE = 0.5  # a tile spans at least this share of the page's room (or of an even split)
OVERLAP_MAX = 20 * MM


@dataclass(frozen=True)
class KeepOut:
    hard: tuple[tuple[float, float, float, float], ...] = ()
    soft: tuple[tuple[float, float, float, float], ...] = ()


def keep_out(frames: list[dict], origin: tuple[float, float], total_w: float, total_h: float,
             layout=None) -> KeepOut:
    """The boxes seams avoid, from a face's frame records (mm, on a page where the bleed box's
    lower-left corner is at `origin`, points; the bleed box `total_w` x `total_h` points)."""
    hard, soft = [], []
    for box, kind in boxes_of(frames, total_w / MM, total_h / MM, layout):
        x, y, w, h = (v * MM for v in box)
        box = (x - origin[0], y - origin[1], w, h)
        if kind == "hard":
            hard.append(box)
        elif kind == "soft":
            soft.append(box)
    return KeepOut(tuple(hard), tuple(soft))


def boxes_of(frames: list[dict], board_w: float, board_h: float, layout=None):
    """(box in mm, "hard" | "soft" | "art") of every frame record that has a box: a track by its
    spaces; a shape covering most of the board (`board_w` x `board_h` mm) is a background, and
    where the `layout` says so, a shape that is neither a slot (`holds`, a dashed outline) nor a
    square drawn by a repeat is a band or panel behind words: art."""
    defined = {frame.name: frame for frame in layout.frames} if layout is not None else {}
    for frame in frames:
        if "box" not in frame:
            continue
        if frame["type"] in WORDS and frame.get("cells"):
            for box in frame["cells"]:  # a space: its number in the middle, room to cut on either side
                yield box, "soft"
                yield _middle(box), "hard"
        elif frame["type"] in WORDS:
            yield frame["box"], "hard"
        elif frame["type"] in ART or (frame["box"][2] >= BIG * board_w and frame["box"][3] >= BIG * board_h):
            yield frame["box"], "art"
        elif frame.get("name") in defined and not {"holds", "dash"} & set(defined[frame["name"]].props):
            yield frame["box"], "art"
        else:
            yield frame["box"], "soft"


LABEL = 0.5  # the share of a track space, in the middle, its label takes


def _middle(box):
    x, y, w, h = box
    return [x + w * (1 - LABEL) / 2, y + h * (1 - LABEL) / 2, w * LABEL, h * LABEL]


SLACK = 1.03  # measured lines are widened by this much (kerning, a symbol from a fallback font)


def narrowed(frames: list[dict], layout, fonts, canvas) -> list[dict]:
    """The frame records with each plain text frame's box narrowed, across, to its lines as set
    (their width in the frame's font and size, placed by its alignment): a title's frame is as
    wide as the board, its words are not, and a seam may pass beside them."""
    defined = {frame.name: frame for frame in layout.frames}
    out = []
    for record in frames:
        frame = defined.get(record.get("name"))
        if record.get("type") != "text" or frame is None or not record.get("lines") or "box" not in record:
            out.append(record)
            continue
        props = frame.props
        family = props.get("font", "sans")
        # The frame's style, or bold where its text marks words bold (the wider of the two).
        styles = {props.get("style", "regular")} | ({"bold"} if "**" in str(record.get("text", "")) else set())
        size = float(record.get("size") or 9)
        try:
            width = max(fonts.string_width(canvas, f"{family}-{style}", size, line)
                        for line in record["lines"] for style in styles) * SLACK / MM
        except Exception:  # a font the canvas does not know: keep the whole box
            out.append(record)
            continue
        x, y, w, h = record["box"]
        width = min(w, width)
        align = props.get("align", "left")
        left = x + (w - width) / 2 if align in ("center", "centre") else x + w - width if align == "right" else x
        out.append({**record, "box": [left, y, width, h]})
    return out


def _line_costs(boxes, lo: int, total: float) -> list[int]:
    """For every position i * STEP from 0 to `total` (and an overlap beyond): how many boxes the line
    there (across axis `lo`: 0 for x, 1 for y) runs through."""
    count = int(total / STEP) + 2 + int(OVERLAP_MAX / STEP)
    out = [0] * count
    for box in boxes:
        start, end = box[lo] + EDGE, box[lo] + box[lo + 2] - EDGE
        for i in range(max(0, int(start / STEP) + 1), min(count, int(end / STEP) + 1)):
            if start < i * STEP < end:
                out[i] += 1
    return out


def spans(total: float, avail: float, overlap: float, count: int, keep: KeepOut, axis: int,
          flip: float | None = None) -> tuple[list[tuple[float, float]], tuple[int, int]] | None:
    """`count` tiles along one axis (start and end of each, from 0 to `total`), consecutive tiles
    sharing exactly `overlap`, each no longer than `avail`, with their cut lines through the fewest
    words, then the fewest play areas, then as even as can be.  `flip`: positions are measured from
    the other end (rows from the board's top; boxes are from its bottom).  None if `count` tiles
    cannot cover `total`.  Returns the spans and (words cut, play areas cut)."""
    if count == 1:
        return ([(0.0, total)], (0, 0)) if total <= avail + 1e-6 else None
    if total > count * avail - (count - 1) * overlap + 1e-6:
        return None

    def boxes(kind):
        if flip is None:
            return kind
        return tuple((0, flip - (b[1] + b[3]), 0, b[3]) for b in kind)  # only the y axis is read

    hard, soft = _line_costs(boxes(keep.hard), axis, total), _line_costs(boxes(keep.soft), axis, total)
    shortest = MIN_TILE * min(avail, total / count)  # no sliver of a tile
    even = (total + (count - 1) * overlap) / count - overlap  # where the first strip starts when even
    cost = {}
    for i in range(int(total / STEP) + 1):
        p, j = i * STEP, i + int(round(overlap / STEP))
        if p + overlap <= total:
            cost[p] = (hard[i] + hard[j], soft[i] + soft[j])
    # Dynamic programme over the strips: best[p] = (words, areas, unevenness, strips) ending at p.
    best: dict[float, tuple] = {}
    for p, (words, areas) in cost.items():
        if p + overlap <= avail + 1e-6 and p + overlap >= shortest:
            best[p] = (words, areas, abs(p - even), [p])
    for k in range(1, count - 1):
        ideal = (k + 1) * even
        nxt: dict[float, tuple] = {}
        for p, (words, areas) in cost.items():
            options = [(w + words, a + areas, u + abs(p - ideal), strips + [p]) for q, (w, a, u, strips) in best.items()
                       if p - q + overlap >= shortest and p - q + overlap <= avail + 1e-6]
            if options:
                nxt[p] = min(options, key=lambda o: o[:3])
        best = nxt
    finals = [v for p, v in best.items() if shortest <= total - p <= avail + 1e-6]
    if not finals:
        return None
    words, areas, _, strips = min(finals, key=lambda o: o[:3])
    starts = [0.0] + list(strips)
    ends = [p + overlap for p in strips] + [total]
    return list(zip(starts, ends)), (words, areas)


def crossings(frames: list[dict], lines: list[tuple[str, float]]) -> list[dict]:
    """The frames whose words a cut line runs through: `lines` are ("x" | "y", position in mm on
    the page); frame records are in mm on the same page."""
    out = []
    for frame in frames:
        if "box" not in frame or frame["type"] not in WORDS:
            continue
        for box in [_middle(cell) for cell in frame.get("cells") or []] or [frame["box"]]:
            x, y, w, h = box
            if any((x + EDGE / MM < at < x + w - EDGE / MM) if axis == "x" else (y + EDGE / MM < at < y + h - EDGE / MM)
                   for axis, at in lines):
                out.append(frame)
                break
    return out
