"""The task-spec JSONL contract (seed 001): one task per line, fixed fields, closed vocabularies, strict rules.

Fields: ``task_id``, ``category``, ``prompt``, ``targets``, ``metric_name``,
``post_process`` (required), ``few_shot_examples`` and ``metadata`` (optional);
any other top-level field is rejected.  The rules, as the seed lists them:

* ``task_id`` — a string without whitespace, unique in the file;
* ``category`` — arithmetic, mcq, code_exec, classification or summary;
* ``prompt`` — a non-empty string, no trailing whitespace, and no few-shot
  block already in it (few-shot rendering is the runner's job);
* ``targets`` — a non-empty list of strings;
* ``metric_name`` — exact_match, f1, bleu_4, rouge_l, accuracy or code_exec;
* ``few_shot_examples`` — at most 8 ``{prompt, completion}`` pairs;
* ``post_process`` — none, strip_whitespace, lower, extract_letter, extract_code_block or extract_first_line;
* ``code_exec`` tasks use ``metric_name = code_exec``; ``mcq`` tasks use
  ``exact_match`` with exactly one target, a single letter A–E.

Rows: ``id``/``task_id``, ``question``/``prompt``, ``answer`` (the first
target), ``targets``, ``category``, ``metric_name``, ``post_process``,
``metadata``.  The default template is the seed's render rule: each example as
``prompt + " " + completion``, joined by a blank line, before the task prompt.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from promptkit.formats.base import RecordFormat, unique_in_file

__all__ = ["FORMAT", "TaskSpec"]

MAX_FEW_SHOT = 8
_NO_WHITESPACE = re.compile(r"^\S+$")
_LETTER = re.compile(r"^[A-E]$")


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class TaskExample(_Strict):
    """One few-shot example: the prompt and its completion."""

    prompt: str
    completion: str


class TaskSpec(_Strict):
    """One task record; the field rules are in the module docstring."""

    task_id: str
    category: Literal["arithmetic", "mcq", "code_exec", "classification", "summary"]
    prompt: str
    targets: list[str] = Field(min_length=1)
    metric_name: Literal["exact_match", "f1", "bleu_4", "rouge_l", "accuracy", "code_exec"]
    post_process: Literal["none", "strip_whitespace", "lower", "extract_letter", "extract_code_block", "extract_first_line"]
    few_shot_examples: list[TaskExample] = Field(default_factory=list, max_length=MAX_FEW_SHOT)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("task_id")
    @classmethod
    def _id_has_no_whitespace(cls, value: str) -> str:
        if not _NO_WHITESPACE.match(value):
            raise ValueError("must be a non-empty string without whitespace")
        return value

    @field_validator("prompt")
    @classmethod
    def _prompt_is_clean(cls, value: str) -> str:
        if not value:
            raise ValueError("must not be empty")
        if value != value.rstrip():
            raise ValueError("must not end with whitespace")
        return value

    @model_validator(mode="after")
    def _cross_field_rules(self) -> TaskSpec:
        for i, example in enumerate(self.few_shot_examples):
            if f"{example.prompt} {example.completion}" in self.prompt:
                raise ValueError(
                    f"prompt: must not contain its few-shot block (few_shot_examples[{i}] is already in it); "
                    "the runner renders the examples"
                )
        if self.category == "code_exec" and self.metric_name != "code_exec":
            raise ValueError("metric_name: category code_exec needs metric_name code_exec")
        if self.category == "mcq":
            if self.metric_name != "exact_match":
                raise ValueError("metric_name: category mcq needs metric_name exact_match")
            if len(self.targets) != 1:
                raise ValueError("targets: category mcq needs exactly one target")
            if not _LETTER.match(self.targets[0]):
                raise ValueError("targets: category mcq needs a single letter A-E as its target")
        return self


def _to_row(task: TaskSpec) -> tuple[dict[str, Any], list[TaskExample]]:
    row: dict[str, Any] = {
        "id": task.task_id,
        "task_id": task.task_id,
        "category": task.category,
        "question": task.prompt,
        "prompt": task.prompt,
        "answer": task.targets[0],
        "targets": list(task.targets),
        "metric_name": task.metric_name,
        "post_process": task.post_process,
        "metadata": task.metadata,
    }
    return row, list(task.few_shot_examples)


def _shot_row(example: TaskExample) -> dict[str, Any]:
    return {"question": example.prompt, "prompt": example.prompt, "answer": example.completion, "completion": example.completion}


#: The task-spec format, compiled once (imported on first use by ``TaskSpecDataset``).
FORMAT = RecordFormat(
    "taskspec", TypeAdapter(TaskSpec), _to_row, _shot_row, file_key=lambda task: task.task_id, file_rules=unique_in_file("task_id")
)
