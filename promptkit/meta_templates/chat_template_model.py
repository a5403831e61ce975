"""Models whose final input is their own Hugging Face chat template applied to chat messages.

This is OpenCompass's path for local chat models (``HuggingFacewithChatTemplate``,
``VLLMwithChatTemplate``, ``TurboMindModelwithChatTemplate``): the PromptList
goes through a chat meta template into messages, empty messages are skipped,
consecutive messages of one role are merged with ``'\\n'``, and
``tokenizer.apply_chat_template(messages, add_generation_prompt=True,
tokenize=False)`` makes the string.  promptkit renders the template itself
(:class:`~promptkit.chat_templates.ChatTemplate`), byte-identically and without
``transformers``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from promptkit._template_limits import TemplateLimits
from promptkit.chat_templates import ChatTemplate
from promptkit.errors import ConfigError, MetaTemplateError, PromptkitError
from promptkit.messages import Content, Message, merge_content, to_openai
from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.model import Model, TokenCounter, check_mode
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.promptlist import PromptList

__all__ = ["SYSTEM_ROLE_POLICIES", "ChatTemplateModel", "OpenCompassChatModel"]

#: What to do with system messages: pass them to the template (``error``: a template that refuses them raises),
#: put their text at the start of the first user message, or send them as user messages.
SYSTEM_ROLE_POLICIES = ("error", "merge_into_first_user", "fallback")


class OpenCompassChatModel(ChatModel):
    """The messages OpenCompass's chat-template models build: their default meta template, then the OpenAI role names."""

    #: SYSTEM is a *round* role sent as HUMAN ("on purpose", says OpenCompass's source).
    default_meta_template: ClassVar[dict[str, Any] | None] = dict(
        round=[
            dict(role="HUMAN", api_role="HUMAN"),
            dict(role="SYSTEM", api_role="HUMAN"),
            dict(role="BOT", api_role="BOT", generate=True),
        ]
    )


class ChatTemplateModel(Model):
    """A chat model whose final input is the string its chat template makes of the messages.

    The template comes from ``path`` (or ``tokenizer_path``), a local model folder with
    ``tokenizer_config.json`` / ``chat_template.jinja``, or from ``chat_template=`` text inline
    with ``special_tokens=dict(bos_token=..., ...)``.  ``template_limits=dict(seconds=..., max_chars=...)``
    bounds each render of the template (untrusted code): see :class:`~promptkit.TemplateLimits`.

    >>> m = ChatTemplateModel(chat_template="{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
    ...                                     "{% if add_generation_prompt %}<assistant>{% endif %}")
    >>> m.render(PromptList([{'section': 'round', 'pos': 'begin'}, dict(role='HUMAN', prompt='Hi'),
    ...                      dict(role='BOT', prompt=''), {'section': 'round', 'pos': 'end'}]))
    '<user>Hi\\n<assistant>'

    (The ``'\\n'`` after ``Hi`` is OpenCompass's: its default meta template
    renders an empty ``SYSTEM`` turn, mapped to ``HUMAN``, that is merged in.)

    The messages come from :attr:`chat_model`, an :class:`OpenCompassChatModel` over the same meta
    template; this class adds OpenCompass's conversion (empty messages skipped, same roles merged),
    the ``system_role`` policy and the template.
    """

    kind = "chat_template"

    def __init__(
        self,
        abbr: str | None = None,
        meta_template: Mapping[str, Any] | None = None,
        path: str | None = None,
        tokenizer_path: str | None = None,
        chat_template: str | Mapping[str, str] | None = None,
        special_tokens: Mapping[str, str] | None = None,
        chat_template_name: str | None = None,
        chat_template_kwargs: Mapping[str, Any] | None = None,
        tools: Sequence[Mapping[str, Any]] | None = None,
        documents: Sequence[Mapping[str, Any]] | None = None,
        system_role: str = "error",
        fastchat_template: str | None = None,
        max_seq_len: int | None = None,
        token_counter: str | TokenCounter | None = None,
        template_limits: TemplateLimits | Mapping[str, Any] | None = None,
        **runtime: Any,
    ) -> None:
        #: The chat model whose messages the template is applied to (the meta template, validated as a chat model's).
        self.chat_model = OpenCompassChatModel(abbr=abbr, meta_template=meta_template or None)
        super().__init__(abbr=abbr, meta_template=meta_template or None, max_seq_len=max_seq_len, token_counter=token_counter, **runtime)
        if fastchat_template is not None:
            raise ConfigError(
                f"fastchat_template={fastchat_template!r} is not supported: promptkit renders the model's own chat template; "
                "remove fastchat_template, or write the format as a meta template (CompletionModel)",
                key="fastchat_template",
            )
        if system_role not in SYSTEM_ROLE_POLICIES:
            raise ConfigError(f"system_role must be one of {list(SYSTEM_ROLE_POLICIES)} (got {system_role!r})", key="system_role")
        self.system_role = system_role
        self.template_limits = TemplateLimits.of(template_limits)
        self.chat_template = _load_template(chat_template, special_tokens, tokenizer_path or path, self.template_limits)
        self.chat_template_name = chat_template_name
        self.chat_template_kwargs = dict(chat_template_kwargs or {})
        self.tools = tools
        self.documents = documents
        # Chosen, compiled and checked once, at load time: a bad name or kwarg fails here, not at the first row.
        self._bound = self.chat_template.bind(template_name=chat_template_name, tools=tools, documents=documents, **self.chat_template_kwargs)

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        """The chat model's meta template (OpenCompass's default when the config gives none)."""
        return self.chat_model.meta_template

    def _control_token_texts(self) -> Iterator[str]:
        """The chat meta template's wrappers and the chat template's own text (its ``'<|im_start|>'`` literals)."""
        yield from super()._control_token_texts()
        yield from self.chat_template.templates.values()

    def _literal_control_tokens(self) -> Iterator[str]:
        """The tokenizer's special tokens (``bos_token``, …) and its added special tokens."""
        yield from self.chat_template.special_tokens.values()
        yield from self.chat_template.added_tokens

    def messages(self, prompt: str | PromptList, mode: str = "gen") -> list[dict[str, Any]]:
        """The messages handed to the chat template, as the OpenAI-style dicts it reads (see :meth:`chat_messages`)."""
        return to_openai(self.chat_messages(prompt, mode))

    def chat_messages(self, prompt: str | PromptList, mode: str = "gen") -> tuple[Message, ...]:
        """The chat model's messages after OpenCompass's conversion, then the ``system_role`` policy."""
        if isinstance(prompt, str):
            return (Message("user", prompt),)
        messages = self.chat_model.chat_messages(prompt, mode)
        # Usually there is nothing to skip or merge: the chat model's messages alternate roles (each api_role maps
        # to its own OpenAI role), and only a meta begin message is never merged.
        if not self.chat_model.meta_template.begin and all(message.content for message in messages):  # type: ignore[union-attr]
            converted = messages
        else:
            converted = _skip_empty_and_merge(messages)
        if self.system_role != "error":
            converted = _apply_system_policy(converted, self.system_role)
        return converted

    def render(self, prompt: str | PromptList, mode: str = "gen") -> str:
        """The chat template applied to :meth:`messages`; ``gen`` adds the generation prompt, ``ppl`` ends with the answer."""
        check_mode(mode)
        typed = self.chat_messages(prompt, mode)
        messages = to_openai(typed)
        text_only = all(type(message.content) is str for message in typed)
        try:
            return self._bound.render(messages, add_generation_prompt=mode == "gen", plain_text=text_only)
        except PromptkitError as error:
            multimodal = [i for i, m in enumerate(typed) if type(m.content) is not str]
            if multimodal and "failed on these messages" in error.message:
                error.message += (
                    f"; message(s) {multimodal} carry multimodal content parts, which this chat template does not handle: "
                    "use a model whose template takes content lists, or a ChatModel"
                )
            if self.system_role == "error" and any(m.role == "system" for m in typed) and "system" in error.message.lower():
                error.message += (
                    "; the prompt has a system message: set system_role='merge_into_first_user' or 'fallback' in the model config "
                    "to send its text as user text"
                )
            raise error.add_context(model=self.abbr) from None


def _skip_empty_and_merge(messages: tuple[Message, ...]) -> tuple[Message, ...]:
    """OpenCompass's conversion: empty messages skipped, then consecutive messages of one role merged with ``'\\n'``."""
    merged: list[Message] = []
    for message in messages:
        if not message.content:
            continue
        if merged and merged[-1].role == message.role:
            merged[-1] = replace(merged[-1], content=merge_content(merged[-1].content, message.content))
        else:
            merged.append(message)
    return tuple(merged)


def _load_template(
    inline: str | Mapping[str, str] | None, special_tokens: Mapping[str, str] | None, folder: str | None, limits: TemplateLimits
) -> ChatTemplate:
    if inline is not None:
        return ChatTemplate(inline, dict(special_tokens or {}), limits=limits)
    if folder is None:
        raise ConfigError(
            "a chat-template model needs path= (a local model folder with tokenizer_config.json) or chat_template= (the template text)",
            key="path",
        )
    template = ChatTemplate.from_folder(Path(folder), limits)
    if special_tokens:
        template = replace(template, special_tokens={**template.special_tokens, **special_tokens})
    return template


def _apply_system_policy(messages: tuple[Message, ...], policy: str) -> tuple[Message, ...]:
    """System messages as ``policy`` says (see :data:`SYSTEM_ROLE_POLICIES`); new messages, the given ones untouched."""
    if policy == "error" or not any(m.role == "system" for m in messages):
        return messages
    if policy == "merge_into_first_user":
        system: Content = ""
        for message in messages:
            if message.role == "system":
                system = merge_content(system, message.content) if system else message.content
        rest = [m for m in messages if m.role != "system"]
        for index, message in enumerate(rest):
            if message.role == "user":
                rest[index] = replace(message, content=merge_content(system, message.content, "\n\n"))
                return tuple(rest)
        raise MetaTemplateError("system_role='merge_into_first_user' but the prompt has no user message to carry the system text")
    merged: list[Message] = []
    for message in messages:
        role = "user" if message.role == "system" else message.role
        if merged and merged[-1].role == role:
            merged[-1] = replace(merged[-1], content=merge_content(merged[-1].content, message.content))
        else:
            merged.append(replace(message, role=role) if role != message.role else message)
    return tuple(merged)
