"""Rendering the picked shots into the few-shot block (the "ice").

Each shot is rendered from its own row with the ``ice_template`` (answer
shown) and the results are joined as OpenCompass's retrievers join them:

* chat ice_template: the shots' PromptLists are concatenated (separators are
  forced to ``''``) — no shots gives ``''``;
* string ice_template: ``ice_separator.join(shots) + ice_eos_token``;
* label-keyed ice_template: each shot uses the template of its own gold
  label; string results are joined as strings, chat results as PromptLists
  with the separator and eos token as loose strings between them.

The block is finished text: it is spliced into the prompt after the item
under test is rendered, never re-formatted with the test row.

:class:`CandidateShots` renders MDL's candidate shot sets and label prompts
with the same renderer; it implements the retrievers' ``CandidatePrompts``
protocol and is installed for ``MDLRetriever`` when this module is imported.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from promptkit.errors import RetrieverError, TemplateError
from promptkit.promptlist import Item, PromptList, RoleItem
from promptkit.retrievers.mdl import render_candidates_with
from promptkit.templates.prompt_template import PromptTemplate
from promptkit.templates.protocol import Prompt, Template

__all__ = ["CandidateShots", "ShotRenderer", "prompt_text", "prompt_texts"]


class ShotRenderer:
    """Renders and joins shots from a pool of rows; each shot is rendered once and cached.

    ``sep_token`` (the prompt template's) is removed from the joined block, as
    OpenCompass removes it from the whole generation prompt.
    """

    def __init__(
        self,
        template: Template,
        pool: Sequence[Mapping[str, Any]],
        output_column: str | None,
        separator: str,
        eos_token: str,
        sep_token: str | None = None,
    ) -> None:
        self.template = template
        self.pool = pool
        self.output_column = output_column
        chat = template.kind == "chat"
        self.separator = "" if chat else separator
        self.eos_token = "" if chat else eos_token
        self.sep_token = sep_token
        self._shots: dict[int, Prompt] = {}
        self._last: tuple[tuple[int, ...], Prompt] | None = None

    def shot(self, index: int) -> Prompt:
        cached = self._shots.get(index)
        if cached is None:
            row = self.pool[index]
            label = None
            if self.template.labels is not None:
                label = self._label_of(row, index)
            try:
                cached = self.template.render_shot(row, label)
            except TemplateError as error:
                raise error.add_context(shot=f"pool row {index}") from None
            self._shots[index] = cached
        return cached

    def _label_of(self, row: Mapping[str, Any], index: int) -> Any:
        """A label-keyed ice_template renders each shot with the template of the shot's own answer."""
        assert self.template.labels is not None
        if self.output_column is None:
            raise TemplateError("a label-keyed ice_template picks each shot's template by its answer, but reader_cfg has no output_column")
        label = row.get(self.output_column)
        if label not in self.template.labels:
            known = ", ".join(map(repr, self.template.labels))
            raise TemplateError(
                f"the shot's answer {label!r} is not a label of the ice_template (labels: {known}); each shot is rendered "
                "with the template of its answer, so fix the row's answer or add that label to ice_template",
                shot=f"pool row {index}",
                key=self.output_column,
            )
        return label

    def render(self, ids: Sequence[int]) -> Prompt:
        key = tuple(ids)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        ice = self._join([self.shot(i) for i in key])
        if self.sep_token:
            ice = ice.replace(self.sep_token, "")
        self._last = (key, ice)
        return ice

    def _join(self, shots: list[Prompt]) -> Prompt:
        if self.template.kind == "chat":
            if not shots:
                return ""
            items: list[Item] = []
            for shot in shots:
                items.extend(shot)  # type: ignore[arg-type]
            items.append(self.eos_token)
            return PromptList._of(tuple(items))
        if shots and isinstance(shots[0], PromptList):
            items = []
            for shot in shots:
                if not isinstance(shot, PromptList):
                    raise TemplateError("the label-keyed ice_template mixes string and chat templates; shots must all be one kind")
                items.extend(shot)
                if self.separator:
                    items.append(self.separator)
            items.append(self.eos_token)
            return PromptList._of(tuple(items))
        for shot in shots:
            if not isinstance(shot, str):
                raise TemplateError("the label-keyed ice_template mixes string and chat templates; shots must all be one kind")
        return self.separator.join(shots) + self.eos_token  # type: ignore[arg-type]


def prompt_texts(prompt: Prompt) -> list[str]:
    """The text pieces of a rendered prompt: the string, or the loose strings and role prompts of a PromptList."""
    if isinstance(prompt, str):
        return [prompt]
    return [item if isinstance(item, str) else item.prompt or "" for item in prompt if isinstance(item, (str, RoleItem))]


def prompt_text(prompt: Prompt) -> str:
    """The text of a rendered prompt: a string, or the prompts of a PromptList's items, concatenated."""
    return "".join(prompt_texts(prompt))


class CandidateShots:
    """MDLRetriever's ``ice_template``/``prompt_template`` (configs or templates), compiled once.

    ``prompt_template`` defaults to ``ice_template``, as in OpenCompass.
    """

    def __init__(self, ice_template: Any, prompt_template: Any = None) -> None:
        self.ice_template = _mdl_template(ice_template, "ice_template")
        self.prompt_template = _mdl_template(prompt_template, "prompt_template") if prompt_template is not None else self.ice_template

    @property
    def labels(self) -> list[Hashable] | None:
        """A label-keyed prompt template's labels."""
        return list(self.prompt_template.labels) if self.prompt_template.labels is not None else None

    def bind(self, pool: Sequence[Mapping[str, Any]], output_column: str | None, separator: str, eos_token: str) -> _PoolShots:
        return _PoolShots(self.prompt_template, ShotRenderer(self.ice_template, pool, output_column, separator, eos_token))


class _PoolShots:
    """The candidate prompts of one pool (``PoolPrompts``): shot sets joined as the prompt joins them, label prompts."""

    def __init__(self, template: Template, shots: ShotRenderer) -> None:
        self.template = template
        self.shots = shots

    def context(self, ids: Sequence[int]) -> str:
        return prompt_text(self.shots.render(ids))

    def continuations(self, row: Mapping[str, Any], labels: Sequence[Hashable], masked: str | None) -> list[str]:
        return [prompt_text(self.template.render(row, "", label=label, masked=masked, mask_value=str(label))) for label in labels]


def _mdl_template(value: Any, key: str) -> Template:
    if isinstance(value, Template):
        return value
    if isinstance(value, Mapping):
        kind = value.get("type", "PromptTemplate")
        name = kind.__name__ if isinstance(kind, type) else str(kind).rsplit(".", 1)[-1]
        if name != "PromptTemplate":
            raise RetrieverError(f"{key} must be a PromptTemplate config (got type {name!r})", key=key)
        return PromptTemplate(**{k: v for k, v in value.items() if k != "type"})
    raise RetrieverError(f"MDLRetriever needs {key}, the infer config's template, to render the candidate shots (got {value!r})", key=key)


render_candidates_with(CandidateShots)
