"""Helpers over sets of rows or cards: intervals that must tile a span, and uniqueness.

    gaps(items, lo='min', hi='max', start=None, end=None, step=1)
        the values of [start, end] that no item's [lo, hi] covers, as runs
        [{'from': a, 'to': b, 'index': i}]; `index` is the item the run ends before (or the last
        item for a run at the end), so a table check can point at that row
    overlaps(items, lo='min', hi='max', step=1)
        the values two or more items cover: [{'from': a, 'to': b, 'index': i, 'with': j}], where
        item `index` starts inside item `with`
    copies(items, key, value)
        how many copies (a card's `quantity`, default 1) of the items have `key` == `value`
    duplicates(items, key)
        the values of `key` (a dotted path, or a list of paths for a compound key) held by more
        than one copy: [{'value': v, 'ids': [...], 'copies': n}], in the order first seen

`lo`/`hi` of None is an open end (as in `band`). Items are table rows or card views; an item
whose lo is above its hi is reported as an overlap of itself ({'from': lo, 'to': hi, 'index': i,
'with': i}), since it covers nothing sensible.
"""
from __future__ import annotations

from typing import Any

from .paths import get_path, items_of

_OPEN = None


def _bounds(items, lo, hi):
    out = []
    for index, item in enumerate(items_of(items)):
        low, high = get_path(item, lo), get_path(item, hi)
        for name, value in ((lo, low), (hi, high)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TypeError(f"item {index + 1}: '{name}' is {value!r}, not a number")
        out.append((index, low, high))
    return out


def _key(bound):
    index, low, high = bound
    return (float("-inf") if low is None else low, index)


def h_gaps(items, lo="min", hi="max", start=None, end=None, step=1):
    bounds = sorted(_bounds(items, lo, hi), key=_key)
    runs: list[dict[str, Any]] = []
    if not bounds:
        if start is not None and end is not None:
            runs.append({"from": start, "to": end, "index": None})
        return runs
    covered = None  # highest value covered so far (None: nothing yet); float('inf') once open
    first_index, first_low, _ = bounds[0]
    if start is not None and first_low is not None and first_low > start:
        runs.append({"from": start, "to": first_low - step, "index": first_index})
    for index, low, high in bounds:
        if covered is not None and low is not None and low > covered + step:
            runs.append({"from": covered + step, "to": low - step, "index": index})
        top = float("inf") if high is None else high
        covered = top if covered is None else max(covered, top)
    last_index = max(bounds, key=lambda b: (float("inf") if b[2] is None else b[2], b[0]))[0]
    if end is not None and covered is not None and covered < end:
        runs.append({"from": covered + step, "to": end, "index": last_index})
    return runs


def h_overlaps(items, lo="min", hi="max", step=1):
    bounds = sorted(_bounds(items, lo, hi), key=_key)
    out: list[dict[str, Any]] = []
    reach = None  # (highest covered value, index of the item reaching it)
    for index, low, high in bounds:
        if low is not None and high is not None and low > high:
            out.append({"from": low, "to": high, "index": index, "with": index})
            continue
        top = float("inf") if high is None else high
        if reach is not None:
            bottom = float("-inf") if low is None else low
            if bottom <= reach[0]:
                out.append({"from": low if low is not None else None, "to": min(reach[0], top),
                            "index": index, "with": reach[1]})
        if reach is None or top > reach[0]:
            reach = (top, index)
    return out


def _copies(item) -> int:
    quantity = item.get("quantity", 1) if isinstance(item, dict) else 1
    return quantity if isinstance(quantity, int) and not isinstance(quantity, bool) else 1


def _value(item, key):
    if isinstance(key, (list, tuple)):
        return tuple(_hashable(get_path(item, k)) for k in key)
    return _hashable(get_path(item, key))


def _hashable(value):
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def h_copies(items, key, value):
    want = _hashable(list(value) if isinstance(value, tuple) else value)
    if isinstance(key, (list, tuple)):
        want = tuple(_hashable(v) for v in value)
    return sum(_copies(item) for item in items_of(items) if _value(item, key) == want)


def h_duplicates(items, key):
    seen: dict[Any, dict[str, Any]] = {}
    for item in items_of(items):
        value = _value(item, key)
        if value is None or value == ():
            continue
        entry = seen.setdefault(value, {"value": list(value) if isinstance(value, tuple) else value,
                                        "ids": [], "copies": 0})
        entry["copies"] += _copies(item)
        ident = item.get("id") if isinstance(item, dict) else None
        if ident is not None and ident not in entry["ids"]:
            entry["ids"].append(ident)
    return [entry for entry in seen.values() if entry["copies"] > 1]


SET_HELPERS = {"gaps": h_gaps, "overlaps": h_overlaps, "copies": h_copies, "duplicates": h_duplicates}
