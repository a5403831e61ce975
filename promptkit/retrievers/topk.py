"""``TopkRetriever``: the pool rows whose embeddings are nearest the test row's.

Texts (a row's input columns joined by a space) are embedded in batches, once
per pool and once per test split, by a pluggable embedder (default: the
bundled all-MiniLM-L6-v2, see :mod:`.embedding`); vectors are normalised and
searched exactly by inner product with ``faiss`` (``IndexFlatIP``), so the
nearest rows are those of highest cosine similarity.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError, require
from promptkit.retrievers._selection import BoundSelection, Rerank, Selection
from promptkit.retrievers.base import Retriever
from promptkit.retrievers.embedding import Embedder, EmbeddingCache, SentenceTransformerEmbedder, embed_texts

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["EmbeddingOptions", "TopkRetriever", "mmr_order"]

# Extra neighbours fetched so that rows tying with the last one wanted are ordered by pool index, not by faiss.
_TIE_MARGIN = 8


@dataclass(frozen=True)
class EmbeddingOptions:
    """The options every embedding retriever takes (TopK, VoteK, DPP, MDL), given flat in a config.

    ``TopkRetriever`` and its subclasses take them as keywords beside their
    own (``dict(type='DPPRetriever', ice_num=4, candidate_num=20, embedder=...)``);
    each class's signature lists both, so configs get did-you-mean errors.
    """

    ice_separator: str = "\n"
    ice_eos_token: str = "\n"
    ice_num: int = 1
    sentence_transformers_model_name: str | None = None
    tokenizer_name: str | None = None
    batch_size: int = 64
    embedder: Embedder | None = None
    cache_dir: str | os.PathLike[str] | None = None
    leakage_guard: bool = True


def _with_options(cls: type) -> None:
    """Give ``cls`` the signature configs see: its own keyword parameters, then the :class:`EmbeddingOptions` it forwards."""
    init = vars(cls).get("__init__")
    if init is None:  # inherited, and with it the parent's signature
        return
    own = [p for name, p in inspect.signature(init).parameters.items() if name != "self"]
    if not any(p.kind is p.VAR_KEYWORD for p in own):
        return
    named = [p.replace(kind=p.KEYWORD_ONLY) for p in own if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    shared = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=f.type) for f in fields(EmbeddingOptions)]
    taken = {p.name for p in named}
    cls.__signature__ = inspect.Signature([*(p for p in shared if p.name not in taken), *named])  # type: ignore[attr-defined]  # what inspect.signature(cls) reports


class TopkRetriever(Retriever):
    """For each test row, the ``ice_num`` most similar pool rows, most similar first (ties in pool order).

    * the :class:`EmbeddingOptions` — ``ice_num``, ``embedder``, ``cache_dir``, ``leakage_guard`` …;
    * ``embedder`` — any callable ``list[str] -> array (n, dim)``; default
      :class:`SentenceTransformerEmbedder` (``sentence_transformers_model_name``
      may name a local model directory, ``batch_size`` its batch).
    * ``cache_dir`` — keep embeddings on disk, keyed by the embedder's ``name``
      and each text's hash.
    * ``mmr`` — maximal marginal relevance: reorder the best ``20 × ice_num``
      candidates by ``mmr × similarity to the test row − (1 − mmr) × highest
      similarity to a shot already chosen``.
    * ``filter``, ``balance``, ``leakage_guard`` — as every ranking retriever.
    * ``tokenizer_name`` — accepted for OpenCompass configs and unused: the
      embedding model truncates with its own tokenizer.
    """

    def __init__(self, *, filter: Mapping[str, str] | None = None, balance: str | None = None, mmr: float | None = None, **options: Any) -> None:
        self.options = shared = EmbeddingOptions(**options)
        super().__init__(shared.ice_separator, shared.ice_eos_token, shared.ice_num)
        self.selection = Selection(shared.ice_num, filter, balance, shared.leakage_guard, mmr)
        embedder = shared.embedder
        if embedder is not None and not callable(embedder):
            raise RetrieverError(f"embedder must be a callable list[str] -> array (n, dim) (got {embedder!r})", key="embedder")
        if embedder is not None and shared.sentence_transformers_model_name is not None:
            raise RetrieverError("give either embedder or sentence_transformers_model_name, not both", key="embedder")
        self.embedder: Embedder = embedder or SentenceTransformerEmbedder(shared.sentence_transformers_model_name, shared.batch_size)
        self.cache = EmbeddingCache(shared.cache_dir) if shared.cache_dir is not None else None
        self.tokenizer_name = shared.tokenizer_name
        self._indexed: tuple[Sequence[Mapping[str, Any]], ReaderConfig, np.ndarray, Any] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _with_options(cls)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Normalised embeddings of ``texts`` (through the disk cache when set)."""
        return embed_texts(self.embedder, texts, self.cache, getattr(self.embedder, "name", None))

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        import numpy as np
        self.check_pool(pool, reader)
        if not self.ice_num or not queries:
            return [[] for _ in queries]
        faiss = require("faiss", "topk", type(self).__name__)
        pool_vectors, index = self._index(pool, reader, faiss)
        query_vectors = self.embed([reader.input_text(row) for row in queries])
        if query_vectors.shape[1] != pool_vectors.shape[1]:
            raise RetrieverError(
                f"the embedder returned vectors of {query_vectors.shape[1]} dimensions for the test rows but {pool_vectors.shape[1]} "
                "for the pool",
                key="embedder",
            )
        selection = self.selection.bind(pool, reader)
        allowed = [selection.allowed(row, i) for i, row in enumerate(queries)]
        banned = [selection.leaks(row) for row in queries]
        depth = min(len(pool), max(self._wanted(selection, b) for b in banned) + _TIE_MARGIN)
        neighbours: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        unfiltered = [i for i, subset in enumerate(allowed) if subset is None]
        if unfiltered:
            found_scores, found_ids = index.search(query_vectors[unfiltered], depth)
            neighbours = {row: (found_scores[n], found_ids[n]) for n, row in enumerate(unfiltered)}
        picked = []
        for i, subset in enumerate(allowed):
            if subset is None:
                scores, ids = neighbours[i]
            else:
                ids = subset
                scores = pool_vectors[ids] @ query_vectors[i]
            ranked = ids[np.lexsort((ids, -scores))][: self._wanted(selection, banned[i])].tolist()
            picked.append(selection.choose(ranked, banned[i], self._rerank(pool_vectors, query_vectors[i], queries[i], reader)))
        selection.report(type(self).__name__)
        return picked

    def _index(self, pool: Sequence[Mapping[str, Any]], reader: ReaderConfig, faiss: Any) -> tuple[np.ndarray, Any]:
        """The pool's vectors and faiss index, built once per pool (``Renderer.render_row`` retrieves one row at a time)."""
        if self._indexed is None or self._indexed[0] is not pool or self._indexed[1] != reader:
            vectors = self.embed([reader.input_text(row) for row in pool])
            index = faiss.IndexFlatIP(vectors.shape[1])
            index.add(vectors)
            self._indexed = (pool, reader, vectors, index)
        return self._indexed[2], self._indexed[3]

    def _wanted(self, selection: BoundSelection, banned: frozenset[int]) -> int:
        """How many nearest rows each test row's selection starts from."""
        return selection.wanted(banned)

    def _rerank(self, pool: np.ndarray, query: np.ndarray, row: Mapping[str, Any], reader: ReaderConfig) -> Rerank | None:
        """How the nearest rows are reordered before balancing and taking ``ice_num`` (MMR when asked)."""
        mmr = self.selection.mmr
        if mmr is None:
            return None
        return lambda candidates: mmr_order(candidates, pool, query, mmr)

    def __repr__(self) -> str:
        return f"TopkRetriever(ice_num={self.ice_num}, embedder={self.embedder!r}, {self.selection.describe()})"


_with_options(TopkRetriever)


def mmr_order(candidates: list[int], vectors: np.ndarray, query: np.ndarray, weight: float) -> list[int]:
    """Candidates in maximal-marginal-relevance order: each next one maximises
    ``weight × sim(query) − (1 − weight) × max sim(chosen)``; ties go to the earlier candidate.

    >>> import numpy as np
    >>> v = np.array([[1.0, 0.0], [0.99, 0.141], [0.0, 1.0]])
    >>> mmr_order([0, 1, 2], v, np.array([0.8, 0.6]), 1.0)  # relevance only: 1 and its near-copy 0 first
    [1, 0, 2]
    >>> mmr_order([0, 1, 2], v, np.array([0.8, 0.6]), 0.5)  # the near-copy of 1 goes last
    [1, 2, 0]
    """
    import numpy as np
    if not candidates:
        return []
    chosen_vectors = vectors[candidates]
    relevance = chosen_vectors @ query
    similarity = chosen_vectors @ chosen_vectors.T
    closest = np.full(len(candidates), -np.inf)
    left = np.ones(len(candidates), dtype=bool)
    order: list[int] = []
    for _ in range(len(candidates)):
        penalty = np.where(np.isinf(closest), 0.0, closest)
        score = np.where(left, weight * relevance - (1 - weight) * penalty, -np.inf)
        pick = int(np.argmax(score))
        order.append(candidates[pick])
        left[pick] = False
        closest = np.maximum(closest, similarity[pick])
    return order
