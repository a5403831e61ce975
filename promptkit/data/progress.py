"""Progress reports of long work (reading rows, indexing, embedding, rendering): a callback, never printing.

A receiver implements :class:`Progress`; the library calls it and the caller
draws it (``promptkit render`` draws a bar on a terminal's stderr).  Tasks
nest: ``start`` opens a task, ``advance`` and ``done`` apply to the innermost
open one.  :class:`~promptkit.Renderer` takes ``progress=`` and makes it the
receiver of the stages it calls (loaders, retrievers), which report through
:func:`task`; with no receiver a report costs one lookup.

>>> class Log:
...     def start(self, task, total=None, unit="rows"): print("start", task, total, unit)
...     def advance(self, n=1): print("advance", n)
...     def done(self): print("done")
>>> with reporting(Log()), task("indexing", 2) as advance:
...     advance(2)
start indexing 2 rows
advance 2
done
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol, TypeVar, runtime_checkable

__all__ = ["Progress", "current_progress", "reporting", "task", "tracked"]

_T = TypeVar("_T")


@runtime_checkable
class Progress(Protocol):
    """Receives progress: ``start`` a task of ``total`` units (``None``: unknown), ``advance`` it, ``done``."""

    def start(self, task: str, total: int | None = None, unit: str = "rows") -> None:
        """A task begins; ``unit`` is what ``total`` counts ('rows', 'texts', 'bytes')."""
        ...

    def advance(self, n: int = 1) -> None:
        """``n`` more units of the innermost open task are done."""
        ...

    def done(self) -> None:
        """The innermost open task ended (finished or failed)."""
        ...


_receiver: ContextVar[Progress | None] = ContextVar("promptkit_progress", default=None)


def current_progress() -> Progress | None:
    """The receiver set by the innermost :func:`reporting` block, if any."""
    return _receiver.get()


@contextmanager
def reporting(progress: Progress | None) -> Iterator[None]:
    """Make ``progress`` the receiver of reports made inside the block (``None``: keep the current one)."""
    if progress is None:
        yield
        return
    token = _receiver.set(progress)
    try:
        yield
    finally:
        _receiver.reset(token)


def _ignore(n: int = 1) -> None:
    """What ``advance`` is when nobody receives reports."""


@contextmanager
def task(name: str, total: int | None = None, unit: str = "rows", progress: Progress | None = None) -> Iterator[Callable[[int], None]]:
    """Report one task to ``progress`` (default: the current receiver); yields its ``advance``; ``done`` also on error."""
    receiver = progress if progress is not None else _receiver.get()
    if receiver is None:
        yield _ignore
        return
    receiver.start(name, total, unit)
    try:
        yield receiver.advance
    finally:
        receiver.done()


def tracked(
    items: Iterable[_T], name: str, total: int | None, unit: str = "rows", every: int = 256, progress: Progress | None = None
) -> Iterator[_T]:
    """``items``, reported as one task to ``progress`` (default: the current receiver), ``every`` items at a time."""
    with task(name, total, unit, progress) as advance:
        count = 0
        for count, item in enumerate(items, start=1):
            yield item
            if count % every == 0:
                advance(every)
        if count % every:
            advance(count % every)
