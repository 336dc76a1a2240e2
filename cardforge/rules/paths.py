"""Paths into plain data (card views, table rows): shared by the expression helpers."""
from __future__ import annotations

from typing import Any


class _Missing:
    def __repr__(self) -> str:
        return "<any>"


ANY = _Missing()


_parts: dict[str, tuple[str, ...]] = {}


def path_parts(path: Any) -> tuple[str, ...]:
    """A dotted path's parts, split once per process (a rule reads the same few paths of thousands
    of items)."""
    parts = _parts.get(path) if type(path) is str else None
    if parts is None:
        parts = tuple(str(path).split("."))
        if type(path) is str:
            if len(_parts) > 4096:
                _parts.clear()
            _parts[path] = parts
    return parts


def get_path(item: Any, path: str | None) -> Any:
    """The value at a dotted path; through a list it gives the list of values (flattened)."""
    if path is None or path == "":
        return item
    return get_parts(item, path_parts(path))


def get_parts(value: Any, parts: tuple[str, ...]) -> Any:
    """get_path with the path already split."""
    for part in parts:
        if isinstance(value, dict):  # (no value is both a dict and a list)
            value = value.get(part)
        elif isinstance(value, list):
            out = []
            for element in value:
                got = element if part == "" else get_parts(element, (part,))  # as get_path(element, part)
                if isinstance(got, list):
                    out.extend(got)
                elif got is not None:
                    out.append(got)
            value = out
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
