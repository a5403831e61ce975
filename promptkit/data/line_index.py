"""The line index of a JSON Lines file: where each row's line starts, how long it is, its line number.

Built in one pass over the file's bytes (no JSON is parsed) and kept in a
cache folder promptkit owns, never next to the data: ``$PROMPTKIT_CACHE_DIR``,
else ``$XDG_CACHE_HOME/promptkit``, else ``~/.cache/promptkit``, in its
``line-index/`` folder, one ``.idx`` file (int64 triples) per data file keyed by the file's
absolute path, size and modification time (a changed file gets a new index).
24 bytes per row, read as needed (never mapped whole).  Deleting the folder clears it; a cache that cannot be written is skipped (the
index is then built for the run only).  Only plain files are indexed:
compressed ones cannot be read from an offset.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import tempfile
from array import array
from pathlib import Path
from typing import IO

from promptkit.data.progress import task
from promptkit.data.sources.limits import bounded_lines
from promptkit.data.sources.regular import open_data_file

__all__ = ["BOM", "LineIndex", "cache_dir", "is_blank"]

logger = logging.getLogger(__name__)

#: The UTF-8 byte order mark a file may start with.
BOM = b"\xef\xbb\xbf"
#: Bumped when the index file's layout changes.
_VERSION = "2"
_REPORT_EVERY = 1 << 14
# An entry: offset, length, line number, each a native int64.
_ROW_BYTES = 3 * array("q").itemsize


def cache_dir() -> Path:
    """The folder promptkit caches into (see the module docstring)."""
    own = os.environ.get("PROMPTKIT_CACHE_DIR")
    if own:
        return Path(own).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "promptkit"


def is_blank(line: bytes) -> bool:
    """Whether a line is blank as JSON Lines readers skip it (``str.strip()`` empty)."""
    if line[:1] == b"{":  # nearly every row: no decoding
        return False
    return not line.decode("utf-8", "replace").strip()


class LineIndex:
    """Rows of a plain JSON Lines file by position: per row its offset and length in bytes and its line number.

    Read from its file with ``pread`` as asked for (not memory-mapped: mapped pages a process has read count in its
    resident memory, which would grow with the file), or held in memory when it could not be cached.
    """

    def __init__(self, file: Path | None = None, data: bytes = b"") -> None:
        self._file = file
        self._data = data
        self._rows = (file.stat().st_size if file is not None else len(data)) // _ROW_BYTES

    def __len__(self) -> int:
        return self._rows

    def _read(self, start: int, stop: int) -> list[int]:
        size = (stop - start) * _ROW_BYTES
        if self._file is None:
            data = self._data[start * _ROW_BYTES : start * _ROW_BYTES + size]
        else:
            with self._file.open("rb") as handle:
                data = os.pread(handle.fileno(), size, start * _ROW_BYTES)
        return array("q", data).tolist()

    def spans(self, start: int, stop: int) -> list[tuple[int, int, int]]:
        """(offset, length, line number) of rows ``start`` to ``stop - 1``."""
        values = self._read(start, stop)
        return list(zip(values[0::3], values[1::3], values[2::3], strict=True))

    def span(self, row: int) -> tuple[int, int]:
        """(offset, length) of row ``row``'s line, without its line break."""
        offset, length, _ = self._read(row, row + 1)
        return offset, length

    def line(self, row: int) -> int:
        """The 1-based line number of row ``row``."""
        return self._read(row, row + 1)[2]

    @classmethod
    def of(cls, path: Path) -> LineIndex:
        """The index of ``path``: from the cache, else built now (into the cache when its folder is writable)."""
        stat = path.stat()
        key = hashlib.sha256(f"{_VERSION}\0{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()
        cached = cache_dir() / "line-index" / f"{key}.idx"
        if cached.is_file():
            return cls(cached)
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=cached.parent, suffix=".tmp", delete=False) as handle:
                try:
                    _build(path, stat.st_size, handle)
                except BaseException:  # a line over the record limit, an interrupt: no partial index is left
                    os.unlink(handle.name)
                    raise
            os.replace(handle.name, cached)
        except OSError as error:  # a read-only home: the index serves this run only, from memory
            logger.debug("line index of %s not cached in %s: %s", path, cached.parent, error)
            memory = io.BytesIO()
            _build(path, stat.st_size, memory)
            return cls(data=memory.getvalue())
        return cls(cached)


def _build(path: Path, size: int, out: IO[bytes]) -> None:
    """Write the index of ``path`` to ``out``: (offset, length, line number) per row, native int64, a block at a time."""
    block = array("q")
    with open_data_file(path) as handle, task(f"indexing {path.name}", size, "bytes") as advance:
        position = reported = 0
        for number, line in enumerate(bounded_lines(handle, path, compressed=False), start=1):
            start, body = position, line
            position += len(line)
            if number == 1 and body.startswith(BOM):
                start, body = start + len(BOM), body[len(BOM) :]
            if not is_blank(body):
                block.extend((start, len(body.rstrip(b"\n")), number))
            if number % _REPORT_EVERY == 0:
                advance(position - reported)
                reported = position
                block.tofile(out)
                del block[:]
        advance(position - reported)
        block.tofile(out)
