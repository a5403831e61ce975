"""The leakage guard: a test row never gets itself, or a copy or near-copy of its text, as a shot.

When the pool and the test split overlap (one data file for both, as
OpenCompass does for single-split datasets, or a train file holding the test
questions again), a retriever could show the item under test *with its
answer* as one of its own shots.  The guard drops any pool row whose input
text equals the test row's after :func:`normalise_text`, so a copy that
differs only by a trailing space, case or a question mark is caught too, and
logs how often it did.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Collection, Iterable, Sequence

__all__ = ["LeakageGuard", "Leaks", "normalise_text"]

logger = logging.getLogger("promptkit.retrievers")


class _PunctuationToSpace(dict[int, int]):
    """A ``str.translate`` table mapping every Unicode punctuation character (category ``P*``) to a space, filled as met."""

    def __missing__(self, code: int) -> int:
        value = self[code] = 0x20 if unicodedata.category(chr(code)).startswith("P") else code
        return value


_PUNCTUATION = _PunctuationToSpace()


def normalise_text(text: str) -> str:
    """The text the guard compares: NFKC, case-folded (then NFKC again), each punctuation character a space, whitespace
    runs one space, stripped.

    Symbols (``+ = $ <``), digits and letters are kept, so ``2+2`` and ``2-2``
    stay apart (``-`` is punctuation, ``+`` a symbol).

    >>> normalise_text("  Who wrote\\tＨＡＭＬＥＴ? ")
    'who wrote hamlet'
    """
    # NFKC again after folding: folding can decompose (U+01F0 "ǰ" folds to "j" + U+030C), and the key must be stable.
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()).translate(_PUNCTUATION)
    return " ".join(folded.split())


class Leaks(frozenset[int]):
    """The pool indices a query must not get as shots; ``exact`` are those whose text is the query's, unnormalised."""

    exact: frozenset[int]

    def __new__(cls, indices: Iterable[int] = (), exact: Iterable[int] = ()) -> Leaks:
        leaks = super().__new__(cls, indices)
        leaks.exact = frozenset(exact)
        return leaks


NO_LEAKS = Leaks()


class LeakageGuard:
    """Pool indices whose text equals a query's after normalisation; counts what it drops for :meth:`report`.

    A text that normalises to nothing (only punctuation and spaces) is compared
    as it is: there is nothing left to call it a near-copy by.
    """

    def __init__(self, pool_texts: Sequence[str]) -> None:
        self._texts = pool_texts
        self._by_key: dict[tuple[bool, str], list[int]] = {}
        for index, text in enumerate(pool_texts):
            self._by_key.setdefault(_key(text), []).append(index)
        self.rows_affected = 0
        self.shots_dropped = 0
        self.near_dropped = 0

    def leaks(self, query_text: str) -> Leaks:
        """The pool indices that must not be shots for a query with this text."""
        found = self._by_key.get(_key(query_text))
        if not found:
            return NO_LEAKS
        return Leaks(found, (i for i in found if self._texts[i] == query_text))

    def dropped(self, indices: Collection[int], leaks: Leaks) -> None:
        """Record that the candidate shots ``indices`` of one query, all in its ``leaks``, were dropped."""
        if indices:
            self.rows_affected += 1
            self.shots_dropped += len(indices)
            self.near_dropped += sum(1 for i in indices if i not in leaks.exact)

    def report(self, retriever: str) -> None:
        """Log, once per retrieval, what the guard dropped (nothing when it never fired)."""
        if self.shots_dropped:
            logger.warning(
                "%s: leakage guard dropped %d candidate shot(s) for %d test row(s) because their input text is equal or near-equal "
                "after normalisation to the test row's (%d exact, %d differing only in case, width, whitespace or punctuation); "
                "pass leakage_guard=False to keep them",
                retriever,
                self.shots_dropped,
                self.rows_affected,
                self.shots_dropped - self.near_dropped,
                self.near_dropped,
            )


def _key(text: str) -> tuple[bool, str]:
    """The normalised text, or (when nothing is left of it) the text itself, marked apart."""
    normalised = normalise_text(text)
    return (True, normalised) if normalised else (False, text)
