"""``MMPromptTemplate``: chat templates whose turns carry text, image, audio and video parts.

A round item gives ``prompt_mm`` instead of ``prompt``: one *part template*
per modality, OpenAI-style::

    dict(role='HUMAN', prompt_mm={
        'text':  {'type': 'text', 'text': '{question} Answer briefly.'},
        'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
    })

A row supplies the parts in one of two ways.

* **Tagged content** (AISBench's convention): a string column — ``content``,
  or the column of a part placeholder — made of segments
  ``<AIS_TEXT_START>…<AIS_CONTENT_TAG><AIS_IMAGE_START>…<AIS_CONTENT_TAG>``.
  Each segment becomes one part, in segment order; its payload fills the
  modality's placeholder (``{question}`` for text, ``{image}``, ``{audio}``,
  ``{video}``).  A segment without a start tag, an unknown tag or a modality
  the template lacks is an error naming the segment (AISBench drops it).
* **Columns**: the part templates are filled from the row, in the order of
  ``prompt_mm``; a media placeholder whose column holds a list yields one part
  per element, and ``None`` or ``[]`` yields none.

Every other placeholder (``{subject}`` in the text part, a SYSTEM prompt in
``begin``) is filled from the row like in any template; AISBench leaves them
literal.  Values are inserted once, as data.

>>> t = MMPromptTemplate(dict(round=[dict(role='HUMAN', prompt_mm={
...     'text': {'type': 'text', 'text': '[{subject}] {question}'},
...     'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}}})]))
>>> row = {'subject': 'art', 'content': '<AIS_IMAGE_START>/d/1.jpg<AIS_CONTENT_TAG><AIS_TEXT_START>Who painted it?'}
>>> t.render(row)[1]
RoleItem(role='HUMAN', prompt=None, fallback_role=None, begin=None, end=None, parts=(Part({'type': 'image_url', 'image_url': {'url': 'file:///d/1.jpg'}}), Part({'type': 'text', 'text': '[art] Who painted it?'})))
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Mapping
from typing import Any

from promptkit.errors import TemplateError, did_you_mean
from promptkit.parts import MODALITIES, Part, media_key
from promptkit.promptlist import RoleItem, check_role_item
from promptkit.templates.prompt_template import PromptTemplate, RoleSpec, _Role, reject_role_item
from promptkit.text.placeholders import CompiledText, compile_text

__all__ = ["CONTENT_TAG", "START_TAGS", "MMPromptTemplate", "split_tagged_content"]

#: The start tag of each modality's segment in AISBench's tagged ``content``.
START_TAGS = {f"<AIS_{m.upper()}_START>": m for m in MODALITIES}
#: The tag that closes a segment.
CONTENT_TAG = "<AIS_CONTENT_TAG>"
#: The placeholder a tagged segment's payload fills, per modality (AISBench's names).
PAYLOAD_PLACEHOLDER = {"text": "question", "image": "image", "audio": "audio", "video": "video"}
#: The column AISBench reads tagged content from.
CONTENT_COLUMN = "content"


def split_tagged_content(content: str, column: str = CONTENT_COLUMN) -> list[tuple[str, str]]:
    """``(modality, payload)`` per segment of AISBench-tagged content, strictly (errors name ``column``).

    >>> split_tagged_content('<AIS_TEXT_START>Hi<AIS_CONTENT_TAG><AIS_IMAGE_START>a.png<AIS_CONTENT_TAG>')
    [('text', 'Hi'), ('image', 'a.png')]
    """
    segments = content.split(CONTENT_TAG)
    if len(segments) > 1 and segments[-1] == "":
        segments.pop()  # the closing tag of the last segment
    out = []
    for number, segment in enumerate(segments):
        modality = next((m for tag, m in START_TAGS.items() if segment.startswith(tag)), None)
        if modality is None:
            raise TemplateError(f"segment {number} ({_short(segment)}) of column {column!r} {_problem(segment)}", key=f"{column} segment {number}")
        payload = segment[len(f"<AIS_{modality.upper()}_START>") :]
        stray = next((tag for tag in START_TAGS if tag in payload), None)
        if stray is not None:
            raise TemplateError(
                f"segment {number} ({_short(segment)}) of column {column!r} holds a second start tag {stray}; close each segment with {CONTENT_TAG}",
                key=f"{column} segment {number}",
            )
        out.append((modality, payload))
    return out


def _problem(segment: str) -> str:
    start = segment.find("<AIS_")
    if start == 0:
        tag = segment[: segment.find(">") + 1] if ">" in segment else segment
        return f"starts with the unknown tag {tag!r}; the start tags are {', '.join(START_TAGS)}"
    if not segment:
        return f"is empty: {CONTENT_TAG} must follow a segment, e.g. <AIS_TEXT_START>text{CONTENT_TAG}"
    return f"does not start with a start tag ({', '.join(START_TAGS)}); text before a tag is not part of any segment"


def _short(text: str) -> str:
    return repr(text) if len(text) <= 50 else repr(text[:47] + "...")


def _is_tagged(value: Any) -> bool:
    return isinstance(value, str) and (CONTENT_TAG in value or any(tag in value for tag in START_TAGS))


class _PartTemplate:
    """One modality's part template, its text or url compiled once."""

    __slots__ = ("modality", "shape", "field", "text", "list_names")

    def __init__(self, modality: str, spec: Any, where: str) -> None:
        if modality not in MODALITIES:
            raise TemplateError(f"{where}: unknown modality {modality!r}{did_you_mean(modality, MODALITIES)}; prompt_mm takes {', '.join(MODALITIES)}")
        expected = "text" if modality == "text" else media_key(modality)
        example = "{'type': 'text', 'text': '{question}'}" if modality == "text" else f"{{'type': '{expected}', '{expected}': {{'url': 'file://{{{modality}}}'}}}}"
        if not isinstance(spec, Mapping) or spec.get("type") != expected:
            raise TemplateError(f"{where}: the {modality} part must be a dict with type {expected!r}, e.g. {example} (got {spec!r})")
        self.modality = modality
        self.shape = copy.deepcopy(dict(spec))
        value = spec.get(expected)
        if isinstance(value, Mapping):
            value = value.get("url")
        if not isinstance(value, str):
            raise TemplateError(f"{where}: the {modality} part needs its {'text' if modality == 'text' else 'url'} as a str, e.g. {example}")
        self.field = expected
        self.text: CompiledText = compile_text(value)

    def fill(self, values: Mapping[str, Any]) -> Part:
        filled = self.text.render(values)
        if self.modality == "text":
            return Part.from_dict({**self.shape, "text": filled})
        return Part(self.shape, self.modality).with_url(filled)


class _MMRole:
    """A round item with ``prompt_mm``: renders a :class:`RoleItem` with parts."""

    __slots__ = ("role", "fallback_role", "begin", "end", "parts", "names")

    has_ice = False

    def __init__(self, spec: Mapping[str, Any], where: str) -> None:
        check_role_item({key: value for key, value in spec.items() if key != "prompt_mm"}, where)
        if spec.get("prompt") is not None:
            raise TemplateError(f"{where}: a role item takes 'prompt' or 'prompt_mm', not both")
        prompt_mm = spec["prompt_mm"]
        if not isinstance(prompt_mm, Mapping) or not prompt_mm:
            raise TemplateError(
                f"{where}: prompt_mm must be a dict of part templates by modality, e.g. "
                "{'text': {'type': 'text', 'text': '{question}'}, 'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}}}"
            )
        self.role: str = spec["role"]
        self.fallback_role: str | None = spec.get("fallback_role")
        self.begin: str | None = spec.get("begin")
        self.end: str | None = spec.get("end")
        self.parts = {m: _PartTemplate(m, part, f"{where}: prompt_mm[{m!r}]") for m, part in prompt_mm.items()}
        self.names = tuple(dict.fromkeys(name for part in self.parts.values() for name in part.text.names))

    def render(self, values: Mapping[str, Any], ice: str, use_whole: bool = False) -> RoleItem:
        column = self._tagged_column(values)
        parts = self._from_tagged(values, column) if column is not None else self._from_columns(values)
        return RoleItem(self.role, None, self.fallback_role, self.begin, self.end, tuple(parts))

    def _tagged_column(self, values: Mapping[str, Any]) -> str | None:
        if _is_tagged(values.get(CONTENT_COLUMN)):
            return CONTENT_COLUMN
        return next((name for name in self.names if _is_tagged(values.get(name))), None)

    def _from_tagged(self, values: Mapping[str, Any], column: str) -> list[Part]:
        segments = split_tagged_content(values[column], column)
        parts = []
        for number, (modality, payload) in enumerate(segments):
            template = self.parts.get(modality)
            if template is None:
                raise TemplateError(
                    f"segment {number} of column {column!r} is {modality}, but prompt_mm has no {modality!r} part "
                    f"(it has {', '.join(self.parts)}); add one, e.g. "
                    + (f"{modality}={{'type': 'text', 'text': '{{question}}'}}" if modality == "text" else f"{modality}={{'type': '{media_key(modality)}', '{media_key(modality)}': {{'url': '{{{modality}}}'}}}}"),
                    key=f"{column} segment {number}",
                )
            filled = dict(values)
            filled[PAYLOAD_PLACEHOLDER[modality]] = payload
            filled[column] = payload
            parts.append(template.fill(filled))
        return parts

    def _from_columns(self, values: Mapping[str, Any]) -> list[Part]:
        parts = []
        for modality, template in self.parts.items():
            if modality == "text":
                parts.append(template.fill(values))
                continue
            names = template.text.names
            missing = [name for name in names if name not in values]
            if missing:
                raise TemplateError(
                    f"the {modality} part's url needs the column {missing[0]!r}, which the row does not have "
                    f"(columns: {', '.join(map(str, values))}); give it a value, None for no {modality}, or drop the part from prompt_mm",
                    key=missing[0],
                )
            lists = [name for name in names if isinstance(values[name], (list, tuple))]
            if len(lists) > 1:
                raise TemplateError(f"the {modality} part's url has several list columns {lists}; one list of paths per part", key=lists[1])
            if any(values[name] is None for name in names):
                continue
            if not lists:
                parts.append(template.fill(values))
                continue
            for element in values[lists[0]]:
                parts.append(template.fill({**values, lists[0]: element}))
        return parts


class MMPromptTemplate(PromptTemplate):
    """A chat template whose round items may carry ``prompt_mm`` (see the module docstring)."""

    def __init__(self, template: Mapping[Hashable, Any], ice_token: str | None = None, sep_token: str | None = None) -> None:
        reject_role_item(template, "template", labels_hint=False)
        if not isinstance(template, Mapping) or not all(key in ("begin", "round", "end") for key in template):
            raise TemplateError(
                f"{type(self).__name__} takes a chat template, dict(begin=[...], round=[...], end=[...]) (got {template!r})"
            )
        super().__init__(template, ice_token, sep_token)

    @staticmethod
    def _make_role(spec: Mapping[str, Any], ice_token: str | None, sep_token: str | None, where: str) -> RoleSpec:
        if "prompt_mm" in spec:
            return _MMRole(spec, where)
        return _Role(spec, ice_token, sep_token, where)

    is_multimodal = True
