"""The ink-saver kit (`build --ink-saver`): the same game for a home inkjet, most of its ink left out.

A variant, built like a language: the same pipeline, with every face's layout turned into its
ink-saver form once, after the front end (so every check has already run on the layouts as
written), and files of their own (`<game>-kit-inksaver-a4.pdf`).  By default:

- a full-bleed background (an opaque shape over at least 95 % of the face) becomes paper with a
  coloured edge: a band of the background's colour inside the trim (EDGE_SHARE of the shorter
  side, at most EDGE_MAX) that runs on into the bleed, so a token's or a card's colour, which may
  tell its kind, still shows, and a miscut shows colour rather than white;
- a back that shows nothing of its card (no template reads the card: the deck's common back)
  becomes an outline and an emblem: its shapes keep their outline and lose their fill (the
  background becomes the coloured edge), rows of repeated icons (a pattern) are left out, and the
  title, text and single icons stay;
- text, icons and lines that stood on a fill now left out, and would be faint on white paper (a
  contrast under PAPER_CONTRAST to white, as WCAG measures it), take that fill's colour, or ink
  where the fill was light too.  A colour chosen per card by a template is tested per card.  A
  decoration that was barely apart from its fill (a watermark: contrast under WATERMARK_CONTRAST)
  becomes a pale tint, as faint on paper as it was on the fill.  A track that fills its own
  spaces keeps its colours: its numbers and the lines between its spaces stand on those fills.

A frame says otherwise with `ink_saver:` in its layout: `keep` (drawn as designed), `hide` (left
out), or a mapping of the properties it takes instead (`{fill: none, stroke: navy}`), which
replaces every automatic change to that frame.
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from ..layout.layouts import Frame, Layout
from ..layout.templates import Template
from ..units import MM

BACKGROUND_SHARE = 0.95  # an opaque shape over this much of the face is its background
PANEL_SHARE = 0.2  # a shape with a fill fixed by the layout over this much of the face is a panel: outlined,
PANEL_AREA = 3000 * MM * MM  # and so is one over 30 cm² (half a playing card: a board's card space)
EDGE_SHARE = 0.08  # the coloured edge's width inside the trim, as a share of the face's shorter side
EDGE_MAX = 2.0 * MM
EDGE_BLEED = 1.0 * MM  # how far the edge runs on into the bleed: a small miscut still shows colour
PAPER_CONTRAST = 3.0  # WCAG's contrast for large text and graphics: below it against white, a colour is redrawn
WATERMARK_CONTRAST = 1.6  # a colour this close to the fill under it is a decoration, not something to read
WATERMARK_TINT = 0.2  # such a decoration on paper: this much of its colour, the rest paper
INK = "#222222"  # where the fill a light colour stood on was light too
OUTLINE_WIDTH = "0.8pt"  # a panel (or a back's shape) that had a fill and no stroke: its outline
FOREGROUND_KEYS = {"text": ("color",), "field": ("color",), "table": ("color",), "icon": ("color",),
                   "icon_row": ("color", "accent_color"), "track": ("color", "stroke"), "shape": ("stroke",)}
PIECE_NAMES = re.compile(r"\b(card|variant|row|copy)\b")  # what a template reads of the piece it draws
OVERRIDES = ("fill", "stroke", "stroke_width", "color", "accent_color", "header_fill", "zebra", "opacity", "when")


def apply_ink_saver(prep) -> None:
    """Turn every face's layout (cards, tokens, boards, sheets) into its ink-saver form, in place.
    The game is marked, so that a face kept in the disk cache (render/facecache.py) is never
    taken for its full-colour self."""
    prep.ink_saver = True
    prep.game.ink_saver = True
    plain_backs = {layout.name for (_, side), layout in prep.faces.items()
                   if side == "back" and layout is not None and not _reads_the_piece(layout)}
    made: dict[tuple[int, bool], Layout] = {}

    def saved(layout: Layout | None, back: bool) -> Layout | None:
        if layout is None:
            return None
        key = (id(layout), back)
        if key not in made:
            made[key] = ink_saver_layout(layout, back)
        return made[key]

    for (piece, side), layout in list(prep.faces.items()):
        prep.faces[(piece, side)] = saved(layout, side == "back" and layout is not None and layout.name in plain_backs)
    for board, layout in list(prep.boards.items()):
        prep.boards[board] = saved(layout, False)


def _reads_the_piece(layout: Layout) -> bool:
    """Whether any frame's template reads the piece (card, variant, row, copy): a back that does
    shows something of its card, and is treated as a face."""
    def reads(frame: Frame) -> bool:
        sources = [t.source for t in frame.templates.values() if not t.is_constant]
        if any(PIECE_NAMES.search(source) for source in sources):
            return True
        return any(reads(child) for child in frame.props.get("children") or [])
    return any(reads(frame) for frame in layout.frames)


def ink_saver_layout(layout: Layout, back: bool = False) -> Layout:
    """The ink-saver form of a layout (`back`: a deck's common back: an outline and an emblem)."""
    colors = dict(layout.colors)
    frames: list[Frame] = []
    backdrops: list[tuple[Frame, Any, bool]] = []  # opaque fills in drawing order: (frame, fill, left out?)
    for frame in layout.frames:
        own = frame.props.get("ink_saver")
        if own == "hide":
            continue
        if own == "keep" or isinstance(own, dict):
            frame = _overridden(frame, own) if isinstance(own, dict) else frame
            frames.append(frame)
            if _opaque(frame):
                backdrops.append((frame, _source(frame, "fill"), False))
            continue
        if frame.type == "shape" and _opaque(frame):
            fill = _source(frame, "fill")
            if _covers(frame, layout):
                frames.append(_edge(frame, layout, fill))
                backdrops.append((frame, fill, True))
            elif not _templated(fill) and (back or _large(frame, layout)):  # a fill chosen per card tells something
                frames.append(_outline(frame, fill, colors))
                backdrops.append((frame, fill, True))
            else:
                frames.append(frame)
                backdrops.append((frame, fill, False))
            continue
        if back and frame.type in ("icon_row", "repeat"):
            continue  # a pattern on a back: the emblem and the title stay
        under = _backdrop(frame, backdrops)
        frames.append(_recoloured(frame, under[1] if under is not None and under[2] else None, colors))
    return dataclasses.replace(layout, frames=frames, colors=colors)


# -- frames ------------------------------------------------------------------------------------

def _source(frame: Frame, key: str) -> Any:
    """A frame's value as written: a template's source, or the literal."""
    template = frame.templates.get(key)
    return template.source if template is not None else frame.props.get(key)


def _with(frame: Frame, **values: Any) -> Frame:
    """A copy of `frame` with some properties changed (templates compiled for those that are)."""
    props, templates = dict(frame.props), dict(frame.templates)
    for key, value in values.items():
        templates.pop(key, None)
        if value is None:
            props.pop(key, None)
            continue
        props[key] = value
        if isinstance(value, str) and ("{{" in value or "{%" in value):
            templates[key] = Template(value)
    return dataclasses.replace(frame, props=props, templates=templates)


def _overridden(frame: Frame, own: dict) -> Frame:
    return _with(frame, **{key: own[key] for key in OVERRIDES if key in own})


def _opaque(frame: Frame) -> bool:
    fill = _source(frame, "fill")
    if fill is None or str(fill).strip().lower() in ("none", "transparent", ""):
        return False
    return frame.type == "shape" and frame.props.get("shape") != "line" and float(frame.props.get("opacity", 1)) >= 1


def _own_fill(frame: Frame) -> bool:
    """Whether a frame fills its own box (a track's spaces): what it draws on top stands on that."""
    fill = _source(frame, "fill")
    return fill is not None and str(fill).strip().lower() not in ("none", "transparent", "")


def _covers(frame: Frame, layout: Layout) -> bool:
    return frame.width * frame.height >= BACKGROUND_SHARE * layout.width * layout.height


def _large(frame: Frame, layout: Layout) -> bool:
    area = frame.width * frame.height
    return area >= PANEL_SHARE * layout.width * layout.height or area >= PANEL_AREA


def _edge(frame: Frame, layout: Layout, fill: Any) -> Frame:
    """The background as paper with a coloured edge: a rectangle stroked in its colour, placed so
    that the stroke covers the edge inside the trim and EDGE_BLEED of the bleed."""
    inside = min(EDGE_MAX, EDGE_SHARE * min(layout.width, layout.height))
    inset = (inside - EDGE_BLEED) / 2  # the stroke is centred on the rectangle's outline
    box = dict(x=inset, y=inset, width=layout.width - 2 * inset, height=layout.height - 2 * inset)
    return _with(dataclasses.replace(frame, **box), fill="none", stroke=fill, stroke_width=inside + EDGE_BLEED,
                 shape="rect", bleed=False, radius=None)


def _outline(frame: Frame, fill: Any, colors: dict) -> Frame:
    """A panel (or a back's shape) without its fill: its own stroke, else an outline in the fill's
    colour; a fill that was faint on paper anyway (a paper-coloured panel) leaves nothing."""
    stroke = _source(frame, "stroke")
    if stroke is not None and str(stroke).strip().lower() not in ("none", ""):
        return _with(frame, fill="none", stroke=_darkened(stroke, _darkened(fill, INK, colors), colors))
    if _light(fill, colors):
        return _with(frame, fill="none")
    return _with(frame, fill="none", stroke=_darkened(fill, INK, colors), stroke_width=OUTLINE_WIDTH)


def _backdrop(frame: Frame, backdrops: list[tuple[Frame, Any, bool]]) -> tuple[Frame, Any, bool] | None:
    """The last opaque fill drawn before `frame` under the middle of its box: what it stood on."""
    cx, cy = frame.x + frame.width / 2, frame.y + frame.height / 2
    for under in reversed(backdrops):
        box = under[0]
        if box.x <= cx <= box.x + box.width and box.y <= cy <= box.y + box.height and "when" not in box.props:
            return under
    return None


def _recoloured(frame: Frame, fill: Any, colors: dict) -> Frame:
    """A frame that stood on a fill now left out (`fill`; None: on what it stood on before): each
    of its colours that would be faint on paper takes the fill's colour (or ink, where that is
    light too).  A repeat frame's cells' frames follow their own `ink_saver`, else the same."""
    changes = {}
    if frame.type == "track" and _own_fill(frame):
        fill = None  # its labels and the outlines between its spaces stand on its spaces' own fill, which stays
    for key in FOREGROUND_KEYS.get(frame.type, ()) if fill is not None else ():
        value = _source(frame, key)
        if key == "color" and value is None and frame.type in ("text", "field", "icon", "icon_row", "table"):
            continue  # the default colour, black
        if value is not None:
            watermark = _watermark(value, fill, colors)
            changed = watermark or _darkened(value, _darkened(fill, INK, colors), colors)
            if changed != value:
                changes[key] = changed
    children = frame.props.get("children")
    if children:  # a repeat frame: its cells' frames stood on the same fill
        kept = []
        for child in children:
            own = child.props.get("ink_saver")
            if own != "hide":
                kept.append(child if own == "keep" else _overridden(child, own) if isinstance(own, dict)
                            else _recoloured(child, fill, colors))
        if any(a is not b for a, b in zip(kept, children)) or len(kept) != len(children):
            changes["children"] = kept
    return _with(frame, **changes) if changes else frame


# -- colours -----------------------------------------------------------------------------------

def _hex(value: str, colors: dict) -> str | None:
    from ..render.face import BASIC_COLORS
    text = str(value).strip()
    text = colors.get(text, BASIC_COLORS.get(text, text))
    return text.lower() if isinstance(text, str) and text.startswith("#") and len(text) in (7, 9) else None


def _luminance(hex_colour: str) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


LIGHTEST = 1.05 / PAPER_CONTRAST - 0.05  # relative luminance above which a colour is faint on white


def _contrast(first: str, second: str) -> float:
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _watermark(value: Any, fill: Any, colors: dict) -> str | None:
    """A colour that was barely apart from the fill it stood on (a tone-on-tone watermark, a faint
    pattern), as a tint of itself that is as faint on paper: else it would print as boldly as the
    text over it.  None: not a watermark (or not a colour known before drawing)."""
    colour, under = (_hex(v, colors) if isinstance(v, str) and not _templated(v) else None for v in (value, fill))
    if colour is None or under is None or _contrast(colour, under) >= WATERMARK_CONTRAST:
        return None
    mixed = (round(int(colour[i:i + 2], 16) * WATERMARK_TINT + 255 * (1 - WATERMARK_TINT)) for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _light(value: Any, colors: dict) -> bool | None:
    """Whether a literal colour is faint on paper (None: not a colour known now)."""
    colour = _hex(value, colors) if isinstance(value, str) else None
    return None if colour is None else _luminance(colour) > LIGHTEST


def _templated(value: Any) -> bool:
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def _darkened(value: Any, replacement: Any, colors: dict) -> Any:
    """`value` where it is dark enough on paper, else `replacement`; a template when either is
    chosen per piece (the test then runs per piece, on the colour it gives)."""
    if value is None:
        return replacement
    if not _templated(value) and not _templated(replacement):
        light = _light(value, colors)
        if light is None or not light:
            return value
        return INK if _light(replacement, colors) in (True, None) and replacement != INK else replacement
    if not _templated(value) and not _light(value, colors):
        return value
    return _choice_template(value, replacement, colors)


def _choice_template(value: Any, replacement: Any, colors: dict) -> str:
    """A template that gives `value`'s colour, or `replacement`'s where `value` is faint on paper,
    or ink where both are: the colour's name looked up in the layout's colours, its hex digits read
    and its luminance computed as WCAG does (gamma 2.2 approximates the sRGB curve within 0.01)."""
    from ..render.face import BASIC_COLORS
    names = {name: hex_value for name, hex_value in {**BASIC_COLORS, **colors}.items()
             if isinstance(hex_value, str) and not _templated(hex_value)}

    def light(var: str) -> str:
        h = f"(_names.get({var}, {var}) | lower)"
        return (f"({h}[:1] == '#' and ({h} | length) in (7, 9) and "
                + " + ".join(f"(({h}[{i}:{i + 2}] | int(0, 16)) / 255) ** 2.2 * {w}"
                             for i, w in ((1, 0.2126), (3, 0.7152), (5, 0.0722)))
                + f" > {LIGHTEST:.4f})")

    def block(var: str, source: Any) -> str:
        return f"{{%- set {var} -%}}{source}{{%- endset -%}}{{%- set {var} = {var} | trim -%}}"

    return (f"{{%- set _names = {json.dumps(names, sort_keys=True)} -%}}"
            + block("_c", value) + block("_r", replacement)
            + f"{{%- if {light('_c')} -%}}{{{{ '{INK}' if {light('_r')} or _r in ('', 'none') else _r }}}}"
            + "{%- else -%}{{ _c }}{%- endif -%}")
