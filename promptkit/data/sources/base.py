"""The reader interface: one table of rows from one data file (or ``save_to_disk`` folder), read lazily.

A reader's :meth:`~RowReader.iter_rows` yields rows as the file is read (a
line, a CSV record, a Parquet or Arrow record batch at a time);
:meth:`~RowReader.read_all` is every row as a list.  ``schema`` is the table's
columns when the format declares them before its rows (a CSV header, a Parquet,
Arrow or ``datasets`` schema), so a missing ``reader_cfg`` column is found
before any row is read.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from promptkit.data.progress import Progress

__all__ = ["FileReader", "RowReader", "Schema"]



@dataclass(frozen=True)
class Schema:
    """The columns a data file declares: ``where`` says where ('the Parquet schema', 'the CSV header' …)."""

    file: str
    where: str
    columns: tuple[str, ...]


@runtime_checkable
class RowReader(Protocol):
    """Rows of one data file: lazily with :meth:`iter_rows`, at once with :meth:`read_all`."""

    path: Path

    @property
    def schema(self) -> Schema | None:
        """The columns the file declares before its rows, if the format has them."""
        ...

    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """The rows in file order, read as they are asked for; a bad record is an error naming the file and line or row."""
        ...

    def read_all(self) -> list[dict[str, Any]]:
        """Every row."""
        ...


class FileReader(ABC):
    """The shared part of promptkit's readers: the file, the progress receiver, ``read_all`` over ``iter_rows``."""

    #: What the format is called in messages.
    kind: str = ""

    def __init__(self, path: Path, progress: Progress | None = None) -> None:
        self.path = path
        self.progress = progress

    @property
    def schema(self) -> Schema | None:
        return None

    @abstractmethod
    def iter_rows(self) -> Iterator[dict[str, Any]]:
        """The rows in file order (see :class:`RowReader`)."""

    def read_all(self) -> list[dict[str, Any]]:
        return list(self.iter_rows())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.path)!r})"
