"""``datasets.load_dataset`` on local files, as OpenCompass's loaders call it: the 'json', 'csv' and 'parquet' builders.

``load_dataset('json', data_files=FILE, split='train')`` and
``load_dataset(FOLDER)`` read local files; a Hugging Face Hub id is not read
(promptkit never downloads): it is an error saying so.  Rows come back as the
``datasets`` library gives them:

* JSON Lines (Arrow's JSON reader): every key of every row is a column, in
  order of first appearance; ints beside floats become floats; strings in
  ISO 8601 form (``2020-01-01``, ``2020-01-01 10:00:00``) become
  ``datetime`` values when a whole column has that form;
* CSV (pandas' reader): a header line; empty fields and pandas' NA words
  (``NA``, ``null``, ``nan`` …) are ``None``; a column of integers is ints (floats
  if it has a missing value), of numbers floats, of ``True``/``False`` bools;
* ``split='train[10:510]'`` takes a slice of a split.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from promptkit.data.opencompass.columns import from_columns
from promptkit.data.sources import ParquetReader
from promptkit.errors import ConfigError, DatasetError

if TYPE_CHECKING:
    from promptkit.data.opencompass.base import OpenCompassDataset, Rows, SplitRows

__all__ = ["load_dataset", "select_split"]

_BUILDERS = {"json": (".json", ".jsonl"), "csv": (".csv",), "parquet": (".parquet",)}
# The split names a folder's file names are matched against, in the order the splits come out.
_SPLIT_WORDS = {
    "train": ("train", "training"),
    "validation": ("validation", "valid", "dev", "val"),
    "test": ("test", "testing", "eval", "evaluation"),
}
_SPLIT = re.compile(r"^(?P<name>\w+)(?:\[(?P<start>-?\d*):(?P<stop>-?\d*)\])?$")
# pandas' default words for a missing value.
_NA_WORDS = frozenset(
    [
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    ]
) | {""}
_ISO_TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}:?\d{2})?)?$")


def load_dataset(
    dataset: OpenCompassDataset,
    path: str,
    data_files: str | Sequence[str] | Mapping[str, str | Sequence[str]] | None = None,
    split: str | None = None,
    base: Path | None = None,
) -> Rows | SplitRows:
    """The rows ``datasets.load_dataset(path, data_files=..., split=...)`` gives for local files.

    ``base`` is the folder relative ``data_files`` are under; ``path`` is a
    builder name ('json', 'csv', 'parquet') or a local folder.
    """
    if path in _BUILDERS:
        if data_files is None:
            raise ConfigError(f"{type(dataset).__name__}: path={path!r} needs data_files=", key="data_files")
        files = _files_by_split(data_files, base)
        splits = {name: _read(dataset, path, paths) for name, paths in files.items()}
    else:
        folder = Path(path)
        if not folder.is_dir():
            raise DatasetError(
                f"{type(dataset).__name__}: {path!r} is neither a local folder nor a file builder ('json', 'csv', 'parquet'); "
                "promptkit reads local files only (it never downloads a Hugging Face Hub dataset): put the data under "
                "--data-root DIR, or give the rows with --rows FILE.jsonl or type='JsonlDataset'",
                file=path,
            )
        splits = {name: _read(dataset, builder, paths) for name, (builder, paths) in _folder_files(folder).items()}
    if split is None:
        return splits
    return select_split(splits, split, type(dataset).__name__)


def select_split(splits: SplitRows, split: str, owner: str) -> Rows:
    """``split='test'`` or ``split='train[10:510]'`` of ``splits``."""
    match = _SPLIT.match(split.replace(" ", ""))
    if match is None:
        raise ConfigError(f"{owner}: cannot read split={split!r}; use a split name, or a slice such as 'train[:10]'", key="split")
    name = match["name"]
    if name not in splits:
        raise DatasetError(f"{owner}: split {name!r} is not among the data's splits {list(splits)}", key="split")
    rows = splits[name]
    if match["start"] is None:
        return rows
    start = int(match["start"]) if match["start"] else None
    stop = int(match["stop"]) if match["stop"] else None
    return rows[start:stop]


def _files_by_split(data_files: Any, base: Path | None) -> dict[str, list[Path]]:
    def paths(value: Any) -> list[Path]:
        items = [value] if isinstance(value, (str, Path)) else list(value)
        return [Path(item) if base is None or Path(item).is_absolute() else base / item for item in items]

    if isinstance(data_files, Mapping):
        return {str(name): paths(value) for name, value in data_files.items()}
    return {"train": paths(data_files)}


def _folder_files(folder: Path) -> dict[str, tuple[str, list[Path]]]:
    """A folder's data files by split, as ``load_dataset(folder)`` infers them."""
    found = sorted(
        file
        for file in folder.rglob("*")
        if file.is_file() and not any(part.startswith((".", "_")) for part in file.relative_to(folder).parts)
    )
    by_builder = {name: [file for file in found if file.suffix.lower() in suffixes] for name, suffixes in _BUILDERS.items()}
    builder = max(by_builder, key=lambda name: len(by_builder[name]))
    files = by_builder[builder]
    if not files:
        raise DatasetError(f"no .jsonl, .json, .csv or .parquet data files in the folder {folder}", file=str(folder))
    splits: dict[str, list[Path]] = {}
    for name, words in _SPLIT_WORDS.items():
        for file in files:
            tokens = {token for part in file.relative_to(folder).with_suffix("").parts for token in re.split(r"[-._ 0-9/]+", part.lower())}
            if tokens & set(words) and not any(file in taken for taken in splits.values()):
                splits.setdefault(name, []).append(file)
    return {name: (builder, paths) for name, paths in (splits or {"train": files}).items()}


def _read(dataset: OpenCompassDataset, builder: str, files: list[Path]) -> Rows:
    reader: Callable[[OpenCompassDataset, Path], Rows] = {"json": _json_rows, "csv": _csv_rows, "parquet": _parquet_rows}[builder]
    rows: Rows = []
    for file in files:
        rows.extend(reader(dataset, file))
    return rows


def _json_rows(dataset: OpenCompassDataset, file: Path) -> Rows:
    """A JSON Lines file (or a JSON list of objects) as Arrow's JSON reader types it."""
    text = dataset.text(file)
    stripped = text.lstrip()
    if stripped.startswith("["):
        records = dataset.parse_json(text, file)
        if not isinstance(records, list) or not all(isinstance(record, dict) for record in records):
            raise DatasetError("a .json data file must hold a list of objects or one object per line", file=str(file))
    else:
        records = [dataset.parse_json(line, file, number) for number, line in enumerate(text.split("\n"), start=1) if line.strip()]
        if not all(isinstance(record, dict) for record in records):
            raise DatasetError("each line must be a JSON object", file=str(file))
    columns = list(dict.fromkeys(key for record in records for key in record))
    rows = from_columns(columns, records, sort_keys=False)
    for name in columns:
        values = [row[name] for row in rows]
        present = [value for value in values if value is not None]
        if present and all(isinstance(value, str) and _timestamp(value) is not None for value in present):
            for row in rows:
                row[name] = None if row[name] is None else _timestamp(row[name])
    return rows


def _timestamp(text: str) -> datetime | None:
    match = _ISO_TIME.match(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, zone = match.groups()
    try:
        moment = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0))
    except ValueError:
        return None
    if zone and zone != "Z":
        digits = zone[1:].replace(":", "")
        offset = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        moment = moment - offset if zone[0] == "+" else moment + offset
    return moment


def _csv_rows(dataset: OpenCompassDataset, file: Path) -> Rows:
    """A CSV file with a header, typed per column as pandas' reader types it."""
    records = dataset.csv_records(file, encoding="utf-8")
    if not records:
        return []
    header, body = records[0], [record for record in records[1:] if record]
    columns: dict[str, list[Any]] = {}
    for index, name in enumerate(header):
        columns[name] = _typed([record[index] if index < len(record) else "" for record in body])
    return [{name: columns[name][row] for name in header} for row in range(len(body))]


def _typed(texts: list[str]) -> list[Any]:
    values: list[Any] = [None if text in _NA_WORDS else text for text in texts]
    present = [value for value in values if value is not None]
    if not present:
        return values
    for parse in (int, float):
        try:
            parsed = [None if value is None else parse(value) for value in values]
        except ValueError:
            continue
        if parse is int and None in parsed:
            return [None if value is None else float(value) for value in parsed]
        return parsed
    bools = {"True": True, "TRUE": True, "true": True, "False": False, "FALSE": False, "false": False}
    if all(value in bools for value in present):
        return [None if value is None else bools[value] for value in values]
    return values


def _parquet_rows(dataset: OpenCompassDataset, file: Path) -> Rows:
    if not file.exists():
        dataset.text(file)  # the missing-file error, with the data-root hint
    return ParquetReader(file).read_all()
