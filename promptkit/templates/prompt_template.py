"""``PromptTemplate``: the three template shapes of OpenCompass configs.

* a plain string — ``'Q: {question}\\nA: {answer}'`` renders to a ``str``;
* a chat dict — ``dict(begin=[...], round=[...], end=[...])`` with role items
  (``dict(role='HUMAN', prompt='{question}')``) renders to a PromptList;
* a label dict — ``{'A': '...Answer: A', 'B': ...}`` for likelihood scoring:
  one string or chat template per candidate label.

The template is parsed once, at construction: placeholders are found and the
``ice_token`` (where the shots go) and ``sep_token`` are located, so rendering
a row is a single pass over prepared pieces.

>>> t = PromptTemplate('Solve the following questions.\\n</E>{question}\\n{answer}', ice_token='</E>')
>>> t.render({'question': '1+1=?', 'answer': '2'}, ice='2+2=?\\n4\\n3+3=?\\n6\\n', masked='answer')
'Solve the following questions.\\n2+2=?\\n4\\n3+3=?\\n6\\n1+1=?\\n'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Protocol

from promptkit.errors import TemplateError, did_you_mean
from promptkit.promptlist import ROLE_ITEM_KEYS, Item, Marker, PromptList, RoleItem, check_role_item
from promptkit.text.placeholders import CompiledText, compile_text

__all__ = ["PromptTemplate"]

Prompt = str | PromptList

_CHAT_KEYS = ("begin", "round", "end")
_MARKERS = {(s, p): Marker(s, p) for s in ("begin", "round", "end", "ice") for p in ("begin", "end")}

#: Turns template text into an object with ``source``, ``names`` and ``render(values) -> str`` (placeholders, or Jinja).
TextCompiler = Callable[[str], CompiledText]


class _Text:
    """A piece of template text, cut at each ice token, each cut compiled."""

    __slots__ = ("pieces", "whole", "has_ice")

    def __init__(self, source: str, ice_token: str | None, sep_token: str | None, compile: TextCompiler = compile_text) -> None:
        if sep_token:
            source = source.replace(sep_token, "")
        self.pieces: tuple[CompiledText, ...] = tuple(compile(piece) for piece in (source.split(ice_token) if ice_token else (source,)))
        # Shots render with the ice token removed, as one piece.
        self.whole = self.pieces[0] if len(self.pieces) == 1 else compile("".join(p.source for p in self.pieces))
        self.has_ice = len(self.pieces) > 1

    @property
    def names(self) -> tuple[str, ...]:
        """The placeholder names, in order of first use."""
        return tuple(dict.fromkeys(name for piece in self.pieces for name in piece.names))

    def render(self, values: Mapping[str, Any], ice: str) -> str:
        if len(self.pieces) == 1:
            return self.pieces[0].render(values)
        return ice.join(piece.render(values) for piece in self.pieces)


class _Role:
    __slots__ = ("role", "prompt", "fallback_role", "begin", "end", "has_ice", "fixed")

    def __init__(
        self, spec: Mapping[str, Any], ice_token: str | None, sep_token: str | None, where: str, compile: TextCompiler = compile_text
    ) -> None:
        check_role_item(spec, where)
        self.role: str = spec["role"]
        prompt = spec.get("prompt")
        self.prompt = None if prompt is None else _Text(prompt, ice_token, sep_token, compile)
        self.fallback_role: str | None = spec.get("fallback_role")
        self.begin: str | None = spec.get("begin")
        self.end: str | None = spec.get("end")
        self.has_ice = self.prompt is not None and self.prompt.has_ice
        # An item whose text has no placeholder (a system turn) renders to one value, made once and shared: it is frozen.
        fixed = self.prompt is None or (not self.has_ice and isinstance(self.prompt.whole, CompiledText) and not self.prompt.whole.names)
        #: The item's one rendering when its text has no placeholder (else None).
        self.fixed = RoleItem(self.role, None if self.prompt is None else self.prompt.whole.source, self.fallback_role, self.begin, self.end) if fixed else None

    @property
    def names(self) -> tuple[str, ...]:
        return self.prompt.names if self.prompt is not None else ()

    def render(self, values: Mapping[str, Any], ice: str, use_whole: bool = False) -> RoleItem:
        if self.fixed is not None:
            return self.fixed
        if self.prompt is None:
            text = None
        elif use_whole:
            text = self.prompt.whole.render(values)
        else:
            text = self.prompt.render(values, ice)
        return RoleItem(self.role, text, self.fallback_role, self.begin, self.end)


class RoleSpec(Protocol):
    """A compiled role item of a chat template: renders to a :class:`RoleItem`."""

    role: str
    fallback_role: str | None
    begin: str | None
    end: str | None

    def render(self, values: Mapping[str, Any], ice: str, use_whole: bool = False) -> RoleItem: ...

    @property
    def has_ice(self) -> bool: ...

    @property
    def names(self) -> tuple[str, ...]:
        """The placeholder names the item fills."""


RoleFactory = Callable[[Mapping[str, Any], str | None, str | None, str], RoleSpec]


class _StringBody:
    """A plain string template."""

    kind = "string"

    def __init__(self, source: str, ice_token: str | None, sep_token: str | None, compile: TextCompiler = compile_text) -> None:
        self.text = _Text(source, ice_token, sep_token, compile)
        self.has_ice_slot = self.text.has_ice
        # The text's one piece, filled straight from the row (no ice token: nothing to splice).
        self._whole = None if self.has_ice_slot else self.text.pieces[0]
        #: The placeholder names the body fills (``None``: not known for its texts); see :meth:`PromptTemplate.render`.
        self.names = _placeholder_names([self.text])

    def render_shot(self, values: Mapping[str, Any]) -> str:
        return self.text.whole.render(values)

    def render(self, values: Mapping[str, Any], ice: Prompt) -> str:
        if type(ice) is not str and isinstance(ice, PromptList):  # (a str fails the check without the ABC's slow path)
            raise TemplateError(
                "the shots were rendered by a chat ice_template (a PromptList) but this prompt_template is a plain "
                "string, which cannot hold roles; make both templates strings or both chat dicts"
            )
        whole = self._whole
        return whole.render(values) if whole is not None else self.text.render(values, ice)


class _ChatBody:
    """A chat template: ``begin``/``round``/``end`` sections of role items and strings."""

    kind = "chat"

    def __init__(
        self,
        spec: Mapping[str, Any],
        ice_token: str | None,
        sep_token: str | None,
        where: str,
        make_role: RoleFactory = _Role,
        compile: TextCompiler = compile_text,
    ) -> None:
        if "round" not in spec:
            raise TemplateError(
                f"{where}: a chat template needs a 'round' list of role items, e.g. "
                "round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')]"
            )
        if not isinstance(spec["round"], (list, tuple)):
            raise TemplateError(f"{where}: 'round' must be a list of role items (got {type(spec['round']).__name__})")
        if not spec["round"]:
            raise TemplateError(f"{where}: 'round' is empty; give the turn of the item under test, e.g. [dict(role='HUMAN', prompt='{{question}}')]")
        self.sections: list[tuple[str, tuple[_Text | RoleSpec, ...]]] = []
        for name in _CHAT_KEYS:
            if name not in spec:
                continue
            raw = spec[name]
            items = raw if isinstance(raw, (list, tuple)) else [raw]
            compiled: list[_Text | RoleSpec] = []
            for i, item in enumerate(items):
                item_where = f"{where}: {name}[{i}]"
                if isinstance(item, str):
                    compiled.append(_Text(item, ice_token, sep_token, compile))
                elif isinstance(item, Mapping):
                    compiled.append(make_role(item, ice_token, sep_token, item_where))
                else:
                    raise TemplateError(f"{item_where}: an item must be a str or a role dict (got {type(item).__name__})")
            self.sections.append((name, tuple(compiled)))
        self.round = dict(self.sections)["round"]
        texts = [item if isinstance(item, _Text) else getattr(item, "prompt", None) for _, items in self.sections for item in items]
        known = all(text is None or isinstance(text, _Text) for text in texts) and all(isinstance(item, (_Text, _Role)) for _, items in self.sections for item in items)
        #: The placeholder names the body fills (``None``: not known for its items); see :meth:`PromptTemplate.render`.
        self.names = _placeholder_names([text for text in texts if text is not None]) if known else None
        self.has_ice_slot = any(it.has_ice for _, items in self.sections for it in items)
        # A section with no placeholder (a system turn and the shots' slot) renders to what the shots alone decide: its
        # last rendering is kept, and the next prompt with the same shots (the same object, as ShotRenderer returns) reuses it.
        self._fixed = frozenset(i for i, (_, items) in enumerate(self.sections) if all(map(_is_fixed, items)))
        self._kept: dict[int, tuple[Prompt, tuple[Item, ...]]] = {}

    def render_shot(self, values: Mapping[str, Any]) -> PromptList:
        """Only the round, wrapped in ``ice`` markers; the ice token is removed."""
        out: list[Item] = [_MARKERS["ice", "begin"]]
        for item in self.round:
            if isinstance(item, _Text):
                out.append(item.whole.render(values))
            else:
                out.append(item.render(values, "", use_whole=True))
        out.append(_MARKERS["ice", "end"])
        return PromptList._of(tuple(out))

    def render(self, values: Mapping[str, Any], ice: Prompt) -> PromptList:
        out: list[Item] = []
        ice_items, ice_text = _split_ice(ice)
        fixed, kept = self._fixed, self._kept
        for index, (name, items) in enumerate(self.sections):
            if index not in fixed:
                self._section(name, items, values, ice_items, ice_text, out)
                continue
            last = kept.get(index)
            if last is not None and last[0] is ice:
                out.extend(last[1])
                continue
            start = len(out)
            self._section(name, items, values, ice_items, ice_text, out)
            kept[index] = (ice, tuple(out[start:]))
        return PromptList._of(tuple(out))

    def render_section(self, name: str, items: tuple[_Text | RoleSpec, ...], values: Mapping[str, Any], ice: Prompt, out: list[Item]) -> None:
        """Append section ``name`` (its markers, ``items`` and the shots at the ice token) to ``out``."""
        self._section(name, items, values, *_split_ice(ice), out)

    def _section(
        self, name: str, items: tuple[_Text | RoleSpec, ...], values: Mapping[str, Any], ice_items: tuple[Item, ...] | None, ice_text: str, out: list[Item]
    ) -> None:
        out.append(_MARKERS[name, "begin"])
        for item in items:
            if not isinstance(item, _Text):
                if ice_items is not None and item.has_ice:
                    raise TemplateError(
                        f"the ice token sits inside the prompt of the {name} section's {item.role} item, but the "
                        "shots are a PromptList (chat ice_template), which cannot go inside one prompt; put the "
                        "token in its own item, e.g. begin=['</E>'], or make ice_template a string"
                    )
                out.append(item.render(values, ice_text))
            elif ice_items is None:
                out.append(item.render(values, ice_text))
            else:
                for i, piece in enumerate(item.pieces):
                    if i:
                        out.extend(ice_items)
                    if piece.source:
                        out.append(piece.render(values))
        out.append(_MARKERS[name, "end"])


Body = _StringBody | _ChatBody


def _placeholder_names(texts: list[_Text]) -> frozenset[str] | None:
    """Every placeholder name ``texts`` fill, when all are plain placeholder texts (``None``: another compiler's, such as
    Jinja's, whose names are not a promise of what it reads)."""
    pieces = [piece for text in texts for piece in text.pieces]
    if not all(type(piece) is CompiledText for piece in pieces):
        return None
    return frozenset(name for piece in pieces for name in piece.names)


def _is_fixed(item: _Text | RoleSpec) -> bool:
    """Whether an item of a chat section renders the same for every row (its text, if any, has no placeholder)."""
    if isinstance(item, _Role):
        return item.fixed is not None
    return isinstance(item, _Text) and all(isinstance(piece, CompiledText) and not piece.names for piece in item.pieces)


def _split_ice(ice: Prompt) -> tuple[tuple[Item, ...] | None, str]:
    """The shots as items to splice in (a PromptList's), or as text."""
    if type(ice) is not str and isinstance(ice, PromptList):  # (a str fails the check without the ABC's slow path)
        return ice.items, ""
    return None, ice


def _reject_mixed_chat_keys(template: Mapping[Hashable, Any]) -> None:
    """A dict with a chat section (a list under begin/round/end) and other keys is a typo'd chat template, not labels."""
    sections = [key for key in _CHAT_KEYS if isinstance(template.get(key), (list, tuple))]
    if sections:
        others = [key for key in template if key not in _CHAT_KEYS]
        raise TemplateError(
            f"template has the chat section(s) {sections} and the other key(s) {others}: a chat template takes only "
            f"begin/round/end{did_you_mean(others[0], _CHAT_KEYS)}, and a label-keyed template maps each label to a string or a chat dict"
        )


def reject_role_item(value: Any, where: str, *, labels_hint: bool = True) -> None:
    """A dict that is one role item (its keys a role item's, ``role`` among them) where a template goes is the
    forgotten ``round=[...]``, not a label dict whose labels are ``'role'`` and ``'prompt'``."""
    if not isinstance(value, Mapping) or "role" not in value or not all(key in _ROLE_ITEM_SHAPE for key in value):
        return
    keys = ", ".join(repr(key) for key in value)
    hint = "; a label-keyed template maps each label to its prompt" if labels_hint else ""
    raise TemplateError(
        f"{where} looks like one role item (keys {keys}), not a whole template: a chat template lists its role items under "
        f"'round', e.g. {where}=dict(round=[dict(role={value['role']!r}, prompt=...)]){hint}"
    )


# The keys of a role item, multimodal ones included (a label dict's labels are hardly all of these).
_ROLE_ITEM_SHAPE = frozenset((*ROLE_ITEM_KEYS, "prompt_mm"))


class PromptTemplate:
    """A prompt template in one of three shapes (see the module docstring).

    ``ice_token`` marks where the rendered shots go; ``sep_token`` marks the
    context/answer boundary of likelihood templates and is removed from what
    is rendered.
    """

    #: Whether rendered prompts may carry media parts (the pipeline then applies the dataset's media policy).
    is_multimodal = False

    def __init__(self, template: str | Mapping[Hashable, Any], ice_token: str | None = None, sep_token: str | None = None) -> None:
        for name, value in (("ice_token", ice_token), ("sep_token", sep_token)):
            if value is not None and not isinstance(value, str):
                raise TemplateError(f"{name} must be a str or None (got {value!r} that is a {type(value).__name__})")
        self.template = template
        self.ice_token = ice_token or None
        self.sep_token = sep_token or None
        self.labels: dict[Hashable, Body] | None = None
        if isinstance(template, str):
            self.kind = "string"
            self.body: Body = self._compile(template, "template")
        elif isinstance(template, Mapping):
            reject_role_item(template, "template")
            if all(key in _CHAT_KEYS for key in template):
                self.kind = "chat"
                self.body = self._compile(template, "template")
            else:
                _reject_mixed_chat_keys(template)
                self.kind = "labels"
                self.labels = {}
                for label, value in template.items():
                    reject_role_item(value, f"template[{label!r}]", labels_hint=False)
                    if isinstance(value, Mapping) and not all(key in _CHAT_KEYS for key in value):
                        raise TemplateError(f"template[{label!r}]: a label's chat template takes only begin/round/end (got keys {list(value)})")
                    if not isinstance(value, (str, Mapping)):
                        hint = ""
                        if isinstance(label, str) and label not in _CHAT_KEYS:
                            guess = did_you_mean(label, _CHAT_KEYS)
                            if guess:
                                hint = f"; if this is meant as a chat template, its keys are begin/round/end{guess}"
                        raise TemplateError(
                            f"template[{label!r}] is a {type(value).__name__}: in a label-keyed template each label maps "
                            f"to a string or a chat dict{hint}"
                        )
                    self.labels[label] = self._compile(value, f"template[{label!r}]")
                if not self.labels:
                    raise TemplateError("template is an empty dict: give a string, a chat dict with 'round', or a label dict")
                self.body = next(iter(self.labels.values()))
        else:
            raise TemplateError(f"template must be a str or a dict (got {template!r} that is a {type(template).__name__})")
        bodies = self.labels.values() if self.labels is not None else (self.body,)
        self.has_ice_slot = all(body.has_ice_slot for body in bodies)

    def _compile(self, value: Any, where: str) -> Body:
        if isinstance(value, str):
            if self.ice_token and self.ice_token not in value:
                raise TemplateError(f"{where}: ice_token {self.ice_token!r} does not occur in {value!r}; put it where the shots go")
            return _StringBody(value, self.ice_token, self.sep_token, self._text_compiler(where))
        return _ChatBody(value, self.ice_token, self.sep_token, where, self._make_role, self._text_compiler(where))

    def _text_compiler(self, where: str) -> TextCompiler:
        """How this template's texts are compiled: ``{column}`` placeholders (subclasses may choose otherwise)."""
        return compile_text

    @staticmethod
    def _make_role(spec: Mapping[str, Any], ice_token: str | None, sep_token: str | None, where: str) -> RoleSpec:
        """Compile one role item of a chat template (subclasses add item kinds)."""
        return _Role(spec, ice_token, sep_token, where)

    # -- rendering ----------------------------------------------------------
    def body_for(self, label: Hashable | None) -> Body:
        """The template for ``label`` (label-keyed templates) or the only one; gen uses the first label's."""
        if self.labels is None or label is None:
            return self.body
        try:
            return self.labels[label]
        except KeyError:
            raise TemplateError(
                f"label {label!r} is not a key of the label-keyed template (labels: {', '.join(map(repr, self.labels))})",
                label=label,
            ) from None

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        """Render one in-context example: answer shown, ice token removed, chat ``begin``/``end`` dropped."""
        return self.body_for(label).render_shot(row)

    def render(
        self,
        row: Mapping[str, Any],
        ice: Prompt = "",
        *,
        label: Hashable | None = None,
        masked: str | None = None,
        mask_value: str = "",
    ) -> Prompt:
        """Render the item under test with ``ice`` spliced at the ice token.

        ``masked`` names the answer column: its value renders as ``mask_value``.
        """
        body = self.body if label is None or self.labels is None else self.body_for(label)
        values = row
        # The answer column masked, in a copy of the row — not needed when the body provably fills no such placeholder.
        if masked is not None and (body.names is None or masked in body.names):
            values = dict(row)
            values[masked] = mask_value
        return body.render(values, ice)

    def __repr__(self) -> str:
        return f"PromptTemplate(template={self.template!r}, ice_token={self.ice_token!r}, sep_token={self.sep_token!r})"
