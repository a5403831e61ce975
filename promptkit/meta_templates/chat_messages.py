"""PromptList → chat messages, for API and chat models (OpenCompass's ``APITemplateParser``).

Each rendered role becomes one message ``(api_role, begin + prompt + end)``;
consecutive messages of the same ``api_role`` are merged with ``'\\n'``.
Empty messages are kept (as OpenCompass keeps them).

A multimodal turn's content is its tuple of parts (the role's ``begin`` and
``end``, when not empty, become text parts around them).  Merging a text
message with a multimodal one of the same role gives one parts tuple, in
order — AISBench raises a TypeError there.

Text outside any role cannot travel on its own in a chat request.  Where
OpenCompass drops it with a warning, promptkit joins non-blank text to the
adjacent user message, on a line of its own — the next message, or the
previous one at the end of the prompt — and raises an error naming the text when that message is not a
user message.  Whitespace-only text (separators between shots) is dropped.

A turn with tool calls (or answering one: a ``TOOL`` turn, or with its
reasoning) is a message of its own, never merged, and carries its
``tool_calls`` / ``tool_call_id`` / ``reasoning_content``.

Contents are typed (:data:`~promptkit.messages.Content`: text or a tuple of
parts) and never changed once built, so a builder's state can be kept and
resumed (:meth:`_MessageBuilder.state`), which the compiled walk does for a
prompt's constant prefix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from promptkit.errors import MetaTemplateError
from promptkit.messages import Content, Message, merge_content
from promptkit.meta_templates._compile import Plans, PrefixCache, RoleStep, TurnPlan, plain_turn, split
from promptkit.meta_templates._walk import Cut, Event, Rendered, RoleTable, Section, Text, walk
from promptkit.parts import Frozen, Part
from promptkit.promptlist import Item, Marker, PromptList, RoleItem

__all__ = ["ApiMessages", "BuilderState", "CompiledMessages", "content_without_meta", "render_api_messages"]


@dataclass(slots=True)
class ApiMessages:
    """Messages before the final role names: message ``i`` has the meta ``api_role`` ``roles[i]`` (``HUMAN``,
    ``BOT``, ``SYSTEM``) and the content ``contents[i]``.  Two lists, so that reused messages are added in one step."""

    roles: list[str]
    contents: list[Content]
    #: Whether every content is text (no message has content parts).
    text_only: bool = True
    #: The tool calls and the answered call id of message ``i``, for the messages that have them.
    tools: dict[int, ToolFields] = field(default_factory=dict)


#: A message's ``tool_calls``, ``tool_call_id`` and ``reasoning_content``.
ToolFields = tuple[tuple[Frozen, ...] | None, str | None, str | None]
#: The api role of tool results: each is a message of its own.
_TOOL_ROLE = "TOOL"


def _text_part(text: str) -> Part:
    return Part.text(text)


def _event_content(event: Rendered) -> Content:
    if event.parts is None:
        return event.begin + event.prompt + event.end
    parts = event.parts
    if event.begin:
        parts = (_text_part(event.begin), *parts)
    if event.end:
        parts = (*parts, _text_part(event.end))
    return parts


@dataclass(frozen=True, slots=True)
class BuilderState:
    """A :class:`_MessageBuilder` between two events, frozen: what it holds after a prompt's constant prefix."""

    roles: tuple[str, ...]
    contents: tuple[Content, ...]
    pending: tuple[str, ...]
    tail: Content
    before_tail: Content | None
    text_only: bool


class _MessageBuilder:
    """Rendered events → api messages: text outside roles joined to the adjacent user message, same roles merged.

    Merging happens as messages arrive.  ``tail`` is the last message before
    merging and ``before_tail`` what it was merged onto (``None``: nothing),
    so that text left over at the end of the prompt joins that last message
    alone, as if merging came after it.
    """

    __slots__ = ("before_tail", "contents", "pending", "roles", "tail", "text_only", "tools")

    def __init__(self) -> None:
        self.roles: list[str] = []
        self.contents: list[Content] = []
        self.pending: list[str] = []
        self.tail: Content = ""
        self.before_tail: Content | None = None
        self.text_only = True
        self.tools: dict[int, ToolFields] = {}

    def add(self, event: Event) -> None:
        if type(event) is Rendered:
            api_role = event.spec.api_role
            if api_role is None:
                raise MetaTemplateError(
                    f"role {event.spec.role!r} of the chat model's meta template has no api_role; "
                    "set api_role='HUMAN', 'BOT' or 'SYSTEM'",
                    key=event.spec.role,
                )
            if event.parts is None:
                content: Content = event.begin + event.prompt + event.end
            else:
                content = _event_content(event)
                self.text_only = False
            if event.tool_calls is not None or event.tool_call_id is not None or event.reasoning_content is not None:
                self.add_message(api_role, content, (event.tool_calls, event.tool_call_id, event.reasoning_content))
            else:
                self.add_message(api_role, content)
        elif type(event) is Text and event.text.strip():
            self.pending.append(event.text)

    def add_message(self, api_role: str, content: Content, tools: ToolFields | None = None) -> None:
        """A rendered role's message: pending text outside roles joins it first (it must be a user message)."""
        if self.pending:
            if api_role != _USER_ROLE:
                raise _misplaced(self.pending, f"before a {api_role} message")
            content = _join_lines("".join(self.pending), content)
            self.pending = []
        if tools is not None or api_role == _TOOL_ROLE or (self.tools and len(self.roles) - 1 in self.tools):
            # A tool call, a tool's result, and whatever follows a tool call: messages of their own.
            if tools is not None:
                self.tools[len(self.roles)] = tools
            self.before_tail = None
            self.roles.append(api_role)
            self.contents.append(content)
            self.tail = content
            return
        self.append(api_role, content)

    def append(self, api_role: str, content: Content) -> None:
        roles = self.roles
        if roles and roles[-1] == api_role:
            self.before_tail = self.contents[-1]
            self.contents[-1] = merge_content(self.before_tail, content)
        else:
            self.before_tail = None
            roles.append(api_role)
            self.contents.append(content)
        self.tail = content

    def add_section(self, section: Section) -> None:
        """A memoised section: its messages are built once and kept on it, when they can be reused as text.

        Reusing them is exact when no text is pending and the seam does not
        merge text onto a parts tuple (see :class:`_SectionMessages`);
        otherwise the section's events are added one by one.
        """
        reuse = section.derived.get("api", _UNSET)
        if reuse is _UNSET:
            reuse = section.derived["api"] = _SectionMessages.of(section)
        roles = self.roles
        if (
            reuse is None
            or self.pending
            or (roles and roles[-1] == reuse.first_role and type(self.contents[-1]) is not str)
            or (self.tools and len(roles) - 1 in self.tools)
            or (roles and roles[-1] == reuse.first_role == _TOOL_ROLE)
        ):
            for event in section.events:
                self.add(event)
        elif reuse.first_role is not None:
            self.append(reuse.first_role, reuse.first_content)
            if reuse.rest_roles:
                roles.extend(reuse.rest_roles)
                self.contents.extend(reuse.rest_contents)
                self.before_tail = None
                self.tail = reuse.rest_contents[-1]

    def state(self) -> BuilderState:
        """What the builder holds now, frozen (contents are values, so nothing is copied but the lists)."""
        return BuilderState(tuple(self.roles), tuple(self.contents), tuple(self.pending), self.tail, self.before_tail, self.text_only)

    @classmethod
    def resume(cls, state: BuilderState) -> _MessageBuilder:
        """A builder that goes on from ``state`` (a later :meth:`state`'s lists are its own)."""
        builder = cls.__new__(cls)
        builder.roles = list(state.roles)
        builder.contents = list(state.contents)
        builder.pending = list(state.pending)
        builder.tail = state.tail
        builder.before_tail = state.before_tail
        builder.text_only = state.text_only
        builder.tools = {}
        return builder

    def finish(self) -> ApiMessages:
        if self.pending:
            if not self.roles or self.roles[-1] != _USER_ROLE:
                raise _misplaced(self.pending, "at the end of the prompt, after no user message")
            joined = _join_lines(self.tail, "".join(self.pending))
            self.contents[-1] = joined if self.before_tail is None else merge_content(self.before_tail, joined)
        return ApiMessages(self.roles, self.contents, self.text_only, self.tools)


#: The api role that carries text standing outside any role.
_USER_ROLE = "HUMAN"
_UNSET = object()


@dataclass(frozen=True, slots=True)
class _SectionMessages:
    """A section's merged messages, all text: the first (which may merge with the message before) and the rest.

    Joining text with ``'\\n'`` is associative, so adding these gives what
    adding the section's events one by one gives — unless the first merges
    onto a parts tuple, where one text part would stand for several.
    """

    first_role: str | None
    first_content: str
    rest_roles: tuple[str, ...]
    rest_contents: tuple[str, ...]

    @classmethod
    def of(cls, section: Section) -> _SectionMessages | None:
        """``None`` when the messages are not all text, or text outside roles is left over."""
        builder = _MessageBuilder()
        for event in section.events:
            builder.add(event)
        contents = builder.contents
        if builder.pending or not builder.text_only or builder.tools:
            return None
        texts: list[str] = contents  # type: ignore[assignment]  # all str, checked above
        if not texts:
            return cls(None, "", (), ())
        return cls(builder.roles[0], texts[0], tuple(builder.roles[1:]), tuple(texts[1:]))


def render_api_messages(prompt: PromptList, roles: RoleTable, mode: str) -> ApiMessages:
    """The prompt's messages, still with meta ``api_role`` names; consecutive messages of one role merged (the plain walk)."""
    builder = _MessageBuilder()
    add_events(builder, prompt.items, roles, mode)
    return builder.finish()


def add_events(builder: _MessageBuilder, items: tuple[Item, ...], roles: RoleTable, mode: str) -> bool:
    """Walk ``items`` into ``builder``; whether generation cut the prompt short."""
    for event in walk(items, roles, mode):
        if type(event) is Section:
            builder.add_section(event)
        elif type(event) is Cut:
            return True
        else:
            builder.add(event)
    return False


#: Makes the final message of a meta ``api_role`` and a content (the chat model maps the role name).
ToMessage = Callable[[str, Content], Message]


class CompiledMessages:
    """:func:`render_api_messages` for one model, compiled (see :mod:`promptkit.meta_templates._compile`), to final messages.

    A prefix is kept as its finished :class:`~promptkit.Message` values (all of its messages but the last,
    which the prompt's own turn may merge into), the builder after it, and the last message, reused when
    nothing merged into it.
    """

    __slots__ = ("_plans", "_prefixes", "_roles", "_to_message")

    def __init__(self, roles: RoleTable, to_message: ToMessage) -> None:
        self._roles = roles
        self._to_message = to_message
        self._prefixes: dict[str, PrefixCache[_Prefix]] = {"gen": PrefixCache(), "ppl": PrefixCache()}
        self._plans = Plans(roles)

    def render(self, prompt: PromptList, mode: str) -> tuple[Message, ...]:
        items = prompt.items
        turn = plain_turn(items)
        start = turn[0] if turn is not None else split(items)
        roles = self._roles
        prefix: _Prefix | None = None
        if start:
            prefix = self._prefixes[mode].find(items[:start], self._prefix, mode)
            if prefix is None:
                return self._messages(render_api_messages(prompt, roles, mode), None)
        plan = self._plans.get(items, turn, mode) if turn is not None else None
        if plan is not None and turn is not None and (prefix is None or not prefix.state.pending):
            return self._fill(plan, turn[2], prefix)
        builder = _MessageBuilder.resume(prefix.state) if prefix is not None else _MessageBuilder()
        if plan is None or turn is None:
            add_events(builder, items[start:], roles, mode)
        else:
            for step in plan.steps:
                if type(step) is Cut:
                    break
                builder.add(Rendered(step.spec, "", step.fill(turn[2]), "") if isinstance(step, RoleStep) else step)
        return self._messages(builder.finish(), prefix)

    def _fill(self, plan: TurnPlan, prompts: list[str], prefix: _Prefix | None) -> tuple[Message, ...]:
        """The messages of a plan after a prefix that leaves no text waiting, straight to messages.

        A chat model's round holds no literal text (:func:`~promptkit.meta_templates.validation.check_chat_meta`),
        so the plan has role steps up to the cut.  Each role's message is appended, or merged onto the one
        before when it has the same api role — what the builder does when no text outside roles is pending —
        and the prefix's last message is kept as it was made unless something merges into it.
        """
        to_message = self._to_message
        done: list[Message] = []
        role: str | None = None
        content: Content = ""
        message: Message | None = None
        if prefix is not None and prefix.last is not None:
            role, content, message = prefix.state.roles[0], prefix.last.content_source, prefix.last.message
        for step in plan.steps:
            if type(step) is not RoleStep:
                break  # the cut
            text = step.fill(prompts)
            if step.spec.api_role == role and role != _TOOL_ROLE:
                content = merge_content(content, text)
                message = None
            else:
                if role is not None:
                    done.append(message if message is not None else to_message(role, content))
                role, content, message = step.spec.api_role, text, None
        if role is not None:
            done.append(message if message is not None else to_message(role, content))
        return (*prefix.head, *done) if prefix is not None else tuple(done)

    def _messages(self, rest: ApiMessages, prefix: _Prefix | None) -> tuple[Message, ...]:
        """The prefix's head, then the rest mapped to messages (the prefix's last one reused when unchanged)."""
        if rest.tools:
            messages = list(self._messages(ApiMessages(rest.roles, rest.contents, rest.text_only), prefix))
            offset = len(prefix.head) if prefix is not None else 0
            for index, (calls, call_id, reasoning) in rest.tools.items():
                messages[offset + index] = replace(messages[offset + index], tool_calls=calls, tool_call_id=call_id, reasoning_content=reasoning)
            return tuple(messages)
        roles, contents = rest.roles, rest.contents
        if prefix is None:
            return tuple(map(self._to_message, roles, contents))
        last = prefix.last
        if last is not None and contents[0] is last.content_source:
            return (*prefix.head, last.message, *map(self._to_message, roles[1:], contents[1:]))
        return prefix.head + tuple(map(self._to_message, roles, contents))

    def _prefix(self, items: tuple[Item, ...], mode: str) -> _Prefix | None:
        """What the prefix makes; ``None`` when the walk raises or cuts (the plain walk decides)."""
        builder = _MessageBuilder()
        try:
            if add_events(builder, items, self._roles, mode) or builder.tools:
                return None  # a cut, or tool calls: the plain walk renders the prompt
            head = tuple(map(self._to_message, builder.roles[:-1], builder.contents[:-1]))
            last = _Last(builder.contents[-1], self._to_message(builder.roles[-1], builder.contents[-1])) if builder.roles else None
        except MetaTemplateError:
            return None
        state = BuilderState(
            tuple(builder.roles[-1:]), tuple(builder.contents[-1:]), tuple(builder.pending), builder.tail, builder.before_tail, builder.text_only
        )
        return _Prefix(head, state, last)


@dataclass(frozen=True, slots=True)
class _Last:
    """A prefix's last message and the content object it was made of."""

    content_source: Content
    message: Message


@dataclass(frozen=True, slots=True)
class _Prefix:
    head: tuple[Message, ...]
    state: BuilderState
    last: _Last | None


def _join_lines(first: Content, second: Content) -> Content:
    """``first`` then ``second`` on a new line, unless ``first`` is empty or already ends one (parts: one tuple)."""
    if type(first) is not str or type(second) is not str:
        return merge_content(first, second)
    return first + second if not first or first.endswith("\n") else first + "\n" + second


def _misplaced(texts: list[str], where: str) -> MetaTemplateError:
    text = "".join(texts)
    shown = text if len(text) <= 60 else text[:57] + "..."
    return MetaTemplateError(
        f"text {shown!r} stands outside any role {where}; a chat model can only carry it inside a user message. "
        "Move it into a HUMAN prompt, or make ice_template a chat template so shots become turns"
    )


def content_without_meta(prompt: PromptList) -> Content:
    """No meta template: one user message's content.

    Texts and role prompts are joined with ``'\\n'`` (roles and sections
    ignored).  If any turn is multimodal the content is a parts tuple: each run
    of text becomes one text part, and every part keeps its place — AISBench
    drops the media whenever any text exists.
    """
    content: Content = ""
    texts: list[str] = []
    for item in prompt.items:
        if type(item) is Marker:
            continue
        if type(item) is RoleItem and item.parts is not None:
            if texts:
                content = merge_content(content, "\n".join(texts)) if content else "\n".join(texts)
                texts = []
            content = merge_content(content, item.parts)
            continue
        text = item if type(item) is str else (item.prompt or "")  # type: ignore[union-attr]
        if text:
            texts.append(text)
    if texts:
        joined = "\n".join(texts)
        content = merge_content(content, joined) if content else joined
    return content
