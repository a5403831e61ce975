"""What every OpenCompass dataset class shares: its loader keywords, its data root, where its files are.

A class names its ``load()`` keywords in ``parameters`` (name → default;
:data:`REQUIRED` for none) and implements :meth:`OpenCompassDataset.read`,
which gets the keywords and returns the rows: a list (a ``Dataset``, used as
the splits 'train' and 'test') or a dict of split name → list (a
``DatasetDict``).

Paths follow OpenCompass's ``get_data_path(path, local_mode)``: an absolute
path is used as it is; with ``local_mode=True`` a relative path is taken under
the data root; otherwise a dataset id such as ``'opencompass/mmlu'`` becomes
its folder in OpenCompass's layout (``data/mmlu/``, see
:mod:`promptkit.data.opencompass.locations`) under the data root.  The data
root is the ``data_root`` keyword, else the environment variable
``COMPASS_DATA_CACHE``, else the working directory; a path missing there is
also looked for under ``~/.cache/opencompass/``, as OpenCompass does before it
downloads.  promptkit never downloads.
"""

from __future__ import annotations

import csv
import io
import json
import os
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

from promptkit.data.loaders import Splits
from promptkit.data.opencompass.locations import local_path
from promptkit.data.sources.json_rows import RowValueError, parse_row
from promptkit.data.sources.regular import check_data_file
from promptkit.errors import ConfigError, DatasetError, did_you_mean

__all__ = ["DATA_ROOT_ENV", "REQUIRED", "MissingDataError", "OpenCompassDataset", "Rows", "SplitRows"]

#: The environment variable OpenCompass reads its data folder from.
DATA_ROOT_ENV = "COMPASS_DATA_CACHE"
#: Where OpenCompass looks before it downloads.
_DEFAULT_CACHE = Path("~/.cache/opencompass")

#: The default of a keyword ``load()`` cannot do without.
REQUIRED: Any = object()

Rows = list[dict[str, Any]]
SplitRows = dict[str, Rows]

#: The other way on, for every missing-data message.
_GIVE_ROWS = "or give the rows with --rows FILE.jsonl (rows for every dataset of the config)"


def missing_data_advice(data_root: Path | None) -> str:
    """The ways on when a file is not under the data root: a root that holds it (never the one just given), or rows."""
    if data_root is not None:
        return f"the data root is {data_root} (--data-root): pass as --data-root the folder that holds OpenCompass's data/ folder, {_GIVE_ROWS}"
    env = os.environ.get(DATA_ROOT_ENV)
    if env:
        return f"the data root is ${DATA_ROOT_ENV}={env}: pass --data-root DIR (the folder that holds OpenCompass's data/ folder), {_GIVE_ROWS}"
    return f"pass --data-root DIR (the folder that holds OpenCompass's data/ folder) or set {DATA_ROOT_ENV}, {_GIVE_ROWS}"


class MissingDataError(DatasetError):
    """A data file of an OpenCompass dataset class is not under the data root; the message ends with the ways on
    (:attr:`advice`).  The CLI says this once per config however many of its datasets miss their files (OpenCompass's
    ``mmlu_ppl`` reads 57 subject files from one folder)."""

    def __init__(self, message: str, *, missing: Path | None = None, advice: str = "", **context: Any) -> None:
        super().__init__(message, **context)
        #: The file looked for, and what to do (the end of the message).
        self.missing = missing
        self.advice = advice


class OpenCompassDataset(ABC):
    """An OpenCompass dataset class, read natively: its ``load()`` keywords in, its rows out."""

    #: ``load()``'s keywords: name → default (:data:`REQUIRED` for none).
    parameters: ClassVar[Mapping[str, Any]] = {}
    #: ``load(**kwargs)`` takes (and ignores) any other keyword too.
    takes_any_keyword: ClassVar[bool] = False

    def __init__(self, *, data_root: str | Path | None = None, **keywords: Any) -> None:
        name = type(self).__name__
        if not self.takes_any_keyword:
            for key in keywords:
                if key not in self.parameters:
                    known = list(self.parameters)
                    raise ConfigError(f"unknown key {key!r} for {name}{did_you_mean(key, known)}; it takes {known}", key=key)
        missing = [key for key, default in self.parameters.items() if default is REQUIRED and key not in keywords]
        if missing:
            raise ConfigError(f"{name} needs {', '.join(repr(key) for key in missing)}", key=missing[0])
        self.keywords: dict[str, Any] = {key: default for key, default in self.parameters.items() if default is not REQUIRED}
        self.keywords.update({key: value for key, value in keywords.items() if key in self.parameters})
        self.data_root = None if data_root is None else Path(data_root)

    @abstractmethod
    def read(self, *args: Any, **keywords: Any) -> Rows | SplitRows:
        """The rows ``load(**keywords)`` returns: a list for a ``Dataset``, split name → list for a ``DatasetDict``."""

    def load(self, base_dir: Path | None = None) -> Splits:
        """The rows by split, read from the data root (``base_dir``, the config's folder, is not used)."""
        try:
            rows = self.read(**self.keywords)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            # A record without the fields or shape the class expects (OpenCompass would raise the same error).
            shown = f"no field {error}" if isinstance(error, KeyError) else f"{type(error).__name__}: {error}"
            raise DatasetError(
                f"{type(self).__name__}: a record does not have the layout it reads ({shown}); see docs/compat.md for the layout"
            ) from None
        if isinstance(rows, dict):
            return Splits({split: split_rows for split, split_rows in rows.items()})
        return Splits({}, shared=rows)

    def data_dir(self, base_dir: Path | None) -> Path | None:
        """The folder relative media paths resolve against: the dataset's folder (a file's parent)."""
        path = self.keywords.get("path")
        if not isinstance(path, str):
            return base_dir
        found = self.path(path, local_mode=bool(self.keywords.get("local_mode", False)))
        return found.parent if found.is_file() else found

    # -- helpers for read() ------------------------------------------------

    def root(self) -> Path:
        """The data root: ``data_root``, else ``$COMPASS_DATA_CACHE``, else the working directory."""
        if self.data_root is not None:
            return self.data_root
        return Path(os.environ.get(DATA_ROOT_ENV, ""))

    def path(self, path: str, local_mode: bool = False) -> Path:
        """``get_data_path(path, local_mode)``: a dataset id or relative path → the file or folder under the data root."""
        if not isinstance(path, str):
            raise ConfigError(f"{type(self).__name__}: path must be a string (got {path!r})", key="path")
        if os.path.isabs(path):
            return Path(path)
        relative = path if local_mode else local_path(path)
        found = Path(os.path.join(self.root(), relative))
        if not found.exists():
            cached = Path(os.path.join(_DEFAULT_CACHE.expanduser(), found))
            if cached.exists():
                return cached
        return found

    def text(self, file: Path | str, errors: str = "strict", encoding: str = "utf-8") -> str:
        """A data file's text; a missing file is an error naming it and saying where data is looked for."""
        file = Path(file)
        check_data_file(file)
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            advice = missing_data_advice(self.data_root)
            raise MissingDataError(f"{type(self).__name__}: data file not found: {file}; {advice}", missing=file, advice=advice, file=str(file)) from None
        except OSError as error:
            raise DatasetError(f"{type(self).__name__}: cannot read the data file: {error.strerror}", file=str(file)) from None
        try:
            return data.decode(encoding, errors=errors)
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise DatasetError(f"the file is not valid {encoding} ({error.reason}); save it as UTF-8", file=str(file), line=line) from None

    def lines(self, file: Path | str, errors: str = "strict", encoding: str = "utf-8") -> Iterator[tuple[int, str]]:
        """(line number, line) as Python's text files iterate them (universal newlines; the line end kept)."""
        yield from enumerate(io.StringIO(self.text(file, errors=errors, encoding=encoding), newline=None), start=1)

    def json_lines(self, file: Path | str, errors: str = "strict", skip_blank: bool = False) -> Rows:
        """One JSON object per line (``json.loads(line.strip())`` per line, as OpenCompass reads JSON Lines)."""
        rows: Rows = []
        for number, line in self.lines(file, errors=errors):
            if skip_blank and not line.strip():
                continue
            rows.append(self.parse_json(line.strip(), file, number))
        return rows

    def parse_json(self, text: str, file: Path | str, line: int | None = None) -> Any:
        """``json.loads(text)``, checked as rows are (:func:`~promptkit.data.sources.json_rows.parse_row`); malformed JSON is an error naming the file and line."""
        try:
            return parse_row(text)
        except json.JSONDecodeError as error:
            raise DatasetError(f"invalid JSON: {error.msg} at column {error.colno}", file=str(file), line=line or error.lineno) from None
        except RowValueError as error:
            raise DatasetError(error.message, file=str(file), line=line, key=error.column) from None

    def csv_records(self, file: Path | str, delimiter: str = ",", encoding: str = "utf-8") -> list[list[str]]:
        """The records of a CSV file, header included."""
        text = self.text(file, encoding=encoding)
        # OpenCompass opens CSV files in text mode: line ends (inside quoted fields too) read as "\n".
        with io.StringIO(text, newline=None) as handle:
            records = csv.reader(handle, delimiter=delimiter)
            try:
                return list(records)
            except csv.Error as error:
                raise DatasetError(f"not valid CSV: {error}", file=str(file), line=records.line_num) from None

    def fields(self, record: list[str], count: int, file: Path | str, line: int) -> list[str]:
        """A CSV record that must have ``count`` fields, as the real loader asserts."""
        if len(record) != count:
            raise DatasetError(f"{type(self).__name__}: the record has {len(record)} fields, expected {count}", file=str(file), line=line)
        return record

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={value!r}" for key, value in self.keywords.items())
        return f"{type(self).__name__}({shown})"
