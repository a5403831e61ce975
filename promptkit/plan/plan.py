"""The render plan of one dataset × model: what each test row becomes, and the stages that render it.

A front end hands over a :class:`~promptkit.plan.dataset.DatasetSpec`; :class:`Plan` compiles it once for a model
and the run's controls:

* **what a row becomes** — :meth:`Plan.specs`: one :class:`~promptkit.plan.spec.PromptSpec` per prompt: one for
  generation, one per candidate label (ppl), one per dialogue turn (:mod:`promptkit.plan.dialogue`), the dataset's
  calibration prompts; each with its id, gold answer and request fields (the inferencer's, the tools, the dataset's);
* **the stages** — the template stage (:class:`~promptkit.templates.compose.PromptComposer`: shots, template, shot
  layout, system prompt), the media policy (:class:`~promptkit.media.policy.MediaResolver`) and the model stage
  (:class:`~promptkit.meta_templates.final.FinalStage`);
* **shot fitting** — :meth:`Plan.fit`: the shots each prompt keeps within ``max_seq_len`` (:mod:`promptkit.plan.fitting`);
  the prompts of a row's labels share theirs, a calibration prompt takes its row's;
* **row text and the model's control tokens** — the guard each row passes before any template sees it, and the check
  of each prompt's final input against a reference render from neutral row text (:mod:`promptkit.tokens.guard`).

The plan renders nothing itself: :class:`~promptkit.Renderer` runs it.  Work that needs the rows (the ppl labels,
the ids of ``reader_cfg.id_column``, the shot renderer) is done when first asked for, from the rows the renderer
loads (:class:`LoadedRows`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Protocol

from promptkit.controls import Controls
from promptkit.data.hooks import CalibratedDataset, IdentifiedDataset, PermutedDataset, RequestFieldsDataset, SampledDataset, ScoredDataset
from promptkit.errors import DatasetError, PromptkitError
from promptkit.media.policy import MediaResolver
from promptkit.meta_templates import ChatModel, CompletionModel, TokenCounter
from promptkit.meta_templates.chat_history import ChatHistoryOutput
from promptkit.meta_templates.controlled import ControlledOutput
from promptkit.meta_templates.final import FinalStage, Media
from promptkit.meta_templates.protocol import FinalInput, Model
from promptkit.plan.dataset import DatasetSpec
from promptkit.plan.dialogue import Dialogue, Turns, dialogue_for
from promptkit.plan.fitting import ShotFitter, ShotTokens
from promptkit.plan.inferencers import GenInferencer, Inferencer, PPLInferencer, Run
from promptkit.plan.spec import PromptSpec
from promptkit.promptlist import PromptList
from promptkit.templates.compose import PromptComposer
from promptkit.templates.layout import ShotLayout
from promptkit.templates.protocol import ChatHistoryTemplate, ChatMessagesTemplate, Prompt, Template
from promptkit.templates.shots import ShotRenderer
from promptkit.tokens.guard import ForgeryCheck, GuardedRows, Neutral, NeutralRows, Scanned, TokenGuard, summary
from promptkit.types import Row

__all__ = ["Fitted", "LoadedRows", "Plan", "Rendered", "same_render"]

logger = logging.getLogger("promptkit.render")

#: One render of a prompt spec: the template's output, the final input, and the media a completion model lists.
Rendered = tuple[Prompt, FinalInput, Media]
#: A fitted prompt: its render, the shots kept, whether shots were dropped, whether it is over ``max_seq_len`` even so.
Fitted = tuple[Rendered, list[int], bool, bool]
#: The labels a gen dataset's ``labels`` names: those a PPLInferencer without ``labels=`` would score.
_DERIVED_LABELS = PPLInferencer()


class LoadedRows(Protocol):
    """A dataset's splits, read when first asked for (:class:`~promptkit.render.rows.SplitRows`)."""

    @property
    def pool(self) -> Sequence[Row]: ...

    @property
    def test(self) -> Sequence[Row]: ...


class Plan:
    """The plan of ``dataset`` for ``model`` (``None``: a completion model with no meta template); see the module
    docstring.  ``controls`` are the run's level of the prompt controls; ``token_counter`` enforces ``max_seq_len``
    (default: the model's); ``replies`` feed ``infer_mode='every'`` dialogues; ``rows`` gives the pool and test
    splits (read when first needed)."""

    def __init__(
        self,
        dataset: DatasetSpec,
        model: Model | None,
        rows: LoadedRows,
        *,
        controls: Controls | None = None,
        token_counter: TokenCounter | None = None,
        replies: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        self.dataset = dataset
        self.model: Model = model if model is not None else CompletionModel(abbr=None)
        self.rows = rows
        self.replies = replies
        self.output_column = dataset.reader.output_column
        #: The prompt controls in force: the model's, then the dataset's, then the run's (see promptkit.controls).
        self.controls = Controls.merge(getattr(model, "controls", None), dataset.controls, controls)
        #: The run-time overrides and run controls that shaped the prompts, as ``key=value`` lines (``None``: none).
        self.overrides = [*dataset.overrides, *(controls.describe() if controls is not None else ())] or None
        turns = self.model.kind != "completion" or getattr(self.model, "meta_template", None) is not None
        inferencer = self.inferencer = dataset.inferencer.for_run(Run(self.model.kind, turns, self.controls))
        self.mode = inferencer.mode
        # The inferencer picks the template (OpenCompass's rule: the prompt_template, else the ice_template).
        template = inferencer.select_template(dataset.prompt_template, dataset.ice_template, dataset.reader)
        if inferencer.lays_out_shots:  # the template lays out its shots and system prompt for the run itself
            self.layout = ShotLayout("as_configured", template, template if dataset.ice_template is not None else None, self.output_column)
        else:
            self.layout = ShotLayout(self.controls.layout, template, dataset.ice_template, self.output_column)
        self.template: Template = self.layout.template
        self.dialogue: Dialogue | None = dialogue_for(self.template, inferencer)
        #: How a dialogue's turns become prompts (``'every'``, ``'every_with_gt'``, ``'last'``); ``None``: not a dialogue.
        self.infer_mode = self.dialogue.infer_mode if self.dialogue is not None else None
        #: Why the inferencer cannot run with this model, raised when a prompt is asked for.
        self.refusal: PromptkitError | None = None
        try:
            inferencer.check_model(self.model.kind)
        except PromptkitError as error:
            self.refusal = error
        # The model config's max_seq_len wins, as OpenCompass's infer task copies it onto the inferencer.
        model_limit = model.max_seq_len if model is not None else None
        self.max_seq_len = model_limit if model_limit is not None else inferencer.max_seq_len
        self.token_counter = token_counter or (model.token_counter if model is not None else None)
        if self.max_seq_len and self.token_counter is None:
            logger.info(
                "dataset %r: max_seq_len=%d is not enforced because no token counter is set (set tokenizer or token_counter in the model config)",
                dataset.abbr,
                self.max_seq_len,
            )
        loader = dataset.loader
        self._calib_row = loader.calib_row if isinstance(loader, CalibratedDataset) else None
        self._dataset_fields = loader.request_fields if isinstance(loader, RequestFieldsDataset) else None
        self._sampling_params = loader.sampling_params if isinstance(loader, SampledDataset) else None
        self._sample_fields = loader.sample_fields if isinstance(loader, ScoredDataset) else None
        self._permutation = loader.permutation if isinstance(loader, PermutedDataset) else None
        #: Whether the dataset reorders its rows' options (circular evaluation): its records say how.
        self.permutes = self._permutation is not None
        #: The column of the rows' ids: ``reader_cfg.id_column``, else the dataset's own (a sample's ``id``); ``None``: indices.
        self.id_column = dataset.reader.id_column or (loader.id_column if isinstance(loader, IdentifiedDataset) else None)
        #: A chat model takes the tools in its request (and, with no model, the record does); others have them written.
        self._tools_in_request = dataset.tools is not None and (model is None or self.model.kind == "chat")
        self.output = self._output()
        multimodal = self.template.is_multimodal or (dataset.ice_template is not None and dataset.ice_template.is_multimodal)
        self.media = MediaResolver(dataset.media, self.media_root) if multimodal and dataset.media.mode != "keep" else None
        chat_messages = self.template.chat_messages if isinstance(self.template, ChatMessagesTemplate) and self.model.kind == "chat" else None
        self.final = FinalStage(
            self.model,
            self.mode,
            chat_messages=chat_messages,
            tools=dataset.tools if not self._tools_in_request else None,
            output=self.output,
            collects_media=multimodal and isinstance(self.model, CompletionModel),
        )
        self._single = (PromptSpec(mode=self.mode),)
        #: The template stage of the control-token guard's reference renders, per way of making row text neutral.
        self._neutral_composers: dict[Neutral, PromptComposer] = {}
        #: Whether a row's prompts may carry fields of their own (the inferencer's, the tools, the dataset's).
        self._row_fields = (
            type(inferencer).request_fields is not Inferencer.request_fields or self._tools_in_request or self._dataset_fields is not None
        )
        #: Whether the inferencer decides a row's specs itself (:meth:`Inferencer.row_specs`).
        self._own_specs = type(inferencer).row_specs is not Inferencer.row_specs
        #: Whether every test row has the same specs: no specs, fields or calibration prompt of its own.
        self._same_specs = not (self._own_specs or self._row_fields or self._calib_row is not None)

    def _output(self) -> ControlledOutput | ChatHistoryOutput | None:
        """The final input under the controls (prefill, chat-template kwargs, thinking), or of a chat history as built;
        ``None``: the model's own."""
        if isinstance(self.template, ChatHistoryTemplate):
            return ChatHistoryOutput(self.model, self.controls, self.template.chat_history)
        prefill = getattr(self.inferencer, "prefill", False)
        gen_prefix = getattr(self.inferencer, "gen_prefix", None)
        if not ControlledOutput.needed(self.controls, prefill, gen_prefix):
            return None
        return ControlledOutput(self.model, self.mode, self.controls, prefill=prefill, gen_prefix=gen_prefix)

    @property
    def span_render(self) -> Callable[[Prompt, str], FinalInput] | None:
        """How spans re-render a prompt when the model's own ``render`` is not what made its final input (a chat history
        as built); ``None``: the model's."""
        output = self.output
        if not isinstance(output, ChatHistoryOutput):
            return None
        return lambda prompt, mode: output.render(prompt)

    @cached_property
    def media_root(self) -> Path | None:
        """The folder relative media paths resolve against: ``media.root``, else the data file's folder."""
        if self.dataset.media.root is not None:
            return self.dataset.media.root
        base_dir = self.dataset.config_path.parent if self.dataset.config_path else None
        return getattr(self.dataset.loader, "data_dir", lambda _: base_dir)(base_dir)

    # -- row text and the model's control tokens -------------------------------------------
    @cached_property
    def guard(self) -> TokenGuard | None:
        """The model's guard unless it has nothing to do (no tokens, or 'allow'); 'warn' warns here, once, of the rows' tokens."""
        guard = self.model.token_guard
        if guard.active and guard.policy == "warn":
            test_rows, pool = self.rows.test, self.rows.pool
            splits = [(self.dataset.reader.test_split, test_rows)]
            if pool is not test_rows:
                splits.append((self.dataset.reader.train_split, pool))
            line = summary(guard, splits)
            if line is not None:
                logger.warning("dataset %r: %s", self.dataset.abbr, line)
        return guard if guard.active else None

    @cached_property
    def shot_rows(self) -> Sequence[Row]:
        """The pool as shots see it: through the guard, if any."""
        return GuardedRows(self.rows.pool, self.guard) if self.guard is not None else self.rows.pool

    @cached_property
    def forgeries(self) -> ForgeryCheck:
        """The guard's check of each prompt (:mod:`promptkit.tokens.guard`): the tokens of row text that reached it
        recorded ('escape') or refused ('error'); where row text holds a token's delimiters, the prompt compared with
        its reference render (:meth:`render` with ``neutral``)."""
        rows = self.shot_rows
        assert self.guard is not None and isinstance(rows, GuardedRows)  # built only for a plan with a guard
        return ForgeryCheck(self.guard, rows, self.dataset.abbr)

    def escaped(self, index: int, spec: PromptSpec, rendered: Rendered, shots: list[int], scanned: Scanned) -> tuple[Rendered, list[str] | None]:
        """``rendered`` (``spec`` of test row ``index`` with ``shots``, from the row as :meth:`TokenGuard.scan` handed it on)
        with the control tokens row text formed in its final input broken, and the tokens escaped in it (``None``:
        none); refused under policy ``'error'``, reported under ``'warn'``.  A row that :meth:`ForgeryCheck.clean` finds
        clean needs no call."""
        reference = partial(self._reference, spec, scanned[0], shots)
        final, escaped = self.forgeries.check(rendered[1], shots, scanned, spec.replies, reference, index)
        return (rendered if final is rendered[1] else (rendered[0], final, rendered[2])), escaped

    def _reference(self, spec: PromptSpec, row: Row, shots: list[int], neutral: Neutral) -> FinalInput:
        return self.render(spec, row, shots, neutral)[1]

    # -- the stages ------------------------------------------------------------------------
    @cached_property
    def composer(self) -> PromptComposer:
        """The template stage (its shot renderer reads the pool when first built)."""
        return self._composer(self.shot_rows)

    def _composer(self, pool: Sequence[Row]) -> PromptComposer:
        """The template stage with its shots read from ``pool``."""
        retriever = self.dataset.retriever
        ice_template = self.layout.ice_template
        shots = None
        if ice_template is not None and self.inferencer.uses_shots:
            shots = ShotRenderer(
                ice_template, pool, self.output_column, retriever.ice_separator, retriever.ice_eos_token, sep_token=self.template.sep_token
            )
        mask_value = self.inferencer.gen_field_replace_token if isinstance(self.inferencer, GenInferencer) else ""
        # OpenCompass's inferencers that use no shots pass an empty ice.
        no_shots = retriever.ice_eos_token if self.inferencer.uses_shots else ""
        system_prompt = None if self.inferencer.lays_out_shots else self.controls.system_prompt
        return PromptComposer(self.template, self.layout, shots, no_shots, self.output_column, mask_value, system_prompt)

    def _neutral_composer(self, neutral: Neutral, shots: Sequence[int]) -> PromptComposer:
        """The template stage of a reference render with ``shots``: the plan's own when no shot's row holds a delimiter
        (its text is its own neutral form, and its shots are then the very objects of the prompt's render), else one whose
        shots are rendered from pool rows made ``neutral`` (a label-keyed ice_template's answers kept: they pick its
        template), one per way of making text neutral, made when first needed."""
        delimited = self.forgeries.shot_rows.delimited
        if not delimited or not any(i in delimited for i in shots):
            return self.composer
        composer = self._neutral_composers.get(neutral)
        if composer is None:
            ice_template = self.layout.ice_template
            keep = self.output_column if ice_template is not None and ice_template.labels is not None else None
            composer = self._neutral_composers[neutral] = self._composer(NeutralRows(self.shot_rows, neutral, keep))
        return composer

    def render(self, spec: PromptSpec, row: Row, shots: Sequence[int], neutral: Neutral | None = None) -> Rendered:
        """One render of ``spec`` with ``shots``: template, media, model.  ``neutral``: the control-token guard's reference
        render — the row, the replies and the shots' rows with their text made neutral, the media left unresolved."""
        row, prompt = self._template(spec, row, shots, neutral)
        final, media = self.final.render(prompt, row)
        return prompt, final, media

    def _template(self, spec: PromptSpec, row: Row, shots: Sequence[int], neutral: Neutral | None = None) -> tuple[Row, Prompt]:
        """The template stage of :meth:`render`: the row the prompt is rendered from, and the template's output."""
        row = spec.row if spec.row is not None else row
        if neutral is None:
            prompt = self.composer.compose(row, shots, spec.label, spec.turn, spec.replies)
            if self.media is not None and isinstance(prompt, PromptList):  # a multimodal template renders a PromptList
                prompt = self.media.apply(prompt)
        else:
            row = neutral.row(row)
            prompt = self._neutral_composer(neutral, shots).compose(row, shots, spec.label, spec.turn, neutral(spec.replies))
        return row, prompt

    # -- what a row becomes --------------------------------------------------------------------
    @cached_property
    def labels(self) -> list[Hashable]:
        """The candidate labels of ppl mode, in order (see :meth:`PPLInferencer.candidate_labels`)."""
        inferencer = self.inferencer if isinstance(self.inferencer, PPLInferencer) else _DERIVED_LABELS
        return inferencer.candidate_labels(self.template, self.rows.test, self.output_column)

    @cached_property
    def _label_ids(self) -> dict[Hashable, str]:
        """Each candidate label as it appears in ids: ``str(label)``, or ``repr`` when two labels would read the same."""
        texts = [str(label) for label in self.labels]
        if len(set(texts)) < len(texts):
            texts = [repr(label) for label in self.labels]
        return dict(zip(self.labels, texts, strict=True))

    @cached_property
    def _label_specs(self) -> tuple[PromptSpec, ...]:
        return tuple(PromptSpec(mode="ppl", label=label, suffix=f"/{self._label_ids[label]}") for label in self.labels)

    def specs(self, source: Row, row: Row, turns: Turns | None = None) -> Sequence[PromptSpec]:
        """The prompt specs of a test row: ``source`` as loaded, ``row`` through the guard; ``turns``: the dialogue
        turns to render (with their replies, already through the guard)."""
        if turns is not None:
            return self._turn_specs(source, row, turns)
        scores_labels = self.inferencer.scores_labels
        if self._same_specs:  # the usual row: nothing of its own to add
            return self._label_specs if scores_labels else self._single
        if self._own_specs:
            own = self.inferencer.row_specs(row, self.rows.test)
            if own is not None:
                return own
        fields, request = self._fields(row) if self._row_fields else (None, None)
        specs: Sequence[PromptSpec] = self._label_specs if scores_labels else self._single
        if fields is not None or request is not None:
            specs = [PromptSpec(mode=spec.mode, label=spec.label, suffix=spec.suffix, fields=fields, request=request) for spec in specs]
        calib = self._calib_row(row) if self._calib_row is not None else None
        if calib is None:
            return specs
        # The row's unconditioned form, with the same shots (one per label in ppl mode).
        out = list(specs)
        for label in self.labels if scores_labels else (None,):
            suffix = "/calib" if label is None else f"/calib/{self._label_ids[label]}"
            out.append(PromptSpec(mode="calib", label=label, suffix=suffix, row=calib, fields=fields, request=request, follows=True))
        return out

    def _turn_specs(self, source: Row, row: Row, turns: Turns) -> list[PromptSpec]:
        dialogue = self.dialogue
        assert dialogue is not None
        numbers, replies = turns
        numbered = dialogue.numbered_for(row)
        gold = source.get(self.output_column) if self.output_column is not None else None
        out = []
        for number in numbers:
            # A turn's row may differ from the row (BFCL's held-out functions), and with it the turn's tools.
            turn_row = dialogue.row_at(row, number)
            fields, request = self._fields(turn_row)
            out.append(
                PromptSpec(
                    turn=number,
                    replies=replies,
                    numbered=numbered,
                    suffix=f"/turn{number}" if numbered else "",
                    row=turn_row if turn_row is not row else None,
                    gold=dialogue.gold_at(row, gold, number),
                    fields=fields,
                    request=request,
                )
            )
        return out

    def _fields(self, row: Row) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
        """A row's record fields (the inferencer's, the tools a chat model's request carries, the dataset's request
        fields, the dataset's ``sample`` block) and what its engine request carries over the shared request block (the
        dataset's request fields, then the row's own sampling parameters)."""
        fields = self.inferencer.request_fields(row, self.rows.test)
        request: Mapping[str, Any] | None = None
        if self._tools_in_request:
            assert self.dataset.tools is not None
            tools = self.dataset.tools.for_row(row)
            if tools is not None:
                fields = {**(fields or {}), **tools}
        if self._dataset_fields is not None:
            extra = self._dataset_fields(row, self.model.kind)
            if extra:
                fields, request = {**(fields or {}), **extra}, extra
        if self._sample_fields is not None:
            sample = self._sample_fields(row)
            if sample:
                fields = {**(fields or {}), "sample": sample}
        if self._sampling_params is not None:
            params = self._sampling_params(row)
            if params:
                request = {**(request or {}), **params}
        return fields, request

    def permutation(self, row: Row) -> str | None:
        """The order of the row's options under circular evaluation, for its records."""
        return self._permutation(row) if self._permutation is not None else None

    # -- ids ---------------------------------------------------------------------------------
    @cached_property
    def _row_ids(self) -> list[str] | None:
        """Each test row's id from :attr:`id_column` (checked present and unique), or ``None`` without one."""
        column = self.id_column
        if column is None:
            return None
        named = self._id_column_named
        seen: dict[str, int] = {}
        for index, row in enumerate(self.rows.test):
            if column not in row:
                raise DatasetError(f"{named} is missing from test row {index}; the row has {sorted(row)}", row=index, key=column)
            value = str(row[column])
            permutation = self.permutation(row)
            if permutation is not None:  # circular evaluation: a row's permutations share its id column
                value = f"{value}/{permutation}"
            if value in seen:
                fix = "fix the data, or drop id_column to number prompts by index" if self.dataset.reader.id_column else "fix the data"
                raise DatasetError(
                    f"{named}: test rows {seen[value]} and {index} have the same id {value!r}; ids must be unique ({fix})",
                    row=index,
                    key=column,
                )
            seen[value] = index
        return [f"{self.dataset.abbr}/{value}" for value in seen]

    def base_id(self, row: Row, index: int) -> str:
        """The id of test row ``index`` (``-1``: a row outside the test split), which its prompts' ids extend."""
        ids = self._row_ids
        if ids is None:
            return f"{self.dataset.abbr}/{index}"
        if index >= 0:
            return ids[index]
        column = self.id_column
        assert column is not None  # ids are None without it
        if column not in row:
            raise DatasetError(f"{self._id_column_named} is missing from the given row; the row has {sorted(row)}", key=column)
        return f"{self.dataset.abbr}/{row[column]}"

    @property
    def _id_column_named(self) -> str:
        """The id column as messages name it: the config's key, or the dataset's own column."""
        if self.dataset.reader.id_column is not None:
            return f"reader_cfg.id_column {self.id_column!r}"
        return f"the dataset's id column {self.id_column!r}"

    # -- shots within max_seq_len ----------------------------------------------------------------
    @cached_property
    def shot_tokens(self) -> ShotTokens | None:
        """Tokens of each pool row as a shot (``None`` without a token counter)."""
        if self.token_counter is None:
            return None
        composer = self.composer
        # Without an ice_template there is nothing to count, and the composer refuses shots with the error that says so.
        shot = composer.shots.shot if composer.shots is not None else lambda index: composer.ice([index])
        return ShotTokens(self.token_counter, shot)

    @cached_property
    def fitter(self) -> ShotFitter | None:
        """Keeps the longest prefix of the shots that fits ``max_seq_len`` (``None`` when nothing is enforced)."""
        if not self.max_seq_len or self.shot_tokens is None:
            return None
        # Meta templates only add text around the shots; a chat template may trim or drop some (see ShotFitter).
        additive = isinstance(self.model, (CompletionModel, ChatModel))
        return ShotFitter(self.max_seq_len - self.inferencer.reserved_tokens, self.shot_tokens, additive)

    def fit(self, specs: Sequence[PromptSpec], row: Row, shots: Sequence[int]) -> list[Fitted]:
        """Each spec rendered with the longest prefix of ``shots`` that fits ``max_seq_len`` (OpenCompass's
        drop-the-last-shot result); the labels of a row are scored with the same shots, the fewest any of them fits
        with; a calibration prompt takes its row's shots as they are.  Consecutive specs that ask for the same render
        (:func:`same_render`) are rendered once.  An error names the label being rendered."""
        fitter = self.fitter
        if fitter is None and len(specs) == 1 and not specs[0].follows:  # the usual row: one render, no fitting
            try:
                picked = list(shots)
                return [(self.render(specs[0], row, picked), picked, False, False)]
            except PromptkitError as error:
                raise error.add_context(label=specs[0].label) from None
        picked = list(shots)
        kept = picked
        out: list[Fitted] = []
        last: tuple[PromptSpec, Fitted] | None = None
        for spec in specs:
            try:
                if spec.follows:
                    out.append((self.render(spec, row, kept), kept, False, False))
                    continue
                if fitter is None:
                    if last is not None and same_render(last[0], spec):
                        out.append(last[1])
                        continue
                    last = (spec, (self.render(spec, row, picked), picked, False, False))
                    out.append(last[1])
                    continue
                self.composer.check_shots(picked)
                start = kept if spec.label is not None else picked  # a row's labels share the shots they end with
                fitted = fitter.fit(start, partial(self.render, spec, row))
                kept = fitted.shots
                out.append((fitted.rendered, kept, len(kept) < len(picked), fitted.over_limit))
            except PromptkitError as error:
                raise error.add_context(label=spec.label) from None
        if fitter is not None and len(kept) < len(picked):
            # A label fitted with more shots than the row ends with is shorter with fewer: it still fits.
            for k, (spec, (_, shots_k, _, over)) in enumerate(zip(specs, out, strict=True)):
                if spec.label is not None and not spec.follows and len(shots_k) != len(kept):
                    try:
                        out[k] = (self.render(spec, row, kept), kept, True, over)
                    except PromptkitError as error:
                        raise error.add_context(label=spec.label) from None
        return out

    def fit_rows(self, rows: Sequence[tuple[Sequence[PromptSpec], Row, Sequence[int]]]) -> tuple[list[list[Fitted]], Exception | None]:
        """:meth:`fit` of each row (its specs, the row, its shots), in order, up to the first row that fails, and that
        row's error (``None``: none failed).  Rows of one render each with nothing to fit (the usual rows) go stage by
        stage — every row's template, then every row's model — so that each stage's code and data stay in the
        processor's caches (:mod:`promptkit.render.batch`); a lone row, or a batch with any other row, is fitted row by
        row as :meth:`fit` fits it."""
        if len(rows) == 1 or self.fitter is not None:
            return self._fit_each(rows)
        failure: Exception | None = None
        templated: list[tuple[Row, Prompt, list[int], PromptSpec]] = []
        template = self._template
        for specs, row, shots in rows:
            spec = specs[0]
            if len(specs) != 1 or spec.follows:  # not the usual row: the batch row by row instead
                return self._fit_each(rows)
            picked = list(shots)
            try:
                source, prompt = template(spec, row, picked)
            except Exception as error:
                failure = error.add_context(label=spec.label) if isinstance(error, PromptkitError) else error
                break
            templated.append((source, prompt, picked, spec))
        out: list[list[Fitted]] = []
        render = self.final.render
        for source, prompt, picked, spec in templated:
            try:
                final, media = render(prompt, source)
            except Exception as error:
                return out, error.add_context(label=spec.label) if isinstance(error, PromptkitError) else error
            out.append([((prompt, final, media), picked, False, False)])
        return out, failure

    def _fit_each(self, rows: Sequence[tuple[Sequence[PromptSpec], Row, Sequence[int]]]) -> tuple[list[list[Fitted]], Exception | None]:
        out: list[list[Fitted]] = []
        for specs, row, shots in rows:
            try:
                out.append(self.fit(specs, row, shots))
            except Exception as error:
                return out, error
        return out, None


def same_render(first: PromptSpec, second: PromptSpec) -> bool:
    """Whether two prompt specs of a row render the same prompt with the same shots: the same row, label, turn and
    replies (lm-eval's choices of one context)."""
    return first.row is second.row and first.label == second.label and first.turn == second.turn and first.replies is second.replies
