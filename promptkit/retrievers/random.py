"""``RandomRetriever``: shots drawn at random, reproducibly.

By default the draw is OpenCompass's: one legacy NumPy RNG seeded once with
``seed``, then ``choice(len(pool), ice_num, replace=False)`` per test row, in
test order — the same indices as OpenCompass for the same seed and pool.  That
stream ties a row's shots to its position: limit, shard or reorder the test
split and every later row gets different shots.  ``per_row_seed=True`` seeds
each row on its own from ``seed`` and the row's id instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers._selection import Selection
from promptkit.retrievers.base import Retriever
from promptkit.types import Row

if TYPE_CHECKING:
    pass  # imported where used: `import promptkit` reads no numpy

__all__ = ["RandomRetriever"]

#: (candidates, test index, test row, reader, how many are wanted) -> that many positions (or all), in random order
Draw = Callable[[int, int, Row, ReaderConfig, int], list[int]]


class RandomRetriever(Retriever):
    """``ice_num`` distinct random pool rows per test row.

    * ``seed`` — as OpenCompass (default 43).
    * ``per_row_seed`` — seed each row with ``seed`` and its id: the value of
      ``id_column`` if given, else the row's input text. A row's shots then
      stay the same however the test split is limited, sharded or ordered.
    * ``leakage_guard`` (on by default) — skip pool rows whose input text
      equals the test row's; the draw moves on to the next row of the same
      random order, so rows without a leak keep OpenCompass's indices.
    * ``filter``, ``balance`` — draw only among rows sharing a column value,
      and round-robin over labels (:mod:`._selection`).
    """

    def __init__(
        self,
        ice_separator: str = "\n",
        ice_eos_token: str = "\n",
        ice_num: int = 1,
        seed: int = 43,
        per_row_seed: bool = False,
        id_column: str | None = None,
        leakage_guard: bool = True,
        filter: Mapping[str, str] | None = None,
        balance: str | None = None,
    ) -> None:
        super().__init__(ice_separator, ice_eos_token, ice_num)
        self.selection = Selection(ice_num, filter, balance, leakage_guard)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise RetrieverError(f"seed must be an int from 0 to 2**32 - 1 (got {seed!r})", key="seed")
        if not isinstance(per_row_seed, bool):
            raise RetrieverError(f"per_row_seed must be True or False (got {per_row_seed!r} that is a {type(per_row_seed).__name__})", key="per_row_seed")
        if id_column is not None and not per_row_seed:
            raise RetrieverError("id_column only matters with per_row_seed=True; add per_row_seed=True or drop id_column", key="id_column")
        self.seed = seed
        self.per_row_seed = per_row_seed
        self.id_column = id_column

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        self.check_pool(pool, reader)
        selection = self.selection.bind(pool, reader)
        draw: Draw = self._per_row_draw if self.per_row_seed else self._stream_draw()
        picked = []
        for index, row in enumerate(queries):
            allowed = selection.allowed(row, index)
            banned = selection.leaks(row)
            wanted = selection.wanted(banned)
            order = draw(len(pool) if allowed is None else len(allowed), index, row, reader, wanted)
            picked.append(selection.choose(order if allowed is None else allowed[order].tolist(), banned))
        selection.report(type(self).__name__)
        return picked

    def _stream_draw(self) -> Draw:
        """OpenCompass's stream: legacy ``choice(n, k, replace=False)`` is ``permutation(n)[:k]``, so the full permutation
        consumes the same numbers and lets the guard continue the same random order."""
        import numpy as np
        state = np.random.RandomState(self.seed)

        def draw(size: int, index: int, row: Row, reader: ReaderConfig, wanted: int) -> list[int]:
            return state.permutation(size)[:wanted].tolist()  # type: ignore[no-any-return]

        return draw

    def _per_row_draw(self, size: int, index: int, row: Row, reader: ReaderConfig, wanted: int) -> list[int]:
        import numpy as np
        if self.id_column is None:
            key = reader.input_text(row)
        elif self.id_column in row:
            key = str(row[self.id_column])
        else:
            raise RetrieverError(
                f"id_column {self.id_column!r} is missing from test row {index}; the row has {sorted(row)}", row=index, key="id_column"
            )
        row_id = int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "little")
        rng = np.random.default_rng([self.seed, row_id])
        return rng.choice(size, min(size, wanted), replace=False).tolist()  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (
            f"RandomRetriever(ice_num={self.ice_num}, seed={self.seed}, per_row_seed={self.per_row_seed}, "
            f"id_column={self.id_column!r}, {self.selection.describe()})"
        )
