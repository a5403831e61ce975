"""Fitting the shots into ``max_seq_len`` without re-rendering once per dropped shot.

OpenCompass renders the prompt with all picked shots, counts its tokens, and
while it is too long drops the last shot, renders and counts again — up to
``k + 1`` full renders and tokenisations per row.  The result is the longest
prefix of the picked shots whose final prompt fits (or no shots).

:class:`ShotFitter` finds the same prefix from token counts: each shot's
tokens are counted once per pool row and cached; the prompt without shots is
counted once per row.  Inserting a shot of ``c`` tokens adds at least
``c - 2`` tokens to the prompt (a token may merge across each of its two
edges; the meta template only adds), so ``base + Σ max(0, c_i - 2)`` is a lower
bound of the prompt's length with shots ``0 … p-1``.  Every prefix longer than
the longest one whose bound fits is certainly too long; that candidate is
rendered and counted exactly, and only if it is over the limit is the next
shorter one tried.  Typically that is two counts per row — one of them of the
short shot-less prompt — whatever the number of dropped shots.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.meta_templates.models import FinalInput, TokenCounter, count_tokens
from promptkit.promptlist import Marker, PromptList, RoleItem
from promptkit.templates.prompt_template import Prompt

__all__ = ["FitResult", "ShotFitter", "ShotTokens", "TokenSegments", "prompt_text", "token_segments"]

#: (shot indices) -> (template output, final input)
RenderShots = Callable[[list[int]], tuple[Any, FinalInput]]

# Tokens a shot's text may lose to merges across its two edges.
_EDGE_SLACK = 2


@dataclass(frozen=True)
class FitResult:
    """The fitted prompt: template output, final input, the shots kept, and the final token count when it was counted."""

    intermediate: Any
    final: FinalInput
    shots: list[int]
    tokens: int | None


def prompt_text(prompt: Prompt) -> str:
    """The text of a rendered shot: a string, or the prompts of a PromptList's items, concatenated."""
    if isinstance(prompt, str):
        return prompt
    assert isinstance(prompt, PromptList)
    return "".join(item if isinstance(item, str) else item.prompt or "" for item in prompt if isinstance(item, (str, RoleItem)))


class ShotTokens:
    """Tokens of each pool row rendered as a shot: counted once, then cached."""

    def __init__(self, counter: TokenCounter, shot: Callable[[int], Prompt]) -> None:
        self.counter = counter
        self._shot = shot
        self._tokens: dict[int, int] = {}

    def __call__(self, index: int) -> int:
        tokens = self._tokens.get(index)
        if tokens is None:
            tokens = self._tokens[index] = self.counter(prompt_text(self._shot(index)))
        return tokens


class ShotFitter:
    """The longest prefix of the picked shots whose final prompt has at most ``max_seq_len`` tokens."""

    def __init__(self, max_seq_len: int, shot_tokens: ShotTokens) -> None:
        self.max_seq_len = max_seq_len
        self.counter = shot_tokens.counter
        self.shot_tokens = shot_tokens

    def fit(self, ice_idx: Sequence[int], render: RenderShots) -> FitResult:
        """Same shots as OpenCompass's drop-the-last-shot loop, from cached shot counts and (usually) two exact counts."""
        shots = list(ice_idx)
        if not shots:
            intermediate, final = render([])
            return FitResult(intermediate, final, [], None)
        bare_intermediate, bare_final = render([])
        bound = bare_tokens = count_tokens(bare_final, self.counter)
        keep = 0
        for index in shots:
            bound += max(0, self.shot_tokens(index) - _EDGE_SLACK)
            if bound > self.max_seq_len:
                break
            keep += 1
        while keep:
            intermediate, final = render(shots[:keep])
            tokens = count_tokens(final, self.counter)
            if tokens <= self.max_seq_len:
                return FitResult(intermediate, final, shots[:keep], tokens)
            keep -= 1
        return FitResult(bare_intermediate, bare_final, [], bare_tokens)


@dataclass(frozen=True)
class TokenSegments:
    """Where a prompt's tokens go: the system prompt, each shot, and the rest (the query and the template's text)."""

    total: int
    system: int
    shots: list[int]
    rest: int


def token_segments(intermediate: Any, final: FinalInput, per_shot: list[int], counter: TokenCounter) -> TokenSegments:
    """Split the final prompt's token count: the system items, the shots (``per_shot``, each counted alone), the rest."""
    total = count_tokens(final, counter)
    system = 0
    if isinstance(intermediate, PromptList):
        in_shot = False
        for item in intermediate:
            if isinstance(item, Marker) and item.section == "ice":
                in_shot = item.pos == "begin"
            elif isinstance(item, RoleItem) and item.role == "SYSTEM" and not in_shot and item.prompt:
                system += counter(item.prompt)
    return TokenSegments(total, system, per_shot, total - system - sum(per_shot))
