"""Checks of model configs that the model kinds share, each raising a promptkit error that names the key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promptkit.errors import ConfigError, MetaTemplateError, did_you_mean
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.parts import MEDIA

__all__ = ["OPENAI_ROLES", "check_begin_message", "check_chat_meta", "check_placeholders"]

#: The OpenAI message role of each meta ``api_role``.
OPENAI_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system", "TOOL": "tool"}


def check_chat_meta(meta: MetaTemplate, passes_unknown_roles: bool) -> MetaTemplate:
    """A chat model's meta template: no literal strings in ``round``, an ``api_role`` per role, a message ``begin``."""
    for element in meta.round:
        if isinstance(element, str):
            raise MetaTemplateError(
                f"the chat model's meta template has the literal string {element!r} in round; chat models carry text "
                "only inside roles, so put it in a role's begin or end",
                key="round",
            )
    for role in meta.round_roles + meta.reserved:
        if role.api_role is None:
            raise MetaTemplateError(f"role {role.role!r} needs api_role ('HUMAN', 'BOT' or 'SYSTEM') in a chat model's meta template", key=role.role)
        if role.api_role not in OPENAI_ROLES and not passes_unknown_roles:
            raise MetaTemplateError(
                f"role {role.role!r} has api_role {role.api_role!r}; a chat model maps only HUMAN, BOT, SYSTEM and TOOL to message roles",
                key=role.role,
            )
    if meta.begin:
        check_begin_message(meta.begin)
    return meta


def check_placeholders(placeholders: Any) -> Mapping[str, str] | None:
    """A completion model's ``mm_placeholders``: modality → the text that stands for a media part."""
    if placeholders is None:
        return None
    media = MEDIA
    if not isinstance(placeholders, Mapping):
        raise ConfigError(f"mm_placeholders must be a dict such as dict(image='<image>') (got {placeholders!r})", key="mm_placeholders")
    for modality, text in placeholders.items():
        if modality not in media:
            raise ConfigError(
                f"mm_placeholders has the key {modality!r}; its keys are modalities: {', '.join(media)}{did_you_mean(str(modality), media)}",
                key="mm_placeholders",
            )
        if not isinstance(text, str):
            raise ConfigError(f"mm_placeholders[{modality!r}] must be a str (got {text!r})", key="mm_placeholders")
    return dict(placeholders)


def check_begin_message(begin: Any) -> None:
    """A chat model's meta ``begin``: one message dict (``role``, ``prompt``), placed first and never merged."""
    example = "dict(role='SYSTEM', prompt='You are a helpful assistant.')"
    if not isinstance(begin, Mapping) or not isinstance(begin.get("role"), str):
        raise MetaTemplateError(f"a chat model's meta_template begin must be a message dict such as {example} (got {begin!r})", key="begin")
    known = ("role", "prompt", "api_role")  # api_role is accepted and, as in OpenCompass, unused: `role` names the message
    for key in begin:
        if key not in known:
            hint = " (its text goes in 'prompt')" if key == "content" else did_you_mean(key, known)
            raise MetaTemplateError(
                f"unknown key {key!r} in meta_template begin{hint}; the message takes role and prompt, "
                f"e.g. {example}",
                key="begin",
            )
    if not isinstance(begin.get("prompt", ""), str):
        raise MetaTemplateError(f"meta_template begin's prompt must be a str (got {begin['prompt']!r})", key="begin")
