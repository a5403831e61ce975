"""Dialogues: which turns of a multi-turn row become prompts, and with which history (AISBench's ``infer_mode``).

A :class:`DialogueTemplate` (:class:`~promptkit.MultiTurnPromptTemplate` is
one) renders one turn of a row; a :class:`Dialogue` decides the turns:

* ``every`` — one prompt per turn, earlier turns holding the model's own
  replies (given by row; the prompts go as far as the replies reach);
* ``every_with_gt`` — one prompt per turn, earlier turns holding the ground truth;
* ``last`` — one prompt, for the last turn, earlier turns holding the ground
  truth (what a plain ``GenInferencer`` sends; only ``MultiTurnGenInferencer``
  records the turn's number).

:class:`BFCLDialogue` is BFCL's (``BFCLV3FunctionCallInferencer``): a
multi-turn entry in ``every`` mode, its turns numbered, and any other row's one
prompt (no replies needed, no turn number); each turn's row may differ
(functions held out until a turn, :meth:`Dialogue.row_at`).

:class:`~promptkit.Renderer` builds one per dataset (:func:`dialogue_for`) and
renders the turns it names; :class:`~promptkit.Conversation` drives them one
reply at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.data.bfcl import is_multi_turn
from promptkit.errors import ConfigError
from promptkit.plan.inferencers import BFCLV3FunctionCallInferencer, Inferencer, MultiTurnGenInferencer
from promptkit.templates.protocol import DialogueTemplate
from promptkit.types import Row

__all__ = ["BFCLDialogue", "Dialogue", "Turns", "dialogue_for"]

#: Turns of one row to render, and the history they show: the model's replies, or ``None`` for the ground truth.
Turns = tuple[Sequence[int], Sequence[str] | None]


def dialogue_for(template: object, inferencer: Inferencer) -> Dialogue | None:
    """The dialogue a prompt template and inferencer make; ``None`` unless the template is a dialogue template."""
    if not isinstance(template, DialogueTemplate):
        if isinstance(inferencer, MultiTurnGenInferencer):
            raise ConfigError("MultiTurnGenInferencer needs a MultiTurnPromptTemplate as prompt_template", key="infer_cfg.prompt_template")
        return None
    if isinstance(inferencer, BFCLV3FunctionCallInferencer):
        return BFCLDialogue(template)
    if inferencer.mode != "gen":
        raise ConfigError("a MultiTurnPromptTemplate renders for generation: use MultiTurnGenInferencer", key="infer_cfg.inferencer")
    if isinstance(inferencer, MultiTurnGenInferencer):
        return Dialogue(template, inferencer.infer_mode, numbered=True)
    return Dialogue(template, "last", numbered=False)  # a plain GenInferencer sends the whole dialogue up to its last answer, as in AISBench


class Dialogue:
    """The turns a dataset's rows render in one ``infer_mode`` (see the module docstring)."""

    __slots__ = ("infer_mode", "numbered", "template")

    def __init__(self, template: DialogueTemplate, infer_mode: str, numbered: bool) -> None:
        self.template = template
        self.infer_mode = infer_mode
        #: Whether a prompt records its turn (``False``: a plain GenInferencer's one prompt per row, as AISBench records it).
        self.numbered = numbered

    def conversation_length(self, count: int) -> int:
        """How many prompts a conversation over a row of ``count`` turns has."""
        return 1 if self.infer_mode == "last" else count

    def turns(self, index: int, count: int, replies: Mapping[int, Sequence[str]] | None) -> Turns:
        """The turns test row ``index`` (of ``count`` turns) renders, given the replies of every row (``every`` mode)."""
        if self.infer_mode == "last":
            return (count - 1,), None
        if self.infer_mode == "every_with_gt":
            return range(count), None
        if replies is None:
            raise ConfigError(
                "infer_mode='every' fills each turn's history with the model's own replies, and none were given: pass "
                "replies (promptkit render --replies FILE, JSON Lines of {\"index\", \"turn\", \"reply\"}), or drive the "
                "rows with Renderer.conversation()",
                key="replies",
            )
        given = list(replies.get(index, ()))
        if len(given) > count:
            raise ConfigError(f"row {index} has {count} turns but {len(given)} replies", key="replies")
        # The reply to the last turn (a finished run's output has it) feeds no prompt.
        return range(min(len(given) + 1, count)), given

    def numbered_for(self, row: Row) -> bool:
        """Whether ``row``'s prompts record their turn."""
        return self.numbered

    def row_at(self, row: Row, turn: int) -> Row:
        """The row as ``turn`` renders it (and its request fields, such as tools, come from it)."""
        return row

    def gold_at(self, row: Row, gold: Any, turn: int) -> Any:
        """The answer ``turn`` is scored against: that turn's element of a list, else the whole answer."""
        return gold[turn] if isinstance(gold, (list, tuple)) and turn < len(gold) else gold

    def turn(self, turn: int, replies: Sequence[str]) -> Turns | None:
        """The one turn a conversation asks for, after ``replies``; ``None`` in ``last`` mode (the row's one prompt)."""
        if self.infer_mode == "last":
            if turn != 0:
                raise ConfigError(f"turn {turn}: infer_mode 'last' renders one prompt per row (turn 0)")
            return None
        return (turn,), replies if self.infer_mode == "every" else None

    def __repr__(self) -> str:
        return f"Dialogue(infer_mode={self.infer_mode!r})"


class BFCLDialogue(Dialogue):
    """BFCL v3's turns (see the module docstring); the template is a :class:`~promptkit.BFCLTemplate`."""

    __slots__ = ()

    def __init__(self, template: DialogueTemplate) -> None:
        super().__init__(template, "every", numbered=True)

    def turns(self, index: int, count: int, replies: Mapping[int, Sequence[str]] | None) -> Turns:
        if count == 1:  # a single-turn row, or a one-turn entry: its first turn, after no reply
            return (0,), ()
        return super().turns(index, count, replies)

    def numbered_for(self, row: Row) -> bool:
        return is_multi_turn(row.get("id"))

    def gold_at(self, row: Row, gold: Any, turn: int) -> Any:
        # A single-turn row's answer is its list of calls, whole.
        return super().gold_at(row, gold, turn) if is_multi_turn(row.get("id")) else gold

    def row_at(self, row: Row, turn: int) -> Row:
        row_at = getattr(self.template, "row_at", None)
        return row_at(row, turn) if row_at is not None else row
