"""Stage 4: layouts as data. Find a layout by name, follow `extends`, merge, compile.

A layout is a YAML file of named frames (text, image, icon, icon_row, shape) with
positions in any unit, measured from the top-left corner of the card's trim box.
`extends: other` starts from another layout: frames with the same name are
merged key by key, new frames are drawn after the inherited ones, and `name: null`
removes an inherited frame.  `languages: {de: {frames: {...}}}` merges a language's frames the
same way over the layout's own, when the kit is built in that language.  Layouts are looked up, in order, in the game
folder's layouts/, in <layouts root>/<game id>/ and <layouts root>/common/, and in
the common layouts shipped inside cardforge (cardforge/layout/common/).
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from ..frontend.load import Document, load_yaml, pointer_join
from ..frontend.model import safe_path, size_points
from ..limits import MAX_TYPE_PT
from ..frontend.schema import builtin_schema, validate
from .templates import Template, TemplateFailure
from ..units import length

MIN_TYPE = 6.0  # points: the smallest type a layout may set, unless the game says otherwise

TEMPLATED = ("text", "when", "icon", "empty_icon", "count", "total", "accent", "accent_color", "src", "fill", "stroke",
             "color")
REQUIRED = {"text": ("text",), "field": ("text",), "icon": ("icon",), "icon_row": ("icon", "count"), "image": ("src",), "shape": (),
            "track": (), "table": ("rows", "columns"), "repeat": ("rows", "cell", "frames")}
DEFAULTS = {
    "text": {"font": "sans", "style": "regular", "size": "9pt", "leading": 1.2,
             "align": "left", "valign": "top", "color": "black"},
    "field": {"font": "sans", "style": "bold", "size": "9pt", "leading": 1.2,
              "align": "left", "valign": "bottom", "color": "black"},
    "shape": {"shape": "rect"},
    "icon": {"color": "black"},
    "icon_row": {"color": "black", "gap": "0.8mm", "align": "left"},
    "image": {"fit": "contain"},
    "track": {"path": "line", "direction": "right", "size": "9pt", "font": "sans", "style": "bold"},
    "table": {"font": "sans", "style": "regular", "size": "9pt", "leading": 1.2, "color": "black"},
}
EDGE_TOLERANCE = 0.05  # points


@dataclass
class Frame:
    name: str
    type: str
    x: float
    y: float  # from the top edge of the trim box, downwards
    width: float
    height: float
    props: dict[str, Any]
    templates: dict[str, Template]
    position: Position  # where the frame is (last) defined
    layout_file: Path
    holds_at: Position | None = None  # where its `holds` is written (region capacity, rules/builtin.py)
    written: dict[str, tuple[Document, str]] = field(default_factory=dict)  # each key's document and pointer

    def value_pos(self, key: str) -> Position:
        """Where the frame's `key` is written (in whichever layout of an `extends` chain), for a
        diagnostic about its value; the frame's own position when unknown."""
        written = self.written.get(key)
        return written[0].pos(written[1]) if written else self.position


@dataclass
class Layout:
    name: str
    width: float
    height: float
    colors: dict[str, str]
    frames: list[Frame]
    doc: Document
    files: list[Path] = field(default_factory=list)


def names_copy(frame: Frame) -> bool:
    """Whether a frame's templates or properties (text, or anything with a template's `source`) name
    `copy`: where no frame does, every copy of a piece lays out alike (`check` lays out one)."""
    def names(value: Any) -> bool:
        if isinstance(value, str):
            return "copy" in value
        if isinstance(value, dict):
            return any(names(v) for v in value.values())
        if isinstance(value, (list, tuple)):
            return any(names(v) for v in value)
        return "copy" in str(getattr(value, "source", ""))
    return names(frame.props) or any("copy" in t.source for t in frame.templates.values())


class LayoutSet:
    """Resolves layout names for one game, loading each file once."""

    def __init__(self, roots: list[Path], report: Report, min_type: float = MIN_TYPE, lang: str | None = None):
        self.lang = lang  # the kit's language: its `languages:` overrides apply (None: the source)
        self.searched = list(roots)
        self.roots = [r for r in roots if r.is_dir()]
        self.report = report
        self.min_type = min_type  # points: no text may be set smaller (the game's `min_type`)
        self.loaded: dict[str, Document | None] = {}
        self.resolved: dict[tuple[str, float, float], Layout | None] = {}
        self._covered: set[tuple] = set()  # (covering frame's position, text frame): warned once

    def available(self) -> list[str]:
        names = set()
        for root in self.roots:
            names.update(p.relative_to(root).with_suffix("").as_posix() for p in root.rglob("*.yaml"))
        return sorted(names)

    def _searched(self) -> str:
        """Where layouts were looked for, and how to add some: for 'unknown layout'."""
        from ..diagnostics import display_path
        places = ", ".join(display_path(r, None) + ("" if r.is_dir() else " (no such folder)") for r in self.searched)
        first = display_path(self.searched[0], None) if self.searched else "layouts"
        return (f"looked in {places}; put '<name>.yaml' in {first}/ (the game's own layouts folder), "
                "or give the folder of a layouts library with --layouts DIR")

    def _find(self, name: str) -> Path | None:
        for root in self.roots:
            path = safe_path(root, f"{name}.yaml")
            if path is not None and path.is_file():
                return path
        return None

    def _doc(self, name: str) -> Document | None:
        if name not in self.loaded:
            path = self._find(name)
            doc = load_yaml(path, self.report) if path else None
            if doc is not None and not validate(doc, builtin_schema("layout"), self.report):
                doc = None
            self.loaded[name] = doc
        return self.loaded[name]

    def get(self, name: str, width: float, height: float, used_at: Position) -> Layout | None:
        """The compiled layout `name` for cards of the given size; None after reporting why."""
        key = (name, round(width, 3), round(height, 3))
        if key not in self.resolved:
            self.resolved[key] = self._resolve(name, width, height, used_at)
        return self.resolved[key]

    def _linked_out(self, name: str) -> Path | None:
        """The layout file of `name` that is a symbolic link out of its layouts folder (not read)."""
        for root in self.roots:
            path = root / f"{name}.yaml"
            if ".." not in Path(name).parts and not Path(name).is_absolute() and os.path.islink(path) \
                    and safe_path(root, f"{name}.yaml") is None:
                return path
        return None

    def _resolve(self, name: str, width: float, height: float, used_at: Position) -> Layout | None:
        linked = self._find(name) is None and self._linked_out(name)
        if linked:
            self.report.error("E-PATH", f"layout '{name}' ({linked.parent.name}/{linked.name}) links to a file outside "
                              "its layouts folder, so it is not read", used_at,
                              help="copy the layout into the folder instead of linking to it")
            return None
        if self._find(name) is None:
            guess = difflib.get_close_matches(name, self.available(), n=1, cutoff=0.5)
            self.report.error("E-UNKNOWN-LAYOUT", f"unknown layout '{name}'", used_at,
                              help=(f"did you mean '{guess[0]}'? " if guess else "") + self._searched())
            return None
        chain: list[tuple[str, Document]] = []
        current, at = name, used_at
        while current is not None:
            if any(current == n for n, _ in chain):
                cycle = " -> ".join([n for n, _ in chain] + [current])
                self.report.error("E-LAYOUT-CYCLE", f"layouts extend each other in a circle: {cycle}", at)
                return None
            if self._find(current) is None:
                guess = difflib.get_close_matches(current, self.available(), n=1, cutoff=0.5)
                self.report.error("E-UNKNOWN-LAYOUT", f"layout '{chain[-1][0]}' extends unknown layout '{current}'", at,
                                  help=(f"did you mean '{guess[0]}'? " if guess else "") + self._searched())
                return None
            doc = self._doc(current)
            if doc is None:
                return None
            chain.append((current, doc))
            at = doc.pos("/extends")
            current = doc.data.get("extends")
        return self._merge(name, list(reversed(chain)), width, height, used_at)

    def _merge(self, name: str, chain: list[tuple[str, Document]], width: float, height: float,
               used_at: Position) -> Layout | None:
        colors: dict[str, str] = {}
        frames: dict[str, dict[str, Any]] = {}
        origins: dict[str, Position] = {}
        files: dict[str, Path] = {}
        sources: dict[str, tuple[Document, str]] = {}  # the document and pointer that last defined a frame
        written: dict[str, dict[str, tuple[Document, str]]] = {}  # per frame, where each key was last written
        size = None
        for _, doc in chain:
            data = doc.data
            colors.update(data.get("colors", {}))
            if "size" in data:
                size = (data["size"], doc.pos("/size"))
            own = [("/frames", data.get("frames", {}))]
            if self.lang is not None and self.lang in (data.get("languages") or {}):
                prefix = pointer_join(pointer_join("/languages", self.lang), "frames")
                own.append((prefix, data["languages"][self.lang].get("frames") or {}))
            for prefix, frame_name, frame in ((p, n, f) for p, table in own for n, f in table.items()):
                if frame is None:
                    frames.pop(frame_name, None)
                    written.pop(frame_name, None)
                    continue
                pointer = pointer_join(prefix, frame_name)
                written.setdefault(frame_name, {}).update({k: (doc, pointer_join(pointer, k)) for k in frame})
                merged = dict(frames.get(frame_name, {}))
                merged.update(frame)
                frames[frame_name] = merged
                origins[frame_name] = doc.pos(pointer, key=True)
                files[frame_name] = doc.path
                sources[frame_name] = (doc, pointer)
        top_doc = chain[-1][1]
        ok = True
        if size is not None:
            lw, lh = size_points(size[0])
            if abs(lw - width) > 0.5 or abs(lh - height) > 0.5:
                self.report.error("E-LAYOUT-SIZE", f"layout '{name}' is for cards of {_mm(lw)} x {_mm(lh)} mm "
                                  f"but is used for cards of {_mm(width)} x {_mm(height)} mm", size[1],
                                  help="use a layout made for this card size, or change the deck's size")
                ok = False
        compiled = []
        for frame_name, props in frames.items():
            frame = self._compile(frame_name, props, origins[frame_name], files[frame_name], width, height,
                                  sources[frame_name])
            if frame is None:
                ok = False
            else:
                frame.written = written[frame_name]
                compiled.append(frame)
        if not ok:
            return None
        self._warn_covered(name, compiled)
        return Layout(name, width, height, colors, compiled, top_doc, [d.path for _, d in chain])

    def _warn_covered(self, name: str, frames: list[Frame]) -> None:
        """A shape with an opaque fill drawn after a text frame and overlapping it hides the text
        under it: a warning at the covering frame, once per layout file and frame."""
        for i, text in enumerate(frames):
            if text.type not in ("text", "field", "table"):
                continue
            for cover in frames[i + 1:]:
                if "when" in text.props and "when" in cover.props:
                    continue  # two conditional frames: most often one or the other, never both
                fill = str(cover.props.get("fill") or "none").strip().lower()
                if cover.type != "shape" or fill in ("none", "transparent") or cover.props.get("shape") == "line" \
                        or float(cover.props.get("opacity", 1)) < 1:
                    continue
                w = min(text.x + text.width, cover.x + cover.width) - max(text.x, cover.x)
                h = min(text.y + text.height, cover.y + cover.height) - max(text.y, cover.y)
                key = (cover.position, text.name)
                if w > EDGE_TOLERANCE and h > EDGE_TOLERANCE and key not in self._covered:
                    self._covered.add(key)
                    self.report.warning("W-FRAME-COVERS-TEXT", f"frame '{cover.name}' of layout '{name}' is drawn "
                                        f"over text frame '{text.name}' and hides {_mm(w)} x {_mm(h)} mm of it",
                                        cover.position, help=f"move '{cover.name}' above '{text.name}' in the layout "
                                        "(frames are drawn in order), or make them not overlap")

    def _compile(self, name: str, props: dict[str, Any], at: Position, path: Path,
                 card_w: float, card_h: float, source: tuple[Document, str] | None = None) -> Frame | None:
        kind = props.get("type")
        if kind is None:
            self.report.error("E-LAYOUT", f"frame '{name}' has no type", at,
                              help="add 'type:' with one of text, image, icon, icon_row, shape")
            return None
        missing = [k for k in REQUIRED[kind] if k not in props]
        if missing:
            self.report.error("E-LAYOUT", f"{kind} frame '{name}' needs '{missing[0]}'", at)
            return None
        full = dict(DEFAULTS.get(kind, {}))
        full.update(props)
        x, y = length(full.get("x", 0)), length(full.get("y", 0))
        w = length(full["width"]) if "width" in full else card_w - x
        h = length(full["height"]) if "height" in full else card_h - y
        is_line = kind == "shape" and full.get("shape") == "line"
        if w < 0 or h < 0 or (not is_line and (w == 0 or h == 0)) or (is_line and w == 0 and h == 0):
            self.report.error("E-LAYOUT", f"frame '{name}' has no area ({w:.1f} x {h:.1f} pt)", at)
            return None
        if x < -EDGE_TOLERANCE or y < -EDGE_TOLERANCE or x + w > card_w + EDGE_TOLERANCE \
                or y + h > card_h + EDGE_TOLERANCE:
            self.report.error("E-LAYOUT-BOUNDS", f"frame '{name}' ({_mm(x)}, {_mm(y)}, {_mm(w)} x {_mm(h)} mm) "
                              f"lies outside the {_mm(card_w)} x {_mm(card_h)} mm piece", at,
                              help="move or shrink the frame; use 'bleed: true' to reach into the bleed")
            return None
        if kind == "track" and "labels" not in full and "to" not in full:
            self.report.error("E-LAYOUT", f"track frame '{name}' needs 'labels' or 'to'", at)
            return None
        if kind in ("text", "table", "field"):
            full["size_pt"] = length(full["size"])
            full["min_size_pt"] = length(full.get("min_size", full["size"]))
            if full["min_size_pt"] > full["size_pt"]:
                self.report.error("E-LAYOUT", f"frame '{name}': min_size is larger than size", at)
                return None
            if full["size_pt"] > MAX_TYPE_PT:  # text fitting steps down from it a quarter point at a time
                self.report.error("E-LAYOUT", f"frame '{name}': size {full['size']} is larger than {MAX_TYPE_PT} pt", at,
                                  help="sizes are in points: 1 pt is 0.35 mm, 1000 pt is 35 cm")
                return None
        if kind == "image" and full.get("fit") not in ("contain", "cover", "stretch"):
            self.report.error("E-LAYOUT", f"image frame '{name}': fit is contain, cover or stretch", at)
            return None
        if kind == "text" and full.get("fit") not in (None, "card", "deck"):
            self.report.error("E-LAYOUT", f"text frame '{name}': fit is 'card' or 'deck', not '{full['fit']}'", at,
                              help="fit: deck sets the text of every card of the deck at one size")
            return None
        for key in ("size", "min_size"):
            if kind in ("text", "table", "track") and key in full and length(full[key]) < self.min_type - 1e-6:
                self.report.error("E-MIN-TYPE", f"frame '{name}': {key} {full[key]} is smaller than the game's "
                                  f"min_type {self.min_type:g}pt", at,
                                  help="printed text below 6 pt is hard to read: give the frame more room, shorten "
                                       "the text, or (rarely) lower min_type in game.yaml")
                return None
        templates = {}
        for key in TEMPLATED:
            if key in full and isinstance(full[key], str):
                try:
                    templates[key] = Template(full[key])
                except TemplateFailure as exc:
                    self.report.error("E-TEMPLATE", f"frame '{name}', '{key}': {exc.message}", at)
                    return None
        columns = (full.get("columns") or []) if kind == "table" else []
        for i, column in enumerate(columns):  # cell templates too: a syntax error is the layout's, once
            try:
                if isinstance(column, dict) and isinstance(column.get("value"), str):
                    Template(column["value"])
            except TemplateFailure as exc:
                where = source[0].pos(f"{source[1]}/columns/{i}/value") if source is not None else at
                self.report.error("E-TEMPLATE", f"table frame '{name}', column {i + 1}: {exc.message}", where)
                return None
        holds_at = None
        if source is not None and "holds" in props:
            holds_at = source[0].pos(source[1] + "/holds") if _defines(source, "holds") else at
        if kind == "repeat" and not self._children(name, full, at, path, source):
            return None
        return Frame(name, kind, x, y, w, h, full, templates, at, path, holds_at)

    def _children(self, name: str, full: dict, at: Position, path: Path, source) -> bool:
        """A repeat frame's child frames, compiled against its cell (see repeat.py)."""
        try:
            full["cell_w"], full["cell_h"] = length(full["cell"]["width"]), length(full["cell"]["height"])
        except (KeyError, TypeError, ValueError):
            self.report.error("E-LAYOUT", f"repeat frame '{name}' needs 'cell: {{width: ..., height: ...}}'", at)
            return False
        if "at" not in full and int(full.get("columns", 1)) < 1:
            self.report.error("E-LAYOUT", f"repeat frame '{name}': 'columns' must be at least 1", at)
            return False
        children, ok = [], True
        for child_name, child in (full["frames"] or {}).items():
            if not isinstance(child, dict):
                continue
            pointer = pointer_join(source[1] + "/frames", child_name) if source else None
            child_at = source[0].pos(pointer, key=True) if source else at
            if child.get("type") == "repeat":
                self.report.error("E-LAYOUT", f"repeat frame '{name}': child '{child_name}' is itself a repeat "
                                  "frame", child_at, help="repeat frames do not nest; use 'columns' for a grid")
                ok = False
                continue
            frame = self._compile(child_name, child, child_at, path, full["cell_w"], full["cell_h"],
                                  (source[0], pointer) if source else None)
            if frame is None:
                ok = False
            else:
                if source:
                    frame.written = {k: (source[0], pointer_join(pointer, k)) for k in child}
                children.append(frame)
        full["children"] = children
        return ok


def _defines(source: tuple[Document, str], key: str) -> bool:
    doc, pointer = source
    value: Any = doc.data
    for part in pointer.strip("/").split("/"):
        value = value.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(value, dict) else None
    return isinstance(value, dict) and key in value


def _mm(points: float) -> str:
    return f"{round(points / (72 / 25.4), 1):g}"


def overlapping_text(frames: list[Frame], records: list[dict]) -> list[tuple[Frame, Frame, float, float]]:
    """Pairs of text frames, each with a `when:`, that both print text on one face and overlap
    (drawn over each other's words), with the overlap's width and height in points.  Frames with
    conditions at one place are meant to take turns (a cost, or "FREE"); where both conditions hold,
    which is known only face by face, their texts collide.  An unconditional frame over another is
    the same on every card, for the designer to see in any proof."""
    by_name = {frame.name: frame for frame in frames}
    printed = [(record, by_name[record["name"]]) for record in records
               if record.get("type") in ("text", "field") and record.get("name") in by_name
               and str(record.get("text") or "").strip()]
    found = []
    for i, (first_record, first) in enumerate(printed):
        for second_record, second in printed[i + 1:]:
            if first is second or "when" not in first.props or "when" not in second.props:
                continue
            (ax, ay, aw, ah), (bx, by, bw, bh) = first_record["box"], second_record["box"]
            w = min(ax + aw, bx + bw) - max(ax, bx)
            h = min(ay + ah, by + bh) - max(ay, by)
            if w > EDGE_TOLERANCE and h > EDGE_TOLERANCE:
                found.append((first, second, w, h))
    return found
