"""Config files (mmengine ``Config``) → promptkit objects: datasets and models."""

from promptkit.frontends.opencompass.loader import DatasetSpec, build_dataset, build_model, load_datasets, load_models
from promptkit.frontends.opencompass.registry import REGISTRY, resolve_type

__all__ = ["REGISTRY", "DatasetSpec", "build_dataset", "build_model", "load_datasets", "load_models", "resolve_type"]
