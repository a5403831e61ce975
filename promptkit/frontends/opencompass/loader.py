"""Loading dataset and model configs.

A dataset config file defines ``datasets = [dict(abbr, type, path, reader_cfg,
infer_cfg), ...]``; a model config file defines ``models = [dict(abbr, type,
meta_template, ...)]``.  Files are mmengine ``Config`` Python files, so
``read_base()`` inheritance works as in OpenCompass, and so do the files'
OpenCompass and AISBench imports (:mod:`promptkit.frontends.opencompass.engine_imports`).
What promptkit does not use is kept and ignored, as OpenCompass ignores it:
``eval_cfg`` (:attr:`DatasetSpec.eval_cfg`) and ``infer_cfg``'s other keys
(:attr:`DatasetSpec.infer_settings`, e.g. ``max_out_len``).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from promptkit.chat_templates.folders import ModelFolders
from promptkit.controls import CONTROL_KEYS, Controls
from promptkit.data.circular import Circular
from promptkit.data.protocol import Dataset
from promptkit.data.reader import ReaderConfig
from promptkit.data.sources.stdin import names_stdin
from promptkit.data.tools import Tools
from promptkit.errors import ConfigError, PromptkitError, check_keys, closest, did_you_mean
from promptkit.formats import AdapterDataset, FormatDataset
from promptkit.frontends.opencompass.engine_imports import Foreign
from promptkit.frontends.opencompass.overrides import Overrides
from promptkit.frontends.opencompass.reading import read_entries
from promptkit.frontends.opencompass.registry import OUT_OF_SCOPE, REGISTRY, lacking, resolve_type
from promptkit.frontends.opencompass.sources import (
    CircularDataset,
    RepeatedDataset,
    RowsFileDataset,
    RowSource,
    StdinRowsDataset,
    engine_dataset,
    repetition,
)
from promptkit.media.policy import MediaPolicy
from promptkit.meta_templates import Model, ModelBase
from promptkit.plan.dataset import DatasetSpec
from promptkit.templates.protocol import Template

__all__ = ["DatasetSpec", "RowSource", "build_dataset", "build_model", "load_datasets", "load_models"]

_INFER_KEYS = ("ice_template", "prompt_template", "retriever", "inferencer")


def load_datasets(
    path: str | Path,
    *,
    data_root: str | Path | None = None,
    rows: str | Path | None = None,
    overrides: Overrides | Sequence[str] | None = None,
) -> list[DatasetSpec]:
    """Every dataset of a dataset config file.

    ``data_root`` is the folder OpenCompass's dataset classes read their data
    from (default: ``$COMPASS_DATA_CACHE``); ``rows``, a data file (any format promptkit reads; ``'-'`` or
    ``'/dev/stdin'``: JSON Lines on standard input, read once), feeds
    every dataset instead of its own loader (each keeps its reader_cfg and
    infer_cfg).  ``overrides`` (``['infer_cfg.inferencer.max_out_len=512']`` or an
    :class:`~promptkit.frontends.opencompass.overrides.Overrides`) edit every entry before it is built; each spec records them.
    """
    path = Path(path)
    source = RowSource(data_root=None if data_root is None else Path(data_root), rows=_rows_source(rows))
    edits = Overrides.of(overrides)
    if not edits:
        return [build_dataset(entry, path, source) for entry in read_entries(path, "datasets")]
    specs = []
    for entry in read_entries(path, "datasets"):
        try:
            edited, applied = edits.apply(entry) if isinstance(entry, Mapping) else (entry, ())
        except PromptkitError as error:
            raise error.add_context(config=str(path), dataset=_dataset_abbr(entry)) from None
        specs.append(replace(build_dataset(edited, path, source), overrides=applied))
    return specs


def _rows_source(rows: str | Path | None) -> Path | StdinRowsDataset | None:
    """``rows=``: a data file, or standard input (``-``, ``/dev/stdin``: one reader, read once, for every dataset)."""
    if rows is None:
        return None
    return StdinRowsDataset() if names_stdin(rows) else Path(rows)


def load_models(path: str | Path, *, model_paths: Mapping[str, str] | None = None) -> list[Model]:
    """Every model of a model config file.

    Model folders the config names (``path``, ``tokenizer_path``) are looked for relative to the working directory,
    then to the config file's folder, then in ``model_paths`` (hub id → folder: ``--model-path``) and the Hugging
    Face cache (:class:`~promptkit.chat_templates.folders.ModelFolders`).
    """
    path = Path(path)
    folders = ModelFolders(path.parent, dict(model_paths or {}))
    models = []
    for entry in read_entries(path, "models"):
        try:
            models.append(build_model(entry, folders))
        except PromptkitError as error:
            raise error.add_context(config=str(path), model=entry.get("abbr") if isinstance(entry, Mapping) else None) from None
    return models


def _instantiate(cfg: Any, kind: str, key: str) -> Any:
    """``dict(type=X, **kwargs)`` → ``X(**kwargs)``, with config-worthy errors."""
    where = f"{key}." if key else ""
    if not isinstance(cfg, Mapping):
        raise ConfigError(f"{key or kind} must be a dict with a 'type' (got {cfg!r})", key=key or None)
    if "type" not in cfg:
        raise ConfigError(f"{key or kind} needs a 'type' (e.g. type='{_example(kind)}')", key=f"{where}type")
    if isinstance(cfg["type"], Foreign):
        raise ConfigError(_not_implemented(cfg["type"], kind), key=f"{where}type")
    cls = resolve_type(cfg["type"], kind, f"{where}type")
    kwargs = {k: v for k, v in cfg.items() if k != "type"}
    if kind == "template":  # a template made of templates (TaskTypeTemplate) gets them built
        for name in getattr(cls, "template_keywords", ()):
            if name in kwargs:
                kwargs[name] = _templates_in(kwargs[name], f"{where}{name}")
    params = inspect.signature(cls).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    if not takes_any:
        for name in kwargs:
            if name not in params:
                hint = did_you_mean(name, params)
                raise ConfigError(f"{cls.__name__} has no parameter {name!r}{hint}; it takes {list(params)}", key=f"{where}{name}")
    missing = [
        name
        for name, p in params.items()
        if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and name not in kwargs
    ]
    if missing:
        raise ConfigError(f"{cls.__name__} needs {missing[0]!r}", key=f"{where}{missing[0]}")
    try:
        built = cls(**kwargs)
    except PromptkitError as error:
        raise error.add_context(key=key or None) from None
    lacks = lacking(built, kind)
    if lacks:
        raise ConfigError(f"{cls.__name__} does not implement the {kind} protocol: it has no {', '.join(lacks)}", key=f"{where}type")
    return built


#: What to do instead of a class of each kind that promptkit does not implement.
_INSTEAD = {
    "template": "write the prompt with PromptTemplate (or give type= a class that implements promptkit.templates.protocol.Template)",
    "retriever": "use one of promptkit's retrievers ({known}) or a subclass of promptkit.Retriever",
    "inferencer": "promptkit's inferencers are {known}",
    "model": "promptkit's model classes are {known}",
}


def _not_implemented(foreign: Foreign, kind: str) -> str:
    """The one line for an engine's class that promptkit does not implement, used as a ``type=``."""
    refused = OUT_OF_SCOPE.get(kind, {}).get(foreign.name)
    if refused is not None:
        return refused
    instead = _INSTEAD.get(kind, "see docs/compat.md#porting").format(known=", ".join(sorted(REGISTRY.get(kind, ()))))
    return f"{foreign.name} (from {foreign.module}) is not a {kind} class promptkit implements: {instead}"


def _example(kind: str) -> str:
    return {"template": "PromptTemplate", "retriever": "ZeroRetriever", "inferencer": "GenInferencer", "dataset": "JsonlDataset"}.get(
        kind, "CompletionModel"
    )


def build_model(cfg: Mapping[str, Any], model_folders: ModelFolders | None = None) -> Model:
    """One ``models`` entry → a :class:`~promptkit.Model`; ``model_folders`` (where the folders it names are looked for)
    is given to a class that takes it (every :class:`~promptkit.ModelBase`)."""
    if not isinstance(cfg, Mapping):
        raise ConfigError(f"a models entry must be a dict with a 'type' (got {type(cfg).__name__}: {cfg!r:.80})")
    if "model_folders" in cfg:
        raise ConfigError("model_folders is not a config key: the loader sets it; map hub ids to folders with --model-path", key="model_folders")
    kind = cfg.get("type")
    cls = resolve_type(kind, "model", "type") if kind is not None and not isinstance(kind, Foreign) else None
    if model_folders is not None and cls is not None and (issubclass(cls, ModelBase) or "model_folders" in inspect.signature(cls).parameters):
        cfg = {**cfg, "model_folders": model_folders}
    model: Model = _instantiate(cfg, "model", "")
    return model


def build_dataset(cfg: Mapping[str, Any], config_path: Path | None = None, source: RowSource | None = None) -> DatasetSpec:
    """One ``datasets`` entry → a :class:`DatasetSpec` (``source``: ``data_root`` and ``rows``, see :func:`load_datasets`)."""
    if not isinstance(cfg, Mapping):
        raise ConfigError(f"a datasets entry must be a dict (got {type(cfg).__name__})", config=_str(config_path))
    abbr = _dataset_abbr(cfg)
    try:
        return _build_dataset(cfg, abbr, config_path, source or RowSource())
    except PromptkitError as error:
        raise error.add_context(config=_str(config_path), dataset=abbr) from None


def _dataset_abbr(cfg: Mapping[str, Any]) -> str:
    """The dataset's name in records: ``abbr``; without one, as OpenCompass names it, ``path`` (and ``_name``) with
    ``/`` as ``_``; ``'dataset'`` when there is no string path either."""
    if cfg.get("abbr"):
        return str(cfg["abbr"])
    path = cfg.get("path")
    if not isinstance(path, str):
        return "dataset"
    name = cfg.get("name")
    return (path + (f"_{name}" if isinstance(name, str) else "")).replace("/", "_")


#: A datasets entry's keys that are not its loader's.
_NOT_LOADER_KEYS = ("abbr", "reader_cfg", "infer_cfg", "eval_cfg", "media", "circular", "tools")


def _loader(cfg: Mapping[str, Any], source: RowSource) -> Dataset:
    """Where the rows come from: ``--rows``, else the ``type=`` class (OpenCompass's ``n`` applied around it)."""
    loader_cfg = {k: v for k, v in cfg.items() if k not in _NOT_LOADER_KEYS}
    kind = loader_cfg.get("type")
    n = 1
    if not (isinstance(kind, type) and issubclass(kind, (FormatDataset, AdapterDataset))):
        # n and k are OpenCompass's BaseDataset's, around every dataset class's load(); a format dataset has neither.
        n = repetition(loader_cfg)
        loader_cfg = {k: v for k, v in loader_cfg.items() if k not in ("n", "k")}
    loader: Dataset
    if isinstance(source.rows, StdinRowsDataset):
        loader = source.rows
    elif source.rows is not None:
        loader = RowsFileDataset(source.rows.resolve())
    elif isinstance(kind, Foreign):
        loader = engine_dataset(kind, {k: v for k, v in loader_cfg.items() if k != "type"}, source.data_root)
    else:
        if source.data_root is not None and "type" in loader_cfg and _takes_data_root(loader_cfg["type"]):
            loader_cfg["data_root"] = source.data_root
        loader = _instantiate(loader_cfg, "dataset", "")
    return loader if n == 1 else RepeatedDataset(loader, n)


def _takes_data_root(kind: Any) -> bool:
    try:
        cls = resolve_type(kind, "dataset", "type")
    except ConfigError:
        return False  # _instantiate reports it
    return "data_root" in inspect.signature(cls).parameters


def _build_dataset(cfg: Mapping[str, Any], abbr: str, config_path: Path | None, source: RowSource) -> DatasetSpec:
    loader = _loader(cfg, source)
    # A dataset format brings its own reader_cfg and infer_cfg, used where the config gives none.
    defaults = loader.default_config() if isinstance(loader, FormatDataset) else {}
    if isinstance(loader, FormatDataset) and loader.task_templates and "infer_cfg" in cfg:
        raise ConfigError(
            "task_templates choose among the format's default templates, and the dataset gives its own infer_cfg: drop one, "
            "or choose by task type in infer_cfg (prompt_template=dict(type='TaskTypeTemplate', templates=..., default=...))",
            key="task_templates",
        )
    cfg = {**defaults, **cfg}
    for key in ("reader_cfg", "infer_cfg"):
        if key not in cfg:
            typo = closest(key, cfg)
            hint = f" (is {typo!r} a typo?)" if typo else ""
            raise ConfigError(f"the dataset has no {key}{hint}", key=key)
    reader = ReaderConfig.from_config(cfg["reader_cfg"])
    if cfg.get("circular") is not None:
        loader = CircularDataset(loader, Circular.from_config(cfg["circular"]), reader.test_split)
    media = MediaPolicy.from_config(cfg.get("media"), config_path.parent if config_path else None)
    infer = cfg["infer_cfg"]
    if not isinstance(infer, Mapping):
        raise ConfigError(f"infer_cfg must be a dict (got {type(infer).__name__})", key="infer_cfg")
    # Other keys are runtime settings (OpenCompass ignores them too); one close to a key promptkit reads is a typo.
    read = (*_INFER_KEYS, *CONTROL_KEYS)
    check_keys({key: None for key in infer if key in read or closest(key, read)}, read, "infer_cfg", key_prefix="infer_cfg.")
    templates = {key: _template(infer.get(key), f"infer_cfg.{key}") for key in ("ice_template", "prompt_template")}
    ice_template, prompt_template = templates["ice_template"], templates["prompt_template"]
    if ice_template is None and prompt_template is None:
        raise ConfigError("infer_cfg needs a prompt_template (or an ice_template, which then also renders the prompt)", key="infer_cfg")
    if ice_template is not None and prompt_template is not None and prompt_template.ice_token is None:
        raise ConfigError(
            "infer_cfg has an ice_template, so prompt_template needs ice_token (e.g. ice_token='</E>') to mark where the shots go",
            key="infer_cfg.prompt_template.ice_token",
        )
    for key in ("retriever", "inferencer"):
        if key not in infer:
            example = "dict(type='ZeroRetriever')" if key == "retriever" else "dict(type='GenInferencer')"
            raise ConfigError(f"infer_cfg needs a {key}, e.g. {key}={example}", key=f"infer_cfg.{key}")
    retriever = _instantiate(infer["retriever"], "retriever", "infer_cfg.retriever")
    inferencer = _instantiate(infer["inferencer"], "inferencer", "infer_cfg.inferencer")
    settings = MappingProxyType({key: value for key, value in infer.items() if key not in read})
    eval_cfg = cfg.get("eval_cfg")
    try:
        controls = Controls.from_config(infer)
    except PromptkitError as error:
        error.context["key"] = f"infer_cfg.{error.context['key']}"  # Controls names every key it refuses
        raise
    tools = Tools.from_config(cfg["tools"]) if cfg.get("tools") is not None else None
    return DatasetSpec(
        abbr, loader, reader, ice_template, prompt_template, retriever, inferencer, config_path, media, settings,
        MappingProxyType(dict(eval_cfg)) if isinstance(eval_cfg, Mapping) else eval_cfg, controls, tools=tools,
    )


def _templates_in(value: Any, key: str) -> Any:
    """A template keyword's value, built: a template config, or a dict of them by name."""
    if isinstance(value, Mapping) and "type" not in value:
        return {name: _template(item, f"{key}.{name}") for name, item in value.items()}
    return _template(value, key)


def _template(cfg: Any, key: str) -> Template | None:
    if cfg is None or isinstance(cfg, Template):
        return cfg
    template: Template = _instantiate(cfg, "template", key)
    return template


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)
