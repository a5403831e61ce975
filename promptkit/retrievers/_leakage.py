"""The leakage guard: a test row never gets itself, or a copy of its text, as a shot.

When the pool and the test split overlap (one data file for both, as
OpenCompass does for single-split datasets), a retriever could show the item
under test *with its answer* as one of its own shots.  The guard drops any
pool row whose input text equals the test row's, and logs how often it did.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

__all__ = ["LeakageGuard"]

logger = logging.getLogger("promptkit.retrievers")


class LeakageGuard:
    """Pool indices whose text equals a query's; counts what it drops for :meth:`report`."""

    def __init__(self, pool_texts: Sequence[str]) -> None:
        self._by_text: dict[str, list[int]] = {}
        for index, text in enumerate(pool_texts):
            self._by_text.setdefault(text, []).append(index)
        self.rows_affected = 0
        self.shots_dropped = 0

    def leaks(self, query_text: str) -> frozenset[int]:
        """The pool indices that must not be shots for a query with this text."""
        found = self._by_text.get(query_text)
        return frozenset(found) if found else frozenset()

    def dropped(self, count: int) -> None:
        """Record that ``count`` candidate shots of one query were dropped."""
        if count:
            self.rows_affected += 1
            self.shots_dropped += count

    def report(self, retriever: str) -> None:
        """Log, once per retrieval, what the guard dropped (nothing when it never fired)."""
        if self.shots_dropped:
            logger.warning(
                "%s: leakage guard dropped %d candidate shot(s) for %d test row(s) because their input text equals the test row's "
                "(the pool and the test split overlap); pass leakage_guard=False to keep them",
                retriever,
                self.shots_dropped,
                self.rows_affected,
            )
