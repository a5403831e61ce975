"""The template stage of one prompt: its shots rendered into the template, the item under test masked, the shot layout
and the system prompt applied.

:class:`PromptComposer` is built once per dataset × model by the plan; per prompt it takes the row, the shots kept
and what the prompt spec asks for (a candidate label, a dialogue turn and its replies) and returns the template's
output, a ``str`` or a :class:`~promptkit.PromptList`.  The item under test never shows its gold answer: the answer
column renders as the inferencer's replacement token in gen mode, as the candidate label in ppl mode.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from promptkit.errors import ConfigError, TemplateError
from promptkit.templates.layout import ShotLayout, with_system_prompt
from promptkit.templates.protocol import DialogueTemplate, Prompt, Template
from promptkit.templates.shots import ShotRenderer
from promptkit.types import Row

__all__ = ["PromptComposer"]


class PromptComposer:
    """A prompt's template output (see the module docstring).

    ``shots`` renders picked shots (``None``: the dataset has no ice_template, or the inferencer uses no shots);
    ``no_shots`` is what the template's ice token becomes then (OpenCompass: the retriever's ``ice_eos_token`` when
    the inferencer uses shots, else ``''``).
    """

    __slots__ = ("layout", "mask_value", "no_shots", "output_column", "shots", "system_prompt", "template")

    def __init__(
        self,
        template: Template,
        layout: ShotLayout,
        shots: ShotRenderer | None,
        no_shots: Prompt,
        output_column: str | None,
        mask_value: str,
        system_prompt: str | None,
    ) -> None:
        self.template = template
        self.layout = layout
        self.shots = shots
        self.no_shots = no_shots
        self.output_column = output_column
        self.mask_value = mask_value
        self.system_prompt = system_prompt

    @property
    def finishes(self) -> bool:
        """Whether anything happens after the template renders (a shot layout that flattens, a system prompt)."""
        return self.layout.flattens or self.system_prompt is not None

    def compose(
        self, row: Row, shots: Sequence[int], label: Hashable | None = None, turn: int | None = None, replies: Sequence[str] | None = None
    ) -> Prompt:
        """The template's output for ``row`` with ``shots`` (a candidate ``label``; a dialogue ``turn`` after ``replies``)."""
        ice = self.ice(shots) if shots or self.shots is not None else self.no_shots
        mask_value = self.mask_value if label is None else str(label)
        prompt: Prompt
        if turn is None:
            prompt = self.template.render(row, ice, label=label, masked=self.output_column, mask_value=mask_value)
        else:
            template = self.template
            assert isinstance(template, DialogueTemplate)  # the plan renders turns of dialogue templates only
            prompt = template.render_turn(row, turn, ice, masked=self.output_column, mask_value=mask_value, replies=replies)
        if self.layout.flattens:
            prompt = self.layout.finish(prompt)
        if self.system_prompt is not None:
            prompt = with_system_prompt(prompt, self.system_prompt)
        return prompt

    def ice(self, shots: Sequence[int]) -> Prompt:
        """The shots rendered and joined, ready for the ice token."""
        if shots:
            self.check_shots(shots)
        if self.shots is None:
            return self.no_shots
        return self.shots.render(shots)

    def check_shots(self, shots: Sequence[int]) -> None:
        """Shots need an ice_template to render them and an ice token to put them at."""
        if not shots:
            return
        if self.shots is None:
            raise ConfigError(
                f"the retriever picked shots {list(shots)} but infer_cfg has no ice_template to render them; add an ice_template "
                "or use ZeroRetriever",
                key="infer_cfg.ice_template",
            )
        if not self.template.has_ice_slot:
            raise TemplateError(
                f"the retriever picked shots {list(shots)} but the template has no ice_token {self.template.ice_token!r} to put them "
                "at; add the token (e.g. begin='</E>') or use ZeroRetriever",
                key="ice_token",
            )
