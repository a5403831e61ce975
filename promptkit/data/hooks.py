"""What a dataset may add to its rows' prompts: calibration prompts, request fields, the order of the options.

Both are optional: a loader that has the method takes part, a plain loader
(``JsonlDataset``, ``RowsDataset``) simply lacks it.  The format datasets
(``promptkit.formats``) implement them; so can any dataset ``type=``::

    class MyDataset:
        def load(self, base_dir): ...
        def calib_row(self, row):                 # a "mode": "calib" prompt for every row
            return {**row, "question": ""}
        def request_fields(self, row, model_kind):  # fields a chat request carries next to its messages
            return {"tools": row["tools"]} if model_kind == "chat" else None
        def permutation(self, row):               # the record's "permutation" (circular evaluation)
            return row.get("order")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = ["CalibratedDataset", "PermutedDataset", "RequestFieldsDataset"]


@runtime_checkable
class CalibratedDataset(Protocol):
    """A dataset whose rows also render unconditioned (``"mode": "calib"``, e.g. for PMI-style scoring)."""

    def calib_row(self, row: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The row to render as ``row``'s calibration prompt, with the same shots; ``None`` for none."""
        ...


@runtime_checkable
class RequestFieldsDataset(Protocol):
    """A dataset whose rows carry request fields next to the prompt (e.g. ``tools``, ``tool_choice``)."""

    def request_fields(self, row: Mapping[str, Any], model_kind: str) -> dict[str, Any] | None:
        """The fields of ``row`` a request to a ``model_kind`` (``'chat'`` or ``'completion'``) model carries; ``None`` for none."""
        ...


@runtime_checkable
class PermutedDataset(Protocol):
    """A dataset whose rows are its rows with the options reordered (circular evaluation, :mod:`promptkit.data.circular`)."""

    def permutation(self, row: Mapping[str, Any]) -> str | None:
        """The order of ``row``'s options (e.g. ``'BCDA'``), for its records; ``None`` for a row that was not reordered."""
        ...
