"""Lookup helpers of the expression language (C2): tables as functions.

    lookup(table, value, field=None, key=None, default=...)
                                                   the row whose key is `value` (or its `field`);
                                                   `default` instead of failing
    sum_lookup(values, table, field, key=None)     sum of `field` over the rows of `values`, each
                                                   value counted as often as it occurs
    band(table, value, field=None, lo='min', hi='max')
                                                   the row with lo <= value <= hi (None = open end)
    cell(table, row_value, column_value)           a cell of a two-dimensional table: the row by
                                                   its key or band, the column by its field name or
                                                   by the band of the table's `columns`
    lookup_all(table, values, key=None, skip_missing=False)
                                                   the row of each value, duplicates kept
    first_index(items, key, value)                 the index of the first item whose key is value
    attach(items, field, table, key=None)          copies of `items` with `<field>_row`: the row
                                                   their `field` names (a join)
    sum_product(items, *paths, missing=None)       the sum over the items of the product of their
                                                   values at `paths` (absent counts as `missing`)
    floor(x), ceil(x), min(...), max(...), abs(x), round(x)

`table` is `tables.<name>`; its key and columns come from its definition in game.yaml. A lookup
that fails raises LookupFailure carrying the value that caused it, so that the rules runner can
point at that value in the content (the card field that holds it) rather than at the rule.
"""
from __future__ import annotations

import difflib
import math
from typing import Any

from ..frontend.tables import TableRows


class LookupFailure(ValueError):
    """A lookup found nothing: `value` is the data that caused it."""

    def __init__(self, message: str, value: Any, help: str | None = None):
        super().__init__(message)
        self.value, self.help = value, help


def _rows(table: Any, helper: str) -> TableRows:
    if isinstance(table, TableRows):
        return table
    if isinstance(table, list):
        return TableRows(table)
    raise TypeError(f"{helper}: expected a table (tables.<name>), got {type(table).__name__}")


def _name(rows: TableRows) -> str:
    return f"table '{rows.table.name}'" if rows.table is not None else "the table"


def _key(rows: TableRows, key: str | None, helper: str) -> str:
    key = key or (rows.table.key if rows.table is not None else None)
    if not key:
        raise TypeError(f"{helper}: {_name(rows)} has no key; give one: {helper}(..., key='name')")
    return key


def _field(row: dict, field: str | None, rows: TableRows) -> Any:
    if field is None:
        return row
    if field not in row:
        raise LookupFailure(f"{_name(rows)} has no field '{field}'", field,
                            help=f"fields: {', '.join(sorted(row))}")
    return row[field]


_NONE = object()


def h_lookup(table, value, field=None, key=None, default=_NONE):
    rows = _rows(table, "lookup")
    key = _key(rows, key, "lookup")
    for row in rows:
        if row.get(key) == value:
            return _field(row, field, rows)
    if default is not _NONE:
        return default
    keys = [str(row.get(key)) for row in rows]
    guess = difflib.get_close_matches(str(value), keys, n=1, cutoff=0.6)
    raise LookupFailure(f"{value!r} is not a {key} of {_name(rows)}", value,
                        help=(f"did you mean '{guess[0]}'? " if guess else "") +
                        f"{key}s: {', '.join(keys[:16])}" + (" ..." if len(keys) > 16 else ""))


def h_sum_lookup(values, table, field, key=None):
    if values is None:
        return 0
    if isinstance(values, (str, dict)):
        values = [values]
    total = 0
    for value in values:  # a list: two SAMs are counted twice
        got = h_lookup(table, value, field, key)
        if got is None:
            continue
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            raise TypeError(f"sum_lookup: {field} of {value!r} is {got!r}, not a number")
        total += got
    return total


def h_lookup_all(table, values, key=None, skip_missing=False):
    if values is None:
        return []
    if isinstance(values, (str, dict)):
        values = [values]
    rows = [h_lookup(table, value, None, key, None if skip_missing else _NONE) for value in values]
    return [row for row in rows if row is not None]


def h_first_index(items, key, value):
    for index, item in enumerate(items or []):
        if get_path(item, key) == value:
            return index
    return None


def h_attach(items, field, table, key=None):
    out = []
    for item in items or []:
        if not isinstance(item, dict):
            raise TypeError(f"attach: {item!r} is not a mapping")
        out.append({**item, f"{field}_row": h_lookup(table, item.get(field), None, key)})
    return out


def h_sum_product(items, *paths, missing=None):
    """The sum over the items of the product of the values at `paths`; a value that is absent
    counts as `missing` (an item is left out when `missing` is None)."""
    total = 0
    for item in items or []:
        product = 1
        for path in paths:
            value = get_path(item, path)
            if value is None:
                value = missing
            if value is None:
                product = None
                break
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"sum_product: {path} is {value!r}, not a number")
            product *= value
        if product is not None:
            total += product
    return total


def get_path(item: Any, path: str) -> Any:
    for part in str(path).split("."):
        item = item.get(part) if isinstance(item, dict) else None
    return item


def _in_band(value, low, high) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def _band_text(low, high) -> str:
    if low is None and high is None:
        return "any"
    if high is None:
        return f"{low:g}+"
    if low is None:
        return f"up to {high:g}"
    return f"{low:g}-{high:g}"


def h_band(table, value, field=None, lo="min", hi="max"):
    rows = _rows(table, "band")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"band: {value!r} is not a number")
    for row in rows:
        if _in_band(value, row.get(lo), row.get(hi)):
            return _field(row, field, rows)
    bands = ", ".join(_band_text(row.get(lo), row.get(hi)) for row in rows)
    raise LookupFailure(f"{value:g} falls outside every band of {_name(rows)} ({bands})", value,
                        help="extend the table's bands, or change the value")


def h_cell(table, row_value, column_value):
    rows = _rows(table, "cell")
    has_bands = rows and any("min" in row or "max" in row for row in rows[:1])
    if has_bands and isinstance(row_value, (int, float)) and not isinstance(row_value, bool):
        row = h_band(rows, row_value)
    else:
        row = h_lookup(rows, row_value)
    columns = rows.table.columns if rows.table is not None else []
    if isinstance(column_value, str) and (column_value in row or not columns):
        return _field(row, column_value, rows)
    for column in columns:
        if column_value == column.get("field") or (
                isinstance(column_value, (int, float)) and not isinstance(column_value, bool)
                and ("min" in column or "max" in column) and _in_band(column_value, column.get("min"), column.get("max"))):
            return _field(row, column["field"], rows)
    labels = ", ".join(column.get("label") or _band_text(column.get("min"), column.get("max")) for column in columns)
    raise LookupFailure(f"{column_value!r} is not a column of {_name(rows)}" + (f" ({labels})" if labels else ""),
                        column_value, help="give a column's field name, or a value inside one of its bands")


def _number(x, helper):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"{helper}: {x!r} is not a number")
    return x


def h_floor(x):
    return math.floor(_number(x, "floor"))


def h_ceil(x):
    return math.ceil(_number(x, "ceil"))


def h_min(*args):
    items = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    return min(items) if items else None


def h_max(*args):
    items = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    return max(items) if items else None


LOOKUP_HELPERS = {"lookup": h_lookup, "lookup_all": h_lookup_all, "attach": h_attach, "sum_product": h_sum_product, "first_index": h_first_index, "sum_lookup": h_sum_lookup, "band": h_band, "cell": h_cell,
                  "floor": h_floor, "ceil": h_ceil, "min": h_min, "max": h_max, "abs": abs, "round": round}
