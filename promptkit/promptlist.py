"""The intermediate representation: a :class:`PromptList`.

A template renders a row into a ``PromptList``: an immutable sequence of

* plain strings (text outside any role, e.g. a string-form few-shot block),
* :class:`RoleItem` — a turn of ``role`` (``HUMAN``, ``BOT``, ``SYSTEM``, …)
  with its ``prompt`` (or, multimodal, its content ``parts``), an optional
  ``fallback_role`` and ``begin``/``end`` overrides for the model's role markers,
  and, in tool-using conversations, an assistant turn's ``tool_calls`` or a
  ``TOOL`` turn's ``tool_call_id``,
* :class:`Marker` — the opening or closing of a section (``begin``, ``round``,
  ``end`` or ``ice``).

A model's meta template turns it into the final input.  The operations
runners rely on (``format``, ``replace``, ``+``) follow OpenCompass's
``PromptList``, without its traps: substitution is single-pass, a plain list
is spliced like a PromptList instead of deleting the item, and
``list + PromptList`` concatenates instead of recursing forever.

>>> pl = PromptList([Marker("round", "begin"), RoleItem("HUMAN", "Q: {q}"), RoleItem("BOT", "A:"), Marker("round", "end")])
>>> pl.format(q="1+1=?")
PromptList([
  <round>
  HUMAN: 'Q: 1+1=?'
  BOT: 'A:'
  </round>
])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, overload

from promptkit.errors import TemplateError, did_you_mean
from promptkit.parts import Frozen, Part, thaw
from promptkit.text.placeholders import compile_text

__all__ = ["ROLE_ITEM_KEYS", "Item", "Marker", "PromptList", "RoleItem", "check_role_item"]

SECTIONS = ("begin", "round", "end", "ice")


@dataclass(frozen=True, slots=True)
class Marker:
    """Opens (``pos='begin'``) or closes (``pos='end'``) a section.

    ``given_roles=True`` on a ``round``'s opening marker makes each turn of the round render only the roles it holds
    (a dialogue's messages, as OpenCompass's ``ChatInferencer`` parses them), not every role of the meta template's
    round; the generated role still closes it.
    """

    section: Literal["begin", "round", "end", "ice"]
    pos: Literal["begin", "end"]
    given_roles: bool = False

    def dump(self) -> dict[str, Any]:
        if self.given_roles:
            return {"section": self.section, "pos": self.pos, "given_roles": True}
        return {"section": self.section, "pos": self.pos}


@dataclass(frozen=True, slots=True)
class RoleItem:
    """One turn of a conversation, before the model's meta template wraps it.

    ``prompt=None`` means the template gave no prompt: the meta template's
    default prompt for the role (or ``''``) is used.  ``begin``/``end``
    override the role's markers in the meta template for this item only.
    ``parts`` makes the turn multimodal: its content is these parts (text,
    image, audio, video) in order, and ``prompt`` is ``None``.
    ``tool_calls`` (frozen OpenAI tool calls, :func:`~promptkit.parts.freeze`)
    are the calls an assistant turn makes; ``tool_call_id`` names the call a
    ``TOOL`` turn (a tool's result) answers; ``reasoning_content`` is an
    assistant turn's reasoning (a chat request carries it beside the content).
    """

    role: str
    prompt: str | None = None
    fallback_role: str | None = None
    begin: str | None = None
    end: str | None = None
    parts: tuple[Part, ...] | None = None
    # Not in the repr: a turn's repr stays what it was for the many turns without tools (dump() shows them).
    tool_calls: tuple[Frozen, ...] | None = field(default=None, repr=False)
    tool_call_id: str | None = field(default=None, repr=False)
    reasoning_content: str | None = field(default=None, repr=False)

    @property
    def has_message_fields(self) -> bool:
        """Whether the turn carries tool calls, answers one, or carries reasoning: a chat message of its own."""
        return self.tool_calls is not None or self.tool_call_id is not None or self.reasoning_content is not None

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role}
        for key in ("fallback_role", "prompt", "begin", "end"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.parts is not None:
            out["prompt_mm"] = [part.dump() for part in self.parts]
        if self.tool_calls is not None:
            out["tool_calls"] = [thaw(call) for call in self.tool_calls]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.reasoning_content is not None:
            out["reasoning_content"] = self.reasoning_content
        return out


Item = str | RoleItem | Marker

#: The keys a role item of a template may have.
ROLE_ITEM_KEYS = ("role", "prompt", "fallback_role", "begin", "end")


def check_role_item(spec: Mapping[str, Any], where: str = "") -> None:
    """Raise a TemplateError unless ``spec`` is a valid role item dict (``where`` prefixes the message)."""
    prefix = f"{where}: " if where else ""
    for key in spec:
        if key not in ROLE_ITEM_KEYS:
            hint = " (multimodal parts need MMPromptTemplate)" if key == "prompt_mm" else did_you_mean(key, ROLE_ITEM_KEYS)
            raise TemplateError(f"{prefix}unknown key {key!r} in a role item{hint}; a role item takes {list(ROLE_ITEM_KEYS)}")
    if not isinstance(spec.get("role"), str) or not spec["role"]:
        raise TemplateError(f"{prefix}a role item needs a 'role' name (e.g. dict(role='HUMAN', prompt='{{question}}')), got {dict(spec)!r}")
    for key in ROLE_ITEM_KEYS:
        value = spec.get(key)
        if value is not None and not isinstance(value, str):
            raise TemplateError(f"{prefix}{key!r} must be a str (got {value!r} that is a {type(value).__name__})")


def item_from_obj(obj: Any) -> Item:
    """Convert an OpenCompass-style item (``str`` or ``dict``) to a typed item."""
    if isinstance(obj, (str, RoleItem, Marker)):
        return obj
    if isinstance(obj, Mapping):
        if set(obj) == {"section", "pos"}:
            if obj["section"] not in SECTIONS or obj["pos"] not in ("begin", "end"):
                raise TemplateError(f"invalid section marker {dict(obj)!r}: section must be one of {SECTIONS}, pos 'begin' or 'end'")
            return Marker(obj["section"], obj["pos"])
        if "role" in obj:
            parts = obj.get("prompt_mm")
            if parts is not None:
                return _multimodal_item(obj, parts)
            check_role_item(obj)
            return RoleItem(obj["role"], obj.get("prompt"), obj.get("fallback_role"), obj.get("begin"), obj.get("end"))
    raise TemplateError(
        f"a prompt item must be a str, a role dict (role=..., prompt=...) or a section marker (got {obj!r} that is a {type(obj).__name__})"
    )


def _multimodal_item(obj: Mapping[str, Any], parts: Any) -> RoleItem:
    """A role dict whose ``prompt_mm`` is a list of OpenAI-style content parts."""
    if not isinstance(parts, (list, tuple)):
        raise TemplateError(f"'prompt_mm' of a prompt item must be a list of content parts (got {parts!r})")
    check_role_item({key: value for key, value in obj.items() if key != "prompt_mm"})
    if obj.get("prompt") is not None:
        raise TemplateError(f"a prompt item has both 'prompt' and 'prompt_mm' ({dict(obj)!r}); a multimodal item carries its text as parts")
    try:
        typed = tuple(part if isinstance(part, Part) else Part.from_dict(part) for part in parts)
    except (ValueError, AttributeError) as error:
        raise TemplateError(f"'prompt_mm' of a {obj['role']} item: {error}") from None
    return RoleItem(obj["role"], None, obj.get("fallback_role"), obj.get("begin"), obj.get("end"), typed)


class PromptList(Sequence[Item]):
    """An immutable, role-tagged, section-marked prompt (see the module docstring)."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items: tuple[Item, ...] = tuple(item_from_obj(item) for item in items)

    @classmethod
    def _of(cls, items: tuple[Item, ...]) -> PromptList:
        """Wrap already-typed items without re-checking them (the renderers' fast path)."""
        new = cls.__new__(cls)
        new._items = items
        return new

    # -- sequence protocol -------------------------------------------------
    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Item]:
        return iter(self._items)

    @overload
    def __getitem__(self, index: int) -> Item: ...
    @overload
    def __getitem__(self, index: slice) -> PromptList: ...
    def __getitem__(self, index: int | slice) -> Item | PromptList:
        if isinstance(index, slice):
            return PromptList._of(self._items[index])
        return self._items[index]

    @property
    def items(self) -> tuple[Item, ...]:
        return self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PromptList):
            return self._items == other._items
        if isinstance(other, list):
            return self.dump() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._items)

    # -- OpenCompass-compatible operations ---------------------------------
    def format(self, **values: Any) -> PromptList:
        """Fill ``{name}`` placeholders in strings and role prompts, in one pass.

        Other keys of a role item (``begin``/``end``) are left as written, as
        in OpenCompass.  Unknown placeholders stay literal.
        """
        out: list[Item] = []
        for item in self._items:
            if isinstance(item, str):
                out.append(compile_text(item).render(values))
            elif isinstance(item, RoleItem) and item.prompt is not None:
                out.append(replace(item, prompt=compile_text(item.prompt).render(values)))
            else:
                out.append(item)
        return PromptList._of(tuple(out))

    def replace(self, src: str, dst: str | Sequence[Any]) -> PromptList:
        """Replace ``src`` in every string and role prompt.

        With a string ``dst`` this is a plain substring replace.  With a list
        or PromptList ``dst``, string items are split on ``src`` and the items
        of ``dst`` are spliced between the (non-empty) pieces; a role prompt
        containing ``src`` cannot hold a list, which is an error.
        """
        if isinstance(dst, str):
            return PromptList._of(
                tuple(
                    item.replace(src, dst)
                    if isinstance(item, str)
                    else replace(item, prompt=item.prompt.replace(src, dst))
                    if isinstance(item, RoleItem) and item.prompt is not None and src in item.prompt
                    else item
                    for item in self._items
                )
            )
        splice = dst._items if isinstance(dst, PromptList) else tuple(item_from_obj(x) for x in dst)
        out: list[Item] = []
        for item in self._items:
            if isinstance(item, str):
                pieces = item.split(src)
                for i, piece in enumerate(pieces):
                    if i:
                        out.extend(splice)
                    if piece:
                        out.append(piece)
            elif isinstance(item, RoleItem) and item.prompt is not None and src in item.prompt:
                raise TemplateError(
                    f"{src!r} sits inside the prompt of a {item.role} item, which holds text only, "
                    "so a list of items cannot replace it; put the token in its own item (e.g. begin=['" + src + "'])"
                )
            else:
                out.append(item)
        return PromptList._of(tuple(out))

    def __add__(self, other: object) -> PromptList:
        if not other:
            return self
        if isinstance(other, str):
            return PromptList._of(self._items + (other,))
        if isinstance(other, PromptList):
            return PromptList._of(self._items + other._items)
        if isinstance(other, (list, tuple)):
            return PromptList._of(self._items + PromptList(other)._items)
        return NotImplemented

    def __radd__(self, other: object) -> PromptList:
        if not other:
            return self
        if isinstance(other, str):
            return PromptList._of((other,) + self._items)
        if isinstance(other, (list, tuple)):
            return PromptList._of(PromptList(other)._items + self._items)
        return NotImplemented

    def __str__(self) -> str:
        """Strings, role prompts and text parts concatenated with no separator (markers and media add nothing)."""
        return "".join(
            item if isinstance(item, str) else _role_text(item) if isinstance(item, RoleItem) else ""
            for item in self._items
        )

    # -- inspection ---------------------------------------------------------
    def dump(self) -> list[str | dict[str, str]]:
        """Plain JSON-able form: strings stay strings, items become dicts (OpenCompass's layout)."""
        return [item if isinstance(item, str) else item.dump() for item in self._items]

    def __repr__(self) -> str:
        if not self._items:
            return "PromptList([])"
        return "PromptList([\n" + "\n".join("  " + describe_item(item) for item in self._items) + "\n])"


def _role_text(item: RoleItem) -> str:
    if item.parts is not None:
        return "".join(part.text_value for part in item.parts)
    return item.prompt or ""


def describe_item(item: Item) -> str:
    """One readable line per item: ``<round>``, ``HUMAN: 'text'``, ``'loose text'``."""
    if isinstance(item, Marker):
        return f"<{item.section}>" if item.pos == "begin" else f"</{item.section}>"
    if isinstance(item, RoleItem):
        extras = "".join(
            f" [{key}={getattr(item, key)!r}]" for key in ("fallback_role", "begin", "end") if getattr(item, key) is not None
        )
        if item.parts is not None:
            prompt = "[" + ", ".join(part.describe() for part in item.parts) + "]"
        else:
            prompt = "(no prompt)" if item.prompt is None else repr(item.prompt)
        return f"{item.role}: {prompt}{extras}"
    return repr(item)
