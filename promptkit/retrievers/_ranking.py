"""Top-k selection from a score per pool row, with ties broken by pool order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["top_k"]


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """The positions of the ``k`` highest scores, best first; equal scores in position order.

    >>> import numpy as np
    >>> top_k(np.array([0.5, 2.0, 0.5, 1.0, 2.0]), 3).tolist()
    [1, 4, 3]
    """
    import numpy as np
    size = len(scores)
    k = min(size, k)
    if k <= 0:
        return np.empty(0, dtype=np.int64)
    if k < size:
        # Everything above the k-th best score, then the earliest positions that tie with it.
        threshold = np.partition(scores, size - k)[size - k]
        above = np.flatnonzero(scores > threshold)
        tied = np.flatnonzero(scores == threshold)[: k - len(above)]
        candidates = np.concatenate((above, tied))
    else:
        candidates = np.arange(size)
    return candidates[np.lexsort((candidates, -scores[candidates]))]
