"""How rules expressions run (issue 27, `check` under 0.5 s): the shortcuts taken for speed keep
what the sandbox refuses and what a user sees.

- limits.expression_batch: the interval timer is armed once for a whole rules run, yet each
  expression still has its own time limit from its start;
- layout/templates.py: a mapping's key and a plain function's call skip Jinja2's generic path, but
  a method still wins over a key of the same name, and an unsafe or context-taking callable still
  goes through the sandbox;
- rules/run.py: a let that reads nothing of the card (or pick) is evaluated once per check.
"""
from __future__ import annotations

import signal
import time

import pytest
from jinja2 import pass_context
from jinja2.sandbox import unsafe

from cardforge import limits
from cardforge.cli import main
from cardforge.frontend.model import Fields
from cardforge.limits import TimeLimit, expression_batch, time_limit
from cardforge.rules import expressions
from cardforge.rules.expressions import Expr, ExpressionError

from conftest import headlines, make_game


# -- the time limit inside a batch ---------------------------------------------------------------------

def test_a_batch_stops_only_the_expression_that_runs_over_its_own_time(monkeypatch):
    monkeypatch.setattr(limits, "MAX_EXPRESSION_SECONDS", 0.3)
    with expression_batch():
        for _ in range(8):  # 0.8 s in all, 0.1 s each: none is stopped
            with time_limit():
                time.sleep(0.1)
        with pytest.raises(TimeLimit, match="limit of 0.3 s for one expression"):
            with time_limit():
                end = time.monotonic() + 10
                while time.monotonic() < end:  # a runaway expression
                    pass
                pytest.fail("the expression was not stopped")
        with time_limit():  # the next expression has its own time again
            time.sleep(0.1)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # nothing left armed after the batch


def test_outside_a_batch_the_timer_is_armed_per_expression(monkeypatch):
    monkeypatch.setattr(limits, "MAX_EXPRESSION_SECONDS", 0.3)
    with pytest.raises(TimeLimit):
        with time_limit():
            end = time.monotonic() + 10
            while time.monotonic() < end:
                pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


# -- the sandbox's shortcuts -----------------------------------------------------------------------------

def _card(**data) -> Fields:
    card = Fields(data)
    card.declared = frozenset(data) | {"cost"}
    return card


def test_a_key_is_read_as_before_and_a_method_still_wins_over_a_key_of_its_name():
    card = _card(title="Alpha", items="a field", copy="another")
    assert Expr("card.title")({"card": card}) == "Alpha"
    assert Expr("card.cost is defined")({"card": card}) is False  # declared, absent
    assert Expr("card.items() | list | length")({"card": card}) == 3  # the mapping's method, not the field
    assert Expr("card['items']")({"card": card}) == "a field"
    assert Expr("{'get': 1}.get('get')")({}) == 1
    assert Expr("card.get('title') ~ card.get('cost', '-')")({"card": card}) == "Alpha-"
    assert Expr("card.keys() | list | length")({"card": card}) == 3
    with pytest.raises(ExpressionError, match="'card' has no field 'nope'|'nope' is not a field"):
        Expr("card.nope")({"card": card})


def test_sandbox_still_refuses_internals_through_the_shortcuts():
    card = _card(title="Alpha")
    for source in ("card.__class__", "card.title.__class__.__mro__", "{'a': 1}.__class__"):
        with pytest.raises(ExpressionError, match="not allowed: access to attribute '__class__'"):
            Expr(source + ".x")({"card": card})
    with pytest.raises(ExpressionError, match="not allowed: access to attribute '__class__' of 'Fields'"):
        Expr("'{0.__class__}'.format(card)")({"card": card})
    with pytest.raises(ExpressionError, match="not allowed: access to attribute 'append' of 'list' object"):
        Expr("[1].append(2)")({})
    with pytest.raises(ExpressionError, match="not allowed: access to attribute 'pop' of 'Fields' object"):
        Expr("card.pop('title')")({"card": card})


def test_an_unsafe_or_context_taking_callable_still_goes_through_the_sandbox():
    @unsafe
    def secret():
        return "leaked"

    @pass_context
    def named(context, name):
        return context.get(name)

    def stops():
        raise StopIteration

    with pytest.raises(ExpressionError, match="not allowed: .* is not safely callable"):
        Expr("secret()")({"secret": secret})
    assert Expr("named('x')")({"named": named, "x": 7}) == 7
    with pytest.raises(ExpressionError, match="a callable raised a StopIteration exception"):
        Expr("stops()")({"stops": stops})
    assert Expr("'x'.upper() ~ 'ab'.replace('a', 'c')")({}) == "Xcb"
    with pytest.raises(ExpressionError, match="refused: 'ljust' of 1000000000 characters"):
        Expr("'x'.ljust(10**9)")({})


# -- lets that read nothing of the card -------------------------------------------------------------------

STEADY_RULES = """\
checks:
  - id: T-KNOWN
    section: "Titles are known"
    let:
      known: "pluck(cards, 'title') | map('lower') | list"
      mine: "card.title | lower"
    assert: "mine in known and count(known) == 3"
    message: "{{ card.title }} is not one of {{ known | join(', ') }}"
  - id: T-BROKEN
    section: "A let that fails"
    let:
      broken: "1 // (count(cards) - 3)"
    assert: "broken >= card.cost"
    message: never
"""


def test_a_let_that_reads_no_card_is_evaluated_once_and_fails_as_before(tmp_path, monkeypatch, capsys):
    cards = "cards:\n" + "".join(f"  - id: c{i}\n    title: C{i}\n    text: t\n    cost: {i}\n" for i in range(3))
    game = make_game(tmp_path, cards_yaml=cards, files={"rules.yaml": STEADY_RULES})
    runs: dict[str, int] = {}
    call = Expr.__call__

    def counted(self, context):
        runs[self.source] = runs.get(self.source, 0) + 1
        return call(self, context)
    monkeypatch.setattr(expressions.Expr, "__call__", counted)
    monkeypatch.chdir(game.parent)
    code = main(["check", game.name])
    err = capsys.readouterr().err
    assert code == 1
    assert headlines(err) == ["tiny/rules.yaml:12:15: error[E-RULES-EVAL]: T-BROKEN 'let: broken' on card 'c0': "
                              "integer division or modulo by zero"]
    assert runs["pluck(cards, 'title') | map('lower') | list"] == 1  # once for the three cards
    assert runs["card.title | lower"] == 3
    assert runs["1 // (count(cards) - 3)"] == 3  # a failure is not kept: each card fails, reported once


def test_where_over_plain_mappings_matches_as_the_general_way():
    from cardforge.rules.expressions import HELPERS
    items = [{"a": 1}, {"a": [1]}, {}, {"b": 2}, {"a": 1.0}, _card(a=True)]
    run = lambda source: Expr(source)(dict(HELPERS, xs=items))  # noqa: E731
    assert run("where(xs, 'a', 1)") == [{"a": 1}, {"a": 1.0}, {"a": True}]
    assert run("where(xs, 'a', none)") == [{}, {"b": 2}]
    assert run("where(xs, '', 1)") == []
    assert run("count(xs, 'a', [1])") == 1
    assert run("where(xs, 'a', 1, '!=')") == [{"a": [1]}, {}, {"b": 2}]
    assert run("count(xs, 'a')") == 4  # truthy: 1, [1], 1.0, True


# -- a template's Context, made without Jinja2's copies (layout/templates.py generate) ----------------

def test_a_template_sees_its_context_and_the_globals_and_leaves_the_context_as_it_was():
    from cardforge.layout.templates import Template
    context = {"card": Fields({"name": "Ace", "cost": 3}), "side": "front"}
    template = Template("{% set total = card.cost * 2 %}{{ card.name }}: {{ total }}"
                        "{% for i in range(2) %}.{% endfor %}")
    assert template.render(context) == "Ace: 6.."
    assert context == {"card": {"name": "Ace", "cost": 3}, "side": "front"}  # `set` wrote to the template's own frame
    assert "range" not in context and "total" not in context
    assert Template("{{ card.name }}").render({"card": Fields({"name": "Two"})}) == "Two"  # no state left over


def test_a_template_with_blocks_and_one_refused_by_the_sandbox_behave_as_before():
    from cardforge.layout.templates import Template, TemplateFailure
    assert Template("{% block title %}{{ card.name }}{% endblock %}!").render({"card": {"name": "Ace"}}) == "Ace!"
    with pytest.raises(TemplateFailure, match="not allowed"):
        Template("{{ card.__class__ }}").render({"card": {"name": "Ace"}})
    with pytest.raises(TemplateFailure, match="'titel' is undefined"):
        Template("{{ titel }}").render({"card": {"name": "Ace"}})
