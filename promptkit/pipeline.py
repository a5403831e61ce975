"""The pipeline: rows → shots → template → PromptList → meta template → final input.

:class:`Renderer` is the engine behind both the CLI and runners: build it
once per dataset × model (templates are compiled, rows loaded and shots
picked once), then iterate prompts lazily or render one row on demand.

Usage (docs/api.md has a runnable runner loop)::

    renderer = Renderer(load_datasets("configs/datasets/mmlu_demo/mmlu_demo_gen.py")[0],
                        load_models("configs/models/llama3_8b_instruct.py")[0])
    for p in renderer:
        send(p.prompt)
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from promptkit.config.loader import DatasetSpec
from promptkit.control_tokens import GuardedRows, TokenGuard, TokenHit, summary
from promptkit.conversation import Conversation
from promptkit.data.reader import apply_range
from promptkit.errors import ConfigError, DatasetError, PromptkitError, TemplateError
from promptkit.fitting import ShotFitter, ShotTokens, TokenSegments, token_segments
from promptkit.formats import AdapterDataset, FormatDataset
from promptkit.inferencers import GenInferencer, MultiTurnGenInferencer, PPLInferencer
from promptkit.media.policy import MediaResolver
from promptkit.meta_templates import ChatModel, CompletionModel, FinalInput, Model, TokenCounter
from promptkit.promptlist import PromptList
from promptkit.shots import ShotRenderer
from promptkit.templates import MultiTurnPromptTemplate, PromptTemplate
from promptkit.templates.prompt_template import Prompt

__all__ = ["RenderedPrompt", "Renderer"]

logger = logging.getLogger(__name__)

#: How many rows over max_seq_len the warning names.
_ROWS_SHOWN = 5

Row = Mapping[str, Any]
#: A turn of a dialogue to render: its number, and the model's earlier replies (``None``: the ground truth).
Turn = tuple[int, Sequence[str] | None]
Media = list[dict[str, Any]] | None


@dataclass(slots=True)
class RenderedPrompt:
    """One final prompt: what a model receives for test row ``index`` (and ``label`` in ppl mode).

    Not frozen only because frozen dataclasses cost a microsecond each to
    build, a third of a simple prompt's render time; treat it as read-only.
    """

    dataset: str
    model: str | None
    index: int
    mode: str
    prompt: FinalInput
    ice_idx: list[int]
    label: Hashable | None = None
    #: The template's output before the meta template: a ``str`` or a :class:`PromptList`.
    intermediate: str | PromptList = ""
    #: The turn of a dialogue (0-based), for multi-turn templates.
    turn: int | None = None
    #: The media parts a completion model's placeholders stand for, in order (multimodal templates only).
    media: list[dict[str, Any]] | None = None
    #: Fields a chat request carries next to the messages (e.g. ``tools``, ``tool_choice``), from the row.
    request: dict[str, Any] | None = None
    #: Whether shots were dropped to fit ``max_seq_len`` (``ice_idx`` holds the ones kept).
    truncated: bool = False
    #: Whether the prompt is longer than ``max_seq_len`` even with no shots (written as it is; the record says so).
    over_limit: bool = False
    #: Control tokens of the model that row text held and that were escaped in ``prompt`` (``special_token_policy='escape'``).
    escaped_tokens: list[str] | None = None

    def to_record(self) -> dict[str, Any]:
        """The JSON object ``promptkit render`` writes."""
        record: dict[str, Any] = {
            "dataset": self.dataset,
            "model": self.model,
            "index": self.index,
            "mode": self.mode,
        }
        if self.turn is not None:
            record["turn"] = self.turn
        record["prompt"] = self.prompt
        if self.media is not None:
            record["media"] = self.media
        record["ice_idx"] = self.ice_idx
        record["n_shots"] = len(self.ice_idx)
        record["truncated"] = self.truncated
        if self.over_limit:
            record["over_limit"] = True
        if self.escaped_tokens:
            record["escaped_tokens"] = self.escaped_tokens
        if self.mode == "ppl" or self.label is not None:
            record["label"] = self.label
        if self.request:
            record.update(self.request)
        return record


class Renderer:
    """Renders the prompts of one dataset for one model (see the module docstring).

    ``model=None`` is a completion model with no meta template.
    ``token_counter`` (``str -> int``) enforces ``max_seq_len`` by dropping
    shots from the end; it defaults to the model config's ``token_counter``.
    ``replies`` (test row index → the model's replies, in turn order) feed the
    history of ``infer_mode='every'`` dialogues; :meth:`conversation` is the
    interactive way to the same prompts.
    """

    def __init__(
        self,
        dataset: DatasetSpec,
        model: Model | None = None,
        token_counter: TokenCounter | None = None,
        replies: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        self.dataset = dataset
        self.model = model
        self._final_model = model if model is not None else CompletionModel(abbr=None)
        self.inferencer = dataset.inferencer
        self.output_column = dataset.reader.output_column
        self.template: PromptTemplate = dataset.prompt_template or dataset.ice_template  # type: ignore[assignment]
        self.replies = replies
        self.infer_mode = self._infer_mode()
        multimodal = self.template.is_multimodal or (dataset.ice_template is not None and dataset.ice_template.is_multimodal)
        self._collects_media = multimodal and isinstance(self._final_model, CompletionModel)
        self._media = self._media_resolver() if multimodal and dataset.media.mode != "keep" else None
        # The model config's max_seq_len wins, as OpenCompass's infer task copies it onto the inferencer.
        model_limit = model.max_seq_len if model is not None else None
        self.max_seq_len = model_limit if model_limit is not None else self.inferencer.max_seq_len
        self.token_counter = token_counter or (model.token_counter if model is not None else None)
        if self.max_seq_len and self.token_counter is None:
            logger.info(
                "dataset %r: max_seq_len=%d is not enforced because no token counter is set (set tokenizer or token_counter in the model config)",
                dataset.abbr,
                self.max_seq_len,
            )
        self.mode = self.inferencer.mode
        #: Test rows met whose prompt is over max_seq_len with no shot left to drop, in order (see report()).
        self._over_limit: dict[int, None] = {}
        self._mask_value = self.inferencer.gen_field_replace_token if isinstance(self.inferencer, GenInferencer) else ""

    def _infer_mode(self) -> str | None:
        """How a dialogue's turns become prompts; ``None`` unless the template is multi-turn."""
        if not isinstance(self.template, MultiTurnPromptTemplate):
            if isinstance(self.inferencer, MultiTurnGenInferencer):
                raise ConfigError(
                    "MultiTurnGenInferencer needs a MultiTurnPromptTemplate as prompt_template", key="infer_cfg.prompt_template", **self._where
                )
            return None
        if self.inferencer.mode != "gen":
            raise ConfigError("a MultiTurnPromptTemplate renders for generation: use MultiTurnGenInferencer", key="infer_cfg.inferencer", **self._where)
        if isinstance(self.inferencer, MultiTurnGenInferencer):
            return self.inferencer.infer_mode
        return "last"  # a plain GenInferencer sends the whole dialogue up to its last answer, as in AISBench

    def _media_resolver(self) -> MediaResolver:
        return MediaResolver(self.dataset.media, self.media_root)

    @cached_property
    def media_root(self) -> Path | None:
        """The folder relative media paths resolve against: ``media.root``, else the data file's folder."""
        if self.dataset.media.root is not None:
            return self.dataset.media.root
        base_dir = self.dataset.config_path.parent if self.dataset.config_path else None
        with self._context():
            return getattr(self.dataset.loader, "data_dir", lambda _: base_dir)(base_dir)

    # -- data, retrieved once ---------------------------------------------------
    @cached_property
    def _splits(self) -> tuple[Sequence[Row], Sequence[Row]]:
        with self._context():
            base_dir = self.dataset.config_path.parent if self.dataset.config_path else None
            splits = self.dataset.loader.load(base_dir)
            reader = self.dataset.reader
            pool = apply_range(splits.get(reader.train_split), reader.train_range, "reader_cfg.train_range")
            test = apply_range(splits.get(reader.test_split), reader.test_range, "reader_cfg.test_range")
            if not test:
                raise DatasetError(f"the test split {reader.test_split!r} has no rows; check the data file and reader_cfg.test_range")
            reader.check_columns(test, reader.test_split)
            if pool is not test:
                reader.check_columns(pool, reader.train_split)
            return pool, test

    @property
    def pool(self) -> Sequence[Row]:
        """The rows shots are picked from (the train split)."""
        return self._splits[0]

    @property
    def test_rows(self) -> Sequence[Row]:
        return self._splits[1]

    def __len__(self) -> int:
        return len(self.test_rows)

    @cached_property
    def ice_indices(self) -> list[list[int]]:
        """The shots picked for each test row."""
        with self._context():
            return self.dataset.retriever.retrieve(self.pool, self.test_rows, self.dataset.reader)

    @cached_property
    def _shots(self) -> ShotRenderer | None:
        if self.dataset.ice_template is None:
            return None
        retriever = self.dataset.retriever
        return ShotRenderer(
            self.dataset.ice_template,
            self._shot_rows,
            self.output_column,
            retriever.ice_separator,
            retriever.ice_eos_token,
            sep_token=self.template.sep_token,
        )

    @cached_property
    def labels(self) -> list[Hashable]:
        """The candidate labels of ppl mode, in order."""
        if isinstance(self.inferencer, PPLInferencer) and self.inferencer.labels is not None:
            return list(self.inferencer.labels)
        if self.template.labels is not None:
            return list(self.template.labels)
        if self.output_column is None:
            raise ConfigError("PPLInferencer needs candidate labels: use a label-keyed template, labels=[...], or an output_column")
        # OpenCompass takes set() order here, which changes between runs; first appearance is stable.
        try:
            return list(dict.fromkeys(row[self.output_column] for row in self.test_rows))
        except TypeError:
            raise ConfigError(
                f"PPLInferencer takes its labels from the answer column {self.output_column!r}, but its values are not single "
                "labels (e.g. lists); give labels=[...] or a label-keyed template",
                **self._where,
            ) from None

    # -- the model's control tokens in row text ------------------------------------
    @cached_property
    def _guard(self) -> TokenGuard | None:
        """The model's guard when it changes row text (policies 'escape' and 'error'); 'warn' warns here, once."""
        guard = self._final_model.token_guard
        if guard.active and guard.policy == "warn":
            splits = [(self.dataset.reader.test_split, self.test_rows)]
            if self.pool is not self.test_rows:
                splits.append((self.dataset.reader.train_split, self.pool))
            line = summary(guard, splits)
            if line is not None:
                logger.warning("dataset %r: %s", self.dataset.abbr, line)
        return guard if guard.escapes else None

    @cached_property
    def _shot_rows(self) -> Sequence[Row]:
        """The pool as shots see it: through the guard, if any."""
        return GuardedRows(self.pool, self._guard) if self._guard is not None else self.pool

    @cached_property
    def _pool_hits(self) -> dict[int, tuple[TokenHit, ...]]:
        """The guard's hits in pool rows read as shots so far, by pool index (filled as shots are rendered)."""
        rows = self._shot_rows
        return rows.hits if isinstance(rows, GuardedRows) else {}

    def _check_tokens(self, prompts: list[RenderedPrompt], hits: tuple[TokenHit, ...]) -> list[RenderedPrompt]:
        """Record the tokens escaped in each prompt ('escape'), or refuse them ('error'); hits are the row's own."""
        guard = self._guard
        assert guard is not None
        shot_hits = self._pool_hits
        for prompt in prompts:
            found = [*hits, *(hit for i in prompt.ice_idx for hit in shot_hits.get(i, ()))]
            present = guard.escaped_in(prompt.prompt) if found else []
            if not present:
                continue
            if guard.policy == "error":
                raise guard.refuse(found, present).add_context(row=prompt.index if prompt.index >= 0 else None, **self._where)
            prompt.escaped_tokens = present
        return prompts

    # -- rendering ----------------------------------------------------------------
    def __iter__(self) -> Iterator[RenderedPrompt]:
        rows, ice_indices = self.test_rows, self.ice_indices
        for index, row in enumerate(rows):
            yield from self._render(row, index, ice_indices[index])
        self.report()

    def report(self) -> None:
        """Log one warning for the rows rendered since the last report whose prompt is over ``max_seq_len`` with no shot
        left to drop (iterating the renderer reports at the end; callers of :meth:`render` call this when done)."""
        rows = list(self._over_limit)
        self._over_limit.clear()
        if not rows:
            return
        shown = ", ".join(map(str, rows[:_ROWS_SHOWN])) + (", ..." if len(rows) > _ROWS_SHOWN else "")
        where = f"dataset {self.dataset.abbr!r}" + (f", model {self._model_abbr!r}" if self._model_abbr is not None else "")
        logger.warning(
            '%s: %d row(s) have a prompt longer than max_seq_len=%d tokens with no shot left to drop (rows %s); they are written as they are, marked "over_limit": true',
            where,
            len(rows),
            self.max_seq_len,
            shown,
        )

    def render(self, index: int) -> list[RenderedPrompt]:
        """The prompts of test row ``index``: one in gen mode, one per label in ppl mode, one per turn of a dialogue."""
        return self._render(self._row(index), index, self.ice_indices[index])

    def _row(self, index: int) -> Row:
        rows = self.test_rows
        if not 0 <= index < len(rows):
            raise ConfigError(
                f"index {index} is out of range: the test split has {len(rows)} rows (0 to {len(rows) - 1})",
                key="index",
                **self._where,
            )
        return rows[index]

    # -- dialogues --------------------------------------------------------------------
    def count_turns(self, index: int) -> int:
        """How many prompts a conversation over test row ``index`` has: its turns (1 unless the template is multi-turn)."""
        row = self._row(index)
        if self.mode != "gen":
            raise ConfigError("conversations are for generation; this dataset renders for likelihood (ppl)", **self._where)
        if self.infer_mode is None:
            return 1
        try:
            turns = self.template.count_turns(row)  # type: ignore[attr-defined]
        except PromptkitError as error:
            raise error.add_context(row=index, **self._where) from None
        return 1 if self.infer_mode == "last" else int(turns)

    def conversation(self, index: int) -> Conversation:
        """Test row ``index`` as a :class:`~promptkit.Conversation`: next_prompt() / add_reply(text), turn by turn."""
        return Conversation(self, index)

    def render_turn(self, index: int, turn: int, replies: Sequence[str] = ()) -> RenderedPrompt:
        """The prompt of ``turn`` of test row ``index``; ``replies`` are the model's earlier replies (``every`` mode)."""
        row = self._row(index)
        if self.infer_mode is None:
            if turn != 0:
                raise ConfigError(f"turn {turn}: this dataset's template is not multi-turn, so each row has one prompt (turn 0)", **self._where)
            return self.render(index)[0]
        if self.infer_mode == "last":
            if turn != 0:
                raise ConfigError(f"turn {turn}: infer_mode 'last' renders one prompt per row (turn 0)", **self._where)
            return self._render(row, index, self.ice_indices[index])[0]
        return self._render_turn(row, index, self.ice_indices[index], turn, replies if self.infer_mode == "every" else None)

    def _turns(self, row: Row, index: int, ice_idx: Sequence[int]) -> list[RenderedPrompt]:
        template: MultiTurnPromptTemplate = self.template  # type: ignore[assignment]
        try:
            turns = template.count_turns(row)
        except PromptkitError as error:
            raise error.add_context(row=index if index >= 0 else None, **self._where) from None
        if self.infer_mode == "last":
            prompt = self._render_turn(row, index, ice_idx, turns - 1, None)
            if not isinstance(self.inferencer, MultiTurnGenInferencer):
                prompt.turn = None  # a plain GenInferencer's one prompt per row, as AISBench records it
            return [prompt]
        if self.infer_mode == "every_with_gt":
            return [self._render_turn(row, index, ice_idx, turn, None) for turn in range(turns)]
        if self.replies is None:
            raise ConfigError(
                "infer_mode='every' fills each turn's history with the model's own replies, and none were given: pass "
                "replies (promptkit render --replies FILE, JSON Lines of {\"index\", \"turn\", \"reply\"}), or drive the "
                "rows with Renderer.conversation()",
                key="replies",
                **self._where,
            )
        replies = list(self.replies.get(index, ()))
        if len(replies) > turns:
            raise ConfigError(f"row {index} has {turns} turns but {len(replies)} replies", key="replies", **self._where)
        # The reply to the last turn (a finished run's output has it) feeds no prompt.
        return [self._render_turn(row, index, ice_idx, turn, replies) for turn in range(min(len(replies) + 1, turns))]

    def _render_turn(self, row: Row, index: int, ice_idx: Sequence[int], turn: int, replies: Sequence[str] | None) -> RenderedPrompt:
        guard = self._guard
        hits: tuple[TokenHit, ...] = ()
        if guard is not None:
            row, hits = guard.guard_row(row)
            if replies:
                replies, reply_hits = guard.guard_texts(replies, "replies")
                hits += reply_hits
        try:
            intermediate, final, used, media, over = self._fit(row, list(ice_idx), None, (turn, replies))
        except PromptkitError as error:
            raise error.add_context(row=index if index >= 0 else None, **self._where) from None
        truncated = len(used) < len(ice_idx)
        prompt = RenderedPrompt(
            self.dataset.abbr, self._model_abbr, index, "gen", final, used, None, intermediate, turn, media,
            truncated=truncated, over_limit=self._note_over_limit(index, over),
        )
        return self._check_tokens([prompt], hits)[0] if guard is not None and (hits or self._pool_hits) else prompt

    def render_row(self, row: Row) -> list[RenderedPrompt]:
        """Prompts for a row that is not in the test split (index ``-1``); shots picked for it now."""
        with self._context():
            self.dataset.reader.check_columns([row], "given row")
            ice_idx = self.dataset.retriever.retrieve(self.pool, [row], self.dataset.reader)[0]
        return self._render(row, -1, ice_idx)

    def _render(self, row: Row, index: int, ice_idx: Sequence[int]) -> list[RenderedPrompt]:
        if self.infer_mode is not None:
            return self._turns(row, index, ice_idx)  # each turn is guarded in _render_turn
        # Row text goes through the model's guard before any template sees it (promptkit.control_tokens).
        guard = self._guard
        hits: tuple[TokenHit, ...] = ()
        if guard is not None:
            row, hits = guard.guard_row(row)
        if self.mode == "gen":
            try:
                intermediate, final, used, media, over = self._fit(row, list(ice_idx), None)
            except PromptkitError as error:
                raise error.add_context(row=index if index >= 0 else None, **self._where) from None
            truncated = len(used) < len(ice_idx)
            out = [
                RenderedPrompt(
                    self.dataset.abbr, self._model_abbr, index, "gen", final, used, None, intermediate, None, media, self._request(row),
                    truncated=truncated, over_limit=self._note_over_limit(index, over),
                )
            ]
            out += self._calibration(row, index, used, [None])
            return self._check_tokens(out, hits) if guard is not None and (hits or self._pool_hits) else out
        # ppl: every label of a row is scored with the same shots — the fewest that every label's prompt fits with.
        fitted = []
        shots = list(ice_idx)
        for label in self.labels:
            try:
                intermediate, final, shots, media, over = self._fit(row, shots, label)
            except PromptkitError as error:
                raise error.add_context(row=index if index >= 0 else None, label=label, **self._where) from None
            fitted.append((label, intermediate, final, shots, media, over))
        out = []
        for label, intermediate, final, used, media, over in fitted:
            # A label fitted with more shots than the row ends with is shorter with fewer: it still fits.
            if len(used) != len(shots):
                intermediate, final, media = self._render_once(row, shots, label)
            truncated = len(shots) < len(ice_idx)
            out.append(
                RenderedPrompt(
                    self.dataset.abbr, self._model_abbr, index, "ppl", final, shots, label, intermediate, None, media, self._request(row),
                    truncated=truncated, over_limit=self._note_over_limit(index, over),
                )
            )
        out += self._calibration(row, index, shots, self.labels)
        return self._check_tokens(out, hits) if guard is not None and (hits or self._pool_hits) else out

    # -- what format datasets add: request fields and calibration prompts ----------
    @cached_property
    def _format(self) -> FormatDataset | None:
        loader = self.dataset.loader
        return loader if isinstance(loader, FormatDataset) else None

    @cached_property
    def _calib_source(self) -> FormatDataset | AdapterDataset | None:
        loader = self.dataset.loader
        return loader if isinstance(loader, (FormatDataset, AdapterDataset)) else None

    def _request(self, row: Row) -> dict[str, Any] | None:
        """The row's request fields (``tools``, …) for chat models; ``None`` for completion models."""
        if self._format is None or not self._format.request_columns or self._final_model.kind != "chat":
            return None
        return {column: row[column] for column in self._format.request_columns if row.get(column) is not None} or None

    def _calibration(self, row: Row, index: int, ice_idx: list[int], labels: Sequence[Hashable | None]) -> list[RenderedPrompt]:
        """``calib`` prompts: the row's unconditioned form with the same shots (one per label in ppl mode)."""
        calib = self._calib_source.calib_row(row) if self._calib_source is not None else None
        if calib is None:
            return []
        out = []
        for label in labels:
            try:
                intermediate, final, media = self._render_once(calib, ice_idx, label)
            except PromptkitError as error:
                raise error.add_context(row=index if index >= 0 else None, label=label, **self._where) from None
            out.append(
                RenderedPrompt(self.dataset.abbr, self._model_abbr, index, "calib", final, ice_idx, label, intermediate, None, media, self._request(row))
            )
        return out

    @cached_property
    def _model_abbr(self) -> str | None:
        return self.model.abbr if self.model is not None else None

    @cached_property
    def _where(self) -> dict[str, Any]:
        config = self.dataset.config_path
        return dict(config=str(config) if config else None, dataset=self.dataset.abbr, model=self._model_abbr)

    @cached_property
    def _shot_tokens(self) -> ShotTokens | None:
        if self.token_counter is None:
            return None
        # Without an ice_template there is nothing to count, and _ice refuses shots with the error that says so.
        shots = self._shots
        return ShotTokens(self.token_counter, shots.shot if shots is not None else lambda index: self._ice([index]))

    @cached_property
    def _fitter(self) -> ShotFitter | None:
        """Keeps the longest prefix of the shots that fits ``max_seq_len`` (None when nothing is enforced)."""
        if not self.max_seq_len or self._shot_tokens is None:
            return None
        # Meta templates only add text around the shots; a chat template may trim or drop some (see ShotFitter).
        additive = isinstance(self._final_model, (CompletionModel, ChatModel))
        return ShotFitter(self.max_seq_len, self._shot_tokens, additive)

    def token_segments(self, prompt: RenderedPrompt) -> TokenSegments | None:
        """Tokens of a rendered prompt: total, system, each shot, the rest (None without a token counter)."""
        if self.token_counter is None:
            return None
        shot_tokens = self._shot_tokens
        per_shot = [shot_tokens(i) for i in prompt.ice_idx] if shot_tokens is not None else []
        return token_segments(prompt.intermediate, prompt.prompt, per_shot, self.token_counter)

    def _fit(self, row: Row, ice_idx: list[int], label: Hashable | None, turn: Turn | None = None) -> tuple[Any, FinalInput, list[int], Media, bool]:
        """Render with the longest prefix of ``ice_idx`` that fits ``max_seq_len`` (OpenCompass's drop-last-shot result);
        last, whether the prompt is over the limit even so."""
        if self._fitter is None:
            intermediate, final, media = self._render_once(row, ice_idx, label, turn)
            return intermediate, final, ice_idx, media, False
        self._check_shots(ice_idx)
        fitted = self._fitter.fit(ice_idx, lambda shots: self._render_once(row, shots, label, turn))
        intermediate, final, media = fitted.rendered
        return intermediate, final, fitted.shots, media, fitted.over_limit

    def _note_over_limit(self, index: int, over: bool) -> bool:
        """Remember a test row over the limit for :meth:`report`; returns ``over``."""
        if over and index >= 0:
            self._over_limit[index] = None
        return over

    def _render_once(self, row: Row, ice_idx: list[int], label: Hashable | None, turn: Turn | None = None) -> tuple[Any, FinalInput, Media]:
        ice = self._ice(ice_idx)
        # The item under test never shows its gold answer: gen renders the replacement token, ppl the candidate label.
        mask_value = self._mask_value if label is None else str(label)
        if turn is None:
            prompt = self.template.render(row, ice, label=label, masked=self.output_column, mask_value=mask_value)
        else:
            prompt = self.template.render_turn(row, turn[0], ice, masked=self.output_column, mask_value=mask_value, replies=turn[1])  # type: ignore[attr-defined]
        if self._media is not None:
            prompt = self._media.apply(prompt)  # type: ignore[arg-type]
        if self._collects_media:
            final, media = self._final_model.render_with_media(prompt, self.mode)
            return prompt, final, media
        return prompt, self._final_model.render(prompt, self.mode), None

    def _ice(self, ice_idx: list[int]) -> Prompt:
        self._check_shots(ice_idx)
        if self._shots is None:
            return self.dataset.retriever.ice_eos_token
        return self._shots.render(ice_idx)

    def _check_shots(self, ice_idx: list[int]) -> None:
        """Shots need an ice_template to render them and an ice token to put them at."""
        if not ice_idx:
            return
        if self._shots is None:
            raise ConfigError(
                f"the retriever picked shots {ice_idx} but infer_cfg has no ice_template to render them; add an ice_template "
                "or use ZeroRetriever",
                key="infer_cfg.ice_template",
            )
        if not self.template.has_ice_slot:
            raise TemplateError(
                f"the retriever picked shots {ice_idx} but the template has no ice_token {self.template.ice_token!r} to put them at; "
                "add the token (e.g. begin='</E>') or use ZeroRetriever",
                key="ice_token",
            )


    def _context(self) -> _ErrorContext:
        return _ErrorContext(**self._where)


class _ErrorContext:
    """Adds where we are to any promptkit error raised inside the ``with`` block."""

    __slots__ = ("context",)

    def __init__(self, **context: Any) -> None:
        self.context = context

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if isinstance(exc, PromptkitError):
            exc.add_context(**self.context)
