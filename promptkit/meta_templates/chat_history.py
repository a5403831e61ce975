"""A chat history as built, for each model kind: the final stage of a :class:`~promptkit.templates.protocol.ChatHistoryTemplate`.

lm-eval builds its messages itself and hands them to the model's chat template unchanged (``HFLM.apply_chat_template``):
no meta template maps their roles, nothing is merged or skipped, and a final assistant message (lm-eval's
``gen_prefix``) is continued instead of answered (``add_generation_prompt=False, continue_final_message=True``).
:class:`ChatHistoryOutput` gives a template whose prompts are such a history (its ``SYSTEM``/``HUMAN``/``BOT`` role
items, one message each) that final input, per model kind:

* chat-template model: the template applied to the messages as they are; the model config's ``system_role`` policy
  applies, and under the default (``'error'``) a template that refuses system messages gets them left out (lm-eval
  retries without them); the record carries the ``messages`` the template received;
* chat model (an API): the messages; one continued is marked in the request (``continue_final_message``), as with a
  prefill;
* completion model: its meta template renders the PromptList and the final assistant text is kept (a prefill);
  without a meta template the template renders plain text.

A string prompt is final text for every kind (lm-eval's unconditional contexts, plain-text contexts): passed on as it
is.  Chat-template kwargs and ``thinking`` apply as with any chat prompt.

>>> from promptkit.messages import Message
>>> from promptkit.promptlist import RoleItem
>>> from promptkit.meta_templates.chat_template_model import ChatTemplateModel
>>> model = ChatTemplateModel(chat_template="{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
...                                         "{% if add_generation_prompt %}<assistant>{% endif %}")
>>> history = lambda prompt: tuple(Message({'SYSTEM': 'system', 'HUMAN': 'user', 'BOT': 'assistant'}[i.role], i.prompt)
...                                for i in prompt if isinstance(i, RoleItem))
>>> output = ChatHistoryOutput(model, Controls(), history)
>>> prompt = PromptList([dict(role='HUMAN', prompt=''), dict(role='BOT', prompt='Answer:')])
>>> output.render(prompt), output.request_for("", prompt)
('<user><assistant>Answer:', {'messages': [{'role': 'user', 'content': ''}, {'role': 'assistant', 'content': 'Answer:'}]})
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promptkit.chat_templates import BoundChatTemplate
from promptkit.controls import Controls
from promptkit.errors import ConfigError
from promptkit.messages import Message, to_openai
from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.chat_template_model import ChatTemplateModel, apply_system_policy, probe_system_role
from promptkit.meta_templates.completion_model import CompletionModel
from promptkit.meta_templates.controlled import API_THINKING_SWITCH, CONTINUE_FIELDS
from promptkit.meta_templates.model import FinalInput
from promptkit.meta_templates.protocol import Model
from promptkit.promptlist import PromptList

__all__ = ["ChatHistoryOutput"]


class ChatHistoryOutput:
    """The final input of a chat history template's prompts for ``model`` under ``controls`` (see the module docstring);
    ``history`` gives the messages of a rendered PromptList."""

    def __init__(self, model: Model, controls: Controls, history: Callable[[PromptList], tuple[Message, ...]]) -> None:
        self.model = model
        self.history = history
        #: What every API chat request carries besides the messages (``chat_template_kwargs``), or ``None``.
        self.request: dict[str, Any] | None = None
        self._bound: BoundChatTemplate | None = None
        #: The system-message policy applied before the chat template (``'error'``: messages as they are).
        self.system_role = "error"
        if isinstance(model, ChatTemplateModel):
            self._bound = model.bound_with(controls)
            self.system_role = model.system_role
            if self.system_role == "error" and probe_system_role(self._bound) == "raises":
                self.system_role = "drop"  # lm-eval renders again without the system messages when the template raises
        elif isinstance(model, ChatModel):
            kwargs = dict(controls.template_kwargs(API_THINKING_SWITCH))
            self.request = {"chat_template_kwargs": kwargs} if kwargs else None
        elif not isinstance(model, CompletionModel):
            raise ConfigError(
                f"model {model.abbr!r} ({type(model).__name__}) implements the model protocol only: a chat history needs a "
                "CompletionModel, ChatModel or ChatTemplateModel (or a subclass)",
                key="type",
            )
        elif controls.thinking_value() is True:
            raise ConfigError(
                f"thinking=True is set but model {model.abbr!r} is a completion model: its meta template has no thinking switch; "
                "use a chat-template or API chat model, or remove thinking",
                key="thinking",
            )
        self._last: tuple[PromptList | None, tuple[Message, ...]] = (None, ())

    def messages(self, prompt: PromptList) -> tuple[Message, ...]:
        """The messages a chat model or chat template receives for ``prompt``: the history, an empty final assistant
        message left out (it stands for the generation prompt), then the system policy."""
        last, messages = self._last
        if last is prompt:  # the prompts of one render (lm-eval's choices) share it
            return messages
        messages = self.history(prompt)
        if messages and messages[-1].role == "assistant" and not messages[-1].content:
            messages = messages[:-1]
        if self.system_role != "error":
            messages = apply_system_policy(messages, self.system_role)
        self._last = (prompt, messages)
        return messages

    def render(self, prompt: str | PromptList, media: list[dict[str, Any]] | None = None) -> FinalInput:
        """The final input of ``prompt`` (see the module docstring); a completion model lists no media here."""
        if isinstance(prompt, str):
            return prompt
        model = self.model
        if isinstance(model, ChatTemplateModel):
            assert self._bound is not None
            messages = self.messages(prompt)
            continued = bool(messages) and messages[-1].role == "assistant"
            return model.apply(messages, self._bound, not continued, continue_final=continued)
        if isinstance(model, ChatModel):
            return to_openai(self.messages(prompt))
        assert isinstance(model, CompletionModel)
        return model.render(prompt, "gen") + model.dropped_answer(prompt)

    def request_for(self, final: FinalInput, prompt: str | PromptList | None = None) -> dict[str, Any] | None:
        """What a record of ``final`` (rendered from ``prompt``) carries besides it: a chat-template model's ``messages``
        (what its template received); an API chat request's ``chat_template_kwargs`` and, when its last message is
        continued, the continuation fields."""
        if not isinstance(prompt, PromptList):
            return None
        if isinstance(self.model, ChatTemplateModel):
            return {"messages": to_openai(self.messages(prompt))}
        if isinstance(final, list) and final and final[-1]["role"] == "assistant":
            return {**(self.request or {}), **CONTINUE_FIELDS}
        return self.request
