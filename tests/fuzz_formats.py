"""Mutation families for the formats users feed in besides YAML (issue 24), used by tests/fuzzing.py:

- sheets: a deck's cards moved into a CSV or XLSX file (as `cardforge import` reads them back),
  then one cell, the header, the sheet, the workbook's XML (a huge merged range, a far cell, a
  dimension that lies, a formula without a value) or the file's bytes changed;
- sets: a card set as communities publish it (JSON card files, a pack file, the deck's mapping);
  for the five games, a deck's card file is first converted to JSON as published;
- schema: a set's own JSON Schema given a keyword (a backtracking pattern, multipleOf, uniqueItems
  over a large array, a `$schema` that is no text, a `$ref` out or in a circle); for the five
  games, a deck's field schema in game.yaml;
- forces: force lists and the scenarios table (counts, cards, attachments, scenario and side),
  and any typed table losing a column.

Each returns a Mutation that says in one line what it did.
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import re
import zipfile
from pathlib import Path

import yaml

from fuzzing import (LOADER, REPO, Mutation, Sandbox, _Doc, _flow, _quoted, byte_edit, file_edit, yaml_edit, YAML_OPS)

# -- values --------------------------------------------------------------------------------------------

CELLS = [
    ("1e999", "1e999"), ("nan", "nan"), ("-inf", "-inf"), ("a 25-digit integer", "9" * 25),
    ("a 5000-digit integer", "7" * 5000), ("-0", "-0"), ("5000 nested [", "[" * 5000),
    ("3000 nested {a:", "{a: " * 3000), ("balanced 400-deep list", "[" * 400 + "1" + "]" * 400),
    ("a recursive alias", "&a [1, *a]"), ("an alias bomb", "{a: &a [x,x,x,x,x,x,x,x,x], b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], "
                                                          "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b], d: [*c,*c,*c,*c,*c,*c,*c,*c,*c]}"),
    ("U+FFFF", "a\uffffb"), ("U+FDD0", "\ufdd0"), ("a formula", "=1+1"), ("a formula to a far cell", "=XFD1048576"),
    ("a 30,000-character text", "x" * 30000), ("an RTL override", "\u202eevil"), ("an empty cell", ""),
    ("spaces", "   "), ("a JSON object", '{"a": 1}'), ("a list of text", "a, b, , c"), ("null", "null"),
    ("a date", "2020-02-30"), ("true", "true"), ("a NUL", "a\x00b"), ("CRLF in a cell", "a\r\nb"),
    ("unbalanced markup", "**b *i :no-such-icon: <b>"), ("a symbol", "[fire] {credit}"),
]
JSON_VALUES = [
    ("1e999", "1e999"), ("-1e999", "-1e999"), ("1e308", "1e308"), ("5e-324", "5e-324"), ("1.5e-400", "1.5e-400"),
    ("a 30-digit integer", "1" * 30), ("-0", "-0"), ("\\uffff", '"a\\uffffb"'), ("\\ufdd0", '"\\ufdd0"'),
    ("a lone surrogate", '"x\\ud800y"'), ("an escaped NUL", '"a\\u0000b"'), ("3000 nested lists", "[" * 3000 + "]" * 3000),
    ("150 nested objects", '{"a": ' * 150 + "1" + "}" * 150), ("a 200,000-character text", '"' + "w" * 200_000 + '"'),
    ("an empty object", "{}"), ("an empty list", "[]"), ("null", "null"), ("true", "true"), ("a number as text", '"12"'),
    ("a list of 20,000 numbers", json.dumps(list(range(20_000)))),
    ("HTML markup", '"<b>x</b><script>y</script><br/><font size=9>z"'), ("a symbol", '"[fire][fyre]{credit}{x}"'),
    ("NaN", "NaN"), ("Infinity", "Infinity"),
]
SCHEMA_KEYWORDS = [
    ("pattern", '"^(.*?,){20}P"'), ("pattern", '"^(a+)+$"'), ("pattern", '"(x+x+)+y"'), ("pattern", '"["'),
    ("pattern", '"' + "a?" * 200 + "a" * 200 + '"'), ("patternProperties", '{"^(.*?,){20}P": {"type": "integer"}}'),
    ("multipleOf", "1e-300"), ("multipleOf", "0"), ("multipleOf", "-2"), ("multipleOf", "1e308"), ("multipleOf", "0.1"),
    ("uniqueItems", "true"), ("maxItems", "-1"), ("minLength", "1e308"), ("maxLength", "1e999"), ("minimum", "1e999"),
    ("$schema", "[]"), ("$schema", "7"), ("$schema", '"http://example.com/unknown"'),
    ("$schema", '"http://json-schema.org/draft-04/schema#"'), ("$schema", '"http://json-schema.org/draft-07/schema#"'),
    ("$ref", '"#"'), ("$ref", '"#/nowhere"'), ("$ref", '"https://example.com/x.json"'), ("$ref", '"../../../outside/secret.yaml"'),
    ("$ref", '"#/properties"'), ("allOf", '[{"$ref": "#"}]'), ("$id", "[]"), ("$id", '"http://evil.example/"'),
    ("format", '"regex"'), ("format", '"date-time"'), ("enum", "[]"), ("const", '{"a": [1]}'), ("type", '"nonsense"'),
    ("type", "[]"), ("items", "false"), ("additionalProperties", "false"), ("required", json.dumps(["x"] * 3)),
    ("if", '{"$ref": "#"}'), ("dependentSchemas", '{"a": {"$ref": "#"}}'), ("$dynamicRef", '"#meta"'),
    ("$defs", '{"d": ' + '{"items": ' * 120 + "{}" + "}" * 120 + "}"), ("not", "{}"), ("contains", '{"const": 1}'),
]


def _cell_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _deck_files(box: Sandbox) -> list[Path]:
    """The YAML card files named in game.yaml (a deck's `cards:`), with a `cards:` list inside."""
    text = (box.game / "game.yaml").read_text("utf-8")
    found = []
    for rel in re.findall(r"[\w./-]+\.ya?ml", text):
        path = box.game / rel
        if path.is_file() and not path.is_symlink() and "cards" in path.read_text("utf-8")[:10_000]:
            found.append(path)
    return sorted(set(found))


def _cards_of(path: Path) -> list[dict] | None:
    try:
        data = yaml.load(path.read_text("utf-8"), Loader=LOADER)
    except (yaml.YAMLError, UnicodeDecodeError):
        return None
    cards = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(cards, list) or not cards or not all(isinstance(c, dict) for c in cards):
        return None
    return cards


def _move(box: Sandbox, path: Path, new: Path) -> None:
    """Point game.yaml at `new` instead of the YAML card file `path`."""
    game = box.game / "game.yaml"
    old_rel, new_rel = path.relative_to(box.game).as_posix(), new.relative_to(box.game).as_posix()
    game.write_text(game.read_text("utf-8").replace(old_rel, new_rel, 1), "utf-8")
    path.unlink()


# -- sheets --------------------------------------------------------------------------------------------

def _table(cards: list[dict]) -> tuple[list[str], list[list[str]]]:
    columns: list[str] = []
    for card in cards:
        columns += [k for k in card if k not in columns]
    return columns, [[_cell_value(card.get(c)) for c in columns] for card in cards]


def _write_xlsx(path: Path, sheet: str, columns: list[str], rows: list[list[str]], edit) -> str:
    from openpyxl import Workbook
    big = len(rows) > 5000  # written row by row: 20,000 rows in a second, not ten
    book = Workbook(write_only=big)
    ws = book.create_sheet(sheet[:31]) if big else book.active
    ws.title = sheet[:31]
    ws.append([_typed(v) for v in columns])
    for row in rows:
        ws.append([_typed(v) for v in row])
    detail = "" if big else edit(ws, book)
    book.properties.created = book.properties.modified = datetime.datetime(2020, 1, 1)
    book.save(path)
    _rewrite_zip(path, lambda name, data: data)  # fixed entry times: the same seed makes the same bytes
    return detail


def _typed(text: str):
    """A cell's value as a spreadsheet program saves it: numbers as numbers, and no character that
    XML cannot hold (a workbook cannot carry a NUL or U+FFFF; CSV files get those)."""
    if re.fullmatch(r"-?\d{1,15}", text):
        return int(text)
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]", "", text)


def _sheet_cell(rng, columns, rows):
    r = rng.randrange(len(rows))
    c = rng.randrange(len(columns))
    label, value = rng.choice(CELLS)
    return r, c, label, value


def _sheets_family(box: Sandbox, rng) -> Mutation:
    files = [p for p in _deck_files(box) if _cards_of(p)]
    if not files:
        return yaml_edit(box, box.game / "game.yaml", rng, "sheets")
    path = rng.choice(files)
    columns, rows = _table(_cards_of(path))
    kind = rng.choice(("csv", "xlsx"))
    new = path.with_suffix("." + kind)
    op = rng.choice(("cell", "cell", "cell", "header", "rows", "bytes", "structure"))
    detail = f"cards of {path.name} as {kind.upper()}; "
    if op in ("cell", "header"):
        r, c, label, value = _sheet_cell(rng, columns, rows)
        if op == "cell":
            rows[r][c] = value
            detail += f"cell {columns[c]} of row {r + 2} set to {label}"
        else:
            columns[c] = rng.choice(("", "id", columns[0], "sight..clock", "x" * 300, "a.b.c.d", "=1", "\ufeffid", "quantity"))
            detail += f"header {c + 1} renamed to {columns[c][:20]!r}"
    elif op == "rows":
        n = rng.choice((0, 300, 20_001))
        rows = rows[:1] * n
        detail += f"{n} copies of the first row"
    if kind == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator=rng.choice(("\n", "\r\n")))
        writer.writerow(columns)
        writer.writerows(rows)
        data = buffer.getvalue().encode("utf-8", "surrogatepass")
        if op == "structure":
            how = rng.choice(("semicolons", "unbalanced quote", "ragged rows", "one column", "BOM"))
            text = buffer.getvalue()
            data = {"semicolons": text.replace(",", ";"), "unbalanced quote": text.replace(",", ',"', 1),
                    "ragged rows": text.replace("\n", ",extra,cells\n", 3), "one column": text.split("\n", 1)[0],
                    "BOM": "\ufeff\ufeff" + text}[how].encode("utf-8")
            detail += how
        new.write_bytes(data)
    else:
        def edit(ws, book):
            if op != "structure":
                return ""
            how = rng.choice(("huge merge", "far cell", "formula", "second sheet", "renamed sheet", "merged header"))
            if how in ("huge merge", "far cell"):
                pass  # written into the XML afterwards: openpyxl itself would build 17 billion cells
            elif how == "formula":
                ws.cell(row=2, column=1 + rng.randrange(ws.max_column)).value = "=SUM(A1:XFD1048576)"
            elif how == "second sheet":
                book.create_sheet("Other").append(["id"])
            elif how == "renamed sheet":
                ws.title = "Not the deck"
                book.create_sheet("Another")
            else:
                ws.merge_cells("A1:C1")
            return how
        detail += _write_xlsx(new, path.stem, columns, rows, edit)
        if detail.endswith(("huge merge", "far cell")):
            reach_far(new, "merge" if detail.endswith("huge merge") else "cell")
        if op == "structure" and rng.random() < 0.3:
            detail += "; " + _lie_about_dimension(new)
    _move(box, path, new)
    if op == "bytes":
        return byte_edit(box, new, rng, "sheets")
    return Mutation("sheets", op, box.rel(new), detail)


def _rewrite_zip(path: Path, change) -> None:
    with zipfile.ZipFile(path) as zin:
        items = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in items:
            if name == "docProps/core.xml":  # openpyxl stamps the time of saving
                data = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"2020-01-01T00:00:00Z", data)
            zout.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), change(name, data),
                          compress_type=zipfile.ZIP_DEFLATED)


def reach_far(path: Path, how: str) -> None:
    """Give a saved workbook's sheets a merged range to XFD1048576 ("merge") or a cell there ("cell"),
    by editing its XML: the file stays small, only a reader that trusts it allocates the range."""
    def edit(name: str, data: bytes) -> bytes:
        if not name.startswith("xl/worksheets/sheet"):
            return data
        if how == "merge":
            return data.replace(b"</sheetData>", b'</sheetData><mergeCells count="1"><mergeCell ref="B2:XFD1048576"/>'
                                b"</mergeCells>", 1)
        return data.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far</t></is>'
                            b"</c></row></sheetData>", 1)
    _rewrite_zip(path, edit)


def _lie_about_dimension(path: Path) -> str:
    """Rewrite the sheet's <dimension ref> to claim every cell of the sheet is used."""
    _rewrite_zip(path, lambda name, data: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', data)
                 if name.startswith("xl/worksheets/") else data)
    return "dimension claims A1:XFD1048576"


# -- sets (JSON as published) ------------------------------------------------------------------------

def _json_paths(value, at=()):
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_paths(v, at + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _json_paths(v, at + (i,))


def json_edit(box: Sandbox, path: Path, rng, family: str) -> Mutation:
    """One value of a JSON file replaced by raw JSON text (which may be no valid JSON at all)."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return byte_edit(box, path, rng, family)
    paths = [p for p in _json_paths(data) if p]
    op = rng.choice(("value", "value", "delete-key", "duplicate-key", "rename-key"))
    if not paths:
        op = "root"
    target = rng.choice(paths) if paths else ()
    marker = "\u0001FUZZ\u0001"
    parent = data
    for step in target[:-1]:
        parent = parent[step]
    last = target[-1] if target else None
    if op == "value" or op == "root" or (op != "value" and not isinstance(last, str)):
        label, raw = rng.choice(JSON_VALUES)
        if target:
            parent[last] = marker
        text = json.dumps(data if target else marker, indent=2, ensure_ascii=False).replace(json.dumps(marker), raw)
        detail = f"value at {'/'.join(map(str, target))} replaced by {label}"
        op = "value"
    elif op == "delete-key":
        del parent[last]
        text = json.dumps(data, indent=2, ensure_ascii=False)
        detail = f"deleted key {'/'.join(map(str, target))}"
    elif op == "duplicate-key":
        parent[last] = marker
        text = json.dumps(data, indent=2, ensure_ascii=False).replace(json.dumps(marker), '1, "%s": "again"' % last)
        detail = f"duplicated key {'/'.join(map(str, target))}"
    else:
        value = parent.pop(last)
        new_key = rng.choice(("", "__proto__", last.upper(), last + "_x", "$ref", "x" * 300))
        parent[new_key] = value
        text = json.dumps(data, indent=2, ensure_ascii=False)
        detail = f"key {'/'.join(map(str, target))} renamed to {new_key[:20]!r}"
    path.write_text(text, "utf-8", errors="surrogatepass")
    return Mutation(family, op, box.rel(path), detail)


def _to_json(box: Sandbox, rng) -> Path | None:
    """A deck's YAML card file converted into a bare JSON list of cards, as a set publishes it."""
    files = [p for p in _deck_files(box) if _cards_of(p)]
    if not files:
        return None
    path = rng.choice(files)
    new = path.with_suffix(".json")
    new.write_text(json.dumps(_cards_of(path), indent=2, ensure_ascii=False, default=str), "utf-8")
    _move(box, path, new)
    return new


def _sets_family(box: Sandbox, rng) -> Mutation:
    jsons = sorted(p for p in box.game.rglob("*.json") if p.is_file() and not p.name.endswith(".schema.json"))
    if not jsons:
        converted = _to_json(box, rng)
        if converted is None:
            return yaml_edit(box, box.game / "game.yaml", rng, "sets")
        jsons = [converted]
    roll = rng.random()
    if roll < 0.15:  # the deck's mapping: id_from, rename, drop, join, markup
        return yaml_edit(box, box.game / "game.yaml", rng, "sets", dict(YAML_OPS, mapping=_mapping))
    path = rng.choice(jsons)
    if roll < 0.25:
        return byte_edit(box, path, rng, "sets")
    if roll < 0.3:
        return file_edit(box, path, rng, "sets")
    return json_edit(box, path, rng, "sets")


def _mapping(doc: _Doc, rng) -> str:
    keys = ("id_from", "rename", "drop", "join", "key", "match", "fields", "file", "symbols", "icons", "tags", "html", "schema")
    found = [t for t in doc.pairs() if isinstance(t[2], yaml.ScalarNode) and t[2].value in keys] or doc.pairs()
    node, _, key = rng.choice(found)
    new = rng.choice(("'code'", "name", "[]", "{}", "1", "'<name>'", "'[name]'", "{a: b, b: a}", "{code: id}", "[code, id]",
                      "'../outside/secret.yaml'", "'packs/nope.json'", "{credit: ../../x}", "{x: none}", "null", "true"))
    return f"{getattr(key, 'value', 'value')} at {doc.set(node, new)} set to {new}"


# -- schema ----------------------------------------------------------------------------------------------

def _schema_family(box: Sandbox, rng) -> Mutation:
    schemas = sorted(box.game.rglob("*.schema.json"))
    keyword, raw = rng.choice(SCHEMA_KEYWORDS)
    if not schemas:  # a deck's field schema in game.yaml is JSON Schema too
        doc = _Doc(box.game / "game.yaml")
        fields = [t for t in doc.pairs() if isinstance(t[2], yaml.ScalarNode) and t[2].value == "fields"
                  and isinstance(t[0], yaml.MappingNode) and t[0].value]
        if not fields:
            return yaml_edit(box, box.game / "game.yaml", rng, "schema")
        field_key, field = rng.choice(rng.choice(fields)[0].value)
        body = _flow(field)[1:-1] if isinstance(field, yaml.MappingNode) else ""
        new = "{" + (body + ", " if body else "") + f"{_quoted(keyword)}: {raw}" + "}"
        doc.set(field, new)
        doc.save()
        return Mutation("schema", "field", box.rel(doc.path), f"field '{field_key.value}' given {keyword}: {raw[:50]}")
    path = rng.choice(schemas)
    try:
        data = json.loads(path.read_text("utf-8"))
    except ValueError:
        return byte_edit(box, path, rng, "schema")
    subs = [p for p in _json_paths(data) if _at(data, p).__class__ is dict]
    target = rng.choice(subs)
    sub = _at(data, target)
    marker = "\u0001FUZZ\u0001"
    sub[keyword] = marker
    path.write_text(json.dumps(data, indent=2).replace(json.dumps(marker), raw), "utf-8")
    if keyword in ("uniqueItems", "contains") and rng.random() < 0.5:
        _big_array(box, rng)
    return Mutation("schema", "keyword", box.rel(path), f"{keyword}: {raw[:50]} at /{'/'.join(map(str, target))}")


def _at(data, path):
    for step in path:
        data = data[step]
    return data


def _big_array(box: Sandbox, rng) -> None:
    """A card given a large array, for the keywords that compare its items."""
    jsons = sorted(p for p in box.game.rglob("*.json") if not p.name.endswith(".schema.json"))
    for path in jsons:
        text = path.read_text("utf-8")
        if '"code"' in text:
            items = json.dumps([[i % 7, {"k": i}] for i in range(rng.choice((2000, 30_000)))])
            path.write_text(text.replace('"code"', f'"big": {items}, "code"', 1), "utf-8")
            return


# -- forces, scenarios and tables -------------------------------------------------------------------

FORCE_EDITS = {
    "count": ("0", "-1", "1000000", "1e999", "'3'", "2.5", "null"),
    "card": ("nope", "''", "'../x'", "z-tokyo", "{a: 1}"),
    "attach_to": ("nope", "''", "[]"),
    "scenario": ("nope", "''", "[pacific]", "1"),
    "side": ("nope", "axis", "allied", "''", "null"),
    "year": ("0", "99999", "-44", "1e999", "'1944'"),
    "id": ("''", "'../../x'", "'a b'", "pacific-axis"),
}


def _force_edit(doc: _Doc, rng) -> str:
    pairs = [t for t in doc.pairs() if isinstance(t[2], yaml.ScalarNode) and t[2].value in FORCE_EDITS]
    if not pairs:
        return YAML_OPS["swap-type"](doc, rng)
    node, _, key = rng.choice(pairs)
    if key.value == "attach_to" or rng.random() < 0.2 and key.value == "card":
        cards = [t[0].value for t in doc.pairs() if getattr(t[2], "value", None) == "card" and isinstance(t[0], yaml.ScalarNode)]
        new = rng.choice(cards + list(FORCE_EDITS[key.value])) if cards else rng.choice(FORCE_EDITS[key.value])
    else:
        new = rng.choice(FORCE_EDITS[key.value])
    return f"{key.value} at {doc.set(node, new)} set to {new}"


def _many_picks(doc: _Doc, rng) -> str:
    seqs = [t for t in doc.pairs() if getattr(t[2], "value", None) == "picks" and isinstance(t[0], yaml.SequenceNode) and t[0].value]
    if not seqs:
        return YAML_OPS["delete-key"](doc, rng)
    node = seqs[0][0]
    n = rng.choice((500, 5000, 60_000))
    item = _flow(node.value[0])
    where = doc.set(node, "[" + ", ".join([item] * n) + "]")
    return f"picks at {where} replaced by {n} copies of the first"


def _drop_column(doc: _Doc, rng) -> str:
    """One key removed from every row of a table (`rows:`), as a column deleted in a spreadsheet."""
    rows = [t[0] for t in doc.pairs() if getattr(t[2], "value", None) == "rows" and isinstance(t[0], yaml.SequenceNode)]
    keys = sorted({k.value for seq in rows for row in seq.value if isinstance(row, yaml.MappingNode) for k, _ in row.value})
    if not keys:
        return YAML_OPS["delete-key"](doc, rng)
    column = rng.choice(keys)
    data = yaml.load(doc.text, Loader=LOADER)
    count = 0
    for table in _tables_in(data):
        for row in table:
            if isinstance(row, dict) and column in row:
                del row[column]
                count += 1
    doc.text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return f"column '{column}' removed from {count} rows"


def _tables_in(data):
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "rows" and isinstance(value, list):
                yield value
            else:
                yield from _tables_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _tables_in(value)


FORCE_OPS = {"force": _force_edit, "many-picks": _many_picks, "drop-column": _drop_column}


def forces_pool(games) -> list[str]:
    """The games with force lists or tables (what this family mutates)."""
    out = []
    for game in games:
        path = REPO / "content" / game / "game.yaml"
        if path.is_file() and re.search(r"(?m)^(forces|tables):", path.read_text("utf-8")):
            out.append(game)
    return out


def _forces_family(box: Sandbox, rng) -> Mutation:
    forces = sorted((box.game / "forces").glob("*.yaml")) if (box.game / "forces").is_dir() else []
    tables = sorted((box.game / "tables").glob("*.yaml")) if (box.game / "tables").is_dir() else []
    pool = forces + tables + [box.game / "game.yaml"]
    path = rng.choice(pool)
    roll = rng.random()
    if roll < 0.1:
        return file_edit(box, path, rng, "forces")
    ops = FORCE_OPS if roll < 0.7 else dict(YAML_OPS)
    if path in tables or path.name == "game.yaml":
        ops = {"drop-column": _drop_column, **YAML_OPS} if roll < 0.7 else dict(YAML_OPS)
    return yaml_edit(box, path, rng, "forces", ops)


FORMAT_FAMILIES = {"sheets": _sheets_family, "sets": _sets_family, "schema": _schema_family, "forces": _forces_family}
