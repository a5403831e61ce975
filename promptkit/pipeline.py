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
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from promptkit.config.loader import DatasetSpec
from promptkit.control_tokens import GuardedRows, TokenGuard, TokenHit, summary
from promptkit.controls import Controls
from promptkit.conversation import Conversation
from promptkit.data.hooks import CalibratedDataset, PermutedDataset, RequestFieldsDataset
from promptkit.data.progress import Progress, reporting, task
from promptkit.data.protocol import StreamingDataset
from promptkit.data.reader import apply_range
from promptkit.data.streaming import FileRows
from promptkit.dialogue import Dialogue, Turns, dialogue_for
from promptkit.errors import ConfigError, DatasetError, PromptkitError, TemplateError
from promptkit.fingerprints import Sources, fingerprint
from promptkit.fitting import ShotFitter, ShotTokens, TokenSegments, token_segments
from promptkit.generation import bos_tokens, request_settings
from promptkit.inferencers import GenInferencer, PPLInferencer
from promptkit.layout import ShotLayout, with_system_prompt
from promptkit.media.policy import MediaResolver
from promptkit.meta_templates import ChatModel, ChatTemplateModel, CompletionModel, FinalInput, Model, TokenCounter
from promptkit.meta_templates.conformance import chat_template_twin
from promptkit.meta_templates.controlled import ControlledOutput
from promptkit.meta_templates.spans import Span
from promptkit.prompt_tokens import PromptViews, refuse_token_view
from promptkit.promptlist import PromptList, RoleItem
from promptkit.shots import ShotRenderer
from promptkit.templates.prompt_template import Prompt
from promptkit.templates.protocol import ChatMessagesTemplate, Template
from promptkit.token_view import TokenEncoder, TokenView, token_encoder

__all__ = ["RenderedPrompt", "Renderer"]

logger = logging.getLogger(__name__)

#: How many rows over max_seq_len the warning names.
_ROWS_SHOWN = 5
#: How many streamed test rows are read (and their shots picked) at a time: the fixed buffer of a streaming run.
STREAM_CHUNK = 256

Row = Mapping[str, Any]
#: A turn of a dialogue to render: its number, and the model's earlier replies (``None``: the ground truth).
Turn = tuple[int, Sequence[str] | None]
Media = list[dict[str, Any]] | None
#: A test row to render: its index, the row, its shots.
RowWithShots = tuple[int, Row, Sequence[int]]
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
    #: Fields the record carries at top level, from the inferencer (``continuation``, ``choices``, ``label_spans``,
    #: ``sc_size``) and the dataset (``tools``, ``tool_choice``: these are also in :attr:`request`).
    request_fields: dict[str, Any] | None = None
    #: Whether shots were dropped to fit ``max_seq_len`` (``ice_idx`` holds the ones kept).
    truncated: bool = False
    #: Whether the prompt is longer than ``max_seq_len`` even with no shots (written as it is; the record says so).
    over_limit: bool = False
    #: Control tokens of the model that row text held and that were escaped in ``prompt`` (``special_token_policy='escape'``).
    escaped_tokens: list[str] | None = None
    #: The run-time overrides and run controls that shaped the prompt, as ``key=value`` lines (``None``: none).
    overrides: list[str] | None = None
    #: The final input as tokens (``Renderer(tokenizer=...)``): ids, each token's piece, the loss mask, the junction.
    tokens: TokenView | None = None
    #: The prompt's stable id: ``<dataset>/<reader_cfg.id_column value or index>``, then ``/<label>`` (ppl),
    #: ``/turn<k>`` (numbered dialogue turns), ``/calib`` (calibration prompts); unique within a dataset's prompts.
    id: str = ""
    #: The answer the prompt is scored against: the row's output column (a dialogue turn: that turn's element).
    gold: Any = None
    #: What an engine request carries besides the prompt (:mod:`promptkit.generation`): ``model``, ``max_tokens``,
    #: ``stop``, sampling, ``n``; ``add_special_tokens`` for completion strings; the dataset's ``tools``/``tool_choice``.
    #: Shared by the prompts of a renderer: read-only.
    request: Mapping[str, Any] | None = None
    #: The test row the prompt was rendered from, as loaded (before the control-token guard).
    row: Row | None = field(default=None, repr=False)
    #: The hashes the prompts of a renderer share (:class:`~promptkit.fingerprints.Sources`), for :attr:`provenance`.
    sources: Sources | None = field(default=None, repr=False, compare=False)

    @property
    def fingerprint(self) -> str:
        """The hash of the final input (and its media), see :mod:`promptkit.fingerprints`."""
        return fingerprint(self.prompt, self.media)

    @property
    def provenance(self) -> dict[str, str | None] | None:
        """Hashes of what the prompt was made from: template, meta template, chat template, tokenizer, shots, row."""
        return self.sources.provenance(self.ice_idx, self.row) if self.sources is not None else None
    #: The order of the row's options under circular evaluation (e.g. ``'BCDA'``: the text of option A shown as B …).
    permutation: str | None = None

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
        if self.permutation is not None:
            record["permutation"] = self.permutation
        if self.request_fields:
            record.update(self.request_fields)
        record["id"] = self.id
        record["gold"] = self.gold
        record["request"] = dict(self.request) if self.request is not None else None
        record["fingerprint"] = fingerprint(self.prompt, self.media)
        provenance: dict[str, Any] | None = self.sources.provenance(self.ice_idx, self.row) if self.sources is not None else None
        if self.overrides and provenance is not None:
            provenance["overrides"] = self.overrides
        record["provenance"] = provenance
        if self.tokens is not None:
            record.update(self.tokens.dump())
        return record


class Renderer:
    """Renders the prompts of one dataset for one model (see the module docstring).

    ``model=None`` is a completion model with no meta template.
    ``token_counter`` (``str -> int``) enforces ``max_seq_len`` by dropping
    shots from the end; it defaults to the model config's ``token_counter``.
    ``replies`` (test row index → the model's replies, in turn order) feed the
    history of ``infer_mode='every'`` dialogues; :meth:`conversation` is the
    interactive way to the same prompts.  ``controls`` are the run's level of the
    prompt controls (:mod:`promptkit.controls`), over the model's and the dataset's.
    ``tokenizer`` (a tokenizer.json path, an ``HFTokenizer``, a ``tokenizers`` or transformers fast tokenizer) gives
    each prompt its token view (``tokens``: :mod:`promptkit.token_view`); a chat
    API model has none and is refused.

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
        controls: Controls | None = None,
        tokenizer: Any = None,
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
        #: The prompt controls in force: the model's, then the dataset's, then the run's (see promptkit.controls).
        self.controls = Controls.merge(getattr(model, "controls", None), dataset.controls, controls)
        self._overrides = [*dataset.overrides, *(controls.describe() if controls is not None else ())] or None
        with self._where:
            # The inferencer picks the template (OpenCompass's rule: the prompt_template, else the ice_template).
            template = self.inferencer.select_template(dataset.prompt_template, dataset.ice_template, dataset.reader)
            self._layout = ShotLayout(self.controls.layout, template, dataset.ice_template, self.output_column)
            template = self._layout.template
            self._dialogue: Dialogue | None = dialogue_for(template, self.inferencer)
        self._ice_template = self._layout.ice_template
        self._system_prompt = self.controls.system_prompt
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
        # The final input under the controls (prefill, chat-template kwargs, thinking); None: the model's own render.
        self._output: ControlledOutput | None = None
        prefill = getattr(self.inferencer, "prefill", False)
        gen_prefix = getattr(self.inferencer, "gen_prefix", None)
        if ControlledOutput.needed(self.controls, prefill, gen_prefix):
            with self._where:
                self._output = ControlledOutput(self._final_model, self.mode, self.controls, prefill=prefill, gen_prefix=gen_prefix)
        #: Whether test rows are read as they are rendered: the loader can stream, and a row's shots need no other test row.
        self.streaming = isinstance(loader, StreamingDataset) and (dataset.retriever.streams_rows or not self.inferencer.uses_shots)
        self._encoder: TokenEncoder | None = None
        if tokenizer is not None:
            with self._where:
                refuse_token_view(self._final_model)
                self._encoder = token_encoder(tokenizer)
        with self._where:
            settings = request_settings(model, self.inferencer)
        # The request block of a prompt: chat messages', or a completion string's, whose add_special_tokens says whether
        # the engine should add the tokenizer's BOS (not when the text already starts with it: vLLM would add a second).
        self._blocks = (settings, {**settings, "add_special_tokens": True}, {**settings, "add_special_tokens": False})
        self._bos = bos_tokens(self._final_model)

        self._permutation = loader.permutation if isinstance(loader, PermutedDataset) else None
        #: The prompts' tools: a chat model's request fields (and, with no model, the record's), else written by a chat template.
        self._tools = dataset.tools
        self._tools_in_request = dataset.tools is not None and (model is None or self._final_model.kind == "chat")

    @cached_property
    def _views(self) -> PromptViews:
        shots = self._shots
        return PromptViews(self._final_model, self.mode, shots.pieces if shots is not None else None, self._encoder)

    def spans(self, prompt: RenderedPrompt, row_prompts: Sequence[RenderedPrompt] = ()) -> list[Span]:
        """Where each piece of ``prompt`` sits in its final input (``row_prompts``: the prompts of its row, which name a
        string ppl prompt's answer slot); see :mod:`promptkit.meta_templates.spans`."""
        try:
            return self._views.spans(prompt, row_prompts)
        except PromptkitError as error:
            raise self._where.attach(error, prompt.index, prompt.label) from None

    def __getstate__(self) -> dict[str, Any]:
        # A pickled renderer (a worker's copy) carries its loaded rows and picked shots; progress reports stay with the caller.
        # The straight path is a closure (it does not pickle): the copy builds its own when it first renders.
        state = {**self.__dict__, "progress": None}
        state.pop("_straight", None)
        return state

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
                loader = self.dataset.loader
                splits = loader.stream(base_dir) if isinstance(loader, StreamingDataset) and self.streaming else loader.load(base_dir)
            reader = self.dataset.reader
            pool = apply_range(splits.get(reader.train_split), reader.train_range, "reader_cfg.train_range")
            test = apply_range(splits.get(reader.test_split), reader.test_range, "reader_cfg.test_range")
            if _empty(test):
                raise DatasetError(f"the test split {reader.test_split!r} has no rows; check the data file and reader_cfg.test_range")
            reader.check_schema(splits.schema(reader.test_split), reader.test_split)
            if not isinstance(test, FileRows):  # streamed rows are checked as they are read (rows_with_shots)
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
        """The shots picked for each test row (none when the inferencer uses no shots); a streaming renderer picks
        them as rows are read instead, and builds this list only when asked."""
        return self._retrieve(self.test_rows)

    def _retrieve(self, rows: Sequence[Row]) -> list[list[int]]:
        if not self.inferencer.uses_shots:
            return [[] for _ in rows]
        with self._where, reporting(self.progress):
            return self.dataset.retriever.retrieve(self.pool, rows, self.dataset.reader)

    def _shots_of(self, index: int, row: Row) -> Sequence[int]:
        if self.streaming and "ice_indices" not in self.__dict__:
            return self._retrieve([row])[0]
        return self.ice_indices[index]

    def prepare(self) -> None:
        """Do now what a renderer does once: read the pool (and the test split, unless it streams), pick the shots
        (unless they are picked as rows stream), find the ppl labels, check the rows' control tokens.

        Rendering does it when first needed; call this to have it done before (its progress then is not counted as
        rendering), or before forking workers that should not each do it (:func:`promptkit.render_parallel`).
        """
        self._splits  # noqa: B018 (cached)
        if not self.streaming:
            self.ice_indices  # noqa: B018 (cached)
        if self._refusal is not None:
            return  # rendering raises it; nothing more is worth preparing
        if self.inferencer.scores_labels:
            self.labels  # noqa: B018 (cached)
        self._guard  # noqa: B018 (cached)
        self._shots  # noqa: B018 (cached)
        self._fitter  # noqa: B018 (cached)

    @cached_property
    def _shots(self) -> ShotRenderer | None:
        if self._ice_template is None or not self.inferencer.uses_shots:
            return None
        retriever = self.dataset.retriever
        return ShotRenderer(
            self._ice_template,
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
            for index, row, ice_idx in self.rows_with_shots(indices):
                yield self.render_with_shots(index, row, ice_idx)
                advance(1)
        self.report()

    def rows_with_shots(self, indices: Iterable[int] | None = None) -> Iterator[RowWithShots]:
        """Each test row to render (all, or ``indices``) with its index and shots, read as they are asked for: a
        streaming renderer reads the rows and picks their shots :data:`STREAM_CHUNK` rows at a time."""
        if not self.streaming:
            ice_indices = self.ice_indices
            for index in range(len(self)) if indices is None else indices:
                yield index, self._row(index), ice_indices[index]
            return
        rows = self.test_rows
        numbered: Iterator[tuple[int, Row]]
        if indices is None:
            numbered = enumerate(rows)
        elif isinstance(indices, range) and indices.step == 1 and 0 <= indices.start <= indices.stop <= len(rows):
            numbered = zip(indices, rows[indices.start : indices.stop], strict=True)  # consecutive rows of a file: read in one piece
        else:
            numbered = ((i, self._row(i)) for i in indices)
        reader = self.dataset.reader
        failure: PromptkitError | None = None
        while failure is None:
            chunk: list[tuple[int, Row]] = []
            try:  # a row that cannot be read (it names its file, line and row) ends the run after the rows before it
                for item in numbered:
                    chunk.append(item)
                    if len(chunk) == STREAM_CHUNK:
                        break
            except PromptkitError as error:
                failure = self._where.attach(error)
            if not chunk:
                break
            with self._where:
                for index, row in chunk:
                    reader.check_columns([row], reader.test_split, first=index)
            rows = [row for _, row in chunk]
            for (index, row), ice_idx in zip(chunk, self._retrieve(rows), strict=True):
                yield index, row, ice_idx
        if failure is not None:
            raise failure

    def render_with_shots(self, index: int, row: Row, ice_idx: Sequence[int]) -> list[RenderedPrompt]:
        """The prompts of test row ``index`` given the row and its shots (as :meth:`rows_with_shots` gives them)."""
        return self._render(row, index, ice_idx)

    def note_over_limit(self, indices: Iterable[int]) -> None:
        """Test rows rendered elsewhere (a worker process) whose prompt is over ``max_seq_len``, for :meth:`report`."""
        self._over_limit.update(dict.fromkeys(indices))

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
        row = self._row(index)
        return self.render_with_shots(index, row, self._shots_of(index, row))

    def render_given(self, index: int, row: Row) -> list[RenderedPrompt]:
        """The prompts of test row ``index`` rendered from ``row``, a copy of it that travelled (a Ray worker's row):
        with the shots picked for ``index``, as :meth:`render` would."""
        self._row(index)  # the index is checked as render() checks it
        return self._render(row, index, self.ice_indices[index])

    def render_row(self, row: Row) -> list[RenderedPrompt]:
        """Prompts for a row that is not in the test split (index ``-1``); shots picked for it now."""
        with self._where:
            self.dataset.reader.check_columns([row], "given row")
            ice_idx = self.dataset.retriever.retrieve(self.pool, [row], self.dataset.reader)[0]
        return self._render(row, -1, ice_idx)

    def _row(self, index: int) -> Row:
        rows = self.test_rows
        with self._where:
            if 0 <= index < len(rows):
                return rows[index]
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
        return self._render(row, index, self._shots_of(index, row), turns)[0]

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
        source = row
        output = self.output_column
        gold = row.get(output) if output is not None else None
        try:
            base = self._base_id(row, index)
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
                    # A turn's row may differ from the row (BFCL's held-out functions), and with it the turn's tools.
                    turn_row = dialogue.row_at(row, number)
                    request, blocks = self._request(turn_row)
                    rendered, shots, over = self._fit(turn_row, list(ice_idx), None, (number, replies))
                    turn = number if dialogue.numbered_for(row) else None
                    ident = f"{base}/turn{number}" if turn is not None else base
                    answer = dialogue.gold_at(row, gold, number)
                    out.append(
                        self._prompt(index, "gen", rendered, shots, None, turn, request, len(shots) < len(ice_idx), over, ident, answer, source, blocks)
                    )
                    if guard is not None:
                        self._check_tokens(out[-1:], hits)  # turn by turn: a refused turn is reported before the next renders
                if self._encoder is not None:
                    self._views.add_tokens(out)
                return out
            request, blocks = self._request(row)
            if labels is None:
                rendered, shots, over = self._fit(row, list(ice_idx), None)
                out = [self._prompt(index, self.mode, rendered, shots, None, None, request, len(shots) < len(ice_idx), over, base, gold, source, blocks)]
            else:
                # Every label of a row is scored with the same shots: the fewest that every label's prompt fits with.
                label_ids = self._label_ids
                shots = list(ice_idx)
                out = []
                for label in labels:
                    rendered, shots, over = self._fit(row, shots, label)
                    ident = f"{base}/{label_ids[label]}"
                    out.append(self._prompt(index, "ppl", rendered, shots, label, None, request, len(shots) < len(ice_idx), over, ident, gold, source, blocks))
                if len(shots) < len(ice_idx):
                    # A label fitted with more shots than the row ends with is shorter with fewer: it still fits.
                    for k, prompt in enumerate(out):
                        if len(prompt.ice_idx) != len(shots):
                            label = prompt.label
                            rendered = self._render_once(row, shots, label)
                            out[k] = self._prompt(index, "ppl", rendered, shots, label, None, request, True, prompt.over_limit, prompt.id, gold, source, blocks)
                label = None
            calib = self._calib_row(row) if self._calib_row is not None else None
            if calib is not None:
                # The row's unconditioned form, with the same shots (one per label in ppl mode).
                for label in labels if labels is not None else (None,):
                    ident = f"{base}/calib" if label is None else f"{base}/calib/{self._label_ids[label]}"
                    rendered = self._render_once(calib, shots, label)
                    out.append(self._prompt(index, "calib", rendered, shots, label, None, request, False, False, ident, gold, source, blocks))
                label = None
            if guard is not None:
                self._check_tokens(out, hits)
            if self._encoder is not None:
                self._views.add_tokens(out)
            if self._permutation is not None:
                permutation = self._permutation(row)
                for prompt in out:
                    prompt.permutation = permutation
            return out
        except PromptkitError as error:
            raise self._where.attach(error, index, label) from None

    @cached_property
    def _straight(self) -> Callable[[Row, int, Sequence[int]], list[RenderedPrompt]] | None:
        """:meth:`_render` of a row for a dataset with nothing between template and model (``None`` otherwise): no
        dialogue, shots to fit, media, calibration prompts, shot layout, system prompt, tools, output controls,
        token view or circular permutation.  The same prompts (ids, gold, request blocks, sources) and errors, in one
        function: the rows of such a dataset (most of them) cost a template render, a model render and a record,
        without the general path's dispatch (a fifth of a simple prompt's render).
        """
        if self._refusal is not None or self._dialogue is not None:
            return None
        guard, labels = self._guard, self.labels if self.inferencer.scores_labels else None  # in _render's order
        if (
            self._fitter is not None
            or self._media is not None
            or self._collects_media
            or self._calib_row is not None
            or self._layout.flattens
            or self._system_prompt is not None
            or self._tools is not None
            or self._output is not None
            or self._encoder is not None
            or self._permutation is not None
        ):
            return None
        mode, output, mask = self.mode, self.output_column, self._mask_value
        label_ids = self._label_ids if labels is not None else {}
        ice_of, template_render, prompt_of, request_of, base_id, attach = (
            self._ice,
            self.template.render,
            self._prompt,
            self._request,
            self._base_id,
            self._where.attach,
        )
        final_of: Callable[[Prompt], FinalInput]
        if self._chat_messages is not None:
            final_of = self._chat_messages
        else:
            model_render = self._final_model.render

            def final_of(prompt: Prompt) -> FinalInput:
                return model_render(prompt, mode)

        def render(row: Row, index: int, ice_idx: Sequence[int]) -> list[RenderedPrompt]:
            label: Hashable | None = None
            source = row
            gold = row.get(output) if output is not None else None
            try:
                base = base_id(row, index)
                hits: tuple[TokenHit, ...] = ()
                if guard is not None:
                    row, hits = guard.guard_row(row)
                request, blocks = request_of(row)
                shots = list(ice_idx)
                if labels is None:
                    prompt = template_render(row, ice_of(shots), label=None, masked=output, mask_value=mask)
                    out = [prompt_of(index, mode, (prompt, final_of(prompt), None), shots, None, None, request, False, False, base, gold, source, blocks)]
                else:
                    out = []
                    for label in labels:
                        prompt = template_render(row, ice_of(shots), label=label, masked=output, mask_value=str(label))
                        rendered = (prompt, final_of(prompt), None)
                        ident = f"{base}/{label_ids[label]}"
                        out.append(prompt_of(index, "ppl", rendered, shots, label, None, request, False, False, ident, gold, source, blocks))
                    label = None
                if guard is not None:
                    self._check_tokens(out, hits)
                return out
            except PromptkitError as error:
                raise attach(error, index, label) from None

        return render

    def _request(self, row: Row) -> tuple[dict[str, Any] | None, tuple[Mapping[str, Any], ...]]:
        """What the row's records carry besides the prompt (the inferencer's fields, then the dataset's), and the row's
        request blocks (chat, completion with and without the tokenizer's special tokens: the dataset's fields added)."""
        fields = self.inferencer.request_fields(row, self.test_rows)
        if self._tools_in_request:
            assert self._tools is not None
            tools = self._tools.for_row(row)
            if tools is not None:
                fields = {**(fields or {}), **tools}
        if self._request_fields is None:
            return fields, self._blocks
        dataset = self._request_fields(row, self._final_model.kind)
        if not dataset:
            return fields, self._blocks
        return {**(fields or {}), **dataset}, tuple({**block, **dataset} for block in self._blocks)

    @cached_property
    def _sources(self) -> Sources:
        return Sources(self.template, self.dataset.ice_template, self.model)

    @cached_property
    def _row_ids(self) -> list[str] | None:
        """Each test row's id from ``reader_cfg.id_column`` (checked present and unique), or ``None`` without one."""
        column = self.dataset.reader.id_column
        if column is None:
            return None
        seen: dict[str, int] = {}
        with self._where:
            for index, row in enumerate(self.test_rows):
                if column not in row:
                    raise DatasetError(
                        f"reader_cfg.id_column {column!r} is missing from test row {index}; the row has {sorted(row)}", row=index, key=column
                    )
                value = str(row[column])
                permutation = self._permutation(row) if self._permutation is not None else None
                if permutation is not None:  # circular evaluation: a row's permutations share its id column
                    value = f"{value}/{permutation}"
                if value in seen:
                    raise DatasetError(
                        f"reader_cfg.id_column {column!r}: test rows {seen[value]} and {index} have the same id {value!r}; "
                        "ids must be unique (fix the data, or drop id_column to number prompts by index)",
                        row=index,
                        key=column,
                    )
                seen[value] = index
        return [f"{self.dataset.abbr}/{value}" for value in seen]

    def _base_id(self, row: Row, index: int) -> str:
        ids = self._row_ids
        if ids is None:
            return f"{self.dataset.abbr}/{index}"
        if index >= 0:
            return ids[index]
        column = self.dataset.reader.id_column
        assert column is not None  # ids are None without it
        if column not in row:
            raise DatasetError(f"reader_cfg.id_column {column!r} is missing from the given row; the row has {sorted(row)}", key=column)
        return f"{self.dataset.abbr}/{row[column]}"

    @cached_property
    def _label_ids(self) -> dict[Hashable, str]:
        """Each candidate label as it appears in ids: ``str(label)``, or ``repr`` when two labels would read the same."""
        labels = self.labels
        texts = [str(label) for label in labels]
        if len(set(texts)) < len(texts):
            texts = [repr(label) for label in labels]
        return dict(zip(labels, texts, strict=True))

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
        ident: str,
        gold: Any,
        row: Row,
        blocks: tuple[Mapping[str, Any], ...],
    ) -> RenderedPrompt:
        """The one place a :class:`RenderedPrompt` is built; a test row over ``max_seq_len`` is noted for :meth:`report`.

        Callers pass every argument in order, and fields at their defaults are not passed on: calling a class by
        keyword costs about 25 ns a keyword, a tenth of a simple prompt's render for all thirteen.
        """
        intermediate, final, media = rendered
        prompt = RenderedPrompt(
            dataset=self.dataset.abbr, model=self._model_abbr, index=index, mode=mode, prompt=final, ice_idx=shots, intermediate=intermediate
        )
        prompt.id = ident
        prompt.gold = gold
        prompt.row = row
        prompt.sources = self._sources
        # A completion string that starts with the tokenizer's BOS must not get a second one.
        prompt.request = blocks[0] if type(final) is not str else blocks[2] if final.startswith(self._bos) else blocks[1]
        if label is not None:
            prompt.label = label
        if turn is not None:
            prompt.turn = turn
        if media is not None:
            prompt.media = media
        if self._output is not None:
            extra = self._output.request_for(final)
            if extra:
                request = {**request, **extra} if request else extra
        if request is not None:
            prompt.request_fields = request
        if self._overrides is not None:
            prompt.overrides = self._overrides
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
        if self._layout.flattens:
            prompt = self._layout.finish(prompt)
        if self._system_prompt is not None:
            prompt = with_system_prompt(prompt, self._system_prompt)
        if self._media is not None and isinstance(prompt, PromptList):  # a multimodal template renders a PromptList
            prompt = self._media.apply(prompt)
        if self._chat_messages is not None:
            return prompt, self._chat_messages(prompt), None
        if self._tools is not None and not self._tools_in_request:
            tools = self._tools.for_row(row)
            if tools is not None and "tools" in tools:
                return prompt, self._with_tools(prompt, tools["tools"]), _media_parts(prompt) if self._collects_media else None
        if self._output is not None:
            media: Media = [] if self._collects_media else None
            return prompt, self._output.render(prompt, media), media
        if self._collects_media:
            final, media = self._final_model.render_with_media(prompt, self.mode)
            return prompt, final, media
        return prompt, self._final_model.render(prompt, self.mode), None

    def _with_tools(self, prompt: Prompt, tools: list[dict[str, Any]]) -> FinalInput:
        """The final input with the tools written into it by a chat template, under the controls: the model's own, or, for
        a completion model, the one of the model folder its ``path`` names (its meta template has no place for tools)."""
        if self._output is not None:
            return self._output.render_tools(prompt, self._tool_template, tools)
        return self._tool_template.render_tools(prompt, self.mode, tools)

    @cached_property
    def _tool_template(self) -> ChatTemplateModel:
        model = self._final_model
        if isinstance(model, ChatTemplateModel):
            return model
        runtime = model.runtime if isinstance(model, CompletionModel) else {}
        folder = runtime.get("tokenizer_path") or runtime.get("path")
        if not isinstance(model, CompletionModel) or not isinstance(folder, str):
            raise ConfigError(
                f"the dataset's prompts offer tools, and model {model.abbr!r} is a completion model whose meta template has no place "
                "for them and which has no chat template to write them (path= a local model folder with one); give it path=, or "
                "use a ChatTemplateModel or a ChatModel (the request carries the tools)",
                key="tools",
            )
        return chat_template_twin(model)

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


def _empty(rows: Sequence[Row]) -> bool:
    """Whether there are no rows; a streamed file is not counted for it (its first row is read)."""
    if isinstance(rows, FileRows):
        return next(iter(rows), None) is None
    return not rows
def _media_parts(prompt: Prompt) -> list[dict[str, Any]]:
    """The media parts of a prompt, in order (what a completion model lists beside its string)."""
    if not isinstance(prompt, PromptList):
        return []
    return [part.dump() for item in prompt.items if isinstance(item, RoleItem) and item.parts for part in item.parts if part.modality != "text"]


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
