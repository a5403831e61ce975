"""The seam between front ends and the stages: a dataset, as a front end hands it over.

A front end (a config source: OpenCompass/AISBench config files, :mod:`promptkit.frontends`) reads its files into
:class:`DatasetSpec` values; everything below — the plan, retrieval, templates, models, records — reads only these.
A spec names where the rows come from (``loader``, ``reader``), the templates, the retriever that picks shots, and
the inferencer: the plan vocabulary that says what each test row becomes (:mod:`promptkit.plan.inferencers`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from promptkit.controls import Controls
from promptkit.data.protocol import Dataset
from promptkit.data.reader import ReaderConfig
from promptkit.data.tools import Tools
from promptkit.media.policy import MediaPolicy
from promptkit.plan.inferencers import Inferencer
from promptkit.retrievers.base import Retriever
from promptkit.templates.protocol import Template

__all__ = ["DatasetSpec"]


@dataclass(frozen=True)
class DatasetSpec:
    """A dataset config, built: where rows come from and how prompts are assembled."""

    abbr: str
    loader: Dataset
    reader: ReaderConfig
    ice_template: Template | None
    prompt_template: Template | None
    retriever: Retriever
    inferencer: Inferencer
    config_path: Path | None = None
    media: MediaPolicy = MediaPolicy()
    #: ``infer_cfg``'s keys besides the templates, retriever and inferencer (``max_out_len`` …): runtime settings, kept.
    infer_settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: The dataset's ``eval_cfg`` (evaluators, postprocessors), kept as the config gives it; promptkit does not evaluate.
    eval_cfg: Mapping[str, Any] | None = None
    #: The dataset's level of the prompt controls: ``infer_cfg``'s ``thinking``, ``chat_template_kwargs``, ``shots``, ``system_prompt``.
    controls: Controls = field(default_factory=Controls)
    #: The run-time overrides applied to the config (``load_datasets(..., overrides=...)``), as ``key=value`` lines.
    overrides: tuple[str, ...] = ()

    #: The tools the prompts offer (``tools=dict(...)``, :mod:`promptkit.data.tools`); ``None``: no tools.
    tools: Tools | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Read-only mapping proxies do not pickle: they travel as dicts, with their positions, and are wrapped again on load.
        values = [getattr(self, item.name) for item in fields(self)]
        proxied = tuple(i for i, value in enumerate(values) if isinstance(value, MappingProxyType))
        return _unpickle_spec, (proxied, *(dict(value) if i in proxied else value for i, value in enumerate(values)))


def _unpickle_spec(proxied: tuple[int, ...], *values: Any) -> DatasetSpec:
    restored: list[Any] = [MappingProxyType(value) if i in proxied else value for i, value in enumerate(values)]
    return DatasetSpec(*restored)
