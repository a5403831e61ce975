"""What a document's ``doc_to_text``, ``doc_to_target``, ``doc_to_choice``, ``description`` and ``gen_prefix`` are,
as lm-eval 0.4.x reads them (``ConfigurableTask.doc_to_*``, ``doc_to_prefix``, ``Task.resolve_field``).

"A column" means a name among the **features**: the columns of the evaluated split after ``process_docs``; shots
use the same test, whatever split they come from.

=========== ============================================== ============================================ =====================================
value       doc_to_text                                    doc_to_target                                doc_to_choice
=========== ============================================== ============================================ =====================================
int         the int (several inputs, one per choice)       the int                                      —
a column    ``doc[column]``                                ``doc[column]``                              ``doc[column]``
other text  Jinja; digits (with doc_to_choice set) → int   Jinja; digits (with doc_to_choice) → int;    Jinja, read as a Python literal
                                                           ``[...]`` → the literal if it reads as one
list        —                                              the list                                     the list
mapping     —                                              —                                            its values
!function   ``fn(doc)``                                    ``fn(doc)``                                  ``fn(doc)``
=========== ============================================== ============================================ =====================================

``description`` and a shot's ``gen_prefix``: the document's value when the text is one of *its* keys, else Jinja;
the evaluated document's ``gen_prefix``: a column (features), else Jinja.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.errors import PromptkitError, TemplateError
from promptkit.frontends.lmeval.config import TaskConfig
from promptkit.frontends.lmeval.functions import FunctionRef, TaskCode
from promptkit.frontends.lmeval.jinja import render

__all__ = ["DocFields"]


class DocFields:
    """The ``doc_to_*`` values of one loaded task: its config, the evaluated split's ``features``, its code."""

    def __init__(self, config: TaskConfig, features: Sequence[str], code: TaskCode) -> None:
        self.config = config
        self.features = frozenset(features)
        self.code = code
        self.has_choices = config.doc_to_choice is not None

    def text(self, doc: Mapping[str, Any], value: Any = None, key: str = "doc_to_text") -> Any:
        """``doc_to_text`` (``value``: a few-shot override, else the task's)."""
        value = self.config.doc_to_text if value is None else value
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            if value in self.features:
                return _column(doc, value, key)
            text = render(value, doc, key)
            return ast.literal_eval(text) if text.isdigit() and self.has_choices else text
        if isinstance(value, FunctionRef):
            return self._call(value, doc, key)
        raise TemplateError(f"{key} is not set: lm-eval needs it to build the prompt", key=key)

    def target(self, doc: Mapping[str, Any], value: Any = None, key: str = "doc_to_target") -> Any:
        """``doc_to_target`` (``value``: a few-shot override, else the task's)."""
        value = self.config.doc_to_target if value is None else value
        if isinstance(value, (int, list)):
            return value
        if isinstance(value, str):
            if value in self.features:
                return _column(doc, value, key)
            text = render(value, doc, key)
            if text.isdigit() and self.has_choices:
                return ast.literal_eval(text)
            if len(text) >= 2 and text[0] == "[" and text[-1] == "]":
                try:
                    return ast.literal_eval(text)
                except (SyntaxError, ValueError):
                    return text
            return text
        if isinstance(value, FunctionRef):
            return self._call(value, doc, key)
        raise TemplateError(f"{key} is not set: lm-eval needs it to build the prompt", key=key)

    def choices(self, doc: Mapping[str, Any], value: Any = None, key: str = "doc_to_choice") -> list[Any]:
        """``doc_to_choice`` (``value``: a few-shot override, else the task's)."""
        value = self.config.doc_to_choice if value is None else value
        if isinstance(value, str):
            if value in self.features:
                return _column(doc, value, key)  # type: ignore[no-any-return]
            text = render(value, doc, key)
            try:
                return ast.literal_eval(text)  # type: ignore[no-any-return]
            except (SyntaxError, ValueError):
                raise TemplateError(f"{key} rendered {text!r}, which does not read as a Python list, as lm-eval reads it", key=key) from None
        if isinstance(value, list):
            return value
        if isinstance(value, Mapping):
            return list(value.values())
        if isinstance(value, FunctionRef):
            return self._call(value, doc, key)  # type: ignore[no-any-return]
        raise TemplateError(f"{key} is not set, and the task asks for the choices", key=key)

    def description(self, doc: Mapping[str, Any]) -> str:
        """The task's description for ``doc`` (``''`` when there is none)."""
        return _resolve(doc, self.config.description, "description") or ""

    def gen_prefix(self, doc: Mapping[str, Any]) -> str | None:
        """The evaluated document's ``gen_prefix`` (``None``: the task has none)."""
        value = self.config.gen_prefix
        if value is None:
            return None
        if value in self.features:
            return _column(doc, value, "gen_prefix")  # type: ignore[no-any-return]
        return render(value, doc, "gen_prefix")

    def shot_gen_prefix(self, doc: Mapping[str, Any]) -> str | None:
        """A shot's ``gen_prefix`` (``fewshot_config.gen_prefix``, else the task's)."""
        return _resolve(doc, self.config.fewshot.gen_prefix, "fewshot_config.gen_prefix")

    def _call(self, ref: FunctionRef, doc: Mapping[str, Any], key: str) -> Any:
        try:
            return self.code.resolve(ref)(doc)
        except PromptkitError as error:
            raise error.add_context(key=key) from None
        except Exception as error:  # task code is user code: report what it raised, with the function and the key
            raise TemplateError(f"{ref} raised {type(error).__name__}: {error}", key=key) from None


def _column(doc: Mapping[str, Any], column: str, key: str) -> Any:
    try:
        return doc[column]
    except KeyError:
        raise TemplateError(f"{key} names the column {column!r}, which this document lacks (it has {sorted(doc)})", key=key) from None


def _resolve(doc: Mapping[str, Any], field: str | None, key: str) -> str | None:
    """lm-eval's ``resolve_field``: the document's value when ``field`` is one of its keys, else ``field`` as Jinja."""
    if not field:
        return None
    return doc[field] if field in doc else render(field, doc, key)  # type: ignore[no-any-return]
