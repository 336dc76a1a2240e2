"""The rules file checked and compiled: every name, field, group and card it uses must exist;
a mistake is reported at its line and column in rules.yaml before any rule runs."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Report
from ..frontend.load import Document, pointer_join
from ..frontend.model import Card, Game
from .expressions import HELPERS, Expr, ExpressionError, MessageTemplate
from .facts import compile_facts
from .positions import _guess, refine
from .scopes import SCOPES

COMMON_FIELDS = ("id", "quantity", "authored", "changed", "note", "series", "variants")
RESERVED_PREFIXES = ("E-", "W-")


class RulesProblem(Exception):
    pass


@dataclass
class Compiled:
    expr: Expr
    pointer: str  # where it is in rules.yaml


@dataclass
class Group:
    name: str
    decks: list[str]
    where: Compiled | None
    members: list[dict] = field(default_factory=list)  # card views


class RuleCompiler:
    """A loaded rules file, statically checked and compiled (see run.RuleSet for running it)."""

    def __init__(self, game: Game, doc: Document, report: Report):
        self.game, self.doc, self.report = game, doc, report
        self.data: dict = doc.data
        self.ok = True
        self.cards: list[Card] = game.records()
        self.by_id = {card.id: card for card in self.cards}
        self.deck_fields = {deck.id: set(deck.fields) | set(deck.declared) | set(COMMON_FIELDS) for deck in game.decks}
        self.all_fields = set().union(*self.deck_fields.values()) if self.deck_fields else set(COMMON_FIELDS)
        self.groups: dict[str, Group] = {}
        self.value_names: list[str] = []
        self.derived_names: set[str] = set()
        self.values: dict[str, Any] = {}
        self.views: dict[str, dict] = {}
        self.compiled: dict[str, Compiled | MessageTemplate] = {}
        self._reported: set[tuple] = set()
        self._failed: set[str] = set()
        self._over_limit: set[str] = set()  # expressions that hit a time or size limit: not run again
        self._ids: dict[str, str] = {}
        self.per_item: dict[str, list[str]] = {}
        self._compile_all()

    # -- static checks of the rules file --------------------------------------------------

    def problem(self, code: str, message: str, pointer: str, needle: str | None = None, key: bool = False,
                help: str | None = None) -> None:
        self.ok = False
        pos = refine(self.doc.pos(pointer, key=key), needle)
        if (code, pos, message) in self._reported:
            return
        self._reported.add((code, pos, message))
        self.report.error(code, message, pos, help=help, pointer=pointer)

    def _rule_id(self, rule_id: str, pointer: str) -> None:
        if rule_id.startswith(RESERVED_PREFIXES):
            self.problem("E-RULES-ID", f"rule id '{rule_id}' starts with a prefix cardforge reserves "
                         "for its own diagnostics", pointer, help="start it with the game's initials, e.g. BB-")
        elif rule_id in self._ids:
            self.problem("E-RULES-ID", f"rule id '{rule_id}' is already used (line {self._ids[rule_id]})", pointer,
                         help="give every rule its own id")
        else:
            self._ids[rule_id] = str(self.doc.pos(pointer).line)

    def _decks_of(self, group: str | None) -> list[str]:
        if group is None or group not in self.groups:
            return [deck.id for deck in self.game.decks]
        return self.groups[group].decks

    def _fields_of(self, group: str | None, derived: bool = True) -> set[str]:
        fields = set(COMMON_FIELDS)
        for deck in self._decks_of(group):
            fields |= self.deck_fields.get(deck, set())
        if derived:
            fields |= self.derived_for(group)
        return fields

    def derived_for(self, group: str | None) -> set[str]:
        decks = set(self._decks_of(group))
        return {name for name, gdecks in self._derived_decks.items() if decks & gdecks}

    def expr(self, pointer: str, names: set[str], card_groups: dict[str, str | None],
             derived: bool = True) -> Compiled | None:
        """Compile the expression at `pointer` and check the names, fields and groups it uses."""
        source = self._at(pointer)
        if not isinstance(source, str):
            return None
        try:
            expr = Expr(source)
        except ExpressionError as exc:
            if exc.needle is not None:
                fixed = source[:exc.column] + "==" + source[exc.column + 1:]
                self.problem("E-RULES-EXPR", exc.message, pointer, needle=exc.needle,
                             help=f"write: {fixed}")
            else:
                self.problem("E-RULES-EXPR", exc.message, pointer,
                             help="expressions are Jinja2 expressions, e.g. card.kind == 'item' and card.cost > 2")
            return None
        self._check_usage(expr.usage, pointer, names, card_groups, derived)
        return Compiled(expr, pointer)

    def template(self, pointer: str, names: set[str], card_groups: dict[str, str | None]) -> MessageTemplate | None:
        source = self._at(pointer)
        if not isinstance(source, str):
            return None
        try:
            tpl = MessageTemplate(source)
        except ExpressionError as exc:
            self.problem("E-RULES-EXPR", exc.message, pointer, help="write values as {{ card.title }}")
            return None
        self._check_usage(tpl.usage, pointer, names | {"value", "loop"}, card_groups, True)
        return tpl

    def _at(self, pointer: str) -> Any:
        value: Any = self.data
        for part in pointer.strip("/").split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(value, list):
                value = value[int(part)]
            elif isinstance(value, dict):
                value = value.get(part)
            else:
                return None
        return value

    def _check_usage(self, usage, pointer: str, names: set[str], card_groups: dict[str, str | None],
                     derived: bool) -> None:
        allowed = names | set(HELPERS)
        for name in sorted(usage.names - allowed):
            self.problem("E-RULES-REF", f"unknown name '{name}'", pointer, needle=name,
                         help=_guess(name, allowed) + f"known here: {', '.join(sorted(names - {'true', 'false', 'none', 'True', 'False', 'None'}))}")
        for group in usage.groups:
            if group not in self.groups:
                self.problem("E-RULES-REF", f"unknown group '{group}'", pointer, needle=group,
                             help=_guess(group, self.groups) + "groups are defined under 'groups:'")
        for value in usage.values:
            if value not in self.values_known:
                self.problem("E-RULES-REF", f"unknown value '{value}'", pointer, needle=value,
                             help=_guess(value, self.values_known) + "values are defined under 'values:', "
                             "and a value can use only those above it")
        for var, key in usage.fields:
            if var not in card_groups:
                continue
            scope = card_groups[var]
            fields = self._fields_of(scope, derived)
            if key not in fields:
                where = f"group '{scope}'" if scope else "any deck"
                self.problem("E-RULES-FIELD", f"no card of {where} has a field '{key}'", pointer,
                             needle=f"{var}.{key}" if f"{var}.{key}" in str(self._at(pointer)) else key,
                             help=_guess(key, fields) + f"fields: {', '.join(sorted(fields))}")
        for kind, name, key in usage.keys:
            first = key.split(".")[0]
            if kind == "group":
                if name not in self.groups:
                    continue
                fields, where = self._fields_of(name, derived), f"group '{name}'"
            elif kind == "card":
                if name not in card_groups:
                    continue
                fields = self._fields_of(card_groups[name], derived)
                where = f"group '{card_groups[name]}'" if card_groups[name] else "any deck"
            else:
                fields, where = self.all_fields | self._all_derived(), "any deck"
            if first not in fields:
                self.problem("E-RULES-FIELD", f"no card of {where} has a field '{first}'", pointer,
                             needle=f"'{key}'", help=_guess(first, fields) + f"fields: {', '.join(sorted(fields))}")

    def _compile_force_check(self, pointer: str, spec: dict, base_names: set[str], scope: str) -> None:
        """A check over force lists (scope: force) or each of their picks (scope: pick); `at` is a path
        inside the force (force) or the pick (pick): see rules/forces.py."""
        for key in ("group", "each", "table"):
            if key in spec:
                self.problem("E-RULES", f"'{key}' does not apply to scope: {scope}", pointer + "/" + key, key=True,
                             help="a force check runs once per force list, a pick check once per pick")
                return
        names = base_names | {"force", "picks"} | ({"pick", "index", "before"} if scope == "pick" else set())
        names |= set(spec.get("let") or {})
        for let in (spec.get("let") or {}):
            self.compiled[f"{pointer}/let/{let}"] = self.expr(pointer_join(pointer + "/let", let), names, {})
        self._compile_conditions(pointer, spec, names, {})

    def _compile_table_check(self, pointer: str, spec: dict, base_names: set[str]) -> None:
        """A check over the rows of a table: names `row`, `index`, `rows`; `at` is a row field."""
        name = spec.get("table")
        tables = self.game.tables
        if name is None or name not in tables:
            self.problem("E-RULES-REF", f"unknown table '{name}'" if name else "scope: table needs 'table'",
                         pointer + ("/table" if name else ""), key=name is None,
                         help=_guess(name or "", tables) + f"tables: {', '.join(sorted(tables)) or 'none'}")
            return
        for key in ("group", "each"):
            if key in spec:
                self.problem("E-RULES", f"'{key}' does not apply to scope: table", pointer + "/" + key, key=True,
                             help="a table check runs once per row, as `row` with `index`")
                return
        names = base_names | {"row", "index", "rows", "table"} | set(spec.get("let") or {})
        for let in (spec.get("let") or {}):
            self.compiled[f"{pointer}/let/{let}"] = self.expr(pointer_join(pointer + "/let", let), names, {})
        self._compile_conditions(pointer, spec, names, {})
        fields = tables[name].table.fields if tables[name].table is not None else {}
        at = spec.get("at")
        if fields and at and "{" not in at and at.replace("/", ".").split(".")[0] not in fields:
            self.problem("E-RULES-FIELD", f"'at': table '{name}' has no field '{at}'", pointer + "/at",
                         help=_guess(at, fields) + f"fields: {', '.join(sorted(fields))}")

    def _compile_scoped(self, i: int, spec: dict, scope: str, base_names: set[str]) -> None:
        """A check on a board (its data as `board`) or on decks (their metadata as `deck`): see scopes.py."""
        pointer = f"/checks/{i}"
        wrong = next((k for k in ("group",) + tuple(s for s in SCOPES if s != scope) if k in spec), None)
        if wrong is not None:
            self.problem("E-RULES", f"'{wrong}' does not go with scope: {scope}", f"{pointer}/{wrong}", key=True,
                         help="scope board names its board with 'board:'; scope deck its decks with 'deck:'; "
                         "scope template its templates with 'template:'")
            return
        if scope == "board":
            boards = {b.id for b in self.game.boards}
            if "board" not in spec:
                self.problem("E-RULES", "scope: board needs 'board:' (the id of the board checked)", pointer + "/scope",
                             help=f"boards: {', '.join(sorted(boards)) or 'none'}")
                return
            if spec["board"] not in boards:
                self.problem("E-RULES-REF", f"unknown board '{spec['board']}'", pointer + "/board",
                             help=_guess(spec["board"], boards) + f"boards: {', '.join(sorted(boards)) or 'none'}")
                return
        else:
            known = {d.id for d in (self.game.decks if scope == "deck" else self.game.templates)}
            wanted = spec.get(scope)
            for j, name in enumerate([wanted] if isinstance(wanted, str) else list(wanted or [])):
                if name not in known:
                    self.problem("E-RULES-REF", f"unknown {scope} '{name}'",
                                 pointer + f"/{scope}" + ("" if isinstance(wanted, str) else f"/{j}"),
                                 help=_guess(name, known) + f"{scope}s: {', '.join(sorted(known))}")
                    return
        names = base_names | {scope} | ({"board_info"} if scope == "board" else set()) | set(spec.get("let") or {})
        names = self._compile_lets(pointer, spec, names, {})
        self._compile_conditions(pointer, spec, names, {})

    def _compile_lets(self, pointer: str, spec: dict, names: set[str], groups: dict) -> set[str]:
        """`let` and `each`. A let that reads `item` or `index` (or such a let) is evaluated per item, after
        `each`; the others before it, so `each` can use them. Returns the names the conditions see."""
        lets = spec.get("let") or {}
        per_item: list[str] = []
        item_names = {"item", "index"} if "each" in spec else set()
        for let in lets:
            compiled = self.compiled[f"{pointer}/let/{let}"] = self.expr(pointer_join(pointer + "/let", let),
                                                                       names | item_names, groups)
            if item_names and compiled is not None and compiled.expr.usage.names & (item_names | set(per_item)):
                per_item.append(let)
        self.per_item[pointer] = per_item
        if "each" in spec:
            each = self.compiled[pointer + "/each"] = self.expr(pointer + "/each", names - set(per_item), groups)
            for let in sorted(each.expr.usage.names & set(per_item)) if each else []:
                self.problem("E-RULES-REF", f"'each' reads let '{let}', which reads item or index", pointer + "/each",
                             needle=let, help="a let that reads `item` is evaluated for each item, after `each`")
        return names | item_names

    def _compile_conditions(self, pointer: str, spec: dict, names: set[str], groups: dict) -> None:
        """`where`, then `assert` with its message, or `require`: conditions in order, each with its own
        message (and at, find, help), so that a finding names the condition that failed."""
        if ("assert" in spec) == ("require" in spec):
            self.problem("E-RULES", "a check needs 'assert' (with 'message') or 'require' (a list of conditions), "
                         "not " + ("both" if "assert" in spec else "neither"), pointer + "/id", key=True,
                         help="require: [{assert: ..., message: ...}, ...] reports the first condition that fails")
        elif "assert" in spec and "message" not in spec:
            self.problem("E-SCHEMA", "missing required key 'message'", pointer + "/id", key=True,
                         help="add 'message: <text>'")
        for key in ("where", "assert"):
            if key in spec:
                self.compiled[f"{pointer}/{key}"] = self.expr(f"{pointer}/{key}", names, groups)
        for key in ("message", "help", "find", "at"):
            if key in spec:
                self.compiled[f"{pointer}/{key}"] = self.template(f"{pointer}/{key}", names, groups)
        for j, cond in enumerate(spec.get("require") or []):
            sub = f"{pointer}/require/{j}"
            self.compiled[sub + "/assert"] = self.expr(sub + "/assert", names, groups)
            for key in ("message", "help", "find", "at"):
                if key in cond:
                    self.compiled[f"{sub}/{key}"] = self.template(f"{sub}/{key}", names, groups)

    def _all_derived(self) -> set[str]:
        return set(self._derived_decks)

    def _compile_all(self) -> None:
        data = self.data
        game_ids = {deck.id for deck in self.game.decks}
        base_names = {"cards", "groups", "values", "facts", "game", "group", "tables", "decks", "boards", "templates",
                      "true", "false", "none", "True", "False", "None"}
        card_names = base_names | {"card", "deck"}
        self.values_known: list[str] = []
        self._derived_decks: dict[str, set[str]] = {}
        # groups: see raw fields only
        for name, spec in (data.get("groups") or {}).items():
            pointer = pointer_join("/groups", name)
            decks = spec.get("deck")
            decks = [decks] if isinstance(decks, str) else list(decks or [])
            for i, deck in enumerate(decks):
                if deck not in game_ids:
                    sub = pointer + "/deck" + ("" if isinstance(spec.get("deck"), str) else f"/{i}")
                    self.problem("E-RULES-REF", f"group '{name}': unknown deck '{deck}'", sub,
                                 help=_guess(deck, game_ids) + f"decks: {', '.join(sorted(game_ids))}")
            # An unknown deck is reported once; the group then stands for every deck, so that its
            # fields are not reported again by every rule that uses it.
            self.groups[name] = Group(name, [d for d in decks if d in game_ids] or
                                      [deck.id for deck in self.game.decks], None)
        for name, spec in (data.get("groups") or {}).items():
            if "where" in spec:
                pointer = pointer_join("/groups", name) + "/where"
                self.groups[name].where = self.expr(pointer, card_names, {"card": name}, derived=False)
        # derived fields: their names first, so that values may read them
        derived_specs = []
        for i, spec in enumerate(data.get("derived") or []):
            pointer = f"/derived/{i}"
            name, group = spec["name"], spec.get("group")
            if group is not None and group not in self.groups:
                self.problem("E-RULES-REF", f"unknown group '{group}'", pointer + "/group",
                             help=_guess(group, self.groups) + "groups are defined under 'groups:'")
                continue
            clash = [deck for deck in self._decks_of(group) if name in self.deck_fields.get(deck, ())]
            if clash or name in self._derived_decks:
                self.problem("E-RULES-FIELD", f"derived field '{name}' is already a field of "
                             + (f"deck '{clash[0]}'" if clash else "another derived rule"), pointer + "/name",
                             help="give the derived field a name of its own")
                continue
            self._derived_decks[name] = set(self._decks_of(group))
            derived_specs.append((pointer, group))
        # game-wide values, each seeing those above it. A value that reads a derived field (or a value
        # that does) is computed after the derived fields; the others before, so derived fields can read them.
        self.late_values: set[str] = set()
        for name in (data.get("values") or {}):
            pointer = pointer_join("/values", name)
            compiled = self.compiled[pointer] = self.expr(pointer, base_names, {})
            self.values_known.append(name)
            if compiled is not None and (_mentions(compiled.expr.source, self._derived_decks)
                                         or set(compiled.expr.usage.values) & self.late_values):
                self.late_values.add(name)
        for pointer, group in derived_specs:
            compiled = self.compiled[pointer] = self.expr(pointer + "/value", card_names, {"card": group})
            late = [v for v in (compiled.expr.usage.values if compiled else []) if v in self.late_values]
            if late:
                self.problem("E-RULES-REF", f"derived field reads value '{late[0]}', which reads derived fields itself",
                             pointer + "/value", needle=late[0],
                             help="values a derived field reads are computed before the derived fields; compute "
                             "this one from card fields, or make it a derived field")
        # checks
        for i, spec in enumerate(data.get("checks") or []):
            pointer = f"/checks/{i}"
            self._rule_id(spec["id"], pointer + "/id")
            group = spec.get("group")
            if not self._known_group(group, pointer + "/group"):
                continue
            scope = spec.get("scope", "card")
            if scope == "table":
                self._compile_table_check(pointer, spec, base_names)
                continue
            if scope in SCOPES:
                self._compile_scoped(i, spec, scope, base_names)
                continue
            if scope in ("force", "pick"):
                self._compile_force_check(pointer, spec, base_names, scope)
                continue
            if "table" in spec:
                self.problem("E-RULES", "'table' needs scope: table", pointer + "/table", key=True,
                             help="add scope: table to check each row of the table")
                continue
            if scope == "game" and ("group" in spec or "each" in spec or "at" in spec):
                key = next(k for k in ("group", "each", "at") if k in spec)
                self.problem("E-RULES", f"'{key}' needs scope: card", pointer + "/" + key, key=True,
                             help="a game check has no card to point at; remove the key or use scope: card")
                continue
            names = (card_names if scope == "card" else base_names) | set(spec.get("let") or {})
            groups = {"card": group} if scope == "card" else {}
            names = self._compile_lets(pointer, spec, names, groups)
            self._compile_conditions(pointer, spec, names, groups)
            if scope == "card" and "at" in spec and "{" not in spec["at"]:
                first = spec["at"].replace("/", ".").split(".")[0]
                fields = self._fields_of(group)
                if first not in fields:
                    self.problem("E-RULES-FIELD", f"'at': no card of {'group ' + repr(group) if group else 'any deck'} "
                                 f"has a field '{first}'", pointer + "/at",
                                 help=_guess(first, fields) + f"fields: {', '.join(sorted(fields))}")
        # sets of decks with one hidden back
        for i, spec in enumerate(data.get("hidden_backs") or []):
            self._rule_id(spec["id"], f"/hidden_backs/{i}/id")
            for j, deck in enumerate(spec["decks"]):
                if deck not in game_ids:
                    self.problem("E-RULES-REF", f"unknown deck '{deck}'", f"/hidden_backs/{i}/decks/{j}",
                                 help=_guess(deck, game_ids) + f"decks: {', '.join(sorted(game_ids))}")
        # recipes and compositions
        for i, spec in enumerate(data.get("recipes") or []):
            pointer = f"/recipes/{i}"
            self._rule_id(spec["id"], pointer + "/id")
            stated = spec.get("stated_by")
            pool_group = (spec.get("pool") or {}).get("group")
            bad = False
            for key, group in (("stated_by", stated), ("pool/group", pool_group)):
                if group is not None and group not in self.groups:
                    self.problem("E-RULES-REF", f"unknown group '{group}'", f"{pointer}/{key}",
                                 help=_guess(group, self.groups) + "groups are defined under 'groups:'")
                    bad = True
            if bad:
                continue
            recipe_groups = {"recipe": stated} if stated else {}
            names = card_names | ({"recipe"} if stated else set())
            if "where" in (spec.get("pool") or {}):
                self.compiled[pointer + "/pool/where"] = self.expr(pointer + "/pool/where", names,
                                                                   dict(recipe_groups, card=pool_group))
            line_names = (names - {"card", "deck"}) | {"line"}
            if isinstance(spec["lines"], str):
                if not stated:
                    self.problem("E-RULES", "lines from an expression need 'stated_by' (the cards that state them)",
                                 pointer + "/lines", help="write the lines here, or name the group of cards "
                                 "that state them")
                    continue
                self.compiled[pointer + "/lines"] = self.expr(pointer + "/lines", names - {"card", "deck"},
                                                              recipe_groups)
                if "match" not in spec:
                    self.problem("E-SCHEMA", "missing required key 'match'", pointer, help="add 'match: <expression>'"
                                 " saying which pool cards a line draws (it sees card and line)")
                    continue
                self.compiled[pointer + "/match"] = self.expr(pointer + "/match", names | {"line"},
                                                              dict(recipe_groups, card=pool_group))
                for key in ("count", "label"):
                    if key in spec:
                        self.compiled[f"{pointer}/{key}"] = self.expr(f"{pointer}/{key}", line_names, recipe_groups)
            else:
                for j, line in enumerate(spec["lines"]):
                    self.compiled[f"{pointer}/lines/{j}/match"] = self.expr(
                        f"{pointer}/lines/{j}/match", names, dict(recipe_groups, card=pool_group))
            if "total" in spec:
                self.compiled[pointer + "/total"] = self.expr(pointer + "/total", names - {"card", "deck"},
                                                              recipe_groups)
            if "must_draw" in spec:
                self.compiled[pointer + "/must_draw"] = self.expr(pointer + "/must_draw", names,
                                                                  dict(recipe_groups, card=pool_group))
            if "help" in spec:
                self.compiled[pointer + "/help"] = self.template(pointer + "/help", line_names, recipe_groups)
            if "label" in (spec.get("pool") or {}):
                self.compiled[pointer + "/pool/label"] = self.template(pointer + "/pool/label",
                                                                       names - {"card", "deck"}, recipe_groups)
            for key, value in (spec.get("at") or {}).items():
                fields = self._fields_of(stated)
                first = value.replace("/", ".").split(".")[0]
                if not stated:
                    self.problem("E-RULES", "'at' needs 'stated_by'", f"{pointer}/at", key=True)
                elif first not in fields:
                    self.problem("E-RULES-FIELD", f"'at': no card of group '{stated}' has a field '{first}'",
                                 f"{pointer}/at/{key}", help=_guess(first, fields))
        # references
        for i, spec in enumerate(data.get("references") or []):
            pointer = f"/references/{i}"
            self._rule_id(spec["id"], pointer + "/id")
            group = spec.get("group")
            if not self._known_group(group, pointer + "/group"):
                continue
            first = spec["field"].split(".")[0]
            fields = self._fields_of(group)
            if first not in fields:
                self.problem("E-RULES-FIELD", f"no card of {'group ' + repr(group) if group else 'any deck'} has "
                             f"a field '{first}'", pointer + "/field", help=_guess(first, fields))
            if "where" in spec:
                self.compiled[pointer + "/where"] = self.expr(pointer + "/where", card_names, {"card": group})
            to = spec["to"]
            if isinstance(to, str):
                self.compiled[pointer + "/to"] = self.expr(pointer + "/to", base_names, {})
            else:
                if to["group"] not in self.groups:
                    self.problem("E-RULES-REF", f"unknown group '{to['group']}'", pointer + "/to/group",
                                 help=_guess(to["group"], self.groups))
                else:
                    target_fields = self._fields_of(to["group"])
                    for key in ("key", "mutual"):
                        if key in to and to[key].split(".")[0] not in target_fields:
                            self.problem("E-RULES-FIELD", f"no card of group '{to['group']}' has a field "
                                         f"'{to[key]}'", f"{pointer}/to/{key}", help=_guess(to[key], target_fields))
            for key in ("message", "help"):
                if key in spec:
                    self.compiled[f"{pointer}/{key}"] = self.template(f"{pointer}/{key}", card_names | {"value"},
                                                                      {"card": group})
        compile_facts(self)  # facts, and the rules comparing the content with them (facts.py)
        # glossary
        glossary = data.get("glossary")
        if glossary:
            self._rule_id(glossary["id"], "/glossary/id")
            actions = glossary.get("actions")
            if actions:
                self._rule_id(actions["id"], "/glossary/actions/id")
                first = actions["field"].split(".")[0]
                if first not in self.all_fields:
                    self.problem("E-RULES-FIELD", f"no card has a field '{first}'", "/glossary/actions/field",
                                 help=_guess(first, self.all_fields))
            for j, path in enumerate(glossary["fields"]):
                first = path.split(".")[0]
                if first not in self.all_fields | self._all_derived():
                    self.problem("E-RULES-FIELD", f"no card has a field '{first}'", f"/glossary/fields/{j}",
                                 help=_guess(first, self.all_fields))
            for term, spec in glossary["terms"].items():
                tp = pointer_join("/glossary/terms", term)
                if "card" in spec and spec["card"] not in self.by_id:
                    self.problem("E-RULES-REF", f"term '{term}': unknown card '{spec['card']}'", tp + "/card",
                                 help=_guess(spec["card"], self.by_id))
                for k, holder in enumerate(spec.get("holders") or []):
                    if holder not in self.by_id:
                        self.problem("E-RULES-REF", f"term '{term}': unknown card '{holder}'", f"{tp}/holders/{k}",
                                     help=_guess(holder, self.by_id))
                if "holders" in spec and not actions:
                    self.problem("E-RULES", f"term '{term}' has holders but the glossary has no 'actions'",
                                 tp + "/holders", key=True,
                                 help="add glossary.actions: {id: ..., field: actions} saying where cards keep them")


def _mentions(source: str, names) -> bool:
    """Whether an expression's text names one of `names` as a word (a derived field it may read)."""
    return any(re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", source) for name in names)
