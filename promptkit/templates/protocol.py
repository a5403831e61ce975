"""What a prompt template is: the protocols the pipeline and the shot renderer use.

A class that implements :class:`Template` can be a config's ``ice_template``
or ``prompt_template`` (``type=`` takes it without subclassing anything);
:class:`DialogueTemplate` adds what dialogue inference (``infer_mode``
``'every'``/``'last'``, ``MultiTurnGenInferencer``) needs; :class:`ChatHistoryTemplate`
is a template whose prompts are chat messages as built, message for message
(lm-eval's tasks), which a model's final stage takes as they are.  The built-in
templates (``PromptTemplate`` and its Jinja, multimodal and multi-turn kinds,
``MessagesTemplate``) implement them; ``tests/test_protocols.py`` checks it.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from promptkit.messages import Message
from promptkit.promptlist import PromptList

__all__ = ["ChatHistoryTemplate", "ChatMessagesTemplate", "DialogueTemplate", "Prompt", "Template"]

#: A rendered prompt: a string (string templates) or a PromptList (chat templates).
Prompt = str | PromptList


@runtime_checkable
class Template(Protocol):
    """Renders a row, with the shots spliced in, as a string or a PromptList."""

    @property
    def kind(self) -> str:
        """``'string'``, ``'chat'`` or ``'labels'``: how shots rendered with it are joined (chat shots as PromptLists)."""
        ...

    @property
    def labels(self) -> Collection[Hashable] | None:
        """The labels of a label-keyed (likelihood) template, in order; None for any other."""
        ...

    @property
    def ice_token(self) -> str | None:
        """The token the config names for where the shots go (None: the template takes no shots)."""
        ...

    @property
    def has_ice_slot(self) -> bool:
        """Whether rendered prompts have a place for shots (a template without one refuses picked shots)."""
        ...

    @property
    def sep_token(self) -> str | None:
        """The context/answer boundary of likelihood templates, removed from what is rendered."""
        ...

    @property
    def is_multimodal(self) -> bool:
        """Whether rendered prompts may carry media parts (the dataset's media policy then applies)."""
        ...

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        """One in-context example, answer shown (``label``: the shot's answer, for a label-keyed template)."""
        ...

    def render(
        self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = ""
    ) -> Prompt:
        """The item under test with ``ice`` (the joined shots) at the ice token; the ``masked`` column renders as ``mask_value``."""
        ...


@runtime_checkable
class DialogueTemplate(Template, Protocol):
    """A template whose rows are dialogues: one prompt per turn."""

    def count_turns(self, row: Mapping[str, Any]) -> int:
        """How many turns the row's dialogue has."""
        ...

    def render_turn(
        self,
        row: Mapping[str, Any],
        turn: int,
        ice: Prompt = "",
        *,
        masked: str | None = None,
        mask_value: str = "",
        replies: Sequence[str] | None = None,
    ) -> PromptList:
        """The prompt of ``turn`` (0-based): earlier turns with the ground truth, or with the model's ``replies``."""
        ...


@runtime_checkable
class ChatMessagesTemplate(Template, Protocol):
    """A template written as chat messages, which a chat model receives as written, past its meta template
    (``RawPromptTemplate``, as OpenCompass's API models receive it)."""

    def chat_messages(self, prompt: Prompt) -> list[dict[str, Any]]:
        """The OpenAI-style messages of a prompt this template rendered."""
        ...


@runtime_checkable
class ChatHistoryTemplate(Template, Protocol):
    """A template whose PromptLists are a chat history as built, message for message (lm-eval's tasks): a chat model
    receives the messages as they are, a chat-template model's template is applied to them as they are (no meta
    template, nothing merged or skipped), and a final assistant message with text is continued rather than answered
    (:class:`~promptkit.meta_templates.chat_history.ChatHistoryOutput`).  A string prompt is final text, passed on as
    it is."""

    def chat_history(self, prompt: PromptList) -> tuple[Message, ...]:
        """The messages of a PromptList this template rendered."""
        ...
