"""Jinja2 templates from content, run in an immutable sandbox.

Content is untrusted: the sandbox forbids attribute access to internals and any
mutation, templates see only plain data (card fields, game info), and undefined
names are errors rather than silently empty text.
"""
from __future__ import annotations

import difflib
import functools
import json
import marshal
import math
import re
import threading
import types
from importlib.util import MAGIC_NUMBER
from typing import Any

from jinja2 import StrictUndefined, TemplateSyntaxError, Undefined, nodes, pass_eval_context
from jinja2.environment import TemplateExpression
from jinja2.compiler import CodeGenerator
from jinja2.exceptions import SecurityError, TemplateError, UndefinedError
from jinja2.filters import make_attrgetter
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment

from .. import diskcache
from ..limits import MAX_REPEAT, MAX_TEMPLATE_OUTPUT, LimitError, TimeLimit, limit_message, time_limit


class Absent(Undefined):
    """A field the card's deck declares but the card leaves out: undefined, not null.  It prints
    as nothing, is false, `is defined` is false and `is none` is false; using it in arithmetic or
    a comparison is an error that names it.  (A name that is no field at all stays an error.)"""

    __slots__ = ()


class UnknownFieldError(UndefinedError):
    """A card field no card of the deck can have: a mistake in the layout, not in one card."""


class UnknownField(StrictUndefined):
    """`card.titel` where the deck has no such field: an error that names the field and the
    deck's nearest field, raised on any use (printing, testing, arithmetic)."""

    __slots__ = ()


def unknown_field_message(name: str, known) -> str:
    """'the card has no field 'titel'; did you mean 'title'?' over the fields a card may have."""
    guess = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    hint = f"did you mean '{guess[0]}'?" if guess else f"its deck's fields are {', '.join(sorted(known))}"
    return f"'{name}' is not a field of this deck's cards; {hint}"


class _BoundedCodeGenerator(CodeGenerator):
    """Jinja2's code generator, except that `a ~ b` calls the sandbox's bounded_join: doubling a
    text forty times (`{% set ns.x = ns.x ~ ns.x %}`) would otherwise fill the memory."""

    def visit_Const(self, node: nodes.Const, frame) -> None:
        """A float literal too large for a float (`1e999`) is infinity, which Jinja2 would write into
        the compiled code as the undefined name `inf`: write a literal Python reads as infinity."""
        value = node.as_const(frame.eval_ctx)
        if isinstance(value, float) and not math.isfinite(value):
            self.write("(float(%r))" % str(value))
            return
        super().visit_Const(node, frame)

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.bounded_join((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


_compiling = threading.local()  # Sandbox._compile -> Sandbox.cached, per thread (`serve` has several)


class Sandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, and no 'x' * 10**9, 9 ** 9 ** 9 or text doubled without end: content
    is untrusted."""

    intercepted_binops = frozenset(["*", "**", "+", "%"])
    code_generator_class = _BoundedCodeGenerator

    def __init__(self, **options):
        super().__init__(**options)
        for name in ("center", "indent", "wordwrap", "truncate", "format", "batch", "slice"):
            self.filters[name] = _bounded_filter(name, self.filters[name])
        # join, replace and sum build their result in one C call, which no timer stops: sized first
        self.filters["join"] = _bounded_join
        self.filters["replace"] = _bounded_replace(self.filters["replace"])
        self.filters["sum"] = _bounded_sum(self.filters["sum"])
        del self.globals["lipsum"]  # lorem ipsum of any length; no card needs it

    def _compile(self, source: str, filename: str) -> types.CodeType:
        code = super()._compile(source, filename)
        _compiling.code = code  # what `cached` stores: the Python code Jinja2 generated
        return code

    def cached(self, source: str, kind: str, owner: str):
        """`from_string(source)` (kind "template") or `compile_expression(source, undefined_to_none=False)`
        ("expression"), with the Python code that Jinja2 generates from the disk cache (diskcache.py):
        parsing and generating it takes a millisecond or more per source, and `check` runs on every
        save.  The code depends only on the source, this sandbox (this file, Jinja2, the Python
        version) and the module `owner` that configures the environment; a source that does not
        compile is never stored, so its error is found again, the same."""
        key = (diskcache.fingerprint(__file__, "jinja2") + diskcache.fingerprint(owner) + MAGIC_NUMBER
               + kind.encode() + b"\0" + source.encode("utf-8", "surrogatepass"))
        stored = diskcache.get("jinja-code", key)
        if stored is not None:
            try:
                code = marshal.loads(stored)
            except (EOFError, ValueError, TypeError):  # a damaged entry is a miss
                code = None
            if isinstance(code, types.CodeType):
                template = self.template_class.from_code(self, code, self.make_globals(None), None)
                return template if kind == "template" else TemplateExpression(template, False)
        _compiling.code = None
        compiled = (self.from_string(source) if kind == "template"
                    else self.compile_expression(source, undefined_to_none=False))
        if _compiling.code is not None:
            diskcache.put("jinja-code", key, marshal.dumps(_compiling.code))
        return compiled

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja2's own signature
        """A text's own methods are sized like the filters: 'x'.ljust(10**9), 'x'.join(...),
        'a'.replace('a', long) would each fill the memory in one C call."""
        kind = type(__obj)
        owner = __obj.__self__ if kind is types.BuiltinFunctionType else getattr(__obj, "__self__", None)
        if isinstance(owner, str) and not kwargs:
            args = _sized_str_call(owner, getattr(__obj, "__name__", ""), args)
        # (a builtin function has no __dict__, so it can carry no mark)
        if kind is types.BuiltinFunctionType or (kind is types.FunctionType and _CALL_MARKS.isdisjoint(__obj.__dict__)):
            # A helper (count, where) or a method of plain data (dict.get): what the sandbox's call
            # and Context.call do for a function that carries none of the marks they look for
            # (unsafe, pass_context, ...), without looking them up one by one.
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            try:
                return __obj(*args, **kwargs)
            except StopIteration:
                return __self.undefined("value was undefined because a callable raised a StopIteration exception")
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value):
        """'{:>100000000}'.format(1) and '{:>{}}'.format(1, 10**9): widths beyond MAX_REPEAT refused."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        pattern = value.__self__
        _check_widths(value.__name__, pattern)

        def bounded(*args, **kwargs):
            if "{" in pattern.partition(":")[2]:  # a width taken from the arguments
                _no_large_ints(value.__name__, list(args) + list(kwargs.values()))
            return wrapped(*args, **kwargs)
        return bounded

    def bounded_join(self, values) -> str:
        parts = ["" if value is None else str(value) for value in values]  # a null field joins as nothing
        if sum(map(len, parts)) > MAX_TEMPLATE_OUTPUT:
            raise LimitError(limit_message("joined text", f"template output ({MAX_TEMPLATE_OUTPUT} characters)"))
        return "".join(parts)

    def getattr(self, obj, attribute):
        kind = type(obj)
        fields = kind.__name__ == "Fields"
        if fields and isinstance(attribute, str) and attribute not in obj:
            return self._missing(obj, attribute)
        # `card.title`, `pick.record`: a key of a mapping that is no attribute of it gives the item,
        # as the sandbox's getattr does once Python's getattr has failed (raising and catching
        # AttributeError for every field read was a fifth of a rules expression's time).
        if (kind is dict or fields) and type(attribute) is str and (kind is dict or attribute not in obj.__dict__):
            if attribute in obj and attribute not in _attributes_of(kind):
                return obj[attribute]
            if attribute in _READING_METHODS:  # `pick.record.get('year')`: the method, as the sandbox allows it
                return getattr(obj, attribute)
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        if type(obj).__name__ == "Fields" and isinstance(argument, str) and argument not in obj:
            return self._missing(obj, argument)
        return super().getitem(obj, argument)

    def _missing(self, fields, name: str):
        """A card field the card leaves out: absent when its deck declares it, else an error."""
        if name in fields.declared:
            return Absent(obj=fields, name=name, hint=f"the card has no '{name}' (it is absent, not null)")
        if hasattr(dict, name):
            return super().getattr(fields, name)  # the mapping's own methods (card.items())
        if not fields.declared:  # a deck that declares no fields: other cards may have it
            return self.undefined(obj={}, name=name)
        known = set(fields.declared) | ({"id"} & set(fields))  # the same list whichever card comes first
        return UnknownField(obj=fields, name=name, hint=unknown_field_message(name, known),
                            exc=UnknownFieldError)

    def call_binop(self, context, operator, left, right):
        if operator == "+":
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)) \
                    and len(left) + len(right) > MAX_TEMPLATE_OUTPUT:
                raise LimitError(limit_message("joined text or list", f"{MAX_TEMPLATE_OUTPUT} items"))
            return left + right
        if operator == "%":
            if isinstance(left, str):
                _check_widths("%", left)
                if "*" in left:  # '%*d' % (10**9, 1): the width is an argument
                    _no_large_ints("%", right if isinstance(right, tuple) else [right])
            return left % right
        if operator == "**":
            if isinstance(right, (int, float)) and abs(right) > 64:
                raise LimitError("exponent larger than the limit of 64")
            return left ** right
        for seq, times in ((left, right), (right, left)):
            if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > MAX_REPEAT:
                raise LimitError(limit_message("repeated text or list", f"repetition ({MAX_REPEAT})"))
        return left * right


# What Jinja2 looks for on a callable before calling it (utils.unsafe, pass_context and the like,
# Django's alters_data, and a __call__ of its own): a function without any of them is called as is.
_CALL_MARKS = frozenset({"unsafe_callable", "alters_data", "jinja_pass_arg", "__call__"})


# Methods of a mapping that only read it, which the immutable sandbox gives as they are (neither
# internal nor mutating); a field of the same name does not hide them (`card.items` is the method).
_READING_METHODS = frozenset({"get", "keys", "values", "items"})


@functools.lru_cache(maxsize=None)
def _attributes_of(kind: type) -> frozenset:
    """The attribute names an instance of `kind` (dict or frontend/model.Fields) has without an
    instance dictionary: its class's and its bases' (dir() of a class leaves out the metaclass,
    which an instance does not see either)."""
    return frozenset(dir(kind))


def _check_widths(name: str, pattern: str) -> None:
    """A printf pattern ('%0100000000d') may not ask for a width beyond MAX_REPEAT."""
    if any(int(n) > MAX_REPEAT for n in re.findall(r"\d+", pattern)):
        raise LimitError(f"'{name}' with a width larger than the limit of repetition ({MAX_REPEAT})")


def _no_large_ints(name: str, values) -> None:
    if any(isinstance(v, int) and not isinstance(v, bool) and v > MAX_REPEAT for v in values):
        raise LimitError(f"'{name}' with a width larger than the limit of repetition ({MAX_REPEAT})")


def _bounded_filter(name: str, original):
    """A filter that pads or formats (center, indent, wordwrap, format, ...) refused a width, or a
    format field, beyond MAX_REPEAT: "'x' | center(10**9)" would fill the memory."""
    def bounded(*args, **kwargs):
        values = list(args[1:]) + list(kwargs.values())
        if name == "format" and args and isinstance(args[0], str):
            _check_widths(name, args[0])
        _no_large_ints(name, values)
        return original(*args, **kwargs)
    return bounded

def _too_long(size: int, what: str, unit: str = "characters") -> None:
    if size > MAX_TEMPLATE_OUTPUT:
        raise LimitError(limit_message(f"{what} of {size} {unit}", f"template output "
                                       f"({MAX_TEMPLATE_OUTPUT} {unit})"))


def _replaced_size(text: str, old: str, new: str, count: int = -1) -> int:
    times = text.count(old) if old else len(text) + 1
    if count is not None and 0 <= count < times:
        times = count
    return len(text) + times * (len(new) - len(old))


def _sized_str_call(text: str, method: str, args: tuple) -> tuple:
    """The arguments of a call of one of text's methods, once its result is known to be small."""
    if method in ("ljust", "rjust", "center", "zfill") and args and isinstance(args[0], int):
        _too_long(args[0], f"'{method}'")
    elif method == "expandtabs":
        size = args[0] if args and isinstance(args[0], int) else 8
        _too_long(len(text) + text.count("\t") * max(size, 0), "'expandtabs'")
    elif method == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        _too_long(_replaced_size(text, *args[:3]), "'replace'")
    elif method == "join" and args:
        items = list(args[0])
        _too_long(sum(len(i) if isinstance(i, str) else 0 for i in items) + len(text) * max(len(items) - 1, 0),
                  "'join'")
        args = (items, *args[1:])
    return args


@pass_eval_context
def _bounded_join(eval_ctx, value, d: str = "", attribute=None):
    """Jinja2's join, sized before it joins."""
    items = list(value)
    if attribute is not None:
        getter = make_attrgetter(eval_ctx.environment, attribute)
        items = [getter(item) for item in items]
    texts = [item if isinstance(item, str) else str(item) for item in items]
    sep = str(d)
    _too_long(sum(map(len, texts)) + len(sep) * max(len(texts) - 1, 0), "joined text")
    return sep.join(texts)


def _bounded_replace(original):
    @functools.wraps(original)
    def replace(eval_ctx, s, old, new, count=None):
        if isinstance(s, str) and isinstance(old, str) and isinstance(new, str):
            _too_long(_replaced_size(s, old, new, -1 if count is None else count), "replaced text")
        return original(eval_ctx, s, old, new, count)
    return replace


def _bounded_sum(original):
    @functools.wraps(original)
    def bounded_sum(environment, iterable, attribute=None, start=0):
        items = list(iterable)
        if attribute is not None:
            getter = make_attrgetter(environment, attribute)
            items = [getter(item) for item in items]
        if isinstance(start, (list, tuple)) or any(isinstance(i, (list, tuple)) for i in items):
            # lists summed are concatenated: once, in linear time (sum() copies the total each step)
            if not all(isinstance(i, (list, tuple)) for i in items) or not isinstance(start, (list, tuple)):
                raise TypeError("sum of lists needs start=[] and lists only")
            _too_long(len(start) + sum(map(len, items)), "summed list", "items")
            out = list(start)
            for item in items:
                out.extend(item)
            return out
        return original(environment, items, None, start)
    return bounded_sum


# An optional field a card leaves out is None: it prints as nothing, not as the word "None".
def _printable(value: Any) -> Any:
    """What `{{ value }}` prints.  None prints as nothing; a method (`{{ card.items }}`) is an error,
    since its text names a memory address and would change from run to run."""
    if value is None:
        return ""
    if isinstance(value, (types.MethodType, types.BuiltinFunctionType, types.FunctionType)):
        raise TypeError(f"'{value.__name__}' is a method, not a value: call it with ()")
    return value


_env = Sandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False, finalize=_printable)
_env.filters["roman"] = lambda n: _roman(int(n))
_env.globals["range"] = lambda *a: _range(*a)


def _range(*args) -> range:
    r = range(*args)
    if len(r) > 1000:
        raise LimitError(f"range of {len(r)} values is larger than the limit of 1000 in a layout")
    return r


class TemplateFailure(Exception):
    """A template that cannot run.  Code E-LAYOUT-FIELD: it names a card field its deck does not
    have, which is the layout's mistake and reported once, at the template (render/face.py)."""

    def __init__(self, message: str, line: int | None = None, code: str = "E-TEMPLATE", help: str | None = None):
        super().__init__(message)
        self.message, self.line, self.code, self.help = message, line, code, help


class Template:
    """A compiled template, or a constant when the source has no Jinja syntax."""

    __slots__ = ("source", "_compiled", "_over_limit")

    def __init__(self, source: str):
        self.source = source
        self._compiled = None
        self._over_limit: TemplateFailure | None = None  # once over a limit, not run again for the next card
        if "{{" in source or "{%" in source or "{#" in source:
            self._compiled = _compiled(source, "template")

    @property
    def is_constant(self) -> bool:
        return self._compiled is None

    def render(self, context: dict[str, Any]) -> str:
        if self._compiled is None:
            return self.source
        if self._over_limit is not None:
            raise self._over_limit
        try:
            return _run("template", lambda: _joined(generate(self._compiled, context)))
        except TemplateFailure as exc:
            if exc.code == "E-LIMIT":
                self._over_limit = exc
            raise


class Expression:
    """A sandboxed Jinja2 expression giving a value (a list of table rows, a number)."""

    __slots__ = ("source", "_compiled")

    def __init__(self, source: str):
        self.source = source
        self._compiled = _compiled(source, "expression")

    def evaluate(self, context: dict[str, Any]) -> Any:
        value = _run("expression", lambda: run_expression(self._compiled, context))
        return None if isinstance(value, Undefined) else value


def run_expression(compiled: TemplateExpression, context: dict[str, Any]) -> Any:
    """`compiled(**context)` without copying the context three times: the rules run thousands of
    expressions per check, each with a context of some forty names."""
    template = compiled._template
    frame = _context(template, context)
    for _ in template.root_render_func(frame):
        pass
    return frame.vars["result"]


def generate(template, context: dict[str, Any]):
    """`template.generate(context)` without copying the context twice: a build renders tens of
    thousands of small templates (`{{ card.name }}`), and making their Context was half of each."""
    return template.root_render_func(_context(template, context))


def _context(template, parent: dict[str, Any]) -> Context:
    """The Context Jinja2's `template.new_context(parent, shared=True)` makes: the context is the
    read-only parent scope (a template's `{% set %}` writes to the Context's own `vars`), merged
    with the environment's globals when there are any, as Jinja2 does.  A template with blocks
    gets Jinja2's own; the generated code, and so the sandbox, are Jinja2's in both cases."""
    try:
        names = template._cardforge_globals
    except AttributeError:  # Jinja2's globals are a ChainMap (the template's over the environment's): slow to merge
        names = template._cardforge_globals = dict(template.globals)
    if template.blocks:
        return template.new_context({**names, **parent}, shared=True)
    return _FastContext(template, {**names, **parent} if names else parent)


class _FastContext(Context):
    """Jinja2's Context for a template without blocks, made for less: the parent is not copied
    again, and the (empty) blocks are not copied.  Creating Jinja2's Context was ~40% of
    evaluating a rules expression."""

    def __init__(self, template, parent: dict[str, Any]):  # noqa: D107 - no super().__init__: that is the cost
        self.parent = parent
        self.vars = {}
        self.environment = template.environment
        self.eval_ctx = EvalContext(template.environment, template.name)  # an {% autoescape %} block changes it
        self.exported_vars = set()
        self.name = template.name
        self.globals_keys = template._cardforge_globals.keys()
        self.blocks = {}


_cache: dict[tuple[str, str], Any] = {}
CACHE_LIMIT = 4096  # distinct sources kept compiled; layouts have tens to hundreds


def _compiled(source: str, kind: str):
    """Each distinct template or expression is compiled once per process (Jinja2 compiles to Python
    code, about a millisecond each); many frames and layouts share the same sources."""
    key = (kind, source)
    compiled = _cache.get(key)
    if compiled is None:
        try:
            compiled = _env.cached(source, kind, __file__)
        except TemplateSyntaxError as exc:
            raise TemplateFailure(f"{kind} syntax error: {exc.message}", exc.lineno) from None
        except RecursionError:
            raise TemplateFailure(f"{kind} is nested too deeply to compile") from None
        if len(_cache) >= CACHE_LIMIT:
            _cache.clear()
        _cache[key] = compiled
    return compiled


def _joined(chunks) -> str:
    """A template's output, refused as soon as it grows past MAX_TEMPLATE_OUTPUT characters."""
    out, size = [], 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_TEMPLATE_OUTPUT:
            raise TemplateFailure(limit_message("output", f"template output ({MAX_TEMPLATE_OUTPUT} characters)"),
                                  code="E-LIMIT")
        out.append(chunk)
    return "".join(out)


def _run(what: str, call) -> Any:
    """Run content's template or expression; every failure becomes a TemplateFailure to report."""
    try:
        with time_limit():
            return call()
    except TimeLimit as exc:
        raise TemplateFailure(f"{what} stopped: {exc}", code="E-LIMIT") from None
    except LimitError as exc:
        raise TemplateFailure(f"{what} refused: {exc}", code="E-LIMIT") from None
    except SecurityError as exc:
        raise TemplateFailure(f"{what} not allowed: {exc}") from None
    except UnknownFieldError as exc:
        message, _, help = str(exc.message).partition("; ")
        raise TemplateFailure(message, code="E-LAYOUT-FIELD", help=help or None) from None
    except TemplateError as exc:
        raise TemplateFailure(f"{what} error: {exc.message or exc}") from None
    except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as exc:
        raise TemplateFailure(f"{what} error: {exc}") from None
    except RecursionError:
        raise TemplateFailure(f"{what} error: it recurses too deeply (a macro that calls itself?)") from None


def render_bounded(template, context: dict[str, Any], what: str = "template") -> str:
    """A compiled Jinja2 template's output, within the time and output limits (TemplateFailure)."""
    return _run(what, lambda: _joined(generate(template, context)))


def truthy(text: str) -> bool:
    """A rendered `when:` condition: empty, false, no, 0 and none are false, and so is an empty list
    or mapping (`when: []`, or `{{ card.traits }}` of a card with no traits)."""
    return text.strip().lower() not in ("", "false", "no", "0", "none", "[]", "{}", "()")


def _roman(n: int) -> str:
    values = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
              (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for value, letters in values:
        while n >= value:
            out, n = out + letters, n - value
    return out
_fields: dict[str, list[str]] = {}
_PIECE_VARS = ("card", "board")


def fields_read(source: str) -> list[str]:
    """The fields of `card` / `board` a template reads, in order of appearance; none for a template
    that does not parse (its error is reported where it is compiled).  Remembered per process and
    in the disk cache (diskcache.py): `check` would otherwise parse every template of every layout."""
    found = _fields.get(source)
    if found is None:
        key = diskcache.fingerprint(__file__, "jinja2") + source.encode("utf-8", "surrogatepass")
        stored = diskcache.get("template-fields", key)
        if stored is not None:
            try:
                found = [name for name in json.loads(stored) if isinstance(name, str)]
            except (ValueError, TypeError):  # a damaged entry: parsed again
                found = None
        if found is None:
            found = []
            try:
                tree = parse(source)
            except Exception:  # noqa: BLE001 - reported where the template is compiled
                tree = None
            if tree is not None:
                for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
                    if isinstance(node.node, nodes.Name) and node.node.name in _PIECE_VARS:
                        name = node.attr if isinstance(node, nodes.Getattr) else getattr(node.arg, "value", None)
                        if isinstance(name, str) and name not in found:
                            found.append(name)
                diskcache.put("template-fields", key, json.dumps(found).encode())
        if len(_fields) >= CACHE_LIMIT:
            _fields.clear()
        _fields[source] = found
    return found


def parse(source: str):
    """The template syntax tree (to find the fields a template reads), from the same sandbox."""
    return _env.parse(source)
