"""The table of the benchmarks promptkit reads natively: name → a fresh declaration (adapter class set).

A native benchmark is an adapter written on promptkit's implementation of EvalScope's API
(:mod:`promptkit.frontends.evalscope.api`), declared with :func:`native`; ``evalscope:NAME`` renders it without
EvalScope installed.  Each call of :data:`NATIVES`\\ ``[name]`` builds a new declaration, which a run's
``dataset_args`` then change.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

from promptkit.frontends.evalscope.api.meta import BenchmarkMeta

__all__ = ["NATIVES", "native"]

_Adapter = TypeVar("_Adapter", bound=type)

#: Benchmark name → a function returning its declaration.
NATIVES: dict[str, Callable[[], BenchmarkMeta]] = {}


def native(**fields: Any) -> Callable[[_Adapter], _Adapter]:
    """Declare the decorated adapter class as the native benchmark ``fields['name']`` (``BenchmarkMeta`` fields;
    ``dataset_id`` defaults to the name)."""

    def declare(adapter: _Adapter) -> _Adapter:
        frozen = {"dataset_id": fields["name"], **fields}
        NATIVES[fields["name"]] = lambda: BenchmarkMeta(**copy.deepcopy(frozen), data_adapter=adapter)
        return adapter

    return declare
