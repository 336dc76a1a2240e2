"""Paths into plain data (card views, table rows): shared by the expression helpers."""
from __future__ import annotations

from typing import Any


class _Missing:
    def __repr__(self) -> str:
        return "<any>"


ANY = _Missing()


def get_path(item: Any, path: str | None) -> Any:
    """The value at a dotted path; through a list it gives the list of values (flattened)."""
    if path is None or path == "":
        return item
    value = item
    for part in str(path).split("."):
        if isinstance(value, list):
            out = []
            for element in value:
                got = get_path(element, part)
                if isinstance(got, list):
                    out.extend(got)
                elif got is not None:
                    out.append(got)
            value = out
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def items_of(items: Any) -> list:
    if items is None:
        return []
    if isinstance(items, dict):
        return [items]
    if isinstance(items, (list, tuple)):
        return list(items)
    if isinstance(items, (str, bytes)):
        raise TypeError("expected a list of items, got text")
    try:
        return list(items)
    except TypeError:
        raise TypeError(f"expected a list of items, got {type(items).__name__}") from None
