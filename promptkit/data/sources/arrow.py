"""Columnar data files, read with ``pyarrow`` (``pip install 'promptkit[parquet]'``): Parquet, and Arrow IPC (``.arrow``, ``.feather``).

Parquet is read a row group at a time, in record batches; Arrow IPC files
(the random-access "file" format, ``.feather`` v2) and streams (the files
Hugging Face ``datasets`` keeps its tables in) a record batch at a time, from
a memory map.  The schema is read first, so a missing column is found before
any row.  Values of types JSON has no value for (times, decimals, binary) are
read in their JSON form (:mod:`.arrow_values`).

The record limit (:mod:`.limits`) is checked from sizes known before the rows
are turned into Python values: a row group whose rows average more than the
limit by the file's footer (uncompressed), or a record batch whose buffers do,
holds at least one row over it and is refused before it is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from promptkit.data.progress import task
from promptkit.data.sources.arrow_values import JsonForm, json_form
from promptkit.data.sources.base import FileReader, Schema
from promptkit.data.sources.limits import max_record_bytes, record_too_long
from promptkit.errors import DatasetError, require

__all__ = ["ArrowReader", "ParquetReader"]

# Rows per record batch read from a Parquet row group.
_BATCH_ROWS = 4096
_ARROW_FILE_MAGIC = b"ARROW1"


def _pyarrow(path: Path) -> Any:
    return require("pyarrow", "parquet", f"reading {path.name}")


def _unreadable(kind: str, path: Path, error: BaseException, where: str = "") -> DatasetError:
    return DatasetError(
        f"not a readable {kind} file{where} ({error}); check that the file was written completely (copy or export it again)",
        file=str(path),
    )


class _ColumnarReader(FileReader):
    """What the Arrow readers share: rows of a record batch or table in their JSON form, and the record limit."""

    _form: JsonForm | None = None
    _form_of: Any = None  # the schema _form was made for

    def _rows(self, table: Any, first_row: int) -> list[dict[str, Any]]:
        """The rows of ``table`` (its first row is row ``first_row`` of the file), their values in their JSON form."""
        if table.schema is not self._form_of:
            self._form, self._form_of = json_form(table.schema), table.schema
        if self._form is None:
            return table.to_pylist()  # type: ignore[no-any-return]
        return self._form.rows(table, self.path, first_row)

    def _check_size(self, size: int, rows: int, first_row: int, where: str) -> None:
        """``rows`` rows from ``first_row`` that hold ``size`` bytes in all (known before they are read): refused if they
        average more than the record limit, as one of them must then be longer."""
        limit = max_record_bytes()
        if rows and size > limit * rows:
            raise record_too_long(
                self.path, None, limit, False, f"a row of {where} ({rows:,} row{'s' if rows != 1 else ''} of {size:,} bytes in all)", row=first_row
            )


class ParquetReader(_ColumnarReader):
    """A Parquet file's rows, a record batch at a time (progress in rows)."""

    kind = "Parquet"

    def _file(self) -> Any:
        pyarrow = _pyarrow(self.path)
        parquet = require("pyarrow.parquet", "parquet", f"reading {self.path.name}")
        try:
            return parquet.ParquetFile(self.path)
        except (pyarrow.ArrowException, OSError) as error:
            raise _unreadable(self.kind, self.path, error) from None

    @property
    def schema(self) -> Schema:
        return Schema(str(self.path), "the Parquet schema", tuple(self._file().schema_arrow.names))

    def row_group_sizes(self) -> list[int]:
        """How many rows each row group holds, from the file's footer (no row is read)."""
        metadata = self._file().metadata
        return [metadata.row_group(group).num_rows for group in range(metadata.num_row_groups)]

    def read_row_group(self, group: int, first_row: int) -> list[dict[str, Any]]:
        """The rows of one row group; ``first_row`` (its first row's number) is for the messages."""
        pyarrow = _pyarrow(self.path)
        file = self._file()
        self._check_group(file, group, first_row)
        try:
            table = file.read_row_group(group)
        except (pyarrow.ArrowException, OSError) as error:
            raise _unreadable(self.kind, self.path, error, f" (row group {group}, from row {first_row})").add_context(row=first_row) from None
        return self._rows(table, first_row)

    def _check_group(self, file: Any, group: int, first_row: int) -> None:
        """The record limit, from the row group's uncompressed size in the footer."""
        metadata = file.metadata.row_group(group)
        self._check_size(metadata.total_byte_size, metadata.num_rows, first_row, f"row group {group} (by the file's footer)")

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        pyarrow = _pyarrow(self.path)
        file = self._file()
        row = 0
        with task(f"reading {self.path.name}", file.metadata.num_rows, "rows", self.progress) as advance:
            for group in range(file.num_row_groups):
                self._check_group(file, group, row)
                try:
                    batches = list(file.iter_batches(batch_size=_BATCH_ROWS, row_groups=[group]))
                except (pyarrow.ArrowException, OSError) as error:
                    raise _unreadable(self.kind, self.path, error, f" (row group {group}, from row {row})").add_context(row=row) from None
                for batch in batches:
                    rows = self._rows(batch, row)
                    yield from rows
                    row += len(rows)
                    advance(len(rows))


class ArrowReader(_ColumnarReader):
    """An Arrow IPC file or stream's rows, a record batch at a time (progress in rows when the count is known)."""

    kind = "Arrow"

    def _open(self) -> Any:
        pyarrow = _pyarrow(self.path)
        try:
            source = pyarrow.memory_map(str(self.path))
            if source.read(len(_ARROW_FILE_MAGIC)) == _ARROW_FILE_MAGIC:
                source.seek(0)
                return pyarrow.ipc.open_file(source)
            source.seek(0)
            return pyarrow.ipc.open_stream(source)
        except (pyarrow.ArrowException, OSError) as error:
            raise _unreadable("Arrow IPC", self.path, error) from None

    @property
    def schema(self) -> Schema:
        return Schema(str(self.path), "the Arrow schema", tuple(self._open().schema.names))

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        pyarrow = _pyarrow(self.path)
        reader = self._open()
        random_access = hasattr(reader, "num_record_batches")
        total = sum(reader.get_batch(i).num_rows for i in range(reader.num_record_batches)) if random_access else None
        batches = (reader.get_batch(i) for i in range(reader.num_record_batches)) if random_access else iter(reader)
        row = 0
        with task(f"reading {self.path.name}", total, "rows", self.progress) as advance:
            while True:
                try:
                    batch = next(batches, None)
                except (pyarrow.ArrowException, OSError) as error:
                    raise _unreadable("Arrow IPC", self.path, error, f" (after row {row})").add_context(row=row) from None
                if batch is None:
                    return
                self._check_size(batch.nbytes, batch.num_rows, row, "a record batch")
                rows = self._rows(batch, row)
                yield from rows
                row += len(rows)
                advance(len(rows))
