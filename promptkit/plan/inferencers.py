"""How prompts are assembled for a task: which template, how many prompts a row sends, and what else they carry.

promptkit calls no model; these are the config vocabulary of OpenCompass's
(and AISBench's) inferencers, keeping what shapes the prompt and accepting (and
ignoring) the runtime keys real configs carry (``max_out_len``, ``batch_size``, …).
What each sends, in order, for each test row:

* :class:`GenInferencer`, :class:`SCInferencer` (the prompt sampled ``sc_size``
  times), AISBench's :class:`LMMGenInferencer` — one prompt;
* AISBench's :class:`BFCLV3FunctionCallInferencer` — one prompt per row, the
  first turn of its BFCL ``question``; one per turn of a multi-turn entry;
* :class:`PPLInferencer`, :class:`LLInferencer` (with the row's continuation
  ``cont``) — one prompt per candidate label;
* :class:`CLPInferencer` — one prompt, scored on the first test row's ``choices``;
* :class:`PPLOnlyInferencer`, :class:`InferencePPLOnlyInferencer` — one prompt,
  scored whole (ppl mode);
* :class:`SWCELossInferencer` — the row's text, no shots, tokenized as it is;
* :class:`MultiTurnGenInferencer`, :class:`ChatInferencer` — one prompt per turn of
  a dialogue, by ``infer_mode`` (:mod:`promptkit.plan.dialogue`).

The pipeline asks the inferencer, never its class: :attr:`Inferencer.mode`,
:attr:`~Inferencer.scores_labels`, :attr:`~Inferencer.uses_shots`,
:attr:`~Inferencer.reserved_tokens`, :attr:`~Inferencer.lays_out_shots`,
:attr:`~Inferencer.continuation_follows`, :meth:`~Inferencer.for_run`,
:meth:`~Inferencer.select_template`, :meth:`~Inferencer.check_model`,
:meth:`~Inferencer.request_fields` and :meth:`~Inferencer.row_specs`.

Two hooks serve front ends whose requests are not OpenCompass's (lm-eval's tasks, :mod:`promptkit.frontends.lmeval`):
:meth:`~Inferencer.for_run` hands the inferencer the :class:`Run` a plan is compiled for (the model's kind, whether
it takes turns, the prompt controls), and :meth:`~Inferencer.row_specs` lets it say what each test row becomes (one
prompt per choice *of that row*, each with its own record fields).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from promptkit.controls import Controls
from promptkit.errors import ConfigError, TemplateError
from promptkit.plan.spec import PromptSpec
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.templates._bfcl_template import BFCLTemplate
from promptkit.types import Row

if TYPE_CHECKING:
    from promptkit.data.reader import ReaderConfig
    from promptkit.templates.protocol import Prompt, Template

__all__ = [
    "INFER_MODES",
    "BFCLV3FunctionCallInferencer",
    "CLPInferencer",
    "ChatInferencer",
    "ChatRows",
    "GenInferencer",
    "InferencePPLOnlyInferencer",
    "Inferencer",
    "LLInferencer",
    "LMMGenInferencer",
    "MultiTurnGenInferencer",
    "PPLInferencer",
    "PPLOnlyInferencer",
    "Run",
    "SCInferencer",
    "SWCELossInferencer",
]

#: How the turns of a dialogue become prompts (AISBench's and OpenCompass's ``infer_mode``).
INFER_MODES = ("every", "every_with_gt", "last")


@dataclass(frozen=True)
class Run:
    """What a plan is compiled for, as :meth:`Inferencer.for_run` sees it.

    >>> Run("chat_template", turns=True).turns
    True
    """

    #: The model's kind: ``'completion'``, ``'chat'`` or ``'chat_template'``.
    model_kind: str
    #: Whether the model receives turns (chat messages, or a completion model's meta template) rather than plain text.
    turns: bool
    #: The prompt controls in force (the model's, the dataset's and the run's, merged).
    controls: Controls = field(default_factory=Controls)


class Inferencer:
    """Common part: ``max_seq_len`` (the model config's value wins, as in OpenCompass's infer task)."""

    #: How the model's meta template parses the prompts: ``'gen'`` (cut at the model's turn) or ``'ppl'`` (whole).
    mode: ClassVar[str]
    #: Whether a row sends one prompt per candidate label (:meth:`PPLInferencer.candidate_labels`) rather than one.
    scores_labels: ClassVar[bool] = False
    #: Whether the retriever's shots go into the prompts (some inferencers ignore them).
    uses_shots: ClassVar[bool] = True
    #: Tokens of ``max_seq_len`` kept free beyond the prompt when shots are fitted.
    reserved_tokens: ClassVar[int] = 0
    #: Whether the template :meth:`select_template` returns lays out the shots and the system prompt itself, for the
    #: run (:meth:`for_run`): the plan then renders the shots with that template too and applies neither the shot
    #: layout nor the system prompt of the controls.
    lays_out_shots: ClassVar[bool] = False
    #: Whether a record's ``continuation`` follows its prompt (lm-eval scores ``context + continuation``) rather than
    #: ends it (OpenCompass's LLInferencer): the token view's junction reads it so.
    continuation_follows: ClassVar[bool] = False

    def __init__(self, max_seq_len: int | None = None, **runtime: Any) -> None:
        if max_seq_len is not None and (not isinstance(max_seq_len, int) or max_seq_len <= 0):
            raise ConfigError(f"max_seq_len must be a positive int (got {max_seq_len!r})", key="max_seq_len")
        self.max_seq_len = max_seq_len
        self.runtime = runtime

    def for_run(self, run: Run) -> Inferencer:
        """The inferencer for a plan compiled for ``run``: this one, unless what it asks for depends on the model or the
        controls (lm-eval's chat-mode continuations and shot layout), when it returns a copy made for the run."""
        return self

    def select_template(self, prompt_template: Template | None, ice_template: Template | None, reader: ReaderConfig) -> Template:
        """The template the prompts render with: the prompt_template, else the ice_template (OpenCompass's rule)."""
        template = prompt_template or ice_template
        if template is None:
            raise ConfigError("infer_cfg needs a prompt_template (or an ice_template carrying ice_token)", key="infer_cfg")
        return template

    def check_model(self, kind: str) -> None:
        """Refuse a model of ``kind`` (``'completion'``, ``'chat'``, ``'chat_template'``) this inferencer cannot run with."""

    def request_fields(self, row: Row, test_rows: Sequence[Row]) -> dict[str, Any] | None:
        """What a row's requests carry besides the prompt (written into each record), or None."""
        return None

    def row_specs(self, row: Row, test_rows: Sequence[Row]) -> Sequence[PromptSpec] | None:
        """The prompt specs of a test row when the inferencer decides them itself, complete with their record fields,
        ids and gold (lm-eval's multiple-choice: one spec per choice of that row, the prompt rendered once); ``None``:
        the plan's own (one prompt, one per candidate label, one per dialogue turn, with :meth:`request_fields`).

        The plan renders consecutive specs that ask for the same render (the same ``row``, ``label``, ``turn`` and
        ``replies``) once."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(max_seq_len={self.max_seq_len!r})"


class GenInferencer(Inferencer):
    """One prompt per test row; the answer column renders as ``gen_field_replace_token``.

    ``prefill=True`` keeps the text of the model's final turn (the ``BOT`` item's prompt, which generation
    otherwise drops, as OpenCompass does) as the start of the answer; ``gen_prefix='The best answer is'``
    (lm-eval's name) is text written after it.  A completion string then ends with that text; chat messages
    end with an assistant message holding it, continued (``continue_final_message``): see docs/configs.md#prefill.
    """

    mode = "gen"

    def __init__(
        self,
        gen_field_replace_token: str = "",
        max_seq_len: int | None = None,
        multiround: bool = False,
        prefill: bool = False,
        gen_prefix: str | None = None,
        **runtime: Any,
    ) -> None:
        super().__init__(max_seq_len, **runtime)
        if not isinstance(prefill, bool):
            raise ConfigError(f"prefill must be True or False (got {prefill!r} that is a {type(prefill).__name__})", key="prefill")
        if gen_prefix is not None and not isinstance(gen_prefix, str):
            raise ConfigError(f"gen_prefix must be a str (got {gen_prefix!r} that is a {type(gen_prefix).__name__})", key="gen_prefix")
        #: Whether the final BOT item's text starts the answer.
        self.prefill = prefill
        #: Text the answer starts with, after the kept BOT text (``None``: none).
        self.gen_prefix = gen_prefix or None
        if not isinstance(multiround, bool):
            raise ConfigError(f"multiround must be True or False (got {multiround!r} that is a {type(multiround).__name__})", key="multiround")
        if multiround:
            raise ConfigError("GenInferencer(multiround=True) is not supported: it fills message-list templates turn by turn", key="multiround")
        if not isinstance(gen_field_replace_token, str):
            raise ConfigError(f"gen_field_replace_token must be a str (got {gen_field_replace_token!r})", key="gen_field_replace_token")
        self.gen_field_replace_token = gen_field_replace_token


class PPLInferencer(Inferencer):
    """One prompt per test row and candidate label, labels in template order (or ``labels=``)."""

    mode = "ppl"
    scores_labels = True

    def __init__(self, labels: Sequence[Hashable] | None = None, max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(max_seq_len, **runtime)
        if labels is not None and (isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence)):
            raise ConfigError(f"labels must be a list (got {labels!r})", key="labels")
        self.labels = list(labels) if labels is not None else None

    def candidate_labels(self, template: Template, test_rows: Sequence[Mapping[str, Any]], output_column: str | None) -> list[Hashable]:
        """The labels each row is scored with, in order: ``labels=``, else the label-keyed template's keys, else the
        values of ``output_column`` in the test rows, in order of first appearance."""
        if self.labels is not None:
            return list(self.labels)
        if template.labels is not None:
            return list(template.labels)
        if output_column is None:
            raise ConfigError("PPLInferencer needs candidate labels: use a label-keyed template, labels=[...], or an output_column")
        # OpenCompass takes set() order here, which changes between runs; first appearance is stable.
        try:
            return list(dict.fromkeys(row[output_column] for row in test_rows))
        except TypeError:
            raise ConfigError(
                f"PPLInferencer takes its labels from the answer column {output_column!r}, but its values are not single "
                "labels (e.g. lists); give labels=[...] or a label-keyed template"
            ) from None


class MultiTurnGenInferencer(GenInferencer):
    """One prompt per turn of a dialogue (with ``MultiTurnPromptTemplate``), history by ``infer_mode``:

    * ``every`` — one prompt per turn, earlier turns holding the model's own replies;
    * ``every_with_gt`` — one prompt per turn, earlier turns holding the ground truth;
    * ``last`` — one prompt, for the last turn, earlier turns holding the ground truth.
    """

    def __init__(self, infer_mode: str = "every", gen_field_replace_token: str = "", max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(gen_field_replace_token, max_seq_len, **runtime)
        if infer_mode not in INFER_MODES:
            raise ConfigError(f"infer_mode must be one of {', '.join(map(repr, INFER_MODES))} (got {infer_mode!r})", key="infer_mode")
        self.infer_mode = infer_mode


class ChatInferencer(MultiTurnGenInferencer):
    """OpenCompass's ``ChatInferencer``: each row is a chat (:class:`ChatRows`), one prompt per assistant turn by
    ``infer_mode`` (default ``'last'``); shots are not used, as in OpenCompass."""

    uses_shots = False

    def __init__(self, infer_mode: str = "last", max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(infer_mode, "", max_seq_len, **runtime)

    def select_template(self, prompt_template: Template | None, ice_template: Template | None, reader: ReaderConfig) -> Template:
        """The rows' chats, built with the prompt_template (the ice_template is not read)."""
        return ChatRows(prompt_template, reader.input_columns, reader.output_column)


class LLInferencer(PPLInferencer):
    """OpenCompass's ``LLInferencer``: the prompts of :class:`PPLInferencer`, each scored on the log-likelihood of the
    row's continuation (column ``cont``, in the records as ``continuation``)."""

    def request_fields(self, row: Row, test_rows: Sequence[Row]) -> dict[str, Any] | None:
        if "cont" not in row:
            raise ConfigError(
                f"LLInferencer scores each row's continuation, read from the column 'cont'; the row has none (columns: {', '.join(map(str, row))})",
                key="cont",
            )
        return {"continuation": row["cont"]}


class CLPInferencer(Inferencer):
    """OpenCompass's ``CLPInferencer``: one prompt per row (the answer column renders as ``''``), scored on the
    next-token probabilities of the first test row's ``choices``; one token of ``max_seq_len`` is kept for them."""

    mode = "gen"
    reserved_tokens = 1

    def __init__(self, max_seq_len: int | None = None, single_token: bool = True, **runtime: Any) -> None:
        super().__init__(max_seq_len, **runtime)
        if single_token is not True:
            raise ConfigError("CLPInferencer scores single-token choices only (single_token=True), as in OpenCompass", key="single_token")
        self.single_token = single_token

    def check_model(self, kind: str) -> None:
        if kind == "chat":
            raise ConfigError(
                "CLPInferencer reads the next token's log-probabilities, which an API (chat) model does not return, and OpenCompass "
                "refuses API models here too; use a local model config"
            )

    def request_fields(self, row: Row, test_rows: Sequence[Row]) -> dict[str, Any] | None:
        first = test_rows[0]
        if "choices" not in first:
            raise ConfigError("CLPInferencer scores the choices of the first test row, read from the column 'choices'; it has none", key="choices")
        return {"choices": first["choices"]}


class PPLOnlyInferencer(Inferencer):
    """OpenCompass's ``PPLOnlyInferencer``: one prompt per row, its perplexity scored whole; no answer column."""

    mode = "ppl"

    def select_template(self, prompt_template: Template | None, ice_template: Template | None, reader: ReaderConfig) -> Template:
        if reader.output_column is not None:
            raise ConfigError(
                f"{type(self).__name__} scores the whole text and reads no answer: reader_cfg.output_column must be None "
                f"(got {reader.output_column!r}), as OpenCompass requires",
                key="reader_cfg.output_column",
            )
        return super().select_template(prompt_template, ice_template, reader)


class InferencePPLOnlyInferencer(PPLOnlyInferencer):
    """OpenCompass's ``InferencePPLOnlyInferencer``: as :class:`PPLOnlyInferencer`, scored on the spans of the row's
    ``label`` column (in the records as ``label_spans``)."""

    def request_fields(self, row: Row, test_rows: Sequence[Row]) -> dict[str, Any] | None:
        if "label" not in row:
            raise ConfigError("InferencePPLOnlyInferencer scores the spans in the column 'label'; the row has none", key="label")
        return {"label_spans": row["label"]}


class SCInferencer(GenInferencer):
    """OpenCompass's ``SCInferencer`` (self-consistency): the prompt of :class:`GenInferencer`, sampled ``sc_size``
    times (in each record as ``sc_size``)."""

    def __init__(self, sc_size: int = 1, gen_field_replace_token: str = "", max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(gen_field_replace_token, max_seq_len, **runtime)
        if not isinstance(sc_size, int) or isinstance(sc_size, bool) or sc_size <= 0:
            raise ConfigError(f"sc_size must be a positive int, the samples drawn per prompt (got {sc_size!r})", key="sc_size")
        self.sc_size = sc_size

    def request_fields(self, row: Row, test_rows: Sequence[Row]) -> dict[str, Any] | None:
        return {"sc_size": self.sc_size}


class SWCELossInferencer(Inferencer):
    """OpenCompass's ``SWCELossInferencer``: each row's text, from a string prompt_template with no shots, tokenized as
    it is (no meta template); the model scores sliding windows of ``block_size`` tokens, ``stride`` apart, over them."""

    mode = "gen"
    uses_shots = False

    def __init__(self, block_size: int = 1900, stride: int = 512, max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(max_seq_len, **runtime)
        for key, value in (("block_size", block_size), ("stride", stride)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigError(f"{key} must be a positive int (got {value!r})", key=key)
        self.block_size = block_size
        self.stride = stride

    def select_template(self, prompt_template: Template | None, ice_template: Template | None, reader: ReaderConfig) -> Template:
        if reader.output_column is not None:
            raise ConfigError(
                f"SWCELossInferencer scores the whole text: reader_cfg.output_column must be None (got {reader.output_column!r})",
                key="reader_cfg.output_column",
            )
        if prompt_template is None or prompt_template.kind != "string":
            raise ConfigError(
                "SWCELossInferencer tokenizes the text of a string prompt_template (the ice_template is not read); give "
                "prompt_template=dict(type='PromptTemplate', template='{text}')",
                key="infer_cfg.prompt_template",
            )
        return prompt_template

    def check_model(self, kind: str) -> None:
        if kind != "completion":
            raise ConfigError(
                "SWCELossInferencer tokenizes the raw text with a local model's tokenizer, past any chat template; use a "
                "completion model config (e.g. HuggingFaceBaseModel)"
            )


class LMMGenInferencer(GenInferencer):
    """AISBench's ``LMMGenInferencer``: a :class:`GenInferencer` (its prompts are GenInferencer's)."""


class BFCLV3FunctionCallInferencer(GenInferencer):
    """AISBench's BFCL v3 inferencer: each row's ``question`` (:class:`~promptkit.BFCLTemplate`), turn by turn.

    ``returns_tool_calls=True`` (the default here; AISBench reads it from the
    model config, default ``False``) is BFCL's function-calling style: the
    messages as they are, the row's functions sent as tools through the
    dataset's ``tools=dict(column='function', style='bfcl_fc')``.
    ``returns_tool_calls=False`` is its prompt style: the functions written
    into ``system_prompt`` (``{functions}``), no tools.  promptkit ships none
    of BFCL's texts: give bfcl-eval's ``DEFAULT_SYSTEM_PROMPT`` as
    ``system_prompt`` and its ``DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC``
    as ``holdout_message`` (the user message of a multi-turn entry's turn whose
    functions were held out).  A multi-turn entry renders one prompt per turn
    after the model's replies (``--replies``): see docs/configs.md#tools.  As in
    AISBench, the config's prompt_template is not read (its configs give
    ``template='{question}'``).
    """

    def __init__(
        self,
        returns_tool_calls: bool = True,
        system_prompt: str | None = None,
        holdout_message: str | None = None,
        gen_field_replace_token: str = "",
        max_seq_len: int | None = None,
        **runtime: Any,
    ) -> None:
        super().__init__(gen_field_replace_token, max_seq_len, **runtime)
        if not isinstance(returns_tool_calls, bool):
            raise ConfigError(f"returns_tool_calls must be True or False (got {returns_tool_calls!r})", key="returns_tool_calls")
        if returns_tool_calls and system_prompt is not None:
            raise ConfigError(
                "system_prompt is BFCL's prompt style, which sends the functions in the system message instead of as tools: "
                "set returns_tool_calls=False with it, or drop it",
                key="system_prompt",
            )
        if not returns_tool_calls and system_prompt is None:
            raise ConfigError(
                "returns_tool_calls=False is BFCL's prompt style, which writes the functions into a system prompt: give "
                "system_prompt='...{functions}...' (bfcl-eval's DEFAULT_SYSTEM_PROMPT; promptkit ships none of BFCL's texts)",
                key="system_prompt",
            )
        self.returns_tool_calls = returns_tool_calls
        self.system_prompt = system_prompt
        self.holdout_message = holdout_message

    def select_template(self, prompt_template: Template | None, ice_template: Template | None, reader: ReaderConfig) -> Template:
        """A :class:`~promptkit.BFCLTemplate` over ``question``, in this inferencer's style."""
        try:
            return BFCLTemplate(answer_column=reader.output_column or "ground_truth", system_prompt=self.system_prompt, holdout_message=self.holdout_message)
        except TemplateError as error:
            raise ConfigError(error.message, key=error.context.get("key")) from None


class ChatRows:
    """ChatInferencer's dialogue: each row's chat, built as OpenCompass builds it, one turn per assistant message.

    The row's input columns and answer column make the chat: all strings — one
    exchange (the prompt_template's messages, then the answer as the assistant
    message unless the template ends with one; without a template, the one input
    column as the user message); all lists of strings — one exchange per element;
    a single input column holding messages, or an input column ``dialogue`` — those
    messages.  Turn ``t``'s prompt is the chat up to its ``t``-th assistant message,
    earlier assistant messages holding the ground truth or the model's replies.
    Implements :class:`~promptkit.templates.protocol.DialogueTemplate`.
    """

    kind: ClassVar[str] = "chat"
    labels: ClassVar[None] = None
    ice_token: ClassVar[None] = None
    has_ice_slot: ClassVar[bool] = False
    sep_token: ClassVar[None] = None
    is_multimodal: ClassVar[bool] = False

    def __init__(self, template: Template | None, input_columns: Sequence[str], output_column: str | None) -> None:
        self.template = template
        self.input_columns = tuple(input_columns)
        self.output_column = output_column

    def chat(self, row: Row) -> list[tuple[str, str]]:
        """The row's chat: (OpenAI role, content) pairs."""
        item = {key: value for key, value in row.items() if key in self.input_columns or key == self.output_column}
        values = list(item.values())
        if all(isinstance(value, str) for value in values):
            return self._exchange(item)
        if all(isinstance(value, list) and all(isinstance(v, str) for v in value) for value in values):
            return [message for entry in (dict(zip(item, turn, strict=False)) for turn in zip(*values, strict=False)) for message in self._exchange(entry)]
        if len(self.input_columns) == 1 and _is_messages(item.get(self.input_columns[0])):
            return _messages(item[self.input_columns[0]], self.input_columns[0])
        if "dialogue" in self.input_columns and "dialogue" in item:
            return _messages(item["dialogue"], "dialogue")
        raise TemplateError(
            "ChatInferencer cannot make a chat of the row: its input and answer columns must all be strings, all lists of "
            "strings (one per turn), or one input column (or 'dialogue') holding messages"
        )

    def _exchange(self, entry: Row) -> list[tuple[str, str]]:
        gold = entry.get(self.output_column, "") if self.output_column is not None else ""
        if self.template is None:
            if len(self.input_columns) != 1:
                raise ConfigError(
                    f"ChatInferencer without a prompt_template sends the one input column as the user message; reader_cfg has "
                    f"{len(self.input_columns)} input columns: add a prompt_template",
                    key="infer_cfg.prompt_template",
                )
            return [("user", _text(entry.get(self.input_columns[0]))), ("assistant", _text(gold))]
        chat = _openai(self.template.render(entry, ""))
        if not chat or chat[-1][0] != "assistant":
            chat.append(("assistant", _text(gold)))
        return chat

    def turn_columns(self, row: Row) -> tuple[str, ...]:
        return tuple(key for key in row if key in self.input_columns or key == self.output_column)

    def count_turns(self, row: Row) -> int:
        turns = sum(role == "assistant" for role, _ in self.chat(row))
        if not turns:
            raise TemplateError("the row's chat has no assistant message, so ChatInferencer has no turn to ask the model for")
        return turns

    def render_turn(
        self, row: Row, turn: int, ice: Prompt = "", *, masked: str | None = None, mask_value: str = "", replies: Sequence[str] | None = None
    ) -> PromptList:
        """The chat before its ``turn``-th assistant message (0-based); earlier ones hold ``replies`` if given."""
        chat = self.chat(row)
        answers = [i for i, (role, _) in enumerate(chat) if role == "assistant"]
        if not 0 <= turn < len(answers):
            raise TemplateError(f"turn {turn} is out of range: the row's chat has {len(answers)} assistant turns")
        history = chat[: answers[turn]]
        if replies is not None:
            for reply, position in zip(replies, answers[:turn], strict=False):
                history[position] = ("assistant", reply)
        return _prompt_list(history)

    def render_shot(self, row: Row, label: Hashable | None = None) -> PromptList:
        raise TemplateError("ChatInferencer uses no shots")

    def render(self, row: Row, ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = "") -> PromptList:
        """The prompt of the row's last turn."""
        return self.render_turn(row, self.count_turns(row) - 1)

    def __repr__(self) -> str:
        return f"ChatRows(template={self.template!r}, input_columns={list(self.input_columns)!r}, output_column={self.output_column!r})"


_OPENAI_ROLES = {"SYSTEM": "system", "HUMAN": "user", "BOT": "assistant"}
_META_ROLES = {name: role for role, name in _OPENAI_ROLES.items()}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _is_messages(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(message, Mapping) for message in value)


def _messages(value: Any, column: str) -> list[tuple[str, str]]:
    if not _is_messages(value):
        raise TemplateError(f"column {column!r} must hold a list of messages (got {value!r})", key=column)
    chat = []
    for i, message in enumerate(value):
        role = message.get("role")
        if role not in _META_ROLES:
            raise TemplateError(f"{column}[{i}] has role {role!r}; a chat's roles are system, user and assistant", key=column)
        chat.append((role, _text(message.get("content"))))
    return chat


def _openai(prompt: Prompt) -> list[tuple[str, str]]:
    """A rendered prompt as a chat, as OpenCompass's ``promptlist_to_openai`` makes it (loose text is a user message)."""
    if isinstance(prompt, str):
        return [("user", prompt)]
    chat = []
    for item in prompt:
        if isinstance(item, str):
            if item:
                chat.append(("user", item))
        elif isinstance(item, RoleItem):
            role = _OPENAI_ROLES.get(item.role)
            if role is None:
                raise TemplateError(f"ChatInferencer makes messages of the roles SYSTEM, HUMAN and BOT; the template has {item.role!r}")
            chat.append((role, item.prompt or ""))
    return chat


def _prompt_list(chat: Sequence[tuple[str, str]]) -> PromptList:
    """A chat as a PromptList: leading system messages in ``begin``, the rest in ``round``."""
    lead = 0
    while lead < len(chat) and chat[lead][0] == "system":
        lead += 1
    items: list[Item] = []
    if lead:
        items += [Marker("begin", "begin"), *(RoleItem("SYSTEM", text, "HUMAN") for _, text in chat[:lead]), Marker("begin", "end")]
    # given_roles: a turn renders the messages it has, not every role of the meta template's round (no empty SYSTEM turn).
    items += [Marker("round", "begin", given_roles=True), *(RoleItem(_META_ROLES[role], text, "HUMAN" if role == "system" else None) for role, text in chat[lead:])]
    items.append(Marker("round", "end"))
    return PromptList._of(tuple(items))
