"""A model's Hugging Face chat template(s) and special tokens, rendered as ``apply_chat_template`` does.

>>> t = ChatTemplate("{{ bos_token }}{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
...                  "{% if add_generation_prompt %}<assistant>{% endif %}", special_tokens={"bos_token": "<s>"})
>>> t.render([{"role": "user", "content": "Hi {{ 7*7 }}"}], add_generation_prompt=True)
'<s><user>Hi {{ 7*7 }}<assistant>'

Message contents are data: they are handed to the template as values and
never parsed as Jinja.  The template itself is untrusted code: it runs in a
sandbox, each render within :class:`~promptkit.TemplateLimits` (time, size),
and whatever it raises becomes a :class:`~promptkit.MetaTemplateError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, MetaTemplateError, PromptkitError
from promptkit.text.limits import LimitExceeded, TemplateLimits, describe, one_line

__all__ = ["SPECIAL_TOKEN_NAMES", "BoundChatTemplate", "ChatTemplate", "FolderTokens"]

#: The special tokens a tokenizer hands to its chat template (``transformers``' ``special_tokens_map``).
SPECIAL_TOKEN_NAMES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")

# What transformers appends to the final message for continue_final_message, then cuts the output at.
_CONTINUE_TAG = "CONTINUE_FINAL_MESSAGE_TAG "
# Names a message's reasoning travels under; transformers copies whichever is set to the others.
_REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")


@dataclass(frozen=True)
class ChatTemplate:
    """One chat template text, or several named ones, plus the special tokens the templates may use.

    ``templates`` maps a name to template text; a single template is stored
    under ``"default"``.  Build one from text (``ChatTemplate(text, ...)``) or
    from a local model folder (:meth:`from_folder`).  ``limits`` bound each
    render (a :class:`~promptkit.TemplateLimits`, or a dict of its fields).
    """

    source: str | Mapping[str, str]
    special_tokens: Mapping[str, str] = field(default_factory=dict)
    #: Where the template came from, for error messages (a folder, or ``"inline"``).
    origin: str = "inline"
    #: The tokenizer's added tokens marked ``"special": true`` (control tokens the template may not name), from the folder.
    added_tokens: tuple[str, ...] = ()
    limits: TemplateLimits = field(default_factory=TemplateLimits)
    #: The folder's added tokens by id (what a model config's ``eos_token_id`` names), see :class:`FolderTokens`.
    token_ids: Mapping[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Jinja (and the sandbox) are imported when a chat template is first compiled: `import promptkit` reads no Jinja.
        import jinja2

        from promptkit.chat_templates._environment import compile_chat_template

        object.__setattr__(self, "limits", TemplateLimits.of(self.limits))
        templates = {"default": self.source} if isinstance(self.source, str) else dict(self.source)
        if not templates:
            raise ConfigError(f"{self.origin}: no chat template given")
        for name, text in templates.items():
            if not isinstance(text, str):
                raise ConfigError(f"{self.origin}: chat template {name!r} must be a str (got {type(text).__name__})", key="chat_template")
            try:
                compile_chat_template(text)
            except jinja2.TemplateSyntaxError as exc:
                raise MetaTemplateError(
                    f"{self.origin}: chat template {name!r} does not parse: {exc.message} (template line {exc.lineno})", key="chat_template"
                ) from None
            except Exception as exc:  # noqa: BLE001  # untrusted text: nesting too deep to compile (RecursionError, MemoryError)
                raise MetaTemplateError(f"{self.origin}: chat template {name!r} cannot be compiled: {describe(exc)}", key="chat_template") from None
        for key, value in self.special_tokens.items():
            if not isinstance(value, str):
                raise ConfigError(f"{self.origin}: special token {key!r} must be a str (got {value!r})", key=key)
        object.__setattr__(self, "_templates", templates)

    @property
    def templates(self) -> Mapping[str, str]:
        """Template texts by name (``"default"`` for a model's single template)."""
        return self._templates  # type: ignore[attr-defined, no-any-return]  # set once in __post_init__

    @classmethod
    def from_folder(cls, folder: str | Path, limits: TemplateLimits | Mapping[str, Any] | None = None) -> ChatTemplate:
        """The chat template(s) and special tokens of a local model folder, read as ``transformers`` reads them.

        Templates: ``chat_template.jinja`` and ``additional_chat_templates/<name>.jinja`` when present,
        else ``chat_template`` in ``tokenizer_config.json`` (a string, or a list of ``{name, template}``).
        Special tokens, added tokens and tokens by id: :class:`FolderTokens`.
        Every file must be UTF-8 (as ``transformers`` reads them).
        """
        path = Path(folder)
        config_file = path / "tokenizer_config.json"
        if not path.is_dir():
            raise ConfigError(
                f"model folder {str(path)!r} does not exist; promptkit downloads nothing: put the model's tokenizer_config.json "
                "(and chat_template.jinja if it has one) in a local folder and give its path, or give chat_template= inline",
                key="path",
            )
        config = _read_json(config_file) if config_file.is_file() else {}
        templates: dict[str, str] = {}
        if (path / "chat_template.jinja").is_file():
            templates["default"] = _read_text(path / "chat_template.jinja")
        extra_dir = path / "additional_chat_templates"
        if extra_dir.is_dir():
            for file in sorted(extra_dir.glob("*.jinja")):
                templates[file.stem] = _read_text(file)
        if not templates:
            templates = _templates_from_config(config.get("chat_template"), config_file)
        tokens = FolderTokens.read(path, config)
        source: str | dict[str, str] = templates["default"] if list(templates) == ["default"] else templates
        return cls(
            source, tokens.special, origin=str(path), added_tokens=tokens.added, limits=TemplateLimits.of(limits), token_ids=tokens.ids
        )

    def select(self, name: str | None = None, tools: Sequence[Any] | None = None) -> str:
        """The template text ``apply_chat_template`` would use: ``name``'s, else ``tool_use`` when tools are given, else ``default``."""
        templates = self.templates
        if name is not None:
            if name not in templates:
                raise ConfigError(f"{self.origin}: no chat template named {name!r}; it has {sorted(templates)}", key="chat_template_name")
            return templates[name]
        if tools is not None and "tool_use" in templates:
            return templates["tool_use"]
        if "default" in templates:
            return templates["default"]
        raise ConfigError(
            f"{self.origin}: the model has several chat templates and none is named 'default'; "
            f"choose one with chat_template_name= (one of {sorted(templates)})",
            key="chat_template_name",
        )

    def bind(
        self,
        *,
        template_name: str | None = None,
        tools: Sequence[Mapping[str, Any]] | None = None,
        documents: Sequence[Mapping[str, Any]] | None = None,
        **template_kwargs: Any,
    ) -> BoundChatTemplate:
        """The template to render many conversations with the same arguments: chosen, compiled and given its variables once.

        Arguments as for :meth:`render`.
        """
        clash = sorted(_RENDER_ARGUMENTS & template_kwargs.keys())
        if clash:
            raise ConfigError(
                f"{self.origin}: template kwargs {clash} would replace arguments that apply_chat_template sets itself; "
                "pass tools= and documents= as such, and rename the others",
                key=clash[0],
            )
        source = self.select(template_name, tools)
        variables: dict[str, Any] = {**self.special_tokens, **_plain(template_kwargs, "template kwargs")}
        variables["tools"] = _plain(list(tools), "tools") if tools is not None else None
        variables["documents"] = _plain(list(documents), "documents") if documents is not None else None
        return BoundChatTemplate(source, variables, self.origin, self.limits)

    def render(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        add_generation_prompt: bool = False,
        continue_final_message: bool | str = False,
        tools: Sequence[Mapping[str, Any]] | None = None,
        documents: Sequence[Mapping[str, Any]] | None = None,
        template_name: str | None = None,
        **template_kwargs: Any,
    ) -> str:
        """What ``tokenizer.apply_chat_template(messages, tokenize=False, ...)`` returns for the same arguments.

        ``template_kwargs`` (``enable_thinking=False``, ``date_string=...``) become template variables and
        override special tokens of the same name.  A template that raises (``raise_exception``), fails
        (any exception: ``ZeroDivisionError``, ``RecursionError`` ...) or passes its :attr:`limits` becomes a
        :class:`MetaTemplateError` carrying the template's message on one line.  To render many conversations
        with the same arguments, :meth:`bind` them once.
        """
        bound = self.bind(template_name=template_name, tools=tools, documents=documents, **template_kwargs)
        return bound.render(messages, add_generation_prompt=add_generation_prompt, continue_final_message=continue_final_message)


#: Variables apply_chat_template sets from its own arguments; template kwargs cannot replace them.
_RENDER_ARGUMENTS = frozenset({"messages", "tools", "documents", "add_generation_prompt"})


class BoundChatTemplate:
    """One chat template, compiled, with its variables (special tokens, tools, template kwargs) fixed: see :meth:`ChatTemplate.bind`."""

    __slots__ = ("_compiled", "_context_base", "limits", "origin", "source", "variables")

    def __init__(self, source: str, variables: Mapping[str, Any], origin: str, limits: TemplateLimits | None = None) -> None:
        self.source = source
        #: Everything the template sees besides ``messages`` and ``add_generation_prompt``.
        self.variables = dict(variables)
        self.origin = origin
        self.limits = limits or TemplateLimits()
        from promptkit.chat_templates._environment import compile_chat_template

        self._compiled = compile_chat_template(source)
        # What Template.render would put in each render's context, merged once (see render()).
        self._context_base = {**self._compiled.globals, **self.variables}

    def reads(self, name: str) -> bool:
        """Whether the template reads the variable ``name`` (e.g. ``enable_thinking``)."""
        from promptkit.chat_templates._environment import template_variables

        return name in template_variables(self.source)

    def __reduce__(self) -> tuple[type[BoundChatTemplate], tuple[str, dict[str, Any], str, TemplateLimits]]:
        # A compiled Jinja template does not pickle; its text does, and compiles again where it is loaded.
        return BoundChatTemplate, (self.source, self.variables, self.origin, self.limits)

    def render(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        add_generation_prompt: bool = False,
        continue_final_message: bool | str = False,
        plain_text: bool = False,
    ) -> str:
        """What ``apply_chat_template(messages, tokenize=False, ...)`` returns (see :meth:`ChatTemplate.render`).

        ``plain_text=True`` promises that every message is a ``dict`` of ``str`` values without reasoning
        fields (as :class:`~promptkit.ChatTemplateModel` builds them), so they are passed on unchecked.
        """
        import jinja2

        from promptkit.text import sandbox

        if not messages:
            raise MetaTemplateError("cannot apply a chat template to an empty conversation; give at least one message")
        if continue_final_message and add_generation_prompt:
            raise MetaTemplateError(
                "continue_final_message and add_generation_prompt exclude each other: the first continues the last message, "
                "the second opens a new assistant message"
            )
        chat: list[Any] = list(messages) if plain_text and not continue_final_message else _normalized(messages, copy=bool(continue_final_message))
        continued = ""
        if continue_final_message:
            continued = _tag_final_message(chat, self.source, "content" if continue_final_message is True else continue_final_message)
        # Template.render, without rebuilding the globals and variables into a new dict each time.
        context = self._compiled.new_context({**self._context_base, "messages": chat, "add_generation_prompt": add_generation_prompt}, shared=True)
        try:
            text = sandbox.render(self._compiled, context, self.limits)
        except LimitExceeded as exc:
            hint = f"; if you trust the template, raise template_limits=dict({exc.key}=...) in the model config" if exc.key else ""
            raise MetaTemplateError(f"the chat template ({self.origin}) exceeded its limits: {exc}{hint}") from None
        except jinja2.TemplateError as exc:
            raise MetaTemplateError(f"the chat template ({self.origin}) raised: {one_line(exc.message or str(exc))}") from None
        except PromptkitError:
            raise
        except Exception as exc:  # noqa: BLE001  # untrusted code: whatever it raises is the template's failure, reported as such
            raise MetaTemplateError(f"the chat template ({self.origin}) failed on these messages: {describe(exc)}") from None
        return _cut_at_tag(text, continued, self.origin) if continue_final_message else text


def _normalized(messages: Sequence[Mapping[str, Any]], copy: bool) -> list[Any]:
    """Plain dicts, keys whose value is None dropped, reasoning copied under each of its names (as transformers).

    Text-only messages (every value a str) are passed as they are, or shallow-copied when ``copy``
    (continue_final_message edits the last one): the immutable sandbox keeps the template from changing them.
    """
    if _text_only(messages):
        return [dict(m) for m in messages] if copy else list(messages)
    chat = []
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise MetaTemplateError(f"message {index} must be a dict with 'role' and 'content' (got {message!r})")
        plain = {key: value for key, value in _plain(message, f"message {index}").items() if value is not None}
        reasoning = next((plain[key] for key in _REASONING_FIELDS if plain.get(key) is not None), None)
        if reasoning is not None:
            plain = {"thinking": reasoning, **plain, "reasoning_content": reasoning}
        chat.append(plain)
    return chat


def _text_only(messages: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every message is a plain dict of str values without reasoning fields (a loop: this runs per prompt)."""
    for message in messages:
        if type(message) is not dict:
            return False
        if len(message) == 2 and type(message.get("role")) is str and type(message.get("content")) is str:
            continue  # the usual message, checked in one step
        if "reasoning_content" in message or "thinking" in message or "reasoning" in message:
            return False
        for value in message.values():
            if type(value) is not str:
                return False
    return True


def _tag_final_message(chat: list[dict[str, Any]], source: str, key: str) -> str:
    """Append the continue tag to the final message's ``key`` (its last text part); return the text continued."""
    final = chat[-1].get(key)
    if final is None:
        raise MetaTemplateError(f"continue_final_message is set but the final message has no {key!r} to continue")
    keys = [name for name in _REASONING_FIELDS if chat[-1].get(name) == final] if key in _REASONING_FIELDS else [key]
    if not any(name in source for name in keys):
        raise MetaTemplateError(f"continue_final_message is set to {key!r} but the chat template never reads that field")
    if isinstance(final, list):
        for part in reversed(final):
            if isinstance(part, dict) and "text" in part:
                text: str = part["text"]
                part["text"] = text + _CONTINUE_TAG
                return text
        raise MetaTemplateError("continue_final_message is set but the final message has no text part to continue")
    for name in keys:
        chat[-1][name] = chat[-1][name] + _CONTINUE_TAG
    return str(final)


def _cut_at_tag(text: str, continued: str, origin: str) -> str:
    tag = _CONTINUE_TAG.strip()
    if continued.strip() not in text or tag not in text:
        raise MetaTemplateError(
            f"continue_final_message is set but the chat template ({origin}) does not reproduce the final message "
            f"{continued.strip()!r}; it rewrites or drops part of it, so it cannot be continued"
        )
    at = text.rindex(tag)
    if text[at : at + len(_CONTINUE_TAG)] == _CONTINUE_TAG:
        return text[:at]
    return text[:at].rstrip()  # the template trimmed the message's end, and the tag's space with it


@dataclass(frozen=True)
class FolderTokens:
    """The tokens a local model folder names, read as ``transformers`` 5 reads them: by :meth:`ChatTemplate.from_folder`,
    and by any model whose ``path`` names a folder (its control tokens, :mod:`promptkit.tokens.guard`).

    ``special``: what the tokenizer hands its chat template (``bos_token``, ``eos_token``, …, model-specific ``*_token``
    keys), see :func:`_special_tokens` (``special_tokens_map.json`` is read only when ``tokenizer_config.json`` has no
    ``added_tokens_decoder``, and then its entries replace the config's); ``added``: the extra special tokens, and the
    ``"special": true`` entries of ``added_tokens_decoder`` in ``tokenizer_config.json`` and of ``added_tokens`` in
    ``tokenizer.json``; ``ids``: every added token by id (what a model config's ``eos_token_id`` names).  A folder
    without these files names none.
    """

    special: dict[str, str] = field(default_factory=dict)
    added: tuple[str, ...] = ()
    ids: dict[int, str] = field(default_factory=dict)

    @classmethod
    def read(cls, folder: str | Path, config: Mapping[str, Any] | None = None) -> FolderTokens:
        """The tokens of ``folder`` (``config``: its ``tokenizer_config.json``, when already read)."""
        path = Path(folder)
        config_file = path / "tokenizer_config.json"
        if config is None:
            config = _read_json(config_file) if config_file.is_file() else {}
        map_file = path / "special_tokens_map.json"
        # transformers 5 reads the map of an older save only: one whose tokenizer_config.json has no added_tokens_decoder.
        token_map = _read_json(map_file) if "added_tokens_decoder" not in config and map_file.is_file() else {}
        special, extra = _special_tokens(config, config_file, token_map, map_file)
        decoder = config.get("added_tokens_decoder")
        added = [*extra, *_added_special_tokens(decoder, config_file)]
        ids = _token_ids(decoder)
        tokenizer_file = path / "tokenizer.json"
        if tokenizer_file.is_file():
            entries = _read_json(tokenizer_file).get("added_tokens")
            added += _added_special_tokens(entries, tokenizer_file)
            ids.update(_token_ids(entries))
        return cls(special, tuple(dict.fromkeys(added)), ids)


def _token_ids(entries: Any) -> dict[int, str]:
    """Added-token entries by id: ``added_tokens_decoder`` (an object keyed by id) or ``tokenizer.json``'s ``added_tokens``
    (a list of entries with ``id``); entries of another shape are skipped (:func:`_added_special_tokens` checks the shape)."""
    if isinstance(entries, Mapping):
        pairs = list(entries.items())
    elif isinstance(entries, list):
        pairs = [(entry.get("id"), entry) for entry in entries if isinstance(entry, Mapping)]
    else:
        return {}
    ids = {}
    for key, entry in pairs:
        content = entry.get("content") if isinstance(entry, Mapping) else None
        if isinstance(content, str) and content and (isinstance(key, int) or (isinstance(key, str) and key.isdigit())):
            ids[int(key)] = content
    return ids


def _plain(value: Any, where: str) -> Any:
    """A copy made of JSON types only (dict, list, str, int, float, bool, None): what a template may see."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, Mapping):
        return {_plain(k, where): _plain(v, where) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item, where) for item in value]
    for base in (str, bool, int, float):
        if isinstance(value, base):
            return base(value)
    raise MetaTemplateError(f"{where}: a chat template only sees JSON values (dict, list, str, number, bool, None); got a {type(value).__name__}")


def _read_text(path: Path) -> str:
    """A model-folder file's text (UTF-8, as transformers reads it)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path} is not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} cannot be decoded ({exc.reason}); "
            "save the file as UTF-8",
            file=str(path),
        ) from None


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{path} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", file=str(path)) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object (got {type(data).__name__})", file=str(path))
    return data


def _templates_from_config(value: Any, config_file: Path) -> dict[str, str]:
    if isinstance(value, str):
        return {"default": value}
    if isinstance(value, list) and value and all(isinstance(t, dict) and {"name", "template"} <= t.keys() for t in value):
        return {t["name"]: t["template"] for t in value}
    if value is None:
        found = sorted(file.name for file in config_file.parent.iterdir()) if config_file.parent.is_dir() else []
        raise ConfigError(
            f"{config_file.parent} has no chat template: neither chat_template.jinja nor a 'chat_template' in tokenizer_config.json "
            f"(it holds {', '.join(found) if found else 'no files'}); give chat_template= in the model config, or use a meta "
            "template (ChatModel / CompletionModel)",
            file=str(config_file.parent),
        )
    raise ConfigError(
        f"'chat_template' in {config_file} must be a string or a list of {{'name': ..., 'template': ...}} (got {value!r:.80})",
        file=str(config_file),
        key="chat_template",
    )


def _added_special_tokens(entries: Any, file: Path) -> list[str]:
    """The ``content`` of added-token entries marked ``"special": true`` (a dict by id, or a list)."""
    if entries is None:
        return []
    if isinstance(entries, Mapping):
        entries = list(entries.values())
    if not isinstance(entries, list):
        raise ConfigError(f"the added tokens in {file} must be a list or an object of token entries (got {type(entries).__name__})", file=str(file))
    return [
        entry["content"]
        for entry in entries
        if isinstance(entry, Mapping) and entry.get("special") is True and isinstance(entry.get("content"), str) and entry["content"]
    ]


def _special_tokens(config: Mapping[str, Any], config_file: Path, token_map: Mapping[str, Any], map_file: Path) -> tuple[dict[str, str], list[str]]:
    """The special tokens a tokenizer loaded from these files hands its chat template, and its extra special tokens.

    As ``transformers`` 5 reads them.  A token is a string or an ``AddedToken`` object with ``content``.

    * The named tokens (:data:`SPECIAL_TOKEN_NAMES`) and every other ``*_token`` key holding a token
      (``image_token``: a model-specific token) of ``tokenizer_config.json``, and the entries of a dict
      ``extra_special_tokens``.
    * Each entry of ``special_tokens_map.json`` (``token_map``, when it is read) replaces the config's; ``null``
      removes the token.
    * Extra special tokens (the template does not see them; they are control tokens): the config's list
      ``extra_special_tokens``, else its ``additional_special_tokens``; the map's ``extra_special_tokens`` added to
      them, or its ``additional_special_tokens`` when there are none.
    """
    values = {key: (value, config_file) for key, value in config.items()}
    if "additional_special_tokens" in values and not config.get("extra_special_tokens"):
        values["extra_special_tokens"] = values.pop("additional_special_tokens")
    for key, value in token_map.items():
        if key == "extra_special_tokens" and isinstance(value, list) and isinstance(values.get(key, (None,))[0], list):
            value = [*values[key][0], *value]
        values[key] = (value, map_file)
    if "additional_special_tokens" in values and "extra_special_tokens" not in values:
        values["extra_special_tokens"] = values.pop("additional_special_tokens")
    extra, where = values.pop("extra_special_tokens", (None, config_file))
    if isinstance(extra, Mapping):  # named model-specific tokens
        values.update({key: (value, where) for key, value in extra.items()})
        extra = None
    tokens = {}
    for key, (value, file) in values.items():
        if key in SPECIAL_TOKEN_NAMES:
            content = _content(value)
            if value is not None and content is None:
                raise ConfigError(f"{key} in {file} must be a string or an object with 'content' (got {value!r})", file=str(file), key=key)
        else:
            content = _content(value) if key.endswith("_token") else None
        if content is not None:
            tokens[key] = content
    extras = [content for content in map(_content, extra if isinstance(extra, list) else []) if content]
    return tokens, list(dict.fromkeys(extras))


def _content(token: Any) -> str | None:
    """The text of a token written as a string or as an ``AddedToken`` object; None for anything else."""
    if isinstance(token, Mapping):
        token = token.get("content")
    return token if isinstance(token, str) else None
