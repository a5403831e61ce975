"""What a rendered prompt is made of: the spans of its pieces, its tokens, their segments.

What the plan knows of a rendered prompt and the prompt does not say — the string shots it holds (rendered one by
one), its row's other labels' prompts, LLInferencer's continuation — goes to
:func:`~promptkit.meta_templates.spans.find_spans` as :class:`~promptkit.meta_templates.spans.Hints`; the spans and
the tokenizer make each prompt's :class:`~promptkit.records.token_view.TokenView` (``Renderer(tokenizer=...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from promptkit.errors import ConfigError
from promptkit.meta_templates.spans import Hints, Span, find_spans
from promptkit.plan.fitting import TokenSegments, token_segments
from promptkit.plan.plan import Plan
from promptkit.records.record import RenderedPrompt
from promptkit.records.token_view import TokenEncoder, token_encoder, token_view
from promptkit.tokens.guard import ESCAPE
from promptkit.types import FinalInput

__all__ = ["PromptViews"]


class PromptViews:
    """Spans, tokens and token segments of one plan's prompts; ``tokenizer`` (see :func:`token_encoder`) gives each
    prompt its token view, refused for a chat API model (its server applies the chat template and tokenizes)."""

    def __init__(self, plan: Plan, tokenizer: Any = None) -> None:
        self.plan = plan
        self.encoder: TokenEncoder | None = None
        if tokenizer is not None:
            model = plan.model
            if model.kind == "chat":
                raise ConfigError(
                    f"model {model.abbr!r} is a chat API model (ChatModel): it receives messages, and its server applies the chat "
                    "template and tokenizes them, so promptkit has no token view of it; for tokens use the model's chat template "
                    "(type='HuggingFacewithChatTemplate', path=<model folder>) or its meta template (CompletionModel)",
                    key="tokenizer",
                )
            self.encoder = token_encoder(tokenizer)

    def spans(self, prompt: RenderedPrompt, row_prompts: Sequence[RenderedPrompt] = ()) -> list[Span]:
        """The spans of ``prompt``'s pieces; ``row_prompts`` (its row's prompts) name a string ppl prompt's answer slot."""
        plan = self.plan
        mode = plan.mode  # how the prompt was rendered (a calibration prompt's, an lm-eval likelihood context's: the plan's)
        shot_renderer = plan.composer.shots
        shots = shot_renderer.pieces(prompt.ice_idx) if shot_renderer is not None and prompt.ice_idx else ()
        others: tuple[str, ...] = ()
        if isinstance(prompt.intermediate, str) and mode == "ppl":
            others = tuple(p.intermediate for p in row_prompts if p.mode == prompt.mode and isinstance(p.intermediate, str) and p is not prompt)
        render = plan.span_render
        spans = find_spans(plan.model, prompt.intermediate, mode, Hints(shots, others, _continuation(prompt)), render)
        if prompt.escaped_tokens:  # a token row text formed with template text is broken in the final input alone
            reference = render(prompt.intermediate, mode) if render is not None else plan.model.render(prompt.intermediate, mode)
            spans = _with_escapes(spans, reference, prompt.prompt)
        return spans

    def with_tokens(self, prompts: list[RenderedPrompt]) -> list[RenderedPrompt]:
        """A row's prompts, each with its token view (``tokens``)."""
        assert self.encoder is not None
        out = []
        for prompt in prompts:
            final = prompt.prompt
            assert isinstance(final, str)  # chat API models are refused when the views are built
            continuation = _continuation(prompt)
            follows = continuation is not None and self.plan.inferencer.continuation_follows
            out.append(prompt._replace(tokens=token_view(final, self.spans(prompt, prompts), self.encoder, continuation, follows=follows)))
        return out

    def token_segments(self, prompt: RenderedPrompt) -> TokenSegments | None:
        """Tokens of a rendered prompt: total, system, each shot, the rest (``None`` without a token counter)."""
        counter = self.plan.token_counter
        if counter is None:
            return None
        shot_tokens = self.plan.shot_tokens
        per_shot = [shot_tokens(i) for i in prompt.ice_idx] if shot_tokens is not None else []
        return token_segments(prompt.intermediate, prompt.prompt, per_shot, counter)


def _continuation(prompt: RenderedPrompt) -> str | None:
    value = prompt.request_fields.get("continuation") if prompt.request_fields else None
    return value if isinstance(value, str) else None


def _with_escapes(spans: list[Span], rendered: FinalInput, final: FinalInput) -> list[Span]:
    """``spans`` of ``rendered`` moved to ``final``, the same text with U+200B inserted where the control-token guard broke
    a token that row text formed with template text (:mod:`promptkit.tokens.guard`); an inserted character at a span's
    edge stays outside it."""
    texts = [rendered] if isinstance(rendered, str) else [message.get("content") for message in rendered]
    finals = [final] if isinstance(final, str) else [message.get("content") for message in final]
    inserted: dict[int | None, list[int]] = {}
    for index, (text, escaped) in enumerate(zip(texts, finals, strict=False)):
        if isinstance(text, str) and isinstance(escaped, str) and text != escaped:
            at = _insertions(text, escaped)
            if at:
                inserted[None if isinstance(final, str) else index] = at
    if not inserted:
        return spans
    moved = []
    for span in spans:
        at = inserted.get(span.message, [])
        start = span.start + sum(1 for place in at if place <= span.start)
        end = max(start, span.end + sum(1 for place in at if place < span.end))
        moved.append(replace(span, start=start, end=end))
    return moved


def _insertions(text: str, escaped: str) -> list[int] | None:
    """Where ``escaped`` has U+200B that ``text`` lacks (positions in ``text``), or ``None`` if it differs otherwise."""
    at = []
    i = 0
    for char in escaped:
        if i < len(text) and char == text[i]:
            i += 1
        elif char == ESCAPE:
            at.append(i)
        else:
            return None
    return at if i == len(text) else None
