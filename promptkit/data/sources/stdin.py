"""Rows piped to standard input (``--rows -``, ``--rows /dev/stdin``): JSON Lines, read once and whole.

A pipe can be read only once, and has no name, size or extension: its bytes
are read to the end in one go (there is no line index, no second pass, no
compression sniffing, which would consume its first bytes) and parsed by the
JSON Lines reader's own rules — split at ``\\n`` only, ``\\r\\n`` and a byte
order mark allowed, malformed lines reported together — with messages that
name the file ``<stdin>``.  A terminal on standard input is refused: reading
it would wait for the user to type the rows.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from promptkit.data.progress import Progress
from promptkit.data.sources.text import JsonLinesReader, _decode
from promptkit.errors import DatasetError

__all__ = ["STDIN", "StdinReader", "names_stdin"]

#: How standard input is named in messages.
STDIN = "<stdin>"
#: The names that mean standard input where a data file is expected.
_NAMES = ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")


def names_stdin(path: str | os.PathLike[str]) -> bool:
    """Whether a data file argument means standard input: ``-`` or ``/dev/stdin`` (``/dev/fd/0``, ``/proc/self/fd/0``)."""
    return os.fspath(path) in _NAMES


class StdinReader(JsonLinesReader):
    """The rows of JSON Lines on a binary stream (default: standard input), read to its end when the rows are asked for.

    >>> import io
    >>> StdinReader(io.BytesIO(b'{"q": "a"}\\r\\n\\n{"q": "b"}')).read_all()
    [{'q': 'a'}, {'q': 'b'}]
    """

    def __init__(self, stream: IO[bytes] | None = None, progress: Progress | None = None) -> None:
        super().__init__(Path(STDIN), progress)
        self.stream = stream

    def _blocks(self) -> Iterator[tuple[int, list[str]]]:
        """The whole stream as one block of lines (see :meth:`JsonLinesReader._blocks`)."""
        stream = self.stream
        if stream is None:
            if sys.stdin is None:  # a process started without one (pythonw, a closed descriptor 0)
                raise DatasetError("this process has no standard input to read the rows from; give a data file", file=STDIN)
            if sys.stdin.isatty():
                raise DatasetError(
                    "standard input is a terminal; pipe the rows in as JSON Lines (cat rows.jsonl | promptkit render CONFIG --rows -)", file=STDIN
                )
            stream = sys.stdin.buffer
        yield 1, _decode(stream.read(), self.path, 1, 0).split("\n")
