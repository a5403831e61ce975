"""``SlidingWindowRetriever``: the ``k`` pool rows just before the test row's position.

For test row ``i`` the shots are pool rows ``i-k … i-1``; the first ``k`` rows,
which have fewer predecessors, are padded on the left with the *last* rows of
the pool (OpenCompass's rule).  It assumes the test split and the pool are the
same rows in the same order; the leakage guard does not apply (the window never
contains row ``i`` itself when the pool has more than ``k`` rows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers.base import Retriever

__all__ = ["SlidingWindowRetriever"]


class SlidingWindowRetriever(Retriever):
    """The previous ``k`` rows as shots, oldest first (``ice_num`` is ignored, as in OpenCompass).

    >>> reader = ReaderConfig.from_config(dict(input_columns=["q"]))
    >>> rows = [{"q": i} for i in range(5)]
    >>> SlidingWindowRetriever(k=3).retrieve(rows, rows, reader)
    [[2, 3, 4], [3, 4, 0], [4, 0, 1], [0, 1, 2], [1, 2, 3]]
    """

    shot_count_param = "k"

    def __init__(self, k: int, ice_separator: str = "\n", ice_eos_token: str = "\n", ice_num: int = 1) -> None:
        super().__init__(ice_separator, ice_eos_token, ice_num)
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise RetrieverError(f"k must be a whole number of shots (got {k!r})", key="k")
        self.k = k

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        size = len(pool)
        if self.k >= size > 0:
            raise RetrieverError(
                f"k={self.k} leaves no room in the train split {reader.train_split!r}, which has {size} rows: a window of k rows "
                f"before each row wraps round to the row itself (and its answer); lower k to at most {size - 1}",
                key="k",
            )
        if len(queries) > size + 1:
            raise RetrieverError(
                f"the test split has {len(queries)} rows but the train split {reader.train_split!r} only {size}: test row {size + 1} "
                f"would need pool row {size}; SlidingWindowRetriever needs the test and train splits to be the same rows",
                key="k",
            )
        return [list(range(i - self.k, i)) if i >= self.k else list(range(size - (self.k - i), size)) + list(range(i)) for i in range(len(queries))]

    def __repr__(self) -> str:
        return f"SlidingWindowRetriever(k={self.k}, ice_separator={self.ice_separator!r}, ice_eos_token={self.ice_eos_token!r})"
