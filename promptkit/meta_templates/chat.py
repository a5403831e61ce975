"""PromptList → chat messages, for API and chat models (OpenCompass's ``APITemplateParser``).

Each rendered role becomes one message ``(api_role, begin + prompt + end)``;
consecutive messages of the same ``api_role`` are merged with ``'\\n'``.
Empty messages are kept (as OpenCompass keeps them).

A multimodal turn's content is its list of parts (the role's ``begin`` and
``end``, when not empty, become text parts around them).  Merging a text
message with a multimodal one of the same role gives one parts list, in
order — AISBench raises a TypeError there.

Text outside any role cannot travel on its own in a chat request.  Where
OpenCompass drops it with a warning, promptkit joins non-blank text to the
adjacent user message, on a line of its own — the next message, or the
previous one at the end of the prompt — and raises an error naming the text when that message is not a
user message.  Whitespace-only text (separators between shots) is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates._walk import Cut, Rendered, RoleTable, Text, walk
from promptkit.promptlist import Marker, PromptList, RoleItem

__all__ = ["ApiMessage", "Content", "content_without_meta", "merge_content", "render_api_messages"]

#: A message's content: text, or a list of OpenAI-style content parts.
Content = str | list[dict[str, Any]]


@dataclass(slots=True)
class ApiMessage:
    """A message before the final role names: ``role`` is a meta ``api_role`` (``HUMAN``, ``BOT``, ``SYSTEM``)."""

    role: str
    content: Content


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _as_parts(content: Content) -> list[dict[str, Any]]:
    if isinstance(content, list):
        return content
    return [_text_part(content)] if content else []


def merge_content(first: Content, second: Content, separator: str = "\n") -> Content:
    """Two contents as one: text joined with ``separator``, or, if either has parts, one parts list in order."""
    if isinstance(first, str) and isinstance(second, str):
        return first + separator + second
    return _as_parts(first) + _as_parts(second)


def _event_content(event: Rendered) -> Content:
    if event.parts is None:
        return event.begin + event.prompt + event.end
    parts = [part.dump() for part in event.parts]
    if event.begin:
        parts.insert(0, _text_part(event.begin))
    if event.end:
        parts.append(_text_part(event.end))
    return parts


def render_api_messages(prompt: PromptList, roles: RoleTable, mode: str, user_role: str = "HUMAN") -> list[ApiMessage]:
    messages: list[ApiMessage] = []
    pending: list[str] = []
    for event in walk(prompt.items, roles, mode):
        if type(event) is Rendered:
            api_role = event.spec.api_role
            if api_role is None:
                raise MetaTemplateError(
                    f"role {event.spec.role!r} of the chat model's meta template has no api_role; "
                    "set api_role='HUMAN', 'BOT' or 'SYSTEM'",
                    key=event.spec.role,
                )
            content = event.begin + event.prompt + event.end if event.parts is None else _event_content(event)
            if pending:
                if api_role != user_role:
                    raise _misplaced(pending, f"before a {api_role} message")
                content = _join_lines("".join(pending), content)
                pending = []
            messages.append(ApiMessage(api_role, content))
        elif type(event) is Text:
            if event.text.strip():
                pending.append(event.text)
        elif type(event) is Cut:
            break
    if pending:
        if not messages or messages[-1].role != user_role:
            raise _misplaced(pending, "at the end of the prompt, after no user message")
        messages[-1].content = _join_lines(messages[-1].content, "".join(pending))
    merged: list[ApiMessage] = []
    for message in messages:
        if merged and merged[-1].role == message.role:
            merged[-1].content = merge_content(merged[-1].content, message.content)
        else:
            merged.append(message)
    return merged


def _join_lines(first: Content, second: Content) -> Content:
    """``first`` then ``second`` on a new line, unless ``first`` is empty or already ends one (parts: one list)."""
    if isinstance(first, list) or isinstance(second, list):
        return merge_content(first, second)
    return first + second if not first or first.endswith("\n") else first + "\n" + second


def _misplaced(texts: list[str], where: str) -> MetaTemplateError:
    text = "".join(texts)
    shown = text if len(text) <= 60 else text[:57] + "..."
    return MetaTemplateError(
        f"text {shown!r} stands outside any role {where}; a chat model can only carry it inside a user message. "
        "Move it into a HUMAN prompt, or make ice_template a chat template so shots become turns"
    )


def content_without_meta(prompt: PromptList) -> Content:
    """No meta template: one user message's content.

    Texts and role prompts are joined with ``'\\n'`` (roles and sections
    ignored).  If any turn is multimodal the content is a parts list: each run
    of text becomes one text part, and every part keeps its place — AISBench
    drops the media whenever any text exists.
    """
    content: Content = ""
    texts: list[str] = []
    for item in prompt.items:
        if type(item) is Marker:
            continue
        if type(item) is RoleItem and item.parts is not None:
            if texts:
                content = merge_content(content, "\n".join(texts)) if content else "\n".join(texts)
                texts = []
            content = _as_parts(content) + [part.dump() for part in item.parts]
            continue
        text = item if type(item) is str else (item.prompt or "")  # type: ignore[union-attr]
        if text:
            texts.append(text)
    if texts:
        joined = "\n".join(texts)
        content = merge_content(content, joined) if content else joined
    return content
