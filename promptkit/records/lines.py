"""The lines ``promptkit render`` writes: each prompt's record, or its line for an engine (``--as``), as JSON text.

:class:`RecordLines` turns a test row's prompts into text — records (with their spans when asked), or the lines of
an :class:`~promptkit.records.engines.EngineFormat`; it is a value, not a closure, so worker processes that start
fresh unpickle it.  :class:`JsonText` is the JSON encoder, built once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from promptkit.errors import PromptkitError
from promptkit.meta_templates.spans import Span
from promptkit.records.engines import EngineFormat
from promptkit.records.record import RenderedPrompt

__all__ = ["JsonText", "RecordLines", "engine_line"]


class SpanSource(Protocol):
    """Where a prompt's spans come from (a :class:`~promptkit.Renderer`)."""

    def spans(self, prompt: RenderedPrompt, row_prompts: Sequence[RenderedPrompt] = ()) -> list[Span]: ...


class JsonText:
    """``json.dumps(value, ensure_ascii=False)``, the same text, from an encoder made once instead of once per call.

    ``json.dumps`` with any argument builds a ``JSONEncoder`` and then, per call, its C encoder: a third of the cost of
    encoding a small record.  Here the C encoder (``json.encoder.c_make_encoder``) is built once with the arguments
    ``JSONEncoder(ensure_ascii=False)`` gives it; without the C accelerator, ``JSONEncoder.encode`` is reused.  It
    pickles as a new one (a worker started fresh builds its own).

    >>> JsonText()({"prompt": "é\\n", "ice_idx": [0, 1], "label": None}) == json.dumps({"prompt": "é\\n", "ice_idx": [0, 1], "label": None}, ensure_ascii=False)
    True
    """

    def __init__(self) -> None:
        self._encoder = json.JSONEncoder(ensure_ascii=False)
        make = getattr(json.encoder, "c_make_encoder", None)  # the C accelerator (not in typeshed; None without it)
        # The arguments JSONEncoder.iterencode passes for a one-shot encode (markers: the circular-reference check).
        self._chunks = None if make is None else make({}, self._encoder.default, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)

    def __call__(self, value: Any) -> str:
        if self._chunks is None or isinstance(value, str):  # no accelerator, or JSONEncoder.encode's own path for a bare string
            return self._encoder.encode(value)
        return "".join(self._chunks(value, 0))

    def __reduce__(self) -> tuple[type[JsonText], tuple[()]]:
        return JsonText, ()


@dataclass(frozen=True)
class RecordLines:
    """A test row's prompts as ``promptkit render`` writes them: records (with their spans when ``spans_of``, the
    renderer, is given) or the lines of an engine format; ``config`` names the dataset config in errors."""

    config: str
    spans_of: SpanSource | None
    engine: EngineFormat | None
    text: JsonText = field(default_factory=JsonText)

    def __call__(self, prompts: Sequence[RenderedPrompt]) -> str:
        lines = []
        for prompt in prompts:
            if self.engine is not None:
                lines.append(self.text(engine_line(self.config, self.engine, prompt)) + "\n")
                continue
            record = prompt.to_record()
            if self.spans_of is not None:
                record["spans"] = [span.dump() for span in self.spans_of.spans(prompt, prompts)]
            lines.append(self.text(record) + "\n")
        return "".join(lines)


def engine_line(config: str, writer: EngineFormat, prompt: RenderedPrompt) -> dict[str, Any]:
    """``prompt``'s line for the engine of ``--as``; an error names where the prompt is from."""
    try:
        return writer.line(prompt)
    except PromptkitError as error:
        raise error.add_context(config=config, dataset=prompt.dataset, model=prompt.model, row=prompt.index) from None
