"""Local data files: JSON Lines, JSON, CSV, Parquet, Arrow, ``datasets`` folders, compressed text (:mod:`promptkit.data.sources`).

``JsonlDataset(path=...)`` is the generic loader of dataset configs.  ``path``
is one file, used for every split (as OpenCompass wraps a single dataset as
both ``train`` and ``test``), a ``DatasetDict.save_to_disk`` folder (its
splits), or a dict mapping split names to files, e.g.
``dict(train='data/dev.jsonl', test='data/test.parquet')``.  ``columns=[...]``
names the columns of header-less CSV files.  Relative paths are looked up next
to the config file first, then in the working directory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from promptkit.data.progress import Progress, current_progress
from promptkit.data.sources import Schema, json_lines, open_reader, saved_splits
from promptkit.data.streaming import FileRows
from promptkit.errors import ConfigError, DatasetError

__all__ = ["JsonlDataset", "RowsDataset", "Splits", "json_lines", "read_file", "read_rows", "read_splits", "stream_files", "stream_path"]



@dataclass(frozen=True)
class Splits:
    """Rows by split name; ``shared`` holds the rows of a single-file dataset, its 'train' and 'test' splits.

    ``schemas`` holds, by split name, the columns a split's file declares (a CSV header, a Parquet schema …).
    """

    by_name: Mapping[str, Sequence[dict[str, Any]]]
    shared: Sequence[dict[str, Any]] | None = None
    schemas: Mapping[str, Schema] = field(default_factory=dict)

    def schema(self, split: str) -> Schema | None:
        """The columns the file of ``split`` declares, if its format does."""
        return self.schemas.get(split)

    def get(self, split: str) -> Sequence[dict[str, Any]]:
        if self.shared is not None:
            # One file serves as both 'train' and 'test' (OpenCompass's DatasetReader), and as nothing else.
            if split not in ("train", "test"):
                raise DatasetError(
                    f"split {split!r} does not exist: the dataset is a single file, used as the splits 'train' and 'test'; "
                    f"name the files per split, e.g. path=dict({split}='...', test='...')",
                    key=split,
                )
            return self.shared
        try:
            return self.by_name[split]
        except KeyError:
            raise DatasetError(
                f"split {split!r} is not among the dataset's splits {sorted(self.by_name)}; set reader_cfg train_split/test_split "
                "or add it to path=dict(...)",
                key=split,
            ) from None


class RowsDataset:
    """Rows given in code or inline in a config: a list (every split) or a dict of split name -> list."""

    def __init__(self, rows: list[dict[str, Any]] | Mapping[str, list[dict[str, Any]]]) -> None:
        if isinstance(rows, Mapping):
            for split, split_rows in rows.items():
                _check_rows(split_rows, f"rows[{split!r}]")
        else:
            _check_rows(rows, "rows")
        self.rows = rows

    def data_dir(self, base_dir: Path | None) -> Path | None:
        """The folder relative media paths resolve against: the config's."""
        return base_dir

    def load(self, base_dir: Path | None = None) -> Splits:
        if isinstance(self.rows, Mapping):
            return Splits({str(split): list(rows) for split, rows in self.rows.items()})
        return Splits({}, shared=list(self.rows))

    def __repr__(self) -> str:
        return f"RowsDataset({len(self.rows)} {'splits' if isinstance(self.rows, Mapping) else 'rows'})"


def _check_rows(rows: Any, where: str) -> None:
    if not isinstance(rows, (list, tuple)) or not all(isinstance(row, Mapping) for row in rows):
        raise ConfigError(f"{where} must be a list of dicts, one per row", key=where)


class JsonlDataset:
    """Rows from local data files of any format promptkit reads (see the module docstring)."""

    def __init__(self, path: str | Mapping[str, str], columns: Sequence[str] | None = None) -> None:
        if not isinstance(path, (str, Path, Mapping)):
            raise ConfigError(f"path must be a file path or a dict of split name -> file path (got {path!r})", key="path")
        if columns is not None and (isinstance(columns, str) or not all(isinstance(column, str) for column in columns) or not columns):
            raise ConfigError(f"columns must be a list of column names, one per CSV field (got {columns!r})", key="columns")
        self.path = path
        self.columns = tuple(columns) if columns is not None else None

    def data_dir(self, base_dir: Path | None) -> Path:
        """The folder relative media paths resolve against: the data file's (the first split's, for several)."""
        first = next(iter(self.path.values())) if isinstance(self.path, Mapping) else self.path
        return _resolve(first, base_dir).parent

    def load(self, base_dir: Path | None = None) -> Splits:
        """The rows by split, read with the progress receiver of the caller (:func:`promptkit.data.progress.reporting`)."""
        progress = current_progress()
        if isinstance(self.path, Mapping):
            files = {str(split): read_file(_resolve(p, base_dir), self.columns, progress) for split, p in self.path.items()}
            return Splits(
                {split: rows for split, (rows, _) in files.items()},
                schemas={split: schema for split, (_, schema) in files.items() if schema is not None},
            )
        path = _resolve(self.path, base_dir)
        splits = read_splits(path, self.columns, progress)
        if splits is not None:
            return splits
        rows, schema = read_file(path, self.columns, progress)
        return Splits({}, shared=rows, schemas={"train": schema, "test": schema} if schema is not None else {})

    def stream(self, base_dir: Path | None = None) -> Splits:
        """The splits as :class:`~promptkit.data.streaming.FileRows`: each file is opened, and no row read until asked for."""
        if isinstance(self.path, Mapping):
            return stream_files({str(split): _resolve(p, base_dir) for split, p in self.path.items()}, self.columns)
        return stream_path(_resolve(self.path, base_dir), self.columns)

    def __repr__(self) -> str:
        return f"JsonlDataset(path={self.path!r}{f', columns={list(self.columns)!r}' if self.columns else ''})"


def _resolve(path: str | Path, base_dir: Path | None) -> Path:
    if "\x00" in str(path):  # no file system takes it (os calls raise ValueError)
        raise DatasetError(f"the data path {str(path)!r} contains a NUL character; check the dataset's path")
    candidate = Path(path).expanduser()
    tried = []
    if not candidate.is_absolute() and base_dir is not None:
        beside = base_dir / candidate
        if beside.exists():
            return beside
        tried.append(str(beside))
    if candidate.exists():
        return candidate
    if str(candidate.resolve()) not in [str(Path(t).resolve()) for t in tried]:
        tried.append(str(candidate.resolve()))
    raise DatasetError(f"data file {str(path)!r} not found (looked at {', '.join(tried)}); check the dataset's path", file=str(path))


def stream_files(files: Mapping[str, Path], columns: Sequence[str] | None = None) -> Splits:
    """Splits of one data file each, read lazily."""
    rows = {split: FileRows(path, columns) for split, path in files.items()}
    return Splits(rows, schemas={split: schema for split, each in rows.items() if (schema := each.schema) is not None})


def stream_path(path: Path, columns: Sequence[str] | None = None) -> Splits:
    """The splits of a ``DatasetDict.save_to_disk`` folder, else one file's rows as 'train' and 'test', read lazily."""
    names = saved_splits(path) if path.is_dir() else None
    if names is not None:
        return stream_files({name: path / name for name in names}, columns)
    rows = FileRows(path, columns)
    schema = rows.schema
    return Splits({}, shared=rows, schemas={"train": schema, "test": schema} if schema is not None else {})


def read_rows(path: Path, columns: Sequence[str] | None = None, progress: Progress | None = None) -> list[dict[str, Any]]:
    """All rows of a data file (any format of :mod:`promptkit.data.sources`); any bad record is an error naming the file and line."""
    return open_reader(path, columns, progress).read_all()


def read_splits(path: Path, columns: Sequence[str] | None = None, progress: Progress | None = None) -> Splits | None:
    """The splits of a ``DatasetDict.save_to_disk`` folder, or ``None`` if ``path`` is not one."""
    names = saved_splits(path) if path.is_dir() else None
    if names is None:
        return None
    files = {name: read_file(path / name, columns, progress) for name in names}
    return Splits(
        {name: rows for name, (rows, _) in files.items()},
        schemas={name: schema for name, (_, schema) in files.items() if schema is not None},
    )


def read_file(path: Path, columns: Sequence[str] | None = None, progress: Progress | None = None) -> tuple[list[dict[str, Any]], Schema | None]:
    """The rows of one data file and the columns it declares (if its format does)."""
    reader = open_reader(path, columns, progress)
    schema = reader.schema
    return reader.read_all(), schema
