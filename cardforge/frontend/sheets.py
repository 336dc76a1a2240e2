"""Card files as spreadsheets: a deck's `cards:` may name a .csv or .xlsx file.

One card per row, columns named after the deck's fields (and the common keys: id, quantity,
front, back, authored, note).  The first non-empty row is the header.  A column `sight.clock`
fills the field `sight`'s key `clock`.  Cells are typed by the deck's field schema: "3" in a
column of integers becomes 3, "x" there is an error; a list of plain values may be written
"12, 3"; an object or a list of objects is written as YAML or JSON (`{clock: [12], altitude:
[low]}`).  Empty rows are skipped; merged cells read as the value of their range; formulas as the
value the spreadsheet program saved with them.

Diagnostics point at cells, as a spreadsheet user finds them: `cards.xlsx:Crew!C12`.  An xlsx
file names its sheet after `#` (`cards.xlsx#Crew`); without one, the sheet named like the deck
(its id or name) is read, or the only sheet.
"""
from __future__ import annotations

import csv
import datetime
import difflib
import io
import math
import re
from pathlib import Path
from typing import Any

from ..diagnostics import Position, Report
from ..limits import (MAX_CELL_YAML, MAX_COLUMNS, MAX_INT_DIGITS, MAX_ROWS, MAX_UNZIPPED,  # noqa: F401
                      limit_message)
from .jsonload import noncharacter, noncharacter_message
from .load import Document, parse_yaml, pointer_join, read_source
from .schema import validate

SHEET_SUFFIXES = (".csv", ".xlsx")
INTEGER = re.compile(r"^[+-]?\d+$")
NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
TRUE, FALSE = ("true", "yes", "y", "1", "x"), ("false", "no", "n", "0", "")


def is_sheet(rel: str) -> bool:
    return rel.split("#", 1)[0].lower().endswith(SHEET_SUFFIXES)


def split_sheet(rel: str) -> tuple[str, str | None]:
    """'cards.xlsx#Crew' -> ('cards.xlsx', 'Crew')."""
    path, _, sheet = rel.partition("#")
    return path, (sheet or None)


def column_letter(index: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class SheetDocument(Document):
    """The cards of a sheet, with the cells that could not be typed (already reported)."""

    def __init__(self, path: Path):
        super().__init__(path=path, data=None)
        self.failed: set[Position] = set()  # cells whose value was kept as text after an error
        self.broken = False  # a header problem: the cards are not usable


def validate_sheet(doc: SheetDocument, schema: dict, report: Report) -> bool:
    """The schema check of a sheet's cards, quiet about the cells already reported, so that every
    other problem of the sheet (a missing title, a negative cost) is reported at once."""
    scratch = Report()
    valid = validate(doc, schema, scratch)
    for diag in scratch.items:
        if diag.position in doc.failed:
            continue
        missing = re.match(r"missing required key '([^']+)'", diag.message)
        if missing:
            diag.help = f"fill in the column '{missing.group(1)}' for this card (add the column if the sheet has none)"
        report.add(diag)
    return valid and not doc.failed and not doc.broken


class Grid:
    """The cells of one sheet as plain values, row by row, and how to name a cell."""

    def __init__(self, path: Path, sheet: str | None, rows: list[list[Any]], formulas: set[tuple[int, int]] = frozenset()):
        self.path, self.sheet, self.rows, self.formulas = path, sheet, rows, formulas

    def pos(self, row: int, col: int) -> Position:
        """1-based row and column."""
        ref = f"{column_letter(col)}{row}"
        if self.sheet is not None:
            name = self.sheet if re.fullmatch(r"\w+", self.sheet) else "'" + self.sheet.replace("'", "''") + "'"
            ref = f"{name}!{ref}"
        return Position(self.path, row, col, cell=ref)


# -- reading the files ---------------------------------------------------------------------------

def read_csv(path: Path, report: Report) -> Grid | None:
    text = read_source(path, report, "E-SHEET", "utf-8-sig",
                       help="export the sheet as 'CSV UTF-8' from your spreadsheet program")
    if text is None:
        return None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count) if first else ","  # Excel writes ';' where ',' is the decimal mark
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as exc:
        report.error("E-SHEET", f"CSV syntax error: {exc}", Position(path, 1, 1))
        return None
    if len(rows) > MAX_ROWS or any(len(row) > MAX_COLUMNS for row in rows):
        report.error("E-SHEET", f"the file has more than {MAX_ROWS} rows or {MAX_COLUMNS} columns; cardforge reads "
                     "at most that many", Position(path, 1, 1), help="split the cards into several files")
        return None
    return Grid(path, None, rows)


# A row of a sheet's XML.  Counted before openpyxl opens the workbook: a sheet without <dimension>
# is parsed whole just to open it (twice: values and formulas), 20,001 rows in some 10 s.
ROW = re.compile(rb"<(?:\w+:)?row[\s>/]")


def workbook_sheets(path: Path, report: Report):
    """(values workbook, formulas workbook) of an xlsx file, or None after reporting why not.  Both
    are opened read-only: nothing of a sheet is read until its rows are asked for, so a merged
    range or a cell far away (XFD1048576) costs nothing until read_xlsx bounds what it reads."""
    import zipfile  # as openpyxl: only games with spreadsheets need it

    import openpyxl
    try:
        with zipfile.ZipFile(path) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED:
                report.error("E-SHEET", f"workbook expands to more than {MAX_UNZIPPED // 1024 // 1024} MB",
                             Position(path, 1, 1))
                return None
            rows = max((len(ROW.findall(archive.read(name))) for name in archive.namelist()
                        if name.startswith("xl/worksheets/") and name.endswith(".xml")), default=0)
            if rows > MAX_ROWS:
                report.error("E-SHEET", f"the workbook has a sheet of {rows} rows, more than the {MAX_ROWS} "
                             "cardforge reads", Position(path, 1, 1),
                             help="delete the rows after the cards, or split the sheet")
                return None
        values = openpyxl.load_workbook(path, data_only=True, read_only=True)
        formulas = openpyxl.load_workbook(path, data_only=False, read_only=True)
    except (zipfile.BadZipFile, OSError, KeyError, ValueError) as exc:
        report.error("E-SHEET", f"not a readable .xlsx workbook ({type(exc).__name__}: {exc})", Position(path, 1, 1),
                     help="save the file from your spreadsheet program as an Excel workbook (.xlsx)")
        return None
    except Exception as exc:  # openpyxl raises many kinds on a damaged file; never a traceback
        report.error("E-SHEET", f"not a readable .xlsx workbook ({type(exc).__name__})", Position(path, 1, 1),
                     help="save the file from your spreadsheet program as an Excel workbook (.xlsx)")
        return None
    return values, formulas


def read_xlsx(path: Path, sheet: str | None, wanted: list[str], report: Report, at: Position) -> Grid | None:
    """One sheet: named, or named like the deck (`wanted`), or the only one."""
    books = workbook_sheets(path, report)
    if books is None:
        return None
    values, formulas = books
    try:
        return _read_sheet(path, values, formulas, sheet, wanted, report, at)
    except Exception as exc:  # noqa: BLE001 - openpyxl reads the sheet only now; a damaged one fails here
        report.error("E-SHEET", f"not a readable .xlsx workbook ({type(exc).__name__})", Position(path, 1, 1),
                     help="save the file from your spreadsheet program as an Excel workbook (.xlsx)")
        return None
    finally:
        values.close()
        formulas.close()


class _TooLarge(Exception):
    pass


def _read_sheet(path, values, formulas, sheet, wanted, report, at) -> Grid | None:
    names = values.sheetnames
    if sheet is None:
        matches = [n for n in names if n.lower() in [w.lower() for w in wanted]]
        sheet = matches[0] if matches else (names[0] if len(names) == 1 else None)
        if sheet is None:
            report.error("E-SHEET", f"{path.name} has sheets {', '.join(names)}; which one holds the cards?", at,
                         help=f"name the sheet after '#': '{path.name}#{names[0]}', or name it after the deck")
            return None
    elif sheet not in names:
        guess = difflib.get_close_matches(sheet, names, n=1)
        report.error("E-SHEET", f"{path.name} has no sheet '{sheet}'" + (f", did you mean '{guess[0]}'?" if guess else ""),
                     at, help="its sheets are " + ", ".join(names))
        return None
    try:
        rows = _bounded_rows(values[sheet])
        formula_cells = {(r + 1, c + 1) for r, row in enumerate(_bounded_rows(formulas[sheet]))
                         for c, value in enumerate(row) if isinstance(value, str) and value.startswith("=")}
        _spread_merged(values, values[sheet], rows)
    except _TooLarge:
        report.error("E-SHEET", f"sheet '{sheet}' has more than {MAX_ROWS} rows or {MAX_COLUMNS} columns (a cell far "
                     "down or right counts); cardforge reads at most that many", Position(path, 1, 1),
                     help="delete the rows and columns after the cards (and any cell far away), or split the sheet")
        return None
    return Grid(path, sheet, rows, formula_cells)


def _bounded_rows(ws) -> list[list[Any]]:
    """The rows of a read-only sheet, never past MAX_ROWS or MAX_COLUMNS: its <dimension> may claim
    any size, so it is ignored, and the rows are read one at a time (a cell at XFD1048576 stops the
    reading at row MAX_ROWS + 1).  Trailing empty rows are dropped; the rest are padded to one width."""
    ws.reset_dimensions()
    rows: list[list[Any]] = []
    for row in ws.iter_rows(values_only=True):
        if len(rows) >= MAX_ROWS or len(row) > MAX_COLUMNS:
            raise _TooLarge
        rows.append(list(row))
    while rows and not any(v is not None for v in rows[-1]):
        rows.pop()
    width = max((len(row) for row in rows), default=0)
    for row in rows:
        row.extend([None] * (width - len(row)))
    return rows


MERGED = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]{1,3}\d{1,7}):([A-Z]{1,3}\d{1,7})"')


def _spread_merged(book, ws, rows: list[list[Any]]) -> None:
    """Every cell of a merged range reads as its top-left value, within the cells that were read
    (a range to XFD1048576 costs what the sheet holds, not 17 billion cells)."""
    from openpyxl.utils.cell import coordinate_to_tuple
    with book._archive.open(ws._worksheet_path) as source:  # read-only sheets do not parse <mergeCells>
        data = source.read(MAX_UNZIPPED + 1)
    budget = MAX_ROWS * MAX_COLUMNS
    for start, end in MERGED.findall(data):
        (r0, c0), (r1, c1) = coordinate_to_tuple(start.decode()), coordinate_to_tuple(end.decode())
        if r0 > len(rows) or c0 > len(rows[r0 - 1]):
            continue
        top_left = rows[r0 - 1][c0 - 1]
        for r in range(r0, min(r1, len(rows)) + 1):
            row = rows[r - 1]
            for c in range(c0, min(c1, len(row)) + 1):
                row[c - 1] = top_left
                budget -= 1
        if budget < 0:
            raise _TooLarge


# -- typing cells by the deck's schema -----------------------------------------------------------

class CellError(Exception):
    pass


def _types(schema: dict) -> list[str]:
    if not isinstance(schema, dict):
        return []
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return list(kind)
    for key in ("enum", "const"):
        if key in schema:
            values = schema[key] if key == "enum" else [schema[key]]
            return sorted({_json_type(v) for v in values}, key=["integer", "number", "boolean", "string", "null",
                                                                 "array", "object"].index)
    return []


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def _text(value: Any) -> str:
    """A cell as text, as the spreadsheet shows it (3.0 -> '3', dates as ISO dates)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def convert(value: Any, schema: dict) -> Any:
    """A cell's value as the schema wants it; raises CellError with a message for the user."""
    types = _types(schema)
    text = _text(value).strip() if not isinstance(value, str) else value.strip()
    bad = noncharacter(text)
    if bad is not None:
        raise CellError(noncharacter_message(text[bad]))
    if "enum" in schema:
        for option in schema["enum"]:
            if _text(option) == text or (isinstance(option, str) and option.lower() == text.lower()):
                return option
        options = [_text(v) for v in schema["enum"]]
        guess = difflib.get_close_matches(text, options, n=1)
        raise CellError(f"'{text}' is not one of {', '.join(options)}" + (f"; did you mean '{guess[0]}'?" if guess else ""))
    if not types:  # a field without a type: as YAML would read it
        return _yaml(text) if text[:1] in "[{" else _scalar(value, text)
    specific = None  # an item's own error ('lo' in a list of high/low) says more than "not a list"
    for kind in types:
        try:
            return _as(kind, value, text, schema)
        except CellError as exc:
            specific = specific or (str(exc) or None)
    if specific:
        raise CellError(specific)
    wanted = " or ".join(_names[k] for k in types)
    raise CellError(f"'{text}' is not {wanted}")


_names = {"integer": "a whole number", "number": "a number", "boolean": "true or false", "string": "text",
          "array": "a list", "object": "an object ({key: value})", "null": "empty"}


def _as(kind: str, value: Any, text: str, schema: dict) -> Any:
    if kind == "integer":
        if isinstance(value, bool):
            raise CellError
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if INTEGER.match(text) or NUMBER.match(text) and _number(text).is_integer():
            return _integer(text)
        raise CellError
    if kind == "number":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value) if isinstance(value, float) and value.is_integer() else value
        if INTEGER.match(text):
            return _integer(text)
        if NUMBER.match(text):
            return _number(text)
        raise CellError
    if kind == "boolean":
        if isinstance(value, bool):
            return value
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise CellError
    if kind == "string":
        if isinstance(value, str):
            return value.replace("\r\n", "\n")
        return _text(value)
    if kind == "null":
        raise CellError
    if kind == "array":
        if text[:1] == "[":
            parsed = _yaml(text)
            if isinstance(parsed, list):
                return [_retype(item, schema.get("items", {})) for item in parsed]
            raise CellError
        items = schema.get("items", {})
        if set(_types(items)) & {"array", "object"}:
            raise CellError
        parts = [p for p in re.split(r"\s*[,\n]\s*", text) if p != ""]
        return [convert(part, items) for part in parts]
    if kind == "object":
        parsed = _yaml(text) if text[:1] == "{" else None
        if isinstance(parsed, dict):
            return parsed
        raise CellError
    raise CellError


def _number(text: str) -> float:
    """A cell's number, finite: '1e999' is no value of a game."""
    number = float(text)
    if not math.isfinite(number):
        raise CellError(f"'{text[:40]}' is too large to be a number")
    return number


def _integer(text: str) -> int:
    number = int(text) if INTEGER.match(text) and len(text) <= MAX_INT_DIGITS + 1 else int(_number(text))
    if abs(number) >= 10 ** MAX_INT_DIGITS:
        raise CellError(limit_message(f"'{text[:40]}'", f"integer size ({MAX_INT_DIGITS} digits)"))
    return number


def _retype(item: Any, schema: dict) -> Any:
    """An item parsed from YAML in a cell, typed like a cell (so "3" in a list of integers is 3)."""
    if isinstance(item, (dict, list)) or item is None:
        return item
    try:
        return convert(item, schema)
    except CellError:
        return item  # the schema check names it


def _yaml(text: str) -> Any:
    if len(text) > MAX_CELL_YAML:
        raise CellError(f"the cell holds more than {MAX_CELL_YAML} characters")
    # the reader of YAML files: bounded depth and aliases, no NaN, never recursion (`[[[[...` in a cell)
    scratch, doc = Report(), Document(path=Path("cell"), data=None)
    if not parse_yaml(doc, text, scratch) or scratch.has_errors():
        problem = scratch.errors[0].message if scratch.errors else "invalid YAML"
        raise CellError(f"cannot read the cell as YAML or JSON: {problem.removeprefix('YAML syntax error: ')}")
    return doc.data


def _scalar(value: Any, text: str) -> Any:
    if not isinstance(value, str):
        return int(value) if isinstance(value, float) and value.is_integer() else value
    if INTEGER.match(text) and len(text) <= MAX_INT_DIGITS:
        return int(text)
    if NUMBER.match(text) and math.isfinite(float(text)):
        return float(text)
    return value


# -- rows into cards -----------------------------------------------------------------------------

def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _field_schema(properties: dict, path: list[str]) -> dict | None:
    schema = properties.get(path[0])
    for part in path[1:]:
        if not isinstance(schema, dict) or part not in schema.get("properties", {}):
            return None
        schema = schema["properties"][part]
    return schema if isinstance(schema, dict) else None


def grid_document(grid: Grid, properties: dict, report: Report) -> SheetDocument | None:
    """The cards of a sheet as a document `{cards: [...]}` whose positions are cells."""
    doc = SheetDocument(grid.path)
    rows = grid.rows
    header_at = next((i for i, row in enumerate(rows) if any(not _empty(v) for v in row)), None)
    if header_at is None:
        report.error("E-SHEET", "the sheet is empty", grid.pos(1, 1),
                     help="the first row names the columns (id and the deck's fields), each further row is a card")
        return None
    header_row = header_at + 1
    columns: dict[int, list[str]] = {}
    seen: dict[str, int] = {}
    ok = True
    for index, name in enumerate(rows[header_at], 1):
        if _empty(name):
            continue
        name = _text(name).strip()
        path = name.split(".")
        if path[0] not in properties or _field_schema(properties, path) is None:
            guess = difflib.get_close_matches(name, sorted(properties), n=1)
            report.error("E-SCHEMA", f"unknown column '{name}'" + (f", did you mean '{guess[0]}'?" if guess else ""),
                         grid.pos(header_row, index),
                         help=f"{'did you mean ' + repr(guess[0]) + '? ' if guess else ''}a column is named after "
                              "one of the deck's fields or id, quantity, front, back, authored, note")
            ok = False
            continue
        if name in seen:
            report.error("E-DUPLICATE-KEY", f"column '{name}' appears twice (first in column {column_letter(seen[name])})",
                         grid.pos(header_row, index), help="remove one of the two columns")
            ok = False
            continue
        seen[name] = index
        columns[index] = path
    if "id" not in seen:
        report.error("E-SCHEMA", "the sheet has no 'id' column", grid.pos(header_row, 1),
                     help="add a column 'id' with a unique id for each card")
        return None
    cards: list[dict] = []
    for r_index in range(header_at + 1, len(rows)):
        row, number = rows[r_index], r_index + 1
        if all(_empty(v) for v in row):
            continue  # empty rows are skipped
        card: dict[str, Any] = {}
        pointer = f"/cards/{len(cards)}"
        doc.positions[pointer] = grid.pos(number, seen["id"])
        for c_index, path in columns.items():
            value = row[c_index - 1] if c_index - 1 < len(row) else None
            if _empty(value):
                if (number, c_index) in grid.formulas:
                    report.error("E-SHEET", "the formula in this cell has no saved value", grid.pos(number, c_index),
                                 help="open the workbook in your spreadsheet program and save it, so each formula's "
                                      "value is stored with it")
                    doc.failed.add(grid.pos(number, c_index))
                continue
            try:
                typed = convert(value, _field_schema(properties, path))
            except CellError as exc:
                report.error("E-SCHEMA", f"{exc} (column '{'.'.join(path)}')", grid.pos(number, c_index),
                             card=_text(row[seen["id"] - 1]) if seen["id"] - 1 < len(row) else None,
                             help=f"the deck's field '{'.'.join(path)}' takes {_wanted(_field_schema(properties, path))}")
                doc.failed.add(grid.pos(number, c_index))
                typed = _text(value)  # kept, so the rest of the card is still checked
            target, field_pointer = card, pointer
            for part in path[:-1]:
                target = target.setdefault(part, {})
                field_pointer = pointer_join(field_pointer, part)
                doc.positions.setdefault(field_pointer, grid.pos(number, c_index))
                doc.key_positions.setdefault(field_pointer, grid.pos(header_row, c_index))
            target[path[-1]] = typed
            field_pointer = pointer_join(field_pointer, path[-1])
            doc.positions[field_pointer] = grid.pos(number, c_index)
            doc.key_positions[field_pointer] = grid.pos(header_row, c_index)
        cards.append(card)
    doc.data = {"cards": cards}
    doc.positions[""] = doc.positions["/cards"] = grid.pos(header_row, 1)
    doc.broken = not ok
    return doc


def _wanted(schema: dict | None) -> str:
    if not schema:
        return "any value"
    if "enum" in schema:
        return "one of " + ", ".join(_text(v) for v in schema["enum"])
    types = _types(schema)
    return " or ".join(_names.get(t, t) for t in types) if types else "any value"


def load_sheet(path: Path, sheet: str | None, properties: dict, wanted: list[str], report: Report,
               at: Position) -> SheetDocument | None:
    """Read a .csv or .xlsx card file into a document of cards; problems go to `report`."""
    if path.suffix.lower() == ".csv":
        if sheet is not None:
            report.error("E-SHEET", f"a CSV file has one sheet; remove '#{sheet}'", at)
            return None
        grid = read_csv(path, report)
    else:
        grid = read_xlsx(path, sheet, wanted, report, at)
    return None if grid is None else grid_document(grid, properties, report)
