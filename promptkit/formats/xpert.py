"""XpertFormat JSONL (seed 003): ``query``/``response`` with optional history, files, choices, answer, meta, evaluation.

Required: ``id`` (unique in the file), ``query``, ``response`` (strings).  Checked when present:
``history`` turns (``role`` human or assistant, ``content`` a string);
``files`` (``path``, ``type`` image/audio/video, optional ``description``);
``choices`` (``{id, content}``, unique ids); ``answer`` (``type``
choice/text/code/step_by_step, ``value``, optional ``explanation``; a
``choice`` answer's value is one of the choice ids); ``meta`` (``task_type``
qa/choice/code/math/vision/audio/multi, ``category``, ``subject``,
``difficulty``, ``source``, ``tags``; other keys kept); ``evaluation``
(``metrics``, ``scoring_criteria``; other keys kept).  Any other top-level
field is rejected, so a typo (``querry``) is caught.

Rows: ``id``, ``question``/``query``, ``response``, ``answer`` (``answer.value``,
else ``response``), ``answer_type``, ``explanation``, ``history`` (OpenAI
roles: human → user), ``messages`` (history, then the query as a user message
with the files as media parts; a history that ends on a human turn has that turn's
text open the query's message), ``options``, ``choices``, ``letters``,
``files``, ``images``/``audios``/``videos`` (paths), ``meta``, ``task_type``,
``evaluation``.  The default template renders ``messages``: history as earlier
turns, the choices listed after the query.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from promptkit.formats.base import RecordFormat, choice_columns, unique_in_file

__all__ = ["FORMAT", "XpertRecord"]

_ROLES = {"human": "user", "assistant": "assistant"}
_PART = {"image": ("image_url", "images"), "audio": ("audio_url", "audios"), "video": ("video_url", "videos")}


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class _Open(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)


class Turn(_Strict):
    role: Literal["human", "assistant"]
    content: str


class FileRef(_Strict):
    path: str = Field(min_length=1)
    type: Literal["image", "audio", "video"]
    description: str | None = None


class Choice(_Strict):
    id: str = Field(min_length=1)
    content: str


class Answer(_Strict):
    type: Literal["choice", "text", "code", "step_by_step"]
    value: str
    explanation: str | None = None


class Meta(_Open):
    task_type: Literal["qa", "choice", "code", "math", "vision", "audio", "multi"] | None = None
    category: str | None = None
    subject: str | None = None
    difficulty: str | None = None
    source: str | None = None
    tags: list[str] | None = None


class Evaluation(_Open):
    metrics: list[str] | None = None
    scoring_criteria: str | None = None


class XpertRecord(_Strict):
    """One XpertFormat sample; the rules are in the module docstring."""

    id: str = Field(min_length=1)
    query: str
    response: str
    history: list[Turn] | None = None
    files: list[FileRef] | None = None
    choices: list[Choice] | None = None
    answer: Answer | None = None
    meta: Meta | None = None
    evaluation: Evaluation | None = None

    @model_validator(mode="after")
    def _cross_field_rules(self) -> XpertRecord:
        ids = [choice.id for choice in self.choices or ()]
        duplicate = next((i for i in ids if ids.count(i) > 1), None)
        if duplicate is not None:
            raise ValueError(f"choices: ids must be unique ({duplicate!r} repeats)")
        if self.answer is not None and self.answer.type == "choice":
            if not ids:
                raise ValueError("choices: a choice answer needs choices")
            if self.answer.value not in ids:
                raise ValueError(f"answer: a choice answer's value must be one of the choice ids {', '.join(ids)}")
        return self


def _to_row(record: XpertRecord) -> tuple[dict[str, Any], list[Any]]:
    history = [{"role": _ROLES[turn.role], "content": turn.content} for turn in record.history or ()]
    files = [file.model_dump(exclude_none=True) for file in record.files or ()]
    media: dict[str, list[str]] = {"images": [], "audios": [], "videos": []}
    parts: list[dict[str, Any]] = []
    for file in record.files or ():
        kind, column = _PART[file.type]
        media[column].append(file.path)
        parts.append({"type": kind, kind: {"url": file.path}})
    parts.append({"type": "text", "text": record.query})
    earlier = history
    if history and history[-1]["role"] == "user":
        # A history that ends on a human turn (the seed's §3.1): that turn and the query are the user's, before any
        # answer, so they are one user message; no assistant turn is made up between them.
        earlier = history[:-1]
        parts.insert(0, {"type": "text", "text": history[-1]["content"]})
    messages = [{"role": turn["role"], "content": [{"type": "text", "text": turn["content"]}]} for turn in earlier]
    messages.append({"role": "user", "content": parts})
    pairs = [(choice.id, choice.content) for choice in record.choices or ()]
    meta = record.meta.model_dump(exclude_none=True) if record.meta is not None else {}
    row: dict[str, Any] = {
        "id": record.id,
        "question": record.query,
        "query": record.query,
        "response": record.response,
        "answer": record.answer.value if record.answer is not None else record.response,
        "answer_type": record.answer.type if record.answer is not None else None,
        "explanation": record.answer.explanation if record.answer is not None else None,
        "history": history,
        "messages": messages,
        "options": [{"id": key, "content": text} for key, text in pairs],
        **choice_columns(pairs),
        "files": files,
        **media,
        "meta": meta,
        "task_type": meta.get("task_type"),
        "evaluation": record.evaluation.model_dump(exclude_none=True) if record.evaluation is not None else None,
    }
    return row, []


#: XpertFormat, compiled once (imported on first use by ``XpertFormatDataset``).
FORMAT = RecordFormat("xpert", TypeAdapter(XpertRecord), _to_row, file_key=lambda record: record.id, file_rules=unique_in_file("id"))
