"""Regular files only: the check every data file and media file passes before promptkit opens it.

A FIFO with no writer blocks its reader forever, a device such as
``/dev/zero`` never ends, a socket cannot be read as a file: promptkit reads
none of them.  :func:`check_regular` looks at the file's mode before it is
opened (symlinks followed: a link to a regular file is fine);
:func:`open_regular` opens without blocking and checks the opened file again,
so a FIFO swapped in after the first check is refused instead of hanging.

For data files, :func:`check_data_file` (made by
:func:`~promptkit.data.sources.open_reader` before a reader is chosen) and
:func:`open_data_file` (what every reader opens a data file with) say so as a
:class:`~promptkit.errors.DatasetError` naming the file.  ``--rows -`` (stdin)
is read before either is reached.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from promptkit.errors import DatasetError

__all__ = ["NotRegularError", "check_data_file", "check_regular", "not_regular", "open_data_file", "open_regular"]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularError(Exception):
    """The file is not a regular file; the message says what it is (``'it is a FIFO, not a regular file'``)."""


def not_regular(mode: int) -> str | None:
    """``'is a FIFO, not a regular file'`` (and so on) for a ``st_mode`` that is not a regular file's, else ``None``."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return f"is {kind}, not a regular file"


def check_regular(path: Path) -> None:
    """:class:`NotRegularError` if ``path`` (its final symlink followed) exists and is not a regular file.

    A path that cannot be looked at is left to the open that follows, whose error names the reason.
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    problem = not_regular(mode)
    if problem is not None:
        raise NotRegularError(f"it {problem}")


def open_regular(path: Path, follow_symlinks: bool = True) -> BinaryIO:
    """``path`` opened for reading, if it is a regular file; else :class:`NotRegularError` (``OSError`` if it cannot be opened).

    The file is opened without blocking (a FIFO's open would wait for a writer; a regular file's reads are not
    affected) and the check made on the opened file.  ``follow_symlinks=False`` refuses a final symlink (``ELOOP``): for a path
    already resolved, a link swapped in afterwards cannot lead elsewhere.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        problem = not_regular(os.fstat(fd).st_mode)
    except OSError:
        os.close(fd)
        raise
    if problem is not None:
        os.close(fd)
        raise NotRegularError(f"it {problem}")
    return os.fdopen(fd, "rb")


def _refused(shown: str, error: NotRegularError) -> DatasetError:
    return DatasetError(
        f"the data file {str(error).removeprefix('it ')}; promptkit reads data from regular files only: save the data to a file and give its path",
        file=shown,
    )


def check_data_file(path: Path) -> None:
    """:func:`check_regular` for a data file, as a :class:`~promptkit.errors.DatasetError` naming it."""
    try:
        check_regular(path)
    except NotRegularError as error:
        raise _refused(str(path), error) from None


def open_data_file(path: Path, shown: str | None = None) -> BinaryIO:
    """A data file opened with :func:`open_regular`; what stops it is a :class:`~promptkit.errors.DatasetError` naming the
    file (as ``shown``, if given)."""
    try:
        return open_regular(path)
    except NotRegularError as error:
        raise _refused(shown or str(path), error) from None
    except OSError as error:
        raise DatasetError(f"cannot read the data file: {error.strerror}", file=shown or str(path)) from None
