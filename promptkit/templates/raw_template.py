"""``RawPromptTemplate``: the prompt written as OpenAI-style messages (OpenCompass's ``RawPromptTemplate``).

``messages`` is a list of

* message dicts ``dict(role='user', content='{question}')`` — roles
  ``system``, ``user`` and ``assistant``; ``{column}`` placeholders in the
  content are filled from the row (``format_variables=False`` keeps them as
  written);
* ``dict(expand_column='history')`` — the row's column holding a list of
  messages, inserted as they are (their text is data, never filled);
* the ice token (``'</E>'``) — where the shots go: each shot is the
  ``ice_template``'s messages (a ``RawPromptTemplate`` too) filled from the
  shot's row, answer shown.

A chat model receives the messages as written, as OpenCompass's API models do;
any other model gets them through its meta template (system → ``SYSTEM``,
falling back to ``HUMAN``; user → ``HUMAN``; assistant → ``BOT``), which
OpenCompass does not do (docs/compat.md, "Messages for every model").  The
answer column of the item under test renders as the inferencer's replacement
token, as with every promptkit template.

>>> t = RawPromptTemplate([dict(role='system', content='Be brief.'), '</E>',
...                        dict(role='user', content='{question}'), dict(role='assistant', content='{answer}')])
>>> t.render({'question': '1+1=?', 'answer': '2'}, masked='answer')
PromptList([
  <begin>
  SYSTEM: 'Be brief.' [fallback_role='HUMAN']
  </begin>
  <round>
  HUMAN: '1+1=?'
  BOT: ''
  </round>
])
>>> t.chat_messages(t.render({'question': '1+1=?', 'answer': '2'}, masked='answer'))
[{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': '1+1=?'}, {'role': 'assistant', 'content': ''}]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from promptkit.errors import TemplateError, did_you_mean
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.templates.protocol import Prompt
from promptkit.text.placeholders import CompiledText, compile_text

__all__ = ["RawPromptTemplate"]

#: Message roles and the meta-template roles they render as.
ROLES = {"system": "SYSTEM", "user": "HUMAN", "assistant": "BOT"}
_MESSAGE_ROLES = {role: name for name, role in ROLES.items()}
_MESSAGE_KEYS = ("role", "content")
_BEGIN = (Marker("begin", "begin"), Marker("begin", "end"))
_ROUND = (Marker("round", "begin"), Marker("round", "end"))
_ICE = (Marker("ice", "begin"), Marker("ice", "end"))


class _Message:
    """A message of the template: its role and its compiled content."""

    __slots__ = ("content", "role")

    def __init__(self, role: str, content: CompiledText | str) -> None:
        self.role = role
        self.content = content

    def render(self, values: Mapping[str, Any]) -> RoleItem:
        text = self.content if isinstance(self.content, str) else self.content.render(values)
        return _role_item(self.role, text)


class _Expand:
    """``dict(expand_column=...)``: the messages a row's column holds."""

    __slots__ = ("column",)

    def __init__(self, column: str) -> None:
        self.column = column

    def render(self, row: Mapping[str, Any]) -> list[RoleItem]:
        if self.column not in row:
            raise TemplateError(
                f"expand_column {self.column!r} names no column of the row (columns: {', '.join(map(str, row))})", key=self.column
            )
        messages = row[self.column]
        if messages is None:
            return []
        if not isinstance(messages, Sequence) or isinstance(messages, str):
            raise TemplateError(f"expand_column {self.column!r} must hold a list of messages (got {messages!r})", key=self.column)
        return [_row_message(message, f"{self.column}[{i}]") for i, message in enumerate(messages)]


_Element = _Message | _Expand | None  # None: the ice token


class RawPromptTemplate:
    """Renders ``messages`` (see the module docstring); implements :class:`~promptkit.templates.protocol.Template`.

    ``ice_token`` is the string element of ``messages`` that the shots replace;
    ``format_variables=False`` leaves message contents as written.
    """

    #: Shots arrive as PromptLists of messages.
    kind: ClassVar[str] = "chat"
    #: Not label-keyed (OpenCompass's PPLInferencer cannot score it either); no context/answer boundary; text only.
    labels: ClassVar[None] = None
    sep_token: ClassVar[None] = None
    is_multimodal: ClassVar[bool] = False

    def __init__(self, messages: Sequence[Any], format_variables: bool = True, ice_token: str = "</E>") -> None:
        if not isinstance(messages, Sequence) or isinstance(messages, str):
            raise TemplateError(f"messages must be a list of message dicts (got {messages!r} that is a {type(messages).__name__})", key="messages")
        if not isinstance(format_variables, bool):
            raise TemplateError(f"format_variables must be True or False (got {format_variables!r})", key="format_variables")
        if not isinstance(ice_token, str) or not ice_token:
            raise TemplateError(f"ice_token must be a non-empty str (got {ice_token!r})", key="ice_token")
        self.messages = list(messages)
        self.format_variables = format_variables
        self._ice_token = ice_token
        self._elements: tuple[_Element, ...] = tuple(self._compile(element, f"messages[{i}]") for i, element in enumerate(self.messages))
        self.has_ice_slot = None in self._elements

    @property
    def ice_token(self) -> str:
        return self._ice_token

    def _compile(self, element: Any, where: str) -> _Element:
        if isinstance(element, str):
            if element != self._ice_token:
                raise TemplateError(
                    f"{where} is the string {element!r}, which is not the ice token {self._ice_token!r}; messages holds message "
                    "dicts, dict(expand_column=...) and the ice token",
                    key=where,
                )
            return None
        if not isinstance(element, Mapping):
            raise TemplateError(f"{where} must be a message dict or the ice token (got {element!r} that is a {type(element).__name__})", key=where)
        if "expand_column" in element:
            column = element["expand_column"]
            if set(element) != {"expand_column"} or not isinstance(column, str):
                raise TemplateError(f"{where} must be dict(expand_column='<column>') and nothing else (got {dict(element)!r})", key=where)
            return _Expand(column)
        for key in element:
            if key not in _MESSAGE_KEYS:
                raise TemplateError(f"{where} has the key {key!r}{did_you_mean(str(key), _MESSAGE_KEYS)}; a message takes role and content", key=where)
        _check_role(element.get("role"), where)
        content = element.get("content")
        if not isinstance(content, str):
            raise TemplateError(f"{where} needs a 'content' string (got {content!r})", key=where)
        return _Message(element["role"], compile_text(content) if self.format_variables else content)

    # -- rendering ----------------------------------------------------------
    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> PromptList:
        """One shot: the messages filled from the shot's row (answer shown), in an ``ice`` section; the ice token renders nothing."""
        items: list[Item] = [_ICE[0]]
        for element in self._elements:
            if isinstance(element, _Message):
                items.append(element.render(row))
            elif isinstance(element, _Expand):
                items.extend(element.render(row))
        items.append(_ICE[1])
        return PromptList._of(tuple(items))

    def render(
        self,
        row: Mapping[str, Any],
        ice: Prompt = "",
        *,
        label: Hashable | None = None,
        masked: str | None = None,
        mask_value: str = "",
    ) -> PromptList:
        """The item under test: leading system messages in ``begin``, the rest in ``round``, the shots at the ice token.

        Shots given as a string (no ``ice_template``, or a string one) have no place among messages and are dropped, as in OpenCompass.
        """
        if label is not None:
            raise TemplateError(
                "RawPromptTemplate renders prompts for generation and has no labels to score; use GenInferencer (or a label-keyed PromptTemplate)",
                label=label,
            )
        values = row
        if masked is not None:
            values = dict(row)
            values[masked] = mask_value
        items: list[Item] = []
        open_section: Marker | None = None
        conversation = False  # whether a non-system message or the shots came yet
        for element in self._elements:
            if element is None:
                if isinstance(ice, PromptList):
                    _close(items, open_section)
                    open_section, conversation = None, True
                    items.extend(item for item in ice if not isinstance(item, str))
                continue
            turns = [element.render(values)] if isinstance(element, _Message) else element.render(row)
            for turn in turns:
                # Leading system messages open the prompt (begin); everything after them is the conversation (round).
                conversation = conversation or turn.role != "SYSTEM"
                wanted = _ROUND[0] if conversation else _BEGIN[0]
                if open_section is not wanted:
                    _close(items, open_section)
                    items.append(wanted)
                    open_section = wanted
                items.append(turn)
        _close(items, open_section)
        return PromptList._of(tuple(items))

    def chat_messages(self, prompt: Prompt) -> list[dict[str, Any]]:
        """The messages a chat model receives for a prompt this template rendered: its turns as written, in order."""
        if isinstance(prompt, str):
            return [{"role": "user", "content": prompt}]
        messages = []
        for item in prompt:
            if isinstance(item, RoleItem):
                messages.append({"role": _MESSAGE_ROLES.get(item.role, item.role), "content": item.prompt or ""})
        return messages

    def __repr__(self) -> str:
        return f"RawPromptTemplate(messages={self.messages!r}, ice_token={self._ice_token!r})"


def _close(items: list[Item], section: Marker | None) -> None:
    """Close the open section, if any."""
    if section is not None:
        items.append(Marker(section.section, "end"))


def _check_role(role: Any, where: str) -> None:
    if role not in ROLES:
        raise TemplateError(
            f"{where} has role {role!r}; a message's role is one of {', '.join(map(repr, ROLES))}{did_you_mean(str(role), ROLES)}", key=where
        )


def _role_item(role: str, text: str) -> RoleItem:
    name = ROLES[role]
    # A model without a SYSTEM role gets system text as a user turn.
    return RoleItem(name, text, "HUMAN" if name == "SYSTEM" else None)


def _row_message(message: Any, where: str) -> RoleItem:
    if not isinstance(message, Mapping) or "role" not in message or "content" not in message:
        raise TemplateError(f"{where} must be a message dict with 'role' and 'content' (got {message!r})", key=where)
    _check_role(message["role"], where)
    content = message["content"]
    if not isinstance(content, str):
        raise TemplateError(f"{where} content must be a str (got {content!r}); RawPromptTemplate renders text messages", key=where)
    return _role_item(message["role"], content)
