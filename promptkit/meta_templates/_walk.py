"""Walking a PromptList through a meta template: sections, turns and the generation cut.

Both model kinds share this walk; they differ only in what they make of its
events (a completion model concatenates text, a chat model builds messages).

* Strings are passed on where they stand.
* Role items in ``begin``/``end`` sections (or outside any section) are
  rendered one by one.
* Role items of a ``round``/``ice`` section are rendered when the section
  closes, grouped into turns: a new turn starts whenever a role does not come
  later in the meta template's ``round`` than the previous one.  Every role of
  the meta ``round`` is rendered in every turn (empty when the turn lacks it),
  as OpenCompass does.  A reserved role (``SYSTEM``) met inside a round is
  rendered on its own at its place — OpenCompass loses it or crashes.
* A turn that follows a ``TOOL`` item (a tool's result) renders only its own
  roles, from its first: the model answers the tool's result, with no empty
  user turn in between.
* A round opened with ``given_roles=True`` (a dialogue: ``ChatInferencer``)
  renders in each turn only the roles the turn holds, and the generated role
  where generation cuts: OpenCompass's ChatInferencer parser writes the
  dialogue's messages and nothing else.
* In ``gen`` mode, the last turn of a ``round`` section stops at the first
  ``generate=True`` role: only its ``begin`` is rendered, and the walk ends.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, final

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates.spec import MetaRole, MetaTemplate
from promptkit.parts import Frozen, Part
from promptkit.promptlist import Item, Marker, RoleItem

__all__ = ["Cut", "Rendered", "RoleTable", "Section", "Text", "generation_cut", "walk"]


@final
@dataclass(frozen=True, slots=True)
class Text:
    text: str


@final
@dataclass(frozen=True, slots=True)
class Rendered:
    """A role rendered as ``begin + prompt + end``, by the meta role ``spec``.

    A multimodal turn has its content ``parts`` instead, and ``prompt == ''``.
    """

    spec: MetaRole
    begin: str
    prompt: str
    end: str
    parts: tuple[Part, ...] | None = None
    #: The item's tool calls, the call it answers and its reasoning (see :class:`~promptkit.promptlist.RoleItem`).
    tool_calls: tuple[Frozen, ...] | None = None
    tool_call_id: str | None = None
    reasoning_content: str | None = None


@final
@dataclass(frozen=True, slots=True)
class Cut:
    """The model's turn starts here: only ``begin`` is rendered, and nothing after."""

    spec: MetaRole
    begin: str
    #: The cut item's own prompt, which generation drops (a prefill keeps it as the answer's start).
    prompt: str = ""


Event = Text | Rendered | Cut


@final
@dataclass(frozen=True, slots=True, eq=False)
class Section:
    """The events of sections that generation cannot cut (shots, a ppl round), as :func:`walk` yields them.

    One object stands for a run of consecutive such sections (five shots in a
    row), and the same object comes back whenever equal items recur, so a
    consumer may keep what it makes of the events in ``derived`` (under a key
    of its own) and reuse it: shots used by many rows are converted once.
    """

    events: tuple[Event, ...]
    derived: dict[str, Any] = field(default_factory=dict)


#: Appended to a section's items in the memo's key when its turns render only their own roles.
_GIVEN_ROLES = Marker("round", "begin", given_roles=True)


class RoleTable:
    """A meta template's roles by name and turn order, computed once per model."""

    #: How many rendered sections to remember (shots recur from row to row).
    SECTION_CACHE_SIZE = 1024

    def __init__(self, meta: MetaTemplate) -> None:
        self.meta = meta
        self.order = {role.role: i for i, role in enumerate(meta.round_roles)}
        self.by_name = {role.role: role for role in meta.round_roles + meta.reserved}
        self._sections: dict[tuple[Item, ...], Section] = {}
        self._runs: dict[tuple[Section, ...], Section] = {}

    def section(self, section_items: tuple[Item, ...], section: str, given_roles: bool = False) -> Section:
        """The events of a section that generation cannot cut, memoised.

        Items are frozen values, so equal items always give equal events: a
        shot used by many rows is walked once.
        """
        key = (*section_items, _GIVEN_ROLES) if given_roles else section_items
        memo = self._sections.get(key)
        if memo is None:
            memo = Section(tuple(_walk_turns(section_items, self, False, section, given_roles)))
            if len(self._sections) >= self.SECTION_CACHE_SIZE:
                self._sections.clear()
                self._runs.clear()
            self._sections[key] = memo
        return memo

    def run(self, sections: list[Section]) -> Section:
        """Consecutive sections as one, memoised by the sections' identities (each is the one object for its items)."""
        if len(sections) == 1:
            return sections[0]
        key = tuple(sections)
        memo = self._runs.get(key)
        if memo is None:
            memo = Section(tuple(event for section in sections for event in section.events))
            if len(self._runs) >= self.SECTION_CACHE_SIZE:
                self._runs.clear()
            self._runs[key] = memo
        return memo

    def resolve(self, item: RoleItem) -> MetaRole:
        spec = self.by_name.get(item.role)
        if spec is None and item.fallback_role is not None:
            spec = self.by_name.get(item.fallback_role)
        if spec is None:
            known = ", ".join(self.by_name)
            if item.fallback_role is None:
                problem = "and the item has no fallback_role"
            else:
                problem = f"and neither is its fallback_role {item.fallback_role!r}"
            raise MetaTemplateError(
                f"role {item.role!r} is not in the model's meta template (its roles: {known}) {problem}; "
                "give the item a fallback_role that is (e.g. fallback_role='HUMAN') or add the role to the meta template",
                key=item.role,
            )
        return spec


def _render_one(spec: MetaRole, item: RoleItem | None) -> Rendered:
    if item is None:
        return Rendered(spec, spec.begin, spec.prompt or "", spec.end)
    begin = item.begin if item.begin is not None else spec.begin
    end = item.end if item.end is not None else spec.end
    if item.has_message_fields:
        prompt = item.prompt if item.prompt is not None else ""
        parts = item.parts
        return Rendered(spec, begin, "" if parts is not None else prompt, end, parts, item.tool_calls, item.tool_call_id, item.reasoning_content)
    if item.parts is not None:
        return Rendered(spec, begin, "", end, item.parts)
    prompt = item.prompt if item.prompt is not None else (spec.prompt or "")
    return Rendered(spec, begin, prompt, end)


def walk(items: tuple[Item, ...], roles: RoleTable, mode: str) -> Iterator[Event | Section]:
    """The events of a PromptList; a run of sections generation cannot cut comes as one memoised :class:`Section`."""
    run: list[Section] = []
    for event in _walk_items(items, roles, mode):
        if type(event) is Section:
            run.append(event)
            continue
        if run:
            yield roles.run(run)
            run = []
        yield event
    if run:
        yield roles.run(run)


def generation_cut(items: tuple[Item, ...], roles: RoleTable) -> Cut | None:
    """Where generation cuts a prompt (the model's turn, with the prompt it drops); ``None`` when it cuts nothing."""
    events = deque(walk(items, roles, "gen"), maxlen=1)  # the walk ends at the cut, if there is one
    return events[0] if events and type(events[0]) is Cut else None


def _walk_items(items: tuple[Item, ...], roles: RoleTable, mode: str) -> Iterator[Event | Section]:
    stack: list[tuple[str, int, bool]] = []
    for index, item in enumerate(items):
        if type(item) is str:
            yield Text(item)
        elif type(item) is Marker:
            if item.pos == "begin":
                stack.append((item.section, index + 1, item.given_roles))
                continue
            if not stack or stack[-1][0] != item.section:
                open_ = stack[-1][0] if stack else "nothing"
                raise MetaTemplateError(f"section markers do not match: </{item.section}> closes {open_}", section=item.section)
            section, start, given_roles = stack.pop()
            if section == "round" and mode == "gen":
                for event in _walk_turns(items[start:index], roles, True, section, given_roles):
                    yield event
                    if type(event) is Cut:
                        return
            elif section in ("round", "ice"):
                yield roles.section(items[start:index], section, given_roles)
        elif type(item) is RoleItem:
            if stack and stack[-1][0] in ("round", "ice"):
                continue  # rendered when its section closes
            try:
                yield _render_one(roles.resolve(item), item)
            except MetaTemplateError as error:
                raise error.add_context(section=stack[-1][0] if stack else None) from None
    if stack:
        raise MetaTemplateError(f"section {stack[-1][0]!r} is opened but never closed", section=stack[-1][0])


def _walk_turns(section_items: tuple[Item, ...], roles: RoleTable, cut_allowed: bool, section: str, given_roles: bool = False) -> Iterator[Event]:
    # Units: a turn (role name -> item) or a reserved-role item standing alone.
    units: list[dict[str, RoleItem] | tuple[MetaRole, RoleItem]] = []
    after_tool: set[int] = set()  # the turns that follow a TOOL item
    current: dict[str, RoleItem] | None = None
    last_order = -1
    depth = 0  # items of a section nested in this one (shots spliced into a round) were rendered when it closed
    for position, item in enumerate(section_items):
        if type(item) is Marker:
            depth += 1 if item.pos == "begin" else -1
            continue
        if type(item) is not RoleItem or depth:
            continue
        try:
            spec = roles.resolve(item)
        except MetaTemplateError as error:
            raise error.add_context(section=section, item=position) from None
        order = roles.order.get(spec.role)
        if order is None:
            units.append((spec, item))
            current = None
            last_order = -1
            continue
        if current is None or order <= last_order:
            if units and isinstance(units[-1], tuple) and units[-1][1].role == "TOOL":
                after_tool.add(len(units))
            current = {}
            units.append(current)
        current[spec.role] = item
        last_order = order
    last_turn = max((i for i, unit in enumerate(units) if isinstance(unit, dict)), default=-1)
    for i, unit in enumerate(units):
        if isinstance(unit, tuple):
            yield _render_one(*unit)
            continue
        cut_here = cut_allowed and i == last_turn
        skipping = i in after_tool  # the round's elements before the turn's first role are not rendered
        for element in roles.meta.round:
            if given_roles and (isinstance(element, str) or (element.role not in unit and not (cut_here and element.generate))):
                continue
            if skipping:
                if isinstance(element, str) or element.role not in unit:
                    continue
                skipping = False
            if isinstance(element, str):
                yield Text(element)
                continue
            role_item = unit.get(element.role)
            if cut_here and element.generate:
                begin = role_item.begin if role_item is not None and role_item.begin is not None else element.begin
                yield Cut(element, begin, role_item.prompt or "" if role_item is not None else "")
                return
            yield _render_one(element, role_item)
