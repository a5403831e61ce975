"""Model classes under the names OpenCompass and AISBench configs import.

A model config ports by changing ``from opencompass.models import X`` (or
``from ais_bench.benchmark.models import X``) to ``from promptkit.models import X``.
"""

from promptkit.meta_templates.chat_template_model import (
    ChatTemplateModel,
    HuggingFacewithChatTemplate,
    TurboMindModelwithChatTemplate,
    VLLMwithChatTemplate,
)
from promptkit.meta_templates.models import (
    VLLM,
    ChatModel,
    CompletionModel,
    HuggingFace,
    HuggingFaceBaseModel,
    HuggingFaceCausalLM,
    OpenAI,
    OpenAISDK,
    TurboMindModel,
    VLLMCustomAPI,
    VLLMCustomAPIChat,
)

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
