"""JSON text as rows promptkit can use: nesting bounded, integers Python can write, strings of characters only.

JSON allows what Python cannot carry through a run, and each would surface far
from the data as an internal error; here each is a :class:`RowValueError`
naming the column, raised while the row is read (the reader adds the file and
line):

* **nesting** deeper than :data:`MAX_DEPTH` lists and objects (the row's own
  object counts as one): Python's parser recurses per level, and so do the
  steps after it (records written, rows sent to workers);
* **an integer longer than Python turns into text**
  (``sys.get_int_max_str_digits()``, 4,300 digits by default): it could be
  read, but never rendered or written; in quotes, as a JSON string, its digits
  render as they are;
* **a lone surrogate** (``"\\ud800"``: half of a UTF-16 pair, escaped without
  its other half): not a character, so no prompt holding it can be written as
  UTF-8.

The checks cost a count of brackets and a search for ``\\ud8..``-style
escapes per row; a row is looked at further only when one of them finds
something.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from json.scanner import make_scanner
from typing import Any

__all__ = ["MAX_DEPTH", "RowValueError", "check_row", "explain", "parse_row"]

#: The most levels of lists and objects a row may nest (the row's own object is one).
MAX_DEPTH = 100

# A JSON string, or a character of the structure (outside strings).
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},]')
# A \u escape of a surrogate, the only way a JSON text can hold one (the text itself is valid UTF-8).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
# The parser of a JSON value at a position of a text, as json.loads runs it (the C scanner when the accelerator is
# there): (value, end), StopIteration when no value starts there.
_scan = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # (typeshed types the context as the scanner)


class RowValueError(Exception):
    """A row's value promptkit cannot use: the message, and the row's column it is in (``None``: not known)."""

    def __init__(self, message: str, column: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


def parse_row(text: str) -> Any:
    """``json.loads(text)``, checked (see the module docstring): :class:`RowValueError` for what a row may not hold,
    ``json.JSONDecodeError`` for text that is not JSON."""
    try:
        # json.loads is the scanner after skipping whitespace, then a check that only whitespace follows: a line that
        # is one object end to end, or followed by its line break (the usual line) needs only the scanner; any other,
        # json.loads (which also says what is wrong with text that is not JSON).
        try:
            value, end = _scan(text, 0)
        except (StopIteration, json.JSONDecodeError):
            end = -1
        if end != len(text) and (end < 0 or text[end:].strip(" \t\n\r")):
            value = json.loads(text)
    except (RecursionError, ValueError) as error:
        problem = explain(error, text, 0)
        if problem is None:
            raise
        raise problem from None
    # check_row's gates ("\\" first: a one-character search is the fast one, and most rows hold no escape at all)
    if text.count("[") + text.count("{") > MAX_DEPTH or ("\\" in text and "\\u" in text and _SURROGATE_ESCAPE.search(text)):
        check_row(text, value)
    return value


def explain(error: BaseException, text: str, start: int) -> RowValueError | None:
    """What an error raised while parsing the JSON value at ``text[start:]`` means for the row, or ``None`` if it is
    none of the module docstring's (a ``json.JSONDecodeError`` among them: the caller reports malformed text)."""
    if isinstance(error, RecursionError):
        return _too_deep(text, start) or RowValueError(_DEEP)
    if isinstance(error, ValueError) and not isinstance(error, json.JSONDecodeError) and "integer string conversion" in str(error):
        return _long_integer(text, start)
    return None


def check_row(text: str, value: Any, start: int = 0, end: int | None = None) -> None:
    """:class:`RowValueError` if ``value``, parsed from ``text[start:end]``, nests too deep or holds a lone surrogate."""
    end = len(text) if end is None else end
    if text.count("[", start, end) + text.count("{", start, end) > MAX_DEPTH:
        problem = _too_deep(text, start, end)
        if problem is not None:
            raise problem
    if "\\u" in text and _SURROGATE_ESCAPE.search(text, start, end):
        problem = _lone_surrogate(value)
        if problem is not None:
            raise problem


_DEEP = (
    f"the value nests lists and objects more than {MAX_DEPTH} levels deep; promptkit reads at most {MAX_DEPTH} "
    "(deeper ones overflow Python's recursion): flatten it, or store it as a JSON string"
)


def _too_deep(text: str, start: int, end: int | None = None) -> RowValueError | None:
    """The error for the first place the value at ``text[start:end]`` nests deeper than :data:`MAX_DEPTH`, naming the
    row's column it is in; ``None`` if it does not."""
    depth = 0
    column: str | None = None
    expect_key = False  # the next string at the row's own level is a column name
    for token in _TOKEN.finditer(text, start, len(text) if end is None else end):
        char = token.group()[0]
        if char == '"':
            if depth == 1 and expect_key:
                column, expect_key = _column(token.group()), False
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return RowValueError(_DEEP, column)
            expect_key = depth == 1 and char == "{"
        elif char == ",":
            expect_key = depth == 1
        else:
            depth -= 1
            if depth == 0:
                return None
    return None


def _column(token: str) -> str | None:
    try:
        name = json.loads(token)
    except ValueError:
        return None
    return name if isinstance(name, str) else None


def _int_digits() -> int:
    """Python's limit on an integer's digits in text (0: none; Python 3.10 before 3.10.7 has none)."""
    return int(getattr(sys, "get_int_max_str_digits", lambda: 0)())


class _Digits(str):
    """An integer's digits, too many for Python to turn into text."""


def _long_integer(text: str, start: int) -> RowValueError:
    """The error for the first integer of the value at ``text[start:]`` that Python cannot turn into text."""
    limit = _int_digits()
    longest: list[_Digits] = []

    def parse_int(digits: str) -> int | _Digits:
        if limit and len(digits.lstrip("-")) > limit:
            longest.append(_Digits(digits))
            return longest[-1]
        return int(digits)

    try:
        value, _ = json.JSONDecoder(parse_int=parse_int).raw_decode(text, start)
    except ValueError:  # the text read so far ends inside the value: its column is not known
        value = None
    column = next((column for column, found in _values(value) if isinstance(found, _Digits)), None)
    digits = len(longest[0].lstrip("-")) if longest else 0
    return RowValueError(
        f"the value holds an integer of {digits:,} digits, more than the {limit:,} Python turns into text "
        "(sys.get_int_max_str_digits()); write the number in quotes, as a JSON string, to render its digits",
        column,
    )


def _lone_surrogate(value: Any) -> RowValueError | None:
    """The error for the first string (or object key) of ``value`` that holds a lone surrogate, or ``None``."""
    for column, found in _values(value, keys=True):
        if isinstance(found, str) and (match := _SURROGATE.search(found)) is not None:
            code = f"\\u{ord(match.group()):04x}"
            return RowValueError(
                f"the value holds a lone surrogate {code} (half of a UTF-16 pair, escaped without its other half), which is "
                "not a character and cannot be written as UTF-8; write the character itself, or both halves of its pair",
                column,
            )
    return None


def _values(value: Any, keys: bool = False) -> Iterator[tuple[str | None, Any]]:
    """(the row's column it is in, value) for every value nested in ``value`` (and every object key, with ``keys``),
    depth first, without recursion."""
    stack: list[tuple[str | None, Any]] = [(None, value)]
    while stack:
        column, item = stack.pop()
        yield column, item
        if isinstance(item, dict):
            entries = [(column if column is not None or item is not value else key, key, child) for key, child in item.items()]
            for owner, key, child in reversed(entries):
                stack.append((owner, child))
                if keys:
                    stack.append((owner, key))
        elif isinstance(item, list):
            stack.extend((column, child) for child in reversed(item))
