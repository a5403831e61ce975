"""The Jinja sandbox every template runs in (chat templates and Jinja prompt templates).

Jinja's ``ImmutableSandboxedEnvironment`` already refuses ``str.format``
attribute escapes, calls of mutating methods (``list.append``) and private
attributes.  For the last it returns a silent undefined value, which prints
as an empty string; here it raises instead, so an escape attempt is an error,
never quietly different output.
"""

from __future__ import annotations

from typing import Any, NoReturn

from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

__all__ = ["StrictSandbox"]


class StrictSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox in which reading an unsafe attribute raises :class:`jinja2.exceptions.SecurityError`."""

    def unsafe_undefined(self, obj: Any, attribute: str) -> NoReturn:  # type: ignore[override]  # raise, never return a silent Undefined
        raise SecurityError(f"access to attribute {attribute!r} of a {type(obj).__name__!r} object is not allowed in a template")
