"""The chat model: a prompt becomes chat messages (OpenCompass's ``APITemplateParser`` + OpenAI conversion)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, ClassVar

from promptkit.errors import MetaTemplateError
from promptkit.messages import Content, Message, to_openai
from promptkit.meta_templates.chat_messages import CompiledMessages, content_without_meta
from promptkit.meta_templates.model import ModelBase, check_mode
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.meta_templates.validation import OPENAI_ROLES, check_chat_meta
from promptkit.promptlist import PromptList

__all__ = ["ChatModel"]


class ChatModel(ModelBase):
    """Renders chat messages: typed by :meth:`chat_messages`, OpenAI-style dicts by :meth:`render`.

    Without a meta template, ``HUMAN`` → user, ``BOT`` → assistant (the
    generated role), ``SYSTEM`` → system and ``TOOL`` (a tool's result) → tool.

    >>> ChatModel().render(PromptList([{'section': 'round', 'pos': 'begin'}, dict(role='HUMAN', prompt='Hi'),
    ...                                dict(role='BOT', prompt=''), {'section': 'round', 'pos': 'end'}]))
    [{'role': 'user', 'content': 'Hi'}]
    """

    kind = "chat"
    #: The meta template used when the config gives none (``None``: join the prompt into one user message).
    default_meta_template: ClassVar[dict[str, Any] | None] = dict(
        round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
        reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
    )
    #: Whether api roles other than HUMAN/BOT/SYSTEM pass through unchanged (else they are an error).
    passes_unknown_roles: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compiled = CompiledMessages(self._roles, self._message) if self._roles is not None else None

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        if cfg is None:
            cfg = self.default_meta_template
        if cfg is None:
            return None
        return check_chat_meta(MetaTemplate.from_config(_with_tool_role(cfg)), self.passes_unknown_roles)

    def render(self, prompt: str | PromptList, mode: str = "gen") -> list[dict[str, Any]]:
        """:meth:`chat_messages` as OpenAI-style dicts, built fresh for this prompt."""
        return to_openai(self.chat_messages(prompt, mode))

    def chat_messages(self, prompt: str | PromptList, mode: str = "gen") -> tuple[Message, ...]:
        """The prompt's messages: the meta template's ``begin`` message first (never merged), then one per turn."""
        check_mode(mode)
        if isinstance(prompt, str):
            return self._as_sent((Message("user", prompt),))
        if self._compiled is None:
            return self._as_sent((Message("user", content_without_meta(prompt)),))
        return self._as_sent(self._begin + self._compiled.render(prompt, mode))

    def _as_sent(self, messages: tuple[Message, ...]) -> tuple[Message, ...]:
        """The messages as this class's client sends them (an OpenCompass API class's own conversion, see
        :mod:`~promptkit.meta_templates.aliases`); OpenAI's clients send them as they are."""
        return messages

    @cached_property
    def _begin(self) -> tuple[Message, ...]:
        """The meta template's ``begin`` message, if any (a role with no OpenAI name raises at every render)."""
        begin = self.meta_template.begin if self.meta_template is not None else None
        return (self._message(begin["role"], begin.get("prompt", "")),) if begin else ()

    def _message(self, api_role: str, content: Content) -> Message:
        return Message(self.role_name(api_role), content)

    def role_name(self, api_role: str) -> str:
        """The OpenAI role of a meta ``api_role`` (``HUMAN`` → ``user``, ``BOT`` → ``assistant``, ``SYSTEM`` → ``system``)."""
        name = OPENAI_ROLES.get(api_role)
        if name is not None:
            return name
        if self.passes_unknown_roles:
            return api_role
        raise MetaTemplateError(f"message role {api_role!r} has no OpenAI role; use HUMAN, BOT, SYSTEM or TOOL", key=api_role)


def _with_tool_role(cfg: Mapping[str, Any]) -> Mapping[str, Any]:
    """A chat meta template that can carry tool results: a reserved ``TOOL`` role (api role ``TOOL``) unless it has one.

    A chat request has a ``tool`` message role whatever the meta template says, so a tool's result needs no config.
    """
    named = [role.get("role") for key in ("round", "reserved_roles") for role in (cfg.get(key) or () if isinstance(cfg, Mapping) else ()) if isinstance(role, Mapping)]
    if "TOOL" in named or not isinstance(cfg, Mapping):
        return cfg  # MetaTemplate.from_config says what is wrong with a meta template that is not a dict
    return {**cfg, "reserved_roles": [*(cfg.get("reserved_roles") or ()), dict(role="TOOL", api_role="TOOL")]}
