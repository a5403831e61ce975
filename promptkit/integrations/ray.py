"""Rendering on Ray Data: a ``Dataset`` of test rows in, a ``Dataset`` of records out (docs/ray.md).

The driver builds the :class:`~promptkit.Renderer`, which loads the pool and
picks every test row's shots once (:func:`prepare`); the prepared renderer is
put in Ray's object store once and each worker of an actor pool loads it once.
A row of the input carries its index in the renderer's test split
(``index_column``), which names its shots and its records' ``index``::

    ray.init()                                  # or ray.init("ray://head:10001")
    renderer = Renderer(load_datasets(config)[0], load_models(model_config)[0])
    records = render_dataset(rows_dataset(renderer), renderer)
    for row in records.iter_rows():             # in the order of the rows
        record = json.loads(row["record"])      # the line `promptkit render` writes

:class:`Preprocess` is the same rendering as the ``preprocess`` step of Ray
Data's LLM processor (``ray.data.llm.build_processor``): each row becomes the
``prompt`` or ``messages`` and ``sampling_params`` its stages read.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from promptkit.errors import ConfigError, PromptkitError, require
from promptkit.render.renderer import Renderer

if TYPE_CHECKING:
    import pyarrow
    import ray
    import ray.data

__all__ = ["Preprocess", "prepare", "records", "render_dataset", "rows_dataset", "sampling_params"]

#: Rows a worker renders per batch: large enough to amortise Ray's per-batch cost, small enough to stream.
BATCH_SIZE = 512

#: vLLM ``SamplingParams`` fields a record's ``request`` block may give (``max_tokens``, ``stop``, ...).
_SAMPLING_FIELDS = (
    "n",
    "temperature",
    "top_p",
    "top_k",
    "min_p",
    "seed",
    "max_tokens",
    "min_tokens",
    "stop",
    "stop_token_ids",
    "presence_penalty",
    "frequency_penalty",
    "repetition_penalty",
    "logprobs",
)


def _ray_data() -> Any:
    return require("ray.data", "ray", "promptkit.integrations.ray")


def prepare(renderer: Renderer) -> Renderer:
    """``renderer`` with everything a worker needs done once, here: rows loaded, shots picked, ppl labels listed.

    Returns the same renderer; pickling it carries the picked shots, so no worker retrieves again.
    """
    renderer.ice_indices  # noqa: B018 - a cached property: the one retrieval, on the driver
    if renderer.inferencer.scores_labels:
        renderer.labels  # noqa: B018 - derived from the whole test split, so the driver lists them once
    return renderer


def rows_dataset(renderer: Renderer, *, index_column: str = "index") -> ray.data.Dataset:
    """The renderer's test split as a Ray ``Dataset``: each row with its index in the split under ``index_column``."""
    ray_data = _ray_data()
    rows = renderer.test_rows
    if rows and index_column in rows[0]:
        raise ConfigError(
            f"the test rows already have a column {index_column!r}; pass another index_column to rows_dataset and render_dataset",
            key="index_column",
        )
    return ray_data.from_items([{**row, index_column: index} for index, row in enumerate(rows)])


def render_dataset(
    rows: ray.data.Dataset,
    renderer: Renderer,
    *,
    index_column: str = "index",
    batch_size: int = BATCH_SIZE,
    concurrency: int | None = None,
) -> ray.data.Dataset:
    """The records of ``rows`` (test rows with their index under ``index_column``), one column ``record``: the JSON line
    ``promptkit render`` writes (:meth:`RenderedPrompt.to_record`), in the order of ``rows``.

    ``concurrency`` is the number of workers (default: the cluster's CPUs). The order is kept by setting
    ``preserve_order`` on the returned dataset's own ``DataContext``. A row that fails stops the run with its
    :class:`~promptkit.PromptkitError`, which names the worker and the row and says what to do; :func:`records`
    raises it as itself, after the records of the rows before it.
    """
    ray = require("ray", "ray", "promptkit.integrations.ray")
    workers = concurrency or max(1, int(ray.cluster_resources().get("CPU", 1)))
    shared = ray.put(prepare(renderer))  # once: every worker loads the same prepared renderer from the object store
    rendered = rows.map_batches(
        _RenderBatch,
        fn_constructor_args=(shared, index_column),
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(min_size=1, max_size=workers),
    )
    # The returned dataset's own context (Ray copies it per dataset): records in the order of the rows, and a worker's
    # PromptkitError raised as itself rather than as the text of a UserCodeException.
    rendered.context.execution_options.preserve_order = True
    rendered.context.raise_original_map_exception = True
    return rendered


def records(dataset: ray.data.Dataset) -> Iterator[dict[str, Any]]:
    """The records of a :func:`render_dataset` result, in order; a worker's failure is raised as its PromptkitError."""
    try:
        for row in dataset.iter_rows():
            yield json.loads(row["record"])
    except Exception as error:  # noqa: BLE001 - Ray wraps the worker's error in its own classes; unwrap ours, re-raise the rest
        cause = _promptkit_cause(error)
        if cause is None:
            raise
        raise cause from None


def _promptkit_cause(error: BaseException) -> PromptkitError | None:
    """The PromptkitError a worker raised, out of the exceptions Ray wrapped it in (``RayTaskError``, ``UserCodeException``)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = getattr(current, "cause", None)  # RayTaskError keeps the worker's exception as .cause
        if isinstance(found, PromptkitError):
            return _plain(found)
        if isinstance(current, PromptkitError):
            return _plain(current)
        current = found if isinstance(found, BaseException) else current.__cause__ or current.__context__
    return None


def _plain(error: PromptkitError) -> PromptkitError:
    """A worker's error as its own class: Ray raises it as a subclass of both RayTaskError and the class, printing a traceback."""
    cls = next(base for base in type(error).__mro__ if base.__module__ == "promptkit.errors")
    plain = cls(error.message)
    plain.context = dict(error.context)
    return plain


class _RenderBatch:
    """A worker of the actor pool: the prepared renderer, loaded once, renders each batch of rows."""

    def __init__(self, shared: ray.ObjectRef[Renderer], index_column: str) -> None:
        import ray

        self.renderer: Renderer = ray.get(shared)
        self.index_column = index_column
        self.worker = f"{socket.gethostname()} pid {os.getpid()}"

    def __call__(self, batch: pyarrow.Table) -> dict[str, list[str]]:
        lines = [
            json.dumps(record, ensure_ascii=False) for row in batch.to_pylist() for record in _records(self.renderer, row, self.index_column, self.worker)
        ]
        return {"record": lines}


def _records(renderer: Renderer, row: dict[str, Any], index_column: str, worker: str) -> list[dict[str, Any]]:
    """The records of one input row, its errors naming the worker."""
    if index_column not in row:
        raise ConfigError(
            f"a row has no column {index_column!r}: each row needs its index in the test split (build the dataset with rows_dataset, "
            "or pass the column's name as index_column)",
            key="index_column",
            worker=worker,
        )
    index = row.pop(index_column)
    try:
        return [prompt.to_record() for prompt in renderer.render_given(index, row)]
    except PromptkitError as error:
        raise error.add_context(worker=worker) from None


def sampling_params(record: Mapping[str, Any], overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """vLLM ``SamplingParams`` for a record: the fields of its ``request`` block that vLLM reads, then ``overrides``.

    >>> sampling_params({"request": {"model": "Qwen/Qwen2.5-7B-Instruct", "max_tokens": 64, "stop": ["\\n\\n"]}}, {"temperature": 0})
    {'max_tokens': 64, 'stop': ['\\n\\n'], 'temperature': 0}
    """
    block = record.get("request")
    params = {key: block[key] for key in _SAMPLING_FIELDS if key in block} if isinstance(block, Mapping) else {}
    params.update(overrides or {})
    return params


class Preprocess:
    """The ``preprocess`` step of Ray Data's LLM processor: a test row (with ``index_column``) → what its stages read.

    A chat model's prompt becomes ``messages`` (Ray's chat template stage applies the model's template); a
    completion string — including a :class:`~promptkit.ChatTemplateModel`'s, its ``chat_template_kwargs`` such as
    ``enable_thinking`` already applied — becomes ``prompt`` (turn Ray's chat template stage off). Beside it:
    ``sampling_params`` (:func:`sampling_params` with ``overrides``) and ``record``, the record's JSON line, for
    the postprocess step. Generation only: a row must render to exactly one prompt.
    """

    def __init__(self, renderer: Renderer, *, index_column: str = "index", overrides: Mapping[str, Any] | None = None) -> None:
        if renderer.mode != "gen" or renderer.infer_mode is not None:
            raise ConfigError(
                f"the LLM processor generates one reply per row; this dataset renders {renderer.mode!r} prompts"
                + (" over dialogue turns" if renderer.infer_mode is not None else "")
                + ", several per row: use render_dataset",
                dataset=renderer.dataset.abbr,
            )
        self.renderer = prepare(renderer)
        self.index_column = index_column
        self.overrides = dict(overrides or {})
        self._worker: str | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"renderer": self.renderer, "index_column": self.index_column, "overrides": self.overrides}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _worker=None)

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        if self._worker is None:
            self._worker = f"{socket.gethostname()} pid {os.getpid()}"
        found = _records(self.renderer, dict(row), self.index_column, self._worker)
        record = found[0]
        if len(found) != 1 or record["mode"] != "gen":
            raise ConfigError(
                f"row {record['index']} renders {len(found)} prompts (modes {sorted({r['mode'] for r in found})}); the LLM processor "
                "takes one generation prompt per row: use render_dataset",
                worker=self._worker,
            )
        prompt = record["prompt"]
        request: dict[str, Any] = {"prompt": prompt} if isinstance(prompt, str) else {"messages": prompt}
        request["sampling_params"] = sampling_params(record, self.overrides)
        request["record"] = json.dumps(record, ensure_ascii=False)
        return request
