"""promptkit: dataset rows → exactly the input each model receives.

The pipeline, one stage per package::

    row ──retriever──► shot ids ──ice_template──► shots (the "ice")
     └────────────prompt_template (+ shots)─────► str | PromptList
                        model meta template ────► completion string | chat messages

* ``promptkit.data`` — rows from files, ``reader_cfg``;
* ``promptkit.retrievers`` — which rows become shots;
* ``promptkit.templates`` — ``PromptTemplate``;
* ``promptkit.promptlist`` — the ``PromptList`` intermediate;
* ``promptkit.meta_templates`` — ``CompletionModel``/``ChatModel``;
* ``promptkit.pipeline`` — :class:`Renderer`, which runs the stages in order.
"""

from promptkit.config import DatasetSpec, build_dataset, build_model, load_datasets, load_models
from promptkit.data import JsonlDataset, ReaderConfig, RowsDataset
from promptkit.errors import (
    ConfigError,
    DatasetError,
    MetaTemplateError,
    MissingDependencyError,
    PromptkitError,
    RetrieverError,
    TemplateError,
)
from promptkit.inferencers import GenInferencer, PPLInferencer
from promptkit.meta_templates import ChatModel, CompletionModel, MetaTemplate, Model
from promptkit.pipeline import RenderedPrompt, Renderer
from promptkit.promptlist import Marker, PromptList, RoleItem
from promptkit.retrievers import (
    BM25Retriever,
    DPPRetriever,
    FixKRetriever,
    MDLRetriever,
    RandomRetriever,
    Retriever,
    SlidingWindowRetriever,
    TopkRetriever,
    VotekRetriever,
    ZeroRetriever,
)
from promptkit.templates import PromptTemplate

__version__ = "0.1.0"

__all__ = [
    "BM25Retriever",
    "ChatModel",
    "CompletionModel",
    "ConfigError",
    "DPPRetriever",
    "DatasetError",
    "DatasetSpec",
    "FixKRetriever",
    "GenInferencer",
    "JsonlDataset",
    "MDLRetriever",
    "Marker",
    "MetaTemplate",
    "MetaTemplateError",
    "MissingDependencyError",
    "Model",
    "PPLInferencer",
    "PromptList",
    "PromptTemplate",
    "PromptkitError",
    "RandomRetriever",
    "ReaderConfig",
    "RenderedPrompt",
    "Renderer",
    "Retriever",
    "RetrieverError",
    "RoleItem",
    "RowsDataset",
    "SlidingWindowRetriever",
    "TemplateError",
    "TopkRetriever",
    "VotekRetriever",
    "ZeroRetriever",
    "build_dataset",
    "build_model",
    "load_datasets",
    "load_models",
]
