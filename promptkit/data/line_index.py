"""The line index of a JSON Lines file: where each row's line starts, how long it is, its line number.

Built in one pass over the file's bytes (no JSON is parsed) and kept in a
cache folder promptkit owns, never next to the data: ``$PROMPTKIT_CACHE_DIR``,
else ``$XDG_CACHE_HOME/promptkit``, else ``~/.cache/promptkit``, in its
``line-index/`` folder, one ``.npy`` file per data file keyed by the file's
absolute path, size and modification time (a changed file gets a new index).
Deleting the folder clears it; a cache that cannot be written is skipped (the
index is then built for the run only).  Only plain files are indexed:
compressed ones cannot be read from an offset.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

import numpy as np

from promptkit.data.progress import task

__all__ = ["BOM", "LineIndex", "cache_dir", "is_blank"]

logger = logging.getLogger(__name__)

#: The UTF-8 byte order mark a file may start with.
BOM = b"\xef\xbb\xbf"
#: Bumped when the index file's layout changes.
_VERSION = "1"
_REPORT_EVERY = 1 << 14


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
    """Rows of a plain JSON Lines file by position: ``offsets[i]``, ``lengths[i]`` (bytes), ``lines[i]`` (1-based)."""

    def __init__(self, table: np.ndarray) -> None:
        self._table = table

    def __len__(self) -> int:
        return int(self._table.shape[0])

    def span(self, row: int) -> tuple[int, int]:
        """(offset, length) of row ``row``'s line, without its line break."""
        offset, length, _ = self._table[row]
        return int(offset), int(length)

    def spans(self, start: int, stop: int) -> list[tuple[int, int, int]]:
        """(offset, length, line number) of rows ``start`` to ``stop - 1``."""
        return [tuple(each) for each in self._table[start:stop].tolist()]  # type: ignore[misc]  # rows of three ints

    def line(self, row: int) -> int:
        """The 1-based line number of row ``row``."""
        return int(self._table[row, 2])

    @classmethod
    def of(cls, path: Path) -> LineIndex:
        """The index of ``path``: from the cache, else built now (and cached when the cache folder is writable)."""
        stat = path.stat()
        key = hashlib.sha256(f"{_VERSION}\0{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()
        cached = cache_dir() / "line-index" / f"{key}.npy"
        try:
            return cls(np.load(cached, mmap_mode="r"))
        except (OSError, ValueError):
            pass  # not cached yet, or unreadable: build it again
        table = _build(path, stat.st_size)
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=cached.parent, suffix=".tmp", delete=False) as handle:
                np.save(handle, table)
            os.replace(handle.name, cached)
        except OSError as error:  # a read-only home: the index serves this run only
            logger.debug("line index of %s not cached in %s: %s", path, cached.parent, error)
        return cls(table)


def _build(path: Path, size: int) -> np.ndarray:
    offsets: list[int] = []
    lengths: list[int] = []
    numbers: list[int] = []
    with path.open("rb") as handle, task(f"indexing {path.name}", size, "bytes") as advance:
        position = reported = 0
        for number, line in enumerate(handle, start=1):
            start, body = position, line
            position += len(line)
            if number == 1 and body.startswith(BOM):
                start, body = start + len(BOM), body[len(BOM) :]
            if not is_blank(body):
                offsets.append(start)
                lengths.append(len(body.rstrip(b"\n")))
                numbers.append(number)
            if number % _REPORT_EVERY == 0:
                advance(position - reported)
                reported = position
        advance(position - reported)
    table = np.empty((len(offsets), 3), dtype=np.int64)
    table[:, 0], table[:, 1], table[:, 2] = offsets, lengths, numbers
    return table
