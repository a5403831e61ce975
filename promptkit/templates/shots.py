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

:meth:`ShotRenderer.pieces` names a string block's parts for spans and token
views: each shot's text and its answer (the answer column's value, found by
rendering the shot once more with the value marked; for a label-keyed
ice_template, where the answer is template text, the stretch in which the
shot's render differs from its renders with the other labels' templates), and
the separators.

:class:`CandidateShots` renders MDL's candidate shot sets and label prompts
with the same renderer; it implements the retrievers' ``CandidatePrompts``
protocol and is installed for ``MDLRetriever`` when this module is imported.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from promptkit.errors import RetrieverError, TemplateError
from promptkit.promptlist import Item, PromptList, RoleItem
from promptkit.retrievers.candidates import render_candidates_with
from promptkit.templates.prompt_template import PromptTemplate
from promptkit.templates.protocol import Prompt, Template

__all__ = ["CandidateShots", "ShotRenderer", "prompt_text", "prompt_texts"]

#: Private-use characters around a shot's marked answer: never produced by a template.
_OPEN, _CLOSE = "\ue000", "\ue001"


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
        self._answers: dict[int, tuple[str, str, str]] = {}

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

    def pieces(self, ids: Sequence[int]) -> tuple[tuple[str, str], ...]:
        """A string block's parts, in order, as ``(piece, text)`` whose texts join to :meth:`render`'s block:
        ``shot[k]`` (the ``k``-th shot's text, before and after its answer), ``shot[k].answer``, and ``text`` for the
        separators and eos token.  Empty for a PromptList block (its shots are marked by ``ice`` sections) and where the
        parts do not join to the block (a ``sep_token`` inside a shot)."""
        if self.template.kind == "chat" or not ids:
            return ()
        out: list[tuple[str, str]] = []
        for k, index in enumerate(ids):
            if not isinstance(self.shot(index), str):
                return ()
            if k and self.separator:
                out.append(("text", self.separator))
            before, answer, after = self._answer(index)
            out += [(f"shot[{k}]", before), (f"shot[{k}].answer", answer), (f"shot[{k}]", after)]
        if self.eos_token:
            out.append(("text", self.eos_token))
        kept = tuple((piece, text) for piece, text in out if text)
        return kept if "".join(text for _, text in kept) == self.render(ids) else ()

    def _answer(self, index: int) -> tuple[str, str, str]:
        """Shot ``index``'s text cut at its answer: before, answer, after (the answer empty where none is found)."""
        cached = self._answers.get(index)
        if cached is None:
            shot = self.shot(index)
            assert isinstance(shot, str)
            cached = _marked_answer(self, index, shot) or _differing_answer(self, index, shot) or (shot, "", "")
            self._answers[index] = cached
        return cached

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


def _marked_answer(shots: ShotRenderer, index: int, shot: str) -> tuple[str, str, str] | None:
    """The shot rendered with its answer column's value between markers: where the value lands (once) in ``shot``."""
    column = shots.output_column
    row = shots.pool[index]
    if column is None or column not in row:
        return None
    value = row[column]
    if not isinstance(value, str):
        value = str(value)
    marked_row = {**row, column: f"{_OPEN}{value}{_CLOSE}"}
    label = shots._label_of(row, index) if shots.template.labels is not None else None
    marked = shots.template.render_shot(marked_row, label)
    if not isinstance(marked, str) or marked.count(_OPEN) != 1 or marked.count(_CLOSE) != 1:
        return None
    before, rest = marked.split(_OPEN)
    answer, after = rest.split(_CLOSE)
    return (before, answer, after) if before + answer + after == shot else None


def _differing_answer(shots: ShotRenderer, index: int, shot: str) -> tuple[str, str, str] | None:
    """A label-keyed ice_template's answer: where the shot differs from its renders with the other labels' templates."""
    labels = shots.template.labels
    if labels is None or len(labels) < 2:
        return None
    row = shots.pool[index]
    own = shots._label_of(row, index)
    others = [text for label in labels if label != own and isinstance(text := shots.template.render_shot(row, label), str) and text != shot]
    if not others:
        return None
    prefix = min(len(os.path.commonprefix([shot, other])) for other in others)
    suffix = min(len(os.path.commonprefix([shot[::-1], other[::-1]])) for other in others)
    end = max(prefix, len(shot) - suffix)
    return shot[:prefix], shot[prefix:end], shot[end:]


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
