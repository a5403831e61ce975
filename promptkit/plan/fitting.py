"""Fitting the shots into ``max_seq_len`` without re-rendering once per dropped shot.

OpenCompass renders the prompt with all picked shots, counts its tokens, and
while it is too long drops the last shot, renders and counts again — up to
``k + 1`` full renders and tokenisations per row.  Its result is the longest
prefix of the picked shots whose final prompt fits (or no shots).

:class:`ShotFitter` finds the same prefix with about two exact counts.  Each
pool row's shot is counted once and cached; per row, the prompt without shots
is counted once.  A prefix of ``p`` shots is then estimated at ``bare + Σ (shot
tokens + overhead)``, where ``overhead`` is the per-shot cost the meta template
adds (role markers, separators), learnt from the exact counts already taken.
The estimate picks which prefix to render and count exactly; the search keeps
the longest prefix known to fit and the shortest known not to, and stops when
they are adjacent.  A prefix is known not to fit without counting it when a
lower bound says so: from an exact count, each further shot adds at least its
own tokens minus two per piece of text (a token may merge across each edge).
Since adding a shot never shortens the prompt, the answer is the loop's — a
property test checks it against the loop itself.  When even the prompt without
shots is too long, nothing is left to drop: the result says ``over_limit``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.meta_templates import FinalInput, TokenCounter, count_tokens
from promptkit.promptlist import Marker, PromptList, RoleItem
from promptkit.templates.prompt_template import Prompt
from promptkit.templates.shots import prompt_texts

__all__ = ["FitResult", "ShotFitter", "ShotTokens", "TokenSegments", "token_segments"]

#: (shot indices) -> (template output, final input, anything else the caller keeps)
RenderShots = Callable[[list[int]], tuple[Any, ...]]

@dataclass(frozen=True)
class FitResult:
    """The fitted prompt: what ``render`` returned for the shots kept (the final input second), and those shots."""

    rendered: tuple[Any, ...]
    shots: list[int]
    #: The prompt is still longer than ``max_seq_len``, with no shot left to drop.
    over_limit: bool = False


class ShotTokens:
    """Tokens of each pool row rendered as a shot, and how many text pieces it has: counted once, then cached."""

    def __init__(self, counter: TokenCounter, shot: Callable[[int], Prompt]) -> None:
        self.counter = counter
        self._shot = shot
        self._tokens: dict[int, tuple[int, int]] = {}

    def __call__(self, index: int) -> int:
        return self.pieces(index)[0]

    def pieces(self, index: int) -> tuple[int, int]:
        """(tokens, pieces): a chat shot's turns are counted one by one, as the meta template separates them."""
        cached = self._tokens.get(index)
        if cached is None:
            texts = prompt_texts(self._shot(index))
            cached = self._tokens[index] = (sum(self.counter(text) for text in texts), len(texts))
        return cached


class ShotFitter:
    """The longest prefix of the picked shots whose final prompt has at most ``max_seq_len`` tokens.

    ``additive`` says the model's final step only adds text around the shots
    (meta templates do); the search relies on it.  A chat template may trim
    or drop message text (``| trim``, reasoning stripped from earlier turns),
    so for such models ``additive=False`` runs the drop-the-last-shot loop itself.
    """

    def __init__(self, max_seq_len: int, shot_tokens: ShotTokens, additive: bool = True) -> None:
        self.max_seq_len = max_seq_len
        self.counter = shot_tokens.counter
        self.shot_tokens = shot_tokens
        self.additive = additive
        #: Tokens a shot adds beyond its own text, learnt from exact counts (the same meta template wraps every shot).
        self.overhead = 0.0

    def fit(self, ice_idx: Sequence[int], render: RenderShots) -> FitResult:
        """Same shots as OpenCompass's drop-the-last-shot loop, from cached shot counts and (usually) one full count."""
        if not self.additive:
            return self._drop_last(list(ice_idx), render)
        shots = list(ice_idx)
        bare = render([])
        bare_tokens = count_tokens(bare[1], self.counter)
        if bare_tokens > self.max_seq_len:
            return FitResult(bare, [], over_limit=True)
        if not shots:
            return FitResult(bare, [])
        sizes = [self.shot_tokens.pieces(index) for index in shots]
        prefix_tokens = [0]
        for tokens, _ in sizes:
            prefix_tokens.append(prefix_tokens[-1] + tokens)
        # fits: the longest prefix known to fit (0 always "fits": the loop stops there); over: the shortest known not to.
        fits, over = 0, self._certainly_over(bare_tokens, sizes, 0, len(shots) + 1)
        best = FitResult(bare, [])
        while over - fits > 1:
            guess = self._guess(bare_tokens, prefix_tokens, fits, over)
            rendered = render(shots[:guess])
            tokens = count_tokens(rendered[1], self.counter)
            self.overhead = max(0.0, (tokens - bare_tokens - prefix_tokens[guess]) / guess)
            if tokens <= self.max_seq_len:
                fits, best = guess, FitResult(rendered, shots[:guess])
                over = self._certainly_over(tokens, sizes, fits, over)
            else:
                over = guess
        return best

    def _drop_last(self, shots: list[int], render: RenderShots) -> FitResult:
        """OpenCompass's loop: render with every shot, and while too long drop the last one and render again."""
        rendered = render(shots)
        tokens = count_tokens(rendered[1], self.counter)
        while shots and tokens > self.max_seq_len:
            shots = shots[:-1]
            rendered = render(shots)
            tokens = count_tokens(rendered[1], self.counter)
        return FitResult(rendered, shots, over_limit=tokens > self.max_seq_len)

    def _certainly_over(self, tokens: int, sizes: list[tuple[int, int]], known: int, over: int) -> int:
        """The shortest prefix longer than ``known`` (whose prompt has ``tokens``) that cannot fit, by a lower bound.

        Adding a shot adds at least its tokens minus one per edge of each of its
        pieces, where a token may merge with its neighbour; the meta template only adds.
        """
        bound = tokens
        for p in range(known + 1, over):
            shot_tokens, pieces = sizes[p - 1]
            bound += max(0, shot_tokens - _EDGE_SLACK * pieces)
            if bound > self.max_seq_len:
                return p
        return over

    def _guess(self, bare: int, prefix_tokens: list[int], fits: int, over: int) -> int:
        """The longest prefix strictly between ``fits`` and ``over`` that the estimate says fits (at least ``fits + 1``)."""
        guess = fits + 1
        for p in range(fits + 2, over):
            if bare + prefix_tokens[p] + self.overhead * p > self.max_seq_len:
                break
            guess = p
        return guess


# Tokens a piece of a shot may lose to merges across its two edges.
_EDGE_SLACK = 2


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
