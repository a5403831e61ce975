"""A rendered prompt and its record: what a model receives for one prompt spec of one test row, and what it was made of.

:class:`RenderedPrompt` is a frozen value, built once by keyword (:class:`~promptkit.records.maker.RecordMaker` is
the one place that builds them); what is added later — the token view — comes through ``_replace``.  It is a
``NamedTuple`` rather than a frozen dataclass because it is built once per prompt on the hot path: a frozen
dataclass of its 17 fields costs 3.2 µs to build, a named tuple 1.5 µs (measured; a simple prompt's whole render is
about 10 µs).  What every prompt of a dataset × model shares (the dataset and model names, the
hashes of the sources, the run's overrides) sits in one :class:`RecordContext`; what a prompt spec says (its mode,
label, turn) in its :class:`~promptkit.plan.spec.PromptSpec`.  :meth:`RenderedPrompt.to_record` is the JSON object
``promptkit render`` writes.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from promptkit.meta_templates.protocol import FinalInput
from promptkit.plan.spec import PromptSpec
from promptkit.promptlist import PromptList
from promptkit.records.fingerprints import Sources, fingerprint
from promptkit.records.token_view import TokenView
from promptkit.types import Row

__all__ = ["RECORD_KEYS", "RecordContext", "RenderedPrompt"]


@dataclass(frozen=True, slots=True)
class RecordContext:
    """What the records of one dataset × model share."""

    dataset: str
    model: str | None
    #: The hashes the prompts share (:class:`~promptkit.records.fingerprints.Sources`), for ``provenance``.
    sources: Sources | None = None
    #: The run-time overrides and run controls that shaped the prompts, as ``key=value`` lines (``None``: none).
    overrides: list[str] | None = None


class RenderedPrompt(NamedTuple):
    """One final prompt: what a model receives for test row ``index`` (one per label in ppl mode, per dialogue turn)."""

    context: RecordContext
    spec: PromptSpec
    index: int  # type: ignore[assignment]  # the field shadows tuple.index, which a record has no use for
    #: The final input: a completion string, or OpenAI-style chat messages.
    prompt: FinalInput
    #: The shots kept (all those picked unless some were dropped to fit ``max_seq_len``).
    ice_idx: list[int]
    #: The prompt's stable id: ``<dataset>/<reader_cfg.id_column value or index>``, then ``/<label>`` (ppl),
    #: ``/turn<k>`` (numbered dialogue turns), ``/calib`` (calibration prompts); unique within a dataset's prompts.
    id: str
    #: The template's output before the model stage: a ``str`` or a :class:`PromptList`.
    intermediate: str | PromptList = ""
    #: The answer the prompt is scored against: the row's output column (a dialogue turn: that turn's element).
    gold: Any = None
    #: What an engine request carries besides the prompt (:mod:`promptkit.records.requests`): ``model``,
    #: ``max_tokens``, ``stop``, sampling, ``n``; ``add_special_tokens`` for completion strings; the dataset's
    #: ``tools``/``tool_choice``. Shared by the prompts of a renderer: read-only.
    request: Mapping[str, Any] | None = None
    #: Fields the record carries at top level, from the plan (``continuation``, ``choices``, ``label_spans``,
    #: ``sc_size``, a chat model's ``tools``) and the prompt controls (``continue_final_message``, …).
    request_fields: Mapping[str, Any] | None = None
    #: The test row the prompt was rendered from, as loaded (before the control-token guard).
    row: Row | None = None
    #: The media parts a completion model's placeholders stand for, in order (multimodal templates only).
    media: list[dict[str, Any]] | None = None
    #: Whether shots were dropped to fit ``max_seq_len`` (``ice_idx`` holds the ones kept).
    truncated: bool = False
    #: Whether the prompt is longer than ``max_seq_len`` even with no shots (written as it is; the record says so).
    over_limit: bool = False
    #: Control tokens of the model that row text held and that were escaped in ``prompt`` (``special_token_policy='escape'``).
    escaped_tokens: list[str] | None = None
    #: The order of the row's options under circular evaluation (e.g. ``'BCDA'``: the text of option A shown as B …).
    permutation: str | None = None
    #: The final input as tokens (``Renderer(tokenizer=...)``): ids, each token's piece, the loss mask, the junction.
    tokens: TokenView | None = None

    def __repr__(self) -> str:
        label = "" if self.spec.label is None else f", label={self.spec.label!r}"
        return f"RenderedPrompt(id={self.id!r}, mode={self.spec.mode!r}{label}, ice_idx={self.ice_idx!r}, prompt={self.prompt!r})"

    @property
    def dataset(self) -> str:
        return self.context.dataset

    @property
    def model(self) -> str | None:
        return self.context.model

    @property
    def mode(self) -> str:
        """``'gen'``, ``'ppl'`` or ``'calib'``."""
        return self.spec.mode

    @property
    def label(self) -> Hashable | None:
        """The candidate label scored (ppl)."""
        return self.spec.label

    @property
    def turn(self) -> int | None:
        """The dialogue turn (0-based) of a numbered turn's prompt."""
        return self.spec.turn if self.spec.numbered else None

    @property
    def overrides(self) -> list[str] | None:
        return self.context.overrides

    @property
    def sources(self) -> Sources | None:
        return self.context.sources

    @property
    def fingerprint(self) -> str:
        """The hash of the final input (and its media), see :mod:`promptkit.records.fingerprints`."""
        return fingerprint(self.prompt, self.media)

    @property
    def provenance(self) -> dict[str, Any] | None:
        """Hashes of what the prompt was made from: template, meta template, chat template, tokenizer, shots, row."""
        sources = self.context.sources
        return sources.provenance(self.ice_idx, self.row) if sources is not None else None

    def to_record(self) -> dict[str, Any]:
        """The JSON object ``promptkit render`` writes."""
        spec = self.spec
        record: dict[str, Any] = {"dataset": self.context.dataset, "model": self.context.model, "index": self.index, "mode": spec.mode}
        if spec.numbered:
            record["turn"] = spec.turn
        record["prompt"] = self.prompt
        if self.media is not None:
            record["media"] = self.media
        record["ice_idx"] = self.ice_idx
        record["n_shots"] = len(self.ice_idx)
        record["truncated"] = self.truncated
        if self.over_limit:
            record["over_limit"] = True
        if self.escaped_tokens:
            record["escaped_tokens"] = self.escaped_tokens
        if spec.mode == "ppl" or spec.label is not None:
            record["label"] = spec.label
        if self.permutation is not None:
            record["permutation"] = self.permutation
        if self.request_fields:
            record.update(self.request_fields)
        record["id"] = self.id
        record["gold"] = self.gold
        record["request"] = dict(self.request) if self.request is not None else None
        record["fingerprint"] = fingerprint(self.prompt, self.media)
        provenance = self.provenance
        if provenance is not None and self.context.overrides:
            provenance["overrides"] = self.context.overrides
        record["provenance"] = provenance
        if self.tokens is not None:
            record.update(self.tokens.dump())
        return record


def _keys() -> tuple[str, ...]:
    """The keys every record has, in order (a record may add more: ``turn``, ``label``, ``media``, its fields, ...)."""
    example = RenderedPrompt(context=RecordContext("", None), spec=PromptSpec(), index=0, prompt="", ice_idx=[], id="")
    return tuple(example.to_record())


#: The keys every record has, in the order ``to_record`` writes them.
RECORD_KEYS: Sequence[str] = _keys()
