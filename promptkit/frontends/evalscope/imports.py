"""EvalScope's imports in an adapter file, served by promptkit while the file loads (when EvalScope is not installed).

An adapter file written as EvalScope's guide writes it imports::

    from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter
    from evalscope.api.dataset import Sample
    from evalscope.api.registry import register_benchmark
    from evalscope.constants import Tags

Inside :func:`evalscope_imports`, a ``sys.meta_path`` finder serves every module under ``evalscope``: a name promptkit
implements (:data:`SERVED`, by the package EvalScope defines it in) is promptkit's object; any other name (``Tags``,
``TaskState``, a metric or a mixin) is a :class:`Placeholder`: inert while the file loads — it may be called (a
``MetricSelector(...)`` in a declaration) or listed as a base class (a scoring mixin adds nothing to prompts) — and
an error naming it when a hook calls it while prompts are built.

Outside the block the finder is gone and the modules it served leave ``sys.modules``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from promptkit.errors import ConfigError
from promptkit.frontends.evalscope.api import adapters, messages, meta, multi_choices, registry, samples
from promptkit.frontends.served_imports import served_imports

__all__ = ["SERVED", "Placeholder", "evalscope_imports", "loading"]

#: The names promptkit serves, by the EvalScope package that defines them (its modules and submodules).
SERVED: dict[str, dict[str, Any]] = {
    "evalscope.api.benchmark": {
        "BenchmarkMeta": meta.BenchmarkMeta,
        "DataAdapter": adapters.DataAdapter,
        "DefaultDataAdapter": adapters.DefaultDataAdapter,
        "MultiChoiceAdapter": adapters.MultiChoiceAdapter,
    },
    "evalscope.api.dataset": {"Sample": samples.Sample},
    "evalscope.api.registry": {"register_benchmark": registry.register_benchmark},
    "evalscope.api.messages": {name: getattr(messages, name) for name in messages.__all__ if name not in ("MediaInPrompt", "openai_messages")},
    "evalscope.utils.multi_choices": {name: getattr(multi_choices, name) for name in multi_choices.__all__ if name != "target_letters"},
    "evalscope.utils": {"get_logger": lambda *args, **kwargs: logging.getLogger("evalscope")},
}

#: Whether an adapter file is loading now (its placeholders may then be called).
_loading: ContextVar[bool] = ContextVar("evalscope_file_loading", default=False)


class Placeholder:
    """A name an adapter file imports from EvalScope that promptkit does not implement (see the module docstring)."""

    def __init__(self, qualname: str) -> None:
        self.qualname = qualname

    def __getattr__(self, attribute: str) -> Placeholder:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return Placeholder(f"{self.qualname}.{attribute}")

    def __call__(self, *args: Any, **kwargs: Any) -> Placeholder:
        if not _loading.get():
            raise ConfigError(
                f"the adapter calls {self.qualname}, which promptkit does not implement (it reads EvalScope's prompt-building "
                "API: BenchmarkMeta, the adapters, Sample, chat messages, multi_choices); install evalscope to render it"
            )
        return Placeholder(f"{self.qualname}(...)")

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[Any, ...]:
        return ()  # a base class promptkit does not implement (a scoring or sandbox mixin) adds nothing to prompts

    def __repr__(self) -> str:
        return f"<{self.qualname}: not used by promptkit>"


def served(module: str, name: str) -> Any:
    """What ``from module import name`` gives in an adapter file: promptkit's object, else a :class:`Placeholder`."""
    for package, names in SERVED.items():
        if (module == package or module.startswith(package + ".")) and name in names:
            return names[name]
    return Placeholder(f"{module}.{name}")


@contextmanager
def evalscope_imports() -> Iterator[None]:
    """Serve ``evalscope.*`` for the ``with`` block (see the module docstring)."""
    with served_imports(frozenset({"evalscope"}), served):
        yield


@contextmanager
def loading() -> Iterator[None]:
    """Mark the block as an adapter file's loading (placeholders may be called)."""
    token = _loading.set(True)
    try:
        yield
    finally:
        _loading.reset(token)
