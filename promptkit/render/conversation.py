"""Dialogues driven by a model's own replies (``infer_mode='every'``): the runner API and the replies file.

A :class:`Conversation` walks one test row turn by turn: it yields the next
final input, takes the model's reply, and builds the following turn's prompt
with that reply in the history.  It does no I/O, so a plain loop and async
code use it alike::

    for index in range(len(renderer)):
        conversation = renderer.conversation(index)
        while (prompt := conversation.next_prompt()) is not None:
            conversation.add_reply(model.generate(prompt.prompt))

``promptkit render`` takes the replies of earlier runs from a JSON Lines file
of ``{"index": 0, "turn": 0, "reply": "..."}`` records (:func:`load_replies`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from promptkit.data.loaders import json_lines
from promptkit.errors import ConfigError, DatasetError
from promptkit.records.record import RenderedPrompt

__all__ = ["Conversation", "TurnRenderer", "load_replies"]


class TurnRenderer(Protocol):
    """What a conversation walks: a renderer's turn count and turn prompts (:class:`~promptkit.Renderer` has both)."""

    def count_turns(self, index: int) -> int: ...

    def render_turn(self, index: int, turn: int, replies: Sequence[str] = ()) -> RenderedPrompt: ...


class Conversation:
    """The prompts of one test row, one turn at a time (see the module docstring)."""

    def __init__(self, renderer: TurnRenderer, index: int) -> None:
        self._renderer = renderer
        self.index = index
        self.turns = renderer.count_turns(index)
        self.replies: list[str] = []
        self._pending: RenderedPrompt | None = None

    @property
    def done(self) -> bool:
        return len(self.replies) >= self.turns

    def next_prompt(self) -> RenderedPrompt | None:
        """The prompt of the next turn, or ``None`` once every turn has its reply.

        Asking again before :meth:`add_reply` returns the same prompt.
        """
        if self.done:
            return None
        if self._pending is None:
            self._pending = self._renderer.render_turn(self.index, len(self.replies), self.replies)
        return self._pending

    def add_reply(self, reply: str) -> None:
        """The model's reply to the prompt :meth:`next_prompt` returned."""
        if not isinstance(reply, str):
            raise ConfigError(f"a reply must be the model's text, a str (got {type(reply).__name__})")
        if self._pending is None:
            state = "the conversation is over" if self.done else "call next_prompt() first"
            raise ConfigError(f"row {self.index}: add_reply() without a prompt awaiting it: {state}")
        self.replies.append(reply)
        self._pending = None

    def __repr__(self) -> str:
        return f"Conversation(index={self.index}, turn {len(self.replies)} of {self.turns})"


def load_replies(path: str | Path) -> dict[int, list[str]]:
    """The replies in a JSON Lines file, by test row index, in turn order; gaps and duplicates are errors."""
    by_index: dict[int, dict[int, str]] = {}
    where = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise DatasetError(f"cannot read the replies file: {error.strerror}", file=where) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        bad_line = data.count(b"\n", 0, error.start) + 1
        raise DatasetError(
            f"the replies file is not valid UTF-8 ({error.reason} at byte {error.start}); save it as UTF-8", file=where, line=bad_line
        ) from None
    for number, line in json_lines(text):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise DatasetError(f"not JSON: {error.msg} at column {error.colno}", file=where, line=number) from None
        if not isinstance(record, dict) or set(record) != {"index", "turn", "reply"}:
            raise DatasetError('each line must be an object {"index": row, "turn": t, "reply": "text"} and nothing else', file=where, line=number)
        index, turn, reply = record["index"], record["turn"], record["reply"]
        if not _count(index) or not _count(turn) or not isinstance(reply, str):
            raise DatasetError("index and turn must be ints >= 0 and reply a string", file=where, line=number)
        turns = by_index.setdefault(index, {})
        if turn in turns:
            raise DatasetError(f"a second reply for row {index}, turn {turn}", file=where, line=number)
        turns[turn] = reply
    out = {}
    for index, turns in by_index.items():
        missing = [t for t in range(max(turns) + 1) if t not in turns]
        if missing:
            raise DatasetError(
                f"row {index} has a reply for turn {max(turns)} but none for turn {missing[0]}: the turns of a row must be 0, 1, 2, ...",
                file=where,
            )
        out[index] = [turns[t] for t in range(len(turns))]
    return out


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0

