"""The Jinja sandbox every template runs in (chat templates and Jinja prompt templates).

Jinja's ``ImmutableSandboxedEnvironment`` already refuses ``str.format``
attribute escapes, calls of mutating methods (``list.append``) and private
attributes.  For the last it returns a silent undefined value, which prints
as an empty string; here it raises instead, so an escape attempt is an error,
never quietly different output.

A template is untrusted code, so each render is also bounded by
:class:`TemplateLimits`: the CPU time of the rendering thread (see "the time
limit" below: machine load does not change the outcome) and a size that no
string, list or output the template builds may exceed.  Time is checked at
every step that can repeat: each iteration of a for-loop over more than 16
items, the start of a loop over fewer that sits in another loop (a loop in
none runs once per render or per call: over a handful of items it needs no
check), each call (a macro, a method, a recursive ``loop()``), each checked
operator, and every 1,024 fields of a format being measured.

Sizes are checked before the value is built wherever a template can make a
large value from small arguments: ``*`` (of a list: what it holds, counted
through its items, see :func:`_holding`), ``**``, ``%`` and ``str.format``
(their real fields and widths, :mod:`promptkit.text.format_sizes`), the
globals ``lipsum``, the filters ``batch``, ``center``, ``format``, ``indent``,
``join``, ``replace``, ``slice``, ``sum``, ``tojson`` (its indent),
``urlize`` and ``wordwrap``, the text methods ``ljust``, ``rjust``,
``center``, ``zfill``, ``expandtabs``, ``replace``, ``join``, ``translate``,
``format``, ``format_map``, and ``int.to_bytes`` and ``dict.fromkeys``.
After one step (a few times the limit at most): ``+`` of two non-constant
operands, ``~``, every text method's result, every filter's result but those
that return a number, one of their arguments or a lazy sequence
(``|tojson|tojson|...`` stops at the first step past the limit), and the
output as it is produced.

Two changes make rendering cheaper without changing what a template may do
or what it renders:

* Lookups with a constant name (``message['role']``, ``message.content``,
  ``loop.index0``) are compiled with an inline path for the two objects chat
  templates read in every iteration: a plain ``dict`` that has the key, and the
  for-loop's ``loop``.  There the answer of the environment's ``getitem`` /
  ``getattr`` is known without calling them (a dict attribute such as
  ``.items`` always takes the full path); every other object takes the full,
  checked path.
* A template's globals are a plain dict taken when it is compiled (Jinja's
  ``ChainMap`` is copied on every render, which costs more than a small
  template's own work).  Globals are therefore set before any template is
  compiled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, MutableMapping
from itertools import chain, islice
from threading import get_ident
from time import monotonic, thread_time
from typing import Any, NoReturn

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.constants import LOREM_IPSUM_WORDS
from jinja2.exceptions import SecurityError
from jinja2.filters import (
    do_batch,
    do_center,
    do_format,
    do_indent,
    do_replace,
    do_tojson,
    do_urlize,
    do_wordwrap,
    make_attrgetter,
    sync_do_join,
    sync_do_slice,
)
from jinja2.runtime import Context, LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter
from jinja2.utils import Namespace, generate_lorem_ipsum, pass_context

from promptkit.text.format_sizes import format_bound, percent_bound
from promptkit.text.limits import LimitExceeded, TemplateLimits, describe, one_line

__all__ = ["LimitExceeded", "StrictSandbox", "TemplateLimits", "check_json_indent", "check_size", "describe", "one_line", "render"]

# An integer with more digits than Python converts to text by default cannot be printed, so no template needs one.
_MAX_INT_DIGITS = 4300
_DIGITS_PER_BIT = math.log10(2)


class _LimitedContext(Context):
    """A render's context, carrying its limits: ``cpu_deadline`` (a ``time.thread_time()`` value), ``deadline`` (the
    ``time.monotonic()`` value before which the thread cannot reach it, see :func:`_past_deadline`) and ``max_chars``.

    Slots (the fastest attributes to read: the generated code reads ``max_chars`` at every checked ``+``), set by
    :func:`render` (``Template.render`` of these environments goes through it); a derived context (a scoped
    block) has its parent's.
    """

    __slots__ = ("cpu_deadline", "deadline", "limits", "max_chars")
    cpu_deadline: float
    deadline: float
    limits: TemplateLimits
    max_chars: int

    def derived(self, locals: dict[str, Any] | None = None) -> Context:
        context = super().derived(locals)
        context.limits, context.max_chars = self.limits, self.max_chars  # type: ignore[attr-defined]
        context.cpu_deadline, context.deadline = self.cpu_deadline, self.deadline  # type: ignore[attr-defined]
        return context


# --- the time limit: CPU time of the rendering thread --------------------------------------------------------------
#
# Reading a thread's CPU clock is a system call, eight times slower than reading the wall clock and as slow as a
# tenth of a small render.  A thread cannot use more CPU time than passes on the wall clock, so:
# * a render starts from a reading of its thread's CPU clock at most a millisecond old (one reading a millisecond
#   while one thread renders; a render is charged at most that millisecond of its thread's earlier work);
# * the checks read the wall clock against `deadline`, the earliest moment the CPU limit can be reached, and only
#   past it the CPU clock: either the limit is reached, or `deadline` moves to the next such moment.
# A render that waits for a core (a loaded machine) uses no more of its limit than on an idle one, and a render
# that never comes near its limit never reads the CPU clock.

_READ_EVERY = 0.001
# The last reading: (thread id, wall-clock time, the thread's CPU time), replaced as a whole (atomic for threads).
_last_reading: tuple[int, float, float] = (-1, -math.inf, 0.0)


def _past_deadline(context: _LimitedContext) -> float:
    """The wall clock passed ``context.deadline``: raise if the thread's CPU time is up too, else the new deadline."""
    left = context.cpu_deadline - thread_time()
    if left <= 0:
        raise LimitExceeded(f"it took more than seconds={context.limits.seconds:g} of CPU time", "seconds")
    context.deadline = deadline = monotonic() + left
    return deadline


class _Template(jinja2.Template):
    """A template of a :class:`StrictSandbox`: ``render`` keeps the default limits."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        return render(self, self.new_context(dict(*args, **kwargs)), TemplateLimits.of(None))


def _limited(context: Context) -> _LimitedContext:
    """``context`` as what it is: every context of a :class:`StrictSandbox` is a ``_LimitedContext``."""
    return context  # type: ignore[return-value]  # the environment's context_class


def _check_time(context: _LimitedContext) -> None:
    if monotonic() > context.deadline:
        _past_deadline(context)


def _ticker(context: _LimitedContext) -> Callable[[], None]:
    """The time check of ``context``, for a long computation to call now and then."""
    return lambda: _check_time(context)


def _allow(context: _LimitedContext, size: Any, how: str, what: str = "a string of", unit: str = "characters") -> None:
    """Refuse to build a value of ``size`` (when it is an int over the limit), made ``how``."""
    if isinstance(size, int) and size > context.max_chars:
        raise LimitExceeded(f"it would build {what} {size:,} {unit} with {how}, over max_chars={context.max_chars:,}", "max_chars")


_SCALARS = frozenset({int, float, bool, type(None)})


def _holding(value: Any, limit: int) -> int:
    """The items and characters ``value`` holds at any depth, counted each time it holds them (up to past ``limit``).

    What a container costs once printed, mapped or summed: ``['x' * 8000000] * 1000`` is a list of 1,000 items
    holding 8,000,001,000.  The walk stops once past ``limit``, so it costs at most ``limit`` steps.
    """
    total = 0
    stack = [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str | bytes):
            total += len(item)
        elif isinstance(item, list | tuple):
            total += len(item)
            kinds = set(map(type, item))  # most lists hold numbers or strings only: counted without a step per item
            if kinds == {str}:
                total += sum(map(len, item))
            elif not kinds <= _SCALARS:
                stack.extend(item)
        elif isinstance(item, Mapping):
            total += len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, Namespace):
            stack.append(object.__getattribute__(item, "_Namespace__attrs"))
    return total


def _allow_holding(context: _LimitedContext, value: Any, times: int, how: str, what: str = "a list") -> None:
    """Refuse to build a container holding ``value`` ``times`` times, over the limit (see :func:`_holding`)."""
    if times > 0 and _holding(value, context.max_chars // times) * times > context.max_chars:
        raise LimitExceeded(f"it would build {what} holding more than max_chars={context.max_chars:,} items and characters with {how}", "max_chars")


def _sized(context: _LimitedContext, value: Any, how: str) -> Any:
    """``value``, once its length (if it has one) and what it holds are within the limit."""
    if isinstance(value, str | bytes):
        _allow(context, len(value), how)
    elif isinstance(value, list | tuple):
        _allow(context, len(value), how, "a list of", "items")
        _allow_holding(context, value, 1, how)
    return value


def render(template: jinja2.Template, context: Context, limits: TemplateLimits) -> str:
    """``template`` rendered in ``context`` (made by ``template.new_context``) within ``limits``."""
    global _last_reading  # noqa: PLW0603  # the one CPU reading shared by the renders of a thread, see "the time limit"
    context.limits, context.max_chars = limits, limits.max_chars  # type: ignore[attr-defined]
    now = monotonic()
    thread, at, cpu = _last_reading
    if now - at > _READ_EVERY or thread != get_ident():
        thread, at, cpu = _last_reading = (get_ident(), now, thread_time())
    context.cpu_deadline, context.deadline = cpu + limits.seconds, now + limits.seconds  # type: ignore[attr-defined]
    parts = template.root_render_func(context)
    # The output is counted as it is produced: a first chunk of pieces at once (each piece is bounded where it
    # was built; most renders are one chunk), then piece by piece.
    text = "".join(islice(parts, _CHUNK))
    total = len(text)
    pieces = None
    for piece in parts:
        if pieces is None:
            pieces = [text]
        total += len(piece)
        if total > limits.max_chars:
            break
        pieces.append(piece)
    if total > limits.max_chars:
        raise LimitExceeded(f"its output would exceed max_chars={limits.max_chars:,} characters", "max_chars")
    return text if pieces is None else "".join(pieces)


_CHUNK = 16


# --- for-loops: the deadline checked as they run ----------------------------------------------------------------

# A loop over at most this many items of a plain container is checked at most once, when it starts: between two
# checks run at most this many iterations of a body with no loop or call in it (a chat template's loop over messages).
_UNMETERED = 16
_PLAIN_CONTAINERS = frozenset({list, tuple, dict, str, range, type({}.keys()), type({}.values()), type({}.items())})


def _ticking(items: Iterator[Any], context: _LimitedContext) -> Iterator[Any]:
    deadline = context.deadline
    for item in items:
        if monotonic() > deadline:
            deadline = _past_deadline(context)
        yield item


class _MeteredIterable:
    """A loop's iterable whose iterator checks the deadline at each item; sized, so ``loop.length`` reads no item early.

    An unsized iterable (a generator) is read into a list first, checking the deadline at each item.
    """

    __slots__ = ("_context", "_items")

    def __init__(self, iterable: Iterable[Any], context: _LimitedContext) -> None:
        self._context = context
        try:
            len(iterable)  # type: ignore[arg-type]  # probing
        except TypeError:
            iterable = list(_ticking(iter(iterable), context))
        self._items = iterable

    def __len__(self) -> int:
        return len(self._items)  # type: ignore[arg-type]  # sized: see __init__

    def __iter__(self) -> Iterator[Any]:
        return _ticking(iter(self._items), self._context)


# --- sizes of the operations that can make a large value from a small one ---------------------------------------


def _text_length(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes) else 0


def _replace_size(text: str | bytes, old: Any, new: Any, count: Any = -1) -> int:
    if not (isinstance(old, str | bytes) and isinstance(new, str | bytes)):
        return 0  # str.replace raises TypeError itself
    times = text.count(old) if old else len(text) + 1  # type: ignore[arg-type]  # same type as text, or count raises
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    return len(text) + times * (len(new) - len(old))


def _json_indent_size(value: Any, indent: Any, limit: int) -> int:
    """A lower bound of the indentation ``json.dumps(value, indent=indent)`` writes (counted up to ``limit``)."""
    unit = indent if isinstance(indent, int) else len(indent) if isinstance(indent, str) else 0
    total = 0
    stack = [(value, 1)]
    while stack and total <= limit:
        item, depth = stack.pop()
        items = list(item.values()) if isinstance(item, Mapping) else item if isinstance(item, list | tuple) else None
        if items is not None:
            total += (len(items) + 1) * (depth * unit + 1)
            stack.extend((child, depth + 1) for child in items)
    return total


def _check_multiply(context: _LimitedContext, left: Any, right: Any) -> None:
    for seq, times in ((left, right), (right, left)):
        if isinstance(times, int) and times > 0:
            if isinstance(seq, str | bytes):
                _allow(context, len(seq) * times, "'*'")
            elif isinstance(seq, list | tuple):
                _allow(context, len(seq) * times, "'*'", "a list of", "items")
                _allow_holding(context, seq, times, "'*'")
    if isinstance(left, int) and isinstance(right, int):
        _check_digits(left.bit_length() + right.bit_length() - 1, "'*'")


def _check_power(base: Any, exponent: Any) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        _check_digits((abs(base).bit_length() - 1) * exponent + 1, "'**'")


def _check_digits(bits: int, how: str) -> None:
    digits = int(bits * _DIGITS_PER_BIT)
    if digits > _MAX_INT_DIGITS:
        raise LimitExceeded(f"it would build an integer of about {digits:,} digits with {how}, over the {_MAX_INT_DIGITS:,} digits Python prints", None)


def _check_text_call(context: _LimitedContext, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """Refuse a text method call that would build a string over the limit; the arguments to call it with."""
    text, name = method.__self__, method.__name__
    how = f"{type(text).__name__}.{name}"
    if name in ("ljust", "rjust", "center", "zfill"):
        _allow(context, args[0] if args else kwargs.get("width"), how)
    elif name == "expandtabs":
        tabsize = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(tabsize, int):
            _allow(context, len(text) + text.count("\t" if isinstance(text, str) else b"\t") * tabsize, how)
    elif name == "replace" and len(args) >= 2:
        _allow(context, _replace_size(text, *args[:3]), how)
    elif name == "join" and args:
        items = list(args[0])
        _allow(context, sum(map(_text_length, items)) + len(text) * max(len(items) - 1, 0), how)
        return (items, *args[1:])
    elif name in ("format", "format_map") and isinstance(text, str):
        values: tuple[tuple[Any, ...], Any] = (args, kwargs) if name == "format" else ((), args[0] if args else {})
        if isinstance(values[1], Mapping):
            _allow(context, format_bound(text, *values, context.max_chars, SandboxedFormatter(context.environment), _ticker(context)), how)
    elif name == "translate" and args and isinstance(args[0], Mapping):
        _allow(context, len(text) * max(1, max(map(_text_length, args[0].values()), default=1)), how)
    return args


def _check_method_call(context: _LimitedContext, owner: Any, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """Refuse a call of another method that would build a value over the limit; the arguments to call it with."""
    name = getattr(method, "__name__", None)
    if name == "to_bytes" and isinstance(owner, int):
        _allow(context, args[0] if args else kwargs.get("length", 1), "int.to_bytes")
    elif name == "fromkeys" and args:  # dict.fromkeys(keys, value): the value once per key
        keys = list(args[0])
        _allow_holding(context, args[1] if len(args) > 1 else kwargs.get("value"), len(keys), "dict.fromkeys", "a dict")
        return (keys, *args[1:])
    return args


# --- the filters that can make a large string from a small one, bounded --------------------------------------------


@pass_context
def _center(context: Context, value: Any, width: int = 80) -> str:
    _allow(_limited(context), width, "the filter 'center'")
    return do_center(value, width)


@pass_context
def _format(context: Context, value: Any, *args: Any, **kwargs: Any) -> str:
    limited = _limited(context)
    text = value if isinstance(value, str) else str(value)
    _allow(limited, percent_bound(text, kwargs or args, limited.max_chars, _ticker(limited)), "the filter 'format'")
    return do_format(value, *args, **kwargs)


@pass_context
def _join(context: Context, value: Iterable[Any], d: str = "", attribute: str | int | None = None) -> str:
    limited = _limited(context)
    items = list(value)
    if attribute is None:
        _allow(limited, sum(map(_text_length, items)) + _text_length(d) * max(len(items) - 1, 0), "the filter 'join'")
    return _sized(limited, sync_do_join(context.eval_ctx, items, d, attribute), "the filter 'join'")  # type: ignore[no-any-return]


@pass_context
def _replace(context: Context, s: Any, old: Any, new: Any, count: int | None = None) -> str:
    _allow(_limited(context), _replace_size(str(s), str(old), str(new), count), "the filter 'replace'")
    return do_replace(context.eval_ctx, s, old, new, count)


@pass_context
def _indent(context: Context, s: Any, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    text = str(s)
    unit = len(width) if isinstance(width, str) else width
    if isinstance(unit, int):
        _allow(_limited(context), len(text) + (text.count("\n") + 1) * unit, "the filter 'indent'")
    return do_indent(s, width, first, blank)


@pass_context
def _wordwrap(context: Context, s: Any, width: int = 79, break_long_words: bool = True, wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    text = str(s)
    lines = len(text) // width + text.count("\n") + 1 if isinstance(width, int) and width > 0 else 1
    _allow(_limited(context), len(text) + lines * len(wrapstring or "\n"), "the filter 'wordwrap'")
    return do_wordwrap(context.environment, s, width, break_long_words, wrapstring, break_on_hyphens)


@pass_context
def _batch(context: Context, value: Iterable[Any], linecount: int, fill_with: Any = None) -> Iterator[list[Any]]:
    limited = _limited(context)
    _allow(limited, linecount, "the filter 'batch'", "a list of", "items")
    if isinstance(linecount, int):
        _allow_holding(limited, fill_with, linecount, "the filter 'batch'")
    return do_batch(value, linecount, fill_with)


@pass_context
def _slice(context: Context, value: Collection[Any], slices: int, fill_with: Any = None) -> Iterator[list[Any]]:
    limited = _limited(context)
    _allow(limited, slices, "the filter 'slice'", "a list of", "items")
    if isinstance(slices, int):
        _allow_holding(limited, fill_with, slices, "the filter 'slice'")
    return sync_do_slice(value, slices, fill_with)


@pass_context
def _sum(context: Context, iterable: Iterable[Any], attribute: str | int | None = None, start: Any = 0) -> Any:
    """Jinja's ``sum``; lists (or tuples) are joined in one pass, once what they hold is within the limit.

    (Python's ``sum`` copies the total so far at each list: quadratic in their number.)
    """
    items = list(iterable if attribute is None else map(make_attrgetter(context.environment, attribute), iterable))
    kind = type(start)
    if kind in (list, tuple) and all(type(item) is kind for item in items):
        limited = _limited(context)
        _allow_holding(limited, [start, *items], 1, "the filter 'sum'")
        return start + kind(chain.from_iterable(items))
    return sum(items, start)


@pass_context
def _urlize(
    context: Context, value: Any, trim_url_limit: int | None = None, nofollow: bool = False, target: str | None = None, rel: str | None = None,
    extra_schemes: Iterable[str] | None = None,
) -> str:
    text = str(value)
    # Each link is '<a href="https://..." rel="..." target="...">...</a>', its text and attributes escaped (at most
    # five characters for one); the shortest text made a link is five characters ('a@b.c'), and a space follows it.
    links = len(text) // 6 + 1
    attributes = 5 * (len(str(target or "")) + len(str(rel or ""))) + 64
    _allow(_limited(context), 10 * len(text) + links * attributes, "the filter 'urlize'")
    return do_urlize(context.eval_ctx, value, trim_url_limit, nofollow, target, rel, extra_schemes)  # type: ignore[no-any-return]


def check_size(context: Context, size: int, how: str) -> None:
    """Refuse to build a string of ``size`` characters over the render's limit (for functions the environments add)."""
    _allow(_limited(context), size, how)


def check_json_indent(context: Context, value: Any, indent: Any) -> None:
    """Refuse a ``tojson`` whose indentation alone would pass the limit (for tojson filters of the environments)."""
    if indent:
        limited = _limited(context)
        _allow(limited, _json_indent_size(value, indent, limited.max_chars), "the filter 'tojson'")


@pass_context
def _tojson(context: Context, value: Any, indent: int | None = None) -> Any:
    check_json_indent(context, value, indent)
    return do_tojson(context.eval_ctx, value, indent)


_GUARDED_FILTERS: dict[str, Callable[..., Any]] = {
    "batch": _batch,
    "center": _center,
    "format": _format,
    "indent": _indent,
    "join": _join,
    "replace": _replace,
    "slice": _slice,
    "sum": _sum,
    "tojson": _tojson,
    "urlize": _urlize,
    "wordwrap": _wordwrap,
}

# Filters whose result is a number, one of their arguments, a part of one, or a lazy sequence: not measured after.
# Every other filter's result is (a string that grows a little at each step, `|tojson|tojson|...`, stops there).
_NOT_GROWING = frozenset(
    {"abs", "attr", "count", "d", "default", "first", "float", "int", "last", "length", "map", "max", "min", "random", "reject",
     "rejectattr", "round", "safe", "select", "selectattr", "striptags", "trim", "truncate", "wordcount"}
)  # fmt: skip


# --- the globals that can make a large value from small arguments, bounded -----------------------------------------

_LOREM_WORD = max(map(len, LOREM_IPSUM_WORDS.split()))


@pass_context
def _lipsum(context: Context, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002  # Jinja's names
    """Jinja's ``lipsum``, refused before it runs when its longest possible text passes the limit."""
    if all(isinstance(number, int) for number in (n, min, max)):
        # At most max - 1 words of a paragraph, each with a comma or full stop and a space; '<p>', '</p>' and a line break.
        paragraph = (max - 1) * (_LOREM_WORD + 2) + 10 if max > 1 else 0
        _allow(_limited(context), n * paragraph, "lipsum")
    return generate_lorem_ipsum(n, html, min, max)


class _Namespace(Namespace):
    """``namespace()`` that refuses underscore-prefixed attribute names, given or set (as the sandbox refuses reading them)."""

    def __init__(*args: Any, **kwargs: Any) -> None:
        self, rest = args[0], args[1:]
        attrs = dict(*rest, **kwargs)
        for name in attrs:
            _check_name(name)
        Namespace.__init__(self, attrs)

    def __setitem__(self, name: str, value: Any) -> None:
        _check_name(name)
        Namespace.__setitem__(self, name, value)


def _check_name(name: Any) -> None:
    if isinstance(name, str) and name.startswith("_"):
        raise SecurityError(f"a template cannot store the underscore-prefixed attribute {name!r} on a namespace")


# --- the environment ----------------------------------------------------------------------------------------------

# The public attributes of a for-loop's `loop` variable: read in every iteration of most chat templates, and
# safe by construction, so a constant lookup of one is compiled without the sandbox's generic attribute check.
_LOOP_ATTRIBUTES = frozenset(
    {"index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0", "previtem", "nextitem", "cycle", "changed"}
)


# A `~` of at most this many parts is checked after it is built, a longer one before.
_FEW_PARTS = 4

# The temporary the inline code binds (a local of the generated function; Jinja's own names start with l_ or t_).
_HELD = "_lookup_held"


class _CodeGenerator(CodeGenerator):
    """Compiles the inline lookups and the limit checks described in the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The for-loop iterables being compiled, by id (Jinja allows no custom node to mark them): whether the loop
        # sits in another loop of the same function body.
        self._loop_iterables: dict[int, bool] = {}
        self._loops_open = 0

    def visit(self, node: nodes.Node, *args: Any, **kwargs: Any) -> Any:
        nested = self._loop_iterables.get(id(node))
        if nested is None:
            return super().visit(node, *args, **kwargs)
        if nested:
            self.write("environment.metered(context, ")
            super().visit(node, *args, **kwargs)
            self.write(")")
        else:
            # A loop in no other loop runs once per render or per (checked) call: a small list needs no check at all.
            self.write(f"({_HELD} if type({_HELD} := ")
            super().visit(node, *args, **kwargs)
            self.write(f") is list and len({_HELD}) <= {_UNMETERED} else environment.metered(context, {_HELD}))")
        return None

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        key = node.arg.value if isinstance(node.arg, nodes.Const) else None
        if type(key) is not str or self.environment.is_async:
            super().visit_Getitem(node, frame)
            return
        self._inline(node.node, frame, "dict", f" and {key!r} in {_HELD}", f"{_HELD}[{key!r}]", f"environment.getitem({_HELD}, {key!r})")

    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        name = node.attr
        if self.environment.is_async:
            super().visit_Getattr(node, frame)
        elif name in _LOOP_ATTRIBUTES:
            self._inline(node.node, frame, "LoopContext", "", f"{_HELD}.{name}", f"environment.getattr({_HELD}, {name!r})")
        elif not hasattr(dict, name):  # for a dict, getattr finds no attribute and reads the key
            self._inline(node.node, frame, "dict", f" and {name!r} in {_HELD}", f"{_HELD}[{name!r}]", f"environment.getattr({_HELD}, {name!r})")
        else:
            super().visit_Getattr(node, frame)

    def _inline(self, target: nodes.Node, frame: Frame, cls: str, also: str, fast: str, full: str) -> None:
        """``(fast if type(held := target) is cls<also> else full)``: ``target`` evaluated once.

        A lookup nested in ``target`` is finished before this one binds the temporary, and nothing is
        evaluated between binding and use, so one name serves every lookup.
        """
        self.write(f"({fast} if (type({_HELD} := ")
        self.visit(target, frame)
        self.write(f") is {cls}{also}) else {full})")

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        self._loop_iterables[id(node.iter)] = self._loops_open > 0
        self._loops_open += 1
        try:
            super().visit_For(node, frame)
        finally:
            self._loops_open -= 1
            del self._loop_iterables[id(node.iter)]

    def visit_Macro(self, node: nodes.Macro, frame: Frame) -> None:
        self._in_new_function(lambda: super(_CodeGenerator, self).visit_Macro(node, frame))

    def visit_CallBlock(self, node: nodes.CallBlock, frame: Frame) -> None:
        self._in_new_function(lambda: super(_CodeGenerator, self).visit_CallBlock(node, frame))

    def _in_new_function(self, write: Callable[[], None]) -> None:
        """Compile a macro body (run per call, and each call is checked): its loops are not nested in the caller's."""
        outer, self._loops_open = self._loops_open, 0
        try:
            write()
        finally:
            self._loops_open = outer

    def visit_Filter(self, node: nodes.Filter, frame: Frame) -> None:
        if self.environment.is_async or node.name in _NOT_GROWING:
            super().visit_Filter(node, frame)
        else:
            self._sized(lambda: CodeGenerator.visit_Filter(self, node, frame), f"the filter {node.name!r}")

    def visit_Add(self, node: nodes.BinExpr, frame: Frame) -> None:
        # A constant operand grows a value by a constant: only `x + y` can double one, so only that is checked.
        if self.environment.is_async or isinstance(node.left, nodes.Const) or isinstance(node.right, nodes.Const):
            super().visit_Add(node, frame)
        else:
            self._sized(lambda: CodeGenerator.visit_Add(self, node, frame), "'+'")

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        if self.environment.is_async:
            super().visit_Concat(node, frame)
        elif len(node.nodes) <= _FEW_PARTS:  # checked once built: at most a few times max_chars in memory
            self._sized(lambda: CodeGenerator.visit_Concat(self, node, frame), "'~'")
        else:  # `a ~ a ~ a ~ ...`: checked before it is built
            self.write("environment.concat_checked(context, (")
            for part in node.nodes:
                self.visit(part, frame)
                self.write(", ")
            self.write("))")

    def visit_Mod(self, node: nodes.BinExpr, frame: Frame) -> None:
        # `loop.index0 % 2` is in many chat templates' loops: an int left operand takes the direct path.
        if self.environment.is_async or not (isinstance(node.right, nodes.Const) and type(node.right.value) is int):
            super().visit_Mod(node, frame)
            return
        right = repr(node.right.value)
        self.write(f"({_HELD} % {right} if type({_HELD} := ")
        self.visit(node.left, frame)
        self.write(f") is int else environment.call_binop(context, '%', {_HELD}, {right}))")

    def _sized(self, write: Callable[[], None], how: str) -> None:
        """``(held if type(held := <written>) is str and len(held) <= max_chars else environment.sized(...))``."""
        self.write(f"({_HELD} if type({_HELD} := ")
        write()
        self.write(f") is str and len({_HELD}) <= context.max_chars else environment.sized(context, {_HELD}, {how!r}))")


class StrictSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox that bounds each render (see :func:`render`) and raises on unsafe attributes."""

    code_generator_class = _CodeGenerator
    context_class = _LimitedContext
    template_class = _Template
    # Intercepted (and so never folded at compile time): the operators that can make a huge value from small ones.
    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.filters.update(_GUARDED_FILTERS)
        self.globals["lipsum"] = _lipsum
        self.globals["namespace"] = _Namespace

    def unsafe_undefined(self, obj: Any, attribute: str) -> NoReturn:  # type: ignore[override]  # raise, never return a silent Undefined
        raise SecurityError(f"access to attribute {attribute!r} of a {type(obj).__name__!r} object is not allowed in a template")

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals: a snapshot of the environment's, overlaid by ``d`` (see the module docstring)."""
        return {**self.globals, **(d or {})}

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        limited = _limited(context)
        _check_time(limited)
        if operator == "*":
            _check_multiply(limited, left, right)
        elif operator == "**":
            _check_power(left, right)
        elif isinstance(left, str | bytes):  # '%': printf-style formatting
            _allow(limited, percent_bound(left, right, limited.max_chars, _ticker(limited)), "'%'")
        result = self.binop_table[operator](left, right)
        if type(result) is int:
            _check_digits(result.bit_length(), repr(operator))
            return result
        if operator == "*" and isinstance(result, list | tuple):  # measured before it was built
            return result
        return _sized(limited, result, repr(operator))

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805  # Jinja's names: never clash with kwargs
        limited = _limited(__context)
        _check_time(limited)
        method = getattr(__obj, "__wrapped__", __obj)  # str.format comes wrapped by the sandbox's getattr
        owner = getattr(method, "__self__", None)
        if isinstance(owner, str | bytes):  # a text method
            args = _check_text_call(limited, method, args, kwargs)
            return _sized(limited, super().call(__context, __obj, *args, **kwargs), f"{type(owner).__name__}.{method.__name__}")
        if type(__obj) is LoopContext and args:  # loop(children) in a recursive loop
            args = (__self.metered(__context, args[0]), *args[1:])
        elif owner is not None:
            args = _check_method_call(limited, owner, method, args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    def metered(self, context: Context, iterable: Any) -> Any:
        """A for-loop's iterable: checked once if it is a small plain container, else at each item."""
        if monotonic() > context.deadline:  # type: ignore[attr-defined]  # a _LimitedContext (this runs once per loop: no helper call)
            _past_deadline(_limited(context))
        if (type(iterable) is list or type(iterable) in _PLAIN_CONTAINERS) and len(iterable) <= _UNMETERED:
            return iterable
        return _MeteredIterable(iterable, _limited(context))

    def sized(self, context: Context, value: Any, how: str) -> Any:
        """``value``, once its length is within the render's limit (the slow path of the inline checks)."""
        return _sized(_limited(context), value, how)

    def concat_checked(self, context: Context, parts: tuple[Any, ...]) -> str:
        """``~`` of many parts, refused before it is built if it would pass the limit."""
        texts = [part if type(part) is str else str(part) for part in parts]
        _allow(_limited(context), sum(map(len, texts)), "'~'")
        return "".join(texts)
