"""One lm-eval task as the stages share it: its config, its code, and what loading its documents found.

The loader (:mod:`promptkit.frontends.lmeval.data`), the sampler, the template and the inferencer of a task's
:class:`~promptkit.plan.dataset.DatasetSpec` hold the same :class:`Task`.  Loading the documents executes the task's
code anew and sets :attr:`Task.loaded`: the ``doc_to_*`` values (which need the evaluated split's columns) and
what lm-eval finds on the first evaluated document — several inputs (``doc_to_text`` returns an int) or several
targets (``doc_to_target`` returns a list).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.errors import ConfigError
from promptkit.frontends.lmeval.config import TaskConfig
from promptkit.frontends.lmeval.fields import DocFields
from promptkit.frontends.lmeval.functions import TaskCode

__all__ = ["LoadedTask", "Task"]


@dataclass(frozen=True)
class LoadedTask:
    """What loading a task's documents found (see the module docstring)."""

    fields: DocFields
    #: lm-eval's ``multiple_input``: the number of inputs (one context per choice), or 0.
    multiple_input: int

    @classmethod
    def of(cls, config: TaskConfig, code: TaskCode, docs: Sequence[Mapping[str, Any]]) -> LoadedTask:
        """The loaded task whose evaluated documents are ``docs`` (lm-eval's test of the first document)."""
        fields = DocFields(config, list(docs[0]), code)
        first = docs[0]
        inputs = 0
        if fields.has_choices and isinstance(fields.text(first), int):
            inputs = len(fields.choices(first))
        return cls(fields, inputs)


class Task:
    """A task's config and code, and its :class:`LoadedTask` once its documents are loaded."""

    def __init__(self, config: TaskConfig) -> None:
        self.config = config
        self.code = TaskCode()
        self._loaded: LoadedTask | None = None

    @property
    def loaded(self) -> LoadedTask:
        if self._loaded is None:
            raise ConfigError(f"task {self.config.task!r}: its documents are not loaded yet (render through a Renderer, which loads them first)")
        return self._loaded

    def set_loaded(self, loaded: LoadedTask) -> None:
        self._loaded = loaded

    def __repr__(self) -> str:
        return f"Task({self.config.task!r})"
