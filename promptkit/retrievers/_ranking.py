"""Top-k selection from a score per pool row, with ties broken by pool order."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

__all__ = ["top_k"]


def top_k(scores: np.ndarray, k: int, skip: Collection[int] = ()) -> list[int]:
    """The ``k`` pool indices with the highest scores, best first; equal scores in pool order; ``skip`` left out.

    >>> top_k(np.array([0.5, 2.0, 0.5, 1.0, 2.0]), 3)
    [1, 4, 3]
    >>> top_k(np.array([0.5, 2.0, 0.5, 1.0, 2.0]), 3, skip={1})
    [4, 3, 0]
    """
    size = len(scores)
    want = min(size, k + len(skip))
    if want == 0:
        return []
    if want < size:
        # Everything above the want-th best score, then the earliest rows that tie with it.
        threshold = np.partition(scores, size - want)[size - want]
        above = np.flatnonzero(scores > threshold)
        tied = np.flatnonzero(scores == threshold)[: want - len(above)]
        candidates = np.concatenate((above, tied))
    else:
        candidates = np.arange(size)
    order = candidates[np.lexsort((candidates, -scores[candidates]))]
    if skip:
        return [i for i in order.tolist() if i not in skip][:k]
    return order[:k].tolist()  # type: ignore[no-any-return]
