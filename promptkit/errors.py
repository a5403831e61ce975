"""The exceptions promptkit raises on purpose.

Every error is a :class:`PromptkitError`; catch that one and nothing else
escapes on purpose::

    PromptkitError
     ├── ConfigError            a config file or config dict is wrong
     ├── DatasetError           a data file, split, range or column is wrong
     ├── TemplateError          a prompt template is malformed or cannot render a row
     ├── RetrieverError         shots cannot be picked
     ├── MetaTemplateError      a model's meta template cannot render a prompt
     └── MissingDependencyError an optional package is not installed

Errors carry *where* they happened (config file, dataset, model, row, label,
shot, section, key) in :attr:`PromptkitError.context`.  Stages raise with what they
know; the pipeline adds the rest with :meth:`PromptkitError.add_context`, so no
call site has to repeat it.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any

__all__ = [
    "ConfigError",
    "DatasetError",
    "MetaTemplateError",
    "MissingDependencyError",
    "PromptkitError",
    "RetrieverError",
    "TemplateError",
    "require",
]

# The order in which context is printed: from the outermost to the innermost.
_CONTEXT_ORDER = ("config", "dataset", "model", "worker", "file", "line", "row", "label", "shot", "section", "item", "key")


class PromptkitError(Exception):
    """Root of promptkit's errors: a message plus where it happened."""

    def __init__(self, message: str, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.context: dict[str, Any] = {k: v for k, v in context.items() if v is not None}

    def add_context(self, **context: Any) -> PromptkitError:
        """Fill in context the raiser did not know; what it knew wins."""
        for key, value in context.items():
            if value is not None and key not in self.context:
                self.context[key] = value
        return self

    def location(self) -> str:
        parts = []
        for key in _CONTEXT_ORDER:
            if key in self.context:
                value = self.context[key]
                shown = repr(value) if isinstance(value, str) and key in ("dataset", "model", "label", "key") else value
                parts.append(f"{key} {shown}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message}" if where else self.message


class ConfigError(PromptkitError):
    """A config file or config dict is wrong (unknown type, unknown key, missing key)."""


class DatasetError(PromptkitError):
    """A data file cannot be read, or a split, range or column is wrong."""


class TemplateError(PromptkitError):
    """A prompt template is malformed, or cannot render a row."""


class RetrieverError(PromptkitError):
    """A retriever cannot pick shots (e.g. an id out of range)."""


class MetaTemplateError(PromptkitError):
    """A model's meta template is malformed or cannot render a prompt."""


class MissingDependencyError(PromptkitError):
    """An optional dependency is missing; the message gives the pip command."""


def closest(word: object, choices: Iterable[object]) -> str | None:
    """The choice most like ``word``, if any is close."""
    close = difflib.get_close_matches(str(word), [str(choice) for choice in choices], n=1)
    return close[0] if close else None


def did_you_mean(word: object, choices: Iterable[object]) -> str:
    """``" (did you mean 'x'?)"`` for the closest of ``choices``, or ``""``."""
    close = closest(word, choices)
    return f" (did you mean {close!r}?)" if close else ""


def check_keys(cfg: Mapping[str, Any], known: Sequence[str], where: str, error: type[PromptkitError] | None = None, key_prefix: str = "") -> None:
    """Raise (a ConfigError by default) for the first key of ``cfg`` that is not ``known``, with a did-you-mean."""
    for key in cfg:
        if key not in known:
            raise (error or ConfigError)(
                f"unknown key {key!r} in {where}{did_you_mean(key, known)}; it takes {list(known)}", key=f"{key_prefix}{key}"
            )


def require(module: str, extra: str, needed_by: str) -> ModuleType:
    """Import the optional ``module``, or raise an error naming ``needed_by`` and ``pip install 'promptkit[extra]'``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingDependencyError(
            f"{needed_by} needs the optional package {module!r}, which is not installed; install it with "
            f"pip install 'promptkit[{extra}]'"
        ) from error
