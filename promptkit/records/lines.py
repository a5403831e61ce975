"""The lines ``promptkit render`` writes: each prompt's record, or its line for an engine (``--as``), as JSON text.

:class:`RecordLines` turns a test row's prompts into text — records (with their spans when asked), or the lines of
an :class:`~promptkit.records.engines.EngineFormat`; it is a value, not a closure, so worker processes that start
fresh unpickle it.  :class:`~promptkit.records.json_text.JsonText` is the JSON encoder, built once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from promptkit.errors import PromptkitError
from promptkit.meta_templates.spans import Span
from promptkit.records.engines import EngineFormat
from promptkit.records.json_text import JsonText, NonFinite
from promptkit.records.record import RenderedPrompt

__all__ = ["RecordLines", "engine_line"]


class SpanSource(Protocol):
    """Where a prompt's spans come from (a :class:`~promptkit.Renderer`)."""

    def spans(self, prompt: RenderedPrompt, row_prompts: Sequence[RenderedPrompt] = ()) -> list[Span]: ...


@dataclass(frozen=True)
class RecordLines:
    """A test row's prompts as ``promptkit render`` writes them: records (with their spans when ``spans_of``, the
    renderer, is given) or the lines of an engine format, as strict JSON (NaN and Infinity as null, noted in
    ``non_finite``); ``config`` names the dataset config in errors."""

    config: str
    spans_of: SpanSource | None
    engine: EngineFormat | None
    non_finite: NonFinite = field(default_factory=NonFinite)
    text: JsonText = field(default_factory=JsonText)

    def __call__(self, prompts: Sequence[RenderedPrompt]) -> str:
        lines = []
        nulls: list[str] = []
        text, engine = self.text, self.engine
        for prompt in prompts:
            if engine is not None:
                try:
                    lines.append(engine.text(prompt, text, nulls))
                except PromptkitError as error:
                    raise _located(error, self.config, prompt) from None
            else:
                value = prompt.to_record()
                if self.spans_of is not None:
                    value["spans"] = [span.dump() for span in self.spans_of.spans(prompt, prompts)]
                lines.append(text(value, nulls) + "\n")
            if nulls:
                self.non_finite.note(prompt.id, prompt.model, nulls.copy())
                nulls.clear()
        return lines[0] if len(lines) == 1 else "".join(lines)


def engine_line(config: str, writer: EngineFormat, prompt: RenderedPrompt) -> dict[str, Any]:
    """``prompt``'s line for the engine of ``--as``; an error names where the prompt is from."""
    try:
        return writer.line(prompt)
    except PromptkitError as error:
        raise _located(error, config, prompt) from None


def _located(error: PromptkitError, config: str, prompt: RenderedPrompt) -> PromptkitError:
    return error.add_context(config=config, dataset=prompt.dataset, model=prompt.model, row=prompt.index)
