"""Chat messages as frozen values: what a chat model's meta template makes of a PromptList.

A :class:`Message` has a ``role`` (``"user"``, ``"assistant"``, ``"system"``,
…) and a ``content`` that is text or a tuple of :class:`~promptkit.Part`,
plus the optional ``name``, ``tool_call_id``, ``tool_calls`` and
``reasoning_content`` of a chat request.  Messages are values: nothing that receives one can change it, so
the messages of a constant prefix (a system turn, fixed shots) are built once
and shared by every prompt.  OpenAI-style dicts exist only at the output edge:
:meth:`Message.to_openai` and :func:`to_openai` build fresh ones.

>>> m = Message("user", (Part.text("What is in it?"), Part.media("image", "file:///d/cat.png")))
>>> m.to_openai()
{'role': 'user', 'content': [{'type': 'text', 'text': 'What is in it?'}, {'type': 'image_url', 'image_url': {'url': 'file:///d/cat.png'}}]}
>>> to_openai([Message("system", "Be brief."), Message("user", "Hi")])
[{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': 'Hi'}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from promptkit.parts import Frozen, Part, thaw

__all__ = ["Content", "Message", "merge_content", "to_openai"]

#: A message's content: text, or content parts in order.
Content = str | tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message (see the module docstring); ``tool_calls`` holds frozen JSON objects (:func:`~promptkit.parts.freeze`)."""

    role: str
    content: Content = ""
    name: str | None = None
    tool_call_id: str | None = None
    tool_calls: tuple[Frozen, ...] | None = None
    #: An assistant message's reasoning, carried beside its content (DeepSeek's and vLLM's ``reasoning_content``).
    reasoning_content: str | None = None
    #: The OpenAI dict of a message without nested lists, made once; only copies of it leave (see :func:`to_openai`).
    _openai: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.content) is str and self.tool_calls is None:
            object.__setattr__(self, "_openai", self.to_openai())

    def to_openai(self) -> dict[str, Any]:
        """The OpenAI-style dict, fresh: ``{"role": ..., "content": ...}`` and the optional fields that are set."""
        content = self.content
        out: dict[str, Any] = {"role": self.role, "content": content if isinstance(content, str) else [part.to_openai() for part in content]}
        if self.name is not None:
            out["name"] = self.name
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.tool_calls is not None:
            out["tool_calls"] = [thaw(call) for call in self.tool_calls]
        if self.reasoning_content is not None:
            out["reasoning_content"] = self.reasoning_content
        return out


def to_openai(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages as OpenAI-style dicts, each built fresh.

    A message without nested lists (text content, no tool calls) keeps its
    dict and hands out copies: the messages of a constant prefix recur in
    every prompt, and copying a small dict is cheaper than building it.
    """
    try:
        return [message._openai.copy() for message in messages]  # type: ignore[union-attr]  # None: see below
    except AttributeError:  # a message with content parts or tool calls: its dict is built each time
        return [message.to_openai() if message._openai is None else message._openai.copy() for message in messages]


def _as_parts(content: Content) -> tuple[Part, ...]:
    if type(content) is not str:
        return content  # type: ignore[return-value]
    return (Part.text(content),) if content else ()


def merge_content(first: Content, second: Content, separator: str = "\n") -> Content:
    """Two contents as one: text joined with ``separator``, or, if either has parts, one parts tuple in order.

    An empty text adds no part (OpenCompass's and AISBench's merge of a text message onto a multimodal one).
    """
    if type(first) is str and type(second) is str:
        return first + separator + second  # type: ignore[operator]
    return _as_parts(first) + _as_parts(second)

