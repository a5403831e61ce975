"""The one registry behind ``type=``: a class, or its name as a string.

A dotted name (``'opencompass.openicl.icl_prompt_template.PromptTemplate'``)
resolves by its last component, so configs keep working when only the
imports change.
"""

from __future__ import annotations

from typing import Any

from promptkit import models
from promptkit.data.loaders import JsonlDataset, RowsDataset
from promptkit.errors import ConfigError, did_you_mean
from promptkit.formats import AdapterDataset, StandardSampleDataset, TaskSpecDataset, XpertFormatDataset
from promptkit.inferencers import GenInferencer, MultiTurnGenInferencer, PPLInferencer
from promptkit.retrievers import (
    BM25Retriever,
    DPPRetriever,
    FixKRetriever,
    MDLRetriever,
    RandomRetriever,
    SlidingWindowRetriever,
    TopkRetriever,
    VotekRetriever,
    ZeroRetriever,
)
from promptkit.retrievers.embedded import EmbeddedShotsRetriever
from promptkit.templates import JinjaPromptTemplate, MMPromptTemplate, MultiTurnPromptTemplate, PromptTemplate
from promptkit.templates.messages_template import MessagesTemplate

__all__ = ["REGISTRY", "resolve_type"]

#: kind -> {name -> class}
REGISTRY: dict[str, dict[str, type]] = {
    "template": {
        "PromptTemplate": PromptTemplate,
        "JinjaPromptTemplate": JinjaPromptTemplate, "MMPromptTemplate": MMPromptTemplate, "MultiTurnPromptTemplate": MultiTurnPromptTemplate,
    },
    # OpenCompass's names; it registers only some of them (RandomRetriever only by class), promptkit all.
    "retriever": {
        cls.__name__: cls for cls in (
            ZeroRetriever,
            FixKRetriever,
            RandomRetriever,
            SlidingWindowRetriever,
            BM25Retriever,
            TopkRetriever,
            VotekRetriever,
            DPPRetriever,
            MDLRetriever,
        )
    },
    "inferencer": {"GenInferencer": GenInferencer, "PPLInferencer": PPLInferencer, "MultiTurnGenInferencer": MultiTurnGenInferencer},
    "dataset": {"JsonlDataset": JsonlDataset, "RowsDataset": RowsDataset},
    "model": {name: getattr(models, name) for name in models.__all__},
}

# Dataset formats (promptkit.formats): validated records, their own shots, default templates when infer_cfg is omitted.
REGISTRY["dataset"].update(
    StandardSampleDataset=StandardSampleDataset,
    TaskSpecDataset=TaskSpecDataset,
    XpertFormatDataset=XpertFormatDataset,
    AdapterDataset=AdapterDataset,
)
REGISTRY["template"]["MessagesTemplate"] = MessagesTemplate
REGISTRY["retriever"]["EmbeddedShotsRetriever"] = EmbeddedShotsRetriever


def resolve_type(value: Any, kind: str, key: str) -> type:
    """The class ``value`` names for a config of ``kind`` ('template', 'retriever', …)."""
    known = REGISTRY[kind]
    if isinstance(value, type):
        if value in known.values() or any(issubclass(value, cls) for cls in known.values()):
            return value
        name = value.__name__
    elif isinstance(value, str):
        name = value.rsplit(".", 1)[-1]
    else:
        raise ConfigError(f"type must be a class or a class name (got {value!r})", key=key)
    if name in known:
        return known[name]
    hint = did_you_mean(name, known)
    raise ConfigError(f"unknown {kind} type {name!r}{hint}; known {kind} types: {', '.join(sorted(known))}", key=key)
