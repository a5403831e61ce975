"""``VotekRetriever``: one set of representative, diverse shots for every test row (vote-k).

Each pool row votes for its ``votek_k`` most similar other rows (cosine of
their embeddings).  Rows are taken by number of votes, most first (ties in pool
order), skipping a row whose voters are all among the voters of a row ranked
before it (it represents nothing new).  When that yields fewer than
``ice_num`` rows, the rest are drawn at random with ``seed`` — OpenCompass
draws them unseeded, so its shots change from run to run.  Every test row gets
the same shots, minus copies of itself (leakage guard).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError, require
from promptkit.retrievers._selection import Selection
from promptkit.retrievers.topk import TopkRetriever

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["VotekRetriever", "votek_order"]


class VotekRetriever(TopkRetriever):
    """The same vote-k shots for every test row; ``votek_k`` neighbours vote, ``seed`` fills deterministically."""

    def __init__(self, *, votek_k: int = 3, seed: int = 43, **options: Any) -> None:
        super().__init__(**options)
        if isinstance(votek_k, bool) or not isinstance(votek_k, int) or votek_k < 1:
            raise RetrieverError(f"votek_k must be a positive int, the neighbours each pool row votes for (got {votek_k!r})", key="votek_k")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RetrieverError(f"seed must be a non-negative int (got {seed!r})", key="seed")
        self.votek_k = votek_k
        self.seed = seed
        self.selection = Selection(self.ice_num, leakage_guard=self.options.leakage_guard)

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        import numpy as np
        self.check_pool(pool, reader)
        if not self.ice_num or not queries:
            return [[] for _ in queries]
        faiss = require("faiss", "topk", "VotekRetriever")
        vectors = self.embed([reader.input_text(row) for row in pool])
        k = min(self.votek_k, len(pool) - 1)
        index = faiss.IndexFlatIP(vectors.shape[1])
        index.add(vectors)
        # Each row's k most similar *other* rows: search one more and drop the row itself.
        _, found = index.search(vectors, k + 1)
        neighbours = [[int(j) for j in row if j != i][:k] for i, row in enumerate(found)]
        selection = self.selection.bind(pool, reader)
        banned = [selection.leaks(row) for row in queries]
        order = votek_order(neighbours, self.ice_num + max(len(b) for b in banned), np.random.default_rng(self.seed))
        picked = [selection.choose(order, b) for b in banned]
        selection.report(type(self).__name__)
        return picked

    def __repr__(self) -> str:
        return f"VotekRetriever(ice_num={self.ice_num}, votek_k={self.votek_k}, seed={self.seed})"


def votek_order(neighbours: list[list[int]], count: int, rng: np.random.Generator) -> list[int]:
    """``count`` pool indices by vote-k: most voted first, skipping rows whose voters are covered, then a seeded fill.

    >>> import numpy as np
    >>> votek_order([[1], [0], [1], [1]], 3, np.random.default_rng(0))[:2]  # 1 has three votes; 0 one (from 1)
    [1, 0]
    """
    import numpy as np
    voters: list[set[int]] = [set() for _ in neighbours]
    for voter, voted in enumerate(neighbours):
        for row in voted:
            voters[row].add(voter)
    ranked = sorted((row for row in range(len(neighbours)) if voters[row]), key=lambda row: (-len(voters[row]), row))
    chosen: list[int] = []
    for position, row in enumerate(ranked):
        if len(chosen) == count:
            break
        if not any(voters[row] <= voters[earlier] for earlier in ranked[:position]):
            chosen.append(row)
    if len(chosen) < count:
        taken = set(chosen)
        rest = np.array([row for row in range(len(neighbours)) if row not in taken], dtype=np.int64)
        fill = rng.choice(len(rest), min(len(rest), count - len(chosen)), replace=False)
        chosen.extend(rest[fill].tolist())
    return chosen
