"""Span-aware diffs of rendered prompts: pair two runs' records by id, say which pieces changed and how.

The records come from a :class:`~promptkit.render.renderer.Renderer` (:func:`prompt_records`, with each piece's span)
or from a ``promptkit render`` JSON Lines file (:func:`read_records`); :func:`diff_records` pairs them by ``id``
and compares each pair piece by piece (system prompt, shots and their answers, history, query, the model's
wrapper); :func:`report_text` is the report ``promptkit diff`` prints.
"""

from promptkit.diff.compare import DiffReport, PieceChange, PromptDiff, diff_records
from promptkit.diff.records import RecordSet, config_records, prompt_records, read_records
from promptkit.diff.text import report_text

__all__ = [
    "DiffReport",
    "PieceChange",
    "PromptDiff",
    "RecordSet",
    "config_records",
    "diff_records",
    "prompt_records",
    "read_records",
    "report_text",
]
