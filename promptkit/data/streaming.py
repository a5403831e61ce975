"""Rows read as they are asked for: :class:`FileRows`, the lazy sequence of one data file's rows.

Iterating reads the file once, front to back, a row at a time: memory holds
one row and the reader's buffer, not the file.  ``len()`` and ``rows[i]`` cost
what the format allows:

=========================================  ===============================  ==========================================
file                                       ``len(rows)``                    ``rows[i]``
=========================================  ===============================  ==========================================
JSON Lines, not compressed                 the line index (built once,      one line read at its offset
                                           cached: :mod:`.line_index`)
Parquet                                    the footer                       the row group holding row ``i`` (the last
                                                                            one read is kept)
JSON, CSV, Arrow, ``datasets`` folders,    one pass, counting               the whole file, read once and kept
compressed text
=========================================  ===============================  ==========================================

A JSON Lines row that cannot be read is an error naming the file, its line
and the row, raised when that row is reached (other rows are read without
it); a slice (``rows[100:200]``, as ``test_range`` gives) is a lazy view.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, overload

from promptkit.data.line_index import BOM, LineIndex, is_blank
from promptkit.data.sources import ParquetReader, Schema, open_reader
from promptkit.data.sources.compression import compression_of, decompression_errors, describe, open_binary
from promptkit.data.sources.json_rows import RowValueError, parse_row
from promptkit.data.sources.limits import max_record_bytes, record_too_long
from promptkit.errors import DatasetError

__all__ = ["FileRows"]

# The most consecutive rows read in one piece.
_BLOCK_ROWS = 1024


class FileRows(Sequence[dict[str, Any]]):
    """The rows of one data file (any format of :mod:`promptkit.data.sources`), read lazily (see the module docstring)."""

    def __init__(self, path: Path, columns: Sequence[str] | None = None, span: range | None = None) -> None:
        self.path = path
        self.columns = tuple(columns) if columns is not None else None
        self._reader = open_reader(path, columns)
        self._span = span
        self._lines = self._reader.kind == "JSON Lines"
        self._seekable = self._lines and compression_of(path) is None
        self._index: LineIndex | None = None
        self._count: int | None = None
        self._all: list[dict[str, Any]] | None = None
        self._group: tuple[int, int, list[dict[str, Any]]] | None = None  # (first row, end, rows) of the last Parquet row group read

    @property
    def random_access(self) -> bool:
        """Whether ``rows[i]`` reads row ``i`` alone (a JSON Lines line, a Parquet row group), not the whole file."""
        return self._seekable or isinstance(self._reader, ParquetReader)

    @property
    def schema(self) -> Schema | None:
        """The columns the file declares before its rows, if its format does."""
        return self._reader.schema

    # -- the whole file -------------------------------------------------------------------
    def _base_len(self) -> int:
        if self._count is None:
            if self._seekable:
                self._count = len(self._line_index())
            elif isinstance(self._reader, ParquetReader):
                self._count = sum(self._reader.row_group_sizes())
            elif self._all is not None:
                self._count = len(self._all)
            else:
                self._count = sum(1 for _ in self._base_rows())
        return self._count

    def _line_index(self) -> LineIndex:
        if self._index is None:
            self._index = LineIndex.of(self.path)
        return self._index

    def _base_rows(self) -> Iterator[dict[str, Any]]:
        if self._all is not None:
            return iter(self._all)
        return self._json_lines() if self._lines else self._reader.iter_rows()

    def _json_lines(self) -> Iterator[dict[str, Any]]:
        """Each row of a JSON Lines file, plain or compressed, as its line is read."""
        with open_binary(self.path) as (data, raw):
            failures = decompression_errors() if data is not raw else ()
            row = 0
            # bounded_lines, with its check in this loop: a row's read costs no generator of lines.
            limit = max_record_bytes()
            try:
                for number, line in enumerate(iter(partial(data.readline, limit + 1), b""), start=1):
                    if len(line) > limit and line[-1:] != b"\n":
                        raise record_too_long(self.path, number, limit, data is not raw)
                    if number == 1:
                        line = line.removeprefix(BOM)
                    if line[:1] != b"{" and is_blank(line):  # (nearly every line starts with its object)
                        continue
                    yield self._parse(line, number, row)
                    row += 1
            except failures as error:
                raise describe(error, self.path) from None
            except DatasetError as error:  # a line over the record limit: the row it would have been
                raise error.add_context(row=row) from None

    def _parse(self, line: bytes, number: int, row: int) -> dict[str, Any]:
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DatasetError(f"the line is not valid UTF-8 ({error.reason}); save the file as UTF-8", file=str(self.path), line=number, row=row) from None
        try:
            value = parse_row(text)
        except json.JSONDecodeError as error:
            raise DatasetError(
                f"malformed line: {error.msg.removesuffix(' at')} at column {error.colno}; fix or remove it (one JSON object per line)",
                file=str(self.path),
                line=number,
                row=row,
            ) from None
        except RowValueError as error:
            raise DatasetError(error.message, file=str(self.path), line=number, row=row, key=error.column) from None
        if not isinstance(value, dict):
            raise DatasetError(f"expected a JSON object, got {type(value).__name__}; one JSON object per line", file=str(self.path), line=number, row=row)
        return value

    def _base_item(self, row: int) -> dict[str, Any]:
        if self._seekable:
            index = self._line_index()
            offset, length = index.span(row)
            with self.path.open("rb") as handle:  # pread: forked processes share no file position
                return self._parse(os.pread(handle.fileno(), length, offset), index.line(row), row)
        if isinstance(self._reader, ParquetReader):
            return self._parquet_item(row)
        if self._all is None:
            self._all = list(self._base_rows())
        return self._all[row]

    def _block(self, span: range) -> Iterator[dict[str, Any]]:
        """Consecutive rows of a plain JSON Lines file, read from disk in pieces of up to :data:`_BLOCK_ROWS` rows."""
        index = self._line_index()
        with self.path.open("rb") as handle:
            for start in range(span.start, span.stop, _BLOCK_ROWS):
                spans = index.spans(start, min(start + _BLOCK_ROWS, span.stop))
                first = spans[0][0]
                block = os.pread(handle.fileno(), spans[-1][0] + spans[-1][1] - first, first)
                for row, (offset, length, line) in enumerate(spans, start=start):
                    yield self._parse(block[offset - first : offset - first + length], line, row)

    def _parquet_item(self, row: int) -> dict[str, Any]:
        group = self._group
        if group is None or not group[0] <= row < group[1]:
            assert isinstance(self._reader, ParquetReader)
            first = 0
            for number, size in enumerate(self._reader.row_group_sizes()):
                if row < first + size:
                    group = self._group = (first, first + size, self._reader.read_row_group(number, first))
                    break
                first += size
        assert group is not None
        return group[2][row - group[0]]

    # -- this view of it ------------------------------------------------------------------
    def _range(self) -> range:
        return self._span if self._span is not None else range(self._base_len())

    def __len__(self) -> int:
        return len(self._range())

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._span is None:
            return self._base_rows()
        return self._spanned(self._span)

    def _spanned(self, span: range) -> Iterator[dict[str, Any]]:
        if self._seekable and span.step == 1 and len(span) > 0:
            yield from self._block(span)
            return
        if self._seekable or span.step < 0 or len(span) == 0:
            yield from (self._base_item(row) for row in span)
            return
        last = span[-1]
        for row, value in enumerate(self._base_rows()):
            if row in span:
                yield value
            if row >= last:
                return

    @overload
    def __getitem__(self, item: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, item: slice) -> FileRows: ...
    def __getitem__(self, item: int | slice) -> dict[str, Any] | FileRows:
        rows = self._range()
        if isinstance(item, slice):
            view = FileRows.__new__(FileRows)
            view.__dict__.update(self.__dict__)
            view._span = rows[item]
            return view
        return self._base_item(rows[item])

    def __repr__(self) -> str:
        shown = f", {self._span}" if self._span is not None else ""
        return f"FileRows({str(self.path)!r}{shown})"

