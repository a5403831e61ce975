"""The dataset ``type=`` of each format: where its records come from and how they render by default.

These classes are light: a format's pydantic models (``promptkit.formats.standard``,
``.taskspec``, ``.xpert``) are compiled when a file of that format is first
checked, so ``import promptkit`` stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promptkit.formats.base import FormatDataset, last_user_text

__all__ = ["StandardSampleDataset", "TaskSpecDataset", "XpertFormatDataset"]


def _messages_config() -> dict[str, Any]:
    """The default config of the message formats: each row's messages, its own shots as earlier turns."""
    return dict(
        reader_cfg=dict(input_columns=["question"], output_column="answer", train_split="few_shot", test_split="test"),
        infer_cfg=dict(
            ice_template=dict(type="MessagesTemplate"),
            prompt_template=dict(type="MessagesTemplate", ice_token="</E>"),
            retriever=dict(type="EmbeddedShotsRetriever"),
            inferencer=dict(type="GenInferencer"),
        ),
    )


class StandardSampleDataset(FormatDataset):
    """Standardized Sample JSONL files (seed 000); rules and columns: :mod:`promptkit.formats.standard`.

    A row with ``unconditioned_input`` also renders a ``calib`` prompt: the
    same prompt with the row's messages replaced by the unconditioned input.
    The row's ``tools`` and ``tool_choice`` are the prompts' tools (the default
    ``tools=dict(column='tools', choice_column='tool_choice')``): chat requests
    carry them, chat templates render them.
    """

    format_name = "standard"
    sample_columns = ("task_type", "references", "label", "eval_config", "metadata", "data_tag", "sandbox", "golden_trajectories")

    def format_config(self) -> dict[str, Any]:
        return {**_messages_config(), "tools": dict(column="tools", choice_column="tool_choice")}

    def sampling_params(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The sample's ``generation_params`` and ``sampling_params`` (they never disagree: a record where they do is
        bad), merged over the request block of every model's records."""
        params = {**(row.get("generation_params") or {}), **(row.get("sampling_params") or {})}
        return params or None

    def calib_row(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        unconditioned = row.get("unconditioned_input")
        if unconditioned is None:
            return super().calib_row(row)
        return {**row, "messages": unconditioned, "question": last_user_text(unconditioned)}


class TaskSpecDataset(FormatDataset):
    """Task-spec JSONL files (seed 001); rules, columns and the default template: :mod:`promptkit.formats.taskspec`."""

    format_name = "taskspec"
    sample_columns = ("task_id", "category", "targets", "metric_name", "post_process", "metadata")
    task_type_column = "category"

    def format_config(self) -> dict[str, Any]:
        # The seed's render rule: each example as prompt + " " + completion, joined by a blank line, before the prompt.
        return dict(
            reader_cfg=dict(input_columns=["question"], output_column="answer", train_split="few_shot", test_split="test"),
            infer_cfg=dict(
                ice_template=dict(type="PromptTemplate", template="{question} {answer}\n\n"),
                prompt_template=dict(
                    type="PromptTemplate",
                    template=dict(round=[dict(role="HUMAN", prompt="</E>{question}"), dict(role="BOT", prompt="{answer}")]),
                    ice_token="</E>",
                ),
                retriever=dict(type="EmbeddedShotsRetriever", ice_separator="", ice_eos_token=""),
                inferencer=dict(type="GenInferencer"),
            ),
        )


class XpertFormatDataset(FormatDataset):
    """XpertFormat JSONL files (seed 003); rules and columns: :mod:`promptkit.formats.xpert`."""

    format_name = "xpert"

    def format_config(self) -> dict[str, Any]:
        return _messages_config()

    def sample_fields(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The record's ``sample`` block: the reference ``response``, the structured ``answer`` (type, value,
        explanation), ``meta`` and ``evaluation``, as the record gives them."""
        answer = None
        if row.get("answer_type"):
            answer = {"type": row["answer_type"], "value": row["answer"]}
            if row.get("explanation") is not None:
                answer["explanation"] = row["explanation"]
        block = {"response": row.get("response"), "answer": answer, "meta": row.get("meta"), "evaluation": row.get("evaluation")}
        return {key: value for key, value in block.items() if value not in (None, {})} or None
