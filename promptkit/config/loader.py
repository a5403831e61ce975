"""Loading dataset and model configs.

A dataset config file defines ``datasets = [dict(abbr, type, path, reader_cfg,
infer_cfg), ...]``; a model config file defines ``models = [dict(abbr, type,
meta_template, ...)]``.  Files are mmengine ``Config`` Python files, so
``read_base()`` inheritance works as in OpenCompass.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from promptkit.config.registry import resolve_type
from promptkit.data.loaders import JsonlDataset, RowsDataset
from promptkit.data.reader import ReaderConfig
from promptkit.errors import ConfigError, PromptkitError, check_keys, closest, did_you_mean
from promptkit.formats import AdapterDataset, FormatDataset
from promptkit.inferencers import Inferencer
from promptkit.media.policy import MediaPolicy
from promptkit.meta_templates import Model
from promptkit.retrievers.base import Retriever
from promptkit.templates import PromptTemplate

__all__ = ["DatasetSpec", "build_dataset", "build_model", "load_datasets", "load_models"]

_INFER_KEYS = ("ice_template", "prompt_template", "retriever", "inferencer")


@dataclass(frozen=True)
class DatasetSpec:
    """A dataset config, built: where rows come from and how prompts are assembled."""

    abbr: str
    loader: JsonlDataset | RowsDataset | FormatDataset | AdapterDataset
    reader: ReaderConfig
    ice_template: PromptTemplate | None
    prompt_template: PromptTemplate | None
    retriever: Retriever
    inferencer: Inferencer
    config_path: Path | None = None
    media: MediaPolicy = MediaPolicy()


def _read_config(path: str | Path) -> Any:
    from mmengine.config import Config

    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} not found", config=str(path))
    try:
        return Config.fromfile(str(path), format_python_code=False)
    except PromptkitError as error:
        raise error.add_context(config=str(path)) from None
    except Exception as error:  # a config file is user code: report whatever it raised, with the file
        raise ConfigError(f"cannot load config: {type(error).__name__}: {error}", config=str(path)) from error


def _entries(cfg: Any, key: str, path: Path) -> list[Mapping[str, Any]]:
    entries = cfg.get(key)
    if entries is None:
        # OpenCompass also collects every top-level `*_datasets` list.
        suffix = f"_{key}"
        found = [item for name, value in cfg.items() if name.endswith(suffix) and isinstance(value, list) for item in value]
        if not found:
            raise ConfigError(f"the config defines no {key!r} list (e.g. {key} = [dict(...)])", config=str(path))
        return found
    if not isinstance(entries, (list, tuple)):
        raise ConfigError(f"{key!r} must be a list of dicts (got {type(entries).__name__})", config=str(path))
    return list(entries)


def load_datasets(path: str | Path) -> list[DatasetSpec]:
    """Every dataset of a dataset config file."""
    path = Path(path)
    cfg = _read_config(path)
    return [build_dataset(entry, path) for entry in _entries(cfg, "datasets", path)]


def load_models(path: str | Path) -> list[Model]:
    """Every model of a model config file."""
    path = Path(path)
    cfg = _read_config(path)
    models = []
    for entry in _entries(cfg, "models", path):
        try:
            models.append(build_model(entry))
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
    cls = resolve_type(cfg["type"], kind, f"{where}type")
    kwargs = {k: v for k, v in cfg.items() if k != "type"}
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
        return cls(**kwargs)
    except PromptkitError as error:
        raise error.add_context(key=key or None) from None


def _example(kind: str) -> str:
    return {"template": "PromptTemplate", "retriever": "ZeroRetriever", "inferencer": "GenInferencer", "dataset": "JsonlDataset"}.get(
        kind, "CompletionModel"
    )


def build_model(cfg: Mapping[str, Any]) -> Model:
    """One ``models`` entry → a :class:`~promptkit.Model`."""
    model = _instantiate(cfg, "model", "")
    assert isinstance(model, Model)
    return model


def build_dataset(cfg: Mapping[str, Any], config_path: Path | None = None) -> DatasetSpec:
    """One ``datasets`` entry → a :class:`DatasetSpec`."""
    if not isinstance(cfg, Mapping):
        raise ConfigError(f"a datasets entry must be a dict (got {type(cfg).__name__})", config=_str(config_path))
    abbr = cfg.get("abbr") or "dataset"
    try:
        return _build_dataset(cfg, abbr, config_path)
    except PromptkitError as error:
        raise error.add_context(config=_str(config_path), dataset=abbr) from None


def _build_dataset(cfg: Mapping[str, Any], abbr: str, config_path: Path | None) -> DatasetSpec:
    loader_cfg = {k: v for k, v in cfg.items() if k not in ("abbr", "reader_cfg", "infer_cfg", "eval_cfg", "media")}
    loader = _instantiate(loader_cfg, "dataset", "")
    # A dataset format brings its own reader_cfg and infer_cfg, used where the config gives none.
    defaults = loader.default_config() if isinstance(loader, FormatDataset) else {}
    cfg = {**defaults, **cfg}
    for key in ("reader_cfg", "infer_cfg"):
        if key not in cfg:
            typo = closest(key, cfg)
            hint = f" (is {typo!r} a typo?)" if typo else ""
            raise ConfigError(f"the dataset has no {key}{hint}", key=key)
    reader = ReaderConfig.from_config(cfg["reader_cfg"])
    media = MediaPolicy.from_config(cfg.get("media"), config_path.parent if config_path else None)
    infer = cfg["infer_cfg"]
    if not isinstance(infer, Mapping):
        raise ConfigError(f"infer_cfg must be a dict (got {type(infer).__name__})", key="infer_cfg")
    check_keys(infer, _INFER_KEYS, "infer_cfg", key_prefix="infer_cfg.")
    templates = {key: _template(infer.get(key), f"infer_cfg.{key}") for key in ("ice_template", "prompt_template")}
    ice_template, prompt_template = templates["ice_template"], templates["prompt_template"]
    if ice_template is None and prompt_template is None:
        raise ConfigError("infer_cfg needs a prompt_template (or an ice_template carrying ice_token)", key="infer_cfg")
    if ice_template is not None and prompt_template is not None and prompt_template.ice_token is None:
        raise ConfigError(
            "infer_cfg has an ice_template, so prompt_template needs ice_token (e.g. ice_token='</E>') to mark where the shots go",
            key="infer_cfg.prompt_template.ice_token",
        )
    if ice_template is not None and prompt_template is None and ice_template.ice_token is None:
        raise ConfigError(
            "infer_cfg has only an ice_template, which then also renders the prompt: it needs ice_token (e.g. ice_token='</E>')",
            key="infer_cfg.ice_template.ice_token",
        )
    for key in ("retriever", "inferencer"):
        if key not in infer:
            example = "dict(type='ZeroRetriever')" if key == "retriever" else "dict(type='GenInferencer')"
            raise ConfigError(f"infer_cfg needs a {key}, e.g. {key}={example}", key=f"infer_cfg.{key}")
    retriever = _instantiate(infer["retriever"], "retriever", "infer_cfg.retriever")
    inferencer = _instantiate(infer["inferencer"], "inferencer", "infer_cfg.inferencer")
    return DatasetSpec(abbr, loader, reader, ice_template, prompt_template, retriever, inferencer, config_path, media)


def _template(cfg: Any, key: str) -> PromptTemplate | None:
    if cfg is None or isinstance(cfg, PromptTemplate):
        return cfg
    template = _instantiate(cfg, "template", key)
    assert isinstance(template, PromptTemplate)
    return template


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)
