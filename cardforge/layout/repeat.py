"""Repeat frames: child frames drawn once per row of data, on a grid or at positions the data gives.

A `repeat` frame has `rows` (an expression such as `board.targets`), a `cell` size, child `frames`
measured from the top-left of the cell, and places its cells either on a grid (`columns`, `gap`)
or where each row says (`at: {x: "{{ row.x }}", y: "{{ row.y }}"}`, lengths from the repeat
frame's top-left corner).  The renderer and the face evaluator both expand a repeat frame into
ordinary frames named `<repeat>[<index>].<child>`, each with its row in the context as `row`
(and `index`), so drawing, the manifest and the printed-output verifier see plain frames."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator

from .layouts import Frame
from .templates import Expression, Template, TemplateFailure
from ..units import length, mm

TOLERANCE = 0.05  # points


class RepeatError(Exception):
    """Rows that cannot be placed; the message says which row and why."""


def walk_frames(frames: list[Frame]) -> Iterator[Frame]:
    """Every frame, and the child frames of every repeat frame, in drawing order."""
    for frame in frames:
        yield frame
        if frame.type == "repeat":
            yield from walk_frames(frame.props["children"])


def rows_of(frame: Frame, ctx: dict) -> list:
    try:
        rows = Expression(frame.props["rows"]).evaluate(ctx)
    except TemplateFailure as exc:
        raise RepeatError(f"'rows': {exc.message}") from None
    if rows is None:
        return []
    if not isinstance(rows, (list, tuple)):
        raise RepeatError(f"'rows' must give a list of rows, got {type(rows).__name__}")
    if len(rows) > 500:
        raise RepeatError(f"'rows' gives {len(rows)} rows; a repeat frame draws at most 500")
    return list(rows)


def placed(frames: list[Frame], ctx: dict, when, errors: tuple, failed) -> Iterator[tuple[Frame, dict]]:
    """The frames with their contexts, for drawing and for measuring alike: a repeat frame gives its
    children once per row, when its `when(frame, ctx)` holds.  A repeat frame whose rows fail with
    one of `errors` is left out and handed to `failed(frame, exc)`, which reports it."""
    for frame in frames:
        if frame.type != "repeat":
            yield frame, ctx
            continue
        try:
            if "when" in frame.props and not when(frame, ctx):
                continue
            yield from expand(frame, ctx)
        except (RepeatError, *errors) as exc:
            failed(frame, exc)


def expand(frame: Frame, ctx: dict) -> list[tuple[Frame, dict]]:
    """The repeat frame's children placed for each row: (frame in layout coordinates, context)."""
    props = frame.props
    cell_w, cell_h = props["cell_w"], props["cell_h"]
    rows = rows_of(frame, ctx)
    out: list[tuple[Frame, dict]] = []
    for index, row in enumerate(rows):
        row_ctx = dict(ctx, row=row, index=index)
        dx, dy = _place(frame, index, row_ctx)
        if dx < -TOLERANCE or dy < -TOLERANCE or dx + cell_w > frame.width + TOLERANCE \
                or dy + cell_h > frame.height + TOLERANCE:
            raise RepeatError(f"row {index + 1} of {len(rows)} ({_label(row)}) is placed at ({mm(dx):.1f}, "
                              f"{mm(dy):.1f}) mm, so its {mm(cell_w):.1f} x {mm(cell_h):.1f} mm cell leaves the "
                              f"frame's {mm(frame.width):.1f} x {mm(frame.height):.1f} mm")
        for child in props["children"]:
            placed = replace(child, name=f"{frame.name}[{index}].{child.name}",
                             x=frame.x + dx + child.x, y=frame.y + dy + child.y)
            out.append((placed, row_ctx))
    return out


def _place(frame: Frame, index: int, ctx: dict) -> tuple[float, float]:
    props = frame.props
    at = props.get("at")
    if at is not None:
        try:
            return tuple(length(str(Template(at[key]).render(ctx)).strip()) for key in ("x", "y"))  # type: ignore
        except TemplateFailure as exc:
            raise RepeatError(f"'at': {exc.message}") from None
        except ValueError as exc:
            raise RepeatError(f"row {index + 1}: 'at' must give lengths such as '12mm' ({exc})") from None
    columns = int(props.get("columns", 1))
    gap = length(props.get("gap", 0))
    col, line = index % columns, index // columns
    return col * (props["cell_w"] + gap), line * (props["cell_h"] + gap)


def _label(row: Any) -> str:
    if isinstance(row, dict):
        for key in ("name", "id", "label", "title"):
            if key in row:
                return f"'{row[key]}'"
    return repr(row)[:30]
