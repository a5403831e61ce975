"""Model configs: which meta template turns a prompt into a model's final input.

* :class:`CompletionModel` — a completion string (base and local models).
* :class:`ChatModel` — OpenAI-style messages ``[{"role": ..., "content": ...}]``.

OpenCompass and AISBench model class names are accepted as aliases and keep
*that class's* prompt behaviour, defaults included (e.g. ``OpenAI`` without a
meta template sends the whole prompt as one user message; ``VLLMCustomAPIChat``
installs a meta template with a reserved ``SYSTEM`` role).  promptkit calls no
model: runtime keys of such configs (``path``, ``max_out_len``,
``batch_size``, ``run_cfg``, …) are accepted and ignored.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from promptkit.control_tokens import TokenGuard, check_options, collect_tokens
from promptkit.errors import ConfigError, MetaTemplateError, did_you_mean
from promptkit.meta_templates._walk import RoleTable
from promptkit.meta_templates.chat import ApiMessages, content_without_meta, render_api_messages
from promptkit.meta_templates.completion import join_without_meta, render_completion
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.parts import MODALITIES
from promptkit.promptlist import PromptList
from promptkit.token_counters import build_tokenizer

__all__ = [
    "ChatModel",
    "CompletionModel",
    "FinalInput",
    "HuggingFace",
    "HuggingFaceBaseModel",
    "HuggingFaceCausalLM",
    "Model",
    "OpenAI",
    "OpenAISDK",
    "TurboMindModel",
    "VLLM",
    "VLLMCustomAPI",
    "VLLMCustomAPIChat",
    "count_tokens",
]

logger = logging.getLogger(__name__)

Message = dict[str, Any]
FinalInput = str | list[Message]
TokenCounter = Callable[[str], int]

_TOKEN_COUNTERS: dict[str, TokenCounter] = {
    "whitespace": lambda text: len(text.split()),
    "chars": len,
}

#: The OpenAI message role of each meta ``api_role``.
OPENAI_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}


def _token_counter(value: Any) -> TokenCounter | None:
    if value is None or callable(value):
        return value
    if isinstance(value, str) and value in _TOKEN_COUNTERS:
        return _TOKEN_COUNTERS[value]
    raise ConfigError(
        f"token_counter must be a callable str -> int or one of {sorted(_TOKEN_COUNTERS)} (got {value!r})", key="token_counter"
    )


def count_tokens(final: FinalInput, counter: TokenCounter) -> int:
    """Tokens of a final input: the string's, or the sum over the messages' texts (media parts count 0)."""
    if isinstance(final, str):
        return counter(final)
    total = 0
    for message in final:
        content = message["content"]
        if isinstance(content, str):
            total += counter(content)
        else:
            total += sum(counter(part["text"]) for part in content if part.get("type") == "text")
    return total


class Model(ABC):
    """Common part of model configs: ``abbr``, ``meta_template``, ``max_seq_len``, and how prompts are counted.

    ``tokenizer`` (``dict(type='HFTokenizer', path=...)``, ``dict(type='TiktokenTokenizer', encoding=...)`` or a
    callable, see :mod:`promptkit.token_counters`) or ``token_counter`` (``'whitespace'``, ``'chars'`` or a callable)
    counts tokens for ``max_seq_len``.

    ``special_token_policy`` (``'escape'``, ``'error'``, ``'warn'`` or ``'allow'``) says what happens to row text holding
    one of the model's :attr:`control_tokens`; ``extra_control_tokens`` adds tokens the model cannot know from its
    templates (an API model's server-side chat template).  See :mod:`promptkit.control_tokens`.
    """

    kind: ClassVar[str]

    def __init__(
        self,
        abbr: str | None = None,
        meta_template: Mapping[str, Any] | None = None,
        max_seq_len: int | None = None,
        token_counter: str | TokenCounter | None = None,
        tokenizer: Any = None,
        special_token_policy: str = "escape",
        extra_control_tokens: Sequence[str] | None = None,
        **runtime: Any,
    ) -> None:
        self.abbr = abbr if abbr is not None else type(self).__name__
        self.special_token_policy, self.extra_control_tokens = check_options(special_token_policy, extra_control_tokens)
        self.meta_template = self._meta_template(meta_template)
        self.max_seq_len = max_seq_len
        if tokenizer is not None and token_counter is not None:
            raise ConfigError("the model config gives both tokenizer and token_counter; keep one", key="tokenizer")
        self.token_counter = build_tokenizer(tokenizer) if tokenizer is not None else _token_counter(token_counter)
        self.runtime = runtime
        self._roles = RoleTable(self.meta_template) if self.meta_template is not None else None

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        return MetaTemplate.from_config(cfg) if cfg is not None else None

    @cached_property
    def control_tokens(self) -> tuple[str, ...]:
        """The tokens row text must not carry into this model's input, sorted (see :mod:`promptkit.control_tokens`)."""
        return collect_tokens(self._control_token_texts(), (*self._literal_control_tokens(), *self.extra_control_tokens))

    @cached_property
    def token_guard(self) -> TokenGuard:
        """The guard the pipeline hands row text to: :attr:`control_tokens` under ``special_token_policy``."""
        return TokenGuard(self.control_tokens, self.special_token_policy, self.abbr)

    def _control_token_texts(self) -> Iterator[str]:
        """The model's own strings that control tokens are extracted from: the meta template's wrappers."""
        meta = self.meta_template
        if meta is None:
            return
        if isinstance(meta.begin, str):
            yield meta.begin
        yield meta.end
        for element in meta.round:
            if isinstance(element, str):
                yield element
        for role in meta.round_roles + meta.reserved:
            yield role.begin
            yield role.end

    def _literal_control_tokens(self) -> Iterator[str]:
        """Tokens taken as written (a tokenizer's special tokens); a meta template has none."""
        return iter(())

    @abstractmethod
    def render(self, prompt: str | PromptList, mode: str = "gen") -> FinalInput:
        """The final input for ``prompt``; ``mode`` is ``'gen'`` (cut at the model's turn) or ``'ppl'``."""

    def render_with_media(self, prompt: str | PromptList, mode: str = "gen") -> tuple[FinalInput, list[dict[str, Any]]]:
        """The final input and the media that travel beside it (only completion models have any)."""
        return self.render(prompt, mode), []

    def __repr__(self) -> str:
        return f"{type(self).__name__}(abbr={self.abbr!r})"


class CompletionModel(Model):
    """Renders a completion string (OpenCompass ``LMTemplateParser`` semantics).

    >>> m = CompletionModel(meta_template=dict(round=[
    ...     dict(role='HUMAN', begin='<|User|>:', end='\\n'),
    ...     dict(role='BOT', begin='<|Bot|>:', end='<eoa>\\n', generate=True)]))
    >>> m.render(PromptList([{'section': 'round', 'pos': 'begin'}, dict(role='HUMAN', prompt='Q: 2+2?'),
    ...                      dict(role='BOT', prompt='A: '), {'section': 'round', 'pos': 'end'}]))
    '<|User|>:Q: 2+2?\\n<|Bot|>:'
    """

    kind = "completion"

    def __init__(self, *args: Any, mm_placeholders: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mm_placeholders = _check_placeholders(mm_placeholders)

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        meta = super()._meta_template(cfg)
        if meta is not None and not isinstance(meta.begin, str):
            raise MetaTemplateError(
                f"a completion model's meta_template begin must be a str, the text before the prompt (got {meta.begin!r}); "
                "for a system prompt, add reserved_roles=[dict(role='SYSTEM', begin=..., end=...)] and a SYSTEM item to the template",
                key="begin",
            )
        return meta

    def _control_token_texts(self) -> Iterator[str]:
        yield from super()._control_token_texts()
        yield from (self.mm_placeholders or {}).values()

    def render(self, prompt: str | PromptList, mode: str = "gen") -> str:
        _check_mode(mode)
        if type(prompt) is str:
            return prompt  # a plain string passes through untouched, meta template or not
        media: list[dict[str, Any]] = []
        if self._roles is None:
            text = join_without_meta(prompt, self.mm_placeholders, media)
        else:
            text = render_completion(prompt, self._roles, mode, self.mm_placeholders, media)
        if media:
            raise MetaTemplateError(
                f"the prompt carries {len(media)} media part(s), which a completion string holds only as placeholders; "
                "call render_with_media() to get the media list with the string"
            )
        return text

    def render_with_media(self, prompt: str | PromptList, mode: str = "gen") -> tuple[str, list[dict[str, Any]]]:
        """The completion string (media as ``mm_placeholders``) and the media parts, in order."""
        _check_mode(mode)
        media: list[dict[str, Any]] = []
        if type(prompt) is str:
            return prompt, media
        if self._roles is None:
            return join_without_meta(prompt, self.mm_placeholders, media), media
        return render_completion(prompt, self._roles, mode, self.mm_placeholders, media), media


class ChatModel(Model):
    """Renders OpenAI-style messages (OpenCompass ``APITemplateParser`` + OpenAI conversion).

    Without a meta template, ``HUMAN`` → user, ``BOT`` → assistant (the
    generated role) and ``SYSTEM`` → system.

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

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        if cfg is None:
            cfg = self.default_meta_template
        meta = MetaTemplate.from_config(cfg) if cfg is not None else None
        if meta is None:
            return None
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
            if role.api_role not in OPENAI_ROLES and not self.passes_unknown_roles:
                raise MetaTemplateError(
                    f"role {role.role!r} has api_role {role.api_role!r}; a chat model maps only HUMAN, BOT and SYSTEM to message roles",
                    key=role.role,
                )
        if meta.begin:
            _check_begin_message(meta.begin)
        return meta

    def render(self, prompt: str | PromptList, mode: str = "gen") -> list[Message]:
        _check_mode(mode)
        if isinstance(prompt, str):
            return [{"role": "user", "content": prompt}]
        if self._roles is None:
            return [{"role": "user", "content": content_without_meta(prompt)}]
        messages = self._api_messages(prompt, mode)
        return [{"role": role, "content": content} for role, content in zip(map(self._role_name, messages.roles), messages.contents, strict=True)]

    def _api_messages(self, prompt: PromptList, mode: str) -> ApiMessages:
        """The messages under their meta ``api_role`` names, the meta template's ``begin`` message first (never merged)."""
        assert self._roles is not None, "_api_messages needs a meta template"
        messages = render_api_messages(prompt, self._roles, mode)
        begin = self._roles.meta.begin
        if begin:
            messages.roles.insert(0, begin["role"])
            messages.contents.insert(0, begin.get("prompt", ""))
        return messages

    def _role_name(self, api_role: str) -> str:
        """The OpenAI role of a meta ``api_role`` (``HUMAN`` → ``user``, ``BOT`` → ``assistant``, ``SYSTEM`` → ``system``)."""
        name = OPENAI_ROLES.get(api_role)
        if name is not None:
            return name
        if self.passes_unknown_roles:
            return api_role
        raise MetaTemplateError(f"message role {api_role!r} has no OpenAI role; use HUMAN, BOT or SYSTEM", key=api_role)


def _check_placeholders(placeholders: Any) -> Mapping[str, str] | None:
    if placeholders is None:
        return None
    media = MODALITIES[1:]
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


def _check_begin_message(begin: Any) -> None:
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


def _check_mode(mode: str) -> None:
    if mode != "gen" and mode != "ppl":
        raise ConfigError(f"mode must be 'gen' or 'ppl' (got {mode!r})")


# -- OpenCompass / AISBench aliases ------------------------------------------------


class HuggingFaceCausalLM(CompletionModel):
    """OpenCompass ``HuggingFaceCausalLM``: a completion model with the config's meta template."""


class HuggingFace(CompletionModel):
    """OpenCompass ``HuggingFace``: a completion model with the config's meta template."""


class VLLM(CompletionModel):
    """OpenCompass ``VLLM``: a completion model with the config's meta template."""


class TurboMindModel(CompletionModel):
    """OpenCompass ``TurboMindModel``: a completion model with the config's meta template."""


class VLLMCustomAPI(CompletionModel):
    """AISBench ``VLLMCustomAPI`` (the completions endpoint): a completion model."""


class HuggingFaceBaseModel(CompletionModel):
    """OpenCompass ``HuggingFaceBaseModel``: no meta template, prompt items joined with ``'\\n'``.

    OpenCompass ignores a ``meta_template`` given to this class; so does promptkit, with a warning.
    """

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        if cfg is not None:
            logger.warning("model %r: HuggingFaceBaseModel ignores meta_template (as OpenCompass does); use CompletionModel to apply it", self.abbr)
        return None


class OpenAI(ChatModel):
    """OpenCompass ``OpenAI``: without a meta template the whole prompt is joined into one user message."""

    default_meta_template = None


class OpenAISDK(OpenAI):
    """OpenCompass ``OpenAISDK``: as ``OpenAI``."""


class VLLMCustomAPIChat(ChatModel):
    """AISBench ``VLLMCustomAPIChat``: default meta template with a reserved ``SYSTEM`` role; other api roles pass through."""

    passes_unknown_roles = True

