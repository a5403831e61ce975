"""The one registry behind ``type=``: an open one.

``type=`` takes, for each kind of config (template, retriever, inferencer,
dataset, model):

* a class — promptkit's own, or any class that implements the kind
  (subclasses the kind's base class: :class:`~promptkit.PromptTemplate`,
  :class:`~promptkit.Retriever`, :class:`~promptkit.Inferencer`,
  :class:`~promptkit.Model`; a dataset is any class with ``load(base_dir)``);
* an import string ``'my_pkg.retrievers:MyRetriever'``;
* a name: promptkit's own names, OpenCompass's dotted names by their last
  component (``'opencompass.openicl.icl_prompt_template.PromptTemplate'``),
  or a name a package registers in the ``promptkit.plugins`` entry-point
  group (``MyRetriever = "my_pkg.retrievers:MyRetriever"``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from promptkit import models
from promptkit.data.loaders import JsonlDataset, RowsDataset
from promptkit.errors import ConfigError, did_you_mean
from promptkit.formats import AdapterDataset, StandardSampleDataset, TaskSpecDataset, XpertFormatDataset
from promptkit.inferencers import GenInferencer, Inferencer, MultiTurnGenInferencer, PPLInferencer
from promptkit.meta_templates import Model
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
from promptkit.retrievers.base import Retriever
from promptkit.retrievers.embedded import EmbeddedShotsRetriever
from promptkit.templates import JinjaPromptTemplate, MMPromptTemplate, MultiTurnPromptTemplate, PromptTemplate
from promptkit.templates.messages_template import MessagesTemplate

__all__ = ["PLUGIN_GROUP", "REGISTRY", "resolve_type"]

#: The entry-point group third-party packages register their classes in.
PLUGIN_GROUP = "promptkit.plugins"


@runtime_checkable
class _Loads(Protocol):
    """What a dataset class implements: ``load(base_dir)`` returning the rows by split."""

    def load(self, base_dir: Path | None = None) -> Any: ...


#: kind -> {name -> class}
REGISTRY: dict[str, dict[str, type]] = {
    "template": {
        cls.__name__: cls for cls in (PromptTemplate, JinjaPromptTemplate, MMPromptTemplate, MultiTurnPromptTemplate, MessagesTemplate)
    },
    # OpenCompass's names; it registers only some of them (RandomRetriever only by class), promptkit all.
    "retriever": {
        cls.__name__: cls
        for cls in (
            ZeroRetriever,
            FixKRetriever,
            RandomRetriever,
            SlidingWindowRetriever,
            BM25Retriever,
            TopkRetriever,
            VotekRetriever,
            DPPRetriever,
            MDLRetriever,
            EmbeddedShotsRetriever,
        )
    },
    "inferencer": {"GenInferencer": GenInferencer, "PPLInferencer": PPLInferencer, "MultiTurnGenInferencer": MultiTurnGenInferencer},
    # Dataset formats (promptkit.formats): validated records, their own shots, default templates when infer_cfg is omitted.
    "dataset": {
        cls.__name__: cls
        for cls in (JsonlDataset, RowsDataset, StandardSampleDataset, TaskSpecDataset, XpertFormatDataset, AdapterDataset)
    },
    "model": {name: getattr(models, name) for name in models.__all__},
}

#: What a class of each kind must be, and how the error says it.
_BASES: Mapping[str, tuple[type, str]] = {
    "template": (PromptTemplate, "subclass promptkit.PromptTemplate"),
    "retriever": (Retriever, "subclass promptkit.Retriever and implement retrieve(pool, queries, reader)"),
    "inferencer": (Inferencer, "subclass promptkit.Inferencer"),
    "dataset": (_Loads, "have a load(base_dir) method returning the rows by split"),
    "model": (Model, "subclass promptkit.Model"),
}


def resolve_type(value: Any, kind: str, key: str) -> type:
    """The class ``value`` names for a config of ``kind`` ('template', 'retriever', …)."""
    known = REGISTRY[kind]
    if isinstance(value, type):
        # Another framework's class of the same name (OpenCompass's own PromptTemplate) stands for promptkit's.
        if not issubclass(value, _BASES[kind][0]) and value.__name__ in known:
            return known[value.__name__]
        return _checked(value, kind, key, f"type={value.__name__}")
    if not isinstance(value, str):
        raise ConfigError(f"type must be a class, a class name or an import string 'module:Class' (got {value!r})", key=key)
    if ":" in value:
        return _checked(_import(value, key), kind, key, f"type={value!r}")
    name = value.rsplit(".", 1)[-1]
    if name in known:
        return known[name]
    plugin = _plugins().get(name)
    if plugin is not None:
        return _checked(_import(plugin, key, f"the {PLUGIN_GROUP!r} entry point {name!r}"), kind, key, f"type={name!r}")
    hint = did_you_mean(name, [*known, *_plugins()])
    raise ConfigError(f"unknown {kind} type {name!r}{hint}; known {kind} types: {', '.join(sorted(known))}", key=key)


def _checked(cls: Any, kind: str, key: str, given: str) -> type:
    base, what = _BASES[kind]
    if not isinstance(cls, type) or not issubclass(cls, base):
        shown = cls.__name__ if isinstance(cls, type) else f"{cls!r} (a {type(cls).__name__}, not a class)"
        raise ConfigError(f"{given}: {shown} is not a {kind} class; a {kind} class must {what}", key=key)
    return cls


def _import(target: str, key: str, origin: str | None = None) -> Any:
    """``'module:Attr'`` → the object; errors say which import failed and from where the name came."""
    module_name, _, attribute = target.partition(":")
    where = f"{origin} ({target!r})" if origin else repr(target)
    if not module_name or not attribute:
        raise ConfigError(f"{where} is not an import string of the form 'module:Class'", key=key)
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # importing runs the plugin's own code: report whatever it raised
        raise ConfigError(f"cannot import module {module_name!r} for {where}: {type(error).__name__}: {error}", key=key) from error
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise ConfigError(f"module {module_name!r} has no {attribute!r} (from {where})", key=key)
        found = getattr(found, part)
    return found


@cache
def _plugins() -> dict[str, str]:
    """Names registered in the entry-point group, read once per process: name → import string."""
    return {entry.name: entry.value for entry in entry_points(group=PLUGIN_GROUP)}
