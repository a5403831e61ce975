"""How far one render of a template (chat template or Jinja prompt template) may go, and how its failures read.

Kept apart from :mod:`promptkit.text.sandbox` so that the values configs and the
public API name (:class:`TemplateLimits`) are there without importing Jinja.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from promptkit.errors import ConfigError, check_keys

__all__ = ["LimitExceeded", "TemplateLimits", "describe", "one_line"]


@dataclass(frozen=True)
class TemplateLimits:
    """Bounds on one render of a template (chat template or Jinja prompt template), which may be untrusted code.

    ``seconds``: the CPU time one render may take (of the thread that renders: time spent waiting for a core on a
    loaded machine does not count, so the same template and input give the same result on any machine load).
    ``max_chars``: the length no string, list or output the template builds may exceed (a list counts its items
    and the characters it holds).  The defaults are far beyond any real template (a long conversation renders in
    a millisecond; 8 Mi characters are about two million tokens).

    >>> TemplateLimits()
    TemplateLimits(seconds=5.0, max_chars=8388608)
    >>> TemplateLimits.of(dict(seconds=30))
    TemplateLimits(seconds=30, max_chars=8388608)
    """

    seconds: float = 5.0
    max_chars: int = 8 * 1024 * 1024

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float) or not 0 < self.seconds < math.inf:
            raise ConfigError(f"template_limits seconds must be a positive number (got {self.seconds!r})", key="template_limits.seconds")
        if isinstance(self.max_chars, bool) or not isinstance(self.max_chars, int) or self.max_chars < 1:
            raise ConfigError(f"template_limits max_chars must be a positive int (got {self.max_chars!r})", key="template_limits.max_chars")

    @classmethod
    def of(cls, value: TemplateLimits | Mapping[str, Any] | None) -> TemplateLimits:
        """The limits a config's ``template_limits=`` gives: None (the defaults), a dict of some fields, or limits."""
        if value is None:
            return _DEFAULT_LIMITS
        if isinstance(value, TemplateLimits):
            return value
        if isinstance(value, Mapping):
            check_keys(value, ("seconds", "max_chars"), "template_limits", key_prefix="template_limits.")
            return cls(**value)
        raise ConfigError(
            f"template_limits must be a dict like dict(seconds=5, max_chars=8388608) (got {value!r} that is a {type(value).__name__})",
            key="template_limits",
        )


_DEFAULT_LIMITS = TemplateLimits()


class LimitExceeded(Exception):
    """A render went past its :class:`TemplateLimits`; ``key`` names the limit (None: a fixed one)."""

    def __init__(self, message: str, key: str | None) -> None:
        super().__init__(message)
        self.key = key


def one_line(text: str) -> str:
    """``text`` with its line breaks made spaces (an error is reported on one line)."""
    return " ".join(text.splitlines()).strip()


def describe(exc: BaseException) -> str:
    """``Type: message`` of an exception a template raised, on one line."""
    # Python words a RecursionError after the call that hit the limit ("... while calling a Python object"): say it one way.
    text = "maximum recursion depth exceeded" if isinstance(exc, RecursionError) else one_line(str(exc))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
