"""``TaskTypeTemplate``: each row rendered with the template of its task type.

The standardized Sample (seed 000) says a sample's ``task_type`` is there for
the renderer to choose its prompt by, and that a sample without one gets the
task's configured or the default template.  This template does that for any
dataset: ``templates`` maps a task type (the value of the row's ``column``) to
a template; a row whose type is not among them, or that has none, renders with
``default``.  A shot renders with the template of its own row's type (the
embedded examples of a Sample have none: ``default``).

>>> from promptkit.templates.prompt_template import PromptTemplate
>>> t = TaskTypeTemplate({"multiple-choice": PromptTemplate("{question}\\nAnswer with a letter.")}, PromptTemplate("{question}"))
>>> t.render({"task_type": "multiple-choice", "question": "Which?"}), t.render({"task_type": "dialogue", "question": "Hi"})
('Which?\\nAnswer with a letter.', 'Hi')

The templates must splice shots and answers alike — one ``kind`` (string or
chat), one ``ice_token`` — since a prompt's shots are rendered before its
template is looked at; label-keyed (ppl) templates cannot be chosen per row.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from promptkit.errors import TemplateError
from promptkit.templates.protocol import Prompt, Template

__all__ = ["TaskTypeTemplate"]


class TaskTypeTemplate:
    """``templates[row[column]]`` renders the row, else ``default`` (see the module docstring); implements
    :class:`~promptkit.templates.protocol.Template`.  In a config, ``templates`` and ``default`` are template configs
    (``dict(type='PromptTemplate', ...)``), built with the others."""

    #: The keywords that hold templates: a config's front end builds them first.
    template_keywords: ClassVar[tuple[str, ...]] = ("templates", "default")
    labels: ClassVar[None] = None
    sep_token: ClassVar[None] = None

    def __init__(self, templates: Mapping[str, Template], default: Template, column: str = "task_type") -> None:
        if not isinstance(column, str) or not column:
            raise TemplateError(f"column must be a column name (got {column!r})", key="column")
        if not isinstance(templates, Mapping) or not all(isinstance(key, str) for key in templates):
            raise TemplateError(f"templates must map task types (strings) to templates (got {templates!r})", key="templates")
        chosen = {"default": default, **{f"templates[{key!r}]": template for key, template in templates.items()}}
        for where, template in chosen.items():
            if not isinstance(template, Template):
                raise TemplateError(f"{where} must be a template (a dict(type=...) config), got {template!r}", key=where)
            if template.labels is not None or template.sep_token is not None:
                raise TemplateError(f"{where} is label-keyed (a ppl template); a task type chooses among generation templates", key=where)
        for attribute in ("kind", "ice_token"):
            values = {where: getattr(template, attribute) for where, template in chosen.items()}
            if len(set(values.values())) > 1:
                shown = ", ".join(f"{where}: {value!r}" for where, value in values.items())
                raise TemplateError(f"the templates must share their {attribute}, since shots are spliced alike ({shown})", key="templates")
        self.templates = dict(templates)
        self.default = default
        self.column = column
        self.kind = default.kind
        self.ice_token = default.ice_token
        self.has_ice_slot = all(template.has_ice_slot for template in chosen.values())
        self.is_multimodal = any(template.is_multimodal for template in chosen.values())

    def template_for(self, row: Mapping[str, Any]) -> Template:
        """The template of the row's task type."""
        task_type = row.get(self.column)
        return self.templates.get(task_type, self.default) if isinstance(task_type, str) else self.default

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        return self.template_for(row).render_shot(row, label)

    def render(
        self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = ""
    ) -> Prompt:
        return self.template_for(row).render(row, ice, label=label, masked=masked, mask_value=mask_value)

    def __repr__(self) -> str:
        return f"TaskTypeTemplate(templates={self.templates!r}, default={self.default!r}, column={self.column!r})"
