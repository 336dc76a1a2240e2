"""The `table` frame: a table built from data (C18).

    type: table
    rows: "tables.to_hit"
    columns:
      - {header: Profile, value: "{{ row.label }}"}
      - {header: "2 to 10", value: "{{ row.r2_10 }}", fill: "{{ 'band' if value | int > 15 }}"}
    header_groups: [{label: "", span: 1}, {label: "Range (cm)", span: 11}]   # spanning headers
    row_header: true        # the first column is a header: bold, on the header fill
    split: 2                # a long table wrapped into 2 side-by-side blocks
    split_gap: 4mm

Columns are sized to their content (the same in every block), cells wrap, rows are zebra-shaded; a
column's `fill` template (seeing `row` and the cell's `value`) shades single cells. Everything the
table prints is listed by `table_texts` in the order it is drawn: group labels and headers of every
block first, then each block's rows. The renderer, the evaluator and the verifier all use that order.
"""
from __future__ import annotations

import math

from ..layout import text as richtext
from ..layout.templates import Expression, Template, TemplateFailure
from ..units import length as _length, mm


class RenderError(Exception):
    """A frame that cannot be drawn; reported, and the frame is skipped."""

    def __init__(self, code: str, message: str, help: str | None = None, at=None, field: tuple | None = None):
        super().__init__(message)
        self.code, self.message, self.help = code, message, help
        self.at = at  # a Position in the layout, for a mistake of the layout's own (the same on every card)
        self.field = field  # where in the piece's data it comes from (render/face.py _field_of): None, the piece


def table_rows(props: dict, ctx: dict) -> list:
    try:
        rows = Expression(props["rows"]).evaluate(ctx)
    except TemplateFailure as exc:
        raise RenderError(exc.code, f"'rows': {exc.message}") from None
    if not isinstance(rows, (list, tuple)):
        raise RenderError("E-TEMPLATE", f"'rows' must give a list of rows, got {type(rows).__name__}")
    return list(rows)


def table_texts(props: dict, ctx: dict) -> tuple[list[str], list[list[str]], list, list]:
    """(header texts, body rows) in drawing order, plus the data rows and the cells per row."""
    rows = table_rows(props, ctx)
    columns = props["columns"]
    try:
        templates = [Template(col["value"]) for col in columns]
    except TemplateFailure as exc:
        raise RenderError("E-TEMPLATE", f"table column: {exc.message}") from None
    cells = []
    for row in rows:
        row_ctx = dict(ctx, row=row)
        try:
            cells.append([str(t.render(row_ctx)) for t in templates])
        except TemplateFailure as exc:
            raise RenderError(exc.code, f"table cell: {exc.message}") from None
    blocks = max(1, int(props.get("split", 1)))
    tr = ctx.get("tr") or str  # a translation's string table: headers are the layout's literals
    groups = [tr(str(g.get("label", ""))) for g in props.get("header_groups") or []]
    headers = [tr(str(col["header"])) for col in columns]
    header_texts = (groups + headers) * blocks
    return header_texts, cells, rows, _chunks(cells, blocks)


def _chunks(cells: list, blocks: int) -> list[list]:
    per = math.ceil(len(cells) / blocks) if cells else 0
    return [cells[i * per:(i + 1) * per] for i in range(blocks)]


def draw_table(r, frame, layout, ctx, x, y, w, h, record) -> None:
    """Draw a table frame with the renderer `r` (render/face.py); fills `record` for the manifest."""
    props = frame.props
    header_texts, cells, rows, chunks = table_texts(props, ctx)
    columns = props["columns"]
    tr = ctx.get("tr") or str
    headers = [tr(str(col["header"])) for col in columns]
    groups = [dict(g, label=tr(str(g.get("label", "")))) for g in props.get("header_groups") or []]
    spans = sum(int(g.get("span", 1)) for g in groups)
    if groups and spans != len(columns):  # a column removed under its group: a group would have no width
        raise RenderError("E-TABLE-GROUPS", f"header_groups span {spans} columns, but the table has {len(columns)}",
                          help="make the spans of header_groups add up to the number of columns")
    blocks = len(chunks)
    gap = _length(props.get("split_gap", "4mm")) if blocks > 1 else 0.0
    block_w = (w - gap * (blocks - 1)) / blocks
    pad = _length(props.get("padding", "1.5mm"))
    size, min_size = props["size_pt"], props["min_size_pt"]
    font = props.get("font", "sans")
    leading = props.get("leading", 1.2)
    row_header = bool(props.get("row_header"))
    plan, s = None, size
    while s >= min_size - 1e-9:
        plan = _plan(r, headers, cells, font, s, block_w, pad, leading, row_header, blocks > 1)
        if isinstance(plan, str):
            raise RenderError("E-TABLE-WIDTH", plan, help="give the table more width, or fewer/shorter columns")
        widths, header_h, row_hs = plan
        group_h = _group_height(r, groups, widths, font, s, pad, leading) if groups else 0.0
        tallest = max((sum(row_hs[i] for i in _indices(cells, chunks, b)) for b in range(blocks)), default=0.0)
        if group_h + header_h + tallest <= h + 0.01:
            break
        plan, s = None, s - 0.5
    if plan is None:
        raise RenderError("E-TABLE-HEIGHT", f"{len(cells)} rows do not fit in {mm(h):.1f} mm even at "
                          f"{min_size:g} pt", help="give the table more height, or split it into blocks (split: 2)")
    widths, header_h, row_hs = plan
    c = r.canvas
    header_fill = r.color(props.get("header_fill", "#dddddd"), layout)
    zebra = r.color(props.get("zebra", "#f0f0f0"), layout)
    stroke = r.color(props.get("stroke", "#777777"), layout)
    fills = [Template(col["fill"]) if col.get("fill") else None for col in columns]
    total_w = sum(widths)
    top = y + h
    # Backgrounds: header rows, zebra rows, the row-header column and single cells.
    c.saveState()
    for b in range(blocks):
        left = x + b * (block_w + gap)
        _rect(c, header_fill, left, top - group_h - header_h, total_w, group_h + header_h)
        row_top = top - group_h - header_h
        for n, i in enumerate(_indices(cells, chunks, b)):
            row_h = row_hs[i]
            if n % 2 == 1:
                _rect(c, zebra, left, row_top - row_h, total_w, row_h)
            if row_header:
                _rect(c, header_fill, left, row_top - row_h, widths[0], row_h)
            cx = left
            for col, fill in enumerate(fills):
                if fill is not None:
                    try:
                        value = fill.render(dict(ctx, row=rows[i], value=cells[i][col])).strip()
                    except TemplateFailure as exc:
                        raise RenderError(exc.code, f"table cell fill: {exc.message}") from None
                    if value:
                        _rect(c, r.color(value, layout), cx, row_top - row_h, widths[col], row_h)
                cx += widths[col]
            row_top -= row_h
    c.restoreState()
    # Text: every block's group labels and headers, then every block's rows.
    for b in range(blocks):
        left = x + b * (block_w + gap)
        if groups:
            gx, col = left, 0
            for group in groups:
                span = int(group.get("span", 1))
                gw = sum(widths[col:col + span])
                r._label(str(group.get("label", "")), props, layout, gx + pad, top - group_h + pad, gw - 2 * pad,
                         group_h - 2 * pad, s, s, align="center", valign="middle", style="bold")
                gx, col = gx + gw, col + span
        hx = left
        for col, (text, col_w) in enumerate(zip(headers, widths)):
            r._label(text, props, layout, hx + pad, top - group_h - header_h + pad, col_w - 2 * pad, header_h - 2 * pad,
                     s, s, align=columns[col].get("align", "left"), valign="middle", style="bold")
            hx += col_w
    for b in range(blocks):
        left = x + b * (block_w + gap)
        row_top = top - group_h - header_h
        for i in _indices(cells, chunks, b):
            row_h = row_hs[i]
            cx = left
            for col, (text, col_w) in enumerate(zip(cells[i], widths)):
                bold = row_header and col == 0
                r._label(text, props, layout, cx + pad, row_top - row_h + pad, col_w - 2 * pad, row_h - 2 * pad, s, s,
                         align=columns[col].get("align", "left"), valign="middle",
                         style="bold" if bold else props.get("style", "regular"))
                cx += col_w
            row_top -= row_h
    # Grid lines: each block's outline, a line under each row, between columns and under the groups.
    if stroke is not None:
        c.saveState()
        c.setLineWidth(0.4)
        c.setStrokeColor(stroke)
        for b in range(blocks):
            left = x + b * (block_w + gap)
            heights = [header_h] + [row_hs[i] for i in _indices(cells, chunks, b)]
            body = sum(heights)
            c.rect(left, top - group_h - body, total_w, group_h + body, stroke=1, fill=0)
            if groups:
                c.line(left, top - group_h, left + total_w, top - group_h)
                gx, col = left, 0
                for group in groups[:-1]:
                    span = int(group.get("span", 1))
                    gx, col = gx + sum(widths[col:col + span]), col + span
                    c.line(gx, top, gx, top - group_h)
            line_y = top - group_h
            for row_h in heights[:-1]:
                line_y -= row_h
                c.line(left, line_y, left + total_w, line_y)
            cx = left
            for col_w in widths[:-1]:
                cx += col_w
                c.line(cx, top - group_h, cx, top - group_h - body)
        c.restoreState()
    record.update(header=header_texts, rows=[row for chunk in chunks for row in chunk], size=s,
                  columns=[round(mm(v), 2) for v in widths], blocks=blocks)
    # Inline :icons: of the labels and cells, so that the verifier owns them (not stray drawings).
    printed = [(str(g.get("label", "")), "bold") for g in groups] * blocks + [(t, "bold") for t in headers] * blocks
    printed += [(text, "bold" if row_header and col == 0 else props.get("style", "regular"))
                for row in cells for col, text in enumerate(row)]
    icons: dict[str, int] = {}
    for text, style in printed:
        for name, n in r._rich(text, font, style).icons.items():
            icons[name] = icons.get(name, 0) + n
    if icons:
        record["icons"] = icons


def _indices(cells: list, chunks: list, block: int) -> range:
    per = len(chunks[0]) if chunks else 0
    start = block * per
    return range(start, min(start + per, len(cells)))


def _rect(c, color, x, y, w, h) -> None:
    if color is None:
        return
    c.setFillColor(color)
    c.rect(x, y, w, h, stroke=0, fill=1)


def _group_height(r, groups, widths, font, size, pad, leading) -> float:
    height, col = 0.0, 0
    for group in groups:
        span = int(group.get("span", 1))
        gw = sum(widths[col:col + span])
        rich = r._rich(str(group.get("label", "")), font, "bold")
        fitted = richtext.fit(rich, max(gw - 2 * pad, 1) + 0.01, 1e6, size, size, leading)
        height = max(height, fitted.height)
        col += span
    return height + 2 * pad


def _plan(r, headers, cells, font, size, width, pad, leading, row_header, split=False):
    """Column widths (natural widths, shrunk towards longest-word widths to fit), the header's
    height and each row's height; or a message when even the longest words do not fit."""
    n = len(headers)
    natural, minimum = [0.0] * n, [0.0] * n
    parsed = []
    for index, texts in enumerate([headers] + cells):
        row = []
        for col, text in enumerate(texts):
            style = "bold" if index == 0 or (row_header and col == 0) else "regular"
            rich = r._rich(text, font, style)
            line_widths = [sum(wd.width1 for wd in hard) + rich.space1 * max(0, len(hard) - 1)
                           for para in rich.paragraphs for hard in para]
            longest_word = max((wd.width1 for para in rich.paragraphs for hard in para for wd in hard), default=0)
            natural[col] = max(natural[col], max(line_widths, default=0) * size + 2 * pad)
            minimum[col] = max(minimum[col], longest_word * size + 2 * pad)
            row.append(rich)
        parsed.append(row)
    if sum(minimum) > width + 0.01:
        return (f"the table needs at least {mm(sum(minimum)):.1f} mm for its {n} columns at {size:g} pt "
                f"but the frame is {mm(width):.1f} mm wide" + (" (each block)" if split else ""))
    if sum(natural) <= width:
        widths = [nat * width / sum(natural) for nat in natural]
    else:
        spare = width - sum(minimum)
        stretch = sum(natural) - sum(minimum)
        widths = [mn + (nat - mn) * spare / stretch for nat, mn in zip(natural, minimum)]
    heights = []
    for row in parsed:
        row_h = 0.0
        for rich, col_w in zip(row, widths):
            fitted = richtext.fit(rich, col_w - 2 * pad + 0.01, 1e6, size, size, leading)
            row_h = max(row_h, fitted.height)
        heights.append(row_h + 2 * pad)
    return widths, heights[0], heights[1:]
