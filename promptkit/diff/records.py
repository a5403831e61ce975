"""The records a diff compares: rendered by a :class:`Renderer` with each piece's span, or read from a ``render`` file.

A record is the JSON object ``promptkit render --spans`` writes
(:meth:`RenderedPrompt.to_record` plus ``spans``).  A prompt whose pieces
cannot be located gets no ``spans`` when the reason is its media parts, or the
private-use characters the span markers use in its text (it is then compared whole); a model whose template rewrites the text is an error that
names that template, since every prompt of the model would be compared whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, DatasetError, MetaTemplateError, PromptkitError
from promptkit.frontends import load_datasets
from promptkit.frontends.opencompass import load_models
from promptkit.meta_templates import ChatTemplateModel, CompletionModel, Model
from promptkit.promptlist import PromptList, RoleItem
from promptkit.records.record import RenderedPrompt
from promptkit.render.renderer import Renderer

__all__ = ["Record", "RecordSet", "config_records", "prompt_id", "prompt_records", "read_records"]

Record = dict[str, Any]


@dataclass(frozen=True)
class RecordSet:
    """One side of a diff: what it is (a file, a config and model), its records, and where each came from."""

    name: str
    records: Sequence[Record]
    #: Where each record is, for messages (``FILE line N``); ``None``: the set's name says it.
    places: Sequence[str] | None = None

    def where(self, position: int) -> str:
        """Where record ``position`` is, for messages."""
        return self.places[position] if self.places is not None else self.name


def config_records(
    dataset_configs: Sequence[str | Path],
    model_configs: Sequence[str | Path] = (),
    *,
    dataset: str | None = None,
    data_root: str | Path | None = None,
    rows: Sequence[str] | None = None,
    indices: Callable[[Renderer], Sequence[int] | None] | None = None,
    spans: bool = True,
    model_paths: Mapping[str, str] | None = None,
) -> list[Record]:
    """The records of every dataset of ``dataset_configs`` (``dataset``: those whose abbr matches this glob) for each model
    of ``model_configs`` (none: a completion model with no meta template); ``data_root`` and ``rows`` are where the
    datasets read their rows (as ``--data-root`` and ``--rows``); ``indices`` picks each renderer's rows; ``model_paths``:
    where models named by hub id are (as ``--model-path``)."""
    datasets = [spec for path in dataset_configs for spec in load_datasets(path, data_root=data_root, rows=rows)]
    if dataset is not None:
        chosen = [spec for spec in datasets if spec.abbr is not None and fnmatchcase(spec.abbr, dataset)]
        if not chosen:
            names = ", ".join(repr(spec.abbr) for spec in datasets)
            raise ConfigError(f"no dataset abbr matches {dataset!r}; the configs have {names}")
        datasets = chosen
    models: list[Model | None] = [model for path in model_configs for model in load_models(path, model_paths=model_paths)] or [None]
    records: list[Record] = []
    for model in models:
        for spec in datasets:
            renderer = Renderer(spec, model)
            try:
                picked = indices(renderer) if indices is not None else None
            except PromptkitError as error:
                raise error.add_context(config=str(spec.config_path or ""), dataset=spec.abbr) from None
            records += prompt_records(renderer, picked, spans=spans)
    return records


def prompt_records(renderer: Renderer, indices: Sequence[int] | None = None, *, spans: bool = True) -> Iterator[Record]:
    """The records of test rows ``indices`` (default: all) of ``renderer``, each with its ``spans`` unless ``spans=False``
    (the spans ``promptkit render --spans`` writes: :meth:`Renderer.spans`)."""
    model = renderer.model or CompletionModel(abbr=None)
    for prompts in renderer.prompts_by_row(indices):
        for prompt in prompts:
            record = prompt.to_record()
            if spans and not _has_parts(prompt) and not _has_markers(prompt.prompt):
                mode = renderer.mode if prompt.mode == "calib" else prompt.mode  # calib prompts render in the task's mode
                if model.render(prompt.intermediate, mode) == prompt.prompt:  # not when run controls (prefill, thinking) edit it
                    record["spans"] = [span.dump() for span in _spans(renderer, model, prompt, prompts)]
            yield record


def _has_parts(prompt: RenderedPrompt) -> bool:
    intermediate = prompt.intermediate
    return isinstance(intermediate, PromptList) and any(type(item) is RoleItem and item.parts is not None for item in intermediate.items)


def _has_markers(final: Any) -> bool:
    """Whether the final input holds the private-use characters :func:`find_spans` marks pieces with (then: no spans)."""
    text = final if isinstance(final, str) else json.dumps(final, ensure_ascii=False)
    return "\ue000" in text or "\ue001" in text


def _spans(renderer: Renderer, model: Model, prompt: RenderedPrompt, row: list[RenderedPrompt]) -> list[Any]:
    try:
        return renderer.spans(prompt, row)
    except MetaTemplateError as error:  # the marked copy renders to other text or other messages: the template rewrote it
        raise MetaTemplateError(
            f"the pieces of prompt {prompt_id(prompt.to_record())!r} cannot be placed in its final input: {_rewriter(model)} "
            "rewrites their text (beyond trimming its ends); compare the final inputs whole with --no-spans",
            dataset=prompt.dataset,
            model=prompt.model,
            row=prompt.index,
        ) from error


def _rewriter(model: Model) -> str:
    """Which template of ``model`` turns the PromptList's texts into the final input."""
    if isinstance(model, ChatTemplateModel):
        origin = model.chat_template.origin
        return "its chat template" + ("" if origin == "inline" else f" (from {origin})")
    return "its meta template"


def prompt_id(record: Mapping[str, Any]) -> str:
    """The record's ``id``; a record written before ids: ``<dataset>/<index>``, then ``/calib``, ``/<label>``, ``/turn<k>``."""
    given = record.get("id")
    if isinstance(given, str) and given:
        return given
    out = f"{record.get('dataset')}/{record.get('index')}"
    if record.get("mode") == "calib":
        out += "/calib"
    if record.get("label") is not None:
        out += f"/{record['label']}"
    if record.get("turn") is not None:
        out += f"/turn{record['turn']}"
    return out


def read_records(path: str | Path) -> RecordSet:
    """The records of a ``promptkit render`` JSON Lines file (blank lines skipped), each checked for a ``prompt``."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(f"records file {file} not found", file=str(file)) from None
    except UnicodeDecodeError as error:
        raise DatasetError(f"not UTF-8 text ({error.reason} at byte {error.start}); give a file `promptkit render` wrote", file=str(file)) from None
    records: list[Record] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DatasetError(f"not a JSON object ({error.msg}); give a file `promptkit render` wrote", file=str(file), line=number) from None
        if not isinstance(record, dict) or "prompt" not in record:
            raise DatasetError("not a prompt record (no 'prompt' key); give a file `promptkit render` wrote", file=str(file), line=number)
        records.append(record)
        lines.append(number)
    if not records:
        raise DatasetError("the file holds no records", file=str(file))
    return RecordSet(str(file), records, [f"{file} line {number}" for number in lines])
