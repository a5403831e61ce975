"""``MultiTurnPromptTemplate``: a dialogue, its ``round`` repeated once per turn.

The row's *turn columns* — the columns the round's placeholders name — hold
one element per turn::

    template = dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])
    row = {'question': ['1+1=?', '2+2=?', '3+3=?'], 'answer': ['2', '4', '6']}

The prompt of turn ``t`` holds the ``begin`` section, every earlier turn in
full, turn ``t`` up to its ``BOT`` item (the model's reply goes there), and
the ``end`` section.  Earlier turns show the ground-truth answers, or — for
``infer_mode='every'`` — the model's own replies, which replace the BOT
item's prompt as they are.  ``begin``/``end`` are filled from the row and may
carry the ice token for shots; round items may be multimodal (``prompt_mm``).

>>> t = MultiTurnPromptTemplate(dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')]))
>>> row = {'question': ['1+1=?', '2+2=?'], 'answer': ['2', '4']}
>>> t.render_turn(row, 1, masked='answer')
PromptList([
  <round>
  HUMAN: '1+1=?'
  BOT: '2'
  HUMAN: '2+2=?'
  </round>
])
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from promptkit.errors import TemplateError
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.templates.mm_template import MMPromptTemplate, _MMRole
from promptkit.templates.prompt_template import Prompt, _ChatBody, _Text

__all__ = ["MultiTurnPromptTemplate"]

#: The role of the round item the model's reply takes the place of.
REPLY_ROLE = "BOT"

_ROUND_BEGIN, _ROUND_END = Marker("round", "begin"), Marker("round", "end")


class MultiTurnPromptTemplate(MMPromptTemplate):
    """A chat template rendered turn by turn (see the module docstring)."""

    def __init__(self, template: Mapping[Hashable, Any], ice_token: str | None = None, sep_token: str | None = None) -> None:
        super().__init__(template, ice_token, sep_token)
        assert isinstance(self.body, _ChatBody)
        self._chat: _ChatBody = self.body
        replies = [i for i, item in enumerate(self._chat.round) if not isinstance(item, _Text) and item.role == REPLY_ROLE]
        if len(replies) != 1:
            raise TemplateError(
                f"a MultiTurnPromptTemplate round needs exactly one {REPLY_ROLE} item, where the model's reply goes "
                f"(found {len(replies)}), e.g. round=[dict(role='HUMAN', prompt='{{question}}'), dict(role='BOT', prompt='{{answer}}')]"
            )
        self._reply_at = replies[0]
        self.turn_columns_of_template = tuple(dict.fromkeys(name for item in self._chat.round for name in item.names))
        self.is_multimodal = any(isinstance(item, _MMRole) for _, items in self._chat.sections for item in items)

    # -- turns -------------------------------------------------------------------
    def turn_columns(self, row: Mapping[str, Any]) -> tuple[str, ...]:
        """The row's columns the round fills, each checked to be a list of one element per turn."""
        columns = tuple(name for name in self.turn_columns_of_template if name in row)
        if not columns:
            raise TemplateError(
                f"the row has none of the round's columns {list(self.turn_columns_of_template)}; "
                f"a multi-turn row gives them as lists, one element per turn (columns: {', '.join(map(str, row))})"
            )
        lengths = {}
        for name in columns:
            value = row[name]
            if not isinstance(value, (list, tuple)):
                raise TemplateError(
                    f"column {name!r} is a {type(value).__name__}, but the round of a MultiTurnPromptTemplate is filled once "
                    f"per turn: give a list with one element per turn, e.g. {name}=['first turn', 'second turn']",
                    key=name,
                )
            lengths[name] = len(value)
        if len(set(lengths.values())) > 1:
            shown = ", ".join(f"{name} has {n}" for name, n in lengths.items())
            raise TemplateError(f"the turn columns differ in length ({shown}); each needs one element per turn", key=columns[0])
        if not next(iter(lengths.values())):
            raise TemplateError(f"the turn columns {list(columns)} are empty: a dialogue needs at least one turn", key=columns[0])
        return columns

    def count_turns(self, row: Mapping[str, Any]) -> int:
        return len(row[self.turn_columns(row)[0]])

    def render_turn(
        self,
        row: Mapping[str, Any],
        turn: int,
        ice: Prompt = "",
        *,
        masked: str | None = None,
        mask_value: str = "",
        replies: Sequence[str] | None = None,
    ) -> PromptList:
        """The prompt of ``turn`` (0-based): earlier turns with the ground truth, or with ``replies`` if given."""
        columns = self.turn_columns(row)
        turns = len(row[columns[0]])
        if not 0 <= turn < turns:
            raise TemplateError(f"turn {turn} is out of range: the row has {turns} turns (0 to {turns - 1})", key="turn")
        if replies is not None and len(replies) < turn:
            raise TemplateError(f"turn {turn} needs the replies of the {turn} turns before it; {len(replies)} given", key="turn")
        fixed = dict(row)
        if masked is not None:
            fixed[masked] = mask_value
        out: list[Item] = []
        for name, items in self._chat.sections:
            if name != "round":
                self._chat.render_section(name, items, fixed, ice, out)
                continue
            out.append(_ROUND_BEGIN)
            for k in range(turn + 1):
                values = dict(row)
                for column in columns:
                    values[column] = row[column][k]
                if k == turn and masked is not None:
                    values[masked] = mask_value
                for j, item in enumerate(items):
                    if j == self._reply_at:
                        if k == turn:
                            break
                        if replies is not None:
                            assert not isinstance(item, _Text)
                            out.append(RoleItem(item.role, replies[k], item.fallback_role, item.begin, item.end))
                            continue
                    out.append(item.render(values, "") if not isinstance(item, _Text) else item.whole.render(values))
            out.append(_ROUND_END)
        return PromptList._of(tuple(out))

    def render(
        self,
        row: Mapping[str, Any],
        ice: Prompt = "",
        *,
        label: Hashable | None = None,
        masked: str | None = None,
        mask_value: str = "",
    ) -> PromptList:
        """The prompt of the last turn (what a plain ``GenInferencer`` sends, as in AISBench)."""
        return self.render_turn(row, self.count_turns(row) - 1, ice, masked=masked, mask_value=mask_value)

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> PromptList:
        """A whole dialogue as one in-context example: every turn with its answer."""
        columns = self.turn_columns(row)
        out: list[Item] = [Marker("ice", "begin")]
        for k in range(len(row[columns[0]])):
            values = {**row, **{column: row[column][k] for column in columns}}
            out.extend(item.render(values, "", use_whole=True) if not isinstance(item, _Text) else item.whole.render(values) for item in self._chat.round)
        out.append(Marker("ice", "end"))
        return PromptList._of(tuple(out))
