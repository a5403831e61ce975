"""``BFCLTemplate``: a BFCL v3 row's ``question`` as AISBench's ``BFCLV3FunctionCallInferencer`` sends it, turn by turn.

A row's ``question`` is a list of turns, each a list of messages.  A
single-turn row sends its first turn.  A multi-turn entry
(:func:`~promptkit.data.bfcl.is_multi_turn`) sends one prompt per turn: the
turns so far, each earlier turn followed by the model's reply to it (an
assistant message; promptkit renders the replies it is given, so each turn is
one request: a reply that calls functions would need BFCL's environment to
run them, which promptkit does not do).  A turn whose functions were held out
(``missed_function``, see :class:`~promptkit.data.bfcl.BFCLDataset`) is the
user message ``holdout_message``; from that turn on the row offers its
functions plus those (:meth:`BFCLTemplate.row_at`).

Two styles, as AISBench's two BFCL handlers:

* function calling (``system_prompt=None``): the messages as they are; the
  functions reach the model as tools (the dataset's
  ``tools=dict(column='function', style='bfcl_fc')``);
* prompt style (``system_prompt='...{functions}...'``): the functions, as BFCL
  writes them for the row's category (:func:`~promptkit.data.bfcl.language_docs`)
  and in Python's notation, fill ``{functions}`` of a system message that
  opens the first turn (a system message of the row's own follows, after a
  blank line, in the same message); a held-out turn is the held-out functions'
  documents, a newline and ``holdout_message``.

>>> t = BFCLTemplate(system_prompt="Call these: {functions}")
>>> t.render({"id": "simple_0", "question": [[{"role": "user", "content": "Hi"}]],
...           "function": [{"name": "f", "description": "F.", "parameters": {}}]})
PromptList([
  <begin>
  SYSTEM: "Call these: [{'name': 'f', 'description': 'F. Note that the provided function is in Python 3 syntax.', 'parameters': {}}]" [fallback_role='HUMAN']
  </begin>
  <round>
  HUMAN: 'Hi'
  BOT: ''
  </round>
])
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from promptkit.data.bfcl import category_of, is_multi_turn, language_docs
from promptkit.errors import TemplateError
from promptkit.promptlist import PromptList
from promptkit.templates.messages_template import MessagesTemplate
from promptkit.templates.protocol import Prompt

__all__ = ["BFCLTemplate"]

#: The placeholder of ``system_prompt`` that the row's functions fill.
FUNCTIONS = "{functions}"


class BFCLTemplate:
    """Renders a BFCL row's ``question``, one turn at a time (see the module docstring).

    Implements :class:`~promptkit.templates.protocol.Template` and
    :class:`~promptkit.templates.protocol.DialogueTemplate`.
    """

    kind: ClassVar[str] = "chat"
    labels: ClassVar[None] = None
    ice_token: ClassVar[None] = None
    #: BFCL's prompts take no shots.
    has_ice_slot: ClassVar[bool] = False
    sep_token: ClassVar[None] = None
    is_multimodal: ClassVar[bool] = False

    def __init__(
        self,
        column: str = "question",
        functions_column: str = "function",
        answer_column: str = "ground_truth",
        system_prompt: str | None = None,
        holdout_message: str | None = None,
    ) -> None:
        for name, value in (("column", column), ("functions_column", functions_column), ("answer_column", answer_column)):
            if not isinstance(value, str) or not value:
                raise TemplateError(f"{name} must be a non-empty str (got {value!r})", key=name)
        if system_prompt is not None and (not isinstance(system_prompt, str) or FUNCTIONS not in system_prompt):
            raise TemplateError(f"system_prompt must be a str with the placeholder {FUNCTIONS} for the functions (got {system_prompt!r})", key="system_prompt")
        if holdout_message is not None and not isinstance(holdout_message, str):
            raise TemplateError(f"holdout_message must be a str (got {holdout_message!r})", key="holdout_message")
        self.column = column
        self.functions_column = functions_column
        self.answer_column = answer_column
        self.system_prompt = system_prompt
        self.holdout_message = holdout_message
        self._messages = MessagesTemplate(column="messages", answer_column=answer_column, list_options=False)

    # -- the Template protocol ------------------------------------------------------------
    def render(self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = "") -> PromptList:
        """The row's first turn (a single-turn row's one prompt)."""
        return self.render_turn(row, 0, ice, masked=masked, mask_value=mask_value, replies=())

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> PromptList:
        raise TemplateError("BFCL's prompts take no shots: use ZeroRetriever")

    # -- the DialogueTemplate protocol ----------------------------------------------------
    def count_turns(self, row: Mapping[str, Any]) -> int:
        """A multi-turn entry's turns; 1 for any other row."""
        return len(self._turns(row)) if is_multi_turn(row.get("id")) else 1

    def render_turn(
        self, row: Mapping[str, Any], turn: int, ice: Prompt = "", *, masked: str | None = None, mask_value: str = "", replies: Sequence[str] | None = None
    ) -> PromptList:
        """The prompt of ``turn``: the turns before it, each followed by the model's reply, then that turn's messages."""
        turns = self._turns(row)
        given = list(replies or ())
        if turn > len(given):
            raise TemplateError(f"turn {turn} of BFCL row {row.get('id')!r} follows the model's replies to turns 0-{turn - 1}; {len(given)} given", key="replies")
        held = self._held(row)
        messages: list[Any] = []
        for number in range(turn + 1):
            if number > 0:
                messages.append({"role": "assistant", "content": given[number - 1]})
            messages.extend(self._turn_messages(row, turns, number, held))
        if self.system_prompt is not None:
            messages = self._with_functions(row, messages)
        return self._messages.render({"messages": messages}, masked=masked, mask_value=mask_value)

    def row_at(self, row: Mapping[str, Any], turn: int) -> Mapping[str, Any]:
        """The row as it stands at ``turn``: its functions plus those of the latest held-out turn up to it (function
        calling: the turn's tools; the prompt style keeps the first turn's system prompt and sends no tools)."""
        held = self._held(row)
        latest = max((int(k) for k in held if int(k) <= turn), default=None)
        if latest is None or self.system_prompt is not None:
            return row
        return {**row, self.functions_column: [*self._functions(row), *held[str(latest)]]}

    # -- pieces ---------------------------------------------------------------------------
    def _turns(self, row: Mapping[str, Any]) -> list[Any]:
        turns = row.get(self.column)
        if not isinstance(turns, list) or not turns or not all(isinstance(t, list) for t in turns):
            raise TemplateError(f"column {self.column!r} must hold BFCL's turns: a list of lists of messages (got {turns!r})", key=self.column)
        return turns

    def _functions(self, row: Mapping[str, Any]) -> list[Any]:
        functions = row.get(self.functions_column, [])
        if not isinstance(functions, list):
            raise TemplateError(f"column {self.functions_column!r} must hold a list of function documents (got {functions!r})", key=self.functions_column)
        return functions

    def _held(self, row: Mapping[str, Any]) -> Mapping[str, list[Any]]:
        held = row.get("missed_function") or {}
        if not isinstance(held, Mapping) or not all(isinstance(v, list) for v in held.values()):
            raise TemplateError(f"column 'missed_function' must map turns to function documents (got {held!r})", key="missed_function")
        return held

    def _turn_messages(self, row: Mapping[str, Any], turns: list[Any], number: int, held: Mapping[str, list[Any]]) -> list[Any]:
        if str(number) not in held:
            return list(turns[number])
        if self.holdout_message is None:
            raise TemplateError(
                f"BFCL row {row.get('id')!r} holds functions out until turn {number}, whose user message is holdout_message: "
                "set BFCLV3FunctionCallInferencer(holdout_message=...) (bfcl-eval's DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC)",
                key="holdout_message",
            )
        text = self.holdout_message if self.system_prompt is None else f"{held[str(number)]}\n{self.holdout_message}"
        return [{"role": "user", "content": text}]

    def _with_functions(self, row: Mapping[str, Any], messages: list[Any]) -> list[Any]:
        """The messages opened by the system prompt with the row's functions (merged into a system message of its own)."""
        assert self.system_prompt is not None
        docs = language_docs(self._functions(row), category_of(row.get("id")))
        # Python's notation of the documents, as BFCL's str.format writes them.
        system = self.system_prompt.replace(FUNCTIONS, str(docs))
        first = messages[0] if messages else None
        if isinstance(first, Mapping) and first.get("role") == "system":
            return [{**first, "content": f"{system}\n\n{first.get('content')}"}, *messages[1:]]
        return [{"role": "system", "content": system}, *messages]

    def __repr__(self) -> str:
        style = "function calling" if self.system_prompt is None else "prompt style"
        return f"BFCLTemplate(column={self.column!r}, {style})"
