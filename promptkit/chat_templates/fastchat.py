"""FastChat conversation styles: OpenCompass's ``fastchat_template=`` instead of the model's own chat template.

With ``fastchat_template='vicuna'`` OpenCompass's chat-template models
(``HuggingFacewithChatTemplate``, ``TurboMindModelwithChatTemplate``) skip
the model's chat template: each user and assistant message (after the usual
conversion; system messages are left out) is appended to FastChat's
conversation for that name, then an empty assistant message, and
``get_prompt()`` is the input.  promptkit writes each style it knows as a
chat template (:func:`fastchat_template`), so it renders, counts and guards
like any other.

The styles, written from FastChat 0.2.36's behaviour (parity recorded in
``tests/chat_templates/test_fastchat.py``):

* ``'vicuna'`` — FastChat's ``vicuna_v1.1`` (what ``get_conversation_template('vicuna')``
  picks): the system text, ``' '``, then ``USER: text`` and ``ASSISTANT: text``, each
  message followed by ``' '`` or ``'</s>'`` alternately, and ``ASSISTANT:`` last.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from promptkit.chat_templates.template import ChatTemplate
from promptkit.errors import ConfigError
from promptkit.text.limits import TemplateLimits

__all__ = ["FASTCHAT_STYLES", "ConversationStyle", "fastchat_template"]


@dataclass(frozen=True)
class ConversationStyle:
    """A FastChat conversation of the ``ADD_COLON_TWO`` kind: ``system + seps[0]``, then ``ROLE: text + seps[i % 2]``
    per message (``ROLE:`` alone for an empty one), ``i`` counting the user and assistant messages."""

    system: str
    user: str
    assistant: str
    seps: tuple[str, str]

    def jinja(self) -> str:
        """The style as a chat template (the messages it reads: user and assistant; system ones left out)."""
        q = json.dumps  # a JSON string is a Jinja string literal
        return (
            "{%- set ns = namespace(i=0) -%}"
            f"{{{{- {q(self.system + self.seps[0])} -}}}}"
            "{%- for m in messages -%}"
            "{%- if m.role == 'user' or m.role == 'assistant' -%}"
            f"{{%- set role = {q(self.user)} if m.role == 'user' else {q(self.assistant)} -%}}"
            f"{{%- if m.content -%}}{{{{- role + ': ' + m.content + ({q(self.seps[0])} if ns.i % 2 == 0 else {q(self.seps[1])}) -}}}}"
            "{%- else -%}{{- role + ':' -}}{%- endif -%}"
            "{%- set ns.i = ns.i + 1 -%}"
            "{%- elif m.role != 'system' -%}{{- raise_exception('FastChat conversations have user and assistant messages, not ' + m.role) -}}"
            "{%- endif -%}"
            "{%- endfor -%}"
            f"{{{{- {q(self.assistant + ':')} -}}}}"
        )


#: The FastChat conversation styles promptkit knows, by the name a config gives ``fastchat_template``.
FASTCHAT_STYLES: dict[str, ConversationStyle] = {
    "vicuna": ConversationStyle(
        system="A chat between a curious user and an artificial intelligence assistant. "
        "The assistant gives helpful, detailed, and polite answers to the user's questions.",
        user="USER",
        assistant="ASSISTANT",
        seps=(" ", "</s>"),
    ),
}


def fastchat_template(name: str, limits: TemplateLimits | None = None) -> ChatTemplate:
    """The chat template that writes FastChat's conversation ``name`` (one of :data:`FASTCHAT_STYLES`)."""
    style = FASTCHAT_STYLES.get(name)
    if style is None:
        raise ConfigError(
            f"fastchat_template={name!r} is a FastChat conversation style promptkit does not know (it knows "
            f"{', '.join(map(repr, FASTCHAT_STYLES))}), so promptkit cannot know the prompt it makes; remove fastchat_template "
            "to use the model's own chat template, or write the style as a meta template (CompletionModel)",
            key="fastchat_template",
        )
    return ChatTemplate(style.jinja(), origin=f"fastchat_template={name!r}", limits=limits or TemplateLimits())
