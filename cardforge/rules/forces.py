"""Rules over force lists (C6): `scope: force` runs once per force, `scope: pick` once per pick.

A force's picks are resolved to the cards they name (frontend/forces.py), so an expression reads
`pick.record.cost`, `pick.count`, `pick.deck`, and sums a field over the picks with the helpers
(`sum_product(picks, 'count', 'record.cost')`). A pick check also sees `before`, the picks ahead of
it, so a budget rule can fail at the pick that breaks the budget and nowhere else:

    scope: pick
    let: {spent: "sum_product(before + [pick], 'count', 'record.cost')"}
    where: "spent - pick.count * pick.record.cost <= budget"     # within budget until this pick
    assert: "spent <= budget"

A failure points at `at` inside the force (scope force: a path such as `scenario` or `picks`) or
inside the pick (scope pick: `count`, `card`, `attach_to`; default the pick's `card`)."""
from __future__ import annotations

from ..frontend.forces import force_view, resolve
from .compile import RulesProblem
from .positions import refine


def resolve_forces(rules, complete: bool) -> None:
    """Resolve every force's picks against the cards (once per run); unknown cards are errors."""
    rules.force_views = []
    if not complete:
        return
    for force in rules.game.forces:
        resolve(force, rules.by_id, rules._view, rules.report)
        rules.force_views.append((force, force_view(force)))


def force_check(rules, pointer: str, spec: dict, base: dict, lets_into, fails, render) -> None:
    scope = spec["scope"]
    severity, rule, section = spec.get("severity", "error"), spec["id"], spec["section"]
    # A `where` that reads no `let` runs first, so that lets may assume it (picks of different decks
    # have different fields: `where: "pick.deck == 'units'"` guards `let: {cost: "pick.record.cost"}`).
    where = rules.compiled.get(pointer + "/where")
    early = where is not None and not (set(where.expr.usage.names) & set(spec.get("let") or {}))
    for force, view in getattr(rules, "force_views", []):
        same: dict | None = {} if scope == "pick" else None  # lets that read no pick: once per force
        picks = view["picks"]
        fctx = dict(base, force=view, picks=picks)
        items = [(None, fctx)] if scope == "force" else [
            (pick, dict(fctx, pick=pick, index=i, before=picks[:i])) for i, pick in enumerate(picks)]
        for pick, ctx in items:
            what = f"on force '{force.id}'" + (f", pick {pick['index'] + 1} ('{pick['card']}')" if pick else "")
            try:
                if early and not rules.evaluate(where, ctx, f"{rule} 'where' {what}"):
                    continue
                lets_into(ctx, what, same=same)
                failed = fails(ctx, what)  # the pointer whose message reports it (a `require` condition's)
                if not failed:
                    continue
                at = render(failed, "at", ctx, None if pick is not None else "")
                if pick is not None:
                    path = f"picks/{pick['index']}/" + (at if at else "card")
                else:
                    path = at or ""
                pos = refine(force.pos(path), render(failed, "find", ctx))
                rules._emit(severity, rule, render(failed, "message", ctx), pos,
                            render(failed, "help", ctx), None, section)
            except RulesProblem:
                continue
