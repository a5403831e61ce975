"""Hugging Face ``datasets`` saved to disk (``Dataset.save_to_disk``), read with ``datasets`` (``pip install 'promptkit[hf]'``).

A ``Dataset`` folder holds ``state.json`` and its Arrow files; a
``DatasetDict`` folder holds ``dataset_dict.json`` and one such folder per
split (:func:`saved_splits`).  Rows come as ``datasets`` gives them (its
features decoded), a batch at a time from the memory-mapped table.  Arrow
files of a dataset cache can also be read alone, as ``.arrow`` files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from promptkit.data.progress import task
from promptkit.data.sources.arrow_values import json_form
from promptkit.data.sources.base import FileReader, Schema
from promptkit.errors import DatasetError, require

__all__ = ["SavedDatasetReader", "is_saved_dataset", "saved_splits"]

_BATCH_ROWS = 1024


def is_saved_dataset(folder: Path) -> bool:
    """Whether ``folder`` is a ``Dataset.save_to_disk`` folder."""
    return (folder / "state.json").is_file() and (folder / "dataset_info.json").is_file()


def saved_splits(folder: Path) -> list[str] | None:
    """The split names of a ``DatasetDict.save_to_disk`` folder, or ``None`` if it is not one."""
    index = folder / "dataset_dict.json"
    if not index.is_file():
        return None
    try:
        splits = json.loads(index.read_text(encoding="utf-8"))["splits"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise DatasetError(f"cannot read the DatasetDict's split list ({type(error).__name__}: {error}); save the dataset again", file=str(index)) from None
    if not isinstance(splits, list) or not all(isinstance(split, str) for split in splits):
        raise DatasetError("the DatasetDict's split list must be a list of names; save the dataset again", file=str(index))
    return splits


class SavedDatasetReader(FileReader):
    """The rows of a ``Dataset.save_to_disk`` folder (progress in rows)."""

    kind = "Hugging Face dataset"

    def _dataset(self) -> Any:
        datasets = require("datasets", "hf", f"reading the saved dataset {self.path}")
        bars = not datasets.are_progress_bars_disabled()
        datasets.disable_progress_bars()  # its bars would draw on stderr beside promptkit's own
        try:
            return datasets.load_from_disk(str(self.path))
        except Exception as error:  # datasets' own reading: report whatever it raised, naming the folder
            raise DatasetError(
                f"datasets.load_from_disk cannot read the folder ({type(error).__name__}: {error}); save the dataset again",
                file=str(self.path),
            ) from None
        finally:
            if bars:
                datasets.enable_progress_bars()

    @property
    def schema(self) -> Schema:
        return Schema(str(self.path), "the dataset's features", tuple(self._dataset().column_names))

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        dataset = self._dataset()
        if not hasattr(dataset, "column_names") or isinstance(dataset.column_names, dict):
            raise DatasetError("the folder holds a DatasetDict; give the folder itself as the dataset's path, for its splits", file=str(self.path))
        columns = dataset.column_names
        # Columns of plain values (not images, audio … that datasets decodes) of types JSON has no value for are read
        # again from the Arrow table, in their JSON form (as from Parquet files).
        plain = [name for name, feature in dataset.features.items() if not _decoded(feature)]
        form = json_form(dataset.select_columns(plain).data.schema) if plain else None
        if form is not None:
            again = dataset.select_columns(form.columns)
            form, tables = json_form(again.data.schema), again.with_format("arrow").iter(batch_size=_BATCH_ROWS)
        first = 0
        with task(f"reading {self.path.name}", len(dataset), "rows", self.progress) as advance:
            for batch in dataset.iter(batch_size=_BATCH_ROWS):
                if form is not None:
                    rows = form.rows(next(tables), self.path, first)
                    batch.update({name: [row[name] for row in rows] for name in form.columns})
                values = [batch[column] for column in columns]
                count = len(values[0]) if values else 0
                for index in range(count):
                    yield {column: value[index] for column, value in zip(columns, values, strict=True)}
                first += count
                advance(count)


def _decoded(feature: Any) -> bool:
    """Whether ``datasets`` decodes a feature's values (an image, audio …), itself or inside a list or dict."""
    if hasattr(feature, "decode_example"):
        return True
    if isinstance(feature, dict):
        return any(_decoded(inner) for inner in feature.values())
    if isinstance(feature, (list, tuple)):
        return any(_decoded(inner) for inner in feature)
    inner = getattr(feature, "feature", None)  # Sequence, List, LargeList
    return inner is not None and _decoded(inner)
