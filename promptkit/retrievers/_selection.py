"""Choosing shots from a retriever's candidates: same-column filter, leakage guard, label balance.

Every retriever that ranks or draws its candidates (``RandomRetriever``,
``BM25Retriever``, ``TopkRetriever``) takes the same parameters, so they
compose in a config without a class per combination::

    retriever=dict(type='BM25Retriever', ice_num=4, filter=dict(same='subject'), balance='label')

The steps, in order: the retriever orders the candidates its filter allows
(best or drawn first); the leakage guard removes copies and near-copies of the test row;
``mmr`` (similarity retrievers) reorders them for diversity;
``balance='label'`` takes them round-robin over answer labels; the first
``ice_num`` are the shots.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers._leakage import NO_LEAKS, LeakageGuard, Leaks
from promptkit.types import Row

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["BoundSelection", "Selection"]

logger = logging.getLogger("promptkit.retrievers")


#: How many ranked candidates label balancing and MMR look at per shot wanted.
CANDIDATES_PER_SHOT = 20

Rerank = Callable[[list[int]], list[int]]


class Selection:
    """The selection parameters of a retriever, checked when the config is built."""

    def __init__(self, ice_num: int, filter: Any = None, balance: Any = None, leakage_guard: bool = True, mmr: Any = None) -> None:
        self.ice_num = ice_num
        self.same = _same_column(filter)
        if balance not in (None, "label"):
            raise RetrieverError(f"balance must be 'label' (round-robin over the answer column's labels) or None (got {balance!r})", key="balance")
        self.balance = balance
        if not isinstance(leakage_guard, bool):
            raise RetrieverError(f"leakage_guard must be True or False (got {leakage_guard!r})", key="leakage_guard")
        self.leakage_guard = leakage_guard
        if mmr is not None and (isinstance(mmr, bool) or not isinstance(mmr, (int, float)) or not 0 <= mmr <= 1):
            raise RetrieverError(
                f"mmr must be a number from 0 to 1, the weight of relevance against diversity (got {mmr!r}); 1 is plain top-k", key="mmr"
            )
        self.mmr = None if mmr is None else float(mmr)

    def bind(self, pool: Sequence[Row], reader: ReaderConfig) -> BoundSelection:
        """Index the pool once: filter groups, labels, the leakage guard."""
        return BoundSelection(self, pool, reader)

    def describe(self) -> str:
        parts = [f"filter=dict(same={self.same!r})"] if self.same else []
        if self.balance:
            parts.append(f"balance={self.balance!r}")
        if self.mmr is not None:
            parts.append(f"mmr={self.mmr}")
        parts.append(f"leakage_guard={self.leakage_guard}")
        return ", ".join(parts)


def _same_column(filter: Any) -> str | None:
    if filter is None:
        return None
    if not isinstance(filter, Mapping) or set(filter) != {"same"} or not isinstance(filter["same"], str):
        raise RetrieverError(
            f"filter must be dict(same='<column>'): only pool rows whose column equals the test row's (got {filter!r})", key="filter"
        )
    return filter["same"]


class BoundSelection:
    """A :class:`Selection` applied to one pool."""

    def __init__(self, selection: Selection, pool: Sequence[Row], reader: ReaderConfig) -> None:
        self.selection = selection
        self.ice_num = selection.ice_num
        self.reader = reader
        self.guard = LeakageGuard([reader.input_text(row) for row in pool]) if selection.leakage_guard else None
        self.groups: dict[Hashable, np.ndarray] | None = None
        if selection.same is not None:
            self.groups = _groups(pool, selection.same, reader)
        self.labels: list[Hashable] | None = None
        self.label_order: dict[Hashable, int] = {}
        if selection.balance:
            self.labels, self.label_order = _labels(pool, reader)
        self.short_rows = 0

    def allowed(self, row: Row, index: int) -> np.ndarray | None:
        """The pool indices the filter allows for this test row (``None``: all of them)."""
        if self.groups is None:
            return None
        column = self.selection.same
        assert column is not None
        if column not in row:
            raise RetrieverError(
                f"filter=dict(same={column!r}) but test row {index} has no column {column!r}; the row has {sorted(row)}", row=index, key="filter"
            )
        value = row[column]
        if not isinstance(value, Hashable):
            raise RetrieverError(f"filter=dict(same={column!r}) compares single values, but test row {index} has {value!r}", row=index, key="filter")
        found = self.groups.get(value)
        if found is None:
            import numpy as np

            return np.empty(0, dtype=np.int64)
        return found

    def leaks(self, row: Row) -> Leaks:
        """The pool rows that are copies or near-copies of ``row`` (none when the guard is off)."""
        return self.guard.leaks(self.reader.input_text(row)) if self.guard is not None else NO_LEAKS

    def wanted(self, banned: frozenset[int]) -> int:
        """How many ordered candidates to ask the retriever for."""
        per_shot = CANDIDATES_PER_SHOT if self.labels is not None or self.selection.mmr is not None else 1
        return self.ice_num * per_shot + len(banned)

    def choose(self, ordered: Iterable[int], banned: Leaks, rerank: Rerank | None = None) -> list[int]:
        """The shots from candidates in retriever order: leaks removed, reranked (MMR), balanced if asked, the first ``ice_num``."""
        candidates = [int(i) for i in ordered]
        if banned:
            kept = [i for i in candidates if i not in banned]
            assert self.guard is not None
            self.guard.dropped([i for i in candidates[: self.ice_num] if i in banned], banned)
            candidates = kept
        if rerank is not None:
            candidates = rerank(candidates)
        shots = self._balanced(candidates) if self.labels is not None else candidates[: self.ice_num]
        if len(shots) < self.ice_num:
            self.short_rows += 1
        return shots

    def _balanced(self, candidates: list[int]) -> list[int]:
        """Round-robin over labels, the pool's most frequent label first; within a label, in candidate order."""
        assert self.labels is not None
        queues: dict[Hashable, list[int]] = {}
        for i in candidates:
            queues.setdefault(self.labels[i], []).append(i)
        order = sorted(queues, key=self.label_order.__getitem__)
        shots: list[int] = []
        depth = 0
        while len(shots) < self.ice_num and any(len(queues[label]) > depth for label in order):
            for label in order:
                if len(queues[label]) > depth and len(shots) < self.ice_num:
                    shots.append(queues[label][depth])
            depth += 1
        return shots

    def report(self, retriever: str) -> None:
        """Log what the guard dropped and how many rows got fewer than ``ice_num`` shots."""
        if self.guard is not None:
            self.guard.report(retriever)
        if self.short_rows:
            reason = "the filter or the leakage guard left fewer candidates" if self.groups is not None or self.guard else "too few candidates"
            logger.warning("%s: %d test row(s) got fewer than ice_num=%d shots: %s", retriever, self.short_rows, self.ice_num, reason)



def _groups(pool: Sequence[Row], column: str, reader: ReaderConfig) -> dict[Hashable, np.ndarray]:
    import numpy as np
    groups: dict[Hashable, list[int]] = {}
    for index, row in enumerate(pool):
        if column not in row:
            raise RetrieverError(
                f"filter=dict(same={column!r}) but row {index} of the train split {reader.train_split!r} has no column {column!r}; "
                f"the row has {sorted(row)}",
                key="filter",
            )
        value = row[column]
        if not isinstance(value, Hashable):
            raise RetrieverError(
                f"filter=dict(same={column!r}) compares single values, but row {index} of the train split {reader.train_split!r} has {value!r}",
                key="filter",
            )
        groups.setdefault(value, []).append(index)
    return {value: np.array(indices, dtype=np.int64) for value, indices in groups.items()}


def _labels(pool: Sequence[Row], reader: ReaderConfig) -> tuple[list[Hashable], dict[Hashable, int]]:
    column = reader.output_column
    if column is None:
        raise RetrieverError("balance='label' balances the answer column's labels, but reader_cfg has no output_column", key="balance")
    labels: list[Hashable] = []
    for index, row in enumerate(pool):
        if column not in row:
            raise RetrieverError(
                f"balance='label' needs the answer column {column!r}, which row {index} of the train split {reader.train_split!r} lacks",
                key="balance",
            )
        value = row[column]
        if not isinstance(value, Hashable):
            raise RetrieverError(f"balance='label' needs single labels in {column!r}, but row {index} has {value!r}", key="balance")
        labels.append(value)
    counts = Counter(labels)
    first = {label: i for i, label in reversed(list(enumerate(labels)))}
    ranked = sorted(counts, key=lambda label: (-counts[label], first[label]))
    return labels, {label: rank for rank, label in enumerate(ranked)}
