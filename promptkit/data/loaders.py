"""Local data files: ``.jsonl``, ``.json`` and ``.csv``.

``JsonlDataset(path=...)`` is the generic loader of dataset configs.  ``path``
is one file, used for every split (as OpenCompass wraps a single dataset as
both ``train`` and ``test``), or a dict mapping split names to files, e.g.
``dict(train='data/dev.jsonl', test='data/test.jsonl')``.  Relative paths are
looked up next to the config file first, then in the working directory.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, DatasetError

__all__ = ["JsonlDataset", "RowsDataset", "Splits", "json_lines", "read_rows"]

Row = dict[str, Any]


@dataclass(frozen=True)
class Splits:
    """Rows by split name; ``shared`` holds the rows of a single-file dataset, its 'train' and 'test' splits."""

    by_name: Mapping[str, list[Row]]
    shared: list[Row] | None = None

    def get(self, split: str) -> list[Row]:
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

    def __init__(self, rows: list[Row] | Mapping[str, list[Row]]) -> None:
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
    """Rows from local ``.jsonl``/``.json``/``.csv`` files (see the module docstring)."""

    def __init__(self, path: str | Mapping[str, str], **unused: Any) -> None:
        if not isinstance(path, (str, Path, Mapping)):
            raise ConfigError(f"path must be a file path or a dict of split name -> file path (got {path!r})", key="path")
        self.path = path

    def data_dir(self, base_dir: Path | None) -> Path:
        """The folder relative media paths resolve against: the data file's (the first split's, for several)."""
        first = next(iter(self.path.values())) if isinstance(self.path, Mapping) else self.path
        return _resolve(first, base_dir).parent

    def load(self, base_dir: Path | None = None) -> Splits:
        if isinstance(self.path, Mapping):
            return Splits({str(split): read_rows(_resolve(p, base_dir)) for split, p in self.path.items()})
        return Splits({}, shared=read_rows(_resolve(self.path, base_dir)))

    def __repr__(self) -> str:
        return f"JsonlDataset(path={self.path!r})"


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


def read_rows(path: Path) -> list[Row]:
    """All rows of a data file; any bad record is an error naming the file and line."""
    if path.is_dir():
        raise DatasetError("the data path is a folder; give the path of a .jsonl, .json or .csv file in it", file=str(path))
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        return _read_jsonl(path)
    if suffix == ".json":
        return _read_json(path)
    if suffix == ".csv":
        return _read_csv(path)
    raise DatasetError(f"unsupported data file type {suffix!r}; use .jsonl, .json or .csv", file=str(path))


def _read_text(path: Path) -> str:
    """The file as UTF-8 text (a BOM is dropped); bytes that are not UTF-8 are an error naming the line."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DatasetError(f"cannot read the data file: {error.strerror}", file=str(path)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise DatasetError(f"the file is not valid UTF-8 ({error.reason} at byte {error.start}); save it as UTF-8", file=str(path), line=line) from None


def json_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of JSON Lines text: split on ``\\n`` only, a trailing ``\\r`` dropped, blank lines skipped.

    Not ``str.splitlines()``, which also splits at U+2028, U+2029, U+0085 and
    other characters a JSON string may hold unescaped.

    >>> list(json_lines('{"a": "x\\u2028y"}\\r\\n\\n{}'))
    [(1, '{"a": "x\\u2028y"}'), (3, '{}')]
    """
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if line.strip():
            yield number, line


def _read_jsonl(path: Path) -> list[Row]:
    return _read_jsonl_lines(path, _read_text(path))


def _read_jsonl_lines(path: Path, text: str) -> list[Row]:
    rows: list[Row] = []
    bad: list[str] = []
    for number, line in json_lines(text):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            bad.append(f"line {number}: {error.msg} at column {error.colno}")
            continue
        if not isinstance(row, dict):
            bad.append(f"line {number}: expected a JSON object, got {type(row).__name__}")
            continue
        rows.append(row)
    if bad:
        shown = "; ".join(bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
        first_line = int(bad[0].split(":")[0].split()[1])
        raise DatasetError(f"{len(bad)} malformed line(s): {shown}; fix or remove them (one JSON object per line)", file=str(path), line=first_line)
    return rows


def _read_csv(path: Path) -> list[Row]:
    """Rows of a CSV file with a header line; a row with missing or extra fields is an error naming its line."""
    with io.StringIO(_read_text(path), newline="") as handle:
        records = csv.reader(handle)
        try:
            header = next(records, [])
            rows: list[Row] = []
            for record in records:
                if not record:
                    continue
                if len(record) != len(header):
                    raise DatasetError(
                        f"the row has {len(record)} fields but the header has {len(header)} columns; quote fields that contain commas",
                        file=str(path),
                        line=records.line_num,
                    )
                rows.append(dict(zip(header, record, strict=True)))
        except csv.Error as error:  # e.g. a field over the csv module's limit (128 KiB)
            raise DatasetError(f"not valid CSV: {error}; fix the record, or save the data as .jsonl", file=str(path), line=records.line_num) from None
    return rows


def _read_json(path: Path) -> list[Row]:
    try:
        data = json.loads(_read_text(path))
    except json.JSONDecodeError as error:
        raise DatasetError(f"invalid JSON: {error.msg}", file=str(path), line=error.lineno) from None
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise DatasetError("a .json data file must hold a list of objects (one per row)", file=str(path))
    return data
