"""Rulebook facts, stated independently of the content, and the content compared with them.

`facts:` in rules.yaml holds the rulebook's numbers, lists and tables as data, each citing its
section. Every expression sees them as `facts.<name>`, so a check can say `count(groups.crew) ==
facts.crew_cards`. A `compare:` rule holds a list in the content against a fact that is a list,
cell by cell: every row of the fact must be there with the same values (also the rows no shipped
piece uses), in the fact's order, and no row the fact lacks. The content is a table of game.yaml,
a list in a board's data, the cards of a group, a list in one card's field, or the decks.

A fact that no rule reads is a warning (W-FACT-UNUSED): a fact is there to be checked against.
"""
from __future__ import annotations

import re
from typing import Any

from ..diagnostics import Position
from ..frontend.load import pointer_join
from .paths import get_path
from .positions import _guess, card_pos
from .scopes import deck_view, scope_position
from .textmatch import h_has_word

SOURCES = ("table", "board", "group", "card", "decks")
NOT_COMPARED = ("section", "note")
FACT_USE = re.compile(r"\bfacts\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")


def fact_values(data: dict) -> dict[str, Any]:
    """`facts` as expressions see them: name -> value."""
    return {name: spec.get("value") for name, spec in (data.get("facts") or {}).items() if isinstance(spec, dict)}


def _strings(value: Any, pointer: str):
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, pointer_join(pointer, str(key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{pointer}/{i}")


def compile_facts(rules) -> None:
    """Static checks: facts named by expressions and compare rules exist; every fact is read;
    every compare rule names one content source that exists, and a fact that is a list."""
    facts = rules.data.get("facts") or {}
    used: set[str] = set()
    for key, value in rules.data.items():
        if key == "facts":
            continue
        for pointer, text in _strings(value, "/" + key):
            for match in FACT_USE.finditer(text):
                name = match.group(1) or match.group(2)
                used.add(name)
                if name not in facts:
                    rules.problem("E-RULES-REF", f"unknown fact '{name}'", pointer, needle=name,
                                  help=_guess(name, facts) + "facts are defined under 'facts:'")
    for i, spec in enumerate(rules.data.get("compare") or []):
        pointer = f"/compare/{i}"
        rules._rule_id(spec["id"], pointer + "/id")
        used.add(spec["fact"])
        _compile_compare(rules, pointer, spec, facts)
    for name in facts:
        if name not in used:
            rules.report.warning("W-FACT-UNUSED", f"fact '{name}' is read by no rule, so nothing checks the content "
                                 "against it", rules.doc.pos(pointer_join("/facts", name), key=True),
                                 help="compare the content with it (compare: or facts." + name + " in a check), "
                                 "or remove it")


def _compile_compare(rules, pointer: str, spec: dict, facts: dict) -> None:
    fact = facts.get(spec["fact"])
    if fact is None:
        rules.problem("E-RULES-REF", f"unknown fact '{spec['fact']}'", pointer + "/fact",
                      help=_guess(spec["fact"], facts) + "facts are defined under 'facts:'")
        return
    value = fact.get("value")
    if not isinstance(value, list) or not value:
        rules.problem("E-RULES", f"fact '{spec['fact']}' is not a list, so there is nothing to compare row by row",
                      pointer + "/fact", help="compare a list (a sequence, or a table of rows); check a single "
                      "number with facts." + spec["fact"] + " in a check")
        return
    given = [s for s in SOURCES if s in spec]
    if len(given) != 1:
        rules.problem("E-RULES", "a compare rule names one content source: " + " / ".join(SOURCES) +
                      (f", not {len(given)} ({', '.join(given)})" if given else ""), pointer + "/id", key=True,
                      help="e.g. table: weapons, or board: map with data: targets, or group: crew")
        return
    source = given[0]
    game = rules.game
    known = {"table": set(game.tables), "board": {b.id for b in game.boards}, "group": set(rules.groups),
             "card": set(rules.by_id), "decks": {True}}[source]
    if spec[source] not in known:
        rules.problem("E-RULES-REF", f"unknown {source} '{spec[source]}'", f"{pointer}/{source}",
                      help=_guess(spec[source], known) + f"{source}s: {', '.join(sorted(map(str, known)))}")
        return
    needs = {"board": "data", "card": "field"}.get(source)
    if needs and needs not in spec:
        rules.problem("E-RULES", f"{source}: needs '{needs}' (the path of the list in it)", f"{pointer}/{source}",
                      key=True)
        return
    rows = [r for r in value if isinstance(r, dict)]
    if rows and len(rows) != len(value):
        rules.problem("E-RULES", f"fact '{spec['fact']}' mixes rows and plain values", pointer_join(
            "/facts", spec["fact"]) + "/value", help="make every item a row (a mapping), or none")
        return
    names = set().union(*(r.keys() for r in rows)) if rows else set()
    key = spec.get("key")
    if key is not None and (not rows or any(key not in r for r in rows)):
        rules.problem("E-RULES-FIELD", f"key '{key}' is not in every row of fact '{spec['fact']}'", pointer + "/key",
                      help=_guess(key, names) + f"fields: {', '.join(sorted(names)) or 'none (plain values)'}")
        return
    fields = spec.get("fields")
    wanted = (list(fields) if fields is not None else []) + list(spec.get("contains") or []) + list(
        spec.get("unordered") or [])
    for name in wanted:
        if name not in names:
            rules.problem("E-RULES-FIELD", f"fact '{spec['fact']}' has no field '{name}'", pointer + "/fields",
                          needle=name, help=_guess(name, names) + f"fields: {', '.join(sorted(names))}")
    if "where" in spec:
        base = {"cards", "groups", "values", "facts", "game", "group", "tables", "decks", "boards", "templates", "true",
                "false", "none", "True", "False", "None"}
        rules.compiled[pointer + "/where"] = rules.expr(pointer + "/where", base | {"row", "index"}, {})


# -- running -------------------------------------------------------------------------------------

class _Source:
    """The content's rows and where each cell is written."""

    def __init__(self, rules, spec: dict):
        self.rules, self.spec, self.game = rules, spec, rules.game
        self.kind = next(s for s in SOURCES if s in spec)
        self.cards = []
        if self.kind == "table":
            self.rows = list(self.game.tables[spec["table"]])
            self.table = self.game.tables[spec["table"]].table
            self.what = f"table '{spec['table']}'"
        elif self.kind == "board":
            self.board = next(b for b in self.game.boards if b.id == spec["board"])
            got = get_path(self.board.data, spec["data"].replace("/", "."))
            self.rows = got if isinstance(got, list) else []
            self.what = f"board '{spec['board']}' {spec['data']}"
        elif self.kind == "group":
            self.cards = rules._members(spec["group"])
            self.rows = [rules._view(c) for c in self.cards]
            self.what = f"group '{spec['group']}'"
        elif self.kind == "card":
            self.card = rules.by_id[spec["card"]]
            got = get_path(rules._view(self.card), spec["field"])
            self.rows = got if isinstance(got, list) else []
            self.what = f"card '{spec['card']}' {spec['field']}"
        else:
            self.decks = list(self.game.decks)
            self.rows = [deck_view(d) for d in self.decks]
            self.what = "the decks"

    def pos(self, index: int, path: str | None) -> Position:
        """Where row `index` (and its field `path`, a dotted path) is written."""
        sub = "/".join(p for p in (path or "").replace(".", "/").split("/") if p)
        if self.kind == "table":
            if self.table is None:
                return self.game.doc.pos(pointer_join("/tables", self.spec["table"]))
            if "/" in sub:
                return self.table.doc.pos(f"{self.table.pointer}/{self.table.indices[index] if self.table.indices else index}"
                                          + "".join("/" + p for p in sub.split("/")))
            return self.table.row_pos(index, sub or None)
        if self.kind == "board":
            return scope_position(self.game, self.board, "board", f"{self.spec['data']}/{index}/{sub}".rstrip("/"))
        if self.kind == "group":
            return card_pos(self.cards[index], sub or None)
        if self.kind == "card":
            return card_pos(self.card, f"{self.spec['field'].replace('.', '/')}/{index}/{sub}".rstrip("/"))
        deck = self.decks[index]
        return scope_position(self.game, deck, "deck", sub if sub in ("size", "shape", "name", "front", "back") else "")

    def whole(self) -> Position:
        """Where the list itself is (a row the fact has and the content lacks is reported there)."""
        if self.kind == "table":
            table = self.table
            return table.doc.pos(table.pointer) if table else self.game.doc.pos(pointer_join("/tables", self.spec["table"]))
        if self.kind == "board":
            return scope_position(self.game, self.board, "board", self.spec["data"])
        if self.kind == "group":
            decks = self.rules._decks_of(self.spec["group"])
            deck = next((d for d in self.game.decks if d.id in decks), None)
            return self.game.doc.pos(deck.pointer) if deck else self.game.doc.pos("")
        if self.kind == "card":
            return card_pos(self.card, self.spec["field"])
        return self.game.doc.pos("/decks")


def _norm(value: Any, unordered: bool = False) -> Any:
    """A value as compared: numbers as floats, text with its spaces and dashes evened out; a list in
    order, or (`unordered`: a set the content writes as a list) sorted."""
    if unordered and isinstance(value, list):
        return tuple(sorted((_norm(v) for v in value), key=repr))
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return " ".join(value.replace("\u2013", "-").replace("\u2014", "-").split())
    if isinstance(value, list):
        return tuple(_norm(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _norm(v)) for k, v in value.items()))
    return value


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if value is None:
        return "nothing"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def run_compare(rules, i: int, spec: dict, base: dict) -> None:
    """Hold the content against the fact; a failing `where` raises RulesProblem (the rule stops)."""
    pointer = f"/compare/{i}"
    fact_spec = rules.data["facts"][spec["fact"]]
    fact, fact_section = fact_spec["value"], fact_spec["section"]
    rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
    source = _Source(rules, spec)
    label = spec.get("label", "row")
    key = spec.get("key")
    plain = not isinstance(fact[0], dict)
    fields = spec.get("fields")
    mapping = dict(fields) if isinstance(fields, dict) else {f: f for f in (fields or [])}
    where = rules.compiled.get(pointer + "/where")

    def content_path(name: str) -> str:
        return mapping.get(name, name)

    def emit(message: str, pos: Position, row_section: str | None = None, help_: str | None = None) -> None:
        rules._emit(severity, rule, message, pos, help_ or "correct the content, or the fact if the rulebook says "
                    "otherwise", None, f"{row_section or fact_section}")

    content: list[tuple[int, Any]] = []
    for index, row in enumerate(source.rows):
        if where is not None and not rules.evaluate(where, dict(base, row=row, index=index),
                                                    f"{rule} 'where' on row {index + 1}"):
            continue
        content.append((index, row))

    def value_of(row: Any, name: str | None) -> Any:
        if plain:
            return get_path(row, spec["column"]) if "column" in spec else row
        return get_path(row, content_path(name)) if isinstance(row, dict) else None

    def name_of(fact_row: Any, position: int) -> str:
        if plain:
            return _show(fact_row)
        if key is not None:
            return f"{label} {_show(fact_row[key])}"
        return f"{label} {position + 1}"

    if key is None:  # matched by position: an ordered sequence
        pairs = list(zip(range(len(fact)), content))
        for n, (index, row) in pairs:
            _compare_row(fact[n], row, index, name_of(fact[n], n), source, spec, plain, mapping, key, emit, value_of)
        for n in range(len(content), len(fact)):
            emit(f"{source.what} has {len(content)} {label}s; the rulebook has {len(fact)}: "
                 f"{name_of(fact[n], n)} ({_describe(fact[n])}) is missing", source.whole(),
                 _row_section(fact[n]), "add the missing rows in the rulebook's order")
        if spec.get("extra", "error") == "error":
            for index, row in content[len(fact):]:
                emit(f"{source.what} has {len(content)} {label}s; the rulebook has {len(fact)}, so {label} "
                     f"{_show(value_of(row, None) if plain else row.get(content_path(next(iter(fact[0])))))} "
                     "is one too many", source.pos(index, None if plain else content_path(next(iter(fact[0])))))
        return

    want = {_norm(r[key]): (n, r) for n, r in enumerate(fact)}
    seen: dict[Any, int] = {}
    last_index, last_name = -1, None
    for index, row in content:
        raw = value_of(row, key)
        norm = _norm(raw)
        where_key = content_path(key)
        if norm not in want:
            if spec.get("extra", "error") == "error":
                emit(f"{source.what}: {label} {_show(raw)} is not in the rulebook's table "
                     f"({', '.join(_show(r[key]) for r in fact)})", source.pos(index, where_key),
                     help_="remove the row, or correct its " + where_key)
            continue
        n, fact_row = want[norm]
        if norm in seen:
            emit(f"{source.what}: {label} {_show(raw)} is there twice (rows {seen[norm] + 1} and {index + 1}); the "
                 "rulebook has it once", source.pos(index, where_key), _row_section(fact_row))
            continue
        seen[norm] = index
        if spec.get("order", True) and n < last_index:
            emit(f"{source.what}: {label} {_show(raw)} comes after {last_name}, but the rulebook puts it before: "
                 + ", ".join(_show(r[key]) for r in fact), source.pos(index, where_key), _row_section(fact_row),
                 "put the rows in the rulebook's order")
        if n > last_index:
            last_index, last_name = n, f"{label} {_show(raw)}"
        _compare_row(fact_row, row, index, name_of(fact_row, n), source, spec, plain, mapping, key, emit, value_of)
    for norm, (n, fact_row) in want.items():
        if norm not in seen:
            emit(f"{source.what} has no {label} {_show(fact_row[key])}; the rulebook's table has it "
                 f"({_describe(fact_row)})", source.whole(), _row_section(fact_row),
                 "add the row (a rulebook row no shipped piece uses is still part of the table)")


def _row_section(row: Any) -> str | None:
    return row.get("section") if isinstance(row, dict) else None


def _describe(row: Any) -> str:
    if not isinstance(row, dict):
        return _show(row)
    return ", ".join(f"{k}: {_show(v)}" for k, v in row.items() if k not in NOT_COMPARED)


def _compare_row(fact_row, row, index, name, source, spec, plain, mapping, key, emit, value_of) -> None:
    if plain:
        got = value_of(row, None)
        if _norm(got) != _norm(fact_row):
            emit(f"{source.what}: {spec.get('label', 'row')} {index + 1} is {_show(got)}, but the rulebook has "
                 f"{_show(fact_row)} there", source.pos(index, spec.get("column")))
        return
    names = list(mapping) if mapping else [k for k in fact_row if k not in NOT_COMPARED]
    for field in names:
        if field == key or field not in fact_row:
            continue
        path = mapping.get(field, field)
        got = value_of(row, field)
        if field in (spec.get("contains") or []):  # printed text that must contain the rulebook's words
            # as whole words: a cost of "14" does not say the rulebook's "4"
            if not h_has_word(str(_norm(got)), str(_norm(fact_row[field])), case=False):
                emit(f"{source.what}: {name}: {path} is {_show(got)}, which does not say "
                     f"{_show(fact_row[field])} as the rulebook does", source.pos(index, path), _row_section(fact_row))
        elif _norm(got, field in (spec.get("unordered") or [])) != _norm(fact_row[field], field in (
                spec.get("unordered") or [])):
            emit(f"{source.what}: {name}: {path} is {_show(got)}, but the rulebook says {_show(fact_row[field])}",
                 source.pos(index, path), _row_section(fact_row))
