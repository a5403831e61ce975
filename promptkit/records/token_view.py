"""A final input as tokens: ``input_ids``, each token's piece, the loss mask, and the answer junction.

The pieces are the character spans of :func:`~promptkit.meta_templates.spans.find_spans`,
mapped to tokens with the tokenizer's offsets; no ``{% generation %}`` tag is
needed, so stock chat templates (Llama-3.1, Qwen2.5, Gemma) get masks too.

* ``input_ids`` — the final string tokenized as it is, no special tokens added
  (the meta template or chat template writes them), as
  ``apply_chat_template(tokenize=True)`` tokenizes;
* ``token_labels`` — each token's piece: the piece of its first character that
  is not whitespace (so ``' 4'``, the template's space joined to an answer
  ``4``, is an answer token), of its first character if it is all whitespace;
  ``wrapper`` for a token that covers no character (one the tokenizer added);
* ``loss_mask`` — 1 on the tokens of shot answers (``shot[i].answer``), earlier
  replies (``history.answer``) and the scored answer (``answer_slot``), 0
  elsewhere (end-of-turn tokens are ``wrapper``: 0);
* ``junction`` (ppl and ll prompts) — the continuation's tokens as a scorer
  computes them, ``tok(context + continuation)[len(tok(context)):]``, and
  whether that differs from ``tok(continuation)`` (then both are given).  The
  continuation is ``LLInferencer``'s row continuation (the context: the input
  before its last occurrence, or the whole input when it does not hold it), or
  one that follows the input (lm-eval's requests: the context is the whole
  input), else the ``answer_slot`` text (the context: the input before it).

>>> class Chars:  # a tokenizer of one token per character
...     def encode_offsets(self, text):
...         return [ord(c) for c in text], [(i, i + 1) for i in range(len(text))]
>>> view = token_view('Q: 1+1? A: 2', [Span('query', 0, 11), Span('answer_slot', 11, 12)], Chars())
>>> view.labels[-2:], view.loss_mask[-2:], view.junction.dump()["junction_differs"]
(('query', 'answer_slot'), (0, 1), False)
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from promptkit.errors import ConfigError
from promptkit.meta_templates.spans import Span, is_answer
from promptkit.tokens.counters import HFTokenizer

__all__ = ["Junction", "TokenEncoder", "TokenView", "token_encoder", "token_view"]


@runtime_checkable
class TokenEncoder(Protocol):
    """What a token view needs of a tokenizer: ids and each token's ``(start, end)`` character span."""

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]: ...


class _Backend:
    """A ``tokenizers.Tokenizer`` (also a transformers fast tokenizer's ``backend_tokenizer``) as a :class:`TokenEncoder`."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        encoding = self.tokenizer.encode(text, add_special_tokens=False)
        return encoding.ids, encoding.offsets


def token_encoder(value: Any) -> TokenEncoder:
    """``tokenizer=``: a tokenizer.json path, an :class:`~promptkit.HFTokenizer`, a ``tokenizers.Tokenizer``, a
    transformers fast tokenizer, or anything with ``encode_offsets(text) -> (ids, offsets)``."""
    if isinstance(value, (str, os.PathLike)):
        return HFTokenizer(value)
    if isinstance(value, TokenEncoder):
        return value
    backend = getattr(value, "backend_tokenizer", value)  # transformers' fast tokenizers wrap a tokenizers.Tokenizer
    if callable(getattr(backend, "encode", None)) and callable(getattr(backend, "get_vocab_size", None)):
        return _Backend(backend)
    raise ConfigError(
        f"tokenizer must be a tokenizer.json path, an HFTokenizer, a tokenizers.Tokenizer, a transformers fast tokenizer or an "
        f"object with encode_offsets(text) -> (ids, offsets) (got {value!r} that is a {type(value).__name__}); a slow "
        "(Python) transformers tokenizer has no offsets: load it with use_fast=True",
        key="tokenizer",
    )


@dataclass(frozen=True, slots=True)
class Junction:
    """How a ppl/ll prompt's continuation tokenizes after its context (see the module docstring)."""

    continuation: str
    context_tokens: int
    continuation_ids: tuple[int, ...]
    #: ``tok(continuation)`` on its own, given only when it differs from ``continuation_ids``.
    alone_ids: tuple[int, ...] | None

    @property
    def differs(self) -> bool:
        return self.alone_ids is not None

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "continuation": self.continuation,
            "context_tokens": self.context_tokens,
            "continuation_ids": list(self.continuation_ids),
            "junction_differs": self.differs,
        }
        if self.alone_ids is not None:
            out["continuation_alone_ids"] = list(self.alone_ids)
        return out


@dataclass(frozen=True, slots=True)
class TokenView:
    """A final string's tokens, their pieces and loss mask (one entry per token), and the junction of ppl/ll prompts."""

    input_ids: tuple[int, ...]
    labels: tuple[str, ...]
    loss_mask: tuple[int, ...]
    junction: Junction | None = None

    def dump(self) -> dict[str, Any]:
        """The record's fields: ``input_ids``, ``token_labels``, ``loss_mask`` and ``junction`` (ppl/ll prompts)."""
        out: dict[str, Any] = {"input_ids": list(self.input_ids), "token_labels": list(self.labels), "loss_mask": list(self.loss_mask)}
        if self.junction is not None:
            out["junction"] = self.junction.dump()
        return out


def token_view(final: str, spans: Sequence[Span], encoder: TokenEncoder, continuation: str | None = None, *, follows: bool = False) -> TokenView:
    """The token view of ``final`` whose pieces are ``spans`` (string spans that tile it, as ``find_spans`` gives);
    ``continuation``: LLInferencer's row continuation, if any, or (``follows``) the one scored after ``final``."""
    ids, offsets = encoder.encode_offsets(final)
    tiles = sorted((span for span in spans if span.end > span.start), key=lambda span: span.start)
    starts = [span.start for span in tiles]
    labels: list[str] = []
    for start, end in offsets:
        if start >= end or not tiles:
            labels.append("wrapper")
            continue
        text = final[start:end]
        stripped = len(text) - len(text.lstrip())
        at = start + (stripped if stripped < len(text) else 0)
        labels.append(tiles[max(bisect_right(starts, at) - 1, 0)].piece)
    mask = tuple(1 if is_answer(label) else 0 for label in labels)
    return TokenView(tuple(ids), tuple(labels), mask, _junction(final, spans, encoder, continuation, follows))


def _junction(final: str, spans: Sequence[Span], encoder: TokenEncoder, continuation: str | None, follows: bool) -> Junction | None:
    if continuation is not None and follows:
        context = final
    elif continuation is not None:
        at = final.rfind(continuation) if continuation else -1
        context = final[:at] if at >= 0 else final
    else:
        slots = [span for span in spans if span.piece == "answer_slot" and span.end > span.start]
        if not slots:
            return None
        context, continuation = final[: slots[-1].start], final[slots[-1].start : slots[-1].end]
    context_ids = encoder.encode_offsets(context)[0]
    whole = encoder.encode_offsets(context + continuation)[0]
    continuation_ids = tuple(whole[len(context_ids) :])
    alone = tuple(encoder.encode_offsets(continuation)[0])
    return Junction(continuation, len(context_ids), continuation_ids, None if alone == continuation_ids else alone)
