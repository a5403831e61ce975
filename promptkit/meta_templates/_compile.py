"""The compiled walk: a prompt's constant prefix rendered once, its own turn as a straight-line plan.

Most prompts of a dataset share their shape: a ``begin`` section (system
turn, shots) that is the same for every row, then the row's own ``round``.
:func:`split` cuts a prompt before its last top-level section; the walk of
the part before (the *prefix*) does not depend on what follows, so a
consumer (completion string, chat messages) keeps what it made of a prefix in
a :class:`PrefixCache` and resumes from it.  The last section, when it is a
``round`` of plain role items, is walked once per shape (mode, roles, which
prompts are given) with stand-in prompts (:func:`turn_plan`): the events that
come back say where each item's prompt goes, and rendering a row is filling
those slots.

Everything here is exact by construction: a prefix is reused only for an
equal prefix (items are frozen values), a plan is made by the walk itself,
and whatever the fast path cannot show to be safe (an error, a cut inside the
prefix, a section left open) goes through the plain walk instead, which then
raises what it raises.  tests/meta_templates/test_compiled_walk.py checks the
compiled renderers against the plain walk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates._walk import Cut, Event, Rendered, RoleTable, Text, _walk_turns
from promptkit.meta_templates.spec import MetaRole
from promptkit.promptlist import Item, Marker, RoleItem

__all__ = ["PrefixCache", "Plans", "RoleStep", "Turn", "TurnPlan", "plain_turn", "split", "turn_plan"]

T = TypeVar("T")


def split(items: tuple[Item, ...]) -> int:
    """The index where the prompt's last top-level section starts (``0``: no prefix to reuse).

    Found from the end: items after the last closing marker, then back to the
    marker that opens its section.  Markers that do not pair up give ``0``.
    """
    index = len(items) - 1
    while index >= 0 and type(items[index]) is not Marker:
        index -= 1
    depth = 0
    while index >= 0:
        item = items[index]
        if type(item) is Marker:
            if item.pos == "end":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return index
                if depth < 0:
                    return 0
        index -= 1
    return 0


class PrefixCache(Generic[T]):
    """Recent prefixes and what a consumer made of each, found by equality of items.

    A lookup compares with at most two stored prefixes: the most recent one
    (fixed shots: the same prefix in every prompt, even where a template
    rebuilds its constant items per row), and the one whose last role item is
    the very same object (retrieved shots recur as the same objects).
    """

    #: How many prefixes to remember (a retriever that picks different shots per row makes new ones).
    SIZE = 256

    __slots__ = ("_by_anchor", "_recent")

    def __init__(self) -> None:
        self._by_anchor: dict[int, tuple[tuple[Item, ...], T]] = {}
        self._recent: tuple[tuple[Item, ...], T] | None = None

    def get(self, prefix: tuple[Item, ...]) -> T | None:
        recent = self._recent
        if recent is not None and recent[0] == prefix:
            return recent[1]
        entry = self._by_anchor.get(id(_anchor(prefix)))
        if entry is not None and entry[0] == prefix:
            self._recent = entry
            return entry[1]
        return None

    def find(self, prefix: tuple[Item, ...], make: Callable[[tuple[Item, ...], str], T | None], mode: str) -> T | None:
        """What is stored for ``prefix``, else ``make(prefix, mode)``, stored unless it is ``None`` (a prefix the
        consumer cannot compile: it renders that prompt without the cache)."""
        value = self.get(prefix)
        if value is None:
            value = make(prefix, mode)
            if value is not None:
                self.put(prefix, value)
        return value

    def put(self, prefix: tuple[Item, ...], value: T) -> None:
        # The stored prefix holds its anchor, so no other object can take the anchor's id while the entry lives.
        if len(self._by_anchor) >= self.SIZE:
            self._by_anchor.clear()
        self._by_anchor[id(_anchor(prefix))] = self._recent = (prefix, value)


def _anchor(prefix: tuple[Item, ...]) -> Item | None:
    """The prefix's last role item (the last shot's answer, typically), or ``None``."""
    for item in reversed(prefix):
        if type(item) is RoleItem:
            return item
    return None


@dataclass(frozen=True, slots=True)
class RoleStep:
    """A rendered role of a plan: ``begin``, the prompt of the turn's ``slot``-th given prompt (``-1``: ``text``), ``end``."""

    spec: MetaRole
    begin: str
    slot: int
    text: str
    end: str

    def fill(self, prompts: list[str]) -> str:
        return self.begin + (prompts[self.slot] if self.slot >= 0 else self.text) + self.end


#: A plan step: a rendered role, text outside roles (a meta ``round`` string), or the cut.
Step = RoleStep | Text | Cut


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """The events of a ``round`` section of plain role items, each item's prompt a slot to fill."""

    steps: tuple[Step, ...]


def turn_plan(section: tuple[Item, ...], roles: RoleTable, mode: str) -> TurnPlan | None:
    """The plan of ``section`` (``<round>``, role items, ``</round>``) in ``mode``, or ``None`` if the walk raises.

    The walk is run on stand-in items whose prompts are fresh strings; it
    passes an item's prompt through untouched, so a rendered role whose
    prompt *is* a stand-in takes that item's prompt.
    """
    stand_ins: dict[int, int] = {}
    items: list[Item] = []
    for item in section[1:-1]:
        assert type(item) is RoleItem
        prompt = None
        if item.prompt is not None:
            prompt = f"\x00{len(stand_ins)}\x00"
            stand_ins[id(prompt)] = len(stand_ins)
        items.append(RoleItem(item.role, prompt, item.fallback_role))
    try:
        events: list[Event] = list(_walk_turns(tuple(items), roles, mode == "gen", "round"))
    except MetaTemplateError:
        return None
    steps: list[Step] = []
    for event in events:
        if isinstance(event, Rendered):
            slot = stand_ins.get(id(event.prompt), -1)
            steps.append(RoleStep(event.spec, event.begin, slot, event.prompt if slot < 0 else "", event.end))
        else:
            steps.append(event)
    return TurnPlan(tuple(steps))


#: Where a prompt's own turn starts, its shape (each item's role, fallback role, and whether it has no prompt),
#: and the prompts it gives, in order: the values of a plan's slots.
Turn = tuple[int, tuple[tuple[str, str | None, bool], ...], list[str]]


def plain_turn(items: tuple[Item, ...]) -> Turn | None:
    """The prompt's own turn when the prompt ends with one ``round`` of plain role items (no overrides, no parts).

    Found from the end, in one pass.
    """
    last = items[-1] if items else None
    if type(last) is not Marker or last.section != "round" or last.pos != "end":
        return None
    shape: list[tuple[str, str | None, bool]] = []
    prompts: list[str] = []
    index = len(items) - 2
    while index >= 0:
        item = items[index]
        if type(item) is RoleItem:
            if item.begin is not None or item.end is not None or item.parts is not None or item.has_message_fields:
                return None
            shape.append((item.role, item.fallback_role, item.prompt is None))
            if item.prompt is not None:
                prompts.append(item.prompt)
            index -= 1
        elif type(item) is Marker and item.section == "round" and item.pos == "begin":
            if item.given_roles:
                return None  # a dialogue's round: the plain walk renders it (plans are made for full rounds)
            shape.reverse()
            prompts.reverse()
            return index, tuple(shape), prompts
        else:
            return None
    return None


class Plans:
    """Turn plans by mode and shape (see :func:`plain_turn`), made on first use."""

    __slots__ = ("_plans", "_roles")

    def __init__(self, roles: RoleTable) -> None:
        self._roles = roles
        self._plans: dict[str, dict[tuple[Any, ...], TurnPlan | None]] = {"gen": {}, "ppl": {}}

    def get(self, items: tuple[Item, ...], turn: Turn, mode: str) -> TurnPlan | None:
        plans = self._plans[mode]
        try:
            return plans[turn[1]]
        except KeyError:
            plan = plans[turn[1]] = turn_plan(items[turn[0] :], self._roles, mode)
            return plan
