"""The most bytes promptkit reads for one record: a line of JSON Lines or CSV, a row of a JSON document.

Lines are read with a bound, never whole first: a 4 MB ``.jsonl.gz`` that
inflates to one 4 GiB line stops once the bound is passed, with an error naming
the file, the line and the limit.  The limit is counted in bytes of the text as
read (after decompression), and is ``$PROMPTKIT_MAX_RECORD_BYTES`` if set (a
number of bytes, or with a ``K``, ``M`` or ``G`` suffix: ``512M``), else
:data:`DEFAULT_MAX_RECORD_BYTES`, 256 MiB: far above real rows (a
million-token document is about 4 MiB, a row with dozens of inline base64
images tens of MiB), and a record that parses to about a GiB of Python objects.
It is read when a file is opened, so a change applies to the next file read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from promptkit.errors import ConfigError, DatasetError

__all__ = ["DEFAULT_MAX_RECORD_BYTES", "MAX_RECORD_BYTES_ENV", "bounded_lines", "max_record_bytes", "record_too_long"]

#: The environment variable that sets the limit.
MAX_RECORD_BYTES_ENV = "PROMPTKIT_MAX_RECORD_BYTES"
#: The limit when the variable is not set: 256 MiB.
DEFAULT_MAX_RECORD_BYTES = 256 * 2**20
_SIZE = re.compile(r"^\s*(\d+)\s*(?:([kmg])(?:i?b)?)?\s*$", re.IGNORECASE)
_UNITS = {None: 1, "k": 2**10, "m": 2**20, "g": 2**30}


def max_record_bytes() -> int:
    """The limit now: ``$PROMPTKIT_MAX_RECORD_BYTES``, else :data:`DEFAULT_MAX_RECORD_BYTES`."""
    value = os.environ.get(MAX_RECORD_BYTES_ENV)
    if value is None or not value.strip():
        return DEFAULT_MAX_RECORD_BYTES
    match = _SIZE.match(value)
    size = int(match[1]) * _UNITS[match[2] and match[2].lower()] if match else 0
    if size < 1:
        raise ConfigError(
            f"{MAX_RECORD_BYTES_ENV}={value!r} is not a size: give a positive number of bytes, e.g. {DEFAULT_MAX_RECORD_BYTES} or 256M",
            key=MAX_RECORD_BYTES_ENV,
        )
    return size


def record_too_long(path: Path | str, line: int | None, limit: int, compressed: bool, what: str = "the line", **context: object) -> DatasetError:
    """The error for a record over the limit: ``what`` it is, with the file and line (if it has one) and any other ``context``."""
    read = " once decompressed" if compressed else ""
    return DatasetError(
        f"{what} is longer than {limit:,} bytes{read}, the most promptkit reads for one record; if the data is right, "
        f"set {MAX_RECORD_BYTES_ENV} to a larger number of bytes (default {DEFAULT_MAX_RECORD_BYTES:,}, 256 MiB)",
        file=str(path),
        line=line,
        **context,
    )


def bounded_lines(data: IO[bytes], path: Path | str, compressed: bool, limit: int | None = None) -> Iterator[bytes]:
    """The lines of ``data`` (each with its ``\\n``), none read past the limit: a longer one is :func:`record_too_long`.

    ``limit`` is :func:`max_record_bytes` unless given.
    """
    limit = max_record_bytes() if limit is None else limit
    readline = data.readline
    number = 0
    while line := readline(limit + 1):
        number += 1
        if len(line) > limit and line[-1:] != b"\n":
            raise record_too_long(path, number, limit, compressed)
        yield line
