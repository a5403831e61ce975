"""Data sources: one reader interface over every data file promptkit reads (:class:`RowReader`).

:func:`open_reader` picks the reader by the file's extension (after a
compression extension) and first bytes:

=====================================  ==========================  ==================
file                                   reader                      needs
=====================================  ==========================  ==================
``.jsonl``, ``.ndjson``                :class:`JsonLinesReader`
``.json`` (a list of objects)          :class:`JsonReader`
``.csv`` (``columns=`` if header-less) :class:`CsvReader`
``.parquet``                           :class:`ParquetReader`      ``promptkit[parquet]``
``.arrow``, ``.feather``, ``.ipc``     :class:`ArrowReader`        ``promptkit[parquet]``
a ``save_to_disk`` folder              :class:`SavedDatasetReader`  ``promptkit[hf]``
=====================================  ==========================  ==================

The text formats may be compressed: ``.gz``, ``.bz2``, ``.zst`` (``promptkit[zstd]``).

What every reader holds to: only regular files are read (:mod:`.regular`; the
path is checked here, in :func:`open_reader`, before a reader is chosen), no
record longer than the record limit is read (:mod:`.limits`), JSON a row may
not hold is an error naming its column (:mod:`.json_rows`), and Arrow values
come in their JSON form (:mod:`.arrow_values`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from promptkit.data.progress import Progress
from promptkit.data.sources.arrow import ArrowReader, ParquetReader
from promptkit.data.sources.base import FileReader, RowReader, Schema
from promptkit.data.sources.compression import SUFFIXES, split_suffix
from promptkit.data.sources.hf import SavedDatasetReader, is_saved_dataset, saved_splits
from promptkit.data.sources.regular import check_data_file
from promptkit.data.sources.text import CsvReader, JsonLinesReader, JsonReader, json_lines
from promptkit.errors import ConfigError, DatasetError

__all__ = [
    "KNOWN_SUFFIXES",
    "ArrowReader",
    "CsvReader",
    "FileReader",
    "JsonLinesReader",
    "JsonReader",
    "ParquetReader",
    "RowReader",
    "SavedDatasetReader",
    "Schema",
    "json_lines",
    "open_reader",
    "saved_splits",
]

_TEXT: dict[str, type[FileReader]] = {".jsonl": JsonLinesReader, ".ndjson": JsonLinesReader, ".json": JsonReader, ".csv": CsvReader}
_COLUMNAR: dict[str, type[FileReader]] = {".parquet": ParquetReader, ".arrow": ArrowReader, ".feather": ArrowReader, ".ipc": ArrowReader}
#: The data file extensions promptkit reads.
KNOWN_SUFFIXES = (*_TEXT, *_COLUMNAR)
_KNOWN = f"{', '.join(KNOWN_SUFFIXES)} (the text ones also as {', '.join(SUFFIXES)}), or a folder written by datasets' save_to_disk"


def open_reader(path: Path, columns: Sequence[str] | None = None, progress: Progress | None = None) -> FileReader:
    """The reader of one data file or ``save_to_disk`` folder; ``columns`` names a header-less CSV file's columns."""
    if path.is_dir():
        if is_saved_dataset(path):
            reader: FileReader = SavedDatasetReader(path, progress)
        elif saved_splits(path) is not None:
            raise DatasetError(
                "the folder holds a DatasetDict (several splits); give it as a dataset's path (JsonlDataset(path=...)) for its splits, "
                "or give one split's folder",
                file=str(path),
            )
        else:
            # The common case: a folder of text files was given instead of one of them.
            raise DatasetError("the data path is a folder; give the path of a .jsonl, .json or .csv file in it", file=str(path))
        return _no_columns(reader, columns)
    check_data_file(path)  # the one check of a data file's path: not a FIFO, a device, a socket (--rows - is read before)
    suffix, compression = split_suffix(path)
    if suffix in _TEXT:
        if suffix == ".csv":
            return CsvReader(path, progress, columns)
        return _no_columns(_TEXT[suffix](path, progress), columns)
    if suffix in _COLUMNAR:
        if compression is not None:
            raise DatasetError(
                f"a {suffix} file is compressed inside already; give the {suffix} file itself (only text files are read as .gz, .bz2, .zst)",
                file=str(path),
            )
        return _no_columns(_COLUMNAR[suffix](path, progress), columns)
    shown = "".join(path.suffixes[-2:]) if compression else path.suffix
    raise DatasetError(f"unsupported data file type {shown.lower() or '(none)'!r}; use one of {_KNOWN}", file=str(path))


def _no_columns(reader: FileReader, columns: Sequence[str] | None) -> FileReader:
    if columns is not None:
        raise ConfigError(
            f"columns= names the columns of a header-less CSV file; {reader.path.name} is {reader.kind} data, whose columns are its own",
            key="columns",
        )
    return reader
