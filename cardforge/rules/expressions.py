"""The rules language: sandboxed Jinja2 expressions over card data, with a few helpers.

A rules file states conditions such as

    count(where(groups.crew, 'position', card.position)) == 1

Expressions are compiled once by Jinja2's ImmutableSandboxedEnvironment (no access to
Python internals, no mutation) and see only plain data: card views (dicts), lists, numbers
and text.  Helpers, all pure functions over that data:

    count(items, key=None, value=<any>, op='==')   how many items (whose `key` matches)
    sum(items, key=None)                           the sum of the items (or of their `key`)
    where(items, key=None, value=<any>, op='==')   the items whose `key` matches
    any(items, key=None, value=<any>, op='==')     true if one item matches
    all(items, key=None, value=<any>, op='==')     true if every item matches
    pluck(items, path)                             every value at a dotted path, flattened
    marked(text)                                   the **bold** terms of a text: [{term, after}]
    icons(text, prefix='')                         the :icon: names in a text
    lookup, sum_lookup, band, cell, floor, ceil    tables as functions (see lookups.py)
    group(name)                                    the cards of a named group

`key` is a dotted path ('sight.clock'); without `value` an item matches when the key is
truthy.  `op` is one of == != < <= > >= in, 'not in', contains, 'not contains', and for text 'word in' (the
item's key is a whole word of `value`), 'has word' and matches (a regular expression; textmatch.py).

Also: gaps, overlaps, copies, duplicates (sets.py); has_word, words, matches, find_all (textmatch.py).

Before anything runs, `analyse` walks an expression's syntax tree and returns the names,
card fields and group names it uses, so that a rule naming a field no card has is reported
at its line and column in the rules file rather than failing (or passing) silently.
"""
from __future__ import annotations

import operator
import pickle
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateSyntaxError, Undefined, nodes
from jinja2.exceptions import SecurityError, TemplateError
from jinja2.parser import Parser
from .. import diskcache
from ..layout.templates import Absent, Sandbox, TemplateFailure, render_bounded, run_expression
from ..limits import LimitError, TimeLimit, time_limit
from ..layout.text import icon_names
from .lookups import LOOKUP_HELPERS, LookupFailure
from .paths import ANY, get_parts, get_path, items_of as _items, path_parts  # noqa: F401 (get_path: run.py)
from .sets import SET_HELPERS
from .textmatch import TEXT_HELPERS, h_has_word, h_matches

MAX_RANGE = 10_000

_env = Sandbox(undefined=StrictUndefined, autoescape=False)
_env.globals.clear()  # no lipsum, cycler, dict, namespace, joiner: only what is listed here


def _compare(left: Any, op: str, right: Any) -> bool:
    try:
        if op == "==":
            return left == right
        if op == "!=":
            return left != right
        if op == "<":
            return left < right
        if op == "<=":
            return left <= right
        if op == ">":
            return left > right
        if op == ">=":
            return left >= right
        if op == "in":
            return left in right
        if op == "not in":
            return left not in right
        if op == "contains":
            return right in left
        if op == "not contains":
            return right not in left
        if op == "word in":  # left occurs in the text right as a whole word (plural s or 's allowed)
            return isinstance(left, str) and h_has_word(right, left, plural=True)
        if op == "has word":  # the text left has right as a whole word
            return isinstance(right, str) and h_has_word(left, right, plural=True)
        if op == "matches":  # the text left matches the regular expression right
            return isinstance(left, str) and h_matches(left, right)
    except TypeError:
        return False
    raise ValueError(f"unknown comparison '{op}' (use == != < <= > >= in, not in, contains, not contains, "
                     "'word in', 'has word', matches)")


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "in": lambda left, right: left in right, "not in": lambda left, right: left not in right,
    "contains": lambda left, right: right in left, "not contains": lambda left, right: right not in left,
    "word in": lambda left, right: isinstance(left, str) and h_has_word(right, left, plural=True),
    "has word": lambda left, right: isinstance(right, str) and h_has_word(left, right, plural=True),
    "matches": lambda left, right: isinstance(left, str) and h_matches(left, right),
}


def _matcher(key: str | None, value: Any, op: str) -> Callable[[Any], Any]:
    """item -> whether it matches (where, count, any, all): the key split and the comparison chosen
    once for all the items, with _compare's results and errors (made only once there is an item)."""
    if key is None or key == "":
        parts = None
    else:
        parts = path_parts(key)
    if parts is None:
        get = None
    elif len(parts) == 1:  # the common case, `where(picks, 'deck', 'zones')`: a mapping's key
        part = parts[0]

        def get(item):
            return item.get(part) if isinstance(item, dict) else get_parts(item, parts)
    else:
        def get(item):
            return get_parts(item, parts)
    if value is ANY:
        return bool if get is None else (lambda item: bool(get(item)))
    compare = _OPERATORS.get(op) if type(op) is str else None
    if compare is None:  # not a comparison: _compare raises its error
        return lambda item: _compare(item if get is None else get(item), op, value)
    if op == "==":
        def match(item):
            got = item if get is None else get(item)
            try:
                return got == value
            except TypeError:
                return False
        return match

    def match(item):
        got = item if get is None else get(item)
        try:
            return compare(got, value)
        except TypeError:
            return False
    return match


def h_where(items, key=None, value=ANY, op="=="):
    items = _items(items)
    if not items:
        return []
    if value is not ANY and type(op) is str and op == "==" and type(key) is str and key and "." not in key \
            and all(isinstance(item, dict) for item in items):
        # where(cards, 'name', x) over plain mappings, without a call per item; a comparison that
        # raises TypeError (counted as no match) sends it the general way
        try:
            return [item for item in items if item.get(key) == value]
        except TypeError:
            pass
    match = _matcher(key, value, op)
    return [item for item in items if match(item)]


def h_count(items, key=None, value=ANY, op="=="):
    if key is None and value is ANY:
        return len(_items(items))
    return len(h_where(items, key, value, op))


def h_sum(items, key=None):
    total = 0
    for item in _items(items):
        got = get_path(item, key) if key is not None else item
        for number in (got if isinstance(got, list) else [got]):
            if number is None:
                continue
            if isinstance(number, bool) or not isinstance(number, (int, float)):
                raise TypeError(f"sum: {number!r} is not a number")
            total += number
    return total


def h_any(items, key=None, value=ANY, op="=="):
    items = _items(items)
    return bool(items) and any(map(_matcher(key, value, op), items))


def h_all(items, key=None, value=ANY, op="=="):
    items = _items(items)
    return not items or all(map(_matcher(key, value, op), items))


def h_pluck(items, path):
    out = []
    for item in _items(items):
        got = get_path(item, path)
        if isinstance(got, list):
            out.extend(got)
        elif got is not None:
            out.append(got)
    return out


MARK_RE = re.compile(r"(?<!\\)\*\*(.+?)(?<!\\)\*\*(?=([\s\S]{0,40}))")
WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def marked_terms(text: Any) -> list[dict[str, str]]:
    """Bold terms of rich text, each with the word right after it (lower case)."""
    if not isinstance(text, str) or "**" not in text:
        return []
    out = []
    for match in MARK_RE.finditer(text):
        term = match.group(1).strip()
        if not term or term.startswith("*"):
            continue
        tail = match.group(2)
        word = WORD_RE.match(tail.lstrip())
        after = word.group(0).lower() if word and not tail[:1].isalnum() else ""
        out.append({"term": term, "after": after})
    return out


def _range(*args):
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise LimitError(f"range of more than the limit of {MAX_RANGE} values")
    return r


HELPERS: dict[str, Callable] = {
    "count": h_count, "sum": h_sum, "where": h_where, "any": h_any, "all": h_all,
    "pluck": h_pluck, "marked": marked_terms, "icons": icon_names, "range": _range,
    **LOOKUP_HELPERS, **SET_HELPERS, **TEXT_HELPERS,
}
# Helpers whose second argument is a key into the items of their first argument.
KEYED = ("count", "sum", "where", "any", "all", "pluck")


class ExpressionError(Exception):
    """An expression that does not compile, or fails when evaluated."""

    def __init__(self, message: str, column: int | None = None, lookup: LookupFailure | None = None,
                 code: str = "E-RULES-EVAL", needle: str | None = None):
        super().__init__(message)
        self.message, self.column, self.lookup, self.code = message, column, lookup, code
        self.needle = needle  # the source from the fault on, to point the caret at it


_STRING_OR_EQUALS = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[=!<>]=|=""")


def _parses(source: str) -> bool:
    try:
        Parser(_env, source, state="variable").parse_expression()
        return True
    except (TemplateSyntaxError, RecursionError):
        return False


def lone_equals(source: str) -> int | None:
    """Where a single '=' stands outside a string literal (a designer's equality test written as in
    a spreadsheet), or None.  '==', '!=', '<=' and '>=' are comparisons and pass."""
    for match in _STRING_OR_EQUALS.finditer(source):
        if match.group() == "=":
            return match.start()
    return None


@dataclass
class Usage:
    """What an expression refers to, found in its syntax tree."""
    names: set[str] = field(default_factory=set)
    # (variable, field) for `card.x` / `recipe['x']`: the first key read from a card view
    fields: list[tuple[str, str]] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)  # groups.x and group('x')
    values: list[str] = field(default_factory=list)  # values.x
    # (collection expression kind, collection name, key) for where(groups.x, 'key', ...)
    keys: list[tuple[str, str, str]] = field(default_factory=list)


_compiled: dict[str, tuple[Callable, Usage]] = {}


class Expr:
    """One compiled expression of a rules file."""

    __slots__ = ("source", "_fn", "usage")

    def __init__(self, source: str):
        self.source = source
        compiled = _compiled.get(source)
        if compiled is None:  # compiled once per process: the preview recompiles rules after every save
            usage = stored = _stored_usage("expression", source)
            try:
                if usage is None:
                    usage = analyse(Parser(_env, source, state="variable").parse_expression())
                fn = _env.cached(source, "expression", __file__)
            except TemplateSyntaxError as exc:
                at = lone_equals(source)
                if at is not None and _parses(source[:at] + "==" + source[at + 1:]):
                    raise ExpressionError("'=' does not compare: an expression tests equality with '=='",
                                          column=at, needle=source[at:]) from None
                raise ExpressionError(f"expression does not parse: {exc.message}") from None
            except RecursionError:
                raise ExpressionError("expression is nested too deeply to parse") from None
            if stored is None:  # kept once it also compiled
                _store_usage("expression", source, usage)
            if len(_compiled) > 4096:
                _compiled.clear()
            compiled = _compiled[source] = (fn, usage)
        self._fn, self.usage = compiled

    def __call__(self, context: dict[str, Any]) -> Any:
        try:
            with time_limit():
                result = run_expression(self._fn, context)
            if isinstance(result, Absent):  # an absent card field as the whole expression: no value
                return None
            if isinstance(result, Undefined):  # `item.missing` as the whole expression: fail here, not later
                result._fail_with_undefined_error()
            return result
        except TimeLimit as exc:
            raise ExpressionError(f"stopped: {exc}", code="E-LIMIT") from None
        except LimitError as exc:
            raise ExpressionError(f"refused: {exc}", code="E-LIMIT") from None
        except SecurityError as exc:
            raise ExpressionError(f"not allowed: {exc}") from None
        except TemplateError as exc:
            raise ExpressionError(exc.message or str(exc)) from None
        except LookupFailure as exc:
            raise ExpressionError(str(exc), lookup=exc) from None
        except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as exc:
            raise ExpressionError(str(exc)) from None
        except RecursionError:
            raise ExpressionError("it recurses too deeply") from None


class MessageTemplate:
    """A message or help text: a Jinja2 template rendered with the context of the failure.

    Parsed at once (syntax errors and the names it uses are found before any rule runs), compiled
    only when a rule fails and the message is needed."""

    __slots__ = ("source", "_tpl", "usage", "_templated")

    def __init__(self, source: str):
        self.source = source
        self._tpl = None
        self.usage = Usage()
        self._templated = "{{" in source or "{%" in source
        if self._templated:
            usage = _stored_usage("message", source)
            if usage is None:
                try:
                    usage = analyse(_env.parse(source))
                except TemplateSyntaxError as exc:
                    raise ExpressionError(f"template does not parse: {exc.message}") from None
                except RecursionError:
                    raise ExpressionError("template is nested too deeply to parse") from None
                _store_usage("message", source, usage)
            self.usage = usage

    def render(self, context: dict[str, Any]) -> str:
        if not self._templated:
            return self.source
        try:
            if self._tpl is None:
                self._tpl = _env.from_string(self.source)
            return render_bounded(self._tpl, context, "message")  # a message that loops is stopped
        except TemplateFailure as exc:
            return f"{self.source} (message failed: {exc.message})"
        except (SecurityError, TemplateError, TypeError, ValueError, ArithmeticError, LookupError,
                AttributeError, RecursionError) as exc:
            return f"{self.source} (message failed: {getattr(exc, 'message', None) or exc})"


def _usage_key(kind: str, source: str) -> bytes:
    return diskcache.fingerprint(__file__, "jinja2") + kind.encode() + b"\0" + source.encode("utf-8", "surrogatepass")


def _stored_usage(kind: str, source: str) -> Usage | None:
    """What a source that parsed before uses, from the disk cache (diskcache.py): parsing the
    expressions of a rules file again on every `check` is most of loading it."""
    stored = diskcache.get("rules-usage", _usage_key(kind, source))
    if stored is None:
        return None
    try:
        usage = pickle.loads(stored)
    except Exception:  # noqa: BLE001 - a damaged entry is a miss
        return None
    return usage if isinstance(usage, Usage) else None


def _store_usage(kind: str, source: str, usage: Usage) -> None:
    diskcache.put("rules-usage", _usage_key(kind, source), pickle.dumps(usage, protocol=pickle.HIGHEST_PROTOCOL))


CARD_VARIABLES = ("card", "recipe", "row")


def analyse(tree: nodes.Node) -> Usage:
    usage = Usage()
    everything = [tree, *tree.find_all(nodes.Node)]  # find_all leaves out the root itself

    def find_all(kinds):
        return (node for node in everything if isinstance(node, kinds))

    assigned = {n.name for n in find_all(nodes.Name) if n.ctx in ("store", "param")}
    for node in find_all(nodes.Name):
        if node.ctx == "load" and node.name not in assigned:
            usage.names.add(node.name)
    for node in find_all((nodes.Getattr, nodes.Getitem)):
        base = node.node
        if not isinstance(base, nodes.Name):
            continue
        key = node.attr if isinstance(node, nodes.Getattr) else (
            node.arg.value if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str) else None)
        if key is None:
            continue
        if base.name in CARD_VARIABLES:
            usage.fields.append((base.name, key))
        elif base.name == "groups":
            usage.groups.append(key)
        elif base.name == "values":
            usage.values.append(key)
    for call in find_all(nodes.Call):
        if not isinstance(call.node, nodes.Name):
            continue
        name = call.node.name
        if name == "group" and call.args and isinstance(call.args[0], nodes.Const):
            usage.groups.append(str(call.args[0].value))
        if name in KEYED and len(call.args) >= 2 and isinstance(call.args[1], nodes.Const) \
                and isinstance(call.args[1].value, str):
            first = call.args[0]
            key = call.args[1].value
            if isinstance(first, nodes.Name) and first.name in ("cards", "pool"):
                usage.keys.append(("all", first.name, key))
            elif isinstance(first, nodes.Getattr) and isinstance(first.node, nodes.Name) \
                    and first.node.name == "groups":
                usage.keys.append(("group", first.attr, key))
            elif isinstance(first, nodes.Call) and isinstance(first.node, nodes.Name) \
                    and first.node.name == "group" and first.args and isinstance(first.args[0], nodes.Const):
                usage.keys.append(("group", str(first.args[0].value), key))
            elif isinstance(first, nodes.Name) and first.name in CARD_VARIABLES:
                usage.keys.append(("card", first.name, key))
    return usage
