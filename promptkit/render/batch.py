"""Test rows rendered a batch at a time, stage by stage: the row work of a :class:`~promptkit.Renderer`.

A batch's rows go through the pipeline together: what the plan makes of every row (its dialogue turns, id, text
through the control-token guard, prompt specs), then every row's prompts (template → model, fitted to
``max_seq_len``: :meth:`Plan.fit <promptkit.plan.plan.Plan.fit>`), then every row's records.  Each stage runs over
the batch's rows one after another, so its code and data stay in the processor's caches; what the caller does with
the prompts next (``promptkit render`` writes their lines) also runs over a batch.  Measured (docs/architecture.md,
"Where the time goes"): a 5-shot row costs about a fifth less than rendered and written one by one; batches of a
few hundred rows cost more again.  A row rendered alone (:meth:`Renderer.render`) is a batch of one.

A row that fails at any stage ends its batch there: the rows before it go through every stage and are handed on,
then its error is raised, located (config, dataset, model, row) — what rendering row by row gives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from promptkit.errors import PromptkitError
from promptkit.plan.dialogue import Turns
from promptkit.plan.plan import Fitted, Plan
from promptkit.plan.spec import PromptSpec
from promptkit.records.maker import OverLimitRows, RecordMaker
from promptkit.records.record import RenderedPrompt
from promptkit.records.views import PromptViews
from promptkit.render.rows import RowWithShots
from promptkit.render.where import Where
from promptkit.tokens.guard import Scanned
from promptkit.types import Row

__all__ = ["BATCH_ROWS", "RowRenderer"]

#: Rows a batch holds (see the module docstring).
BATCH_ROWS = 64

#: Each row's index and prompts, in order.
Rendered = list[tuple[int, list[RenderedPrompt]]]


class _Planned(NamedTuple):
    """What the plan makes of a test row before its prompts are rendered."""

    row_index: int
    row: Row  # as loaded
    ice_idx: Sequence[int]
    base: str  # the row's id, which its prompts' ids extend
    scanned: Scanned | None  # what the control-token guard found (None: the model has no guard)
    guarded: Row  # the row through the guard
    turns: Turns | None
    specs: Sequence[PromptSpec]
    permutation: str | None


#: A _Planned from the tuple of all its fields.
_new_planned = tuple.__new__


class RowRenderer:
    """Renders test rows a batch at a time (see the module docstring): the plan's stages, the record maker, the token
    views, the rows over ``max_seq_len`` noted, errors located by ``where``; ``replies`` feed ``every`` dialogues."""

    __slots__ = ("over_limit", "plan", "records", "replies", "views", "where")

    def __init__(
        self, plan: Plan, records: RecordMaker, views: PromptViews, over_limit: OverLimitRows, where: Where, replies: Mapping[int, Sequence[str]] | None
    ) -> None:
        self.plan = plan
        self.records = records
        self.views = views
        self.over_limit = over_limit
        self.where = where
        self.replies = replies

    def render(self, items: Sequence[RowWithShots], turns: Turns | None = None) -> tuple[Rendered, Exception | None]:
        """Each row's index and prompts, in order, up to the first row that fails, and that row's error (``None``: none
        failed); ``turns``: the dialogue turns to render (a batch of one row), else those each row's infer_mode renders."""
        planned, failure = self._planned(items, turns)
        fitted, unfitted = self.plan.fit_rows([(row_plan.specs, row_plan.guarded, row_plan.ice_idx) for row_plan in planned])
        if unfitted is not None:
            failure = self._located(unfitted, planned[len(fitted)].row_index)
        done, unrecorded = self._recorded(planned, fitted)  # (fewer fitted when a row failed to fit)
        return done, unrecorded if unrecorded is not None else failure

    def _planned(self, items: Sequence[RowWithShots], turns: Turns | None) -> tuple[list[_Planned], Exception | None]:
        """What the plan makes of each row, up to the first row that fails, and that row's error."""
        plan = self.plan
        dialogue, guard, permutes = plan.dialogue, plan.guard, plan.permutes
        planned: list[_Planned] = []
        for index, row, ice_idx in items:
            try:  # a dialogue's turns locate their own errors
                row_turns = self._turns(index, row) if dialogue is not None and turns is None else turns
            except Exception as error:
                return planned, error
            try:
                base = plan.base_id(row, index)
                scanned = guard.scan(row) if guard is not None else None  # before any template sees it
                if guard is not None and scanned is not None and row_turns is not None and row_turns[1]:
                    replies, reply_hits, reply_delimited = guard.scan_replies(row_turns[1])
                    row_turns, scanned = (row_turns[0], replies), (scanned[0], scanned[1] + reply_hits, scanned[2] or reply_delimited)
                guarded = scanned[0] if scanned is not None else row
                specs = plan.specs(row, guarded, row_turns)
                permutation = plan.permutation(guarded) if permutes and row_turns is None else None
            except Exception as error:
                return planned, self._located(error, index)
            # Positional, in _Planned's field order: the named tuple's own constructor parses its arguments, a row's worth.
            planned.append(_new_planned(_Planned, (index, row, ice_idx, base, scanned, guarded, row_turns, specs, permutation)))
        return planned, None

    def _turns(self, index: int, row: Row) -> Turns:
        """The dialogue turns test row ``index`` renders (by the plan's infer_mode, with the replies given)."""
        dialogue = self.plan.dialogue
        assert dialogue is not None
        with self.where.at(index):
            count = dialogue.template.count_turns(row)
        with self.where:
            return dialogue.turns(index, count, self.replies)

    def _recorded(self, planned: Sequence[_Planned], fitted: Sequence[list[Fitted]]) -> tuple[Rendered, Exception | None]:
        """Each fitted row's index and records, up to the first row that fails, and that row's error; a row's prompts
        are checked first where its text (or its shots') could form a control token."""
        plan = self.plan
        make = self.records.make
        with_tokens = self.views.with_tokens if self.views.encoder is not None else None
        done: Rendered = []
        for (index, loaded, _, base, scanned, _, _, specs, permutation), fits in zip(planned, fitted, strict=False):
            try:
                # Rows (and shots, read by now) with no token and no delimiter (the usual row) need no check of their prompts.
                checked = scanned if scanned is not None and not plan.forgeries.clean(scanned) else None
                out = []
                for spec, (rendered, shots, truncated, over) in zip(specs, fits, strict=True):
                    escaped = None
                    if checked is not None:  # the final input checked for tokens row text formed, against a reference render
                        rendered, escaped = plan.escaped(index, spec, rendered, shots, checked)
                    out.append(make(index, loaded, spec, rendered, shots, truncated, over, base + spec.suffix, escaped, permutation))
                    if over:
                        self.over_limit.note((index,))
                done.append((index, with_tokens(out) if with_tokens is not None else out))
            except Exception as error:
                return done, self._located(error, index)
        return done, None

    def _located(self, error: Exception, index: int) -> Exception:
        """A promptkit error with the row it was raised at (and the renderer's place) filled in; any other as it is."""
        return self.where.attach(error, index) if isinstance(error, PromptkitError) else error
