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
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from promptkit.config.loader import DatasetSpec
from promptkit.control_tokens import GuardedRows, TokenGuard, TokenHit, summary
from promptkit.conversation import Conversation
from promptkit.data.hooks import CalibratedDataset, RequestFieldsDataset
from promptkit.data.progress import Progress, reporting, task
from promptkit.data.reader import apply_range
from promptkit.dialogue import Dialogue, Turns, dialogue_for
from promptkit.errors import ConfigError, DatasetError, PromptkitError, TemplateError
from promptkit.fitting import ShotFitter, ShotTokens, TokenSegments, token_segments
from promptkit.inferencers import GenInferencer, PPLInferencer
from promptkit.media.policy import MediaResolver
from promptkit.meta_templates import ChatModel, CompletionModel, FinalInput, Model, TokenCounter
from promptkit.promptlist import PromptList
from promptkit.shots import ShotRenderer
from promptkit.templates.prompt_template import Prompt
from promptkit.templates.protocol import ChatMessagesTemplate, Template

__all__ = ["RenderedPrompt", "Renderer"]

logger = logging.getLogger(__name__)

#: How many rows over max_seq_len the warning names.
_ROWS_SHOWN = 5

Row = Mapping[str, Any]
#: A turn of a dialogue to render: its number, and the model's earlier replies (``None``: the ground truth).
Turn = tuple[int, Sequence[str] | None]
Media = list[dict[str, Any]] | None
#: One render of a row: the template's output, the final input, and the media parts of a completion model's placeholders.
Rendered = tuple[Prompt, FinalInput, Media]
#: The labels a gen dataset's ``Renderer.labels`` names: those a PPLInferencer without ``labels=`` would score.
_DERIVED_LABELS = PPLInferencer()


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

    It calls the stages and holds none of them: rows and shots (``promptkit.data``,
    ``promptkit.retrievers``, ``promptkit.shots``), the template, a dialogue's turns
    (:mod:`promptkit.dialogue`), the ppl labels (:meth:`PPLInferencer.candidate_labels`),
    the dataset's calibration and request hooks (``promptkit.data.hooks``), fitting
    into ``max_seq_len`` (``promptkit.fitting``), media, the model's meta template and
    its control-token guard (``promptkit.control_tokens``).
    """

    def __init__(
        self,
        dataset: DatasetSpec,
        model: Model | None = None,
        token_counter: TokenCounter | None = None,
        replies: Mapping[int, Sequence[str]] | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.dataset = dataset
        #: Receives progress of loading, indexing and rendering (see :mod:`promptkit.data.progress`); ``None``: no reports.
        self.progress = progress
        self.model = model
        self._final_model = model if model is not None else CompletionModel(abbr=None)
        self._model_abbr = model.abbr if model is not None else None
        config = dataset.config_path
        self._where = _Where(dict(config=str(config) if config else None, dataset=dataset.abbr, model=self._model_abbr))
        self.inferencer = dataset.inferencer
        self.output_column = dataset.reader.output_column
        self.replies = replies
        with self._where:
            # The inferencer picks the template (OpenCompass's rule: the prompt_template, else the ice_template).
            template = self.inferencer.select_template(dataset.prompt_template, dataset.ice_template, dataset.reader)
            self._dialogue: Dialogue | None = dialogue_for(template, self.inferencer)
        self.template: Template = template
        #: Why the inferencer cannot run with this model, raised when a prompt is asked for (the renderer itself still answers len(), labels, …).
        self._refusal: PromptkitError | None = None
        try:
            self.inferencer.check_model(self._final_model.kind)
        except PromptkitError as error:
            self._refusal = self._where.attach(error)
        # A template written as chat messages reaches a chat model as written, past its meta template.
        self._chat_messages = template.chat_messages if isinstance(template, ChatMessagesTemplate) and self._final_model.kind == "chat" else None
        #: How a dialogue's turns become prompts (``'every'``, ``'every_with_gt'``, ``'last'``); ``None`` unless the template is multi-turn.
        self.infer_mode = self._dialogue.infer_mode if self._dialogue is not None else None
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
        # What the dataset adds to a row's prompts, if it can (plain datasets lack both hooks).
        loader = dataset.loader
        self._calib_row = loader.calib_row if isinstance(loader, CalibratedDataset) else None
        self._request_fields = loader.request_fields if isinstance(loader, RequestFieldsDataset) else None

    def _media_resolver(self) -> MediaResolver:
        return MediaResolver(self.dataset.media, self.media_root)

    @cached_property
    def media_root(self) -> Path | None:
        """The folder relative media paths resolve against: ``media.root``, else the data file's folder."""
        if self.dataset.media.root is not None:
            return self.dataset.media.root
        base_dir = self.dataset.config_path.parent if self.dataset.config_path else None
        with self._where:
            return getattr(self.dataset.loader, "data_dir", lambda _: base_dir)(base_dir)

    # -- data, retrieved once ---------------------------------------------------
    @cached_property
    def _splits(self) -> tuple[Sequence[Row], Sequence[Row]]:
        with self._where:
            base_dir = self.dataset.config_path.parent if self.dataset.config_path else None
            with reporting(self.progress):
                splits = self.dataset.loader.load(base_dir)
            reader = self.dataset.reader
            pool = apply_range(splits.get(reader.train_split), reader.train_range, "reader_cfg.train_range")
            test = apply_range(splits.get(reader.test_split), reader.test_range, "reader_cfg.test_range")
            if not test:
                raise DatasetError(f"the test split {reader.test_split!r} has no rows; check the data file and reader_cfg.test_range")
            reader.check_schema(splits.schema(reader.test_split), reader.test_split)
            reader.check_columns(test, reader.test_split)
            if pool is not test and self.dataset.retriever.ice_num > 0:  # a retriever of no shots (ZeroRetriever) reads no pool row
                reader.check_schema(splits.schema(reader.train_split), reader.train_split)
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
        """The shots picked for each test row (none when the inferencer uses no shots)."""
        if not self.inferencer.uses_shots:
            return [[] for _ in self.test_rows]
        with self._where, reporting(self.progress):
            return self.dataset.retriever.retrieve(self.pool, self.test_rows, self.dataset.reader)

    @cached_property
    def _shots(self) -> ShotRenderer | None:
        if self.dataset.ice_template is None or not self.inferencer.uses_shots:
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
        """The candidate labels of ppl mode, in order (see :meth:`PPLInferencer.candidate_labels`)."""
        inferencer = self.inferencer if isinstance(self.inferencer, PPLInferencer) else _DERIVED_LABELS
        with self._where:
            return inferencer.candidate_labels(self.template, self.test_rows, self.output_column)

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

    def _check_tokens(self, prompts: list[RenderedPrompt], hits: tuple[TokenHit, ...]) -> None:
        """Record the tokens escaped in each prompt ('escape'), or refuse them ('error'); hits are the row's own."""
        shot_hits = self._pool_hits
        if not hits and not shot_hits:
            return
        guard = self._guard
        assert guard is not None
        for prompt in prompts:
            found = [*hits, *(hit for i in prompt.ice_idx for hit in shot_hits.get(i, ()))]
            present = guard.escaped_in(prompt.prompt) if found else []
            if not present:
                continue
            if guard.policy == "error":
                raise guard.refuse(found, present)
            prompt.escaped_tokens = present

    # -- rendering ----------------------------------------------------------------
    def __iter__(self) -> Iterator[RenderedPrompt]:
        rows, ice_indices = self.test_rows, self.ice_indices
        with task(f"rendering {self.dataset.abbr}", len(rows), "rows", self.progress) as advance:
            for index, row in enumerate(rows):
                yield from self._render(row, index, ice_indices[index])
                advance(1)
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

    def render_row(self, row: Row) -> list[RenderedPrompt]:
        """Prompts for a row that is not in the test split (index ``-1``); shots picked for it now."""
        with self._where:
            self.dataset.reader.check_columns([row], "given row")
            ice_idx = self.dataset.retriever.retrieve(self.pool, [row], self.dataset.reader)[0]
        return self._render(row, -1, ice_idx)

    def _row(self, index: int) -> Row:
        rows = self.test_rows
        if 0 <= index < len(rows):
            return rows[index]
        with self._where:
            raise ConfigError(f"index {index} is out of range: the test split has {len(rows)} rows (0 to {len(rows) - 1})", key="index")

    # -- dialogues --------------------------------------------------------------------
    def count_turns(self, index: int) -> int:
        """How many prompts a conversation over test row ``index`` has: its turns (1 unless the template is multi-turn)."""
        row = self._row(index)
        if self.mode != "gen":
            with self._where:
                raise ConfigError("conversations are for generation; this dataset renders for likelihood (ppl)")
        if self._dialogue is None:
            return 1
        with self._where.at(index):
            return self._dialogue.conversation_length(self._dialogue.template.count_turns(row))

    def conversation(self, index: int) -> Conversation:
        """Test row ``index`` as a :class:`~promptkit.Conversation`: next_prompt() / add_reply(text), turn by turn."""
        return Conversation(self, index)

    def render_turn(self, index: int, turn: int, replies: Sequence[str] = ()) -> RenderedPrompt:
        """The prompt of ``turn`` of test row ``index``; ``replies`` are the model's earlier replies (``every`` mode)."""
        row = self._row(index)
        with self._where:
            if self._dialogue is not None:
                turns = self._dialogue.turn(turn, replies)
            elif turn != 0:
                raise ConfigError(f"turn {turn}: this dataset's template is not multi-turn, so each row has one prompt (turn 0)")
            else:
                turns = None
        return self._render(row, index, self.ice_indices[index], turns)[0]

    def _plan(self, dialogue: Dialogue, row: Row, index: int) -> Turns:
        """The turns a row renders: the template counts them (its errors name the row), the dialogue picks them."""
        with self._where.at(index):
            count = dialogue.template.count_turns(row)
        with self._where:
            return dialogue.turns(index, count, self.replies)

    # -- one row's prompts ------------------------------------------------------------
    def _render(self, row: Row, index: int, ice_idx: Sequence[int], turns: Turns | None = None) -> list[RenderedPrompt]:
        """The prompts of one row (``index`` -1: a row outside the test split): one in gen mode, one per label in ppl
        mode, then the dataset's calibration prompts; or one per dialogue turn (``turns``, else those the infer_mode renders).

        This is where a row's errors get their location (config, dataset, model, row, label): one handler around the
        row's work, free until something raises, where a ``with`` block would cost a tenth of a simple prompt.
        """
        if turns is None and self._straight is not None:
            return self._straight(row, index, ice_idx)
        if self._refusal is not None:
            raise self._refusal
        dialogue = self._dialogue
        if dialogue is not None and turns is None:
            turns = self._plan(dialogue, row, index)
        guard = self._guard
        labels = self.labels if self.inferencer.scores_labels else None
        label: Hashable | None = None
        try:
            # Row text goes through the model's guard before any template sees it (promptkit.control_tokens).
            hits: tuple[TokenHit, ...] = ()
            if guard is not None:
                row, hits = guard.guard_row(row)
            if turns is not None:
                assert dialogue is not None
                numbers, replies = turns
                if guard is not None and replies:
                    replies, reply_hits = guard.guard_texts(replies, "replies")
                    hits += reply_hits
                out: list[RenderedPrompt] = []
                for number in numbers:
                    rendered, shots, over = self._fit(row, list(ice_idx), None, (number, replies))
                    turn = number if dialogue.numbered else None
                    out.append(self._prompt(index, "gen", rendered, shots, None, turn, None, len(shots) < len(ice_idx), over))
                    if guard is not None:
                        self._check_tokens(out[-1:], hits)  # turn by turn: a refused turn is reported before the next renders
                return out
            request = self._request(row)
            if labels is None:
                rendered, shots, over = self._fit(row, list(ice_idx), None)
                out = [self._prompt(index, self.mode, rendered, shots, None, None, request, len(shots) < len(ice_idx), over)]
            else:
                # Every label of a row is scored with the same shots: the fewest that every label's prompt fits with.
                shots = list(ice_idx)
                out = []
                for label in labels:
                    rendered, shots, over = self._fit(row, shots, label)
                    out.append(self._prompt(index, "ppl", rendered, shots, label, None, request, len(shots) < len(ice_idx), over))
                if len(shots) < len(ice_idx):
                    # A label fitted with more shots than the row ends with is shorter with fewer: it still fits.
                    for k, prompt in enumerate(out):
                        if len(prompt.ice_idx) != len(shots):
                            label = prompt.label
                            out[k] = self._prompt(index, "ppl", self._render_once(row, shots, label), shots, label, None, request, True, prompt.over_limit)
                label = None
            calib = self._calib_row(row) if self._calib_row is not None else None
            if calib is not None:
                # The row's unconditioned form, with the same shots (one per label in ppl mode).
                for label in labels if labels is not None else (None,):
                    out.append(self._prompt(index, "calib", self._render_once(calib, shots, label), shots, label, None, request, False, False))
                label = None
            if guard is not None:
                self._check_tokens(out, hits)
            return out
        except PromptkitError as error:
            raise self._where.attach(error, index, label) from None

    @cached_property
    def _straight(self) -> Callable[[Row, int, Sequence[int]], list[RenderedPrompt]] | None:
        """:meth:`_render` of a row for a dataset with nothing between template and model: no dialogue, shots to fit,
        media or calibration prompts (``None`` otherwise).  The same prompts and errors, in one function: the rows of
        such a dataset (most of them) cost a template render, a model render and a record, without the general
        path's dispatch (a fifth of a simple prompt's render).
        """
        if self._refusal is not None or self._dialogue is not None:
            return None
        guard, labels = self._guard, self.labels if self.inferencer.scores_labels else None  # in _render's order
        if self._fitter is not None or self._media is not None or self._collects_media or self._calib_row is not None:
            return None
        mode, masked, mask = self.mode, self.output_column, self._mask_value
        ice_of, template_render, prompt_of, request_of, attach = self._ice, self.template.render, self._prompt, self._request, self._where.attach
        final_of: Callable[[Prompt], FinalInput]
        if self._chat_messages is not None:
            final_of = self._chat_messages
        else:
            model_render = self._final_model.render

            def final_of(prompt: Prompt) -> FinalInput:
                return model_render(prompt, mode)

        def render(row: Row, index: int, ice_idx: Sequence[int]) -> list[RenderedPrompt]:
            label: Hashable | None = None
            try:
                hits: tuple[TokenHit, ...] = ()
                if guard is not None:
                    row, hits = guard.guard_row(row)
                request = request_of(row)
                shots = list(ice_idx)
                if labels is None:
                    prompt = template_render(row, ice_of(shots), label=None, masked=masked, mask_value=mask)
                    out = [prompt_of(index, mode, (prompt, final_of(prompt), None), shots, None, None, request, False, False)]
                else:
                    out = []
                    for label in labels:
                        prompt = template_render(row, ice_of(shots), label=label, masked=masked, mask_value=str(label))
                        out.append(prompt_of(index, "ppl", (prompt, final_of(prompt), None), shots, label, None, request, False, False))
                    label = None
                if guard is not None:
                    self._check_tokens(out, hits)
                return out
            except PromptkitError as error:
                raise attach(error, index, label) from None

        return render

    def _request(self, row: Row) -> dict[str, Any] | None:
        """What the row's requests carry besides the prompt: the inferencer's fields, then the dataset's."""
        fields = self.inferencer.request_fields(row, self.test_rows)
        if self._request_fields is None:
            return fields
        dataset = self._request_fields(row, self._final_model.kind)
        return dataset if fields is None else {**fields, **(dataset or {})}

    def _prompt(
        self,
        index: int,
        mode: str,
        rendered: Rendered,
        shots: list[int],
        label: Hashable | None,
        turn: int | None,
        request: dict[str, Any] | None,
        truncated: bool,
        over_limit: bool,
    ) -> RenderedPrompt:
        """The one place a :class:`RenderedPrompt` is built; a test row over ``max_seq_len`` is noted for :meth:`report`.

        Callers pass every argument in order, and fields at their defaults are not passed on: calling a class by
        keyword costs about 25 ns a keyword, a tenth of a simple prompt's render for all thirteen.
        """
        intermediate, final, media = rendered
        prompt = RenderedPrompt(
            dataset=self.dataset.abbr, model=self._model_abbr, index=index, mode=mode, prompt=final, ice_idx=shots, intermediate=intermediate
        )
        if label is not None:
            prompt.label = label
        if turn is not None:
            prompt.turn = turn
        if media is not None:
            prompt.media = media
        if request is not None:
            prompt.request = request
        if truncated:
            prompt.truncated = True
        if over_limit:
            prompt.over_limit = True
            if index >= 0:
                self._over_limit[index] = None
        return prompt

    # -- fitting max_seq_len ------------------------------------------------------------
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
        return ShotFitter(self.max_seq_len - self.inferencer.reserved_tokens, self._shot_tokens, additive)

    def token_segments(self, prompt: RenderedPrompt) -> TokenSegments | None:
        """Tokens of a rendered prompt: total, system, each shot, the rest (None without a token counter)."""
        if self.token_counter is None:
            return None
        shot_tokens = self._shot_tokens
        per_shot = [shot_tokens(i) for i in prompt.ice_idx] if shot_tokens is not None else []
        return token_segments(prompt.intermediate, prompt.prompt, per_shot, self.token_counter)

    def _fit(self, row: Row, ice_idx: list[int], label: Hashable | None, turn: Turn | None = None) -> tuple[Rendered, list[int], bool]:
        """Render with the longest prefix of ``ice_idx`` that fits ``max_seq_len`` (OpenCompass's drop-last-shot result):
        the render, the shots kept, and whether the prompt is over the limit even so."""
        if self._fitter is None:
            return self._render_once(row, ice_idx, label, turn), ice_idx, False
        self._check_shots(ice_idx)
        fitted = self._fitter.fit(ice_idx, lambda shots: self._render_once(row, shots, label, turn))
        intermediate, final, media = fitted.rendered
        return (intermediate, final, media), fitted.shots, fitted.over_limit

    # -- one render: template, media, meta template -----------------------------------
    def _render_once(self, row: Row, ice_idx: list[int], label: Hashable | None, turn: Turn | None = None) -> Rendered:
        ice = self._ice(ice_idx)
        # The item under test never shows its gold answer: gen renders the replacement token, ppl the candidate label.
        mask_value = self._mask_value if label is None else str(label)
        prompt: Prompt
        if turn is None:
            prompt = self.template.render(row, ice, label=label, masked=self.output_column, mask_value=mask_value)
        else:
            assert self._dialogue is not None  # turns are the dialogue's
            prompt = self._dialogue.template.render_turn(row, turn[0], ice, masked=self.output_column, mask_value=mask_value, replies=turn[1])
        if self._media is not None and isinstance(prompt, PromptList):  # a multimodal template renders a PromptList
            prompt = self._media.apply(prompt)
        if self._chat_messages is not None:
            return prompt, self._chat_messages(prompt), None
        if self._collects_media:
            final, media = self._final_model.render_with_media(prompt, self.mode)
            return prompt, final, media
        return prompt, self._final_model.render(prompt, self.mode), None

    def _ice(self, ice_idx: list[int]) -> Prompt:
        if ice_idx:
            self._check_shots(ice_idx)
        if self._shots is None:
            # OpenCompass's inferencers that use no shots pass an empty ice.
            return self.dataset.retriever.ice_eos_token if self.inferencer.uses_shots else ""
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


class _Where:
    """Where a renderer is (config file, dataset, model; ``row`` for :meth:`at`), added to each promptkit error raised
    inside ``with where:``, or given to :meth:`attach` by the one handler around a row's work."""

    __slots__ = ("context", "row")

    def __init__(self, context: dict[str, Any], row: int | None = None) -> None:
        self.context = context
        self.row = row

    def at(self, row: int) -> _Where:
        """The same place, at test row ``row``."""
        return _Where(self.context, row)

    def attach(self, error: PromptkitError, row: int | None = None, label: Hashable | None = None) -> PromptkitError:
        """``error`` with where it happened filled in (what its raiser knew wins); row ``-1``, outside the test split, is not named."""
        return error.add_context(row=row if row is not None and row >= 0 else None, label=label, **self.context)

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> None:
        if isinstance(exc, PromptkitError):
            self.attach(exc, self.row)
