"""Config files (mmengine ``Config``) → promptkit objects: datasets and models."""

from promptkit.config.loader import DatasetSpec, build_dataset, build_model, load_datasets, load_models
from promptkit.config.registry import REGISTRY, resolve_type

__all__ = ["REGISTRY", "DatasetSpec", "build_dataset", "build_model", "load_datasets", "load_models", "resolve_type"]
