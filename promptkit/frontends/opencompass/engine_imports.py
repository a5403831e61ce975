"""OpenCompass's and AISBench's imports in a config file, served by promptkit while the config loads.

A config written for OpenCompass or AISBench imports that engine's classes::

    from opencompass.openicl.icl_prompt_template import PromptTemplate
    from opencompass.datasets import MMLUDataset
    from opencompass.utils.text_postprocessors import first_capital_postprocess

Inside :func:`engine_imports`, a ``sys.meta_path`` finder serves every module
under ``opencompass`` and ``ais_bench``: a name promptkit implements (a
template, retriever, inferencer, model or dataset class of the registry) is
promptkit's class; any other name (an evaluator, a postprocessor, a
summarizer, a dataset class promptkit does not read) is a :class:`Foreign`
placeholder: inert and named, an error only where promptkit must use it.

Outside the ``with`` block the finder is gone and the modules it served leave
``sys.modules``; modules of a real OpenCompass imported before are put back, so
an installed OpenCompass is imported as usual everywhere else.
"""

from __future__ import annotations

import importlib.machinery
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from promptkit.frontends.served_imports import served_imports

__all__ = ["ENGINES", "Foreign", "engine_imports", "installed"]

#: The top-level packages of the engines whose configs promptkit reads.
ENGINES = ("opencompass", "ais_bench")

#: The kinds of the registry whose names a config's engine imports resolve to, in this order.
_KINDS = ("template", "retriever", "inferencer", "model", "dataset")


@dataclass(frozen=True)
class Foreign:
    """A name a config imports from an engine that promptkit does not implement (``module.name``)."""

    module: str
    name: str

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}"

    def __getattr__(self, attribute: str) -> Foreign:
        # ``first_capital_postprocess.__name__`` and the like: dunders are not placeholders.
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return Foreign(self.qualname, attribute)

    def __repr__(self) -> str:
        return f"<{self.qualname}: not used by promptkit>"


def served(module: str, name: str) -> Any:
    """What ``from module import name`` gives in a config: promptkit's class of that name, else a :class:`Foreign`."""
    from promptkit.frontends.opencompass.registry import REGISTRY

    for kind in _KINDS:
        found = REGISTRY[kind].get(name)
        if found is not None:
            return found
    return Foreign(module, name)


@contextmanager
def engine_imports() -> Iterator[None]:
    """Serve the engines' modules for the ``with`` block (see the module docstring)."""
    with served_imports(frozenset(ENGINES), served):
        yield


def installed(engine: str) -> bool:
    """Whether the real ``engine`` package can be imported (the finder of :func:`engine_imports` aside)."""
    return importlib.machinery.PathFinder.find_spec(engine) is not None
