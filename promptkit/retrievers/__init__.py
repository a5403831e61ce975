"""Stage 1: for each test row, the indices of the pool rows to use as shots.

Each retriever's module is imported when its class is first asked for (``promptkit.retrievers.BM25Retriever``): a
config that names ``FixKRetriever`` does not import the text and vector search of the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from promptkit.retrievers.base import Retriever

if TYPE_CHECKING:
    from promptkit.retrievers.bm25 import BM25Retriever
    from promptkit.retrievers.dpp import DPPRetriever
    from promptkit.retrievers.fixk import FixKRetriever
    from promptkit.retrievers.mdl import MDLRetriever
    from promptkit.retrievers.random import RandomRetriever
    from promptkit.retrievers.sliding_window import SlidingWindowRetriever
    from promptkit.retrievers.topk import TopkRetriever
    from promptkit.retrievers.votek import VotekRetriever
    from promptkit.retrievers.zero import ZeroRetriever

__all__ = ["BM25Retriever", "DPPRetriever", "FixKRetriever", "MDLRetriever", "RandomRetriever", "Retriever", "SlidingWindowRetriever", "TopkRetriever", "VotekRetriever", "ZeroRetriever"]

#: The module of each retriever class, imported when the class is first asked for.
_MODULES = {
    "BM25Retriever": "bm25",
    "DPPRetriever": "dpp",
    "FixKRetriever": "fixk",
    "MDLRetriever": "mdl",
    "RandomRetriever": "random",
    "SlidingWindowRetriever": "sliding_window",
    "TopkRetriever": "topk",
    "VotekRetriever": "votek",
    "ZeroRetriever": "zero",
}


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
