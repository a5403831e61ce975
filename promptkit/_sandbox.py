"""The Jinja sandbox every template runs in (chat templates and Jinja prompt templates).

Jinja's ``ImmutableSandboxedEnvironment`` already refuses ``str.format``
attribute escapes, calls of mutating methods (``list.append``) and private
attributes.  For the last it returns a silent undefined value, which prints
as an empty string; here it raises instead, so an escape attempt is an error,
never quietly different output.

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

from collections.abc import MutableMapping
from typing import Any, NoReturn

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

__all__ = ["StrictSandbox"]

# The public attributes of a for-loop's `loop` variable: read in every iteration of most chat templates, and
# safe by construction, so a constant lookup of one is compiled without the sandbox's generic attribute check.
_LOOP_ATTRIBUTES = frozenset(
    {"index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0", "previtem", "nextitem", "cycle", "changed"}
)


# The temporary the inline lookups bind (a local of the generated function; Jinja's own names start with l_ or t_).
_HELD = "_lookup_held"


class _InlineLookups(CodeGenerator):
    """Compiles constant-name lookups with the inline paths described in the module docstring."""

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


class StrictSandbox(ImmutableSandboxedEnvironment):
    """An immutable sandbox in which reading an unsafe attribute raises :class:`jinja2.exceptions.SecurityError`."""

    code_generator_class = _InlineLookups

    def unsafe_undefined(self, obj: Any, attribute: str) -> NoReturn:  # type: ignore[override]  # raise, never return a silent Undefined
        raise SecurityError(f"access to attribute {attribute!r} of a {type(obj).__name__!r} object is not allowed in a template")

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals: a snapshot of the environment's, overlaid by ``d`` (see the module docstring)."""
        return {**self.globals, **(d or {})}
