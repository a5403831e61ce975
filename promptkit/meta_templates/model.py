"""The model config every model kind shares: ``abbr``, ``meta_template``, ``max_seq_len``, and token counting.

The kinds, one module each: :class:`~promptkit.meta_templates.completion_model.CompletionModel`
(a completion string), :class:`~promptkit.meta_templates.chat_model.ChatModel`
(chat messages) and :class:`~promptkit.meta_templates.chat_template_model.ChatTemplateModel`
(the model's own chat template applied to the messages); OpenCompass and
AISBench class names live in :mod:`promptkit.meta_templates.aliases`.
promptkit calls no model: runtime keys of a config (``path``,
``max_out_len``, ``batch_size``, ``run_cfg``, …) are accepted and kept in
``runtime``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar

from promptkit.chat_templates import FolderTokens
from promptkit.chat_templates.folders import ModelFolders
from promptkit.controls import Controls
from promptkit.errors import ConfigError
from promptkit.messages import Message
from promptkit.meta_templates._walk import RoleTable, generation_cut
from promptkit.meta_templates.protocol import FinalInput
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.promptlist import PromptList
from promptkit.tokens.counters import build_tokenizer
from promptkit.tokens.guard import TokenGuard, check_options, collect_tokens, stop_tokens

__all__ = ["ModelBase", "TokenCounter", "check_mode", "count_tokens"]

TokenCounter = Callable[[str], int]

_TOKEN_COUNTERS: dict[str, TokenCounter] = {
    "whitespace": lambda text: len(text.split()),
    "chars": len,
}

def _token_counter(value: Any) -> TokenCounter | None:
    if value is None or callable(value):
        return value
    if isinstance(value, str) and value in _TOKEN_COUNTERS:
        return _TOKEN_COUNTERS[value]
    raise ConfigError(
        f"token_counter must be a callable str -> int or one of {sorted(_TOKEN_COUNTERS)} (got {value!r})", key="token_counter"
    )


def count_tokens(final: str | Sequence[Message] | FinalInput, counter: TokenCounter) -> int:
    """Tokens of a final input: the string's, or the sum over the messages' texts (media parts count 0).

    Messages are typed :class:`~promptkit.Message` values or, as a renderer hands them on, their OpenAI-style
    dicts; either is only read.
    """
    if isinstance(final, str):
        return counter(final)
    total = 0
    for message in final:
        if isinstance(message, Message):
            content = message.content
            total += counter(content) if isinstance(content, str) else sum(counter(part.text_value) for part in content if part.modality == "text")
            continue
        content_dicts = message["content"]
        if isinstance(content_dicts, str):
            total += counter(content_dicts)
        else:
            total += sum(counter(part["text"]) for part in content_dicts if part.get("type") == "text")
    return total


class ModelBase(ABC):
    """Common part of model configs: ``abbr``, ``meta_template``, ``max_seq_len``, and how prompts are counted.

    ``tokenizer`` (``dict(type='HFTokenizer', path=...)``, ``dict(type='TiktokenTokenizer', encoding=...)`` or a
    callable, see :mod:`promptkit.tokens.counters`) or ``token_counter`` (``'whitespace'``, ``'chars'`` or a callable)
    counts tokens for ``max_seq_len``.

    ``special_token_policy`` (``'escape'``, ``'error'``, ``'warn'`` or ``'allow'``) says what happens to row text holding
    one of the model's :attr:`control_tokens`, or forming one with the text around it; ``extra_control_tokens`` adds tokens
    the model cannot know from its templates, its model folder or its stop settings (an API model's server-side chat
    template).  See :mod:`promptkit.tokens.guard`.

    ``thinking``, ``chat_template_kwargs``, ``shots`` and ``system_prompt`` are the model's level of the prompt
    controls (:mod:`promptkit.controls`), kept as :attr:`controls`; a dataset's and a run's win over them.

    ``model_folders`` says where model folders named by the config (``path``, ``tokenizer_path``) are looked for
    (:class:`~promptkit.chat_templates.folders.ModelFolders`): the config loader gives it (the config file's folder,
    ``--model-path``); default: the working directory, :data:`~promptkit.chat_templates.folders.MODEL_PATHS_ENV`
    and the Hugging Face cache.
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
        thinking: bool | None = None,
        chat_template_kwargs: Mapping[str, Any] | None = None,
        shots: str | None = None,
        system_prompt: str | None = None,
        model_folders: ModelFolders | None = None,
        **runtime: Any,
    ) -> None:
        if model_folders is not None and not isinstance(model_folders, ModelFolders):
            raise ConfigError(
                f"model_folders is set by the config loader (a ModelFolders), not by the config (got {model_folders!r}); "
                "remove it, and map hub ids to folders with --model-path instead",
                key="model_folders",
            )
        #: Where the model folders the config names are looked for.
        self.model_folders = model_folders or ModelFolders()
        self.abbr = abbr if abbr is not None else type(self).__name__
        #: The model's prompt controls (see :mod:`promptkit.controls`).
        self.controls = Controls(thinking, chat_template_kwargs or {}, shots, system_prompt)
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
        """The tokens row text must not carry into this model's input, sorted (see :mod:`promptkit.tokens.guard`)."""
        stops = stop_tokens(self.runtime, self._token_ids())
        return collect_tokens(self._control_token_texts(), (*self._literal_control_tokens(), *stops, *self.extra_control_tokens))

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
        """Tokens taken as written: the special tokens and added special tokens of the model folder ``path`` (or
        ``tokenizer_path``) names, when it is a local folder; a meta template has none."""
        tokens = self._folder_tokens
        if tokens is not None:
            yield from tokens.special.values()
            yield from tokens.added

    def _token_ids(self) -> Mapping[int, str]:
        """The model folder's tokens by id (what ``eos_token_id`` names)."""
        tokens = self._folder_tokens
        return tokens.ids if tokens is not None else {}

    @cached_property
    def _folder_tokens(self) -> FolderTokens | None:
        """The tokens of the local model folder ``tokenizer_path`` or ``path`` names (``None``: it names none, e.g. a
        served model's name)."""
        name = self.runtime.get("tokenizer_path") or self.runtime.get("path")
        folder = self.model_folders.local(name) if isinstance(name, str) else None
        return FolderTokens.read(str(folder)) if folder is not None else None

    def dropped_answer(self, prompt: str | PromptList) -> str:
        """The prompt of the final turn's generated role, which gen mode drops (``''`` when generation cuts nothing)."""
        if isinstance(prompt, str) or self._roles is None:
            return ""  # no meta template: every item's text is in the input already
        cut = generation_cut(prompt.items, self._roles)
        return cut.prompt if cut is not None else ""

    @abstractmethod
    def render(self, prompt: str | PromptList, mode: str = "gen") -> FinalInput:
        """The final input for ``prompt``; ``mode`` is ``'gen'`` (cut at the model's turn) or ``'ppl'``."""

    def render_with_media(self, prompt: str | PromptList, mode: str = "gen") -> tuple[FinalInput, list[dict[str, Any]]]:
        """The final input and the media that travel beside it (only completion models have any)."""
        return self.render(prompt, mode), []

    def __repr__(self) -> str:
        return f"{type(self).__name__}(abbr={self.abbr!r})"


def check_mode(mode: str) -> None:
    if mode != "gen" and mode != "ppl":
        raise ConfigError(f"mode must be 'gen' or 'ppl' (got {mode!r})")
