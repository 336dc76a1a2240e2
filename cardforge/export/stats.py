"""`cardforge stats`: per deck, how many cards have each value of each field, and the
distribution of each numeric field (cost curves), as text and as a PDF of bar charts drawn with
reportlab's own charts (reportlab.graphics.charts).

Counts are copies in the deck (a card with quantity 3 counts 3), as a player meets them; the
number of distinct cards is given beside.  A list field counts each of its items; an object
field is opened one level (`sight.clock`).  A text field whose values are nearly all different
(titles, rules text) is summarised by its number of values and their lengths rather than charted.
"""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..output.lock import OutputLock
from ..output.replace import replacing
from ..prepare import Prepared

MAX_CATEGORIES = 16  # more distinct values than this (and mostly unique) is text, not a category


@dataclass
class FieldStats:
    name: str
    kind: str  # "numeric", "category", "text"
    counts: Counter = field(default_factory=Counter)  # value -> copies
    cards: Counter = field(default_factory=Counter)  # value -> distinct cards
    unset: int = 0  # copies without a value
    numbers: list[float] = field(default_factory=list)  # numeric values, one per copy
    lengths: list[int] = field(default_factory=list)  # text lengths
    order: list | None = None  # an enum's values, in the order the deck declares them

    def ordered(self) -> list[tuple[Any, int]]:
        """Values in their natural order: numbers ascending (every whole number between the
        smallest and the largest, so a cost curve has its gaps), other values by count."""
        if self.order is not None:
            extra = [(v, n) for v, n in self.counts.items() if v not in self.order]
            return [(v, self.counts.get(v, 0)) for v in self.order] + extra
        if self.kind == "numeric":
            numbers = [v for v in self.counts if _is_number(v)]
            others = sorted((v for v in self.counts if not _is_number(v)), key=str)
            if numbers and all(float(v).is_integer() for v in numbers) and max(numbers) - min(numbers) <= 40:
                span = range(int(min(numbers)), int(max(numbers)) + 1)
                return [(v, self.counts.get(v, 0)) for v in span] + [(v, self.counts[v]) for v in others]
            return [(v, self.counts[v]) for v in sorted(numbers)] + [(v, self.counts[v]) for v in others]
        return sorted(self.counts.items(), key=lambda item: (-item[1], str(item[0])))


@dataclass
class DeckStats:
    id: str
    name: str
    copies: int
    distinct: int
    fields: list[FieldStats]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _label(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _numeric_schema(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else (kinds or [])
    if "enum" in schema:
        return False  # enumerated values (clock positions 12, 3, 6, 9) are categories
    return bool(kinds) and any(k in ("integer", "number") for k in kinds)


def _columns(fields: dict[str, Any]) -> list[tuple[str, list[str], dict]]:
    """(name, path, schema) of every field to count: top-level fields, objects opened one level."""
    columns = []
    for name, schema in fields.items():
        schema = schema if isinstance(schema, dict) else {}
        if schema.get("type") == "object" and isinstance(schema.get("properties"), dict):
            for sub, sub_schema in schema["properties"].items():
                columns.append((f"{name}.{sub}", [name, sub], sub_schema if isinstance(sub_schema, dict) else {}))
        else:
            columns.append((name, [name], schema))
    return columns


def _value(data: dict, path: list[str]) -> Any:
    value: Any = data
    for part in path:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def deck_stats(deck) -> DeckStats:
    result = []
    for name, path, schema in _columns(deck.fields):
        items = schema.get("items") if schema.get("type") == "array" else None
        numeric = _numeric_schema(items if items is not None else schema)
        stats = FieldStats(name, "numeric" if numeric else "category")
        enum = (items if items is not None else schema).get("enum") if isinstance(items if items is not None else schema, dict) else None
        if isinstance(enum, list) and len(enum) <= MAX_CATEGORIES:
            stats.order = enum
        skip = False
        for card in deck.cards:
            value = _value(card.data, path)
            if value is None:
                stats.unset += card.quantity
                continue
            values = value if isinstance(value, list) else [value]
            if any(isinstance(v, (dict, list)) for v in values):
                skip = True  # a list of objects (actions, recipes): no single value to count
                break
            for v in dict.fromkeys(values):  # a value listed twice on one card counts once
                stats.counts[v] += card.quantity
                stats.cards[v] += 1
                if numeric and _is_number(v):
                    stats.numbers += [v] * card.quantity
                if isinstance(v, str):
                    stats.lengths.append(len(v))
        if skip or (not stats.counts and not stats.unset):
            continue
        if stats.kind == "category" and stats.order is None and _text_like(stats):
            stats.kind = "text"
        result.append(stats)
    return DeckStats(deck.id, deck.name, sum(c.quantity for c in deck.cards), len(deck.cards), result)


def _text_like(stats: FieldStats) -> bool:
    """Titles, rules text, ids: values nearly all different, or long, are text rather than categories."""
    distinct = len(stats.counts)
    if distinct > MAX_CATEGORIES:
        return True
    if stats.lengths and statistics.fmean(stats.lengths) > 40:
        return True
    return distinct > 6 and all(n == 1 for n in stats.cards.values())


def game_stats(prep: Prepared, decks: list[str] | None = None) -> list[DeckStats]:
    return [deck_stats(deck) for deck in prep.game.decks if (not decks or deck.id in decks) and deck.cards]


# -- text ------------------------------------------------------------------------------------------

def _summary(stats: FieldStats) -> str:
    numbers = stats.numbers
    if not numbers:
        return ""
    mean = statistics.fmean(numbers)
    return (f"min {_label(min(numbers))}, max {_label(max(numbers))}, mean {mean:.2f}, "
            f"median {_label(statistics.median(numbers))}")


def _unset(stats: FieldStats) -> str:
    return f"; {stats.unset} without a value" if stats.unset else ""


def _text_summary(stats: FieldStats) -> str:
    lengths = stats.lengths
    return (f"{stats.name}: text, {len(stats.counts)} different values"
            + (f", {min(lengths)}-{max(lengths)} characters" if lengths else "") + _unset(stats))


def format_text(game_name: str, decks: list[DeckStats]) -> str:
    out = [f"{game_name}: statistics (counts are copies; distinct cards in brackets where they differ)"]
    for deck in decks:
        out.append("")
        out.append(f"{deck.name} ({deck.id}): {deck.copies} cards, {deck.distinct} distinct")
        for stats in deck.fields:
            unset = _unset(stats)
            if stats.kind == "text":
                out.append(f"  {_text_summary(stats)}")
                continue
            if not any(stats.counts.values()):
                out.append(f"  {stats.name}: no card has a value{unset}")
                continue
            if stats.kind == "numeric":
                out.append(f"  {stats.name}: {_summary(stats)}{unset}")
                top = max((n for _, n in stats.ordered()), default=0) or 1
                for value, count in stats.ordered():
                    bar = "#" * max(1 if count else 0, round(24 * count / top))
                    out.append(f"    {_label(value):>6} | {bar:<24} {count}" + (f" ({stats.cards[value]})" if stats.cards[value] != count else ""))
                continue
            parts = [f"{_label(v)}: {n}" + (f" ({stats.cards[v]})" if stats.cards[v] != n else "")
                     for v, n in stats.ordered()]
            out.append(f"  {stats.name}: " + ", ".join(parts) + unset)
    return "\n".join(out)


# -- PDF -------------------------------------------------------------------------------------------

def _fitted(text: str, font: str, size: float, room: float) -> str:
    """`text` shortened with an ellipsis until it is no wider than `room` points."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    while text and stringWidth(text, font, size) > room:
        text = text[:-2].rstrip() + "…"
    return text


def write_pdf(prep: Prepared, decks: list[DeckStats], path: Path) -> None:
    """A4 pages: per deck a heading, then one bar chart per counted field; replaced atomically."""
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import Drawing, String
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import CondPageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle
    from xml.sax.saxutils import escape
    from ..layout.icons import embedded_drawing_font
    embedded_drawing_font()

    sans, bold = prep.fonts.family("sans").face("regular"), prep.fonts.family("sans").face("bold")
    title_style = ParagraphStyle("title", fontName=bold, fontSize=18, leading=22, spaceAfter=4 * mm)
    deck_style = ParagraphStyle("deck", fontName=bold, fontSize=13, leading=16, spaceBefore=4 * mm, spaceAfter=2 * mm)
    body = ParagraphStyle("body", fontName=sans, fontSize=9, leading=12)
    navy, width = colors.HexColor("#1f3a5f"), (A4[0] - 46 * mm) / 2  # two charts side by side

    def chart(stats: FieldStats) -> Drawing:
        pairs = stats.ordered()
        labels = [_label(v) if len(_label(v)) <= 16 else _label(v)[:15] + "…" for v, _ in pairs]
        height = 52 * mm
        drawing = Drawing(width, height)
        bars = VerticalBarChart()
        bars.x, bars.y, bars.width, bars.height = 9 * mm, 14 * mm, width - 11 * mm, height - 27 * mm
        bars.data = [[n for _, n in pairs]]
        bars.bars[0].fillColor = navy
        bars.bars[0].strokeColor = None
        bars.valueAxis.valueMin = 0
        top = max((n for _, n in pairs), default=1) or 1
        step = max(1, -(-top // 6))
        bars.valueAxis.valueMax = step * -(-top // step)
        bars.valueAxis.valueStep = step
        bars.valueAxis.labels.fontName = sans
        bars.valueAxis.labels.fontSize = 7
        bars.categoryAxis.categoryNames = labels
        bars.categoryAxis.labels.fontName = sans
        bars.categoryAxis.labels.fontSize = 7 if len(labels) <= 12 else 6
        if max((len(label) for label in labels), default=0) * len(labels) > 40:
            bars.categoryAxis.labels.angle = 30
            bars.categoryAxis.labels.boxAnchor = "ne"
        bars.barLabelFormat = "%d"
        bars.barLabels.fontName = sans
        bars.barLabels.fontSize = 7
        bars.barLabels.nudge = 6
        drawing.add(bars)
        # The field's name, then its summary on a line of its own: each cut to the chart's width, so
        # a long caption never runs into the chart beside it.
        summary = " · ".join(([_summary(stats)] if stats.kind == "numeric" else [])
                             + ([f"{stats.unset} without a value"] if stats.unset else []))
        drawing.add(String(0, height - 4 * mm, _fitted(stats.name, bold, 9, width), fontName=bold, fontSize=9,
                           fillColor=colors.black))
        if summary:
            drawing.add(String(0, height - 8 * mm, _fitted(summary, sans, 7, width), fontName=sans, fontSize=7,
                               fillColor=colors.black))
        return drawing

    story = [Paragraph(escape(f"{prep.game.name}: card statistics"), title_style),
             Paragraph("Counts are copies in the deck (a card with quantity 3 counts 3). Numeric fields show "
                       "every value between the smallest and the largest, so gaps in a curve show.", body)]
    for deck in decks:
        story += [CondPageBreak(80 * mm),
                  Paragraph(escape(f"{deck.name} ({deck.id}): {deck.copies} cards, {deck.distinct} distinct"), deck_style)]
        charts, lines = [], []
        for stats in deck.fields:
            if stats.kind == "text":
                lines.append(_text_summary(stats))
            elif not any(stats.counts.values()):  # no card has a value: an empty chart would say nothing
                lines.append(f"{stats.name}: no card has a value{_unset(stats)}")
            elif len(stats.counts) == 1 and stats.order is None:
                (value, count), = stats.counts.items()
                lines.append(f"{stats.name}: {_label(value)} on {count} cards{_unset(stats)}")
            else:
                charts.append(chart(stats))
        rows = [charts[i:i + 2] + [""] * (2 - len(charts[i:i + 2])) for i in range(0, len(charts), 2)]
        if rows:
            grid = Table(rows, colWidths=[width + 3 * mm] * 2)
            grid.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                      ("FONTNAME", (0, 0), (-1, -1), sans),  # an empty cell: not Helvetica
                                      ("BOTTOMPADDING", (0, 0), (-1, -1), 3 * mm)]))
            story.append(grid)
        story += [Paragraph(escape(line), body) for line in lines]
    path = Path(path)
    # Under the lock of the folder it goes into (build/<game>/, which a build may be swapping),
    # written beside its final name and renamed over it (output/replace.py).
    with OutputLock(path.parent, prep.game.id, "stats"), replacing(path) as tmp:
        document = SimpleDocTemplate(str(tmp), pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm,
                                     topMargin=18 * mm, bottomMargin=18 * mm,
                                     title=f"{prep.game.name}: card statistics", author="cardforge", invariant=1,
                                     creator=f"cardforge {__version__}", producer=f"cardforge {__version__}",
                                     initialFontName=sans)  # not reportlab's Helvetica: every font embedded
        document.build(story)
