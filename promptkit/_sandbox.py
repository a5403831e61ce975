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
from jinja2.runtime import LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment

__all__ = ["StrictSandbox"]

# The public attributes of a for-loop's `loop` variable: read in every iteration of most chat templates, and
# safe by construction, so they skip the sandbox's generic (and comparatively slow) attribute checks.
_LOOP_ATTRIBUTES = frozenset(
    {"index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0", "previtem", "nextitem", "cycle", "changed"}
)


class StrictSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox in which reading an unsafe attribute raises :class:`jinja2.exceptions.SecurityError`."""

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if type(obj) is LoopContext and attr in _LOOP_ATTRIBUTES:
            return True
        return super().is_safe_attribute(obj, attr, value)

    def unsafe_undefined(self, obj: Any, attribute: str) -> NoReturn:  # type: ignore[override]  # raise, never return a silent Undefined
        raise SecurityError(f"access to attribute {attribute!r} of a {type(obj).__name__!r} object is not allowed in a template")
