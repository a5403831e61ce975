"""PromptList → completion string, for base and local models (OpenCompass's ``LMTemplateParser``)."""

from __future__ import annotations

from promptkit.meta_templates._walk import Cut, Rendered, RoleTable, Text, walk
from promptkit.promptlist import Marker, PromptList, RoleItem

__all__ = ["join_without_meta", "render_completion"]


def render_completion(prompt: str | PromptList, roles: RoleTable, mode: str) -> str:
    """``meta.begin`` + every rendered piece (+ ``meta.end`` unless generation cut the prompt short).

    A plain string prompt is returned unchanged, as in OpenCompass.
    """
    if isinstance(prompt, str):
        return prompt
    out: list[str] = []
    cut = False
    for event in walk(prompt.items, roles, mode):
        if type(event) is Rendered:
            out.append(event.begin)
            out.append(event.prompt)
            out.append(event.end)
        elif type(event) is Text:
            out.append(event.text)
        elif type(event) is Cut:
            out.append(event.begin)
            cut = True
    meta = roles.meta
    return meta.begin + "".join(out) + ("" if cut else meta.end)


def join_without_meta(prompt: str | PromptList) -> str:
    """No meta template: texts and role prompts joined with ``'\\n'``; roles and sections ignored.

    Empty texts add nothing (OpenCompass adds a leading ``'\\n'`` when the
    first item is empty; see docs/compat.md).
    """
    if isinstance(prompt, str):
        return prompt
    texts = []
    for item in prompt.items:
        if type(item) is str:
            text = item
        elif type(item) is RoleItem:
            text = item.prompt or ""
        else:
            assert type(item) is Marker
            continue
        if text:
            texts.append(text)
    return "\n".join(texts)
