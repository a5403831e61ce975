"""promptkit: dataset rows → exactly the input each model receives.

The pipeline, one stage per package::

    row ──retriever──► shot ids ──ice_template──► shots (the "ice")
     └────────────prompt_template (+ shots)─────► str | PromptList
                        model meta template ────► completion string | chat messages

* ``promptkit.data`` — rows from files (``promptkit.data.sources``: one reader per format), ``reader_cfg``, progress reports;
* ``promptkit.formats`` — community dataset formats, validated record by record;
* ``promptkit.retrievers`` — which rows become shots;
* ``promptkit.templates`` — ``PromptTemplate``, ``RawPromptTemplate``, ``MultiTurnPromptTemplate``, ``MMPromptTemplate``, ``JinjaPromptTemplate``;
* ``promptkit.promptlist`` — the ``PromptList`` intermediate (``promptkit.parts``: multimodal content parts);
* ``promptkit.media`` — the dataset's media policy (keep, resolve or inline files, with Pillow);
* ``promptkit.meta_templates`` — ``CompletionModel``/``ChatModel``/``ChatTemplateModel``;
* ``promptkit.chat_templates`` — ``ChatTemplate``: Hugging Face chat templates, rendered as ``transformers`` does;
* ``promptkit.pipeline`` — :class:`Renderer`, which runs the stages in order
  (``promptkit.conversation``: dialogues driven by the model's own replies);
* ``promptkit.engines`` — records as engine inputs (OpenAI Batch API lines, vLLM requests); ``promptkit.generation``:
  a record's request block; ``promptkit.fingerprints``: its fingerprint and provenance.
"""

from promptkit._template_limits import TemplateLimits
from promptkit.chat_templates import BoundChatTemplate, ChatTemplate
from promptkit.config import DatasetSpec, build_dataset, build_model, load_datasets, load_models
from promptkit.config.overrides import Overrides
from promptkit.controls import Controls
from promptkit.conversation import Conversation, load_replies
from promptkit.data import JsonlDataset, ReaderConfig, RowsDataset
from promptkit.data.bfcl import BFCLDataset
from promptkit.data.progress import Progress
from promptkit.data.sources import RowReader, open_reader
from promptkit.diff import DiffReport, RecordSet, diff_records, prompt_records, read_records, report_text
from promptkit.engines import OpenAIBatch, VLLMRequests
from promptkit.errors import (
    ConfigError,
    DatasetError,
    MetaTemplateError,
    MissingDependencyError,
    PromptkitError,
    RetrieverError,
    TemplateError,
)
from promptkit.fingerprints import fingerprint
from promptkit.formats import (
    AdapterDataset,
    StandardSampleDataset,
    TaskSpecDataset,
    ValidationReport,
    Violation,
    XpertFormatDataset,
    validate_file,
)
from promptkit.generation import request_settings
from promptkit.inferencers import (
    BFCLV3FunctionCallInferencer,
    ChatInferencer,
    CLPInferencer,
    GenInferencer,
    InferencePPLOnlyInferencer,
    Inferencer,
    LLInferencer,
    LMMGenInferencer,
    MultiTurnGenInferencer,
    PPLInferencer,
    PPLOnlyInferencer,
    SCInferencer,
    SWCELossInferencer,
)
from promptkit.lint import Finding, lint
from promptkit.media import MediaPolicy
from promptkit.messages import Message, to_openai
from promptkit.meta_templates import ChatModel, ChatTemplateModel, CompletionModel, MetaTemplate, Model
from promptkit.meta_templates.chat_template_model import SystemRolePolicy
from promptkit.meta_templates.spans import Hints, Span, find_spans
from promptkit.parallel import render_parallel
from promptkit.parts import Part
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
from promptkit.retrievers.embedded import EmbeddedShotsRetriever
from promptkit.snapshots import check_snapshot, write_snapshot
from promptkit.templates import JinjaPromptTemplate, MMPromptTemplate, MultiTurnPromptTemplate, PromptTemplate, RawPromptTemplate
from promptkit.templates._bfcl_template import BFCLTemplate
from promptkit.templates.messages_template import MessagesTemplate
from promptkit.testing import assert_prompts_match
from promptkit.token_counters import HFTokenizer
from promptkit.token_view import Junction, TokenView
from promptkit.view import HtmlView

__version__ = "0.1.0"

__all__ = [
    "AdapterDataset",
    "BFCLDataset",
    "BFCLTemplate",
    "BFCLV3FunctionCallInferencer",
    "BM25Retriever",
    "BoundChatTemplate",
    "CLPInferencer",
    "ChatInferencer",
    "ChatModel",
    "ChatTemplate",
    "ChatTemplateModel",
    "CompletionModel",
    "ConfigError",
    "Controls",
    "Conversation",
    "DPPRetriever",
    "DatasetError",
    "DatasetSpec",
    "DiffReport",
    "EmbeddedShotsRetriever",
    "Finding",
    "FixKRetriever",
    "GenInferencer",
    "HFTokenizer",
    "Hints",
    "HtmlView",
    "InferencePPLOnlyInferencer",
    "Inferencer",
    "JinjaPromptTemplate",
    "JsonlDataset",
    "Junction",
    "LLInferencer",
    "LMMGenInferencer",
    "MDLRetriever",
    "MMPromptTemplate",
    "Marker",
    "MediaPolicy",
    "Message",
    "MessagesTemplate",
    "MetaTemplate",
    "MetaTemplateError",
    "MissingDependencyError",
    "Model",
    "MultiTurnGenInferencer",
    "MultiTurnPromptTemplate",
    "OpenAIBatch",
    "Overrides",
    "PPLInferencer",
    "PPLOnlyInferencer",
    "Part",
    "Progress",
    "PromptList",
    "PromptTemplate",
    "PromptkitError",
    "RandomRetriever",
    "RawPromptTemplate",
    "ReaderConfig",
    "RecordSet",
    "RenderedPrompt",
    "Renderer",
    "Retriever",
    "RetrieverError",
    "RoleItem",
    "RowReader",
    "RowsDataset",
    "SCInferencer",
    "SWCELossInferencer",
    "SlidingWindowRetriever",
    "Span",
    "StandardSampleDataset",
    "SystemRolePolicy",
    "TaskSpecDataset",
    "TemplateError",
    "TemplateLimits",
    "TokenView",
    "TopkRetriever",
    "VLLMRequests",
    "ValidationReport",
    "Violation",
    "VotekRetriever",
    "XpertFormatDataset",
    "ZeroRetriever",
    "assert_prompts_match",
    "build_dataset",
    "build_model",
    "check_snapshot",
    "diff_records",
    "find_spans",
    "fingerprint",
    "lint",
    "load_datasets",
    "load_models",
    "load_replies",
    "open_reader",
    "prompt_records",
    "read_records",
    "render_parallel",
    "report_text",
    "request_settings",
    "to_openai",
    "validate_file",
    "write_snapshot",
]
