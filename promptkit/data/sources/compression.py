"""Compressed data files: ``.gz``, ``.bz2`` and ``.zst``, told by their extension and by their first bytes.

A file whose first bytes are a gzip, bzip2 or Zstandard header is decompressed
whatever its name (``rows.jsonl`` that is gzip data reads as JSON Lines); a
file named ``.gz`` that does not start like gzip data is an error.  Zstandard
needs the optional package ``zstandard`` (``pip install 'promptkit[zstd]'``).
"""

from __future__ import annotations

import bz2
import gzip
import io
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from promptkit.data.sources.regular import open_data_file
from promptkit.errors import DatasetError, require

__all__ = ["SUFFIXES", "compression_of", "decompression_errors", "open_binary", "split_suffix"]

#: Compression by file extension.
SUFFIXES = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd"}
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\x28\xb5\x2f\xfd", "zstd"))
_NAMES = {"gzip": "gzip", "bz2": "bzip2", "zstd": "Zstandard"}


def split_suffix(path: Path) -> tuple[str, str | None]:
    """The data format's extension and the compression the name gives: ``rows.jsonl.gz`` → ``('.jsonl', 'gzip')``."""
    suffixes = [suffix.lower() for suffix in path.suffixes]
    if suffixes and suffixes[-1] in SUFFIXES:
        return (suffixes[-2] if len(suffixes) > 1 else ""), SUFFIXES[suffixes[-1]]
    return (suffixes[-1] if suffixes else ""), None


def compression_of(path: Path) -> str | None:
    """The compression of ``path`` by its first bytes, checked against its extension."""
    with open_data_file(path) as handle:
        head = handle.read(4)
    found = next((name for magic, name in _MAGIC if head.startswith(magic)), None)
    named = split_suffix(path)[1]
    if named is not None and found != named:
        raise DatasetError(
            f"the file is named {path.suffix} but does not hold {_NAMES[named]} data (its first bytes are {head!r}); "
            f"rename it without {path.suffix} if it is not compressed, or compress it again",
            file=str(path),
        )
    return found


@contextmanager
def open_binary(path: Path) -> Iterator[tuple[IO[bytes], IO[bytes]]]:
    """``(data, raw)``: the file's decompressed bytes, and the file itself (whose position tells the progress)."""
    compression = compression_of(path)
    with open_data_file(path) as raw:
        if compression is None:
            yield raw, raw
        elif compression == "gzip":
            with gzip.GzipFile(fileobj=raw, mode="rb") as data:
                yield data, raw  # type: ignore[misc]  # GzipFile is an IO[bytes] in all but name
        elif compression == "bz2":
            with bz2.BZ2File(raw, "rb") as data:
                yield data, raw  # type: ignore[misc]  # as GzipFile
        else:
            zstandard = require("zstandard", "zstd", f"reading the Zstandard file {path.name}")
            with io.BufferedReader(_ZstdStream(zstandard, raw), buffer_size=1 << 16) as data:
                yield data, raw


class _ZstdStream(io.RawIOBase):
    """Zstandard frames decompressed one after another; input that ends inside a frame is an ``EOFError``, as gzip's."""

    def __init__(self, zstandard: Any, raw: IO[bytes]) -> None:
        self._zstandard = zstandard
        self._raw = raw
        self._frame = zstandard.ZstdDecompressor().decompressobj()
        self._pending = b""
        self._started = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            chunk = self._raw.read(1 << 16)
            if not chunk:
                if self._started:
                    raise EOFError("Compressed file ended before the end-of-stream marker was reached")
                return 0
            self._started = True
            while chunk:
                self._pending += self._frame.decompress(chunk)
                if not self._frame.eof:
                    break
                chunk = self._frame.unused_data
                self._frame = self._zstandard.ZstdDecompressor().decompressobj()
                self._started = bool(chunk)
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def decompression_errors() -> tuple[type[BaseException], ...]:
    """What decompressing a truncated or corrupt file raises (zstandard's error when it is installed)."""
    errors: tuple[type[BaseException], ...] = (EOFError, zlib.error, gzip.BadGzipFile, OSError)
    try:
        import zstandard  # noqa: PLC0415 (optional)
    except ImportError:
        return errors
    return (*errors, zstandard.ZstdError)


def describe(error: BaseException, path: Path) -> DatasetError:
    """A decompression failure as one line: what went wrong and what to do."""
    if isinstance(error, EOFError) or "truncated" in str(error).lower() or "incomplete" in str(error).lower():
        what = "the compressed data ends early (the file is truncated)"
    else:
        what = f"the compressed data is corrupt ({type(error).__name__}: {error})"
    return DatasetError(f"{what}; download or compress the file again", file=str(path))
