"""promptkit: dataset rows → exactly the input each model receives.

The pipeline, one stage per package::

    row ──retriever──► shot ids ──ice_template──► shots (the "ice")
     └────────────prompt_template (+ shots)─────► str | PromptList
                        model meta template ────► completion string | chat messages

* ``promptkit.data`` — rows from files, ``reader_cfg``;
* ``promptkit.formats`` — community dataset formats, validated record by record;
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
from promptkit.formats import (
    AdapterDataset,
    StandardSampleDataset,
    TaskSpecDataset,
    ValidationReport,
    Violation,
    XpertFormatDataset,
    validate_file,
)
from promptkit.inferencers import GenInferencer, PPLInferencer
from promptkit.meta_templates import ChatModel, CompletionModel, MetaTemplate, Model
from promptkit.pipeline import RenderedPrompt, Renderer
from promptkit.promptlist import Marker, PromptList, RoleItem
from promptkit.retrievers import FixKRetriever, Retriever, ZeroRetriever
from promptkit.retrievers.embedded import EmbeddedShotsRetriever
from promptkit.templates import PromptTemplate
from promptkit.templates.messages_template import MessagesTemplate

__version__ = "0.1.0"

__all__ = [
    "AdapterDataset",
    "ChatModel",
    "CompletionModel",
    "ConfigError",
    "DatasetError",
    "DatasetSpec",
    "EmbeddedShotsRetriever",
    "FixKRetriever",
    "GenInferencer",
    "JsonlDataset",
    "Marker",
    "MessagesTemplate",
    "MetaTemplate",
    "MetaTemplateError",
    "MissingDependencyError",
    "Model",
    "PPLInferencer",
    "PromptList",
    "PromptTemplate",
    "PromptkitError",
    "ReaderConfig",
    "RenderedPrompt",
    "Renderer",
    "Retriever",
    "RetrieverError",
    "RoleItem",
    "RowsDataset",
    "StandardSampleDataset",
    "TaskSpecDataset",
    "TemplateError",
    "ValidationReport",
    "Violation",
    "XpertFormatDataset",
    "ZeroRetriever",
    "build_dataset",
    "build_model",
    "load_datasets",
    "load_models",
    "validate_file",
]
