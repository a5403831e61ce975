"""``CoverageRetriever``: shots that together cover the test row's words, not the same words ``ice_num`` times.

Top-k retrievers rank each pool row on its own, so their shots are often
near-copies of one another that all match the same part of the question.
Coverage-based selection (Gupta, Gardner and Singh, *Coverage-based Example
Selection for In-Context Learning*, 2023) picks the shots as a set instead:
each next shot is the pool row that adds the most of the test row's
still-uncovered *aspects*.  Here an aspect is one of the row's distinct word
n-grams (``ngram=2``: words and adjacent word pairs, by the BM25 tokenizer,
so CJK text works), weighted by its inverse document frequency in the pool,
so rare words count and words in every row hardly do.  When no pool row adds
anything new, the rest follow by the total weight of the aspects they share
with the test row.  Equal gains go to the earlier pool row: the shots are
deterministic.  Shots appear in the order chosen, the most covering first.

>>> pool = [{"q": "capital of france"}, {"q": "the capital of france"}, {"q": "population of paris"}]
>>> reader = ReaderConfig.from_config(dict(input_columns=["q"]))
>>> CoverageRetriever(ice_num=2, ngram=1, leakage_guard=False).retrieve(pool, [{"q": "capital and population of paris"}], reader)
[[2, 0]]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers._selection import Selection
from promptkit.retrievers._text import tokenize
from promptkit.retrievers.base import Retriever

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["CoverageRetriever", "aspects"]

Tokenizer = Callable[[str], list[str]]
Aspect = tuple[str, ...]


def aspects(tokens: Sequence[str], ngram: int) -> set[Aspect]:
    """The distinct n-grams of ``tokens`` for n from 1 to ``ngram``.

    >>> sorted(aspects(["a", "b", "a"], 2))
    [('a',), ('a', 'b'), ('b',), ('b', 'a')]
    """
    return {tuple(tokens[i : i + n]) for n in range(1, ngram + 1) for i in range(len(tokens) - n + 1)}


class _Index:
    """The pool's aspects: which rows hold each one, and its weight (idf)."""

    def __init__(self, corpus: Sequence[set[Aspect]]) -> None:
        import numpy as np
        self.size = len(corpus)
        rows: dict[Aspect, list[int]] = {}
        for index, held in enumerate(corpus):
            for aspect in held:
                rows.setdefault(aspect, []).append(index)
        self.rows = {aspect: np.array(indices, dtype=np.int64) for aspect, indices in rows.items()}
        self.weight = {aspect: math.log((self.size + 1) / (len(indices) + 0.5)) for aspect, indices in rows.items()}

    def order(self, query: set[Aspect], candidates: np.ndarray, count: int) -> list[int]:
        """Up to ``count`` of ``candidates``: greedy coverage of ``query``'s aspects, then by shared weight."""
        import numpy as np
        shared = sorted((aspect for aspect in query if aspect in self.rows), key=lambda aspect: (-self.weight[aspect], aspect))
        allowed = np.zeros(self.size, dtype=bool)
        allowed[candidates] = True
        gain = np.zeros(self.size)
        for aspect in shared:
            gain[self.rows[aspect]] += self.weight[aspect]
        overlap = gain.copy()
        gain[~allowed] = -np.inf
        chosen: list[int] = []
        uncovered = set(shared)
        while len(chosen) < min(count, len(candidates)):
            best = int(np.argmax(gain))
            if gain[best] <= 0:
                break
            chosen.append(best)
            gain[best] = -np.inf
            for aspect in [aspect for aspect in shared if aspect in uncovered and best in self.rows[aspect]]:
                uncovered.discard(aspect)
                gain[self.rows[aspect]] -= self.weight[aspect]
        taken = set(chosen)
        rest = [int(i) for i in candidates[np.lexsort((candidates, -overlap[candidates]))] if int(i) not in taken]
        return (chosen + rest)[:count]


class CoverageRetriever(Retriever):
    """For each test row, ``ice_num`` shots that together cover its word n-grams (see the module docstring).

    * ``ngram`` — the longest n-gram counted as an aspect (1: words only);
    * ``tokenizer`` — any ``str -> list[str]`` (default: words, and CJK
      characters and character pairs, as BM25Retriever);
    * ``filter``, ``balance``, ``leakage_guard`` — as every ranking retriever.
    """

    def __init__(
        self,
        ice_separator: str = "\n",
        ice_eos_token: str = "\n",
        ice_num: int = 1,
        ngram: int = 2,
        tokenizer: Tokenizer | None = None,
        leakage_guard: bool = True,
        filter: Mapping[str, str] | None = None,
        balance: str | None = None,
    ) -> None:
        super().__init__(ice_separator, ice_eos_token, ice_num)
        self.selection = Selection(ice_num, filter, balance, leakage_guard)
        if isinstance(ngram, bool) or not isinstance(ngram, int) or ngram < 1:
            raise RetrieverError(f"ngram must be a positive int, the longest word n-gram to cover (got {ngram!r})", key="ngram")
        if tokenizer is not None and not callable(tokenizer):
            raise RetrieverError(f"tokenizer must be a function str -> list[str] (got {tokenizer!r})", key="tokenizer")
        self.ngram = ngram
        self.tokenizer: Tokenizer = tokenizer or tokenize
        self._indexed: tuple[Sequence[Mapping[str, Any]], ReaderConfig, _Index] | None = None

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        import numpy as np
        self.check_pool(pool, reader)
        if not self.ice_num:
            return [[] for _ in queries]
        index = self._index(pool, reader)
        selection = self.selection.bind(pool, reader)
        everyone = np.arange(len(pool), dtype=np.int64)
        picked = []
        for position, row in enumerate(queries):
            allowed = selection.allowed(row, position)
            banned = selection.leaks(row)
            candidates = everyone if allowed is None else allowed
            leaked: list[int] = []
            if banned:
                # A copy of the test row covers it best: it goes first, for the guard to drop and count, and the
                # coverage is computed from the other rows.
                copies = np.isin(candidates, list(banned))
                leaked, candidates = candidates[copies].tolist(), candidates[~copies]
            query = aspects(self.tokenizer(reader.input_text(row)), self.ngram)
            picked.append(selection.choose(leaked + index.order(query, candidates, selection.wanted(banned)), banned))
        selection.report(type(self).__name__)
        return picked

    def _index(self, pool: Sequence[Mapping[str, Any]], reader: ReaderConfig) -> _Index:
        """The pool's aspects, found once per pool (``Renderer.render_row`` retrieves for one row at a time)."""
        if self._indexed is None or self._indexed[0] is not pool or self._indexed[1] != reader:
            self._indexed = (pool, reader, _Index([aspects(self.tokenizer(reader.input_text(row)), self.ngram) for row in pool]))
        return self._indexed[2]

    def __repr__(self) -> str:
        return f"CoverageRetriever(ice_num={self.ice_num}, ngram={self.ngram}, {self.selection.describe()})"

