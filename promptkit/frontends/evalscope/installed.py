"""Registered EvalScope benchmarks promptkit does not read natively: EvalScope's own adapter class, when it is installed.

EvalScope 1.x keeps an index of its benchmarks (``evalscope/benchmarks/_index.json``: name → the module that
registers it).  :func:`installed_benchmark` reads the index without importing anything, imports only that module
(which imports ``evalscope`` itself, but no other adapter module) and returns a copy of its declaration: promptkit
then runs the adapter's prompt hooks on rows it reads itself.  :func:`registered_names` lists the index, for messages.
"""

from __future__ import annotations

import copy
import importlib
import importlib.machinery
import json
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError

__all__ = ["index_path", "installed_benchmark", "registered_names"]


def index_path() -> Path | None:
    """Where the installed EvalScope's benchmark index is (``None`` when EvalScope is not installed)."""
    spec = importlib.machinery.PathFinder.find_spec("evalscope")
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(locations[0]) / "benchmarks" / "_index.json" if locations else None


def _index() -> dict[str, str] | None:
    """EvalScope's benchmark index (name → module), or ``None`` when EvalScope is not installed."""
    path = index_path()
    if path is None:
        return None
    if not path.is_file():
        return {}
    index = json.loads(path.read_text(encoding="utf-8"))
    return {str(name): str(module) for name, module in index.items()} if isinstance(index, dict) else {}


def registered_names() -> list[str] | None:
    """The names of EvalScope's registered benchmarks, or ``None`` when EvalScope is not installed."""
    index = _index()
    return None if index is None else sorted(index)


def installed_benchmark(name: str) -> Any:
    """A copy of the installed EvalScope's declaration of ``name`` (its adapter class set), or ``None`` when EvalScope is
    not installed or does not register ``name``."""
    index = _index()
    if not index or name not in index:
        return None
    module = index[name]
    try:
        importlib.import_module(module)
        from evalscope.api.registry import BENCHMARK_REGISTRY
    except ImportError as error:
        raise ConfigError(
            f"evalscope:{name}: EvalScope's module {module} needs the package {error.name!r}, which is not installed ({error}); "
            "install it to render this benchmark"
        ) from None
    meta = BENCHMARK_REGISTRY.get(name)
    if meta is None:
        raise ConfigError(f"evalscope:{name}: EvalScope's index names {module} for it, which does not register it")
    return copy.deepcopy(meta)
