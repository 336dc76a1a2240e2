"""Rules run against the cards: groups, derived fields, values, checks, recipes, references and
the glossary.  Each finding points at the offending card field."""
from __future__ import annotations

import difflib
import re
from typing import Any, Iterator

from ..diagnostics import Position, Report
from ..frontend.load import pointer_join
from ..frontend.model import Card
from .compile import Compiled, RuleCompiler, RulesProblem
from .facts import fact_values, run_compare
from .forces import force_check, resolve_forces
from .expressions import HELPERS, ExpressionError, get_path, marked_terms
from .scopes import SCOPES, scope_context, scope_position, scope_targets, views as scope_views
from .positions import _guess, _with_section, card_pos, refine


class RuleSet(RuleCompiler):
    """A compiled rules file, run against the game it was compiled for."""

    # -- running -----------------------------------------------------------------------------

    def _view(self, card: Card) -> dict:
        view = self.views.get(card.id)
        if view is None:
            view = card.data.copy()  # keeps absent fields absent (see frontend/model.Fields)
            view["quantity"] = card.quantity
            for key in ("authored", "note"):  # common keys a card may leave out read as none
                view.setdefault(key, None)
            self.views[card.id] = view
        return view

    def base_context(self) -> dict[str, Any]:
        ctx = dict(HELPERS)
        ctx.update(cards=[self._view(c) for c in self.cards], game=self.game.template_data(),
                   tables=self.game.tables, facts=fact_values(self.data),
                   groups={name: g.members for name, g in self.groups.items()}, values=self.values,
                   group=self._group_fn, **scope_views(self.game))
        return ctx

    def _group_fn(self, name):
        if name not in self.groups:
            raise ValueError(f"unknown group '{name}'")
        return self.groups[name].members

    def card_context(self, base: dict, card: Card) -> dict:
        ctx = dict(base)
        ctx["card"] = self._view(card)
        ctx["deck"] = {"id": card.deck.id, "name": card.deck.name}
        return ctx

    def evaluate(self, compiled: Compiled | None, ctx: dict, what: str, default: Any = None) -> Any:
        """Run an expression; a failure is reported once per expression, and gives `default`."""
        if compiled is None:
            return default
        if compiled.pointer in self._over_limit:  # it hit a limit once: each further item would too
            raise RulesProblem()
        try:
            return compiled.expr(ctx)
        except ExpressionError as exc:
            if exc.code == "E-LIMIT":
                self._over_limit.add(compiled.pointer)
            if exc.lookup is not None and self._lookup_failed(compiled, ctx, what, exc):
                raise RulesProblem() from None
            if compiled.pointer not in self._failed:
                self._failed.add(compiled.pointer)
                self.report.error(exc.code, f"{what}: {exc.message}", self.doc.pos(compiled.pointer),
                                  help="the expression failed on this data; check the names and the types it uses"
                                  if exc.code != "E-LIMIT" else "make it do less work, e.g. fewer nested loops")
            raise RulesProblem() from None

    def _lookup_failed(self, compiled: Compiled, ctx: dict, what: str, exc: ExpressionError) -> bool:
        """A failed table lookup, reported at the data that caused it: the card field (or table row
        field) holding the value, else the card or row. False when no data is in reach."""
        failure = exc.lookup
        pos, card_id = None, None
        card = self.by_id.get((ctx.get("card") or {}).get("id")) if isinstance(ctx.get("card"), dict) else None
        row, table = ctx.get("row"), ctx.get("_table")
        if card is not None:
            card_id = card.id
            entry = card.doc.data["cards"][int(card.pointer.rsplit("/", 1)[1])] if card.pointer.startswith("/cards/") \
                else self._view(card)
            path = _find_value(entry, failure.value)
            pos = card_pos(card, path)
        elif isinstance(row, dict) and table is not None:
            path = _find_value(row, failure.value)
            pos = table.row_pos(ctx.get("index", 0), path.split("/")[0] if path else None)
        if pos is None:
            return False
        key = (compiled.pointer, pos)
        if key not in self._failed:
            self._failed.add(key)
            rules_pos = self.doc.pos(compiled.pointer)
            self.report.error("E-LOOKUP", f"{what}: {failure}", pos, card=card_id,
                              help=(failure.help + "; " if failure.help else "") +
                              f"looked up by {rules_pos.path.name}:{rules_pos.line}")
        return True

    def _members(self, group: str | None) -> list[Card]:
        if group is None:
            return self.cards
        ids = {view["id"] for view in self.groups[group].members}
        return [card for card in self.cards if card.id in ids]

    def derive(self, report: Report) -> None:
        """Groups, then derived fields (added to the cards' data), then the game-wide values."""
        if not self.ok:
            return
        base = self.base_context()
        for group in self.groups.values():
            decks = set(group.decks)
            for card in self.cards:
                if card.deck.id not in decks:
                    continue
                if group.where is not None:
                    try:
                        keep = self.evaluate(group.where, self.card_context(base, card),
                                             f"group '{group.name}' on card '{card.id}'")
                    except RulesProblem:
                        continue
                    if not keep:
                        continue
                group.members.append(self._view(card))
        self._values(base, late=False)
        for i, spec in enumerate(self.data.get("derived") or []):
            compiled = self.compiled.get(f"/derived/{i}")
            if compiled is None:
                continue
            name, group = spec["name"], spec.get("group")
            members = {c.id for c in self._members(group)}
            decks = self._derived_decks.get(name, set())
            for card in self.cards:
                if card.deck.id not in decks:
                    continue
                value = None
                if card.id in members:
                    try:
                        value = self.evaluate(compiled, self.card_context(base, card),
                                              f"derived field '{name}' of card '{card.id}'")
                    except RulesProblem:
                        pass
                card.data[name] = value
                self._view(card)[name] = value
        self._values(base, late=True)

    def _values(self, base: dict, late: bool) -> None:
        """The game-wide values: those that read no derived field before the derived fields (late=False),
        the others after them."""
        for name in (self.data.get("values") or {}):
            if (name in self.late_values) != late:
                continue
            try:
                self.values[name] = self.evaluate(self.compiled.get(pointer_join("/values", name)), base,
                                                  f"value '{name}'")
            except RulesProblem:
                self.values[name] = None

    def run(self, report: Report, complete: bool = True) -> None:
        """Every rule; rules over groups of cards only when every card file loaded."""
        if not self.ok:
            return
        base = self.base_context()
        resolve_forces(self, complete)
        for i, spec in enumerate(self.data.get("checks") or []):
            if not complete and (spec.get("scope", "card") in ("game",) + SCOPES or self._reads_other_cards(i)):
                continue  # it would report cards as missing that are merely unreadable
            self._check(i, spec, base)
        if complete:
            for i, spec in enumerate(self.data.get("recipes") or []):
                self._recipe(i, spec, base)
            for i, spec in enumerate(self.data.get("references") or []):
                self._reference(i, spec, base)
            for i, spec in enumerate(self.data.get("compare") or []):
                try:
                    run_compare(self, i, spec, base)
                except RulesProblem:
                    continue
        if self.data.get("glossary"):
            self._glossary(self.data["glossary"], base, complete)

    def _known_group(self, group: str | None, pointer: str) -> bool:
        """A rule's `group` must be defined (or absent); an unknown one is reported at `pointer`."""
        if group is None or group in self.groups:
            return True
        self.problem("E-RULES-REF", f"unknown group '{group}'", pointer,
                     help=_guess(group, self.groups) + "groups are defined under 'groups:'")
        return False

    def _reads_other_cards(self, index: int) -> bool:
        """Whether check `index` looks beyond its own card (groups, game-wide values)."""
        prefix = f"/checks/{index}/"
        for pointer, compiled in self.compiled.items():
            if pointer.startswith(prefix) and compiled is not None:
                usage = getattr(getattr(compiled, "expr", None), "usage", None) or getattr(compiled, "usage", None)
                if usage is not None and (usage.groups or usage.values or "groups" in usage.names
                                          or "values" in usage.names):
                    return True
        return False

    def _emit(self, severity: str, code: str, message: str, pos: Position, help: str | None, card: str | None,
              section: str | None) -> None:
        key = (code, pos, message)
        if key in self._reported:
            return
        self._reported.add(key)
        (self.report.error if severity == "error" else self.report.warning)(
            code, message, pos, help=_with_section(help, section), card=card)

    def _render(self, pointer: str, ctx: dict, default: str | None = None) -> str | None:
        tpl = self.compiled.get(pointer)
        if tpl is None:
            return default
        return tpl.render(ctx)

    def _check(self, i: int, spec: dict, base: dict) -> None:
        pointer = f"/checks/{i}"
        rule = spec["id"]
        severity = spec.get("severity", "error")
        per_item = self.per_item.get(pointer, [])
        lets = [(name, self.compiled.get(f"{pointer}/let/{name}")) for name in (spec.get("let") or {})]
        where = self.compiled.get(pointer + "/where")
        assertion = self.compiled.get(pointer + "/assert")
        conditions = [(f"{pointer}/require/{j}", self.compiled.get(f"{pointer}/require/{j}/assert"))
                      for j in range(len(spec.get("require") or []))]
        each = self.compiled.get(pointer + "/each")
        if assertion is None and not conditions:
            return

        def lets_into(ctx: dict, what: str, item: bool = False, same: dict | None = None) -> None:
            """The lets into ctx. `same`: the values of the lets that read nothing of the target (card,
            pick) for the targets of this check (or of one force), kept from the first target that
            evaluates them: the same expression over the same data (see _steady_lets)."""
            for name, compiled in lets:
                if (name in per_item) == item:
                    if same is not None and name in steady:
                        if name not in same:  # a failure is not kept: each target fails (and reports) as before
                            same[name] = self.evaluate(compiled, ctx, f"{rule} 'let: {name}' {what}")
                        ctx[name] = same[name]
                    else:
                        ctx[name] = self.evaluate(compiled, ctx, f"{rule} 'let: {name}' {what}")

        def fails(ctx: dict, what: str) -> str | None:
            """None when the check holds; else the pointer whose message, at, find and help report it
            (the check's own, or that of the first `require` condition that fails)."""
            if where is not None and not self.evaluate(where, ctx, f"{rule} 'where' {what}"):
                return None
            if assertion is not None:
                return None if self.evaluate(assertion, ctx, f"{rule} 'assert' {what}") else pointer
            for j, (sub, compiled) in enumerate(conditions):
                if not self.evaluate(compiled, ctx, f"{rule} 'require' {j + 1} {what}"):
                    return sub
            return None

        def render(failed: str, key: str, ctx: dict, default: str | None = None) -> str | None:
            if f"{failed}/{key}" in self.compiled:
                return self._render(f"{failed}/{key}", ctx, default)
            return self._render(f"{pointer}/{key}", ctx, default)

        scope = spec.get("scope", "card")
        steady = self._steady_lets(lets, per_item, _TARGET_NAMES.get(scope, set()))
        if scope in SCOPES:
            for piece in scope_targets(self.game, spec):
                piece_ctx = scope_context(base, piece, scope)
                what = f"on {scope} '{piece.id}'"
                try:
                    lets_into(piece_ctx, what)
                    items = [None] if each is None else (self.evaluate(each, piece_ctx, f"{rule} 'each' {what}") or [])
                    for index, item in enumerate(items):
                        ctx = piece_ctx if each is None else dict(piece_ctx, item=item, index=index)
                        if each is not None:
                            lets_into(ctx, what, item=True)
                        failed = fails(ctx, what)
                        if failed:
                            pos = refine(scope_position(self.game, piece, scope, render(failed, "at", ctx)),
                                         render(failed, "find", ctx))
                            self._emit(severity, rule, render(failed, "message", ctx), pos,
                                       render(failed, "help", ctx), None, spec["section"])
                except RulesProblem:
                    continue
            return
        if scope == "game":
            ctx = dict(base)
            try:
                lets_into(ctx, "on the game")
                failed = fails(ctx, "on the game")
                if failed:
                    self._emit(severity, rule, render(failed, "message", ctx),
                               self.doc.pos(failed + "/assert"), render(failed, "help", ctx), None,
                               spec["section"])
            except RulesProblem:
                pass
            return
        if spec.get("scope", "card") == "table":
            self._table_check(pointer, spec, base, lets_into, fails, render)
            return
        if spec.get("scope", "card") in ("force", "pick"):
            force_check(self, pointer, spec, base, lets_into, fails, render)
            return
        same: dict[str, Any] = {}
        for card in self._members(spec.get("group")):
            card_ctx = self.card_context(base, card)
            what = f"on card '{card.id}'"
            try:
                lets_into(card_ctx, what, same=same)
                items = [None] if each is None else (self.evaluate(each, card_ctx, f"{rule} 'each' {what}") or [])
                for index, item in enumerate(items):
                    ctx = card_ctx if each is None else dict(card_ctx, item=item, index=index)
                    if each is not None:
                        lets_into(ctx, what, item=True)
                    failed = fails(ctx, what)
                    if not failed:
                        continue
                    at = render(failed, "at", ctx, self._default_at(failed, "card"))
                    pos = refine(card_pos(card, at), render(failed, "find", ctx))
                    self._emit(severity, rule, render(failed, "message", ctx), pos,
                               render(failed, "help", ctx), card.id, spec["section"])
            except RulesProblem:
                continue

    @staticmethod
    def _steady_lets(lets: list, per_item: list[str], target: set[str]) -> set[str]:
        """The lets of a check whose value is the same for every target of a scope: those that read
        none of the names the scope sets per target (`target`: card and deck, or pick, index and
        before) nor such a let, nor `item`.  Expressions are pure (the sandbox is immutable, the helpers
        build new values), so such a let is evaluated once instead of once per card or pick."""
        if not target:
            return set()
        moving = set(target) | set(per_item)
        changed = True
        while changed:  # a let read by a let before it still moves it: to a fixed point, in any order
            changed = False
            for name, compiled in lets:
                if name not in moving and (compiled is None or compiled.expr.usage.names & moving):
                    moving.add(name)
                    changed = True
        return {name for name, _ in lets} - moving

    def _default_at(self, failed: str, var: str) -> str | None:
        """Where a finding points when the rule gives no `at`: the first field of `var` its assertion reads."""
        compiled = self.compiled.get(failed + "/assert")
        fields = compiled.expr.usage.fields if compiled is not None else []
        return next((key for name, key in fields if name == var), None)

    def _table_check(self, pointer: str, spec: dict, base: dict, lets_into, fails, render) -> None:
        """scope: table: the check runs once per row (`row`, `index`, and `rows` for neighbours) and
        points at the row's field named by `at` (default: the first `row.x` the assertion reads)."""
        rows = self.game.tables.get(spec["table"])
        if rows is None or rows.table is None:
            return
        table = rows.table
        for index, row in enumerate(rows):
            ctx = dict(base, row=row, index=index, rows=rows, table=rows, _table=table)
            what = f"on row {index + 1} of table '{table.name}'"
            try:
                lets_into(ctx, what)
                failed = fails(ctx, what)
                if not failed:
                    continue
                at = render(failed, "at", ctx, self._default_at(failed, "row"))
                pos = table.row_pos(index, at.split(".")[0].split("/")[0] if at else None)
                if at and ("." in at or "/" in at):
                    pos = table.doc.pos(f"{table.pointer}/{index}" + "".join(
                        "/" + part for part in at.replace(".", "/").split("/") if part))
                pos = refine(pos, render(failed, "find", ctx))
                self._emit(spec.get("severity", "error"), spec["id"], render(failed, "message", ctx), pos,
                           render(failed, "help", ctx), None, spec["section"])
            except RulesProblem:
                continue

    def _recipe(self, i: int, spec: dict, base: dict) -> None:
        pointer = f"/recipes/{i}"
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        stated = spec.get("stated_by")
        pool_spec = spec.get("pool") or {}
        pool_where = self.compiled.get(pointer + "/pool/where")
        at = spec.get("at") or {}
        recipes = [(card, self._view(card)) for card in self._members(stated)] if stated else [(None, None)]
        for recipe_card, recipe in recipes:
            ctx = dict(base)
            if recipe is not None:
                ctx["recipe"] = recipe
            name = f"recipe of '{recipe_card.id}'" if recipe_card else f"recipe {rule}"
            try:
                pool = []
                for card in self._members(pool_spec.get("group")):
                    cctx = self.card_context(ctx, card)
                    if pool_where is None or self.evaluate(pool_where, cctx, f"{rule} pool, card '{card.id}'"):
                        pool.append(card)
                if isinstance(spec["lines"], str):
                    lines = self.evaluate(self.compiled.get(pointer + "/lines"), ctx, f"{rule} lines of {name}") or []
                    line_specs = [(line, self.compiled.get(pointer + "/match"), None) for line in lines]
                else:
                    line_specs = [({"count": line["count"], "label": line.get("label", f"line {j + 1}")},
                                   self.compiled.get(f"{pointer}/lines/{j}/match"), j)
                                  for j, line in enumerate(spec["lines"])]
                drawn: set[str] = set()
                counts = []
                for j, (line, match, static_index) in enumerate(line_specs):
                    lctx = dict(ctx, line=line)
                    count = self.evaluate(self.compiled.get(pointer + "/count"), lctx, f"{rule} count") \
                        if pointer + "/count" in self.compiled else get_path(line, "count")
                    label = self.evaluate(self.compiled.get(pointer + "/label"), lctx, f"{rule} label") \
                        if pointer + "/label" in self.compiled else (get_path(line, "label") or f"line {j + 1}")
                    if not isinstance(count, int) or isinstance(count, bool):
                        self._emit("error", "E-RULES-EVAL", f"{rule}: line {j + 1} of {name} has no whole-number "
                                   f"count ({count!r})", self.doc.pos(pointer + "/lines"), None, None, None)
                        continue
                    counts.append(count)
                    matched = [c for c in pool
                               if self.evaluate(match, dict(self.card_context(ctx, c), line=line),
                                                f"{rule} match, card '{c.id}'")]
                    drawn.update(c.id for c in matched)
                    available = sum(c.quantity for c in matched)
                    short = count > available
                    if short or (spec.get("exact") and count != available):
                        have = ", ".join(f"{c.id} x{c.quantity}" for c in matched[:6]) or "no card"
                        if len(matched) > 6:
                            have += f" and {len(matched) - 6} more"
                        if recipe_card is not None:
                            field_ = at.get("lines")
                            pos = card_pos(recipe_card, f"{field_}/{j}/count" if field_ else None)
                        else:
                            pos = self.doc.pos(f"{pointer}/lines/{static_index}/count")
                        verb = "needs" if short else "says there are exactly"
                        pool_name = self._render(pointer + "/pool/label", ctx)
                        where = f"the pool ({pool_name})" if pool_name else "the pool"
                        message = (f"{name}: '{count}x {label}' {verb} {count} card{'s' if count != 1 else ''}, "
                                   f"but {where} has {available}: {have}")
                        self._emit(severity, rule, message, pos, self._render(pointer + "/help", lctx), 
                                   recipe_card.id if recipe_card else None, section)
                if "total" in spec:
                    total = self.evaluate(self.compiled.get(pointer + "/total"), ctx, f"{rule} total of {name}")
                    if total != sum(counts):
                        pos = card_pos(recipe_card, at.get("total")) if recipe_card else self.doc.pos(pointer + "/total")
                        lines_text = " + ".join(str(c) for c in counts) or "0"
                        self._emit(severity, rule, f"{name}: the lines add up to {sum(counts)} cards "
                                   f"({lines_text}), but the stated total is {total}", pos,
                                   "make the counts add up to the total, or correct the total",
                                   recipe_card.id if recipe_card else None, section)
                must = self.compiled.get(pointer + "/must_draw")
                if must is not None:
                    for card in pool:
                        if card.id in drawn:
                            continue
                        if self.evaluate(must, self.card_context(ctx, card), f"{rule} must_draw, card '{card.id}'"):
                            self._emit(severity, rule, f"card '{card.id}' belongs to the pool of {name} but no "
                                       "line of the recipe draws it", card.pos(), "add a line for it, or move the "
                                       "card to another pool", card.id, section)
            except RulesProblem:
                continue

    def _reference(self, i: int, spec: dict, base: dict) -> None:
        pointer = f"/references/{i}"
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        where = self.compiled.get(pointer + "/where")
        to = spec["to"]
        ignore = spec.get("ignore") or []
        try:
            if isinstance(to, str):
                allowed = self.evaluate(self.compiled.get(pointer + "/to"), dict(base), f"{rule} 'to'") or []
                targets = {self._hashable(v): None for v in allowed}
                what = "an allowed value"
            else:
                key = to.get("key", "id")
                targets = {}
                for card in self._members(to["group"]):
                    got = get_path(self._view(card), key)
                    for value in (got if isinstance(got, list) else [got]):
                        targets.setdefault(self._hashable(value), card)
                what = f"a card of group '{to['group']}' (by {key})"
        except RulesProblem:
            return
        for card in self._members(spec.get("group")):
            ctx = self.card_context(base, card)
            try:
                if where is not None and not self.evaluate(where, ctx, f"{rule} 'where' on card '{card.id}'"):
                    continue
            except RulesProblem:
                continue
            for path, value in _walk(self._view(card), spec["field"]):
                if value is None or value in ignore:
                    continue
                hv = self._hashable(value)
                pos = card_pos(card, path)
                vctx = dict(ctx, value=value)
                if hv not in targets:
                    message = self._render(pointer + "/message", vctx,
                                           f"{spec['field']} '{value}' of card '{card.id}' does not name {what}")
                    help_ = self._render(pointer + "/help", vctx, _guess(value, [k for k in targets if isinstance(k, str)])
                                         .strip() or None)
                    self._emit(severity, rule, message, pos, help_, card.id, section)
                    continue
                target = targets[hv]
                mutual = None if isinstance(to, str) else to.get("mutual")
                if mutual and target is not None:
                    back = get_path(self._view(target), mutual)
                    if card.id != back and not (isinstance(back, list) and card.id in back):
                        self._emit(severity, rule, f"card '{card.id}' names '{target.id}' in {spec['field']}, but "
                                   f"'{target.id}' names {back!r} in {mutual}, not '{card.id}'", pos,
                                   f"the two faces must name each other: set {mutual}: {card.id} on "
                                   f"'{target.id}'", card.id, section)

    @staticmethod
    def _hashable(value: Any) -> Any:
        if isinstance(value, list):
            return tuple(RuleSet._hashable(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, RuleSet._hashable(v)) for k, v in value.items()))
        return value

    def _glossary(self, spec: dict, base: dict, complete: bool) -> None:
        rule, severity, section = spec["id"], spec.get("severity", "error"), spec["section"]
        index: dict[str, str] = {}
        for term, entry in spec["terms"].items():
            for name in [term] + list(entry.get("aliases") or []):
                index[normalize_term(name)] = term
        emphasis = {normalize_term(word) for word in spec.get("emphasis") or []}
        for card in self.cards:
            view = self._view(card)
            for path in spec["fields"]:
                for sub, text in _walk(view, path):
                    for mark in marked_terms(text):
                        term = mark["term"]
                        key = normalize_term(term)
                        if not key or key in emphasis or key in index:
                            continue
                        guess = difflib.get_close_matches(key, list(index), n=1, cutoff=0.5)
                        hint = f"did you mean '{index[guess[0]]}'? " if guess else ""
                        self._emit(severity, rule, f"card '{card.id}' marks '{term}' as a game term, but the "
                                   "glossary does not define it", refine(card_pos(card, sub), f"**{term}**"),
                                   hint + "define it under glossary.terms in rules.yaml (or as an alias), "
                                   "or write it without ** if it is not a term", card.id, section)
        actions = spec.get("actions")
        if not actions or not complete:
            return
        action_rule = actions["id"]
        name_key = actions.get("name", "name")
        for term, entry in spec["terms"].items():
            holders = entry.get("holders")
            if holders is None:
                continue
            want = entry.get("action") or {name_key: term}
            term_section = entry["section"]
            for card in self.cards:
                view = self._view(card)
                acts = get_path(view, actions["field"].split(".")[0])
                if not isinstance(acts, list):
                    if card.id in holders:
                        self._emit("error", action_rule, f"card '{card.id}' is said to have the action '{term}', "
                                   f"but it has no '{actions['field']}'", card.pos(), None, card.id, term_section)
                    continue
                found = [k for k, act in enumerate(acts)
                         if isinstance(act, dict) and all(get_path(act, k2) == v for k2, v in want.items())]
                title = view.get("title") or card.id
                if card.id in holders and not found:
                    wanted = ", ".join(f"{k}: {v}" for k, v in want.items())
                    self._emit("error", action_rule, f"the rulebook gives {title} ('{card.id}') the action "
                               f"'{term}', but the card has no action with {wanted}",
                               card_pos(card, actions["field"]),
                               f"add the action to the card's {actions['field']}", card.id, term_section)
                if card.id not in holders and found:
                    others = ", ".join(holders) or "no card"
                    self._emit("error", action_rule, f"{title} ('{card.id}') has the action '{term}', which the "
                               f"rulebook gives only to {others}",
                               card_pos(card, f"{actions['field']}/{found[0]}"),
                               "remove the action, or add the card to the term's holders if the rulebook says so",
                               card.id, term_section)


def _find_value(view: Any, value: Any, prefix: str = "") -> str | None:
    """The path (a/b/0) of the first place `value` occurs in a card view or row, or None."""
    if isinstance(view, dict):
        items = view.items()
    elif isinstance(view, list):
        items = enumerate(view)
    else:
        return None
    for k, v in items:
        here = f"{prefix}/{k}" if prefix else str(k)
        if v == value and type(v) is type(value):
            return here
        found = _find_value(v, value, here)
        if found:
            return found
    return None


def _walk(view: Any, path: str, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(pointer-ish path, value) for each value at a dotted path, through lists with their index."""
    head, _, rest = path.partition(".")
    if isinstance(view, list):
        for i, item in enumerate(view):
            yield from _walk(item, path, f"{prefix}/{i}" if prefix else str(i))
        return
    if not isinstance(view, dict) or head not in view:
        return
    value = view[head]
    here = f"{prefix}/{head}" if prefix else head
    if rest:
        yield from _walk(value, rest, here)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield f"{here}/{i}", item
    else:
        yield here, value


# The names a scope sets for each of its targets (card_context, forces.force_check); a scope not
# listed evaluates its lets for each target.
_TARGET_NAMES = {"card": {"card", "deck"}, "pick": {"pick", "index", "before"}}

TRAILING = re.compile(r"(\s*[+\-−]\s*\d+)+$|[\s.,;:!?]+$")


def normalize_term(term: str) -> str:
    """A marked term as the glossary knows it: no trailing modifier (+1) or punctuation, one space, lower case."""
    text = " ".join(str(term).replace("’", "'").split())
    previous = None
    while previous != text:
        previous, text = text, TRAILING.sub("", text).strip()
    return text.lower()
