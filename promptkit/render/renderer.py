"""The renderer: runs a dataset's render plan for one model — load, retrieve, then per prompt spec template → model →
record.

:class:`Renderer` is the engine behind both the CLI and runners: build it once per dataset × model (the plan is
compiled, rows loaded and shots picked once), then iterate prompts lazily or render one row on demand.  It holds no
stage logic: the plan (:class:`~promptkit.plan.plan.Plan`) says what each row becomes and renders it, the split
(:class:`~promptkit.render.rows.SplitRows`) loads rows and picks shots, the record maker
(:class:`~promptkit.records.maker.RecordMaker`) builds each record.

Usage (docs/api.md has a runnable runner loop)::

    renderer = Renderer(load_datasets("configs/datasets/mmlu_demo/mmlu_demo_gen.py")[0],
                        load_models("configs/models/llama3_8b_instruct.py")[0])
    for p in renderer:
        send(p.prompt)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from promptkit.controls import Controls
from promptkit.data.progress import Progress, task
from promptkit.errors import ConfigError, PromptkitError
from promptkit.meta_templates import TokenCounter
from promptkit.meta_templates.protocol import Model
from promptkit.plan.dataset import DatasetSpec
from promptkit.plan.dialogue import Turns
from promptkit.plan.fitting import TokenSegments
from promptkit.plan.plan import Plan
from promptkit.records.fingerprints import Sources
from promptkit.records.maker import OverLimitRows, RecordMaker
from promptkit.records.record import RecordContext, RenderedPrompt
from promptkit.records.requests import bos_tokens, request_settings
from promptkit.records.views import PromptViews
from promptkit.render.batch import BATCH_ROWS, RowRenderer
from promptkit.render.conversation import Conversation
from promptkit.render.rows import RowWithShots, SplitRows
from promptkit.render.where import Where
from promptkit.types import Row

__all__ = ["Renderer"]


class _Attribute:
    """A renderer attribute that is another stage's: ``labels = _Attribute("plan", "labels")``."""

    def __init__(self, owner: str, name: str, doc: str) -> None:
        self.owner, self.name, self.__doc__ = owner, name, doc

    def __get__(self, renderer: Any, kind: Any = None) -> Any:
        if renderer is None:
            return self
        with renderer._where:  # loading rows or finding labels may fail: the error names the dataset
            return getattr(getattr(renderer, self.owner), self.name)


class Renderer:
    """Renders the prompts of one dataset for one model (see the module docstring).

    ``model=None`` is a completion model with no meta template.  ``token_counter`` (``str -> int``) enforces
    ``max_seq_len`` by dropping shots from the end; it defaults to the model config's ``token_counter``.
    ``replies`` (test row index → the model's replies, in turn order) feed the history of ``infer_mode='every'``
    dialogues; :meth:`conversation` is the interactive way to the same prompts.  ``controls`` are the run's level of
    the prompt controls (:mod:`promptkit.controls`), over the model's and the dataset's.  ``tokenizer`` (a
    tokenizer.json path, an ``HFTokenizer``, a ``tokenizers`` or transformers fast tokenizer) gives each prompt its
    token view (``tokens``: :mod:`promptkit.records.token_view`); a chat API model has none and is refused.
    """

    pool = _Attribute("rows", "pool", "The rows shots are picked from (the train split).")
    test_rows = _Attribute("rows", "test", "The test split.")
    ice_indices = _Attribute("rows", "ice_indices", "The shots picked for each test row.")
    labels = _Attribute("plan", "labels", "The candidate labels of ppl mode, in order.")
    media_root = _Attribute("plan", "media_root", "The folder relative media paths resolve against.")

    def __init__(
        self,
        dataset: DatasetSpec,
        model: Model | None = None,
        token_counter: TokenCounter | None = None,
        replies: Mapping[int, Sequence[str]] | None = None,
        progress: Progress | None = None,
        controls: Controls | None = None,
        tokenizer: Any = None,
    ) -> None:
        self.dataset = dataset
        self.model = model
        self.replies = replies
        self.inferencer = dataset.inferencer
        self.mode = self.inferencer.mode
        self.output_column = dataset.reader.output_column
        config = dataset.config_path
        self._where = Where(dict(config=str(config) if config else None, dataset=dataset.abbr, model=model.abbr if model is not None else None))
        #: Loads the splits and picks the shots (``promptkit.render.rows``).
        self.rows = SplitRows(dataset, self.inferencer.uses_shots, progress)
        self.streaming = self.rows.streaming
        with self._where:
            #: What each row becomes, and the stages that render it (``promptkit.plan``).
            self.plan = Plan(dataset, model, self.rows, controls=controls, token_counter=token_counter, replies=replies)
            self.views = PromptViews(self.plan, tokenizer)
            settings = request_settings(model, self.inferencer)
        plan = self.plan
        self.controls, self.template, self.infer_mode = plan.controls, plan.template, plan.infer_mode
        self.max_seq_len, self.token_counter = plan.max_seq_len, plan.token_counter
        if plan.refusal is not None:
            self._where.attach(plan.refusal)
        context = RecordContext(dataset.abbr, model.abbr if model is not None else None, Sources(plan.template, dataset.ice_template, model), plan.overrides)
        self.records = RecordMaker(context, settings, bos_tokens(plan.model), self.output_column, plan.output)
        where = f"dataset {dataset.abbr!r}" + (f", model {model.abbr!r}" if model is not None else "")
        #: Test rows whose prompt is over max_seq_len with no shot left to drop, for one warning (:meth:`report`).
        self.over_limit = OverLimitRows(where, self.max_seq_len)
        #: Renders the rows, a batch at a time (``promptkit.render.batch``).
        self._batches = RowRenderer(plan, self.records, self.views, self.over_limit, self._where, replies)
        self._prepared = False

    @property
    def progress(self) -> Progress | None:
        """Receives progress of loading, indexing and rendering (see :mod:`promptkit.data.progress`)."""
        return self.rows.progress

    def __len__(self) -> int:
        return len(self.test_rows)

    def prepare(self) -> None:
        """Do now what a renderer does once: read the pool (and the test split, unless it streams), pick the shots
        (unless they are picked as rows stream), find the ppl labels, check the rows' control tokens.

        Rendering does it when first needed; call this to have it done before (its progress then is not counted as
        rendering), or before forking workers that should not each do it (:func:`promptkit.render_parallel`).
        """
        with self._where:
            self.test_rows  # noqa: B018 (cached)
            if not self.streaming:
                self.ice_indices  # noqa: B018 (cached)
            if self.plan.refusal is not None:
                return  # rendering raises it; nothing more is worth preparing
            if self.inferencer.scores_labels:
                self.labels  # noqa: B018 (cached)
            self.plan.guard  # noqa: B018 (cached)
            self.plan.composer  # noqa: B018 (cached)
            self.plan.fitter  # noqa: B018 (cached)
        self._prepared = True

    # -- iterating ------------------------------------------------------------------------
    def __iter__(self) -> Iterator[RenderedPrompt]:
        return self.prompts()

    def prompts(self, indices: Sequence[int] | None = None) -> Iterator[RenderedPrompt]:
        """The prompts of every test row (or of ``indices``), in order, rendered as they are asked for; a streaming
        renderer reads each row as it gets to it. Reports the rows over ``max_seq_len`` at the end (:meth:`report`)."""
        for prompts in self.prompts_by_row(indices):
            yield from prompts

    def prompts_by_row(self, indices: Sequence[int] | None = None) -> Iterator[list[RenderedPrompt]]:
        """As :meth:`prompts`, a test row's prompts at a time (a row's ppl labels, dialogue turns, calibration)."""
        if not self.streaming:
            self.ice_indices  # noqa: B018 (shots picked before rendering starts, with their own progress)
        total = (len(self) if indices is None else len(indices)) if self.progress is not None else None
        with task(f"rendering {self.dataset.abbr}", total, "rows", self.progress) as advance:
            for _, prompts in self.render_rows(self.rows_with_shots(indices)):
                yield prompts
                advance(1)
        self.report()

    def render_rows(self, rows: Iterable[RowWithShots], turns: Turns | None = None) -> Iterator[tuple[int, list[RenderedPrompt]]]:
        """Each row's index and prompts, rendered :data:`~promptkit.render.batch.BATCH_ROWS` rows at a time, stage by
        stage (:mod:`promptkit.render.batch`); the rows before one that cannot be read or rendered are handed on, then
        its error is raised.  ``turns``: the dialogue turns to render (of one row), else those each row's infer_mode renders."""
        plan = self.plan
        if not self._prepared:  # (a plan that refuses is never prepared)
            if plan.refusal is not None:
                raise plan.refusal
            self.prepare()  # the once-per-renderer work, whose errors name no row
        rows = iter(rows)
        while True:
            batch: list[RowWithShots] = []
            unread: Exception | None = None
            try:
                for item in rows:
                    batch.append(item)
                    if len(batch) == BATCH_ROWS:
                        break
            except Exception as error:  # a row that cannot be read: the rows before it are rendered first
                unread = error
            done, failure = self._batches.render(batch, turns)
            yield from done
            if failure is not None:
                raise failure
            if unread is not None:
                raise unread
            if len(batch) < BATCH_ROWS:
                return

    def rows_with_shots(self, indices: Iterable[int] | None = None) -> Iterator[RowWithShots]:
        """Each test row to render (all, or ``indices``) with its index and shots, read as they are asked for: a
        streaming renderer reads the rows and picks their shots :data:`~promptkit.render.rows.STREAM_CHUNK` at a time."""
        try:
            yield from self.rows.with_shots(indices)
        except PromptkitError as error:
            raise self._where.attach(error) from None

    def report(self) -> None:
        """Log one warning for the rows rendered since the last report whose prompt is over ``max_seq_len`` with no
        shot left to drop (iterating the renderer reports at the end; callers of :meth:`render` call this when done)."""
        self.over_limit.report()

    # -- one row ----------------------------------------------------------------------------
    def render(self, index: int, row: Row | None = None) -> list[RenderedPrompt]:
        """The prompts of test row ``index``: one in gen mode, one per label in ppl mode, one per turn of a dialogue;
        ``row``: a copy of the row that travelled (a Ray worker's), rendered with the shots picked for ``index``."""
        with self._where:
            loaded = self.rows.row(index)
            shots = self.rows.shots_of(index, loaded)
        return self.render_with_shots(index, loaded if row is None else row, shots)

    def render_given(self, index: int, row: Row) -> list[RenderedPrompt]:
        """The prompts of test row ``index`` rendered from ``row``, a copy of it that travelled (a Ray worker's row)."""
        return self.render(index, row)

    def render_row(self, row: Row) -> list[RenderedPrompt]:
        """Prompts for a row that is not in the test split (index ``-1``); shots picked for it now."""
        with self._where:
            self.dataset.reader.check_columns([row], "given row")
            shots = self.rows.retrieve([row])[0]
        return self.render_with_shots(-1, row, shots)

    def render_with_shots(self, index: int, row: Row, ice_idx: Sequence[int], turns: Turns | None = None) -> list[RenderedPrompt]:
        """The prompts of test row ``index`` (``-1``: a row outside the test split) given the row and its shots: one
        per prompt spec of the plan (``turns``: the dialogue turns to render, else those its infer_mode renders): a batch
        of one row (:meth:`render_rows`), rendered straight away."""
        plan = self.plan
        if not self._prepared:  # (as render_rows)
            if plan.refusal is not None:
                raise plan.refusal
            self.prepare()
        done, failure = self._batches.render([(index, row, ice_idx)], turns)
        if failure is not None:
            raise failure
        return done[0][1]

    def note_over_limit(self, indices: Iterable[int]) -> None:
        """Test rows rendered elsewhere (a worker process) whose prompt is over ``max_seq_len``, for :meth:`report`."""
        self.over_limit.note(indices)

    # -- dialogues --------------------------------------------------------------------------
    def count_turns(self, index: int) -> int:
        """How many prompts a conversation over test row ``index`` has: its turns (1 unless the template is multi-turn)."""
        with self._where:
            row = self.rows.row(index)
            if self.mode != "gen":
                raise ConfigError("conversations are for generation; this dataset renders for likelihood (ppl)")
        dialogue = self.plan.dialogue
        if dialogue is None:
            return 1
        with self._where.at(index):
            return dialogue.conversation_length(dialogue.template.count_turns(row))

    def conversation(self, index: int) -> Conversation:
        """Test row ``index`` as a :class:`~promptkit.Conversation`: next_prompt() / add_reply(text), turn by turn."""
        return Conversation(self, index)

    def render_turn(self, index: int, turn: int, replies: Sequence[str] = ()) -> RenderedPrompt:
        """The prompt of ``turn`` of test row ``index``; ``replies`` are the model's earlier replies (``every`` mode)."""
        with self._where:
            row = self.rows.row(index)
            shots = self.rows.shots_of(index, row)
            dialogue = self.plan.dialogue
            if dialogue is not None:
                turns = dialogue.turn(turn, replies)
            elif turn != 0:
                raise ConfigError(f"turn {turn}: this dataset's template is not multi-turn, so each row has one prompt (turn 0)")
            else:
                turns = None
        return self.render_with_shots(index, row, shots, turns)[0]

    # -- what a prompt is made of -------------------------------------------------------------
    def spans(self, prompt: RenderedPrompt, row_prompts: Sequence[RenderedPrompt] = ()) -> list[Any]:
        """Where each piece of ``prompt`` sits in its final input (``row_prompts``: the prompts of its row, which name a
        string ppl prompt's answer slot); see :mod:`promptkit.meta_templates.spans`."""
        try:
            return self.views.spans(prompt, row_prompts)
        except PromptkitError as error:
            raise self._where.attach(error, prompt.index, prompt.label) from None

    def token_segments(self, prompt: RenderedPrompt) -> TokenSegments | None:
        """Tokens of a rendered prompt: total, system, each shot, the rest (None without a token counter)."""
        return self.views.token_segments(prompt)
