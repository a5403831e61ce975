"""What one test row becomes: its prompt specs.

A :class:`PromptSpec` says what one prompt of a row is — its mode, the label it
scores, the dialogue turn it asks for, its id after the row's, the answer it is
scored against and the fields its record and request carry — without rendering
anything.  A plan (:class:`~promptkit.plan.plan.Plan`) expands each test row
into its specs; the renderer renders each through the template and the model and
makes its record.

>>> PromptSpec(mode="ppl", label="B", suffix="/B")
PromptSpec(mode='ppl', label='B', suffix='/B')
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from promptkit.types import Row

__all__ = ["ROW_GOLD", "PromptSpec"]


class _RowGold:
    """The default :attr:`PromptSpec.gold`: the row's answer column (a marker, not a value)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ROW_GOLD"

    def __reduce__(self) -> str:
        return "ROW_GOLD"  # the one marker, by name: a worker's unpickled specs hold the same object


#: The answer a spec is scored against when it names none: the test row's answer column.
ROW_GOLD: Any = _RowGold()


@dataclass(frozen=True, slots=True, repr=False)
class PromptSpec:
    """One prompt of a test row (see the module docstring)."""

    #: The record's mode: ``'gen'`` (the model's turn is cut off), ``'ppl'`` (scored whole) or ``'calib'``.
    mode: str = "gen"
    #: The candidate label the prompt renders and scores (ppl); ``None`` for none.
    label: Hashable | None = None
    #: The dialogue turn the template renders (0-based); ``None``: the row is not rendered turn by turn.
    turn: int | None = None
    #: The model's earlier replies a dialogue turn shows (``None``: the ground truth).
    replies: Sequence[str] | None = None
    #: Whether the record names its turn (a plain GenInferencer's one prompt of a dialogue does not).
    numbered: bool = False
    #: What the prompt's id adds to its row's: ``'/B'`` (a label), ``'/turn1'``, ``'/calib'``.
    suffix: str = ""
    #: The row the template renders, when it is not the test row (a calibration row, a BFCL turn's row).
    row: Row | None = None
    #: The answer the prompt is scored against; :data:`ROW_GOLD`: the row's answer column.
    gold: Any = ROW_GOLD
    #: Fields the record carries at top level (``continuation``, ``choices``, a chat model's ``tools``, …).
    fields: Mapping[str, Any] | None = None
    #: Fields the engine request carries beside the prompt, merged into the request block (a dataset's ``tools``).
    request: Mapping[str, Any] | None = None
    #: Whether the prompt takes the shots its row's other prompts were fitted with instead of being fitted itself
    #: (a calibration prompt).
    follows: bool = False

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{item.name}={getattr(self, item.name)!r}" for item in fields(self) if getattr(self, item.name) != item.default or item.name == "mode"
        )
        return f"PromptSpec({shown})"
