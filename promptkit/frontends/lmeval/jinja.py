"""lm-eval's Jinja environment for prompt texts (``lm_eval/utils.py``: ``env``, ``apply_template``, ``regex_replace``).

One ``jinja2.Environment`` with ``StrictUndefined`` (a name the document lacks is an error, never an empty string)
and ``keep_trailing_newline=True`` (a text ending in a newline keeps it), default delimiters, no autoescape, and one
filter beside Jinja's own: ``regex_replace(s, pattern, repl, count=0)``, which is ``re.sub``.  A document's columns
are the top-level names.  Jinja string literals unescape as Python's do, so ``'\\1'`` written inside a template is
the character U+0001, not a back-reference (lm-eval scores that text too).

Task files are trusted code (their ``!function`` modules run as they are), and their texts are rendered as lm-eval
renders them: in lm-eval's environment, not promptkit's sandbox.  Each distinct text is compiled once.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from promptkit.errors import MissingDependencyError, TemplateError

__all__ = ["render"]


def render(text: str, doc: Mapping[str, Any], key: str) -> str:
    """``text`` rendered with the document's columns; an error names ``key`` and the text."""
    if "{" not in text and "\r" not in text:
        return text  # no tag and no newline to normalise: Jinja would give the text as it is
    try:
        return _compiled(text).render(**doc)
    except TemplateError as error:
        raise error.add_context(key=key) from None
    except Exception as error:  # a template is user code: Jinja's errors, and whatever a filter or method raised
        raise TemplateError(f"{type(error).__name__}: {error} in the Jinja text {text!r}", key=key) from None


@lru_cache(maxsize=1024)
def _compiled(text: str) -> Any:
    try:
        with warnings.catch_warnings():
            # Jinja reads string literals as Python does, and an unknown escape such as '\s' warns (it stays as written).
            warnings.simplefilter("ignore", DeprecationWarning)
            warnings.simplefilter("ignore", SyntaxWarning)
            return _environment().from_string(text)
    except Exception as error:  # jinja2.TemplateSyntaxError, imported lazily
        raise TemplateError(f"{type(error).__name__}: {error} in the Jinja text {text!r}") from None


@lru_cache(maxsize=1)
def _environment() -> Any:
    try:
        import jinja2
    except ImportError:
        raise MissingDependencyError("rendering lm-eval task texts needs Jinja: pip install 'promptkit[lmeval]'") from None
    environment = jinja2.Environment(loader=jinja2.BaseLoader(), undefined=jinja2.StrictUndefined, keep_trailing_newline=True)  # noqa: S701 (prompt text, not HTML)
    environment.filters["regex_replace"] = _regex_replace
    return environment


def _regex_replace(string: str, pattern: str, repl: str, count: int = 0) -> str:
    return re.sub(pattern, repl, string, count=count)
