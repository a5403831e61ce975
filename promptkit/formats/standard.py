"""The standardized Sample (seed 000): OpenAI-style ``messages`` with content parts, options, references, embedded few-shot.

Required: ``schema_version``, ``id`` (unique in the file), ``messages`` (the
seed's default validation).  Checked when present: message roles (system, user, assistant,
tool) and content parts (text, image_url, audio_url, video_url, file_url);
``options`` as ``{id, content}`` with unique ids; ``references`` as strings or
``{answer, meta}``; ``label`` equal to ``references[0]`` (its text, or the URL
of a media answer); a ``multiple-choice`` sample has options and its answer is
one of their ids; ``few_shot_examples`` hold ``messages`` and ``references``
and nothing nested, run-time or large (``few_shot_examples``,
``predict_result``, ``eval_result``, ``raw_assets``, ``sandbox``);
``tool_choice`` is a string or an object; ``unconditioned_input`` is a string
or messages.  A string ``content`` is the same as one text part; the legacy
``question_type`` is read as ``task_type``.  Other top-level fields are kept
(the seed allows extensions) in the row's ``extra`` column.

Rows: ``id``, ``task_type``, ``messages`` (normalized: content is a list of
parts), ``question`` (the text of the last user message), ``history`` (the
user/assistant turns before it, as text), ``options``,
``choices`` (``'A. …\\nB. …'``), ``letters`` (``'A,B,C,D'``), ``answer`` (the
label, else ``references[0]``), ``references``, ``label``, the media URLs
``images``/``audios``/``videos``/``files``, ``tools``, ``tool_choice``,
``unconditioned_input`` and the dict fields as they are.  ``raw_assets`` is
validated but never put in a row: no template can turn it into prompt text;
nor are the run-time results ``predict_result`` and ``eval_result``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from promptkit.formats.base import RecordFormat, choice_columns, last_user_text, message_text, unique_in_file

__all__ = ["FORMAT", "Sample"]

MEDIA_KINDS = {"image_url": "images", "audio_url": "audios", "video_url": "videos", "file_url": "files"}


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class _Url(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", frozen=True)  # OpenAI adds e.g. image_url.detail
    url: str = Field(min_length=1)


class TextPart(_Strict):
    type: Literal["text"]
    text: str


class ImagePart(_Strict):
    type: Literal["image_url"]
    image_url: _Url


class AudioPart(_Strict):
    type: Literal["audio_url"]
    audio_url: _Url


class VideoPart(_Strict):
    type: Literal["video_url"]
    video_url: _Url


class FilePart(_Strict):
    type: Literal["file_url"]
    file_url: _Url


#: One part of a message's content, chosen by its ``type`` (checked by pydantic's compiled tagged union).
ContentPart = Annotated[TextPart | ImagePart | AudioPart | VideoPart | FilePart, Field(discriminator="type")]
PART_TYPES = ("text", *MEDIA_KINDS)


def _without_part_tags(loc: list[str | int]) -> list[str | int]:
    """Pydantic puts a tagged union's tag in the error path (``content[0].image_url.image_url.url``); drop it."""
    return [part for i, part in enumerate(loc) if not (part in PART_TYPES and i >= 1 and isinstance(loc[i - 1], int) and i + 1 < len(loc))]


def _text_as_parts(value: Any) -> Any:
    """A string content is shorthand for one text part."""
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if not isinstance(value, list):
        raise ValueError("must be a string or a list of content parts")
    return value


Content = Annotated[list[ContentPart], BeforeValidator(_text_as_parts)]


class Message(BaseModel):
    """An OpenAI-style message; extra keys (``tool_calls``, ``tool_call_id``, ``name``) are kept.  An assistant
    message's ``reasoning_content`` (its thinking, as DeepSeek's and vLLM's APIs return it) is a string."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)
    role: Literal["system", "user", "assistant", "tool"]
    content: Content
    reasoning_content: str | None = None

    @model_validator(mode="after")
    def _reasoning_on_assistant_messages(self) -> Message:
        if self.reasoning_content is not None and self.role != "assistant":
            raise ValueError(f"reasoning_content: only an assistant message has reasoning (this one's role is {self.role!r})")
        return self


def _text_as_messages(value: Any) -> Any:
    """A string input is shorthand for one user message."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    if not isinstance(value, list):
        raise ValueError("must be a string or a list of messages")
    return value


Messages = Annotated[list[Message], BeforeValidator(_text_as_messages)]


class OptionItem(_Strict):
    id: str = Field(min_length=1)
    content: str


def _text_as_reference(value: Any) -> Any:
    if isinstance(value, str):
        return {"answer": value}
    if not isinstance(value, dict):
        raise ValueError("must be a string or an object {answer, meta}")
    return value


class ReferenceItem(_Strict):
    answer: Content
    meta: dict[str, Any] | None = None


Reference = Annotated[ReferenceItem, BeforeValidator(_text_as_reference)]


def _check_tool_choice(value: Any) -> Any:
    if value is not None and not isinstance(value, (str, dict)):
        raise ValueError("must be a string or an object")
    return value


_NOT_IN_SHOTS = "not allowed in a few-shot example (it takes messages, options, references, label, tools, tool_choice)"


class FewShotItem(_Strict):
    """A trimmed sample used as an in-context example; no nesting, no run-time or large fields."""

    messages: list[Message] = Field(min_length=1)
    options: list[OptionItem] | None = None
    references: list[Reference] = Field(min_length=1)
    label: str | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: Annotated[Any, BeforeValidator(_check_tool_choice)] = None
    few_shot_examples: Any = None
    predict_result: Any = None
    eval_result: Any = None
    raw_assets: Any = None
    sandbox: Any = None

    @field_validator("few_shot_examples")
    @classmethod
    def _no_nesting(cls, value: Any) -> Any:
        raise ValueError("must not be nested inside a few-shot example (examples are not expanded recursively)")

    @field_validator("predict_result", "eval_result", "raw_assets", "sandbox")
    @classmethod
    def _no_runtime_fields(cls, value: Any) -> Any:
        raise ValueError(_NOT_IN_SHOTS)

    @model_validator(mode="after")
    def _label_matches(self) -> FewShotItem:
        _check_label(self.label, self.references)
        return self


class Sample(BaseModel):
    """One standardized sample; the rules are in the module docstring."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    schema_version: str = Field(min_length=1)
    id: str = Field(min_length=1)
    task_type: str | None = None
    messages: list[Message] = Field(min_length=1)
    options: list[OptionItem] | None = None
    references: list[Reference] | None = None
    label: str | None = None
    few_shot_examples: list[FewShotItem] | None = None
    golden_trajectories: list[list[Message]] | None = None
    sandbox: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    data_tag: dict[str, Any] | None = None
    raw_assets: dict[str, Any] | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: Annotated[Any, BeforeValidator(_check_tool_choice)] = None
    sampling_params: dict[str, Any] | None = None
    generation_params: dict[str, Any] | None = None
    eval_config: dict[str, Any] | None = None
    unconditioned_input: Messages | None = None
    predict_result: list[Any] | None = None
    eval_result: dict[str, Any] | None = None

    @model_validator(mode="before")
    @classmethod
    def _legacy_question_type(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "question_type" in data:
            data = dict(data)
            legacy = data.pop("question_type")
            if data.get("task_type") is None:
                data["task_type"] = legacy
            elif data["task_type"] != legacy:
                raise ValueError(f"question_type: the legacy name of task_type, and it disagrees with task_type {data['task_type']!r}")
        return data

    @model_validator(mode="after")
    def _cross_field_rules(self) -> Sample:
        sampling = self.sampling_params or {}
        for key, value in (self.generation_params or {}).items():
            if key in sampling and sampling[key] != value:
                raise ValueError(
                    f"generation_params: {key!r} is {value!r} here and {sampling[key]!r} in sampling_params (both go into the request): give it once"
                )
        if self.options:
            ids = [option.id for option in self.options]
            duplicate = next((i for i in ids if ids.count(i) > 1), None)
            if duplicate is not None:
                raise ValueError(f"options: ids must be unique ({duplicate!r} repeats)")
        _check_label(self.label, self.references)
        if self.task_type == "multiple-choice":
            if not self.options:
                raise ValueError("options: a multiple-choice sample needs options")
            answer = answer_text(self.label, self.references)
            if answer is not None and answer not in {option.id for option in self.options}:
                raise ValueError("references: the answer of a multiple-choice sample must be one of the option ids")
        return self


def reference_text(reference: ReferenceItem) -> str:
    """A reference as one string: its text, or the URL of its (single) media part — the seed's label form."""
    texts = [part.text for part in reference.answer if isinstance(part, TextPart)]
    if texts:
        return "\n".join(texts)
    urls = [_part_url(part) for part in reference.answer]
    return urls[0] if urls else ""


def answer_text(label: str | None, references: list[ReferenceItem] | None) -> str | None:
    if label is not None:
        return label
    return reference_text(references[0]) if references else None


def _check_label(label: str | None, references: list[ReferenceItem] | None) -> None:
    if label is not None and references and label != reference_text(references[0]):
        raise ValueError(f"label: must equal references[0] ({reference_text(references[0])!r})")


def _part_url(part: Any) -> str:
    return str(getattr(part, part.type).url)


def dump_message(message: Message) -> dict[str, Any]:
    """A message as a JSON-able dict with its content as a list of part dicts."""
    return message.model_dump(exclude_none=True)


def option_rows(options: list[OptionItem] | None) -> dict[str, Any]:
    pairs = [(o.id, o.content) for o in options or ()]
    return {"options": [{"id": key, "content": text} for key, text in pairs], **choice_columns(pairs)}


def _media(messages: list[dict[str, Any]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {column: [] for column in MEDIA_KINDS.values()}
    for message in messages:
        for part in message["content"]:
            column = MEDIA_KINDS.get(part["type"])
            if column is not None:
                out[column].append(part[part["type"]]["url"])
    return out


def _history(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The user/assistant turns before the last user message, as ``{role, content}`` text (XpertFormat's ``history``)."""
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=0)
    return [{"role": m["role"], "content": message_text(m)} for m in messages[:last_user] if m["role"] in ("user", "assistant")]


def _shot_row(shot: FewShotItem) -> dict[str, Any]:
    messages = [dump_message(m) for m in shot.messages]
    return {
        "messages": messages,
        "question": last_user_text(messages),
        **option_rows(shot.options),
        "answer": answer_text(shot.label, shot.references) or "",
        "references": [reference_text(r) for r in shot.references],
        "label": shot.label,
        "tools": shot.tools,
        "tool_choice": shot.tool_choice,
    }


def _tools(sample: Sample) -> list[dict[str, Any]] | None:
    """The sample's tools, then those of its few-shot examples it does not declare (by function name): a shot that
    calls a tool needs it declared to the model as much as the question does."""
    tools = list(sample.tools or ())
    names = {_tool_name(tool) for tool in tools}
    for shot in sample.few_shot_examples or ():
        for tool in shot.tools or ():
            name = _tool_name(tool)
            if name not in names:
                names.add(name)
                tools.append(tool)
    return tools if sample.tools is not None or tools else None


def _tool_name(tool: dict[str, Any]) -> Any:
    function = tool.get("function")
    return function.get("name") if isinstance(function, dict) else repr(sorted(tool.items(), key=str))


def _to_row(sample: Sample) -> tuple[dict[str, Any], list[FewShotItem]]:
    messages = [dump_message(m) for m in sample.messages]
    unconditioned = [dump_message(m) for m in sample.unconditioned_input] if sample.unconditioned_input is not None else None
    row: dict[str, Any] = {
        "id": sample.id,
        "schema_version": sample.schema_version,
        "task_type": sample.task_type,
        "messages": messages,
        "question": last_user_text(messages),
        "history": _history(messages),
        **option_rows(sample.options),
        "answer": answer_text(sample.label, sample.references) or "",
        "references": [reference_text(r) for r in sample.references or ()],
        "label": sample.label,
        **_media(messages),
        "tools": _tools(sample),
        "tool_choice": sample.tool_choice,
        "unconditioned_input": unconditioned,
        "metadata": sample.metadata,
        "data_tag": sample.data_tag,
        "eval_config": sample.eval_config,
        "sandbox": sample.sandbox,
        "golden_trajectories": (
            [[dump_message(m) for m in trajectory] for trajectory in sample.golden_trajectories] if sample.golden_trajectories else None
        ),
        "sampling_params": sample.sampling_params,
        "generation_params": sample.generation_params,
        "extra": dict(sample.model_extra or {}),
    }
    return row, list(sample.few_shot_examples or ())


#: The standardized Sample format, compiled once (imported on first use by ``StandardSampleDataset``).
FORMAT = RecordFormat(
    "standard", TypeAdapter(Sample), _to_row, _shot_row, file_key=lambda sample: sample.id, file_rules=unique_in_file("id"), clean_loc=_without_part_tags
)
