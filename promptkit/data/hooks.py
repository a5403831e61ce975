"""What a dataset may add to its rows' prompts and records: calibration prompts, request fields and parameters, the
record's ``sample`` block, the order of the options, the rows' own ids.

All are optional: a loader that has the method (or attribute) takes part, a plain loader (``JsonlDataset``,
``RowsDataset``) simply lacks it.  The format datasets (``promptkit.formats``) implement them; so can any dataset
``type=``::

    class MyDataset:
        def load(self, base_dir): ...
        def calib_row(self, row):                 # a "mode": "calib" prompt for every row
            return {**row, "question": ""}
        def request_fields(self, row, model_kind):  # fields a chat request carries next to its messages (and the record)
            return {"tools": row["tools"]} if model_kind == "chat" else None
        def sampling_params(self, row):           # the row's own request parameters, over the configs'
            return {"temperature": row["temperature"]}
        def sample_fields(self, row):             # what a runner scores the row's prompts with: the record's "sample"
            return {"targets": row["targets"], "metric_name": row["metric"]}
        def permutation(self, row):               # the record's "permutation" (circular evaluation)
            return row.get("order")
        id_column = "id"                          # the records' ids, unless reader_cfg.id_column names another
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

__all__ = ["CalibratedDataset", "IdentifiedDataset", "PermutedDataset", "RequestFieldsDataset", "SampledDataset", "ScoredDataset"]


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
class SampledDataset(Protocol):
    """A dataset whose rows carry their own request parameters (a standardized Sample's ``sampling_params``)."""

    def sampling_params(self, row: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The row's request parameters (``temperature``, ``max_tokens``, …), merged over the request block the model and
        inferencer configs give, for every model kind; ``None`` for none."""
        ...


@runtime_checkable
class ScoredDataset(Protocol):
    """A dataset whose rows carry what a runner scores their prompts with (a task's ``targets`` and ``metric_name``)."""

    def sample_fields(self, row: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The row's scoring fields, written as the ``sample`` block of each of its records; ``None`` for none."""
        ...


@runtime_checkable
class IdentifiedDataset(Protocol):
    """A dataset whose rows carry their own ids (a sample's ``id``): the records' ids, unless ``reader_cfg.id_column``
    names another column."""

    @property
    def id_column(self) -> str:
        """The column holding each row's id."""
        ...


@runtime_checkable
class PermutedDataset(Protocol):
    """A dataset whose rows are its rows with the options reordered (circular evaluation, :mod:`promptkit.data.circular`)."""

    def permutation(self, row: Mapping[str, Any]) -> str | None:
        """The order of ``row``'s options (e.g. ``'BCDA'``), for its records; ``None`` for a row that was not reordered."""
        ...
