"""Rendering on several processes of one machine: :func:`render_parallel`, the engine of ``promptkit render --workers N``.

The parent prepares the renderer once (pool read, shots picked, ppl labels,
control-token check: :meth:`Renderer.prepare`), then forks ``workers``
processes, which inherit it: nothing of the renderer is pickled.  The parent
reads the test rows (streaming them when the renderer streams) and picks their
shots, sends them to the workers :data:`CHUNK_ROWS` rows at a time, and yields
the encoded lines each chunk comes back as, in row order, so the output is
byte-identical to one worker's.  At most two chunks per worker are in flight
(the memory of a run stays bounded).

Forking needs the ``fork`` start method (Linux, macOS, the BSDs); where the
platform has none (Windows) more than one worker is a :class:`ConfigError`
saying so.  A worker's error is raised in the parent as the same promptkit
error, naming the row.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.pool import AsyncResult
from typing import Any

from promptkit.data.progress import task
from promptkit.data.streaming import FileRows
from promptkit.errors import ConfigError, PromptkitError
from promptkit.pipeline import RenderedPrompt, Renderer, RowWithShots

__all__ = ["CHUNK_ROWS", "json_lines", "render_parallel"]

#: Test rows per task sent to a worker: large enough that sending rows and returning lines costs little per row.
CHUNK_ROWS = 512
#: Chunks in flight per worker: one being rendered, one waiting.
_IN_FLIGHT = 2

#: Turns a test row's prompts into text (for ``promptkit render``: one JSON line each).
Encode = Callable[[Sequence[RenderedPrompt]], str]
#: A worker's error: its class (None: not a promptkit error), message and context.
_Failure = tuple[type[PromptkitError] | None, str, dict[str, Any]]
#: What a worker sends back for a chunk: its lines, how many rows they are, the rows over max_seq_len, its error.
_Outcome = tuple[str, int, list[int], _Failure | None]

# The renderer and encoder of a run, set before the fork, inherited by the workers (never pickled).
_job: tuple[Renderer, Encode] | None = None


def json_lines(prompts: Sequence[RenderedPrompt]) -> str:
    """A row's prompts' records as ``promptkit render`` writes them: one line of JSON each."""
    return "".join(json.dumps(prompt.to_record(), ensure_ascii=False) + "\n" for prompt in prompts)


def render_parallel(
    renderer: Renderer, workers: int = 2, indices: Sequence[int] | None = None, encode: Encode = json_lines
) -> Iterator[str]:
    """The encoded prompts of every test row (or of ``indices``), rendered by ``workers`` processes, in row order.

    ``encode`` turns a row's prompts into text (default: each record as one JSON line); it runs in the workers.
    ``workers=1`` renders in this process. Rows over ``max_seq_len`` are reported at the end, as iterating the
    renderer does.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive number of processes (got {workers!r})", key="workers")
    if workers == 1:
        for prompts in renderer.prompts_by_row(indices):
            yield encode(prompts)
        return
    if "fork" not in multiprocessing.get_all_start_methods():
        raise ConfigError(
            f"{workers} workers need the 'fork' start method, which this platform does not have; render with one worker "
            "(--workers 1), or on several machines with promptkit.integrations.ray",
            key="workers",
        )
    renderer.prepare()
    rows = renderer.test_rows
    # Workers read the rows themselves when they can by position (rows in memory, a line index, Parquet row groups);
    # from other files the parent reads them (with their shots) and sends them.
    by_position = not renderer.streaming or (isinstance(rows, FileRows) and rows.random_access)
    counted = by_position or renderer.progress is not None  # a file read by the parent is not counted only for a bar
    total = (len(rows) if indices is None else len(indices)) if counted else None
    chunks = _Chunks(renderer.rows_with_shots(indices))
    tasks: Iterable[Sequence[int] | list[RowWithShots]] = _positions(total or 0, indices) if by_position else chunks
    work = _render_positions if by_position else _render_rows
    global _job
    _job = (renderer, encode)
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, initializer=_ignore_stop_signals) as pool, task(
            f"rendering {renderer.dataset.abbr}", total, "rows", renderer.progress
        ) as advance:
            _job = None  # the workers have their copy; the parent needs none
            pending: deque[AsyncResult[_Outcome]] = deque()
            for chunk in tasks:
                pending.append(pool.apply_async(work, (chunk,)))
                if len(pending) >= _IN_FLIGHT * workers:
                    yield from _collect(pending.popleft(), renderer, advance)
            while pending:
                yield from _collect(pending.popleft(), renderer, advance)
            if chunks.failure is not None:  # the rows read before it are written first
                raise chunks.failure
    finally:
        _job = None
    renderer.report()


def _positions(total: int, indices: Sequence[int] | None) -> Iterator[Sequence[int]]:
    """Chunks of row positions: ranges of the split, or pieces of ``indices``."""
    if indices is None:
        for start in range(0, total, CHUNK_ROWS):
            yield range(start, min(start + CHUNK_ROWS, total))
        return
    for start in range(0, total, CHUNK_ROWS):
        yield list(indices[start : start + CHUNK_ROWS])


class _Chunks:
    """The rows in lists of :data:`CHUNK_ROWS`; an error reading them ends the lists (the rows before it included)
    and is kept in ``failure``, for the caller to raise once the chunks before it are written."""

    def __init__(self, rows: Iterator[RowWithShots]) -> None:
        self.rows = rows
        self.failure: PromptkitError | None = None

    def __iter__(self) -> Iterator[list[RowWithShots]]:
        chunk: list[RowWithShots] = []
        try:
            for item in self.rows:
                chunk.append(item)
                if len(chunk) == CHUNK_ROWS:
                    yield chunk
                    chunk = []
        except PromptkitError as error:
            self.failure = error
        if chunk:
            yield chunk


def _collect(result: AsyncResult[_Outcome], renderer: Renderer, advance: Callable[[int], None]) -> Iterator[str]:
    """A chunk's lines (its rows over max_seq_len noted on the renderer); a worker's error is raised here, after the
    lines of the rows before it."""
    lines, rows, over_limit, failure = result.get()
    renderer.note_over_limit(over_limit)
    advance(rows)
    yield lines
    if failure is not None:
        cls, message, context = failure
        error = PromptkitError.__new__(cls or PromptkitError)  # the worker's class, without its own __init__'s signature
        PromptkitError.__init__(error, message, **context)
        raise error


def _ignore_stop_signals() -> None:
    """A worker leaves SIGINT and SIGTERM to the parent, which ends the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _render_positions(positions: Sequence[int]) -> _Outcome:
    """In a worker: the rows at ``positions``, read here (their shots as the renderer picks them)."""
    assert _job is not None  # set before the fork
    return _render(_job[0].rows_with_shots(positions))


def _render_rows(items: list[RowWithShots]) -> _Outcome:
    """In a worker: rows the parent read, with their shots."""
    return _render(iter(items))


def _render(items: Iterator[RowWithShots]) -> _Outcome:
    """The rows' prompts encoded and joined, how many rows, the rows over max_seq_len, and the error of the row that
    failed (its class, message, context), if one did."""
    assert _job is not None  # set before the fork
    renderer, encode = _job
    lines: list[str] = []
    over_limit: list[int] = []
    done = 0
    index = -1
    try:
        for index, row, ice_idx in items:
            prompts = renderer.render_with_shots(index, row, ice_idx)
            lines.append(encode(prompts))
            if any(prompt.over_limit for prompt in prompts):
                over_limit.append(index)
            done += 1
    except PromptkitError as error:
        return "".join(lines), done, over_limit, (type(error), error.message, error.context)
    except Exception as error:  # a defect, not bad input: reported with the row, as the CLI reports its own
        message = f"internal error in a worker process: {type(error).__name__}: {error} (run with --workers 1 --debug for the traceback)"
        return "".join(lines), done, over_limit, (None, message, {"row": index} if index >= 0 else {})
    return "".join(lines), done, over_limit, None
