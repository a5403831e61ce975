"""``evalscope.api.registry.register_benchmark``: the decorator an adapter file registers its benchmark with.

While promptkit loads an adapter file (:func:`registrations`), each ``@register_benchmark(BenchmarkMeta(...))``
records its declaration, the decorated class as its ``data_adapter``; the file's benchmarks are those it registered,
whatever their names: a file registering ``gsm8k`` renders with its own class, not the built-in one.  Outside
:func:`registrations` the decorator only sets ``data_adapter``.

>>> from promptkit.frontends.evalscope.api.meta import BenchmarkMeta
>>> with registrations() as found:
...     @register_benchmark(BenchmarkMeta(name='quiz', dataset_id='my-org/quiz'))
...     class QuizAdapter: ...
>>> [(meta.name, meta.data_adapter.__name__) for meta in found]
[('quiz', 'QuizAdapter')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = ["register_benchmark", "registrations"]

_Adapter = TypeVar("_Adapter", bound=type)
_found: ContextVar[list[Any] | None] = ContextVar("evalscope_registrations", default=None)


def register_benchmark(metadata: Any) -> Callable[[_Adapter], _Adapter]:
    """Register ``metadata`` with the decorated adapter class (see the module docstring)."""

    def register(adapter: _Adapter) -> _Adapter:
        metadata.data_adapter = adapter
        found = _found.get()
        if found is not None:
            found.append(metadata)
        return adapter

    return register


@contextmanager
def registrations() -> Iterator[list[Any]]:
    """The declarations :func:`register_benchmark` records in the block, in order."""
    found: list[Any] = []
    token = _found.set(found)
    try:
        yield found
    finally:
        _found.reset(token)
