"""Stage 5: draw one face of one card (its layout's frames over its data) onto a canvas.

The renderer works in page coordinates given by the imposer: it is told where
the card's trim box lies and draws every frame relative to it, clipped to the
bleed box.  It returns what it drew (text per frame, icons) for the manifest,
and reports content problems (overflowing text, missing glyphs, unknown icons,
missing images) instead of drawing them wrong.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, HexColor

from . import text as richtext
from .diagnostics import Report, display_path
from .fonts import FontBook
from .icons import IconLibrary, IconPainter
from .layout import Frame, Layout
from .model import Card, Game, safe_path
from .templates import TemplateFailure, truthy
from .units import length as _length, mm

BASIC_COLORS = {"black": "#000000", "white": "#ffffff", "red": "#b3261e", "blue": "#1f4e8c",
                "green": "#2e7d32", "yellow": "#f2c230", "grey": "#808080", "gray": "#808080",
                "none": "none"}
EDGE = 0.01  # points: a frame edge this close to the trim edge "touches" it


class RenderError(Exception):
    """A frame that cannot be drawn; reported, and the frame is skipped."""

    def __init__(self, code: str, message: str, help: str | None = None):
        super().__init__(message)
        self.code, self.message, self.help = code, message, help


class CardRenderer:
    def __init__(self, canvas, game: Game, fonts: FontBook, icons: IconLibrary, report: Report):
        self.canvas, self.game, self.fonts, self.icons, self.report = canvas, game, fonts, icons, report
        self.painter = IconPainter(canvas, icons)
        self._rich_cache: dict[tuple, Any] = {}
        self._fit_cache: dict[tuple, Any] = {}
        self._color_cache: dict[tuple, Any] = {}
        self._game_data = game.template_data()
        self._reported: set[tuple] = set()  # copies of a card share their problems: report once

    def context(self, card: Card, side: str, copy: int) -> dict[str, Any]:
        return {"card": card.data, "game": self._game_data, "side": side, "copy": copy,
                "deck": {"id": card.deck.id, "name": card.deck.name}}

    def draw(self, layout: Layout, card: Card, side: str, copy: int, x: float, y: float,
             bleed: float) -> list[dict[str, Any]]:
        """Draw `layout` for `card` with the trim box's lower-left at (x, y). Returns frame records."""
        c = self.canvas
        ctx = self.context(card, side, copy)
        records = []
        c.saveState()
        clip = c.beginPath()
        clip.rect(x - bleed, y - bleed, layout.width + 2 * bleed, layout.height + 2 * bleed)
        c.clipPath(clip, stroke=0, fill=0)
        for frame in layout.frames:
            try:
                record = self._frame(frame, layout, card, ctx, x, y, bleed)
            except RenderError as exc:
                if (card.id, side, frame.name) in self._reported:
                    continue
                self._reported.add((card.id, side, frame.name))
                self.report.error(exc.code, f"card '{card.id}' ({side}), frame '{frame.name}' of layout "
                                  f"'{layout.name}': {exc.message}", card.pos(), help=exc.help, card=card.id)
                continue
            if record is not None:
                records.append(record)
        c.restoreState()
        return records

    # -- frames ---------------------------------------------------------------------------

    def _value(self, frame: Frame, key: str, ctx: dict) -> Any:
        template = frame.templates.get(key)
        if template is None:
            return frame.props.get(key)
        try:
            return template.render(ctx)
        except TemplateFailure as exc:
            raise RenderError("E-TEMPLATE", f"'{key}': {exc.message}",
                              help=f"the template is at {display_path(frame.layout_file, None)}:{frame.position.line}") from None

    def _frame(self, frame: Frame, layout: Layout, card: Card, ctx: dict, x: float, y: float,
               bleed: float) -> dict | None:
        if "when" in frame.props and not truthy(str(self._value(frame, "when", ctx))):
            return None
        fx, fy, fw, fh = self._box(frame, layout, x, y, bleed)
        record = {"name": frame.name, "type": frame.type,
                  "box": [round(mm(v), 2) for v in (fx, fy, fw, fh)]}
        draw = getattr(self, f"_draw_{frame.type}")
        draw(frame, layout, card, ctx, fx, fy, fw, fh, record)
        return record

    def _box(self, frame: Frame, layout: Layout, x: float, y: float, bleed: float):
        """The frame's box in page coordinates, grown into the bleed where it touches the edge."""
        left, top = x + frame.x, y + layout.height - frame.y
        right, bottom = left + frame.width, top - frame.height
        if frame.props.get("bleed"):
            if frame.x <= EDGE:
                left -= bleed
            if frame.y <= EDGE:
                top += bleed
            if frame.x + frame.width >= layout.width - EDGE:
                right += bleed
            if frame.y + frame.height >= layout.height - EDGE:
                bottom -= bleed
        return left, bottom, right - left, top - bottom

    def color(self, value: Any, layout: Layout) -> Color | None:
        key = (value, id(layout))
        if key not in self._color_cache:
            text = str(value).strip()
            text = layout.colors.get(text, BASIC_COLORS.get(text, text))
            if text == "none" or text == "":
                result = None
            elif text.startswith("#") and len(text) in (7, 9):
                try:
                    result = HexColor(text, hasAlpha=len(text) == 9)
                except ValueError:
                    raise RenderError("E-COLOR", f"'{value}' is not a colour") from None
            else:
                raise RenderError("E-COLOR", f"unknown colour '{value}'",
                                  help="use '#rrggbb' or a name from the layout's 'colors'")
            self._color_cache[key] = result
        return self._color_cache[key]

    def _color_hex(self, value: Any, layout: Layout) -> str:
        col = self.color(value, layout)
        return "#000000" if col is None else "#" + col.hexval()[2:]

    def _draw_shape(self, frame, layout, card, ctx, x, y, w, h, record):
        c = self.canvas
        fill = self.color(self._value(frame, "fill", ctx) or "none", layout)
        stroke = self.color(self._value(frame, "stroke", ctx) or "none", layout)
        if fill is None and stroke is None:
            return
        c.saveState()
        if "opacity" in frame.props:
            c.setFillAlpha(frame.props["opacity"])
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(_length(frame.props.get("stroke_width", "0.5pt")))
            if frame.props.get("dash"):
                c.setDash(frame.props["dash"])
        shape = frame.props["shape"]
        f, s = int(fill is not None), int(stroke is not None)
        if shape == "rect":
            c.rect(x, y, w, h, stroke=s, fill=f)
        elif shape == "rounded":
            c.roundRect(x, y, w, h, _length(frame.props.get("radius", "3mm")), stroke=s, fill=f)
        elif shape == "ellipse":
            c.ellipse(x, y, x + w, y + h, stroke=s, fill=f)
        elif shape == "line":
            c.line(x, y + h, x + w, y)
        c.restoreState()

    def _draw_text(self, frame, layout, card, ctx, x, y, w, h, record):
        props = frame.props
        markup = str(self._value(frame, "text", ctx))
        family = self.fonts.family(props["font"])
        if family is None:
            raise RenderError("E-FONT", f"unknown font '{props['font']}'",
                              help=f"known fonts: {', '.join(sorted(self.fonts.families))}")
        rich_key = (markup, props["font"], props["style"], bool(props.get("uppercase")))
        rich = self._rich_cache.get(rich_key)
        if rich is None:
            rich = richtext.parse(markup, family, props["style"], self.icons.__contains__,
                                  uppercase=bool(props.get("uppercase")), missing_chars=self.fonts.missing_chars)
            self._rich_cache[rich_key] = rich
        if rich.missing:
            if (card.id, frame.name, "glyph") in self._reported:
                return
            self._reported.add((card.id, frame.name, "glyph"))
            for font, chars in rich.missing.items():
                shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in chars)
                self.report.error("E-GLYPH", f"card '{card.id}', frame '{frame.name}': font '{font}' has no "
                                  f"glyph for {shown}", card.pos(), card=card.id,
                                  help="replace the character, or choose a font that has it (e.g. 'symbols')")
            return
        fit_key = (rich_key, round(w, 3), round(h, 3), props["size_pt"], props["min_size_pt"], props["leading"])
        fitted = self._fit_cache.get(fit_key)
        if fitted is None:
            fitted = richtext.fit(rich, w, h, props["size_pt"], props["min_size_pt"], props["leading"])
            self._fit_cache[fit_key] = fitted
        if isinstance(fitted, richtext.Overflow):
            raise RenderError("E-TEXT-OVERFLOW", fitted.message,
                              help="shorten the text, or give the frame more room or a smaller min_size")
        color = self.color(self._value(frame, "color", ctx), layout)
        lines = richtext.draw(self.canvas, fitted, rich, x, y + h, w, h, props["align"], props["valign"],
                              color, self.painter, self._color_hex(self._value(frame, "color", ctx), layout))
        record.update(text=rich.plain, lines=lines, size=fitted.size)
        if rich.icons:
            record["icons"] = dict(rich.icons)

    def _icon_name(self, frame, ctx, key: str) -> str:
        name = str(self._value(frame, key, ctx)).strip()
        if name not in self.icons:
            guess = self.icons.suggest(name)
            raise RenderError("E-UNKNOWN-ICON", f"unknown icon '{name}'",
                              help=f"did you mean '{guess}'?" if guess else
                              "put an SVG file of that name in the game's icons/ folder")
        return name

    def _draw_icon(self, frame, layout, card, ctx, x, y, w, h, record):
        name = self._icon_name(frame, ctx, "icon")
        self.painter.draw(name, x, y, w, h, self._color_hex(self._value(frame, "color", ctx), layout))
        record["icons"] = {name: 1}

    def _draw_icon_row(self, frame, layout, card, ctx, x, y, w, h, record):
        name = self._icon_name(frame, ctx, "icon")
        count = _count(self._value(frame, "count", ctx), "count")
        total = _count(self._value(frame, "total", ctx), "total") if "total" in frame.props else count
        empty = self._icon_name(frame, ctx, "empty_icon") if total > count and "empty_icon" in frame.props else None
        places = max(total, count)
        if places == 0:
            record["icons"] = {}
            return
        gap = _length(frame.props["gap"])
        size = min(h, (w - gap * (places - 1)) / places)
        if size <= 0:
            raise RenderError("E-ICON-ROW", f"{places} icons do not fit in {mm(w):.1f} mm")
        used = places * size + (places - 1) * gap
        align = frame.props["align"]
        cursor = x + (w - used if align == "right" else (w - used) / 2 if align == "center" else 0)
        hex_color = self._color_hex(self._value(frame, "color", ctx), layout)
        for i in range(places):
            icon = name if i < count else empty
            if icon is not None:
                self.painter.draw(icon, cursor, y + (h - size) / 2, size, size, hex_color)
            cursor += size + gap
        icons = {name: count}
        if empty and places > count:
            icons[empty] = icons.get(empty, 0) + places - count
        record["icons"] = icons

    def _draw_image(self, frame, layout, card, ctx, x, y, w, h, record):
        src = str(self._value(frame, "src", ctx)).strip()
        path = safe_path(self.game.root, src)
        if path is None:
            raise RenderError("E-PATH", f"image '{src}' is outside the game folder",
                              help="images must lie inside the game folder")
        if not path.is_file():
            raise RenderError("E-MISSING-IMAGE", f"image '{src}' does not exist",
                              help=f"add the file at {Path(self.game.root.name) / src}, or fix the name")
        fit = frame.props["fit"]
        c = self.canvas
        try:
            if fit == "stretch":
                c.drawImage(str(path), x, y, w, h, mask="auto")
            elif fit == "contain":
                c.drawImage(str(path), x, y, w, h, preserveAspectRatio=True, anchor="c", mask="auto")
            else:
                from reportlab.lib.utils import ImageReader
                iw, ih = ImageReader(str(path)).getSize()
                scale = max(w / iw, h / ih)
                c.saveState()
                p = c.beginPath()
                p.rect(x, y, w, h)
                c.clipPath(p, stroke=0, fill=0)
                c.drawImage(str(path), x + (w - iw * scale) / 2, y + (h - ih * scale) / 2,
                            iw * scale, ih * scale, mask="auto")
                c.restoreState()
        except Exception as exc:  # a corrupt image is content's fault, not ours
            raise RenderError("E-IMAGE", f"cannot read image '{src}': {exc}") from None
        record["image"] = src


def _count(value: Any, key: str) -> int:
    try:
        n = int(str(value).strip() or 0)
    except ValueError:
        raise RenderError("E-TEMPLATE", f"'{key}' must be a whole number, got '{value}'") from None
    if not 0 <= n <= 100:
        raise RenderError("E-TEMPLATE", f"'{key}' must be between 0 and 100, got {n}")
    return n
