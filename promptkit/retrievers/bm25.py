"""``BM25Retriever``: the pool rows whose text best matches the test row's, by Okapi BM25.

The pool is indexed once with ``bm25s`` (a sparse matrix of precomputed
per-term scores), so scoring a query is a few vectorised sums instead of
``rank_bm25``'s Python loop over the pool for every query token.  Scores equal
``rank_bm25.BM25Okapi``'s — the variant OpenCompass uses — up to one constant
factor, so the ranking is the same for the same tokens: bm25s's Robertson
variant gives terms found in more than half the pool rows a weight of 0, where
BM25Okapi gives them ``epsilon`` times the mean IDF; those few terms are added
back here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promptkit.data.progress import tracked
from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError, require
from promptkit.retrievers._ranking import top_k
from promptkit.retrievers._selection import Selection
from promptkit.retrievers._text import tokenize
from promptkit.retrievers.base import Retriever

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["BM25Index", "BM25Retriever"]

Tokenizer = Callable[[str], list[str]]


class BM25Index:
    """BM25Okapi scores of every pool document for a tokenised query (``k1``, ``b``, ``epsilon`` as in rank_bm25)."""

    def __init__(self, corpus: Sequence[Sequence[str]], k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25) -> None:
        import numpy as np
        bm25s = require("bm25s", "bm25", "BM25Retriever")
        self._bm25 = bm25s.BM25(method="robertson", k1=k1, b=b, dtype="float64")
        self._bm25.index([list(doc) for doc in corpus], show_progress=False)
        size = len(corpus)
        doc_freq = Counter(token for doc in corpus for token in set(doc))
        idf = {token: math.log(size - df + 0.5) - math.log(df + 0.5) for token, df in doc_freq.items()}
        floor = epsilon * sum(idf.values()) / len(idf) if idf else 0.0
        # Terms in more than half the documents: bm25s scores them 0, BM25Okapi with the idf floor.
        common = {token for token, value in idf.items() if value < 0}
        tf = {token: np.zeros(size) for token in common}
        if common:
            for i, doc in enumerate(corpus):
                for token in doc:
                    if token in common:
                        tf[token][i] += 1
        lengths = np.array([len(doc) for doc in corpus], dtype=np.float64)
        norm = k1 * (1 - b + b * lengths / lengths.mean()) if size else lengths
        # bm25s's term-frequency part leaves out BM25Okapi's constant factor (k1 + 1); so does this.
        self._common = {token: floor * counts / (counts + norm) for token, counts in tf.items()}

    def scores(self, query: Sequence[str]) -> np.ndarray:
        """One score per pool document; the constant factor ``1 / (k1 + 1)`` apart, rank_bm25's ``get_scores``."""
        ids = self._bm25.get_tokens_ids(list(query))
        scores: np.ndarray = self._bm25.get_scores_from_ids(ids)
        for token in query:
            extra = self._common.get(token)
            if extra is not None:
                scores += extra
        return scores


class BM25Retriever(Retriever):
    """For each test row, the ``ice_num`` pool rows with the highest BM25 score, best first.

    The text of a row is its input columns joined by a space (what OpenCompass
    indexes), split by :func:`tokenize` — words, and CJK characters and
    character pairs — or by ``tokenizer`` (any ``str -> list[str]``).  Equal
    scores are broken by pool order (OpenCompass's unstable sort is not
    reproducible).  ``leakage_guard`` (on by default), ``filter`` and
    ``balance`` choose among the ranked rows (:mod:`._selection`).
    """

    def __init__(
        self,
        ice_separator: str = "\n",
        ice_eos_token: str = "\n",
        ice_num: int = 1,
        tokenizer: Tokenizer | None = None,
        leakage_guard: bool = True,
        filter: Mapping[str, str] | None = None,
        balance: str | None = None,
    ) -> None:
        super().__init__(ice_separator, ice_eos_token, ice_num)
        self.selection = Selection(ice_num, filter, balance, leakage_guard)
        if tokenizer is not None and not callable(tokenizer):
            raise RetrieverError(f"tokenizer must be a function str -> list[str] (got {tokenizer!r})", key="tokenizer")
        self.tokenizer: Tokenizer = tokenizer or tokenize
        self._indexed: tuple[Sequence[Mapping[str, Any]], ReaderConfig, BM25Index] | None = None

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        self.check_pool(pool, reader)
        if not self.ice_num:
            return [[] for _ in queries]
        index = self._index(pool, reader)
        selection = self.selection.bind(pool, reader)
        picked = []
        for position, row in enumerate(tracked(queries, "picking shots (BM25)", len(queries), every=16)):
            allowed = selection.allowed(row, position)
            banned = selection.leaks(row)
            scores = index.scores(self.tokenizer(reader.input_text(row)))
            wanted = selection.wanted(banned)
            ranked = top_k(scores, wanted) if allowed is None else allowed[top_k(scores[allowed], wanted)]
            picked.append(selection.choose(ranked, banned))
        selection.report(type(self).__name__)
        return picked

    def _index(self, pool: Sequence[Mapping[str, Any]], reader: ReaderConfig) -> BM25Index:
        """The pool's index, built once per pool (``Renderer.render_row`` retrieves for one row at a time)."""
        if self._indexed is None or self._indexed[0] is not pool or self._indexed[1] != reader:
            corpus = [self.tokenizer(reader.input_text(row)) for row in tracked(pool, "indexing the pool (BM25)", len(pool))]
            if not any(corpus):
                raise RetrieverError(
                    f"no row of the train split {reader.train_split!r} has a word to index: its input columns "
                    f"{list(reader.input_columns)} hold no text, so BM25 has nothing to compare; check reader_cfg.input_columns",
                    key="reader_cfg.input_columns",
                )
            self._indexed = (pool, reader, BM25Index(corpus))
        return self._indexed[2]

    def __repr__(self) -> str:
        return f"BM25Retriever(ice_num={self.ice_num}, {self.selection.describe()})"
