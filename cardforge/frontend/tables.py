"""Typed tables: game data that is not a deck of cards (C1).

A table in game.yaml is either a bare list of rows (any mappings, as before) or a typed table:

    tables:
      weapons:
        source: "Vehicle Weapons and Equipment Table"
        key: system                 # unique; what lookup(tables.weapons, 'Rail Gun') matches
        required: [system, weight]
        fields: {system: {type: string}, weight: {type: integer, minimum: 0}}
        rows: [...]                 # or  file: tables/weapons.yaml  (a file holding `rows:`)

Rows are validated against the fields like cards against their deck (every violation at its
`path:line:col`); a row may carry `authored: true` and a `note`. Keys must be unique.

Templates and rules see `tables.<name>` as the list of rows. The list also knows its table
(`TableRows.table`), so that the lookup helpers can use the key and columns and a failed lookup
can point at the row or the value that caused it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from .load import Document, load_yaml, pointer_join
from .schema import check_field_schemas, valid_rows, validate, validator

ROW_KEYS = {"authored": {"type": "boolean", "description": "An authored row, not printed in the rulebook."},
            "note": {"type": "string", "description": "Why the row is authored, or how it was decided."}}


@dataclass(eq=False)
class Table:
    name: str
    doc: Document
    pointer: str  # JSON pointer of the rows list in `doc`
    key: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    columns: list[dict] = field(default_factory=list)
    source: str | None = None
    authored: bool = False
    typed: bool = False
    title: str | None = None  # the printed name (`name:`), else the table's key in game.yaml
    # Where each row came from: rows with errors are reported and left out, so row i of the
    # table may be row indices[i] of its file.
    indices: list[int] | None = None

    def row_pos(self, index: int, field_name: str | None = None) -> Position:
        if self.indices is not None and 0 <= index < len(self.indices):
            index = self.indices[index]
        pointer = f"{self.pointer}/{index}"
        return self.doc.pos(pointer_join(pointer, field_name) if field_name else pointer)


class TableRows(list):
    """The rows of a table, as templates and rules see them; `.table` is where they came from.

    A list subclass, so that `tables.x` stays a plain list for `for row in tables.x`, the
    `table` frame and json; pickling keeps `table` (the process pool sends games over)."""

    table: Table | None = None

    def __init__(self, rows=(), table: Table | None = None):
        super().__init__(rows)
        self.table = table

    def __reduce_ex__(self, protocol):
        return (TableRows, (list(self), self.table))


def row_schema(fields: dict[str, Any], required: list[str]) -> dict:
    props = copy.deepcopy(fields)
    for key, schema in ROW_KEYS.items():
        props.setdefault(key, schema)
    return {"type": "object", "additionalProperties": False, "properties": props,
            "required": sorted(set(required))}


def load_tables(root: Path, doc: Document, report: Report, documents: list, safe_path,
                checked: bool = True) -> dict[str, TableRows]:
    """Every table of game.yaml, validated. A table with errors is left out (its errors are
    reported); files it reads are added to `documents`; `safe_path(root, rel)` keeps them inside."""

    out: dict[str, TableRows] = {}
    tables = doc.data.get("tables") if isinstance(doc.data, dict) else None
    if not isinstance(tables, dict):
        return out
    for name, spec in tables.items():
        pointer = pointer_join("/tables", name)
        if isinstance(spec, list):
            rows = [row for row in spec if isinstance(row, dict)]
            out[name] = TableRows(rows, Table(name, doc, pointer))
            continue
        if not isinstance(spec, dict) or not isinstance(spec.get("fields"), dict) or not (checked or _valid_table(spec)):
            continue  # the game schema reported it
        fields = spec["fields"]
        if not check_field_schemas(fields, doc, pointer + "/fields", report):
            continue
        required = [r for r in spec.get("required") or [] if isinstance(r, str)]
        key = spec.get("key")
        ok = True
        for what, names in (("key", [key] if key else []), ("required", required),
                            ("columns", [c.get("field") for c in spec.get("columns") or [] if isinstance(c, dict)])):
            for i, fname in enumerate(names):
                if fname not in fields:
                    sub = pointer + "/" + what + ("" if what == "key" else f"/{i}" + ("/field" if what == "columns" else ""))
                    report.error("E-TABLE", f"table '{name}': {what} names '{fname}', which is not one of its fields",
                                 doc.pos(sub), help=f"fields: {', '.join(sorted(fields))}")
                    ok = False
        if not ok:
            continue
        schema = row_schema(fields, required + ([key] if key else []))
        row_doc, rows_pointer = doc, pointer + "/rows"
        if "file" in spec:
            path = safe_path(root, spec["file"])
            if path is None or not path.is_file():
                report.error("E-PATH" if path is None else "E-MISSING-FILE",
                             f"table file '{spec['file']}' " + ("is outside the game folder" if path is None
                                                                else "does not exist"),
                             doc.pos(pointer + "/file"), help="table files are YAML files inside the game folder, "
                             "holding `rows:`")
                continue
            row_doc = load_yaml(path, report)
            if row_doc is None:
                continue
            documents.append(row_doc)
            rows_pointer = "/rows"
            file_schema = {"type": "object", "additionalProperties": False, "required": ["rows"],
                           "properties": {"$schema": {"type": "string"}, "rows": {"type": "array", "items": schema}}}
            if not validate(row_doc, file_schema, report) and not isinstance(row_doc.data.get("rows")
                                                                             if isinstance(row_doc.data, dict) else None, list):
                continue
            rows = row_doc.data["rows"]
        else:
            wrapper = {"type": "object", "properties": {"tables": {"type": "object", "properties": {
                name: {"type": "object", "properties": {"rows": {"type": "array", "items": schema}}}}}}}
            rows = spec.get("rows")
            if not isinstance(rows, list):  # missing or not a list: the game file's schema said so
                continue
            validate(doc, wrapper, report)
        table = Table(name, row_doc, rows_pointer, key=key, fields=fields, columns=list(spec.get("columns") or []),
                      source=spec.get("source"), authored=bool(spec.get("authored")), typed=True,
                      title=spec.get("name") or name)
        # Rows with errors (already reported) are left out, so that rules see only valid rows and
        # do not report the same mistake again; the table itself stays known.
        kept: list[int] = []
        seen: dict[Any, int] = {}
        for i, (row, row_ok) in enumerate(zip(rows, valid_rows(schema, rows))):
            if not row_ok:
                continue
            if key:
                value = row.get(key)
                if value in seen:
                    first = table.doc.pos(f"{rows_pointer}/{seen[value]}")
                    report.error("E-TABLE-KEY", f"table '{name}': key {key} {value!r} is already used by row "
                                 f"{seen[value] + 1}", table.doc.pos(f"{rows_pointer}/{i}/{key}"),
                                 help=f"first used at {first.path.name}:{first.line}; each row's {key} must be unique")
                    continue
                seen[value] = i
            kept.append(i)
        if len(kept) != len(rows):
            table.indices = kept
        # Every declared field present (None when unset), as for cards.
        # A table marked authored as a whole has only authored rows (for provenance counts).
        marks = {"authored": True} if table.authored else {}
        out[name] = TableRows([{**{f: None for f in fields}, **marks, **rows[i]} for i in kept], table)
    return out


def _valid_table(spec: dict) -> bool:
    """Whether a table's declaration is valid on its own (else the game schema reported it, and its
    values, such as `file: 1`, cannot be used)."""
    return validator({"$ref": "https://cardforge.dev/schemas/game.schema.json#/$defs/table"}).is_valid(spec)
