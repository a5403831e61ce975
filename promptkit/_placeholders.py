"""``{name}`` placeholders, parsed once and filled in a single pass.

A template string is split once into literal text and placeholder names.
Filling it looks each name up in the row and joins the pieces; a value is
never scanned again, so a row value containing ``{answer}`` or ``</E>``
stays literal.  A placeholder that names no column stays as written (text
such as JSON or LaTeX braces must survive).  ``{{x}}`` is not an escape: as
in OpenCompass it renders as ``{`` + value of ``x`` + ``}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_MISSING = object()


class CompiledText:
    """A string split into literal runs and placeholder names."""

    __slots__ = ("source", "names", "_pairs", "_tail")

    def __init__(self, source: str) -> None:
        self.source = source
        pairs: list[tuple[str, str]] = []
        start = 0
        for match in _PLACEHOLDER.finditer(source):
            pairs.append((source[start : match.start()], match.group(1)))
            start = match.end()
        self._pairs = tuple(pairs)
        self._tail = source[start:]
        self.names = tuple(dict.fromkeys(name for _, name in pairs))

    def render(self, values: Mapping[str, Any]) -> str:
        if not self._pairs:
            return self.source
        out: list[str] = []
        append = out.append
        get = values.get
        for literal, name in self._pairs:
            append(literal)
            value = get(name, _MISSING)
            if value is _MISSING:
                append("{" + name + "}")
            else:
                append(value if type(value) is str else str(value))
        append(self._tail)
        return "".join(out)

    def __repr__(self) -> str:
        return f"CompiledText({self.source!r})"


@lru_cache(maxsize=4096)
def compile_text(source: str) -> CompiledText:
    return CompiledText(source)
