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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.errors import TemplateError
from promptkit.promptlist import Item, PromptList
from promptkit.templates.prompt_template import Prompt, PromptTemplate

__all__ = ["ShotRenderer"]


class ShotRenderer:
    """Renders and joins shots from a pool of rows; each shot is rendered once and cached.

    ``sep_token`` (the prompt template's) is removed from the joined block, as
    OpenCompass removes it from the whole generation prompt.
    """

    def __init__(
        self,
        template: PromptTemplate,
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
