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

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from promptkit.chat_templates import BoundChatTemplate, ChatTemplate
from promptkit.chat_templates.fastchat import fastchat_template as fastchat_chat_template
from promptkit.chat_templates.folders import ModelFolders
from promptkit.controls import THINKING_SWITCHES, Controls
from promptkit.errors import ConfigError, MetaTemplateError, PromptkitError
from promptkit.messages import Content, Message, merge_content, to_openai
from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.model import ModelBase, TokenCounter, check_mode
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.promptlist import PromptList
from promptkit.text.limits import TemplateLimits

__all__ = [
    "SYSTEM_PROBES",
    "SYSTEM_ROLE_POLICIES",
    "TOOL_PARTS",
    "ChatTemplateModel",
    "OpenCompassChatModel",
    "SystemRolePolicy",
    "apply_system_policy",
    "probe_system_role",
    "probe_tool_parts",
]

#: What to do with system messages: pass them to the template (``error``: a template that refuses them raises),
#: put their text at the start of the first user message, send them as user messages, leave them out, or
#: (``auto``) choose one of these from what the chat template does with a system message (:func:`probe_system_role`).
SYSTEM_ROLE_POLICIES = ("error", "merge_into_first_user", "fallback", "drop", "auto")

#: What a chat template does with a system message (:func:`probe_system_role`), and the policy ``auto`` picks for it:
#: a template that refuses or loses the system text gets it in the first user message; one that renders it keeps it.
SYSTEM_PROBES = {
    "raises": ("raises on a system message", "merge_into_first_user"),
    "drops": ("drops a system message", "merge_into_first_user"),
    "own_turn": ("renders a system message as its own turn", "error"),
    "in_user_turn": ("renders a system message inside the first user turn", "error"),
}

#: What each policy does, in words (check-template, lint).
_POLICY_EFFECT = {
    "error": "system messages go to the template",
    "merge_into_first_user": "the system text opens the first user message",
    "fallback": "system messages are sent as user messages",
    "drop": "system messages are left out",
}

#: The probe conversation's texts: markers no template writes itself.
_SYSTEM_MARK, _USER_MARK = "PROMPTKIT-SYSTEM-PROBE", "PROMPTKIT-USER-PROBE"


@dataclass(frozen=True)
class SystemRolePolicy:
    """A chat-template model's ``system_role``: as configured, the policy applied, and what the probe found (``auto``)."""

    configured: str
    applied: str
    #: A key of :data:`SYSTEM_PROBES`, or ``None`` when the template was not probed.
    probe: str | None = None

    def describe(self) -> str:
        """One line, e.g. ``system_role='auto': the chat template raises on a system message, so 'merge_into_first_user'
        (the system text opens the first user message)``."""
        effect = f"{self.applied!r} ({_POLICY_EFFECT[self.applied]})"
        if self.probe is None:
            return f"system_role={effect}"
        return f"system_role={self.configured!r}: the chat template {SYSTEM_PROBES[self.probe][0]}, so {effect}"

    def dump(self) -> dict[str, str]:
        """For a record's provenance: ``{"system_role": configured, "system_role_applied": applied[, "system_probe": probe]}``."""
        out = {"system_role": self.configured, "system_role_applied": self.applied}
        if self.probe is not None:
            out["system_probe"] = self.probe
        return out


def probe_system_role(template: BoundChatTemplate) -> str:
    """What ``template`` does with a system message (a key of :data:`SYSTEM_PROBES`), from two renders.

    ``[system, user]`` is rendered: an error is ``raises``, output without the system text is ``drops``.  Else
    ``[user]`` alone shows the user turn's header: its text before the user text, past what both renders open
    with (a BOS).  When the system text is followed by the end of that header (more than whitespace: a default
    system prompt of the template's own may precede it) the system message had ``own_turn``, else it went
    ``in_user_turn``.
    """
    user = {"role": "user", "content": _USER_MARK}
    try:
        both = template.render([{"role": "system", "content": _SYSTEM_MARK}, user], add_generation_prompt=True, plain_text=True)
    except PromptkitError:
        return "raises"
    if _SYSTEM_MARK not in both or _USER_MARK not in both:
        return "drops"
    try:
        alone = template.render([user], add_generation_prompt=True, plain_text=True)
    except PromptkitError:
        return "raises"
    header = alone[len(os.path.commonprefix([alone, both])) : alone.find(_USER_MARK)]
    between = both[both.index(_SYSTEM_MARK) + len(_SYSTEM_MARK) : both.index(_USER_MARK)]
    shared = os.path.commonprefix([header[::-1], between[::-1]])
    return "own_turn" if shared.strip() else "in_user_turn"


#: The parts of a tool-using prompt a chat template may leave out (:func:`probe_tool_parts`), in words.
TOOL_PARTS = {"tools": "the tools the prompt offers", "tool_calls": "the assistant's tool_calls", "tool": "the tool messages' text"}
#: The probes' markers: a tool's name, a tool call's name, a tool result.
_TOOL_MARK, _CALL_MARK, _RESULT_MARK = "promptkit_probe_tool", "promptkit_probe_call", "PROMPTKIT-RESULT-PROBE"
_PROBE_TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": _TOOL_MARK, "description": "A probe.", "parameters": {"type": "object", "properties": {}}}}
]
_PROBE_CALL: list[dict[str, Any]] = [
    {"role": "user", "content": "Hello"},
    # A nine-character alphanumeric id: Mistral's templates refuse any other.
    {"role": "assistant", "content": "", "tool_calls": [{"id": "probe1234", "type": "function", "function": {"name": _CALL_MARK, "arguments": {}}}]},
    {"role": "tool", "tool_call_id": "probe1234", "name": _CALL_MARK, "content": _RESULT_MARK},
]


def probe_tool_parts(template: BoundChatTemplate) -> frozenset[str]:
    """The keys of :data:`TOOL_PARTS` that ``template`` writes, from two renders: ``[user]`` with a probe tool (its
    name shows whether the tools are written), and a conversation with a tool call and its result.  A probe the
    template refuses tells nothing (the part counts as written: the real conversation gets the template's own error)."""
    written: set[str] = set()
    with_tools = BoundChatTemplate(template.source, {**template.variables, "tools": _PROBE_TOOLS}, template.origin, template.limits)
    try:
        if _TOOL_MARK in with_tools.render(_PROBE_CALL[:1], add_generation_prompt=True):
            written.add("tools")
    except PromptkitError:
        written.add("tools")
    try:
        text = template.render(_PROBE_CALL, add_generation_prompt=True)
    except PromptkitError:
        written.update(("tool_calls", "tool"))
    else:
        written.update(part for part, mark in (("tool_calls", _CALL_MARK), ("tool", _RESULT_MARK)) if mark in text)
    return frozenset(written)


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


class ChatTemplateModel(ModelBase):
    """A chat model whose final input is the string its chat template makes of the messages.

    The template comes from ``path`` (or ``tokenizer_path``): a local model folder with
    ``tokenizer_config.json`` / ``chat_template.jinja``, or a hub id found in the local Hugging Face
    cache (at ``revision``, default ``main``) or mapped to a folder (:mod:`promptkit.chat_templates.folders`);
    or from ``chat_template=`` text inline with ``special_tokens=dict(bos_token=..., ...)``; or, with
    ``fastchat_template='vicuna'``, it is that FastChat conversation style (:mod:`promptkit.chat_templates.fastchat`).
    ``template_limits=dict(seconds=..., max_chars=...)`` bounds each render of the template (untrusted code): see :class:`~promptkit.TemplateLimits`.

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
        revision: str | None = None,
        max_seq_len: int | None = None,
        token_counter: str | TokenCounter | None = None,
        template_limits: TemplateLimits | Mapping[str, Any] | None = None,
        model_folders: ModelFolders | None = None,
        **runtime: Any,
    ) -> None:
        #: The chat model whose messages the template is applied to (the meta template, validated as a chat model's).
        self.chat_model = OpenCompassChatModel(abbr=abbr, meta_template=meta_template or None)
        super().__init__(
            abbr=abbr, meta_template=meta_template or None, max_seq_len=max_seq_len, token_counter=token_counter,
            chat_template_kwargs=chat_template_kwargs, model_folders=model_folders, **runtime,
        )
        if system_role not in SYSTEM_ROLE_POLICIES:
            raise ConfigError(f"system_role must be one of {list(SYSTEM_ROLE_POLICIES)} (got {system_role!r})", key="system_role")
        if revision is not None and not isinstance(revision, str):
            raise ConfigError(f"revision must be a str, a branch, tag or commit of the model's hub repo (got {revision!r})", key="revision")
        #: The model folder (or the served name) the config gives: the engine-facing name of the model.
        self.path = path
        self.template_limits = TemplateLimits.of(template_limits)
        if fastchat_template is not None:
            if chat_template is not None:
                raise ConfigError("the model config gives both fastchat_template and chat_template; keep one", key="fastchat_template")
            self.chat_template = fastchat_chat_template(fastchat_template, self.template_limits)
        else:
            folder = tokenizer_path or path
            resolved = self.model_folders.resolve(folder, revision) if chat_template is None and folder is not None else None
            self.chat_template = _load_template(chat_template, special_tokens, resolved, self.template_limits)
        self.chat_template_name = chat_template_name
        self.chat_template_kwargs = dict(self.controls.chat_template_kwargs)
        self.tools = tools
        self.documents = documents
        # Chosen, compiled and checked once, at load time: a bad name or kwarg fails here, not at the first row.
        self._bound = self.bound_with(self.controls)
        #: The last tools and controls :meth:`render_tools` bound the template with, and that binding (a dataset's tools
        #: recur row after row).
        self._tools_bound: tuple[Sequence[Mapping[str, Any]], Controls, BoundChatTemplate] | None = None
        #: What each chat template text writes of a tool-using prompt (:func:`probe_tool_parts`), probed when first needed.
        self._tool_parts: dict[str, frozenset[str]] = {}
        #: The ``system_role`` as configured, the policy applied (``auto`` resolved once, here) and the probe's finding.
        self.system_policy = self.probe_system_role() if system_role == "auto" else SystemRolePolicy(system_role, system_role)
        #: The policy applied to system messages (never ``'auto'``).
        self.system_role = self.system_policy.applied

    def probe_system_role(self) -> SystemRolePolicy:
        """What ``system_role='auto'`` makes of this chat template (it renders two probe conversations)."""
        probe = probe_system_role(self._bound)
        return SystemRolePolicy("auto", SYSTEM_PROBES[probe][1], probe)

    @cached_property
    def thinking_switch(self) -> str | None:
        """The thinking variable the chat template reads (``enable_thinking`` for Qwen3, see
        :data:`~promptkit.controls.THINKING_SWITCHES`), or ``None``."""
        plain = self.chat_template.bind(template_name=self.chat_template_name, tools=self.tools, documents=self.documents)
        return next((name for name in THINKING_SWITCHES if plain.reads(name)), None)

    def bound_with(self, controls: Controls, tools: Sequence[Mapping[str, Any]] | None = None) -> BoundChatTemplate:
        """The chat template bound with ``controls``' template kwargs (``thinking`` under :attr:`thinking_switch`) and
        ``tools`` (default: the config's)."""
        kwargs = controls.template_kwargs(self.thinking_switch if controls.thinking is not None else None)
        tools = self.tools if tools is None else tools
        return self.chat_template.bind(template_name=self.chat_template_name, tools=tools, documents=self.documents, **kwargs)

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

    def _token_ids(self) -> Mapping[int, str]:
        """The model folder's tokens by id, as the chat template read them."""
        return self.chat_template.token_ids

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
            converted = apply_system_policy(converted, self.system_role)
        return converted

    def render(self, prompt: str | PromptList, mode: str = "gen") -> str:
        """The chat template applied to :meth:`messages`; ``gen`` adds the generation prompt, ``ppl`` ends with the answer."""
        check_mode(mode)
        return self.apply(self.chat_messages(prompt, mode), self._bound, mode == "gen")

    def render_tools(
        self,
        prompt: str | PromptList,
        mode: str,
        tools: Sequence[Mapping[str, Any]],
        controls: Controls | None = None,
        answer_start: str = "",
    ) -> str:
        """:meth:`render` with ``tools`` given to the chat template (``apply_chat_template(tools=...)``), instead of the
        config's, under ``controls`` (default: the config's) and continuing ``answer_start`` (see :meth:`render_with`)."""
        controls = self.controls if controls is None else controls
        cached = self._tools_bound
        if cached is None or (cached[1] is not controls and cached[1] != controls) or (cached[0] is not tools and cached[0] != tools):
            cached = self._tools_bound = (tools, controls, self.bound_with(controls, tools))
        return self.render_with(prompt, mode, cached[2], answer_start)

    def render_with(self, prompt: str | PromptList, mode: str, bound: BoundChatTemplate, answer_start: str = "") -> str:
        """:meth:`render` through ``bound`` (see :meth:`bound_with`); a non-empty ``answer_start`` (gen mode) ends the
        messages as an assistant message that the template continues (``continue_final_message=True``, no generation prompt)."""
        check_mode(mode)
        typed = self.chat_messages(prompt, mode)
        if not answer_start:
            return self.apply(typed, bound, mode == "gen")
        answer = Message("assistant", answer_start)
        if typed and typed[-1].role == "assistant":
            typed = (*typed[:-1], replace(typed[-1], content=merge_content(typed[-1].content, answer_start)))
        else:
            typed = (*typed, answer)
        return self.apply(typed, bound, False, continue_final=True)

    def apply(self, typed: tuple[Message, ...], bound: BoundChatTemplate, add_generation_prompt: bool, continue_final: bool = False) -> str:
        """The chat template (``bound``, see :meth:`bound_with`) applied to ``typed`` as they are: ``tokenizer.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=..., continue_final_message=...)``; an error names the model."""
        tools = bool(bound.variables.get("tools"))
        if tools or not all(message.tool_calls is None and message.role != "tool" for message in typed):
            self._check_tool_parts(typed, bound, tools)
        messages = to_openai(typed)
        text_only = all(type(message.content) is str for message in typed)
        try:
            return bound.render(messages, add_generation_prompt=add_generation_prompt, continue_final_message=continue_final, plain_text=text_only)
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
                    "to send its text as user text, 'drop' to leave it out, or 'auto' to choose from what the template does"
                )
            raise error.add_context(model=self.abbr) from None

    def _check_tool_parts(self, typed: tuple[Message, ...], bound: BoundChatTemplate, tools: bool) -> None:
        """Refuse a prompt whose tools, tool calls or tool results ``bound`` would leave out of the final input."""
        written = self._tool_parts.get(bound.source)
        if written is None:
            written = self._tool_parts[bound.source] = probe_tool_parts(bound)
        present = {"tools": tools, "tool_calls": any(m.tool_calls is not None for m in typed), "tool": any(m.role == "tool" for m in typed)}
        left = [TOOL_PARTS[part] for part, there in present.items() if there and part not in written]
        if left:
            what = left[0] if len(left) == 1 else f"{', '.join(left[:-1])} and {left[-1]}"
            raise MetaTemplateError(
                f"the chat template ({bound.origin}) leaves {what} out of the final input, so the model would never see it; use a "
                "model whose chat template writes it (its own chat_template= or path=), a ChatModel (its request carries tools and "
                "messages as they are), or a prompt that writes the functions into its text",
                model=self.abbr,
            )


def _skip_empty_and_merge(messages: tuple[Message, ...]) -> tuple[Message, ...]:
    """OpenCompass's conversion: empty messages skipped, then consecutive messages of one role merged with ``'\\n'``
    (tool calls and tool results are kept as they are: a call with no text is not empty)."""
    merged: list[Message] = []
    for message in messages:
        tool_fields = message.tool_calls is not None or message.tool_call_id is not None or message.reasoning_content is not None
        if not message.content and not tool_fields:
            continue
        if merged and merged[-1].role == message.role and not tool_fields and message.role != "tool" and merged[-1].tool_calls is None:
            merged[-1] = replace(merged[-1], content=merge_content(merged[-1].content, message.content))
        else:
            merged.append(message)
    return tuple(merged)


def _load_template(
    inline: str | Mapping[str, str] | None, special_tokens: Mapping[str, str] | None, folder: Path | None, limits: TemplateLimits
) -> ChatTemplate:
    if inline is not None:
        return ChatTemplate(inline, dict(special_tokens or {}), limits=limits)
    if folder is None:
        raise ConfigError(
            "a chat-template model needs path= (a local model folder with tokenizer_config.json) or chat_template= (the template text)",
            key="path",
        )
    template = ChatTemplate.from_folder(folder, limits)
    if special_tokens:
        template = replace(template, special_tokens={**template.special_tokens, **special_tokens})
    return template


def apply_system_policy(messages: tuple[Message, ...], policy: str) -> tuple[Message, ...]:
    """System messages as ``policy`` says (see :data:`SYSTEM_ROLE_POLICIES`); new messages, the given ones untouched."""
    if policy == "error" or not any(m.role == "system" for m in messages):
        return messages
    if policy == "drop":  # the messages either side of a dropped one may share a role: merged as OpenCompass merges
        return _skip_empty_and_merge(tuple(m for m in messages if m.role != "system"))
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
