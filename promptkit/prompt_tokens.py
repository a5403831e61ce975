"""Spans and token views of a renderer's prompts.

What the pipeline knows of a rendered prompt and the prompt does not say — the
string shots it holds (rendered one by one), its row's other labels' prompts,
LLInferencer's continuation — goes to :func:`~promptkit.meta_templates.spans.find_spans`
as :class:`~promptkit.meta_templates.spans.Hints`; the spans and the tokenizer
make each prompt's :class:`~promptkit.token_view.TokenView`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from promptkit.errors import ConfigError
from promptkit.meta_templates import Model
from promptkit.meta_templates.spans import Hints, Pieces, Span, find_spans
from promptkit.token_view import TokenEncoder, token_view

if TYPE_CHECKING:
    from promptkit.pipeline import RenderedPrompt

__all__ = ["PromptViews", "refuse_token_view"]


def refuse_token_view(model: Model) -> None:
    """A chat API model has no token view: its server applies the chat template and tokenizes."""
    if model.kind == "chat":
        raise ConfigError(
            f"model {model.abbr!r} is a chat API model (ChatModel): it receives messages, and its server applies the chat template "
            "and tokenizes them, so promptkit has no token view of it; for tokens use the model's chat template "
            "(type='HuggingFacewithChatTemplate', path=<model folder>) or its meta template (CompletionModel)",
            key="tokenizer",
        )


class PromptViews:
    """Spans and tokens of one renderer's prompts: its model, mode (calib prompts render in it) and string shots."""

    def __init__(self, model: Model, mode: str, shot_pieces: Callable[[Sequence[int]], Pieces] | None, encoder: TokenEncoder | None) -> None:
        self.model = model
        self.mode = mode
        self.shot_pieces = shot_pieces
        self.encoder = encoder

    def spans(self, prompt: RenderedPrompt, row_prompts: Sequence[RenderedPrompt] = ()) -> list[Span]:
        """The spans of ``prompt``'s pieces; ``row_prompts`` (its row's prompts) name a string ppl prompt's answer slot."""
        mode = self.mode if prompt.mode == "calib" else prompt.mode
        shots = self.shot_pieces(prompt.ice_idx) if self.shot_pieces is not None and prompt.ice_idx else ()
        others: tuple[str, ...] = ()
        if isinstance(prompt.intermediate, str) and mode == "ppl":
            others = tuple(p.intermediate for p in row_prompts if p.mode == prompt.mode and isinstance(p.intermediate, str) and p is not prompt)
        return find_spans(self.model, prompt.intermediate, mode, Hints(shots, others, self._continuation(prompt)))

    def add_tokens(self, prompts: list[RenderedPrompt]) -> None:
        """Give each of a row's prompts its token view (``tokens``)."""
        assert self.encoder is not None
        for prompt in prompts:
            final = prompt.prompt
            assert isinstance(final, str)  # chat API models are refused when the renderer is built
            prompt.tokens = token_view(final, self.spans(prompt, prompts), self.encoder, self._continuation(prompt))

    @staticmethod
    def _continuation(prompt: RenderedPrompt) -> str | None:
        value = prompt.request_fields.get("continuation") if prompt.request_fields else None
        return value if isinstance(value, str) else None
