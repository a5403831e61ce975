"""Model classes under the names OpenCompass and AISBench configs import.

A model config ports by changing ``from opencompass.models import X`` (or
``from ais_bench.benchmark.models import X``) to ``from promptkit.models import X``.
"""

from promptkit.meta_templates.aliases import (
    VLLM,
    HuggingFace,
    HuggingFaceBaseModel,
    HuggingFaceCausalLM,
    HuggingFacewithChatTemplate,
    OpenAI,
    OpenAISDK,
    TurboMindModel,
    TurboMindModelwithChatTemplate,
    VLLMCustomAPI,
    VLLMCustomAPIChat,
    VLLMwithChatTemplate,
)
from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.chat_template_model import ChatTemplateModel
from promptkit.meta_templates.completion_model import CompletionModel

__all__ = [
    "VLLM",
    "ChatModel",
    "ChatTemplateModel",
    "CompletionModel",
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
