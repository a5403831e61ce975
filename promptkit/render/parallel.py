"""Rendering on several processes of one machine: :func:`render_parallel`, the engine of ``promptkit render --workers N``.

The parent prepares the renderer once (pool read, shots picked, ppl labels,
control-token check: :meth:`Renderer.prepare`), then starts ``workers``
processes.  It reads the test rows (streaming them when the renderer streams)
and picks their shots, sends them to the workers :data:`CHUNK_ROWS` rows at a
time, and yields the encoded lines each chunk comes back as, in row order, so
the output is byte-identical to one worker's.  At most two chunks per worker
are in flight (the memory of a run stays bounded).  ``workers`` is a most:
no more processes start than this process may run on CPUs
(:func:`available_cpus`) or than there are chunks of rows to render; fewer
are said in one warning (logger ``promptkit.render.parallel``), and one is this
process.

How the workers start (:func:`start_method`): forked, inheriting the renderer
(nothing pickled), when this process runs no other thread; a forked child of a
process with other threads can deadlock on a lock one of them held, so then
the workers are fresh interpreters (``forkserver``, else ``spawn``) that
unpickle the renderer and ``encode`` once each.  A worker's error is raised in
the parent as the same promptkit error, naming the row; a worker that dies is
an error naming its rows, never a wait.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any, cast

from promptkit.data.progress import task
from promptkit.data.streaming import FileRows
from promptkit.errors import ConfigError, PromptkitError
from promptkit.records.record import RenderedPrompt
from promptkit.render.batch import BATCH_ROWS
from promptkit.render.renderer import Renderer
from promptkit.render.rows import RowWithShots

__all__ = ["CHUNK_ROWS", "available_cpus", "json_lines", "render_parallel", "start_method", "worker_count"]

logger = logging.getLogger(__name__)

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
#: A chunk of work: row positions (the worker reads the rows) or rows the parent read, with their shots.
_Chunk = Sequence[int] | list[RowWithShots]

# The renderer and encoder of a run in a worker: inherited through fork, or unpickled by the worker's initializer.
_job: tuple[Renderer, Encode] | None = None
# Why a worker that started fresh has no job (it could not unpickle it).
_load_failure: str | None = None


def json_lines(prompts: Sequence[RenderedPrompt]) -> str:
    """A row's prompts' records as ``promptkit render`` writes them: one line of JSON each."""
    return "".join(json.dumps(prompt.to_record(), ensure_ascii=False) + "\n" for prompt in prompts)


def start_method() -> str:
    """How :func:`render_parallel` starts its workers here: ``fork`` when this process runs no other Python thread,
    else ``forkserver``, else ``spawn``.

    Python threads are those a caller may start (a progress bar's, a notebook kernel's, a server's); the native
    pools of numerical libraries, which any process importing numpy has, are not counted.
    """
    import multiprocessing  # (see render_parallel)

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the platform has one), at least 1."""
    process_cpu_count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if process_cpu_count is not None:
        return int(process_cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def worker_count(workers: int, rows: int | None) -> tuple[int, str | None]:
    """How many processes render ``rows`` test rows (``None``: not known before they are read) when ``workers`` are
    asked for: at most one per CPU (:func:`available_cpus`) and one per chunk of :data:`CHUNK_ROWS` rows; and, when
    that is fewer, why.

    >>> worker_count(4, 600)[0] <= 2  # 600 rows make 2 chunks
    True
    """
    cpus = available_cpus()
    bounds = [(cpus, f"this process may run on {_count(cpus, 'CPU')}")]
    if rows is not None:
        chunks = -(-rows // CHUNK_ROWS)
        bounds.append((chunks, f"{_count(rows, 'test row')} make{'s' if rows == 1 else ''} {_count(chunks, 'chunk')} of up to {CHUNK_ROWS} rows"))
    lowest = min(bound for bound, _ in bounds)
    if workers <= lowest:
        return workers, None
    used = max(1, lowest)
    how = "rendering in this process" if used == 1 else f"rendering with {used} worker processes"
    return used, f"workers={workers:,}: {how}, as {' and '.join(why for bound, why in bounds if bound == lowest)}"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def render_parallel(
    renderer: Renderer,
    workers: int = 2,
    indices: Sequence[int] | None = None,
    encode: Encode = json_lines,
    *,
    method: str | None = None,
) -> Iterator[str]:
    """The encoded prompts of every test row (or of ``indices``), rendered by ``workers`` processes, in row order.

    ``encode`` turns a row's prompts into text (default: each record as one JSON line); it runs in the workers.
    ``workers=1`` renders in this process. ``method`` is the start method (default: :func:`start_method`); with any
    but ``fork`` the renderer and ``encode`` must pickle. Rows over ``max_seq_len`` are reported at the end, as
    iterating the renderer does.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive number of processes (got {workers!r})", key="workers")
    if workers == 1:
        yield from _joined(renderer.prompts_by_row(indices), encode)
        return
    # Worker processes need multiprocessing and its pool, which cost a sixth of `promptkit render`'s start-up: they
    # are imported when workers start (here, in start_method, _pickle and _start_worker).
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    automatic = method is None
    method = method or start_method()
    if method not in multiprocessing.get_all_start_methods():
        known = ", ".join(multiprocessing.get_all_start_methods())
        raise ConfigError(f"no start method {method!r} on this platform (it has: {known})", key="method")
    renderer.prepare()
    rows = renderer.test_rows
    # Workers read the rows themselves when they can by position (rows in memory, a line index, Parquet row groups);
    # from other files the parent reads them (with their shots) and sends them.
    by_position = not renderer.streaming or (isinstance(rows, FileRows) and rows.random_access)
    counted = by_position or renderer.progress is not None  # a file read by the parent is not counted only for a bar
    total = (len(rows) if indices is None else len(indices)) if counted else None
    workers, fewer = worker_count(workers, total)
    if fewer is not None:
        logger.warning("dataset %r: %s", renderer.dataset.abbr, fewer)
    if workers == 1:
        yield from _joined(renderer.prompts_by_row(indices), encode)
        return
    chunks = _Chunks(renderer.rows_with_shots(indices))
    tasks: Iterator[_Chunk] = iter(_positions(total or 0, indices) if by_position else chunks)
    global _job
    job = (renderer, encode)
    pickled = None if method == "fork" else _pickle(job, method, automatic)
    pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context(method), initializer=_start_worker, initargs=(pickled,)
    )
    try:
        _job = job if method == "fork" else None
        # The first tasks start every worker (forked ones before the progress bar starts its thread).
        pending = deque((pool.submit(_render_chunk, chunk, by_position), chunk) for chunk in islice(tasks, _IN_FLIGHT * workers))
        _job = None  # the workers have their copy; the parent needs none
        with task(f"rendering {renderer.dataset.abbr}", total, "rows", renderer.progress) as advance:
            while pending:
                result, chunk = pending.popleft()
                try:
                    outcome = result.result()
                except BrokenProcessPool:  # every chunk in flight is lost with the worker
                    raise _died(chunk, pending[-1][1] if pending else chunk) from None
                yield from _collect(outcome, renderer, advance)
                for chunk in islice(tasks, 1):
                    pending.append((pool.submit(_render_chunk, chunk, by_position), chunk))
        if chunks.failure is not None:  # the rows read before it are written first
            raise chunks.failure
    finally:
        _job = None
        pool.shutdown(wait=True, cancel_futures=True)
    renderer.report()


def _joined(rows: Iterator[list[RenderedPrompt]], encode: Encode) -> Iterator[str]:
    """The rows' text, a batch of rows (:data:`~promptkit.render.batch.BATCH_ROWS`, as they are rendered) joined into
    one string; the rows before one that cannot be read, rendered or encoded come first, then its error."""
    lines: list[str] = []
    try:
        for prompts in rows:
            lines.append(encode(prompts))
            if len(lines) == BATCH_ROWS:
                text, lines = "".join(lines), []
                yield text
    except Exception:
        if lines:
            yield "".join(lines)
        raise
    if lines:
        yield "".join(lines)


def _pickle(job: tuple[Renderer, Encode], method: str, automatic: bool) -> bytes:
    """The renderer and encoder pickled once for every worker (cloudpickle: a config file's functions travel by
    value); an error says what did not pickle and why it had to."""
    import pickle  # (see render_parallel)

    import cloudpickle  # only workers that start fresh need it

    try:
        return cloudpickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        why = f"this process runs other threads, so the workers start fresh ({method})" if automatic else f"workers started by {method!r}"
        raise ConfigError(
            f"{why} and need the renderer and encode to pickle, which they do not: {error}; render with one worker, "
            "or from a process with no other thread running",
            key="workers",
        ) from None


def _start_worker(pickled: bytes | None) -> None:
    """A worker's start: it leaves SIGINT to the parent, which stops the workers, ends on SIGTERM (not by the
    parent's handler, which a forked worker inherits), and unpickles its job if it was not forked with it (a failure
    is kept, to be each chunk's error)."""
    import pickle  # (see render_parallel)
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    global _job, _load_failure
    if pickled is None:
        return
    try:
        _job = pickle.loads(pickled)
    except Exception as error:  # a module the parent imported that this fresh interpreter cannot, say
        _load_failure = f"a worker process could not load the renderer: {type(error).__name__}: {error}"


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


def _collect(outcome: _Outcome, renderer: Renderer, advance: Callable[[int], None]) -> Iterator[str]:
    """A chunk's lines (its rows over max_seq_len noted on the renderer); a worker's error is raised here, after the
    lines of the rows before it."""
    lines, rows, over_limit, failure = outcome
    renderer.note_over_limit(over_limit)
    advance(rows)
    yield lines
    if failure is not None:
        cls, message, context = failure
        error = PromptkitError.__new__(cls or PromptkitError)  # the worker's class, without its own __init__'s signature
        PromptkitError.__init__(error, message, **context)
        raise error


def _died(first: _Chunk, last: _Chunk) -> PromptkitError:
    """A worker that ended abruptly, named by the rows in flight then (from ``first``'s first to ``last``'s last)."""
    return PromptkitError(
        f"a worker process ended abruptly while rows {_row_of(first[0])}-{_row_of(last[-1])} were being rendered "
        "(killed, out of memory, or a crash in native code); render them with --workers 1 to see what happens there"
    )


def _row_of(item: int | RowWithShots) -> int:
    """A chunk item's row: a position, or the index of a row read with its shots."""
    return item if isinstance(item, int) else item[0]


def _render_chunk(chunk: _Chunk, by_position: bool) -> _Outcome:
    """In a worker: the rows at the chunk's positions, read here (their shots as the renderer picks them), or the
    rows the parent read, with their shots."""
    if _load_failure is not None:
        return "", 0, [], (None, _load_failure, {})
    assert _job is not None  # inherited or unpickled when the worker started
    if by_position:
        return _render(_job[0].rows_with_shots(cast(Sequence[int], chunk)))
    return _render(iter(cast(list[RowWithShots], chunk)))


def _render(items: Iterator[RowWithShots]) -> _Outcome:
    """The rows' prompts encoded and joined, how many rows, the rows over max_seq_len, and the error of the row that
    failed (its class, message, context), if one did."""
    assert _job is not None  # inherited or unpickled when the worker started
    renderer, encode = _job
    lines: list[str] = []
    over_limit: list[int] = []
    done = 0
    failing = -1  # the row being read, rendered or encoded: the one an internal error names

    def taken() -> Iterator[RowWithShots]:  # (rows are rendered ahead of their lines: see Renderer.render_rows)
        nonlocal failing
        for item in items:
            failing = item[0]
            yield item

    try:
        for index, prompts in renderer.render_rows(taken()):
            ahead, failing = failing, index
            lines.append(encode(prompts))
            failing = ahead
            if any(prompt.over_limit for prompt in prompts):
                over_limit.append(index)
            done += 1
    except PromptkitError as error:
        return "".join(lines), done, over_limit, (type(error), error.message, error.context)
    except Exception as error:  # a defect, not bad input: reported with the row, as the CLI reports its own
        message = f"internal error in a worker process: {type(error).__name__}: {error} (run with --workers 1 --debug for the traceback)"
        return "".join(lines), done, over_limit, (None, message, {"row": failing} if failing >= 0 else {})
    return "".join(lines), done, over_limit, None
