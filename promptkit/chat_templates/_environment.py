"""The Jinja environment chat templates run in: the one ``transformers`` uses, made from the same parts.

``transformers``' ``apply_chat_template`` renders in an
``ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)`` with
loop controls, a ``{% generation %}`` tag, a ``tojson`` filter that does not
HTML-escape, the globals ``raise_exception`` and ``strftime_now``, and
restricted ``dict``/``namespace`` callables.  Rendering the same template
text in an environment built the same way gives the same bytes, without
importing ``transformers``.

Two deliberate differences: reading an unsafe attribute (``''.__class__``)
raises :class:`jinja2.exceptions.SecurityError` here, where the stock sandbox
renders an empty string; and each render is bounded in time and size
(:class:`~promptkit.TemplateLimits`, see :mod:`promptkit.text.sandbox`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Any, NoReturn

import jinja2
import jinja2.ext
import jinja2.meta
import jinja2.nodes
import jinja2.utils
from jinja2.exceptions import TemplateError
from jinja2.filters import do_trim
from jinja2.runtime import Context
from jinja2.utils import pass_context

from promptkit.text.sandbox import StrictSandbox, check_json_indent, check_size

__all__ = ["compile_chat_template", "template_variables"]


class _GenerationTag(jinja2.ext.Extension):
    """``{% generation %}…{% endgeneration %}`` (HF's assistant-mask marker): renders its body unchanged."""

    tags = {"generation"}

    def parse(self, parser: Any) -> jinja2.nodes.Node:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    @staticmethod
    def _body(caller: Callable[[], str]) -> str:
        return caller()


def _trim(value: Any, chars: str | None = None) -> str:
    """Jinja's ``trim``, with a direct path for the usual ``str`` (many templates trim every message)."""
    return value.strip(chars) if type(value) is str else do_trim(value, chars)


def _raise_exception(message: str) -> NoReturn:
    raise TemplateError(message)


@pass_context
def _tojson(
    context: Context, value: Any, ensure_ascii: bool = False, indent: int | None = None, separators: Any = None, sort_keys: bool = False
) -> str:
    check_json_indent(context, value, indent)
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


@pass_context
def _strftime_now(context: Context, format: str) -> str:
    if isinstance(format, str):  # no directive writes more than 16 characters per character of the format
        check_size(context, len(format) * 16, "strftime_now")
    return datetime.now().strftime(format)


class _Dict:
    """The template's ``dict``: builds plain dicts, exposes nothing else (as HF's)."""

    def __call__(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        return dict(*args, **kwargs)

    def fromkeys(self, *args: Any) -> dict[Any, Any]:
        return dict.fromkeys(*args)


def _make_environment() -> StrictSandbox:
    env = StrictSandbox(trim_blocks=True, lstrip_blocks=True, extensions=[_GenerationTag, jinja2.ext.loopcontrols])
    env.filters["tojson"] = _tojson
    env.filters["trim"] = _trim
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    env.globals["dict"] = _Dict()
    return env


_ENVIRONMENT = _make_environment()


@lru_cache(maxsize=256)
def compile_chat_template(source: str) -> jinja2.Template:
    """The compiled template for ``source`` (cached: each distinct text compiles once per process)."""
    return _ENVIRONMENT.from_string(source)


@lru_cache(maxsize=256)
def template_variables(source: str) -> frozenset[str]:
    """The variables ``source`` reads that it does not set itself (``messages``, ``enable_thinking`` …)."""
    return frozenset(jinja2.meta.find_undeclared_variables(_ENVIRONMENT.parse(source)))
