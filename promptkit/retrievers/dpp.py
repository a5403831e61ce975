"""``DPPRetriever``: among the nearest pool rows, a subset that is relevant *and* diverse.

The ``candidate_num`` rows nearest the test row are scored with a
determinantal point process kernel ``L_ij = r_i · s_ij · r_j``: ``s`` the
pairwise cosine similarity mapped to ``[0, 1]``, ``r`` the relevance to the
test row, ``exp((cos_i − max cos) / (4 · scale_factor))`` (a smaller
``scale_factor`` weighs relevance more).  The subset of ``ice_num`` rows is
the greedy MAP estimate (Chen et al., 2018: each step adds the row that most
increases ``log det L_S``), then ordered by relevance.  This is OpenCompass's
method; its implementation crashes (it indexes a Python list with an array).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers._selection import BoundSelection, Rerank
from promptkit.retrievers.topk import TopkRetriever

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["DPPRetriever", "greedy_map_dpp"]


class DPPRetriever(TopkRetriever):
    """Diverse shots: DPP MAP inference over the ``candidate_num`` nearest rows (deterministic; ``seed`` is unused, as in
    OpenCompass)."""

    def __init__(
        self,
        *,
        candidate_num: int = 1,
        seed: int = 1,
        scale_factor: float = 0.1,
        filter: Mapping[str, str] | None = None,
        balance: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(filter=filter, balance=balance, **options)
        if isinstance(candidate_num, bool) or not isinstance(candidate_num, int) or candidate_num < self.ice_num:
            raise RetrieverError(
                f"candidate_num must be an int of at least ice_num={self.ice_num}: DPP picks ice_num shots among the candidate_num nearest "
                f"rows (got {candidate_num!r})",
                key="candidate_num",
            )
        if isinstance(scale_factor, bool) or not isinstance(scale_factor, (int, float)) or scale_factor <= 0:
            raise RetrieverError(f"scale_factor must be a positive number (got {scale_factor!r})", key="scale_factor")
        self.candidate_num = candidate_num
        self.seed = seed
        self.scale_factor = float(scale_factor)

    def _wanted(self, selection: BoundSelection, banned: frozenset[int]) -> int:
        return max(selection.wanted(banned), self.candidate_num + len(banned))

    def _rerank(self, pool: np.ndarray, query: np.ndarray, row: Mapping[str, Any], reader: ReaderConfig) -> Rerank:
        import numpy as np
        def rerank(candidates: list[int]) -> list[int]:
            candidates = candidates[: self.candidate_num]
            vectors = pool[candidates]
            relevance = (vectors @ query + 1) / 2
            relevance = np.exp((relevance - relevance.max()) / (2 * self.scale_factor))
            kernel = relevance[:, None] * ((vectors @ vectors.T + 1) / 2) * relevance[None, :]
            chosen = greedy_map_dpp(kernel, self.ice_num)
            chosen.sort(key=lambda i: (-relevance[i], i))
            taken = set(chosen)
            rest = [i for i in np.argsort(-relevance, kind="stable").tolist() if i not in taken]
            return [candidates[i] for i in chosen + rest]

        return rerank

    def __repr__(self) -> str:
        return f"DPPRetriever(ice_num={self.ice_num}, candidate_num={self.candidate_num}, scale_factor={self.scale_factor}, {self.selection.describe()})"


def greedy_map_dpp(kernel: np.ndarray, size: int, epsilon: float = 1e-10) -> list[int]:
    """Greedy MAP inference for a DPP with kernel ``kernel``: up to ``size`` item indices, in the order chosen.

    Each step adds the item with the largest marginal gain in ``log det``, kept
    up to date by an incremental Cholesky factorisation; it stops early when no
    item adds more than ``epsilon`` (the rest are linearly dependent).

    >>> import numpy as np
    >>> k = np.array([[1.0, 0.99, 0.0], [0.99, 1.0, 0.0], [0.0, 0.0, 0.9]])
    >>> greedy_map_dpp(k, 2)   # item 1 is nearly a copy of item 0
    [0, 2]
    """
    import numpy as np
    items = kernel.shape[0]
    factors = np.zeros((size, items))
    gains = np.diag(kernel).astype(np.float64).copy()
    chosen: list[int] = []
    best = int(np.argmax(gains))
    while len(chosen) < size and gains[best] > epsilon:
        chosen.append(best)
        step = len(chosen) - 1
        update = (kernel[best] - factors[:step].T @ factors[:step, best]) / math.sqrt(gains[best])
        factors[step] = update
        gains = gains - update**2
        gains[chosen] = -np.inf
        best = int(np.argmax(gains))
    return chosen
