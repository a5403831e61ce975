"""Text data files: JSON Lines (``.jsonl``, ``.ndjson``), JSON (a list of objects) and CSV, plain or compressed.

Text is UTF-8 (a byte order mark is dropped); bytes that are not UTF-8 are an
error naming the line.  JSON Lines splits on ``\\n`` only (:func:`json_lines`).
A CSV file's first line is its header, unless the dataset names the columns
(``columns=[...]``, as OpenCompass's MMLU files need): then every line is a row.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from promptkit.data.progress import Progress, task
from promptkit.data.sources.base import FileReader, Schema
from promptkit.data.sources.compression import decompression_errors, describe, open_binary
from promptkit.errors import DatasetError

__all__ = ["CsvReader", "JsonLinesReader", "JsonReader", "json_lines"]

# How many lines pass between two progress reports.
_REPORT_EVERY = 1024
# How many bytes JSON Lines are read and decoded at a time.
_BLOCK = 1 << 20
# A line's own line breaks as io.StringIO(newline='') finds them: \r\n, \r or \n.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


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


def _decode(data: bytes, path: Path, line: int, offset: int) -> str:
    """One line (or a whole file) as UTF-8 text; ``offset`` is where it starts in the file, for the message."""
    try:
        return data.decode("utf-8-sig" if offset == 0 else "utf-8")
    except UnicodeDecodeError as error:
        line += data.count(b"\n", 0, error.start)
        raise DatasetError(
            f"the file is not valid UTF-8 ({error.reason} at byte {offset + error.start}); save it as UTF-8", file=str(path), line=line
        ) from None


class _TextReader(FileReader):
    """Lines of text, decompressed and decoded as they are read, with progress in bytes of the file."""

    def _lines(self) -> Iterator[tuple[int, str]]:
        """(line number, line with its ``\\n``) of the file, split on ``\\n`` only."""
        size = self.path.stat().st_size if self.path.exists() else None
        with open_binary(self.path) as (data, raw), task(f"reading {self.path.name}", size, "bytes", self.progress) as advance:
            yield from self._decoded(data, raw, advance)

    def _decoded(self, data: IO[bytes], raw: IO[bytes], advance: Callable[[int], None]) -> Iterator[tuple[int, str]]:
        failures = decompression_errors() if data is not raw else ()
        offset = reported = 0
        try:
            for number, chunk in enumerate(data, start=1):
                yield number, _decode(chunk, self.path, number, offset)
                offset += len(chunk)
                if number % _REPORT_EVERY == 0:
                    position = raw.tell()
                    advance(position - reported)
                    reported = position
        except failures as error:
            raise describe(error, self.path) from None
        advance(raw.tell() - reported)

    def _blocks(self) -> Iterator[tuple[int, list[str]]]:
        """(number of the first line, the lines without their ``\\n``) of the file, split on ``\\n`` only, about a MiB
        at a time: decoding a block costs one call where decoding each line costs one a line."""
        size = self.path.stat().st_size if self.path.exists() else None
        with open_binary(self.path) as (data, raw), task(f"reading {self.path.name}", size, "bytes", self.progress) as advance:
            failures = decompression_errors() if data is not raw else ()
            number, offset, reported = 1, 0, 0
            pending: list[bytes] = []  # the start of a line longer than a block
            try:
                while chunk := data.read(_BLOCK):
                    cut = chunk.rfind(b"\n") + 1
                    if not cut:
                        pending.append(chunk)
                        continue
                    block = b"".join((*pending, chunk[:cut])) if pending else chunk[:cut]
                    pending = [chunk[cut:]] if cut < len(chunk) else []
                    lines = _decode(block, self.path, number, offset).split("\n")
                    lines.pop()  # what follows the block's last \n: nothing
                    yield number, lines
                    number += len(lines)
                    offset += len(block)
                    position = raw.tell()
                    advance(position - reported)
                    reported = position
                if pending:
                    yield number, [_decode(b"".join(pending), self.path, number, offset)]
            except failures as error:
                raise describe(error, self.path) from None
            advance(raw.tell() - reported)


class JsonLinesReader(_TextReader):
    """One JSON object per line; malformed lines are reported together (up to five, with their lines) after the others."""

    kind = "JSON Lines"

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        bad: list[tuple[int, str]] = []
        loads, raw_decode = json.loads, json.JSONDecoder().raw_decode
        for first, lines in self._blocks():
            for number, line in enumerate(lines, first):
                if line[-1:] == "\r":
                    line = line[:-1]
                if not line or line.isspace():  # what `not line.strip()` says, without copying the line
                    continue
                try:
                    # json.loads is raw_decode after skipping whitespace, then a check that only whitespace follows: a
                    # line that is one object end to end (the usual line) needs only raw_decode; any other, json.loads.
                    try:
                        row, end = raw_decode(line)
                    except json.JSONDecodeError:
                        end = -1
                    if end != len(line):
                        row = loads(line)
                except json.JSONDecodeError as error:
                    bad.append((number, f"{error.msg} at column {error.colno}"))
                    continue
                if type(row) is not dict:
                    bad.append((number, f"expected a JSON object, got {type(row).__name__}"))
                    continue
                yield row
        if bad:
            shown = "; ".join(f"line {number}: {what}" for number, what in bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
            raise DatasetError(
                f"{len(bad)} malformed line(s): {shown}; fix or remove them (one JSON object per line)", file=str(self.path), line=bad[0][0]
            )


class JsonReader(_TextReader):
    """A JSON document holding a list of objects, one per row (read whole: JSON has no record boundaries)."""

    kind = "JSON"

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        text = "".join(line for _, line in self._lines())
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise DatasetError(f"invalid JSON: {error.msg}", file=str(self.path), line=error.lineno) from None
        if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
            raise DatasetError("a .json data file must hold a list of objects (one per row)", file=str(self.path))
        yield from data


class CsvReader(_TextReader):
    """CSV rows: the first line names the columns, or ``columns`` does and every line is a row."""

    kind = "CSV"

    def __init__(self, path: Path, progress: Progress | None = None, columns: Sequence[str] | None = None) -> None:
        super().__init__(path, progress)
        self.columns = tuple(columns) if columns is not None else None

    @property
    def schema(self) -> Schema:
        if self.columns is not None:
            return Schema(str(self.path), "the columns= of the dataset", self.columns)
        with open_binary(self.path) as (data, _):
            first = next(csv.reader(_split(_decode(data.readline(), self.path, 1, 0))), [])
        return Schema(str(self.path), "the CSV header (the file's first line)", tuple(first))

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        records = csv.reader(line for _, text in self._lines() for line in _split(text))
        try:
            header = self.columns if self.columns is not None else tuple(next(records, []))
            names = "columns= names" if self.columns is not None else "the header has"
            for record in records:
                if not record:
                    continue
                if len(record) != len(header):
                    raise DatasetError(
                        f"the row has {len(record)} fields but {names} {len(header)} columns; quote fields that contain commas",
                        file=str(self.path),
                        line=records.line_num,
                    )
                yield dict(zip(header, record, strict=True))
        except csv.Error as error:  # e.g. a field over the csv module's limit (128 KiB)
            raise DatasetError(f"not valid CSV: {error}; fix the record, or save the data as .jsonl", file=str(self.path), line=records.line_num) from None


def _split(text: str) -> Iterable[str]:
    """A ``\\n``-terminated piece of text as the lines ``csv`` reads (a lone ``\\r`` ends a line too)."""
    if "\r" not in text.removesuffix("\r\n"):
        return (text,)
    return _LINE.findall(text)
