"""JSON Schema validators for schemas written by content: a deck's `fields`, a set's own schema.

jsonschema runs a schema's keywords in C-speed library code that no Python timer can stop, so
the keywords whose cost depends on the content are replaced by bounded ones:

- `pattern` and `patternProperties` run with the `regex` module and its time limit
  (MAX_REGEX_SECONDS): `^(a+)+$` against "aaaa...b" backtracks for ever in `re`.  A pattern that
  once ran out of time fails at once on the next card, so a bad pattern costs one time limit;
- `uniqueItems` compares canonical JSON texts in a set (linear), and an array longer than
  MAX_UNIQUE_ITEMS is refused before any comparison (jsonschema's own is quadratic);
- `multipleOf` never overflows (`multipleOf: 1e-300` against a large number).

`$schema` must be a text naming a known draft; `validator_class` says which when it is not.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

import regex
from jsonschema import validators
from jsonschema.exceptions import ValidationError

from ..limits import MAX_PATTERN_CHARS, MAX_REGEX_SECONDS, MAX_UNIQUE_ITEMS

DEFAULT = validators.Draft202012Validator


class SchemaDraftError(ValueError):
    """`$schema` is no text: the draft cannot be known."""


def validator_class(schema: Any):
    """The bounded validator class for a schema document, by its `$schema` (2020-12 by default)."""
    draft = schema.get("$schema") if isinstance(schema, dict) else None
    if draft is not None and not isinstance(draft, str):
        raise SchemaDraftError(f"'$schema' must be the URI of a JSON Schema draft (text), not "
                               f"{type(draft).__name__}")
    base = validators.validator_for({"$schema": draft} if draft else {}, default=DEFAULT)
    return _bounded(base)


@lru_cache(maxsize=None)
def _bounded(base):
    return validators.extend(base, {"pattern": _pattern, "patternProperties": _pattern_properties,
                                    "uniqueItems": _unique_items, "multipleOf": _multiple_of})


# -- pattern -----------------------------------------------------------------------------------

class _Slow(Exception):
    pass


_slow: dict[str, str] = {}  # pattern -> why it is not run again


@lru_cache(maxsize=512)
def _compiled(pattern: str):
    if len(pattern) > MAX_PATTERN_CHARS:
        return None
    try:
        return regex.compile(pattern, regex.VERSION0)
    except (regex.error, ValueError, OverflowError, RecursionError):
        return None  # the meta-schema (format: regex) reports it; no card is judged by it


def _search(pattern: str, text: str) -> bool | None:
    """Whether `pattern` finds a match in `text`; None when it cannot be used (does not compile)."""
    if pattern in _slow:
        raise _Slow(_slow[pattern])
    compiled = _compiled(pattern)
    if compiled is None:
        return None
    try:
        return compiled.search(text, timeout=MAX_REGEX_SECONDS) is not None
    except TimeoutError:
        _slow[pattern] = (f"the pattern {_short(pattern)} took more than the limit of {MAX_REGEX_SECONDS:g} s "
                          f"for one match, so it is not used (nested repetition such as (a+)+ backtracks)")
        raise _Slow(_slow[pattern]) from None


def _short(pattern: str) -> str:
    return repr(pattern if len(pattern) <= 60 else pattern[:57] + "...")


def _pattern(validator, pattern, instance, schema):
    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    try:
        found = _search(pattern, instance)
    except _Slow as exc:
        yield ValidationError(str(exc))
        return
    if found is False:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator, pattern_properties, instance, schema):
    if not validator.is_type(instance, "object") or not isinstance(pattern_properties, dict):
        return
    for pattern, subschema in pattern_properties.items():
        for key, value in instance.items():
            try:
                found = _search(pattern, key)
            except _Slow as exc:
                yield ValidationError(str(exc), path=[key])
                return
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


# -- uniqueItems, multipleOf -------------------------------------------------------------------

def _canonical(value: Any) -> str:
    """One text per JSON value, equal for equal values (1 and 1.0 alike; true is not 1)."""
    def norm(v):
        if isinstance(v, bool) or v is None or isinstance(v, str):
            return v
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {str(k): norm(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        return v
    return json.dumps(norm(value), sort_keys=True, default=repr)


def _unique_items(validator, unique, instance, schema):
    if not unique or not validator.is_type(instance, "array"):
        return
    if len(instance) > MAX_UNIQUE_ITEMS:
        yield ValidationError(f"an array of {len(instance)} items is larger than the limit of "
                              f"{MAX_UNIQUE_ITEMS} items for uniqueItems")
        return
    seen: set[str] = set()
    for item in instance:
        text = _canonical(item)
        if text in seen:
            yield ValidationError(f"its items are not unique: {_short(text)} appears more than once")
            return
        seen.add(text)


def _multiple_of(validator, divisor, instance, schema):
    if not validator.is_type(instance, "number") or not isinstance(divisor, (int, float)) or isinstance(divisor, bool):
        return
    if not math.isfinite(divisor) or divisor <= 0:
        return  # the meta-schema reports it
    try:
        if isinstance(divisor, float) or isinstance(instance, float):
            quotient = instance / divisor
            failed = not math.isfinite(quotient) or int(quotient) != quotient
        else:
            failed = instance % divisor != 0
    except (OverflowError, ValueError, ZeroDivisionError):
        failed = True
    if failed:
        yield ValidationError(f"{instance!r} is not a multiple of {divisor}")
