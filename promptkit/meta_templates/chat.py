"""PromptList → chat messages, for API and chat models (OpenCompass's ``APITemplateParser``).

Each rendered role becomes one message ``(api_role, begin + prompt + end)``;
consecutive messages of the same ``api_role`` are merged with ``'\\n'``.
Empty messages are kept (as OpenCompass keeps them).

Text outside any role cannot travel on its own in a chat request.  Where
OpenCompass drops it with a warning, promptkit joins non-blank text to the
adjacent user message, on a line of its own — the next message, or the
previous one at the end of the prompt — and raises an error naming the text when that message is not a
user message.  Whitespace-only text (separators between shots) is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates._walk import Cut, Rendered, RoleTable, Text, walk
from promptkit.promptlist import PromptList

__all__ = ["ApiMessage", "render_api_messages"]


@dataclass(slots=True)
class ApiMessage:
    """A message before the final role names: ``role`` is a meta ``api_role`` (``HUMAN``, ``BOT``, ``SYSTEM``)."""

    role: str
    content: str


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
            content = event.begin + event.prompt + event.end
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
            merged[-1].content += "\n" + message.content
        else:
            merged.append(message)
    return merged


def _join_lines(first: str, second: str) -> str:
    """``first`` then ``second`` on a new line, unless ``first`` is empty or already ends one."""
    return first + second if not first or first.endswith("\n") else first + "\n" + second


def _misplaced(texts: list[str], where: str) -> MetaTemplateError:
    text = "".join(texts)
    shown = text if len(text) <= 60 else text[:57] + "..."
    return MetaTemplateError(
        f"text {shown!r} stands outside any role {where}; a chat model can only carry it inside a user message. "
        "Move it into a HUMAN prompt, or make ice_template a chat template so shots become turns"
    )
