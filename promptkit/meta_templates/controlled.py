"""A model's final input under the prompt controls: the answer's start kept (prefill), chat-template kwargs, thinking.

Built once per dataset × model from the merged :class:`~promptkit.controls.Controls` and the inferencer's
``prefill``/``gen_prefix``.  Per model kind:

* completion model: the string ends with the answer's start (the final BOT item's text, then ``gen_prefix``);
  it has no chat template, so ``thinking=True`` is refused and chat-template kwargs do not apply;
* chat model (an API): the messages end with an assistant message holding the answer's start, and the
  request says to continue it (``"continue_final_message": true, "add_generation_prompt": false``, as vLLM's
  server takes them); chat-template kwargs (``thinking`` as ``enable_thinking``) travel in the request as
  ``chat_template_kwargs``;
* chat-template model: its template is bound with the kwargs (``thinking`` under the variable the template
  reads) and continues the final assistant message (``continue_final_message=True``, no generation prompt).

An empty answer start is ordinary generation.  ``thinking=True`` in ppl mode is refused for every kind.

>>> from promptkit.meta_templates.completion_model import CompletionModel
>>> from promptkit.promptlist import PromptList
>>> model = CompletionModel(meta_template=dict(round=[dict(role='HUMAN', begin='User: ', end='\\n'),
...                                                   dict(role='BOT', begin='Bot: ', end='\\n', generate=True)]))
>>> prompt = PromptList([{'section': 'round', 'pos': 'begin'}, dict(role='HUMAN', prompt='2+2?'),
...                      dict(role='BOT', prompt='Let me think.'), {'section': 'round', 'pos': 'end'}])
>>> ControlledOutput(model, "gen", Controls(), prefill=True).render(prompt)
'User: 2+2?\\nBot: Let me think.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from promptkit.controls import Controls
from promptkit.errors import ConfigError
from promptkit.messages import Message, merge_content, to_openai
from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.chat_template_model import ChatTemplateModel
from promptkit.meta_templates.completion_model import CompletionModel
from promptkit.meta_templates.model import FinalInput
from promptkit.meta_templates.protocol import Model
from promptkit.promptlist import PromptList

__all__ = ["CONTINUE_FIELDS", "ControlledOutput"]

#: What an API chat request carries when its last (assistant) message is to be continued.
CONTINUE_FIELDS: Mapping[str, Any] = {"continue_final_message": True, "add_generation_prompt": False}
#: The chat-template variable ``thinking`` is sent as to an API model (vLLM's convention for Qwen3-style templates).
API_THINKING_SWITCH = "enable_thinking"


class ControlledOutput:
    """The final input of ``model`` in ``mode`` under ``controls`` (see the module docstring)."""

    def __init__(self, model: Model, mode: str, controls: Controls, *, prefill: bool = False, gen_prefix: str | None = None) -> None:
        self.model = model
        self.mode = mode
        self.controls = controls
        self.prefill = prefill and mode == "gen"
        self.gen_prefix = (gen_prefix or "") if mode == "gen" else ""
        name = f"model {model.abbr!r}"
        if mode == "ppl" and controls.thinking_value() is True:
            raise ConfigError(
                f"thinking is on for {name}, but this dataset renders for likelihood (ppl/ll): a scored answer cannot follow "
                "a reasoning block; set thinking=False (or remove it) for this dataset",
                key="thinking",
            )
        #: What every chat request of the dataset carries besides its messages (``chat_template_kwargs``), or ``None``.
        self.request: dict[str, Any] | None = None
        self._bound = None
        if isinstance(model, ChatTemplateModel):
            self._bound = model.bound_with(controls)
        elif isinstance(model, ChatModel):
            kwargs = dict(controls.template_kwargs(API_THINKING_SWITCH))
            self.request = {"chat_template_kwargs": kwargs} if kwargs else None
        elif isinstance(model, CompletionModel):
            if controls.thinking_value() is True:
                raise ConfigError(
                    f"thinking=True is set but {name} is a completion model: its meta template has no thinking switch; "
                    "use a chat-template or API chat model, or remove thinking",
                    key="thinking",
                )
        elif controls.for_template or self.prefill or self.gen_prefix:
            raise ConfigError(
                f"{name} ({type(model).__name__}) implements the model protocol only: prefill, gen_prefix, thinking and "
                "chat_template_kwargs need a CompletionModel, ChatModel or ChatTemplateModel (or a subclass)",
                key="type",
            )

    @staticmethod
    def needed(controls: Controls, prefill: bool, gen_prefix: str | None) -> bool:
        """Whether the final input differs from the model's plain ``render`` under these settings."""
        return controls.for_template or prefill or bool(gen_prefix)

    def answer_start(self, prompt: str | PromptList) -> str:
        """The text the model's answer starts with: the dropped BOT text (``prefill``), then ``gen_prefix``."""
        kept = self.model.dropped_answer(prompt) if self.prefill and isinstance(self.model, (CompletionModel, ChatModel, ChatTemplateModel)) else ""
        return kept + self.gen_prefix

    def render(self, prompt: str | PromptList, media: list[dict[str, Any]] | None = None) -> FinalInput:
        """The final input (see the module docstring); a completion model's media parts are appended to ``media``."""
        start = self.answer_start(prompt)
        model = self.model
        if isinstance(model, ChatTemplateModel):
            assert self._bound is not None
            return model.render_with(prompt, self.mode, self._bound, start)
        if isinstance(model, ChatModel):
            if not start:
                return model.render(prompt, self.mode)
            messages = model.chat_messages(prompt, self.mode)
            if messages and messages[-1].role == "assistant":
                messages = (*messages[:-1], replace(messages[-1], content=merge_content(messages[-1].content, start)))
            else:
                messages = (*messages, Message("assistant", start))
            return to_openai(messages)
        if media is not None:
            final, found = model.render_with_media(prompt, self.mode)
            media.extend(found)
        else:
            final = model.render(prompt, self.mode)
        assert isinstance(final, str)
        return final + start

    def render_tools(self, prompt: str | PromptList, template: ChatTemplateModel, tools: Sequence[Mapping[str, Any]]) -> str:
        """The final input with ``tools`` written by ``template`` (the model's chat template, or the one of a completion
        model's folder) under the controls, continuing the answer's start as that template renders the prompt."""
        kept = template.dropped_answer(prompt) if self.prefill else ""
        return template.render_tools(prompt, self.mode, tools, self.controls, kept + self.gen_prefix)

    def request_for(self, final: FinalInput, prompt: str | PromptList | None = None) -> dict[str, Any] | None:
        """What an API chat request for ``final`` carries besides the messages: ``chat_template_kwargs``, and the
        continuation fields when the messages end with the answer's start (``None`` for other kinds); ``prompt``, what
        ``final`` was rendered from, is not needed here."""
        if not isinstance(final, list):
            return None
        if (self.prefill or self.gen_prefix) and final and final[-1]["role"] == "assistant":
            return {**(self.request or {}), **CONTINUE_FIELDS}
        return self.request
