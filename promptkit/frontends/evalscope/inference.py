"""What an EvalScope sample becomes: one generation prompt, whose record carries what EvalScope keeps with the sample.

:class:`SampleInference` is :class:`~promptkit.plan.inferencers.GenInferencer` (one prompt per row) whose records add,
at top level, the sample's ``subset``, ``target`` and ``choices`` (after choice shuffling: what EvalScope's scorer
compares with) and ``messages``: the OpenAI-style messages EvalScope sends, whatever model the prompt is rendered for
(the record's ``prompt`` is those messages through the model's meta template or chat template).

>>> SampleInference().request_fields({'messages': [{'role': 'user', 'content': '2+2?'}], 'target': '4', 'choices': None,
...                                   'subset': 'main', 'id': 0}, [])
{'subset': 'main', 'target': '4', 'choices': None, 'messages': [{'role': 'user', 'content': '2+2?'}]}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from promptkit.plan.inferencers import GenInferencer
from promptkit.types import Row

__all__ = ["SampleInference"]


class SampleInference(GenInferencer):
    """One prompt per sample; its record carries ``subset``, ``target``, ``choices`` and ``messages``."""

    def request_fields(self, row: Row, test_rows: Sequence[Row]) -> dict[str, Any] | None:
        return {"subset": row["subset"], "target": row["target"], "choices": row["choices"], "messages": row["messages"]}
