"""Stage 2: validate loaded documents against the JSON Schemas shipped in cardforge/schemas.

Draft 2020-12, pinned.  References resolve only between our own schemas: nothing
is ever fetched, so a schema fragment written in content cannot reach the network.
Every violation becomes a diagnostic at the offending value (or key), with a hint.
"""
from __future__ import annotations

import copy
import difflib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from typing import TYPE_CHECKING

from .. import diskcache, resources
from ..diagnostics import Report
from . import load
from .load import Document, pointer_join

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_NAMES = ("game", "cards", "layout", "rules")  # rules: a game's rules.yaml (cardforge/rules/)


@lru_cache(maxsize=None)
def builtin_schema(name: str) -> dict:
    text = resources.read_text("schemas", f"{name}.schema.json")  # shipped in the package (resources.py)
    return json.loads(text)


@lru_cache(maxsize=None)
def _registry():
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
    resources_ = []
    for name in SCHEMA_NAMES:
        schema = builtin_schema(name)
        resources_.append((schema["$id"], Resource(contents=schema, specification=DRAFT202012)))
    # No `retrieve`: an unknown $ref is an error, never a download.
    return Registry().with_resources(resources_)


@lru_cache(maxsize=None)
def _validator_for(key: str) -> Draft202012Validator:
    from .safeschema import validator_class  # only when a document is not known valid (below)
    bounded = validator_class({})  # bounded `pattern` and `uniqueItems`: a deck's fields are content
    return bounded(json.loads(key), registry=_registry(), format_checker=bounded.FORMAT_CHECKER)


def validator(schema: dict) -> Draft202012Validator:
    # Cached by content so that 100 card files of one deck compile their schema once.
    return _validator_for(json.dumps(schema, sort_keys=True))


# -- valid data remembered across processes ------------------------------------------------------
# Validation is a pure function of the schema and the data, and most data is valid: `check` on
# every save validates the same cards again.  So a valid verdict is kept in the disk cache
# (diskcache.py) under the schema, the data's repr (exact for YAML's types: 1, 1.0, True and '1'
# differ) and a fingerprint of this module, our schemas and jsonschema; errors are always found
# again, with their positions.  A game whose data is known valid never imports jsonschema.

@lru_cache(maxsize=None)
def _fingerprint() -> bytes:
    ours = json.dumps([builtin_schema(name) for name in SCHEMA_NAMES], sort_keys=True).encode()
    field_checks = diskcache.fingerprint(str(Path(__file__).with_name("setschema.py")))
    return diskcache.fingerprint(__file__, "jsonschema", "referencing", "jsonschema_specifications") + field_checks + ours


def _valid_key(schema_key: str, value: Any) -> bytes | None:
    try:
        return _fingerprint() + schema_key.encode() + b"\0" + repr(value).encode("utf-8", "surrogatepass")
    except (RecursionError, ValueError):
        return None


def known_valid(schema_key: str, value: Any) -> bytes | None:
    """None when `value` is known valid against the schema (whose JSON is `schema_key`); else the
    key under which to remember it once it is found valid (`remember_valid`), or b"" for none."""
    key = _valid_key(schema_key, value)
    if key is None:
        return b""
    return None if diskcache.get("valid", key) == b"ok" else key


def remember_valid(key: bytes) -> None:
    if key:
        diskcache.put("valid", key, b"ok")


def valid_rows(schema: dict, rows: list) -> list[bool]:
    """Which rows of a typed table are valid against the row schema."""
    key = known_valid(json.dumps(schema, sort_keys=True), rows)
    if key is None:
        return [True] * len(rows)
    verdicts = [validator(schema).is_valid(row) for row in rows]
    if all(verdicts):
        remember_valid(key)
    return verdicts


def deck_card_schema(fields: dict[str, Any], required: Iterable[str]) -> dict:
    """The card-file schema for one deck: the common card keys plus the deck's own fields."""
    return file_schema(card_schema(fields, required))


def file_schema(card: dict) -> dict:
    """The schema of a card file (a mapping with `cards:`) whose cards follow `card`."""
    schema = copy.deepcopy(builtin_schema("cards"))
    schema["$defs"]["card"] = {k: v for k, v in card.items() if k != "$schema"}
    return schema


def card_schema(fields: dict[str, Any], required: Iterable[str], open_: bool = False) -> dict:
    """The schema of one card of a deck: the common card keys plus the deck's own fields (any
    other key too when `open_`, for a deck whose set has its own schema)."""
    card = copy.deepcopy(builtin_schema("cards")["$defs"]["card"])
    card["$schema"] = builtin_schema("cards")["$schema"]
    card["properties"].update(fields)
    card["additionalProperties"] = bool(open_)
    card["required"] = sorted(set(card["required"]) | set(required))
    return card


def valid_field_schemas(fields: dict[str, Any], doc: Document, pointer: str, report: Report) -> set[str]:
    """A deck's field definitions are JSON Schema written by the designer: check them first
    (against the meta-schema, for unknown keywords, and for $ref).  Returns the valid ones."""
    remember = known_valid("field schemas", fields)
    if remember is None:
        return set(fields)
    from .setschema import check_field_schema
    valid = {name for name, sub in fields.items()
             if check_field_schema(name, sub, doc, pointer_join(pointer, name), report)}
    if len(valid) == len(fields):
        remember_valid(remember)
    return valid


def check_field_schemas(fields: dict[str, Any], doc: Document, pointer: str, report: Report) -> bool:
    """True when every field definition is valid (see valid_field_schemas)."""
    return len(valid_field_schemas(fields, doc, pointer, report)) == len(fields)


def validate_card(value: Any, schema: dict, doc: Document, pointer: str, report: Report,
                  key: str | None = None) -> set[str]:
    """Validate one card (at `pointer` in `doc`) and report each violation there.  Returns the
    card's fields that have errors ('' for an error of the card as a whole).  `key`: the schema's
    JSON (schema_key), when the caller has it."""
    memo = load.file_memo
    key = key or schema_key(schema)
    if memo is not None and type(doc) is Document:
        entry = ("valid", id(doc), pointer, key)
        if entry not in memo.entries:
            scratch = Report()
            memo.entries[entry] = (doc, [_validate_card(value, key, doc, pointer, scratch)] + scratch.items)
        _, (bad, *items) = memo.entries[entry]
        report.items.extend(items)
        return bad
    return _validate_card(value, key, doc, pointer, report)


def _validate_card(value: Any, key: str, doc: Document, pointer: str, report: Report) -> set[str]:
    errors = sorted(_validator_for(key).iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        _report_error(error, doc, report, pointer)
    return {str(e.absolute_path[0]) if e.absolute_path else "" for e in errors if e.validator != "required"} | \
        {k for e in errors if e.validator == "additionalProperties" for k in _unexpected_keys(e)} | \
        {k for e in errors if e.validator == "required" and not e.absolute_path for k in _missing_keys(e)} | \
        {str(e.absolute_path[0]) for e in errors if e.validator == "required" and e.absolute_path}


def _missing_keys(error: ValidationError) -> list[str]:
    wanted = error.validator_value if isinstance(error.validator_value, list) else []
    return [k for k in wanted if isinstance(error.instance, dict) and k not in error.instance]


def validate(doc: Document, schema: dict, report: Report, what: str = "file") -> bool:
    """Validate `doc` against `schema`, adding one diagnostic per violation. True if valid."""
    memo = load.file_memo
    if memo is not None:  # the same loaded document against the same schema: the same answer
        key = ("valid", id(doc), json.dumps(schema, sort_keys=True, default=str))
        if key not in memo.entries:
            scratch = Report()
            memo.entries[key] = (doc, [_validate(doc, schema, scratch)] + scratch.items)
        _, (ok, *items) = memo.entries[key]
        report.items.extend(items)
        return ok
    return _validate(doc, schema, report)


def schema_key(schema: dict) -> str:
    return json.dumps(schema, sort_keys=True, default=str)


def _validate(doc: Document, schema: dict, report: Report) -> bool:
    remember = known_valid(schema_key(schema), doc.data)
    if remember is None:
        return True
    errors = sorted(validator(schema).iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        _report_error(error, doc, report)
    if not errors:
        remember_valid(remember)
    return not errors


def _pointer(path) -> str:
    pointer = ""
    for part in path:
        pointer = pointer_join(pointer, part)
    return pointer


def _report_error(error: ValidationError, doc: Document, report: Report, base: str = "") -> None:
    pointer = base + _pointer(error.absolute_path)
    where = doc.pos(pointer)
    kind = error.validator
    if kind in ("oneOf", "anyOf") and error.context:
        # Report the branch that came closest instead of "is not valid under any of".
        best = _closest(error)
        if best is not None:
            return _report_error(best, doc, report, base)
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        for key in _unexpected_keys(error):
            guess = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            help_ = (f"did you mean '{guess[0]}'?" if guess
                     else f"allowed keys: {', '.join(allowed)}" if allowed else None)
            report.error("E-SCHEMA", f"unknown key '{key}'" + (f", did you mean '{guess[0]}'?" if guess else ""),
                         doc.pos(pointer_join(pointer, key), key=True), help=help_,
                         pointer=pointer_join(pointer, key))
        return
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        report.error("E-SCHEMA", f"missing required key '{missing}'", where, pointer=pointer,
                     help=f"add '{missing}: ...' to this mapping")
        return
    if kind == "enum":
        options = [str(o) for o in error.validator_value]
        guess = difflib.get_close_matches(str(error.instance), options, n=1, cutoff=0.5)
        message = f"{error.instance!r} is not one of: {', '.join(options)}"
        report.error("E-SCHEMA", message, where, pointer=pointer,
                     help=f"did you mean '{guess[0]}'?" if guess else None)
        return
    if kind == "pattern" and "length" in str(error.schema.get("description", "")).lower():
        report.error("E-SCHEMA", f"{error.instance!r} is not a length", where, pointer=pointer,
                     help="write a number with a unit: '63mm', '2.5in', '12pt', '1cm'")
        return
    if kind == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        report.error("E-SCHEMA", f"expected {expected}, got {_json_type(error.instance)}{_short(error.instance)}",
                     where, pointer=pointer)
        return
    bound = _out_of_bounds(error)
    if bound is not None:
        message, help_ = bound
        subject = _subject(doc, pointer)
        field = pointer.rsplit("/", 1)[-1]
        if help_.startswith("it takes") and field and not field.isdigit():
            help_ = f"'{field}' takes" + help_[len("it takes"):]
        report.error("E-SCHEMA", f"{subject}: {message}" if subject else message, where, pointer=pointer, help=help_)
        return
    report.error("E-SCHEMA", _plain(error), where, pointer=pointer)


# -- out of bounds, in the designer's terms --------------------------------------------------------
# "9 is greater than the maximum of 5" names neither the card nor the field: the message says whose
# value it is (card 'heavy-blow', field 'cost') and the help line what the field takes.

def _subject(doc: Document, pointer: str) -> str:
    """Whose value is at `pointer`: "card 'x', field 'cost'" inside a card with an id, else the key."""
    value: Any = doc.data
    card, path = None, []
    for part in [p.replace("~1", "/").replace("~0", "~") for p in pointer.strip("/").split("/") if p]:
        if isinstance(value, dict) and part in value:
            value = value[part]
            path.append(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
            path.append(f"[{part}]")
        else:
            break
        if isinstance(value, dict) and isinstance(value.get("id"), str):
            card, path = value["id"], []
    field = ".".join(path).replace(".[", "[")
    if card is not None:
        return f"card '{card}', field '{field}'" if field else f"card '{card}'"
    return f"'{field}'" if field else ""


def _number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 else str(value)


def _takes(schema: dict) -> str:
    """What a number's schema allows, as a designer says it: 'a whole number from 0 to 5'."""
    kind = "a whole number" if schema.get("type") == "integer" else "a number"
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"{kind} from {_number(low)} to {_number(high)}"
    if low is not None:
        return f"{kind} of at least {_number(low)}"
    if high is not None:
        return f"{kind} of at most {_number(high)}"
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    parts = ([f"above {_number(above)}"] if above is not None else []) + \
        ([f"below {_number(below)}"] if below is not None else [])
    return f"{kind} {' and '.join(parts)}" if parts else kind


def _out_of_bounds(error: ValidationError) -> tuple[str, str] | None:
    kind, value, limit = error.validator, error.instance, error.validator_value
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        words = {"minimum": "less than the minimum of", "maximum": "greater than the maximum of",
                 "exclusiveMinimum": "not above", "exclusiveMaximum": "not below"}[kind]
        return f"{_number(value)} is {words} {_number(limit)}", f"it takes {_takes(error.schema)}"
    if kind in ("minLength", "maxLength") and isinstance(value, str):
        longest = error.schema.get("maxLength")
        shortest = error.schema.get("minLength")
        takes = (f"from {shortest} to {longest} characters" if shortest is not None and longest is not None
                 else f"at most {longest} characters" if longest is not None else f"at least {shortest} characters")
        return (f"the text is {len(value)} characters long, {'more' if kind == 'maxLength' else 'fewer'} than "
                f"the {'most' if kind == 'maxLength' else 'fewest'} it takes, {limit}"), f"write {takes}"
    if kind in ("minItems", "maxItems") and isinstance(value, list):
        return (f"the list has {len(value)} entries, {'more' if kind == 'maxItems' else 'fewer'} than "
                f"the {'most' if kind == 'maxItems' else 'fewest'} it takes, {limit}"), \
            f"give it {'at most' if kind == 'maxItems' else 'at least'} {limit}"
    if kind == "multipleOf":
        return f"{_number(value)} is not a multiple of {_number(limit)}", f"use a multiple of {_number(limit)}"
    if kind == "const":
        return f"{value!r} must be {limit!r}", f"write {limit!r}"
    return None


def _closest(error: ValidationError) -> ValidationError | None:
    # Prefer the deepest error, and among equals one that is not itself a type mismatch.
    candidates = list(error.context)
    if not candidates:
        return None
    return max(candidates, key=lambda e: (len(e.absolute_path), e.validator != "type", e.validator != "enum"))


def _unexpected_keys(error: ValidationError) -> list[str]:
    props = error.schema.get("properties", {})
    return [k for k in error.instance if k not in props]


def _json_type(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "a boolean", int: "a number",
            float: "a number", type(None): "nothing"}.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (dict, list)) else ""
    return f" ({text[:40]})" if text else ""


def _plain(error: ValidationError) -> str:
    return error.message if len(error.message) < 160 else error.message[:157] + "..."
