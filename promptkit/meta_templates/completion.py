"""PromptList → completion string, for base and local models (OpenCompass's ``LMTemplateParser``).

A completion string cannot carry media.  A multimodal turn renders only when
the model declares a placeholder per modality (``mm_placeholders``, e.g.
``dict(image='<image>\\n')``): text parts are written as they are, each media
part as its placeholder, and the parts themselves are collected, in order,
into ``media`` for the runner.  Without a placeholder it is an error —
AISBench silently renders such a turn as ``''``.

:func:`render_completion` is the plain walk; :class:`CompiledCompletion`
gives the same string and media from a prompt's constant prefix rendered once
and its own turn filled into a plan (see :mod:`promptkit.meta_templates._compile`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates._compile import Plans, PrefixCache, RoleStep, plain_turn, split
from promptkit.meta_templates._walk import Cut, Event, Rendered, RoleTable, Section, Text, walk
from promptkit.parts import Frozen, Part, freeze, thaw
from promptkit.promptlist import Item, Marker, PromptList, RoleItem

__all__ = ["CompiledCompletion", "join_without_meta", "parts_to_text", "render_completion"]

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
    cut = _add_events(out, prompt.items, roles, mode, placeholders, media)
    meta = roles.meta
    return meta.begin + "".join(out) + ("" if cut else meta.end)


def _add_events(
    out: list[str], items: tuple[Item, ...], roles: RoleTable, mode: str, placeholders: Placeholders | None, media: list[Any]
) -> bool:
    """The walk of ``items`` as text pieces appended to ``out``; whether generation cut the prompt short."""
    for event in walk(items, roles, mode):
        if type(event) is Section:
            text = event.derived.get("completion")
            if text is None:
                text = _section_text(event, placeholders, media)
            out.append(text)
        elif type(event) is Cut:
            out.append(event.begin)
            return True
        else:
            out.append(_event_text(event, placeholders, media))
    return False


class CompiledCompletion:
    """:func:`render_completion` for one model, compiled: constant prefixes rendered once, turns filled into plans.

    A prefix is kept as ``meta.begin`` + its text and the media parts it
    holds (dumped afresh for every prompt); ``None`` marks a prefix the fast
    path leaves to the plain walk (generation cut it short).
    """

    __slots__ = ("_placeholders", "_plans", "_prefixes", "_roles")

    def __init__(self, roles: RoleTable, placeholders: Placeholders | None) -> None:
        self._roles = roles
        self._placeholders = placeholders
        self._prefixes: dict[str, PrefixCache[tuple[str, tuple[Frozen, ...]]]] = {"gen": PrefixCache(), "ppl": PrefixCache()}
        self._plans = Plans(roles)

    def render(self, prompt: PromptList, mode: str, media: list[dict[str, Any]]) -> str:
        items = prompt.items
        turn = plain_turn(items)
        start = turn[0] if turn is not None else split(items)
        roles = self._roles
        if start:
            prefix = self._prefixes[mode].find(items[:start], self._prefix, mode)
            if prefix is None:
                return render_completion(prompt, roles, mode, self._placeholders, media)
            text, prefix_media = prefix
            if prefix_media:
                media.extend(thaw(part) for part in prefix_media)
        else:
            text = roles.meta.begin
        plan = self._plans.get(items, turn, mode) if turn is not None else None
        if plan is None or turn is None:
            out = [text]
            cut = _add_events(out, items[start:], roles, mode, self._placeholders, media)
            return "".join(out) + ("" if cut else roles.meta.end)
        prompts = turn[2]
        pieces = [text]
        for step in plan.steps:
            if type(step) is RoleStep:
                pieces.append(step.fill(prompts))
            elif type(step) is Text:
                pieces.append(step.text)
            else:  # the cut: nothing after it, and no meta end
                pieces.append(step.begin)  # type: ignore[union-attr]  # the one kind left
                return "".join(pieces)
        pieces.append(roles.meta.end)
        return "".join(pieces)

    def _prefix(self, items: tuple[Item, ...], mode: str) -> tuple[str, tuple[Frozen, ...]] | None:
        """``meta.begin`` + the prefix's text, and its media; ``None`` when the walk raises or cuts (the plain walk decides)."""
        out = [self._roles.meta.begin]
        media: list[dict[str, Any]] = []
        try:
            if _add_events(out, items, self._roles, mode, self._placeholders, media):
                return None
        except MetaTemplateError:
            return None
        return "".join(out), tuple(freeze(part) for part in media)


def _event_text(event: Event, placeholders: Placeholders | None, media: list[dict[str, Any]]) -> str:
    if type(event) is Text:
        return event.text
    assert type(event) is Rendered
    if event.tool_calls is not None:
        raise _no_tool_calls()
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
            if item.tool_calls is not None:
                raise _no_tool_calls()
            text = parts_to_text(item.parts, placeholders, media) if item.parts is not None else item.prompt or ""
        else:
            assert type(item) is Marker
            continue
        if text:
            texts.append(text)
    return "\n".join(texts)


def _no_tool_calls() -> MetaTemplateError:
    """A completion model's meta template has no way to write an assistant turn's tool calls."""
    return MetaTemplateError(
        "the prompt has an assistant turn with tool_calls, which a completion model's meta template cannot write; "
        "use a ChatTemplateModel (the model's chat template writes tool calls) or a ChatModel"
    )
