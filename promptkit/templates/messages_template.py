"""``MessagesTemplate``: a row that already holds OpenAI-style ``messages`` renders as those turns.

Roles map to the meta-template roles (system → ``SYSTEM`` with fallback
``HUMAN``, user → ``HUMAN``, assistant → ``BOT``, tool → ``TOOL``); a string ``content`` or a list of text parts is the
turn's text (parts joined by ``'\\n'``).  An assistant message's ``tool_calls``
(its ``content`` may then be ``null``) and a tool message's ``tool_call_id``
travel with the turn to the model (a chat request's messages, a chat
template's ``tool_calls`` and ``tool`` messages).  Message text is data, never template:
a ``{answer}`` in it stays literal.

Layout of the PromptList: leading system messages in the ``begin`` section;
then, in the ``round`` section, the shots (each shot's messages and its answer
as a ``BOT`` turn), the row's remaining messages, and the ``BOT`` turn of the
item under test (its answer masked).  When the row has ``choices`` (the
``'A. …\\nB. …'`` listing of its options) they follow the text of the last user
message on a new line, so options are shown in order.

>>> t = MessagesTemplate()
>>> t.render({'messages': [{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': 'Say {answer}'}],
...           'answer': 'x'}, masked='answer')
PromptList([
  <begin>
  SYSTEM: 'Be brief.' [fallback_role='HUMAN']
  </begin>
  <round>
  HUMAN: 'Say {answer}'
  BOT: ''
  </round>
])

A message with image, audio, video or file parts becomes a multimodal turn: its
parts, in order (a chat model sends them as content parts, a ``file_url`` part as
OpenAI's ``file`` part; a completion model writes its ``mm_placeholders`` and lists
the media, so a file needs ``mm_placeholders=dict(file=...)``).  An assistant
message's ``reasoning_content`` travels with its turn to a chat model (and to a
chat template, which may render it).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from promptkit.errors import TemplateError
from promptkit.parts import MEDIA, Part, freeze, media_key
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.templates.protocol import Prompt

__all__ = ["MessagesTemplate"]

_ROLES = {"system": "SYSTEM", "user": "HUMAN", "assistant": "BOT", "tool": "TOOL"}
_PART_TYPES = ("text", *(media_key(modality) for modality in MEDIA))
_BEGIN = (Marker("begin", "begin"), Marker("begin", "end"))
_ROUND = (Marker("round", "begin"), Marker("round", "end"))
_ICE = (Marker("ice", "begin"), Marker("ice", "end"))


class MessagesTemplate:
    """Renders the ``column`` of OpenAI-style messages of each row (see the module docstring).

    ``answer_column`` is what a shot's ``BOT`` turn shows; ``list_options``
    appends the row's ``choices`` to its last user message.  ``ice_token`` is
    accepted for config compatibility: shots always go after the leading
    system messages, before the others.  ``turn=0`` reads the column as BFCL
    stores its ``question``: a list of turns, each a list of messages; that
    turn's messages render.  Implements
    :class:`~promptkit.templates.protocol.Template`.
    """

    #: A chat template: shots arrive as PromptLists.
    kind: ClassVar[str] = "chat"
    #: Not label-keyed; no context/answer boundary.
    labels: ClassVar[None] = None
    sep_token: ClassVar[None] = None
    #: The shots always have a place: after the leading system messages.
    has_ice_slot: ClassVar[bool] = True
    #: Any row may hold media parts: completion models then list the media beside the string (``media`` in records).
    is_multimodal: ClassVar[bool] = True

    def __init__(self, column: str = "messages", answer_column: str = "answer", list_options: bool = True, ice_token: str = "</E>", turn: int | None = None) -> None:
        for name, value in (("column", column), ("answer_column", answer_column), ("ice_token", ice_token)):
            if not isinstance(value, str) or not value:
                raise TemplateError(f"{name} must be a non-empty str (got {value!r})", key=name)
        if not isinstance(list_options, bool):
            raise TemplateError(f"list_options must be True or False (got {list_options!r} that is a {type(list_options).__name__})", key="list_options")
        if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 0):
            raise TemplateError(f"turn must be a turn number, 0 or more (got {turn!r})", key="turn")
        self.column = column
        self.answer_column = answer_column
        self.list_options = list_options
        self.ice_token = ice_token
        self.turn = turn

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> PromptList:
        """A shot: its messages as turns, then its answer as the ``BOT`` turn, in an ``ice`` section."""
        system, turns = self._split(row)
        if self.answer_column not in row:
            raise TemplateError(
                f"the shot has no answer column {self.answer_column!r} (columns: {', '.join(map(str, row))}); "
                "set MessagesTemplate(answer_column=...) to the column holding the answer",
                key=self.answer_column,
            )
        return PromptList._of((_ICE[0], *system, *turns, RoleItem("BOT", str(row[self.answer_column])), _ICE[1]))

    def render(
        self,
        row: Mapping[str, Any],
        ice: Prompt = "",
        *,
        label: Hashable | None = None,
        masked: str | None = None,
        mask_value: str = "",
    ) -> PromptList:
        """The row's messages with ``ice`` (the shots) before its first non-system message; the answer is never shown."""
        system, turns = self._split(row)
        # Chat shots arrive closed by the retriever's (empty) eos token: only non-empty text is kept.
        shots: tuple[Item, ...] = tuple(item for item in ice.items if item != "") if isinstance(ice, PromptList) else ((ice,) if ice else ())
        return PromptList._of((_BEGIN[0], *system, _BEGIN[1], _ROUND[0], *shots, *turns, RoleItem("BOT", mask_value), _ROUND[1]))

    def _split(self, row: Mapping[str, Any]) -> tuple[list[RoleItem], list[RoleItem]]:
        """(leading system turns, the other turns) of the row's messages."""
        messages = row.get(self.column)
        if self.turn is not None:
            turns = messages
            if not isinstance(turns, Sequence) or isinstance(turns, str) or len(turns) <= self.turn:
                raise TemplateError(f"column {self.column!r} must hold a list of turns (lists of messages) with a turn {self.turn} (got {turns!r})", key=self.column)
            messages = turns[self.turn]
        if not isinstance(messages, Sequence) or isinstance(messages, str) or not messages:
            raise TemplateError(f"column {self.column!r} must hold a non-empty list of messages (got {messages!r})", key=self.column)
        items = [_turn(message, i, self.column) for i, message in enumerate(messages)]
        if self.list_options and row.get("choices"):
            last_user = max((i for i, item in enumerate(items) if item.role == "HUMAN"), default=None)
            if last_user is None:
                raise TemplateError("the row has choices to list but no user message to list them in", key=self.column)
            items[last_user] = _with_choices(items[last_user], str(row["choices"]))
        lead = 0
        while lead < len(items) and items[lead].role == "SYSTEM":
            lead += 1
        return items[:lead], items[lead:]

    def __repr__(self) -> str:
        turn = "" if self.turn is None else f", turn={self.turn!r}"
        return f"MessagesTemplate(column={self.column!r}, answer_column={self.answer_column!r}, list_options={self.list_options!r}{turn})"


def _with_choices(item: RoleItem, choices: str) -> RoleItem:
    """The user turn with the choices listed after its text (after its last part, for a multimodal turn)."""
    if item.parts is not None:
        return replace(item, parts=(*item.parts, Part.text(f"\n{choices}")))
    return replace(item, prompt=f"{item.prompt}\n{choices}" if item.prompt else choices)


def _turn(message: Any, index: int, column: str) -> RoleItem:
    where = f"{column}[{index}]"
    calls = message.get("tool_calls") if isinstance(message, Mapping) else None
    if not isinstance(message, Mapping) or "role" not in message or ("content" not in message and calls is None):
        raise TemplateError(f"{where} must be a message dict with 'role' and 'content' (got {message!r})", key=where)
    role = _ROLES.get(message["role"])
    if role is None:
        raise TemplateError(f"{where} has role {message['role']!r}; MessagesTemplate renders the roles {', '.join(_ROLES)}", key=where)
    reasoning = message.get("reasoning_content")
    if reasoning is not None and (role != "BOT" or not isinstance(reasoning, str)):
        raise TemplateError(f"{where}: reasoning_content must be a string on an assistant message (got {reasoning!r} on {message['role']!r})", key=where)
    if calls is not None or message.get("tool_call_id") is not None:
        return _tool_turn(message, role, calls, where, reasoning)
    # A model without a SYSTEM role gets system text as a user turn, as the bundled chat configs do.
    fallback = "HUMAN" if role == "SYSTEM" else None
    content = message["content"]
    if isinstance(content, str):
        return RoleItem(role, content, fallback, reasoning_content=reasoning)
    if not isinstance(content, Sequence) or not all(isinstance(part, Mapping) for part in content):
        raise TemplateError(f"{where} content must be a str or a list of content parts (dicts with 'type'), got {content!r}", key=where)
    for number, part in enumerate(content):
        if part.get("type") == "text" and not isinstance(part.get("text"), str):
            raise TemplateError(f"{where} part {number} is a text part without a 'text' string (got {dict(part)!r})", key=where)
    if all(part.get("type") == "text" for part in content):
        return RoleItem(role, "\n".join(part["text"] for part in content), fallback, reasoning_content=reasoning)
    parts = []
    for part in content:
        kind = part.get("type")
        if kind not in _PART_TYPES:
            raise TemplateError(f"{where} has a {kind!r} part; a prompt carries text, image_url, audio_url, video_url and file_url parts", key=where)
        parts.append(Part.from_dict(part))
    return RoleItem(role, None, fallback, parts=tuple(parts), reasoning_content=reasoning)


def _tool_turn(message: Mapping[str, Any], role: str, calls: Any, where: str, reasoning: str | None) -> RoleItem:
    """An assistant turn with tool calls, or a tool's result answering one (``tool_call_id``)."""
    if calls is not None and (role != "BOT" or not isinstance(calls, Sequence) or isinstance(calls, str) or not all(isinstance(c, Mapping) for c in calls)):
        raise TemplateError(f"{where}: tool_calls must be a list of tool-call dicts on an assistant message (got {calls!r} on {message['role']!r})", key=where)
    call_id = message.get("tool_call_id")
    if call_id is not None and (role != "TOOL" or not isinstance(call_id, str)):
        raise TemplateError(f"{where}: tool_call_id must be a string on a tool message (got {call_id!r} on {message['role']!r})", key=where)
    content = message.get("content")
    if content is None:
        text = ""
    elif isinstance(content, str):
        text = content
    elif isinstance(content, Sequence) and all(isinstance(part, Mapping) and part.get("type") == "text" and isinstance(part.get("text"), str) for part in content):
        text = "\n".join(part["text"] for part in content)
    else:
        raise TemplateError(f"{where}: a tool call's or a tool result's content must be text (got {content!r})", key=where)
    calls_frozen = tuple(freeze(call) for call in calls) if calls is not None else None
    return RoleItem(role, text, tool_calls=calls_frozen, tool_call_id=call_id, reasoning_content=reasoning)
