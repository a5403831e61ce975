"""Progress bars on a terminal's stderr: the CLI's receiver of :mod:`promptkit.data.progress` reports, drawn with rich.

Each task is a line with its bar, count, rate and time left; nested tasks
(embedding while picking shots) show beneath the task that opened them.  The
display starts with the first task and stops when the last open one is done,
leaving the finished lines on screen (``transient``: erasing them, for preview).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.filesize import decimal
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

__all__ = ["TerminalProgress"]


def _amount(value: float, unit: str) -> str:
    return decimal(int(value)) if unit == "bytes" else f"{int(value):,}"


class _Count(ProgressColumn):
    """``1,234/5,000 rows``, or ``1.2/6.4 MB`` for bytes."""

    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit", "rows")
        total = "?" if task.total is None else _amount(task.total, unit)
        shown = f"{_amount(task.completed, unit)}/{total}"
        return Text(shown if unit == "bytes" else f"{shown} {unit}", style="progress.download")


class _Rate(ProgressColumn):
    """``12,345 rows/s``, or ``3.2 MB/s`` for bytes."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        unit = task.fields.get("unit", "rows")
        if speed is None:
            return Text("", style="progress.data.speed")
        return Text(f"{decimal(int(speed))}/s" if unit == "bytes" else f"{speed:,.0f} {unit}/s", style="progress.data.speed")


class TerminalProgress:
    """A :class:`promptkit.data.progress.Progress` that draws bars on ``console`` (default: stderr)."""

    def __init__(self, console: Console | None = None, transient: bool = False) -> None:
        self.console = console or Console(stderr=True)
        self.transient = transient
        self._bars: Progress | None = None
        self._open: list[TaskID] = []

    def start(self, task: str, total: int | None = None, unit: str = "rows") -> None:
        if self._bars is None:
            self._bars = Progress(
                TextColumn("[progress.description]{task.description}"),
                BarColumn(),
                _Count(),
                _Rate(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=self.transient,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._bars.start()
        self._open.append(self._bars.add_task(task, total=total, unit=unit))

    def advance(self, n: int = 1) -> None:
        if self._bars is not None and self._open:
            self._bars.advance(self._open[-1], n)

    def done(self) -> None:
        if self._bars is None or not self._open:
            return
        finished = self._open.pop()
        task = self._bars.tasks[[t.id for t in self._bars.tasks].index(finished)]
        if task.total is None:
            self._bars.update(finished, total=task.completed)
        self._bars.stop_task(finished)
        if not self._open:
            self.close()

    def close(self) -> None:
        """Stop the display (the CLI calls it when a run ends early, too)."""
        if self._bars is not None:
            self._bars.stop()
            self._bars = None
            self._open.clear()

    def __enter__(self) -> TerminalProgress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
