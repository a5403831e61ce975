"""The Jinja side of :class:`~promptkit.templates.jinja_template.JinjaPromptTemplate`: its sandboxed environment and
compiled texts.

A module of its own so that Jinja is imported when a config first builds a
Jinja prompt template, not whenever the template registry is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jinja2
import jinja2.meta

from promptkit.errors import PromptkitError, TemplateError, did_you_mean
from promptkit.text.sandbox import LimitExceeded, StrictSandbox, TemplateLimits, describe, one_line, render

__all__ = ["PLAIN", "JinjaText", "environment", "parses", "shown"]


class _StrictUndefined(jinja2.StrictUndefined):
    """Any use of an undefined value (printing, testing, iterating, arithmetic) raises ``UndefinedError(name)``."""

    @property
    def _undefined_message(self) -> str:  # type: ignore[override]  # the name is what the error reports
        return str(self._undefined_name)


def environment(filters: Mapping[str, Callable[..., Any]]) -> StrictSandbox:
    env = StrictSandbox(undefined=_StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    env.filters.update(filters)
    return env


PLAIN = environment({})


class JinjaText:
    """One Jinja text, compiled; the same interface as a placeholder text (``source``, ``names``, ``render``)."""

    __slots__ = ("source", "names", "where", "limits", "_template")

    def __init__(self, env: jinja2.Environment, source: str, where: str, limits: TemplateLimits) -> None:
        self.source = source
        self.where = where
        self.limits = limits
        try:
            ast = env.parse(source)
            self._template = env.from_string(ast)
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"{where}: Jinja syntax error on line {exc.lineno} of {shown(source)}: {exc.message}") from None
        except Exception as exc:  # noqa: BLE001  # nesting too deep to compile (RecursionError, MemoryError)
            raise TemplateError(f"{where}: {shown(source)} cannot be compiled: {describe(exc)}") from None
        self.names = tuple(sorted(jinja2.meta.find_undeclared_variables(ast)))

    def render(self, values: Mapping[str, Any]) -> str:
        try:
            return render(self._template, self._template.new_context(dict(values)), self.limits)
        except LimitExceeded as exc:
            hint = f"; if you trust the template, raise template_limits=dict({exc.key}=...) in the template config" if exc.key else ""
            raise TemplateError(f"{self.where}: {shown(self.source)} exceeded its limits: {exc}{hint}") from None
        except jinja2.UndefinedError as exc:
            name, columns = exc.message, sorted(str(key) for key in values)
            raise TemplateError(
                f"{self.where}: variable {name!r} is not defined in {shown(self.source)}; "
                f"the row has the columns {columns}{did_you_mean(name, columns)}",
                key=name,
            ) from None
        except jinja2.TemplateError as exc:
            raise TemplateError(f"{self.where}: {shown(self.source)} failed: {one_line(exc.message or str(exc))}") from None
        except PromptkitError:
            raise
        except Exception as exc:  # noqa: BLE001  # untrusted code (and config filters): any exception is the template's failure
            raise TemplateError(f"{self.where}: {shown(self.source)} failed: {describe(exc)}") from None

    def __repr__(self) -> str:
        return f"JinjaText({self.source!r})"


def shown(source: str) -> str:
    """A template text as error messages quote it (cut at 60 characters)."""
    return repr(source if len(source) <= 60 else source[:57] + "...")


def parses(env: jinja2.Environment, source: str) -> bool:
    """Whether ``source`` is Jinja that ``env`` can parse."""
    try:
        env.parse(source)
    except jinja2.TemplateSyntaxError:
        return False
    return True
