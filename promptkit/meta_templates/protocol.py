"""What a model config is: the protocol the pipeline renders final inputs through.

A class that implements :class:`Model` can be a ``models`` entry's ``type=``
without subclassing promptkit's ``Model`` base (``CompletionModel``,
``ChatModel``, ``ChatTemplateModel`` and the OpenCompass/AISBench aliases
implement it; ``tests/test_protocols.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from promptkit.promptlist import PromptList
from promptkit.tokens.guard import TokenGuard
from promptkit.types import FinalInput

__all__ = ["FinalInput", "Model"]


@runtime_checkable
class Model(Protocol):
    """Turns a rendered prompt into the model's final input."""

    @property
    def abbr(self) -> str:
        """The model's name in records."""
        ...

    @property
    def kind(self) -> str:
        """``'completion'``, ``'chat'`` or ``'chat_template'``: what :meth:`render` returns."""
        ...

    @property
    def max_seq_len(self) -> int | None:
        """The token budget shots are fitted into (None: no limit)."""
        ...

    @property
    def token_counter(self) -> Callable[[str], int] | None:
        """Counts a text's tokens for ``max_seq_len`` (None: the inferencer's or no fitting)."""
        ...

    @property
    def token_guard(self) -> TokenGuard:
        """What row text may not carry into this model's input (see :mod:`promptkit.tokens.guard`)."""
        ...

    def render(self, prompt: str | PromptList, mode: str = "gen") -> FinalInput:
        """The final input for ``prompt``; ``mode`` is ``'gen'`` (cut at the model's turn) or ``'ppl'``."""
        ...

    def render_with_media(self, prompt: str | PromptList, mode: str = "gen") -> tuple[FinalInput, list[dict[str, Any]]]:
        """The final input and the media that travel beside it (only completion models have any)."""
        ...
