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
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from promptkit.data.progress import Progress, task
from promptkit.data.sources.base import FileReader, Schema
from promptkit.data.sources.compression import compression_of, decompression_errors, describe, open_binary
from promptkit.data.sources.json_rows import RowValueError, check_row, explain, parse_row
from promptkit.data.sources.limits import bounded_lines, max_record_bytes, record_too_long
from promptkit.errors import DatasetError

__all__ = ["CsvReader", "JsonLinesReader", "JsonReader", "json_lines"]

# How many lines pass between two progress reports.
_REPORT_EVERY = 1024
# How many bytes JSON Lines are read and decoded at a time.
_BLOCK = 1 << 20
# A line's own line breaks as io.StringIO(newline='') finds them: \r\n, \r or \n.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_NOT_SPACE = re.compile(r"[^ \t\n\r]")
_COMMA = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")


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
        """(line number, line with its ``\\n``) of the file, split on ``\\n`` only, none longer than the record limit."""
        size = self.path.stat().st_size if self.path.exists() else None
        with open_binary(self.path) as (data, raw), task(f"reading {self.path.name}", size, "bytes", self.progress) as advance:
            failures = decompression_errors() if data is not raw else ()
            offset = reported = 0
            try:
                for number, chunk in enumerate(bounded_lines(data, self.path, data is not raw), start=1):
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
        at a time: decoding a block costs one call where decoding each line costs one a line.  A line longer than the
        record limit is an error once that many of its bytes are read."""
        size = self.path.stat().st_size if self.path.exists() else None
        limit = max_record_bytes()
        with open_binary(self.path) as (data, raw), task(f"reading {self.path.name}", size, "bytes", self.progress) as advance:
            compressed = data is not raw
            failures = decompression_errors() if compressed else ()
            number, offset, reported = 1, 0, 0
            pending: list[bytes] = []  # the start of a line longer than a block
            waiting = 0  # its length
            try:
                while chunk := data.read(_BLOCK):
                    cut = chunk.rfind(b"\n") + 1
                    if not cut:
                        pending.append(chunk)
                        waiting += len(chunk)
                        if waiting > limit:
                            raise record_too_long(self.path, number, limit, compressed)
                        continue
                    block = b"".join((*pending, chunk[:cut])) if pending else chunk[:cut]
                    pending = [chunk[cut:]] if cut < len(chunk) else []
                    waiting = len(chunk) - cut
                    if len(block) > limit:  # a line in it may be too long (with the default limit, only after a pending start)
                        _check_lengths(block, self.path, number, limit, compressed)
                    lines = _decode(block, self.path, number, offset).split("\n")
                    lines.pop()  # what follows the block's last \n: nothing
                    yield number, lines
                    number += len(lines)
                    offset += len(block)
                    position = raw.tell()
                    advance(position - reported)
                    reported = position
                if pending:
                    if waiting > limit:
                        raise record_too_long(self.path, number, limit, compressed)
                    yield number, [_decode(b"".join(pending), self.path, number, offset)]
            except failures as error:
                raise describe(error, self.path) from None
            advance(raw.tell() - reported)

    def _pieces(self) -> Iterator[str]:
        """The file's text about a MiB at a time, each piece cut between two characters."""
        size = self.path.stat().st_size if self.path.exists() else None
        with open_binary(self.path) as (data, raw), task(f"reading {self.path.name}", size, "bytes", self.progress) as advance:
            failures = decompression_errors() if data is not raw else ()
            line, offset, reported = 1, 0, 0
            carried = b""  # the start of a character cut by the block's end
            try:
                while chunk := data.read(_BLOCK):
                    chunk = carried + chunk if carried else chunk
                    cut = _character_end(chunk)
                    carried = chunk[cut:]
                    text = _decode(chunk[:cut], self.path, line, offset)
                    yield text
                    line += text.count("\n")
                    offset += cut
                    position = raw.tell()
                    advance(position - reported)
                    reported = position
                if carried:
                    yield _decode(carried, self.path, line, offset)
            except failures as error:
                raise describe(error, self.path) from None
            advance(raw.tell() - reported)


def _check_lengths(block: bytes, path: Path, first: int, limit: int, compressed: bool) -> None:
    """A line of ``block`` (whose first line is line ``first``) longer than ``limit`` is :func:`record_too_long`."""
    for number, line in enumerate(block.split(b"\n"), start=first):
        if len(line) > limit:
            raise record_too_long(path, number, limit, compressed)


def _character_end(data: bytes) -> int:
    """Where the last whole UTF-8 character of ``data`` ends: its length, or the start of a character cut short."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # not a continuation byte: the last character starts here
            size = 1 if byte < 0x80 else 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return len(data) if back >= size else len(data) - back
    return len(data)


class JsonLinesReader(_TextReader):
    """One JSON object per line; malformed lines are reported together (up to five, with their lines) after the others."""

    kind = "JSON Lines"

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        bad: list[tuple[int, str]] = []
        count = 0
        for first, lines in self._blocks():
            for number, line in enumerate(lines, first):
                if line[-1:] == "\r":
                    line = line[:-1]
                if not line or line.isspace():  # what `not line.strip()` says, without copying the line
                    continue
                try:
                    row = parse_row(line)
                except json.JSONDecodeError as error:
                    bad.append((number, f"{error.msg} at column {error.colno}"))
                    continue
                except RowValueError as error:
                    raise DatasetError(error.message, file=str(self.path), line=number, row=count + len(bad), key=error.column) from None
                if type(row) is not dict:
                    bad.append((number, f"expected a JSON object, got {type(row).__name__}"))
                    continue
                count += 1
                yield row
        if bad:
            shown = "; ".join(f"line {number}: {what}" for number, what in bad[:5]) + (f"; and {len(bad) - 5} more" if len(bad) > 5 else "")
            raise DatasetError(
                f"{len(bad)} malformed line(s): {shown}; fix or remove them (one JSON object per line)", file=str(self.path), line=bad[0][0]
            )


class JsonReader(_TextReader):
    """A JSON document holding a list of objects, one per row, parsed a row at a time as the text is read."""

    kind = "JSON"

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """The document's rows, parsed one at a time from the text as it is read: a row longer than the record limit
        is an error once that much of it is read, wherever the document's line breaks are."""
        document = _Document(self._pieces(), self.path, max_record_bytes(), compression_of(self.path) is not None)
        first = document.peek()
        if first != "[":  # not a list: parsed whole (bounded all the same) for what it is
            value = document.value("the JSON document", None) if first else document.fail("Expecting value", 0)
            if document.peek():
                document.fail("Extra data", document.pos)
            raise DatasetError(f"a .json data file must hold a list of objects (one per row), not {_json_kind(value)}", file=str(self.path))
        document.pos += 1
        if document.peek() != "]":
            yield from self._rows(document)
        document.pos += 1
        if document.peek():
            document.fail("Extra data", document.pos)

    def _rows(self, document: _Document) -> Iterator[dict[str, Any]]:
        """The rows of the list whose first row starts at ``document.pos``; ``pos`` is left on its closing ``]``.

        The usual case (a whole row in the text read, then a comma) is parsed here with json's scanner; a row cut by
        the end of the text read, a long row and anything unusual go through the document's methods.
        """
        scan, next_row = json.JSONDecoder().scan_once, _COMMA.match  # type: ignore[attr-defined]  # set in __init__, not in typeshed
        quick = document.limit // 4  # a row of fewer characters cannot be over the limit
        text, start, row = document.text, document.pos, 0
        while True:
            try:
                value, end = scan(text, start)
            except (StopIteration, json.JSONDecodeError, RecursionError, ValueError):  # cut short by the text read so far, or not JSON
                document.pos = start
                value = document.value("the row", row)
                text, start, end = document.text, document.start, document.pos
            else:
                if end - start > quick:
                    document.check_size(end - start, start, "the row", row)
                document.check_value(value, start, end, row)
            if type(value) is not dict:
                raise DatasetError(
                    f"a .json data file must hold a list of objects (one per row), and this row is {_json_kind(value)}",
                    file=str(self.path),
                    line=document.line_at(start),
                    row=row,
                )
            yield value
            row += 1
            comma = next_row(text, end)
            if comma is not None and comma.end() < len(text):
                start = comma.end()
                continue
            document.pos = end
            after = document.peek()
            if after == "]":
                return
            if after != ",":
                document.fail("Expecting ',' delimiter", document.pos)
            document.pos += 1
            document.peek()
            text, start = document.text, document.pos


def _json_kind(value: object) -> str:
    """What a JSON value is, in a message: 'an object', 'a string' …"""
    kinds = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return kinds.get(type(value), "a number")


class _Document:
    """A JSON document's text, read a piece at a time as parsing needs it; the text before ``pos`` is dropped."""

    def __init__(self, pieces: Iterator[str], path: Path, limit: int, compressed: bool) -> None:
        self.pieces = pieces
        self.path = path
        self.limit = limit
        self.compressed = compressed
        self.text = ""
        self.pos = 0
        self.start = 0  # where the last value read starts
        self.line = 1  # the line number of text[0]
        self.ended = False
        self.decode = json.JSONDecoder().raw_decode

    def _more(self, at_least: int = 1) -> bool:
        """Read pieces of at least ``at_least`` characters in all (joined once); False at the end of the file."""
        if self.pos > _BLOCK:
            self.line += self.text.count("\n", 0, self.pos)
            self.text, self.pos = self.text[self.pos :], 0
        read: list[str] = []
        size = 0
        while size < at_least and (piece := next(self.pieces, None)) is not None:
            read.append(piece)
            size += len(piece)
        if size < at_least:
            self.ended = True
        if read:
            self.text += "".join(read)
        return bool(read)

    def peek(self) -> str:
        """The next character that is not whitespace (``pos`` moved to it), or ``''`` at the end of the document."""
        while True:
            found = _NOT_SPACE.search(self.text, self.pos)
            if found is not None:
                self.pos = found.start()
                return self.text[self.pos]
            self.pos = len(self.text)
            if self.ended or not self._more():
                return ""

    def line_at(self, position: int) -> int:
        return self.line + self.text.count("\n", 0, position)

    def fail(self, message: str, position: int) -> NoReturn:
        raise DatasetError(f"invalid JSON: {message}", file=str(self.path), line=self.line_at(position))

    def value(self, what: str, row: int | None) -> Any:
        """The JSON value at ``pos``, read as far as it goes but no further than the limit; ``start`` is left where it
        starts and ``pos`` after it."""
        while True:
            self.start = start = self.pos
            try:
                value, end = self.decode(self.text, start)
            except (RecursionError, ValueError) as error:
                problem = explain(error, self.text, start)
                if problem is not None:
                    raise DatasetError(problem.message, file=str(self.path), line=self.line_at(start), row=row, key=problem.column) from None
                if not isinstance(error, json.JSONDecodeError):
                    raise
                cut_short = error.pos >= len(self.text) - 8 or error.msg.startswith("Unterminated string")
                if not cut_short or self.ended:
                    self.fail(error.msg, error.pos)
                self.check_size(len(self.text) - start, start, what, row)
                # Read as much again as the value has so far: a value parsed k times is read in k doublings.
                self._more(max(len(self.text) - start, 1))
                continue
            self.check_size(end - start, start, what, row)
            self.check_value(value, start, end, row)
            self.pos = end
            return value

    def check_value(self, value: Any, start: int, end: int, row: int | None) -> None:
        """:func:`~promptkit.data.sources.json_rows.check_row` on the value parsed from ``text[start:end]``."""
        try:
            check_row(self.text, value, start, end)
        except RowValueError as error:
            raise DatasetError(error.message, file=str(self.path), line=self.line_at(start), row=row, key=error.column) from None

    def check_size(self, characters: int, start: int, what: str, row: int | None) -> None:
        """A value of ``characters`` from ``start`` over the limit (in bytes of UTF-8) is :func:`record_too_long`."""
        if characters * 4 <= self.limit:  # a character is at most 4 bytes of UTF-8
            return
        if characters > self.limit or len(self.text[start : start + characters].encode("utf-8", "surrogatepass")) > self.limit:
            raise record_too_long(self.path, self.line_at(start), self.limit, self.compressed, what, row=row)


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
        with open_binary(self.path) as (data, raw):
            first_line = next(bounded_lines(data, self.path, data is not raw), b"")
            first = next(csv.reader(_split(_decode(first_line, self.path, 1, 0))), [])
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
