"""Importing optional dependencies, with the install command when one is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from promptkit.errors import MissingDependencyError

__all__ = ["require"]


def require(module: str, extra: str, needed_by: str) -> ModuleType:
    """Import ``module``, or raise an error naming ``needed_by`` and ``pip install 'promptkit[extra]'``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingDependencyError(
            f"{needed_by} needs the optional package {module!r}, which is not installed; install it with "
            f"pip install 'promptkit[{extra}]'"
        ) from error
