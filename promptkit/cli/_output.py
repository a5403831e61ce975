"""Where the CLI writes, and how a run ends early: an output file replaced atomically, a guarded stdout, signals, stderr lines.

:class:`AtomicFile` writes ``--out`` to a temporary file beside the target and
renames it onto the target only when everything was written: the target is
either left as it was or holds the complete new output, and no temporary file
stays behind.  :class:`GuardedStream` turns a failed write to stdout into one
:class:`OutputError`.  :func:`stop_on_signals` makes SIGINT and SIGTERM raise
:class:`Interrupted`, so the run unwinds through every ``finally`` and ``main``
exits with 128 + the signal number.  :func:`printable` is what every line on
stderr (errors and warnings) goes through: control characters as escapes.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, TextIO

from promptkit.errors import ConfigError, PromptkitError

__all__ = [
    "AtomicFile",
    "GuardedStream",
    "Interrupted",
    "OutputError",
    "PrintableFormatter",
    "ReaderGone",
    "detach_stdout",
    "printable",
    "stop_on_signals",
]

#: The signals that end a run in order (the output file untouched); each exits with 128 + its number.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: The control characters (C0 but the tab, DEL, C1) as the escapes Python writes for them in a string literal.
_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0)) if code != 0x09} | {0x0A: "\\n", 0x0D: "\\r"}


class OutputError(PromptkitError):
    """The output (a file or stdout) cannot be written: the disk is full, the folder is not writable, …"""


class ReaderGone(Exception):  # not an error: the normal end of `promptkit render ... | head`
    """The reader of stdout closed the pipe.

    Not an ``OSError``, so that nothing on the way (rich's console exits with
    status 1 on a ``BrokenPipeError``) takes it for a failure.
    """


class Interrupted(BaseException):  # not an error: a request to stop, like KeyboardInterrupt
    """A stop signal arrived; raised where the run was, so every ``finally`` cleans up on the way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside, SIGINT and SIGTERM raise :class:`Interrupted`; a second signal during the clean-up is ignored."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        for each in STOP_SIGNALS:  # the clean-up on the way out must not itself be cut short
            signal.signal(each, signal.SIG_IGN)
        raise Interrupted(signum)

    previous = {each: signal.signal(each, stop) for each in STOP_SIGNALS}
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


def printable(text: str) -> str:
    """``text`` with its control characters as escapes (``\\x1b``, ``\\n``, ``\\r``, ``\\x9b``), so that a message quoting
    a template or a row can neither drive the terminal (colours, cursor moves, a cleared screen, a changed title) nor
    write a second line; tabs and every printable character (accents, CJK, emoji) stay as they are.

    >>> print(printable("raised: \\x1b[2Jgone\\nline 2 é"))
    raised: \\x1b[2Jgone\\nline 2 é
    """
    return text if text.isprintable() else text.translate(_ESCAPES)


class PrintableFormatter(logging.Formatter):
    """A logging formatter whose lines go through :func:`printable` (the CLI's ``promptkit: warning: ...``)."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record))


class AtomicFile:
    """A text file written in full or not at all (see the module docstring).

    ``AtomicFile(path)`` refuses a folder; entering creates the temporary file
    (``.<name>.<random>.tmp`` in the target's folder, so the rename stays on one
    file system); leaving without an exception flushes, syncs and renames it
    onto the target, leaving with one removes it.  A symlink target is
    followed: the file it points to is replaced, the link stays.  The new file
    keeps the permission bits of the file it replaces.  A target that is not a
    regular file (``/dev/null``, a named pipe) is written directly, as stdout
    is: there is nothing there to keep, and it must not be replaced by a file.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.shown = str(path)
        given = Path(path)
        if given.is_dir():
            raise ConfigError(f"--out {self.shown} is a folder; give the path of the file to write")
        self.direct = given.exists() and not given.is_file()
        # A device is opened by the name given (/dev/stdout's real path can be /proc/<pid>/fd/pipe:[…], no path at all).
        self.target = given if self.direct else Path(os.path.realpath(path))
        self.temp: Path | None = None
        self._file: TextIO | None = None

    def __enter__(self) -> AtomicFile:
        try:
            descriptor = os.open(self.target, os.O_WRONLY) if self.direct else self._create_temp()
        except OSError as error:
            where = self.shown if self.direct else f"in {self.target.parent}"
            raise OutputError(f"cannot create the output file {where}: {error.strerror}", file=self.shown) from None
        self._file = open(descriptor, "w", encoding="utf-8")  # noqa: SIM115 - closed in __exit__
        return self

    def _create_temp(self) -> int:
        """A new file beside the target, with the target's permission bits if it exists; its descriptor."""
        while True:
            temp = self.target.parent / f".{self.target.name}.{secrets.token_hex(4)}.tmp"
            try:
                descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                continue
            break
        try:
            os.chmod(descriptor, stat.S_IMODE(self.target.stat().st_mode))
        except FileNotFoundError:
            pass  # a new file: the mode os.open gave it (0o666 less the umask)
        except BaseException:
            os.close(descriptor)
            temp.unlink()
            raise
        self.temp = temp
        return descriptor

    def write(self, text: str) -> None:
        assert self._file is not None, "write() outside the with block"
        try:
            self._file.write(text)
        except OSError as error:
            raise self._failed(error) from None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        assert self._file is not None
        file, temp = self._file, self.temp
        try:
            if exc_type is None:
                try:
                    file.flush()
                    if temp is not None:
                        os.fsync(file.fileno())
                    file.close()
                    if temp is not None:
                        os.replace(temp, self.target)
                except OSError as error:
                    raise self._failed(error) from None
        finally:
            if not file.closed:
                with suppress(OSError):  # the buffered rest cannot be written either; the file is removed just below
                    file.close()
            if temp is not None:
                temp.unlink(missing_ok=True)

    def _failed(self, error: OSError) -> OutputError:
        kept = "" if self.direct else "; the file is left as it was"
        return OutputError(f"cannot write the output: {error.strerror}{kept}", file=self.shown)


class GuardedStream:
    """A text stream (stdout) whose failed writes raise :class:`OutputError`, and a closed pipe :class:`ReaderGone`."""

    def __init__(self, stream: TextIO, name: str) -> None:
        self._stream = stream
        self._name = name

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise ReaderGone from None
        except OSError as error:
            raise self._failed(error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise ReaderGone from None
        except OSError as error:
            raise self._failed(error) from None

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, ...: what rich and print ask a stream
        return getattr(self._stream, name)

    def _failed(self, error: OSError) -> OutputError:
        return OutputError(f"cannot write to {self._name}: {error.strerror}")


def detach_stdout() -> None:
    """Point stdout at the null device, so the interpreter's last flush of output that cannot be written stays silent.

    What the Python docs advise after a ``BrokenPipeError`` (a reader such as
    ``head`` went away); also used when stdout failed otherwise (a full disk).
    """
    with suppress(OSError, ValueError):  # no file descriptor behind sys.stdout (an in-process caller's stream): nothing to silence
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
