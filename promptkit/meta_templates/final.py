"""The model stage of one prompt: the template's output becomes the model's final input.

:class:`FinalStage` is built once per dataset × model by the plan.  Which way a prompt goes, decided once:

* a template written as chat messages (``RawPromptTemplate``) reaches a chat model as written, past its meta template;
* tools that a chat template writes into the prompt (a chat-template model's own template, or, for a completion model,
  the template of the model folder its ``path`` names) — a chat model carries them in its request instead; a template
  that would leave them (or a tool call, a tool result) out refuses the row
  (:meth:`~promptkit.meta_templates.chat_template_model.ChatTemplateModel.render_tools`), and so does a ``tool_choice``
  other than ``'auto'``, which only a chat model's request carries;
* the prompt controls (prefill, ``gen_prefix``, chat-template kwargs, thinking: :class:`ControlledOutput`), or a
  template's chat history as built (:class:`~promptkit.meta_templates.chat_history.ChatHistoryOutput`);
* otherwise the model's own ``render`` (with the media a completion model's placeholders stand for, when the
  template is multimodal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any

from promptkit.data.tools import Tools
from promptkit.errors import ConfigError, DatasetError
from promptkit.meta_templates.chat_history import ChatHistoryOutput
from promptkit.meta_templates.chat_template_model import ChatTemplateModel
from promptkit.meta_templates.completion_model import CompletionModel
from promptkit.meta_templates.conformance import chat_template_twin
from promptkit.meta_templates.controlled import ControlledOutput
from promptkit.meta_templates.protocol import FinalInput, Model
from promptkit.promptlist import PromptList, RoleItem
from promptkit.templates.protocol import Prompt
from promptkit.types import Row

__all__ = ["FinalStage", "Media", "media_parts"]

#: The media parts a completion model's placeholders stand for, in order (``None``: the prompt has none to list).
Media = list[dict[str, Any]] | None


class FinalStage:
    """A prompt's final input for one model (see the module docstring)."""

    def __init__(
        self,
        model: Model,
        mode: str,
        *,
        chat_messages: Callable[[Prompt], FinalInput] | None = None,
        tools: Tools | None = None,
        output: ControlledOutput | ChatHistoryOutput | None = None,
        collects_media: bool = False,
    ) -> None:
        self.model = model
        self.mode = mode
        self.chat_messages = chat_messages
        #: The dataset's tools when a chat template writes them into the prompt (``None`` otherwise).
        self.tools = tools
        self.output = output
        self.collects_media = collects_media

    def render(self, prompt: Prompt, row: Row) -> tuple[FinalInput, Media]:
        """The final input of ``prompt`` (rendered from ``row``), and its media for a completion model."""
        if self.chat_messages is not None:
            return self.chat_messages(prompt), None
        if self.tools is not None:
            tools = self.tools.for_row(row)
            if tools is not None and "tools" in tools:
                return self._with_tools(prompt, tools), media_parts(prompt) if self.collects_media else None
        if self.output is not None:
            media: Media = [] if self.collects_media else None
            return self.output.render(prompt, media), media
        if self.collects_media:
            return self.model.render_with_media(prompt, self.mode)
        return self.model.render(prompt, self.mode), None

    def _with_tools(self, prompt: Prompt, tools: Mapping[str, Any]) -> FinalInput:
        """The final input with the row's tools written into it by a chat template, under the controls; a ``tool_choice``
        other than ``'auto'`` is refused (a string prompt has no place for it)."""
        choice = tools.get("tool_choice")
        if choice is not None and choice != "auto":
            raise DatasetError(
                f"the prompt's tool_choice {choice!r} has no place in a string prompt: the chat template writes the tools into the "
                "text, and only a chat model's request carries tool_choice; use a ChatModel, or tool_choice='auto' (or none)",
                key="tool_choice",
            )
        if isinstance(self.output, ControlledOutput):
            return self.output.render_tools(prompt, self.tool_template, tools["tools"])
        return self.tool_template.render_tools(prompt, self.mode, tools["tools"])

    @cached_property
    def tool_template(self) -> ChatTemplateModel:
        """The chat template that writes the tools: the model's own, or that of a completion model's folder."""
        model = self.model
        if isinstance(model, ChatTemplateModel):
            return model
        runtime = model.runtime if isinstance(model, CompletionModel) else {}
        folder = runtime.get("tokenizer_path") or runtime.get("path")
        if not isinstance(model, CompletionModel) or not isinstance(folder, str):
            raise ConfigError(
                f"the dataset's prompts offer tools, and model {model.abbr!r} is a completion model whose meta template has no place "
                "for them and which has no chat template to write them (path= a local model folder with one); give it path=, or "
                "use a ChatTemplateModel or a ChatModel (the request carries the tools)",
                key="tools",
            )
        return chat_template_twin(model)


def media_parts(prompt: Prompt) -> list[dict[str, Any]]:
    """The media parts of a prompt, in order (what a completion model lists beside its string)."""
    if not isinstance(prompt, PromptList):
        return []
    return [part.dump() for item in prompt.items if isinstance(item, RoleItem) and item.parts for part in item.parts if part.modality != "text"]
