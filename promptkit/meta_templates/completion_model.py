"""The completion model: a prompt becomes one string (OpenCompass's ``LMTemplateParser``), for base and local models."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates.completion import CompiledCompletion, join_without_meta
from promptkit.meta_templates.model import ModelBase, check_mode
from promptkit.meta_templates.spec import MetaTemplate
from promptkit.meta_templates.validation import check_placeholders
from promptkit.promptlist import PromptList

__all__ = ["CompletionModel"]


class CompletionModel(ModelBase):
    """Renders a completion string (OpenCompass ``LMTemplateParser`` semantics).

    >>> m = CompletionModel(meta_template=dict(round=[
    ...     dict(role='HUMAN', begin='<|User|>:', end='\\n'),
    ...     dict(role='BOT', begin='<|Bot|>:', end='<eoa>\\n', generate=True)]))
    >>> m.render(PromptList([{'section': 'round', 'pos': 'begin'}, dict(role='HUMAN', prompt='Q: 2+2?'),
    ...                      dict(role='BOT', prompt='A: '), {'section': 'round', 'pos': 'end'}]))
    '<|User|>:Q: 2+2?\\n<|Bot|>:'
    """

    kind = "completion"

    def __init__(self, *args: Any, mm_placeholders: Mapping[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mm_placeholders = check_placeholders(mm_placeholders)
        self._compiled = CompiledCompletion(self._roles, self.mm_placeholders) if self._roles is not None else None

    def _meta_template(self, cfg: Mapping[str, Any] | None) -> MetaTemplate | None:
        meta = super()._meta_template(cfg)
        if meta is not None and not isinstance(meta.begin, str):
            raise MetaTemplateError(
                f"a completion model's meta_template begin must be a str, the text before the prompt (got {meta.begin!r}); "
                "for a system prompt, add reserved_roles=[dict(role='SYSTEM', begin=..., end=...)] and a SYSTEM item to the template",
                key="begin",
            )
        return meta

    def _control_token_texts(self) -> Iterator[str]:
        yield from super()._control_token_texts()
        yield from (self.mm_placeholders or {}).values()

    def render(self, prompt: str | PromptList, mode: str = "gen") -> str:
        check_mode(mode)
        if isinstance(prompt, str):
            return prompt  # a plain string passes through untouched, meta template or not
        media: list[dict[str, Any]] = []
        if self._compiled is None:
            text = join_without_meta(prompt, self.mm_placeholders, media)
        else:
            text = self._compiled.render(prompt, mode, media)
        if media:
            raise MetaTemplateError(
                f"the prompt carries {len(media)} media part(s), which a completion string holds only as placeholders; "
                "call render_with_media() to get the media list with the string"
            )
        return text

    def render_with_media(self, prompt: str | PromptList, mode: str = "gen") -> tuple[str, list[dict[str, Any]]]:
        """The completion string (media as ``mm_placeholders``) and the media parts, in order."""
        check_mode(mode)
        media: list[dict[str, Any]] = []
        if isinstance(prompt, str):
            return prompt, media
        if self._compiled is None:
            return join_without_meta(prompt, self.mm_placeholders, media), media
        return self._compiled.render(prompt, mode, media), media
