"""Where a renderer is — config file, dataset, model, test row — added to the errors raised there."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from promptkit.errors import PromptkitError

__all__ = ["Where"]


class Where:
    """Where a renderer is (config file, dataset, model; ``row`` for :meth:`at`), added to each promptkit error raised
    inside ``with where:``, or given to :meth:`attach` by the one handler around a row's work."""

    __slots__ = ("context", "row")

    def __init__(self, context: dict[str, Any], row: int | None = None) -> None:
        self.context = context
        self.row = row

    def at(self, row: int) -> Where:
        """The same place, at test row ``row``."""
        return Where(self.context, row)

    def attach(self, error: PromptkitError, row: int | None = None, label: Hashable | None = None) -> PromptkitError:
        """``error`` with where it happened filled in (what its raiser knew wins); row ``-1``, outside the test split, is not named."""
        return error.add_context(row=row if row is not None and row >= 0 else None, label=label, **self.context)

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if isinstance(exc, PromptkitError):
            self.attach(exc, self.row)
