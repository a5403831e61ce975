"""PromptList → completion string, for base and local models (OpenCompass's ``LMTemplateParser``).

A completion string cannot carry media.  A multimodal turn renders only when
the model declares a placeholder per modality (``mm_placeholders``, e.g.
``dict(image='<image>\\n')``): text parts are written as they are, each media
part as its placeholder, and the parts themselves are collected, in order,
into ``media`` for the runner.  Without a placeholder it is an error —
AISBench silently renders such a turn as ``''``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates._walk import Cut, Event, Rendered, RoleTable, Section, Text, walk
from promptkit.parts import Part
from promptkit.promptlist import Marker, PromptList, RoleItem

__all__ = ["join_without_meta", "parts_to_text", "render_completion"]

Placeholders = Mapping[str, str]


def parts_to_text(parts: tuple[Part, ...], placeholders: Placeholders | None, media: list[dict[str, Any]]) -> str:
    """Text parts as written, each media part as its modality's placeholder (collected into ``media``)."""
    out = []
    for part in parts:
        if part.modality == "text":
            out.append(part.text_value)
            continue
        placeholder = placeholders.get(part.modality) if placeholders else None
        if placeholder is None:
            raise MetaTemplateError(
                f"the prompt has an {part.modality} part but this completion model has no placeholder for {part.modality}, "
                f"and a completion string cannot carry media; set mm_placeholders=dict({part.modality}='<{part.modality}>') "
                "in the model config (the media then travel beside the string, in order) or use a chat model",
                key="mm_placeholders",
            )
        out.append(placeholder)
        media.append(part.dump())
    return "".join(out)


def render_completion(
    prompt: str | PromptList, roles: RoleTable, mode: str, placeholders: Placeholders | None, media: list[dict[str, Any]]
) -> str:
    """``meta.begin`` + every rendered piece (+ ``meta.end`` unless generation cut the prompt short).

    A plain string prompt is returned unchanged, as in OpenCompass.  Media
    parts are appended to ``media`` (see the module docstring).
    """
    if isinstance(prompt, str):
        return prompt
    out: list[str] = []
    cut = False
    for event in walk(prompt.items, roles, mode):
        if type(event) is Section:
            text = event.derived.get("completion")
            if text is None:
                text = _section_text(event, placeholders, media)
            out.append(text)
        elif type(event) is Cut:
            out.append(event.begin)
            cut = True
        else:
            out.append(_event_text(event, placeholders, media))
    meta = roles.meta
    return meta.begin + "".join(out) + ("" if cut else meta.end)


def _event_text(event: Event, placeholders: Placeholders | None, media: list[dict[str, Any]]) -> str:
    if type(event) is Text:
        return event.text
    assert type(event) is Rendered
    if event.parts is None:
        return event.begin + event.prompt + event.end
    return event.begin + parts_to_text(event.parts, placeholders, media) + event.end


def _section_text(section: Section, placeholders: Placeholders | None, media: list[dict[str, Any]]) -> str:
    """A section's text, kept on the section unless it has media (whose parts go to ``media`` on every use)."""
    text = "".join(_event_text(event, placeholders, media) for event in section.events)
    if not any(type(event) is Rendered and event.parts is not None for event in section.events):
        section.derived["completion"] = text
    return text


def join_without_meta(prompt: str | PromptList, placeholders: Placeholders | None, media: list[dict[str, Any]]) -> str:
    """No meta template: texts and role prompts joined with ``'\\n'``; roles and sections ignored.

    Empty texts add nothing (OpenCompass adds a leading ``'\\n'`` when the
    first item is empty; see docs/compat.md).  Multimodal turns as in
    :func:`render_completion`.
    """
    if isinstance(prompt, str):
        return prompt
    texts = []
    for item in prompt.items:
        if type(item) is str:
            text = item
        elif type(item) is RoleItem:
            text = parts_to_text(item.parts, placeholders, media) if item.parts is not None else item.prompt or ""
        else:
            assert type(item) is Marker
            continue
        if text:
            texts.append(text)
    return "\n".join(texts)
