"""Generic files: ``CustomDataset`` (a .jsonl or .csv file) and ``HFDataset`` (``datasets.load_dataset`` on local files).

``CustomDataset(path=..., file_name=None, local_mode=False)`` reads a JSON
Lines file (each line's object as a row) or a CSV file (a header; every field a
string).  ``HFDataset(path='json', data_files='./data/x.jsonl', split='train')``
reads local files as ``datasets.load_dataset`` does (see
:mod:`promptkit.data.opencompass.hf_files`); ``data_files`` is taken under the
data root.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, Rows, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.data.opencompass.hf_files import load_dataset
from promptkit.errors import ConfigError, DatasetError

__all__ = ["CustomDataset", "HFDataset"]


class CustomDataset(OpenCompassDataset):
    """A .jsonl file (one object per line) or a .csv file (a header; string fields), used as 'train' and 'test'."""

    parameters: ClassVar = {"path": REQUIRED, "file_name": None, "local_mode": False}

    def read(self, path: str, file_name: str | None, local_mode: bool) -> Rows:
        file = str(self.path(path, local_mode))
        if file_name is not None:
            file = os.path.join(file, file_name)
        if file.endswith(".jsonl"):
            rows = [self.parse_json(line, file, number) for number, line in self.lines(file, encoding="utf-8-sig")]
        elif file.endswith(".csv"):
            records = self.csv_records(file, encoding="utf-8-sig")
            if not records:
                raise DatasetError("CustomDataset: the CSV file has no header line", file=file)
            header = records[0]
            rows = [dict(zip(header, record, strict=False)) for record in records[1:]]
        else:
            raise DatasetError("CustomDataset reads .jsonl and .csv files only", file=file)
        return from_list(rows)


class HFDataset(OpenCompassDataset):
    """``datasets.load_dataset(**kwargs)`` on local files: ``path='json'``/``'csv'``/``'parquet'`` with ``data_files``, or a folder."""

    parameters: ClassVar = {"path": REQUIRED, "data_files": None, "split": None, "data_dir": None}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, data_files: Any, split: str | None, data_dir: str | None, **_: Any) -> Rows | SplitRows:
        if data_files is not None and not isinstance(data_files, str):
            raise ConfigError("HFDataset: data_files must be one file path (OpenCompass resolves it as a path)", key="data_files")
        files = None if data_files is None else str(self.path(data_files, local_mode=True))
        source = path if data_dir is None else os.path.join(path, data_dir)
        return load_dataset(self, source, data_files=files, split=split)
