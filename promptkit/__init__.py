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
* ``promptkit.render.renderer`` — :class:`Renderer`, which runs the stages in order
  (``promptkit.render.conversation``: dialogues driven by the model's own replies);
* ``promptkit.records.engines`` — records as engine inputs (OpenAI Batch API lines, vLLM requests); ``promptkit.records.requests``:
  a record's request block; ``promptkit.records.fingerprints``: its fingerprint and provenance."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time each name is imported on first use
    from promptkit.chat_templates import BoundChatTemplate, ChatTemplate
    from promptkit.controls import Controls
    from promptkit.data import JsonlDataset, ReaderConfig, RowsDataset
    from promptkit.data.bfcl import BFCLDataset
    from promptkit.data.progress import Progress
    from promptkit.data.sources import RowReader, open_reader
    from promptkit.diff import DiffReport, RecordSet, diff_records, prompt_records, read_records, report_text
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
    from promptkit.frontends import load_datasets
    from promptkit.frontends.opencompass import build_dataset, build_model, load_models
    from promptkit.frontends.opencompass.overrides import Overrides
    from promptkit.linting import Finding, lint
    from promptkit.media import MediaPolicy
    from promptkit.messages import Message, to_openai
    from promptkit.meta_templates import ChatModel, ChatTemplateModel, CompletionModel, MetaTemplate
    from promptkit.meta_templates.chat_template_model import SystemRolePolicy
    from promptkit.meta_templates.model import ModelBase
    from promptkit.meta_templates.protocol import Model
    from promptkit.meta_templates.spans import Hints, Span, find_spans
    from promptkit.parts import Part
    from promptkit.plan.dataset import DatasetSpec
    from promptkit.plan.inferencers import (
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
    from promptkit.promptlist import Marker, PromptList, RoleItem
    from promptkit.records.engines import OpenAIBatch, VLLMRequests
    from promptkit.records.fingerprints import fingerprint
    from promptkit.records.record import RenderedPrompt
    from promptkit.records.requests import request_settings
    from promptkit.records.token_view import Junction, TokenView
    from promptkit.render.conversation import Conversation, load_replies
    from promptkit.render.parallel import render_parallel
    from promptkit.render.renderer import Renderer
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
    from promptkit.templates.task_type_template import TaskTypeTemplate
    from promptkit.testing import assert_prompts_match
    from promptkit.text.limits import TemplateLimits
    from promptkit.tokens.counters import HFTokenizer
    from promptkit.view import HtmlView

__version__ = "0.1.0"

#: Each public name's home module: importing ``promptkit`` loads none of them; a name's module is imported when the
#: name is first used (so ``promptkit --help`` and ``import promptkit`` stay fast), then the name is kept here.
_HOMES: dict[str, tuple[str, ...]] = {
    "promptkit.chat_templates": ("BoundChatTemplate", "ChatTemplate"),
    "promptkit.controls": ("Controls",),
    "promptkit.data": ("JsonlDataset", "ReaderConfig", "RowsDataset"),
    "promptkit.data.bfcl": ("BFCLDataset",),
    "promptkit.data.progress": ("Progress",),
    "promptkit.data.sources": ("RowReader", "open_reader"),
    "promptkit.diff": ("DiffReport", "RecordSet", "diff_records", "prompt_records", "read_records", "report_text"),
    "promptkit.errors": ("ConfigError", "DatasetError", "MetaTemplateError", "MissingDependencyError", "PromptkitError", "RetrieverError", "TemplateError"),
    "promptkit.formats": ("AdapterDataset", "StandardSampleDataset", "TaskSpecDataset", "ValidationReport", "Violation", "XpertFormatDataset", "validate_file"),
    "promptkit.frontends": ("load_datasets",),
    "promptkit.frontends.opencompass": ("build_dataset", "build_model", "load_models"),
    "promptkit.frontends.opencompass.overrides": ("Overrides",),
    "promptkit.linting": ("Finding", "lint"),
    "promptkit.media": ("MediaPolicy",),
    "promptkit.messages": ("Message", "to_openai"),
    "promptkit.meta_templates": ("ChatModel", "ChatTemplateModel", "CompletionModel", "MetaTemplate"),
    "promptkit.meta_templates.chat_template_model": ("SystemRolePolicy",),
    "promptkit.meta_templates.model": ("ModelBase",),
    "promptkit.meta_templates.protocol": ("Model",),
    "promptkit.meta_templates.spans": ("Hints", "Span", "find_spans"),
    "promptkit.parts": ("Part",),
    "promptkit.plan.dataset": ("DatasetSpec",),
    "promptkit.plan.inferencers": ("BFCLV3FunctionCallInferencer", "CLPInferencer", "ChatInferencer", "GenInferencer", "InferencePPLOnlyInferencer", "Inferencer", "LLInferencer", "LMMGenInferencer", "MultiTurnGenInferencer", "PPLInferencer", "PPLOnlyInferencer", "SCInferencer", "SWCELossInferencer"),
    "promptkit.promptlist": ("Marker", "PromptList", "RoleItem"),
    "promptkit.records.engines": ("OpenAIBatch", "VLLMRequests"),
    "promptkit.records.fingerprints": ("fingerprint",),
    "promptkit.records.record": ("RenderedPrompt",),
    "promptkit.records.requests": ("request_settings",),
    "promptkit.records.token_view": ("Junction", "TokenView"),
    "promptkit.render.conversation": ("Conversation", "load_replies"),
    "promptkit.render.parallel": ("render_parallel",),
    "promptkit.render.renderer": ("Renderer",),
    "promptkit.retrievers": ("BM25Retriever", "DPPRetriever", "FixKRetriever", "MDLRetriever", "RandomRetriever", "Retriever", "SlidingWindowRetriever", "TopkRetriever", "VotekRetriever", "ZeroRetriever"),
    "promptkit.retrievers.embedded": ("EmbeddedShotsRetriever",),
    "promptkit.snapshots": ("check_snapshot", "write_snapshot"),
    "promptkit.templates": ("JinjaPromptTemplate", "MMPromptTemplate", "MultiTurnPromptTemplate", "PromptTemplate", "RawPromptTemplate"),
    "promptkit.templates._bfcl_template": ("BFCLTemplate",),
    "promptkit.templates.messages_template": ("MessagesTemplate",),
    "promptkit.templates.task_type_template": ("TaskTypeTemplate",),
    "promptkit.testing": ("assert_prompts_match",),
    "promptkit.text.limits": ("TemplateLimits",),
    "promptkit.tokens.counters": ("HFTokenizer",),
    "promptkit.view": ("HtmlView",),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

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
    "ModelBase",
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
    "TaskTypeTemplate",
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


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'promptkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(name for name in globals() if name.startswith("_"))})
