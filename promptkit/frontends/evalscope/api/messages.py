"""``evalscope.api.messages`` as adapter files use it: chat messages and their content parts.

A ``Sample.input`` is a string or a list of these messages; the messages of a sample are what EvalScope sends, and
:func:`openai_messages` writes them as the OpenAI-style dicts of its requests (system content as its text, user and
assistant content as a string, or a list of text parts).  Media parts exist so that a file that builds them loads;
a prompt with one is refused where the messages are written (EvalScope's media benchmarks are out of scope).

>>> messages = [ChatMessageSystem(content='Be brief.'), ChatMessageUser(content='2+2?')]
>>> openai_messages(messages)
[{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': '2+2?'}]
>>> messages_to_markdown(messages)
'Be brief.\\n\\n2+2?'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
    "ChatMessage",
    "ChatMessageAssistant",
    "ChatMessageSystem",
    "ChatMessageTool",
    "ChatMessageUser",
    "ContentAudio",
    "ContentImage",
    "ContentReasoning",
    "ContentText",
    "ContentVideo",
    "MediaInPrompt",
    "dict_to_chat_message",
    "messages_to_markdown",
    "openai_messages",
]


@dataclass(kw_only=True)
class ContentText:
    """A text part."""

    text: str
    type: str = "text"


@dataclass(kw_only=True)
class ContentReasoning:
    """A model's reasoning, kept on an assistant message of a conversation history."""

    reasoning: str
    type: str = "reasoning"


@dataclass(kw_only=True)
class ContentImage:
    """An image part (a path, URL or data URI)."""

    image: str
    detail: str = "auto"
    type: str = "image"


@dataclass(kw_only=True)
class ContentAudio:
    """An audio part."""

    audio: str
    format: str = "wav"
    type: str = "audio"


@dataclass(kw_only=True)
class ContentVideo:
    """A video part."""

    video: str
    format: str = "mp4"
    type: str = "video"


Content = ContentText | ContentReasoning | ContentImage | ContentAudio | ContentVideo


class MediaInPrompt(ValueError):
    """A message carries an image, audio or video part: a prompt promptkit's EvalScope front end does not render."""


@dataclass(kw_only=True)
class _Message:
    """What every message has: its content (a string or a list of parts) and a role."""

    role: ClassVar[str]
    content: str | list[Any]
    id: str | None = None
    source: str | None = None
    metadata: dict[str, Any] | None = None
    internal: Any = None

    @property
    def text(self) -> str:
        """The content as text: the string, or the text parts joined by newlines."""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(part.text for part in self.content if getattr(part, "type", None) == "text")


@dataclass(kw_only=True)
class ChatMessageSystem(_Message):
    role: ClassVar[str] = "system"


@dataclass(kw_only=True)
class ChatMessageUser(_Message):
    role: ClassVar[str] = "user"
    tool_call_id: list[str] | None = None


@dataclass(kw_only=True)
class ChatMessageAssistant(_Message):
    role: ClassVar[str] = "assistant"
    tool_calls: list[Any] | None = None
    model: str | None = None


@dataclass(kw_only=True)
class ChatMessageTool(_Message):
    role: ClassVar[str] = "tool"
    tool_call_id: str | None = None
    function: str | None = None
    error: Any = None


ChatMessage = ChatMessageSystem | ChatMessageUser | ChatMessageAssistant | ChatMessageTool

_BY_ROLE: dict[str, type[_Message]] = {kind.role: kind for kind in (ChatMessageSystem, ChatMessageUser, ChatMessageAssistant, ChatMessageTool)}
_PARTS: dict[str, type[Any]] = {"text": ContentText, "reasoning": ContentReasoning, "image": ContentImage, "audio": ContentAudio, "video": ContentVideo}


def dict_to_chat_message(data: Mapping[str, Any] | Any) -> Any:
    """A message from its dict (``{'role': 'user', 'content': ...}``); a message is returned as it is."""
    if not isinstance(data, Mapping):
        return data
    if "role" not in data:
        raise ValueError('ChatMessage must have a "role" field')
    kind = _BY_ROLE.get(data["role"])
    if kind is None:
        raise ValueError(f"Unknown chat message role: {data['role']}")
    values = {key: value for key, value in data.items() if key != "role"}
    content = values.get("content")
    if isinstance(content, list):
        values["content"] = [_part(part) for part in content]
    return kind(**values)


def _part(part: Any) -> Any:
    if not isinstance(part, Mapping):
        return part
    kind = _PARTS.get(str(part.get("type")))
    if kind is None:
        raise ValueError(f"unknown content part type {part.get('type')!r}")
    return kind(**part)


def messages_to_markdown(messages: Sequence[Any]) -> str:
    """The messages' text, one block per message, blocks joined by a blank line (what EvalScope's choice shuffle seeds
    a message input with); media parts as EvalScope writes them."""
    blocks = []
    for message in messages:
        pieces = []
        if isinstance(message.content, str):
            pieces.append(message.content)
        else:
            for part in message.content:
                kind = getattr(part, "type", None)
                if kind == "text":
                    pieces.append(part.text)
                elif kind == "image":
                    pieces.append(f"![image]({part.image})")
                elif kind == "audio":
                    pieces.append(f"<audio controls src='{part.audio}'></audio>")
                elif kind == "video":
                    pieces.append(f"<video controls src='{part.video}'></video>")
                elif kind == "reasoning":
                    pieces.append(f"**Reasoning:** {part.reasoning}")
        if message.role == "tool":
            if message.error:
                pieces.append(f"**Error:** {getattr(message.error, 'message', message.error)}")
            if message.function:
                pieces.append(f"**Function:** {message.function}")
        elif message.role == "assistant" and message.tool_calls:
            pieces.extend(f"**Tool Call:** {getattr(call, 'function', call)}" for call in message.tool_calls)
        blocks.append("\n".join(pieces))
    return "\n\n".join(blocks)


def openai_messages(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """The OpenAI-style dicts EvalScope's OpenAI-compatible model sends for ``messages`` (its own message objects, or
    EvalScope's when EvalScope is installed: both are read by their ``role`` and ``content``)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.role
        content = message.content
        if not isinstance(content, str):
            media = [getattr(part, "type", "?") for part in content if getattr(part, "type", None) not in ("text", "reasoning")]
            if media:
                raise MediaInPrompt(f"a {role} message carries {media[0]} content")
        if role == "system":
            out.append({"role": "system", "content": message.text})
        elif role == "tool":
            out.append({"role": "tool", "content": message.text, "tool_call_id": str(message.tool_call_id)})
        elif isinstance(content, str):
            out.append({"role": role, "content": content})
        elif role == "user":
            out.append({"role": role, "content": [{"type": "text", "text": part.text} for part in content if part.type == "text"]})
        else:
            out.append({"role": role, "content": message.text})
    return out
