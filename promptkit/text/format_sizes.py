"""Upper bounds of the text Python's formatting would build, computed before it is built.

A template can make a huge string from a small format (``'{:>{w}}'.format('', w=10**9)``,
``'%*d' % (10**9, 1)``), so the sandbox refuses such a call when the bound passes the render's
limit, before running it.  The bounds read a format as Python does: only real replacement fields
and conversion specifications count (``{{``, ``}}`` and ``%%`` are literal text, a date in the
literal text is no width), each at its real width and precision (nested ``{w}`` fields resolved),
with the text of the very value it formats.  So a format that builds a short string is never
refused, and a bound is never below the real length (a property test checks both).

>>> format_bound("Knowledge cutoff 20240726. Today: {}", ("26 Jul 2024",), {})
45
>>> format_bound("{:>{w}}", ("",), {"w": 10**9})
1000000000
>>> percent_bound("%(name)10s!", {"name": "Ada"})
21
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, Sequence, ValuesView
from contextlib import suppress
from string import Formatter
from typing import Any

import jinja2.utils

__all__ = ["format_bound", "percent_bound", "text_bound"]

# A number written in a format, read without converting thousands of digits (Python refuses widths past sys.maxsize).
_HUGE = 10**19
_DIGITS_PER_BIT = math.log10(2)
# repr() of a float has at most 24 characters ('-1.7976931348623157e+308').
_FLOAT_REPR = 24
# [[fill]align][sign][z][#][0][width][grouping][.precision][type]: the format-spec mini-language of str, int and float.
_FORMAT_SPEC = re.compile(
    r"(?:.?[<>=^])?[-+ ]?z?#?0?(?P<width>\d*)(?P<grouping>[,_]?)(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%]?)", re.DOTALL
)
# After '%' and its '(key)': flags, width, precision, length modifier, conversion (ASCII digits only, as Python reads them).
_PERCENT_SPEC = re.compile(r"[-+ #0]*(?P<width>\*|[0-9]+)?(?:\.(?P<precision>\*|[0-9]*))?[hlL]?(?P<type>.?)", re.DOTALL)
_DIGIT_RUN = re.compile(r"\d+")


def _number(digits: str | None) -> int:
    return int(digits) if digits and len(digits) < 19 else _HUGE if digits else 0


def _int_digits(value: int) -> int:
    """The most decimal digits ``abs(value)`` has (from its bit length: no conversion)."""
    return int(abs(value).bit_length() * _DIGITS_PER_BIT) + 1


def _float_digits(value: float) -> int:
    """The most digits of ``abs(value)`` before the decimal point (1 for a value below 10)."""
    magnitude = abs(value)
    return int(math.log10(magnitude)) + 2 if magnitude >= 10 else 1


def _repr_of_text(text: str, ascii_only: bool) -> int:
    """An upper bound of ``len(repr(text))`` (or of ``ascii(text)``)."""
    if text.isprintable() and (text.isascii() or not ascii_only):
        return len(text) + text.count("\\") + text.count("'") + 2
    return 10 * len(text) + 2  # '\U0001f600': the longest escape of one character


def text_bound(value: Any, budget: float = math.inf, mode: str = "str") -> int:
    """An upper bound of ``len(str(value))`` (``mode='repr'``: of ``repr``; ``'ascii'``: of ``ascii``).

    Containers are walked (their items as ``repr``); the walk stops once the bound passes ``budget``,
    so it costs at most ``budget`` steps however much a container repeats itself.
    """
    total = 0
    stack = [(value, mode)]
    while stack and total <= budget:
        item, how = stack.pop()
        inner = "ascii" if how == "ascii" else "repr"
        if isinstance(item, str):
            total += len(item) if how == "str" else _repr_of_text(item, how == "ascii") + (0 if type(item) is str else 16)
        elif item is None or isinstance(item, bool):
            total += 5
        elif isinstance(item, int):
            total += _int_digits(item) + 1
        elif isinstance(item, float):
            total += _FLOAT_REPR
        elif isinstance(item, complex):
            total += 2 * _FLOAT_REPR + 4
        elif isinstance(item, bytes | bytearray):
            total += 4 * len(item) + 14
        elif isinstance(item, list | tuple):
            total += 2 * len(item) + 3
            stack.extend((child, inner) for child in item)
        elif isinstance(item, dict):
            total += 4 * len(item) + 2
            for key, child in item.items():
                stack += ((key, inner), (child, inner))
        elif isinstance(item, KeysView | ValuesView | ItemsView):  # dict.keys() ...
            total += 2 * len(item) + 14
            stack.extend((child, inner) for child in item)
        elif isinstance(item, jinja2.utils.Namespace):
            total += 13
            stack.append((object.__getattribute__(item, "_Namespace__attrs"), inner))
        else:  # anything else a template can reach (a loop, a cycler, a method) prints a short, fixed text
            with suppress(Exception):  # the call itself raises the same when it formats the value
                total += len(str(item) if how == "str" else repr(item))
    return total


class _Texts:
    """:func:`text_bound` of the arguments of one call, each walked once however many fields show it."""

    __slots__ = ("budget", "known")

    def __init__(self, budget: float) -> None:
        self.budget = budget
        # By id, with the value itself: kept alive, its id names no other value while the call is estimated.
        self.known: dict[tuple[int, str], tuple[Any, int]] = {}

    def bound(self, value: Any, mode: str = "str") -> int:
        if isinstance(value, str) and mode == "str":
            return len(value)
        key = (id(value), mode)
        if key not in self.known:
            self.known[key] = (value, text_bound(value, self.budget, mode))
        return self.known[key][1]


def _no_tick() -> None:
    pass


# --- str.format -------------------------------------------------------------------------------------------------


def _fields(fmt: str) -> Iterator[tuple[str, str | None, str | None, str | None]]:
    return Formatter().parse(fmt)  # type: ignore[return-value]  # typeshed: the same tuples


def format_bound(
    fmt: str,
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    budget: float = math.inf,
    formatter: Formatter | None = None,
    tick: Callable[[], None] = _no_tick,
) -> int:
    """An upper bound of ``len(fmt.format(*args, **kwargs))``; 0 when the call would raise instead.

    ``formatter`` resolves ``{0[key]}`` and ``{0.attr}`` fields (the sandbox's, which refuses unsafe attributes).
    A nested field (``{:>{w}}``) is itself bounded before its text is built into the spec.  Containers are walked
    up to ``budget``; ``tick`` is called every 1,024 fields (the sandbox checks its time limit there).
    """
    formatter = formatter or Formatter()
    texts = _Texts(budget)
    # Markup escapes what it inserts: '&' becomes '&amp;'.
    factor = 1 if type(fmt) is str else 5
    auto = iter(range(len(args) + 1))
    total = 0
    try:
        for count, (literal, name, spec, conversion) in enumerate(_fields(fmt), 1):
            total += len(literal)
            if count % 1024 == 0:
                tick()
            if name is None:
                continue
            value = _field_value(formatter, name, args, kwargs, auto)
            if spec and "{" in spec:
                parts = []
                for inner_literal, inner_name, inner_spec, inner_conversion in _fields(spec):
                    parts.append(inner_literal)
                    if inner_name is not None:
                        inner = _field_value(formatter, inner_name, args, kwargs, auto)
                        size = _format_field(inner, inner_spec or "", inner_conversion, texts)
                        if size > budget:
                            return total + size
                        parts.append(format(formatter.convert_field(inner, inner_conversion), inner_spec or ""))
                spec = "".join(parts)
            total += factor * _format_field(value, spec or "", conversion, texts)
    except Exception:  # noqa: BLE001  # a field naming no argument, an unsafe attribute, a bad spec: the call raises the same
        return 0
    return total


def _field_value(formatter: Formatter, name: str, args: Sequence[Any], kwargs: Mapping[str, Any], auto: Iterator[int]) -> Any:
    if name == "" or name[0] in ".[":  # '{}', '{.real}': numbered automatically
        name = f"{next(auto)}{name}"
    return formatter.get_field(name, args, kwargs)[0]


def _format_field(value: Any, spec: str, conversion: str | None, texts: _Texts) -> int:
    if conversion in ("r", "a", "s"):
        value = _Repr(texts.bound(value, {"r": "repr", "a": "ascii", "s": "str"}[conversion]))
    match = _FORMAT_SPEC.fullmatch(spec)
    if match is None:  # no spec the built-in types accept (they raise); another type's own spec: take its widest number
        return max(map(_number, _DIGIT_RUN.findall(spec)), default=0) + _content(value, "", None, False, texts)
    precision = _number(match["precision"]) if match["precision"] else None
    return max(_number(match["width"]), _content(value, match["type"], precision, bool(match["grouping"]), texts))


class _Repr:
    """A value already converted to text (``!r``, ``!s``, ``%r``), known by its length bound."""

    __slots__ = ("length",)

    def __init__(self, length: int) -> None:
        self.length = length


def _content(value: Any, kind: str, precision: int | None, grouping: bool, texts: _Texts) -> int:
    """An upper bound of the text of ``value`` formatted as ``kind`` (a format type letter, '' for none) before padding."""
    if isinstance(value, _Repr):
        return value.length if precision is None else min(precision, value.length)
    if isinstance(value, str):
        return len(value) if precision is None or kind not in ("", "s") else min(precision, len(value))
    if isinstance(value, bool) and kind in ("", "s"):
        return 5
    if isinstance(value, int):
        return _int_content(value, kind, precision, grouping)
    if isinstance(value, float):
        return _float_content(_float_digits(value) if math.isfinite(value) else 1, kind, precision, grouping)
    if isinstance(value, complex):
        return 2 * _float_content(_float_digits(max(abs(value.real), abs(value.imag))), kind, precision, grouping) + 4
    bound = texts.bound(value)
    return bound if precision is None else min(precision, bound)


def _int_content(value: int, kind: str, precision: int | None, grouping: bool) -> int:
    if kind in ("e", "E", "f", "F", "g", "G", "%"):
        return _float_content(_int_digits(value), kind, precision, grouping)
    bits = abs(value).bit_length() + 1
    digits = {"b": bits, "o": bits // 3 + 1, "x": bits // 4 + 1, "X": bits // 4 + 1, "c": 1}.get(kind) or _int_digits(value)
    digits = max(digits, precision or 0)  # '%.5d' pads with zeros
    return digits + digits // 3 * (grouping or kind == "n") + 3  # a sign and a '0x' prefix; 'n' may group by locale


def _float_content(digits: int, kind: str, precision: int | None, grouping: bool) -> int:
    """``digits``: the most digits before the point; the bound includes a sign, a point, an exponent, a '%'."""
    places = 6 if precision is None else precision
    if kind == "%":  # the value times 100: two more digits before the point
        digits += 2
    if kind in ("f", "F", "%"):
        return digits + digits // 3 * grouping + places + 5
    if kind in ("e", "E"):
        return places + 8
    if kind == "" and precision is None:
        return _FLOAT_REPR + 1 + (digits // 3 if grouping else 0)
    # 'g', 'G', 'n', '' with a precision: at most max(places, 1) significant digits, up to 4 leading zeros, an exponent
    return max(places, 1) + 10 + (max(places, digits) // 3 if grouping or kind == "n" else 0)


# --- printf-style '%' ---------------------------------------------------------------------------------------------


def percent_bound(fmt: str | bytes, values: Any, budget: float = math.inf, tick: Callable[[], None] = _no_tick) -> int:
    """An upper bound of ``len(fmt % values)``; 0 when Python would refuse it (it then raises).  As :func:`format_bound`."""
    text = fmt.decode("latin-1") if isinstance(fmt, bytes | bytearray) else fmt
    factor = 1 if type(fmt) in (str, bytes) else 5  # Markup escapes what it inserts
    positional = iter(values if isinstance(values, tuple) else (values,))
    texts = _Texts(budget)
    total = len(text)
    at = text.find("%")
    count = 0
    try:
        while at >= 0:
            count += 1
            if count % 1024 == 0:
                tick()
            at, key = _percent_key(text, at + 1)
            spec = _PERCENT_SPEC.match(text, at)
            assert spec is not None  # every part of the pattern is optional
            at = spec.end()
            width = _star(positional) if spec["width"] == "*" else _number(spec["width"])
            precision = None if spec["precision"] is None else _star(positional) if spec["precision"] == "*" else _number(spec["precision"])
            kind = spec["type"]
            if kind == "%":
                total += max(width, 1)
            else:
                value = values[key] if key is not None else next(positional)
                total += factor * max(width, _percent_content(value, kind, precision, texts))
            at = text.find("%", at)
    except (LookupError, ValueError, TypeError, StopIteration):
        return 0
    return total


def _percent_key(text: str, at: int) -> tuple[int, str | None]:
    """After a '%': the position past its ``(key)`` (parentheses may nest, as Python reads them), and the key."""
    if not text.startswith("(", at):
        return at, None
    depth, end = 1, at + 1
    while depth:
        if end >= len(text):
            raise ValueError("incomplete format key")
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    return end, text[at + 1 : end - 1]


def _star(positional: Iterator[Any]) -> int:
    value = next(positional)
    if not isinstance(value, int):
        raise TypeError("* wants int")
    return abs(value)


def _percent_content(value: Any, kind: str, precision: int | None, texts: _Texts) -> int:
    if kind in ("s", "r", "a"):
        bound = texts.bound(value, {"s": "str", "r": "repr", "a": "ascii"}[kind])
        return bound if precision is None else min(precision, bound)
    if kind == "c":
        return 1
    if isinstance(value, float) and kind in ("d", "i", "u", "o", "x", "X"):
        return (_float_digits(value) if math.isfinite(value) else 1) + (precision or 0) + 3
    if isinstance(value, int | float):
        kind = "d" if kind in ("i", "u") else kind
        return _content(value, kind, precision, False, texts) + 2  # '%#o' writes '0o'
    return 0  # any other value is refused by these conversions
