"""What the data stage asks of the classes it works with.

* :class:`Dataset` — a ``type=`` of a ``datasets`` entry: ``load(base_dir)``
  returns the rows by split (:class:`~promptkit.data.loaders.Splits`);
  optionally :class:`HasDataDir` says where relative media paths resolve, and
  :class:`StreamingDataset` gives the splits as rows read lazily (``stream(base_dir)``).
* :class:`RowText` — the text of a row that retrievers index and compare
  (``reader_cfg.input_template``; :class:`~promptkit.data.input_template.InputTemplate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from promptkit.data.loaders import Splits

__all__ = ["Dataset", "HasDataDir", "RowText", "StreamingDataset"]


@runtime_checkable
class Dataset(Protocol):
    """A dataset class: built from its config's keys (``path=...``, ``rows=...``), it loads the rows by split."""

    def load(self, base_dir: Path | None = None) -> Splits:
        """The rows of every split; ``base_dir`` (the config file's folder) resolves relative paths."""
        ...


@runtime_checkable
class HasDataDir(Protocol):
    """A dataset whose relative media paths resolve against its own folder (``JsonlDataset``: the data file's)."""

    def data_dir(self, base_dir: Path | None) -> Path | None:
        """The folder relative media paths in rows resolve against (without it: the config's folder)."""
        ...


@runtime_checkable
class StreamingDataset(Protocol):
    """A dataset whose splits can be read lazily: ``stream`` returns :class:`~promptkit.data.streaming.FileRows` as
    the rows, read as they are asked for (``JsonlDataset``, ``--rows``); ``load`` still reads every row."""

    def stream(self, base_dir: Path | None = None) -> Splits:
        """The rows of every split, unread until iterated or indexed."""
        ...


@runtime_checkable
class RowText(Protocol):
    """The text of a row that similarity retrievers compare."""

    def text(self, row: Mapping[str, Any]) -> str:
        """One row's text."""
        ...
