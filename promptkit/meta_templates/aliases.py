"""OpenCompass and AISBench model class names, each keeping *that class's* prompt behaviour, defaults included.

``OpenAI`` without a meta template sends the whole prompt as one user message;
``VLLMCustomAPIChat`` installs a meta template with a reserved ``SYSTEM``
role; ``HuggingFaceBaseModel`` ignores a meta template, as OpenCompass does.
Configs import them from :mod:`promptkit.models`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.chat_template_model import ChatTemplateModel
from promptkit.meta_templates.completion_model import CompletionModel
from promptkit.meta_templates.spec import MetaTemplate

__all__ = [
    "VLLM",
    "HuggingFace",
    "HuggingFaceBaseModel",
    "HuggingFaceCausalLM",
    "HuggingFacewithChatTemplate",
    "OpenAI",
    "OpenAISDK",
    "TurboMindModel",
    "TurboMindModelwithChatTemplate",
    "VLLMCustomAPI",
    "VLLMCustomAPIChat",
    "VLLMwithChatTemplate",
]

logger = logging.getLogger(__name__)


class HuggingFaceCausalLM(CompletionModel):
    """OpenCompass ``HuggingFaceCausalLM``: a completion model with the config's meta template."""


class HuggingFace(CompletionModel):
    """OpenCompass ``HuggingFace``: a completion model with the config's meta template."""


class VLLM(CompletionModel):
    """OpenCompass ``VLLM``: a completion model with the config's meta template."""


class TurboMindModel(CompletionModel):
    """OpenCompass ``TurboMindModel``: a completion model with the config's meta template."""


class VLLMCustomAPI(CompletionModel):
    """AISBench ``VLLMCustomAPI`` (the completions endpoint): a completion model."""


class HuggingFaceBaseModel(CompletionModel):
    """OpenCompass ``HuggingFaceBaseModel``: no meta template, prompt items joined with ``'\\n'``.

    OpenCompass ignores a ``meta_template`` given to this class; so does promptkit, with a warning.
    """

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        if cfg is not None:
            logger.warning("model %r: HuggingFaceBaseModel ignores meta_template (as OpenCompass does); use CompletionModel to apply it", self.abbr)
        return None


class OpenAI(ChatModel):
    """OpenCompass ``OpenAI``: without a meta template the whole prompt is joined into one user message."""

    default_meta_template = None


class OpenAISDK(OpenAI):
    """OpenCompass ``OpenAISDK``: as ``OpenAI``."""


class VLLMCustomAPIChat(ChatModel):
    """AISBench ``VLLMCustomAPIChat``: default meta template with a reserved ``SYSTEM`` role; other api roles pass through."""

    passes_unknown_roles = True


class HuggingFacewithChatTemplate(ChatTemplateModel):
    """OpenCompass ``HuggingFacewithChatTemplate``: the model's chat template, OpenCompass's default meta template."""


class VLLMwithChatTemplate(ChatTemplateModel):
    """OpenCompass ``VLLMwithChatTemplate``: as ``HuggingFacewithChatTemplate`` (``chat_template_kwargs`` as in vLLM)."""


class TurboMindModelwithChatTemplate(ChatTemplateModel):
    """OpenCompass ``TurboMindModelwithChatTemplate``: as ``HuggingFacewithChatTemplate``."""
