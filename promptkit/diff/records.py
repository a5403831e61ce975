"""The records a diff compares: rendered by a :class:`Renderer` with each piece's span, or read from a ``render`` file.

A record is the JSON object ``promptkit render --spans`` writes
(:meth:`RenderedPrompt.to_record` plus ``spans``).  A prompt whose pieces
cannot be located gets no ``spans`` when the reason is its media parts (it is
then compared whole); a model whose template rewrites the text is an error that
names that template, since every prompt of the model would be compared whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from promptkit.errors import DatasetError, MetaTemplateError
from promptkit.meta_templates import ChatTemplateModel, CompletionModel, Model
from promptkit.meta_templates.spans import find_spans
from promptkit.pipeline import RenderedPrompt, Renderer
from promptkit.promptlist import PromptList, RoleItem

__all__ = ["Record", "Side", "prompt_id", "prompt_records", "read_records"]

Record = dict[str, Any]


@dataclass(frozen=True)
class Side:
    """One side of a diff: what it is (a file, a config and model), its records, and where each came from (line numbers)."""

    name: str
    records: Sequence[Record]
    lines: Sequence[int] | None = None

    def where(self, position: int) -> str:
        """Where record ``position`` is, for messages: ``FILE line N``, or the side's name."""
        return f"{self.name} line {self.lines[position]}" if self.lines is not None else self.name


def prompt_records(renderer: Renderer, indices: Sequence[int] | None = None, *, spans: bool = True) -> Iterator[Record]:
    """The records of test rows ``indices`` (default: all) of ``renderer``, each with its ``spans`` unless ``spans=False``."""
    model = renderer.model or CompletionModel(abbr=None)
    for prompt in renderer.prompts(indices):
        record = prompt.to_record()
        if spans and not _has_parts(prompt):
            mode = renderer.mode if prompt.mode == "calib" else prompt.mode  # calib prompts render in the task's mode
            if model.render(prompt.intermediate, mode) == prompt.prompt:  # not when run controls (prefill, thinking) edit it
                record["spans"] = [span.dump() for span in _spans(model, prompt, mode)]
        yield record


def _has_parts(prompt: RenderedPrompt) -> bool:
    intermediate = prompt.intermediate
    return isinstance(intermediate, PromptList) and any(type(item) is RoleItem and item.parts is not None for item in intermediate.items)


def _spans(model: Model, prompt: RenderedPrompt, mode: str) -> list[Any]:
    try:
        return find_spans(model, prompt.intermediate, mode)
    except MetaTemplateError as error:
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


def read_records(path: str | Path) -> Side:
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
    return Side(str(file), records, lines)
