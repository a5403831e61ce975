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
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


class CompiledText:
    """A string split into literal runs and placeholder names, compiled to one Python function.

    The function is generated once per distinct template text: it looks each
    name up once and joins the pieces.  Names and literals enter the
    generated code only as ``repr()`` string literals, so no template text
    can become code.
    """

    __slots__ = ("source", "names", "render")

    def __init__(self, source: str) -> None:
        self.source = source
        pieces: list[str | tuple[str, str]] = []  # literal, or (name, placeholder as written)
        start = 0
        for match in _PLACEHOLDER.finditer(source):
            if match.start() > start:
                pieces.append(source[start : match.start()])
            pieces.append((match.group(1), match.group(0)))
            start = match.end()
        if start < len(source):
            pieces.append(source[start:])
        self.names = tuple(dict.fromkeys(piece[0] for piece in pieces if isinstance(piece, tuple)))
        self.render: Callable[[Mapping[str, Any]], str] = _compile(source, pieces)

    def __repr__(self) -> str:
        return f"CompiledText({self.source!r})"

    def __reduce__(self) -> tuple[Callable[[str], CompiledText], tuple[str]]:
        # The generated function does not pickle; its source text does, and recompiles where it is loaded.
        return compile_text, (self.source,)


def _compile(source: str, pieces: list[str | tuple[str, str]]) -> Callable[[Mapping[str, Any]], str]:
    if not any(isinstance(piece, tuple) for piece in pieces):
        return lambda values: source
    lines = ["def render(values):", "    get = values.get"]
    joined = []
    for i, piece in enumerate(pieces):
        if isinstance(piece, tuple):
            name, written = piece
            lines.append(f"    v{i} = get({name!r}, {written!r})")
            joined.append(f"f'{{v{i}!s}}'")  # str(value), the value itself when it is a str
        else:
            joined.append(repr(piece))
    # Adjacent literals, one f-string: the pieces are joined in one step, without a tuple of them.
    lines.append(f"    return {' '.join(joined)}")
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines), f"<promptkit template {source[:40]!r}>", "exec"), namespace)  # noqa: S102 - names and literals are repr()-quoted
    return namespace["render"]


@lru_cache(maxsize=4096)
def compile_text(source: str) -> CompiledText:
    return CompiledText(source)
