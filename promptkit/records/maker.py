"""The record stage: a rendered prompt spec becomes a :class:`~promptkit.records.record.RenderedPrompt`.

:class:`RecordMaker` is built once per dataset × model: it holds what every record shares (names, source hashes,
overrides, the request block in its three variants) and is the one place records are built.  The request block of a
prompt is the chat variant for messages; for a completion string, the variant whose ``add_special_tokens`` says
whether the engine should add the tokenizer's BOS (not when the text already starts with it: vLLM would add a
second).  :class:`OverLimitRows` collects the test rows whose prompt is over ``max_seq_len`` for one warning.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from promptkit.meta_templates.chat_history import ChatHistoryOutput
from promptkit.meta_templates.controlled import ControlledOutput
from promptkit.meta_templates.protocol import FinalInput
from promptkit.plan.spec import ROW_GOLD, PromptSpec
from promptkit.promptlist import PromptList
from promptkit.records.record import RecordContext, RenderedPrompt
from promptkit.types import Row

__all__ = ["OverLimitRows", "RecordMaker"]

logger = logging.getLogger("promptkit.render")

#: How many rows over max_seq_len the warning names.
_ROWS_SHOWN = 5
#: A RenderedPrompt from the tuple of all its fields: the named tuple's own constructor, minus its argument parsing.
_new_record = tuple.__new__


class RecordMaker:
    """Builds the records of one dataset × model (see the module docstring)."""

    __slots__ = ("_blocks", "_bos", "_output", "context", "output_column")

    def __init__(
        self, context: RecordContext, settings: Mapping[str, Any], bos: Sequence[str], output_column: str | None, output: ControlledOutput | ChatHistoryOutput | None
    ) -> None:
        self.context = context
        self.output_column = output_column
        # The request block of a prompt: chat messages', or a completion string's with and without the BOS added.
        self._blocks = (settings, {**settings, "add_special_tokens": True}, {**settings, "add_special_tokens": False})
        self._bos = tuple(bos)
        self._output = output

    def make(
        self,
        index: int,
        row: Row,
        spec: PromptSpec,
        rendered: tuple[str | PromptList, FinalInput, list[dict[str, Any]] | None],
        shots: list[int],
        truncated: bool,
        over_limit: bool,
        ident: str,
        escaped: list[str] | None,
        permutation: str | None,
    ) -> RenderedPrompt:
        """The record of ``spec`` of test row ``index`` (``row`` as loaded), rendered with ``shots``."""
        intermediate, final, media = rendered
        blocks = self._blocks
        request: Mapping[str, Any] = blocks[0] if type(final) is not str else blocks[2] if final.startswith(self._bos) else blocks[1]
        if spec.request:
            request = {**request, **spec.request}
        fields = spec.fields
        if self._output is not None:
            extra = self._output.request_for(final, intermediate)
            if extra:
                fields = {**fields, **extra} if fields else extra
        gold = spec.gold
        if gold is ROW_GOLD:
            gold = row.get(self.output_column) if self.output_column is not None else None
        # Positional, in RenderedPrompt's field order (tests/test_records.py pins it): a keyword call costs a prompt
        # more than a microsecond, as much as its whole template.
        return _new_record(
            RenderedPrompt,
            (self.context, spec, index, final, shots, ident, intermediate, gold, request, fields, row, media, truncated, over_limit, escaped, permutation, None),
        )


class OverLimitRows:
    """The test rows whose prompt is over ``max_seq_len`` with no shot left to drop, for one warning per report."""

    __slots__ = ("_rows", "max_seq_len", "where")

    def __init__(self, where: str, max_seq_len: int | None) -> None:
        self.where = where
        self.max_seq_len = max_seq_len
        self._rows: dict[int, None] = {}

    def note(self, indices: Iterable[int]) -> None:
        self._rows.update(dict.fromkeys(index for index in indices if index >= 0))

    def report(self) -> None:
        """One warning naming the rows noted since the last report (nothing when there are none)."""
        rows = list(self._rows)
        self._rows.clear()
        if not rows:
            return
        shown = ", ".join(map(str, rows[:_ROWS_SHOWN])) + (", ..." if len(rows) > _ROWS_SHOWN else "")
        logger.warning(
            '%s: %d row(s) have a prompt longer than max_seq_len=%d tokens with no shot left to drop (rows %s); they are written as they are, marked "over_limit": true',
            self.where,
            len(rows),
            self.max_seq_len,
            shown,
        )
