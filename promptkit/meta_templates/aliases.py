"""OpenCompass and AISBench model class names, each keeping *that class's* prompt behaviour, defaults included.

``OpenAI`` without a meta template sends the whole prompt as one user message;
``VLLMCustomAPIChat`` installs a meta template with a reserved ``SYSTEM``
role; ``HuggingFaceBaseModel`` ignores a meta template, as OpenCompass does.
Configs import them from :mod:`promptkit.models`.

Every class of OpenCompass's ``opencompass.models`` is one of the kinds
(docs/configs.md#models lists them all):

* a completion model with the config's meta template (OpenCompass's
  ``LMTemplateParser``): the local engines (``HuggingFaceCausalLM``, ``VLLM``,
  ``TurboMindModel``, …) and ``AlayaLM``, ``GLM130B``, ``InternLM``, …;
* a chat API (OpenCompass's ``APITemplateParser``) whose client sends the
  messages with OpenAI's roles (``OpenAI``, ``OpenAISDKStreaming``,
  ``BailingAPI``, ``TeleChat``, …), or converts them its own way, kept here:
  system text as user text (``DeepseekAPI``, ``MoonShot``, …), prefixed to
  every message (``Gemini``), or written as one Human/Assistant string
  (``Claude``, Anthropic's legacy completions API);
* a chat-template model (``HuggingFacewithChatTemplate`` and friends; with
  ``fastchat_template='vicuna'``, FastChat's conversation).

The classes whose prompt promptkit cannot know (the model's own code builds
it) or does not build (a client's own message format) are refused in one line
by the config loader (``OUT_OF_SCOPE`` of the OpenCompass front end).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from promptkit.errors import ConfigError, MetaTemplateError
from promptkit.messages import Message, merge_content
from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.chat_template_model import ChatTemplateModel
from promptkit.meta_templates.completion_model import CompletionModel
from promptkit.meta_templates.model import ModelBase, check_mode
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.promptlist import PromptList

__all__ = [
    "AI360GPT",
    "GLM130B",
    "VLLM",
    "AlayaLM",
    "BaiChuan",
    "BailingAPI",
    "Claude",
    "ClaudeAllesAPIN",
    "DeepseekAPI",
    "ERNIEBot",
    "Gemini",
    "HuggingFace",
    "HuggingFaceBaseModel",
    "HuggingFaceCausalLM",
    "HuggingFacewithChatTemplate",
    "InternLM",
    "InternTrain",
    "KrGPT",
    "LightllmAPI",
    "LightllmChatAPI",
    "LmdeployPytorchModel",
    "MiniMaxChatCompletionV2",
    "ModelScope",
    "ModelScopeCausalLM",
    "MoonShot",
    "OpenAI",
    "OpenAISDK",
    "OpenAISDKStreaming",
    "Rendu",
    "SenseTime",
    "StepFun",
    "TeleChat",
    "TeleChatStream",
    "TurboMindAPIModel",
    "TurboMindModel",
    "TurboMindModelwithChatTemplate",
    "UniGPT",
    "VLLMCustomAPI",
    "VLLMCustomAPIChat",
    "VLLMwithChatTemplate",
    "YiAPI",
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


# Completion models: OpenCompass's BaseModel with its LMTemplateParser (the meta template makes one string).


class AlayaLM(CompletionModel):
    """OpenCompass ``AlayaLM``: a completion model with the config's meta template."""


class GLM130B(CompletionModel):
    """OpenCompass ``GLM130B``: a completion model with the config's meta template."""


class InternLM(CompletionModel):
    """OpenCompass ``InternLM``: a completion model with the config's meta template."""


class InternTrain(CompletionModel):
    """OpenCompass ``InternTrain``: a completion model with the config's meta template."""


class LightllmAPI(CompletionModel):
    """OpenCompass ``LightllmAPI`` (a LightLLM server's generate endpoint): a completion model with the config's meta template."""


class ModelScope(CompletionModel):
    """OpenCompass ``ModelScope``: a completion model with the config's meta template."""


class ModelScopeCausalLM(CompletionModel):
    """OpenCompass ``ModelScopeCausalLM``: a completion model with the config's meta template."""


class TurboMindAPIModel(CompletionModel):
    """OpenCompass ``TurboMindAPIModel`` (an LMDeploy server): a completion model with the config's meta template."""


class LmdeployPytorchModel(CompletionModel):
    """OpenCompass ``LmdeployPytorchModel`` (LMDeploy's PyTorch engine; gone from OpenCompass since 2024, still named by
    its configs): a completion model with the config's meta template, as it was."""


# Chat APIs whose client sends the API parser's messages with OpenAI's roles.


class OpenAISDKStreaming(OpenAISDK):
    """OpenCompass ``OpenAISDKStreaming``: as ``OpenAISDK`` (the reply streams; the request is the same)."""


class AI360GPT(OpenAI):
    """OpenCompass ``AI360GPT``: a chat API; messages as ``OpenAI``'s."""


class KrGPT(OpenAI):
    """OpenCompass ``KrGPT``: a chat API; messages as ``OpenAI``'s."""


class UniGPT(OpenAI):
    """OpenCompass ``UniGPT``: a chat API; messages as ``OpenAI``'s."""


class TeleChat(OpenAI):
    """OpenCompass ``TeleChat``: a chat API; messages as ``OpenAI``'s."""


class TeleChatStream(OpenAI):
    """OpenCompass ``TeleChatStream``: a chat API; messages as ``OpenAI``'s (a role other than user and assistant is sent
    as ``system``)."""

    passes_unknown_roles = True

    def _as_sent(self, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        return tuple(m if m.role in ("user", "assistant", "system") else replace(m, role="system") for m in messages)


class BailingAPI(OpenAI):
    """OpenCompass ``BailingAPI``: a chat API; messages as ``OpenAI``'s, other api roles sent as they are."""

    passes_unknown_roles = True


# Chat APIs whose client sends system text as user text.


class _SystemAsUser(OpenAI):
    """A client that sends every message but the assistant's as a user message, consecutive ones of a role merged
    with ``'\\n'``, and the config's ``system_prompt`` (if any) as a system message first."""

    #: Whether the client leaves out messages with no text before it converts.
    skips_empty: bool = False
    #: Whether the class takes OpenCompass's ``system_prompt`` (a system message sent first).
    takes_system_prompt: bool = True

    def __init__(self, *args: Any, system_prompt: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not isinstance(system_prompt, str):
            raise ConfigError(f"system_prompt must be a str (got {system_prompt!r})", key="system_prompt")
        if system_prompt and not self.takes_system_prompt:
            raise ConfigError(f"OpenCompass's {type(self).__name__} takes no system_prompt", key="system_prompt")
        #: The system message OpenCompass's client sends before the prompt's messages.
        self.client_system_prompt = system_prompt

    def _as_sent(self, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        sent: list[Message] = []
        for message in messages:
            if self.skips_empty and not message.content:
                continue
            role = "assistant" if message.role == "assistant" else "user"
            if sent and sent[-1].role == role:
                sent[-1] = replace(sent[-1], content=merge_content(sent[-1].content, message.content))
            else:
                sent.append(Message(role, message.content))
        if self.client_system_prompt:
            sent.insert(0, Message("system", self.client_system_prompt))
        return tuple(sent)


class BaiChuan(_SystemAsUser):
    """OpenCompass ``BaiChuan``: a chat API; system text sent as user text (see ``_SystemAsUser``)."""


class DeepseekAPI(_SystemAsUser):
    """OpenCompass ``DeepseekAPI``: a chat API; system text sent as user text (see ``_SystemAsUser``)."""


class MoonShot(_SystemAsUser):
    """OpenCompass ``MoonShot``: a chat API; system text sent as user text (see ``_SystemAsUser``)."""


class StepFun(_SystemAsUser):
    """OpenCompass ``StepFun``: a chat API; system text sent as user text (see ``_SystemAsUser``)."""


class YiAPI(_SystemAsUser):
    """OpenCompass ``YiAPI``: a chat API; system text sent as user text (see ``_SystemAsUser``)."""


class ClaudeAllesAPIN(_SystemAsUser):
    """OpenCompass ``ClaudeAllesAPIN``: a chat API; system text sent as user text, no system_prompt."""

    takes_system_prompt = False


class LightllmChatAPI(_SystemAsUser):
    """OpenCompass ``LightllmChatAPI``: a chat API; system text sent as user text, no system_prompt."""

    takes_system_prompt = False


class MiniMaxChatCompletionV2(_SystemAsUser):
    """OpenCompass ``MiniMaxChatCompletionV2``: a chat API; system text sent as user text, no system_prompt."""

    takes_system_prompt = False


class Rendu(_SystemAsUser):
    """OpenCompass ``Rendu``: a chat API; system text sent as user text, no system_prompt."""

    takes_system_prompt = False


class ERNIEBot(_SystemAsUser):
    """OpenCompass ``ERNIEBot``: a chat API; messages without text left out, system text sent as user text."""

    skips_empty = True
    takes_system_prompt = False


class SenseTime(_SystemAsUser):
    """OpenCompass ``SenseTime``: a chat API; messages without text left out, system text sent as user text."""

    skips_empty = True
    takes_system_prompt = False


class Gemini(OpenAI):
    """OpenCompass ``Gemini``: a chat API whose client leaves system messages out and puts the (last) system text,
    then ``'\\n'``, before every other message's text.  Roles are written as OpenAI's (Gemini's API calls the
    assistant ``model``)."""

    def _as_sent(self, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        system = next((m.content for m in reversed(messages) if m.role == "system"), None)
        rest = [m for m in messages if m.role != "system"]
        if system is None:
            return tuple(rest)
        if type(system) is not str:
            raise MetaTemplateError("Gemini's client puts the system text before every message, and the system message has media parts")
        return tuple(replace(m, content=merge_content(system, m.content)) for m in rest)


#: Anthropic's legacy completions API markers (``anthropic.HUMAN_PROMPT``, ``anthropic.AI_PROMPT``).
_HUMAN, _AI = "\n\nHuman:", "\n\nAssistant:"


class Claude(ModelBase):
    """OpenCompass ``Claude`` (Anthropic's legacy completions API): the API parser's messages as one string, each user
    (or system) message as ``'\\n\\nHuman: ' + text``, each assistant one as ``'\\n\\nAssistant: ' + text``, and
    ``'\\n\\nAssistant:'`` at the end.

    >>> Claude().render(PromptList([{'section': 'round', 'pos': 'begin'}, dict(role='HUMAN', prompt='Hi'),
    ...                             dict(role='BOT', prompt=''), {'section': 'round', 'pos': 'end'}]))
    '\\n\\nHuman: Hi\\n\\nAssistant:'
    """

    kind = "completion"

    def __init__(self, abbr: str | None = None, meta_template: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        #: The API parser and OpenAI's roles: the messages the string is written from.
        self.chat_model = OpenAI(abbr=abbr, meta_template=meta_template)
        super().__init__(abbr=abbr, meta_template=meta_template, **kwargs)

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        return self.chat_model.meta_template

    def render(self, prompt: str | PromptList, mode: str = "gen") -> str:
        check_mode(mode)
        if isinstance(prompt, str):
            return f"{_HUMAN} {prompt}{_AI}"
        text = ""
        for message in self.chat_model.chat_messages(prompt, mode):
            if type(message.content) is not str:
                raise MetaTemplateError("Claude's legacy completions API takes text; the prompt has media parts: use ChatModel")
            text += f"{_AI if message.role == 'assistant' else _HUMAN} {message.content}"
        return text if text.endswith(_AI) else text + _AI
