"""Model classes under the names OpenCompass and AISBench configs import.

A model config ports by changing ``from opencompass.models import X`` (or
``from ais_bench.benchmark.models import X``) to ``from promptkit.models import X``.
"""

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
    "CompletionModel",
    "HuggingFace",
    "HuggingFaceBaseModel",
    "HuggingFaceCausalLM",
    "OpenAI",
    "OpenAISDK",
    "TurboMindModel",
    "VLLMCustomAPI",
    "VLLMCustomAPIChat",
]
