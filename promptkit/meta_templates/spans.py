"""Where each piece of a prompt sits in the model's final input: character spans.

:func:`find_spans` renders a PromptList twice through the same model: as it is,
and with each text replaced by a numbered marker (its leading and trailing
whitespace kept, so that emptiness, ``'\\n'`` joins and ``| trim`` behave the
same).  The markers' places in the second output, with the texts put back, give
each text's span in the first — for every meta template, chat model and chat
template, without a ``{% generation %}`` tag.  The text rebuilt from the marked
output must equal the real output; where a model rewrites a text (a chat
template that cuts or edits message content), :func:`find_spans` raises instead
of guessing.

Pieces are named by where their text stands in the PromptList:

* ``system`` — a ``SYSTEM`` item;
* ``shot[i]`` and ``shot[i].answer`` — the ``i``-th in-context example's
  question and answer (the ``BOT`` item of its ``ice`` section);
* ``history`` and ``history.answer`` — earlier turns of the round;
* ``query`` — the item under test;
* ``answer_slot`` — in ``ppl`` mode the final ``BOT`` text (the label
  continuation); in ``gen`` mode an empty span at the end of a completion
  string (where generation starts);
* ``text`` — any other text; ``wrapper`` — text the model added (role
  ``begin``/``end``, BOS, headers), for completion strings.

A span of a text that a template trimmed covers the trimmed text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates.model import Model
from promptkit.promptlist import Item, Marker, PromptList, RoleItem

__all__ = ["Span", "find_spans"]

_OPEN, _CLOSE = "\ue000", "\ue001"  # private-use characters: never produced by a template, refused in prompts
_MARK = re.compile(f"{_OPEN}(\\d+){_CLOSE}")


@dataclass(frozen=True, slots=True)
class Span:
    """``final[start:end]`` is the piece (``message`` indexes the chat message whose ``content`` holds it)."""

    piece: str
    start: int
    end: int
    message: int | None = None

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {"piece": self.piece, "start": self.start, "end": self.end}
        if self.message is not None:
            out["message"] = self.message
        return out


@dataclass(frozen=True, slots=True)
class _Text:
    piece: str
    text: str


def find_spans(model: Model, prompt: str | PromptList, mode: str = "gen") -> list[Span]:
    """The spans of ``prompt``'s pieces in ``model.render(prompt, mode)``, in order of position."""
    final = model.render(prompt, mode)
    if isinstance(prompt, str):
        texts = [_Text("text", prompt)]
        marked_prompt: str | PromptList = _marked(prompt, 0)
    else:
        texts, marked_prompt = _mark_prompt(prompt, mode)
    marked = model.render(marked_prompt, mode)
    if isinstance(final, str):
        if not isinstance(marked, str):
            raise MetaTemplateError("the model renders a string for the prompt but messages for its marked copy")
        spans, rebuilt = _locate(marked, texts, None)
        _check(rebuilt == final, model)
        return _with_wrappers(spans, final) + ([Span("answer_slot", len(final), len(final))] if mode == "gen" else [])
    if not isinstance(marked, list) or len(marked) != len(final):
        raise MetaTemplateError(f"model {model.abbr!r}: the marked copy of the prompt renders to a different number of messages")
    spans = []
    for index, (message, real) in enumerate(zip(marked, final, strict=True)):
        if not isinstance(message["content"], str):
            raise MetaTemplateError("spans cover text messages; this prompt has multimodal content parts")
        found, rebuilt = _locate(message["content"], texts, index)
        _check(rebuilt == real["content"] and message["role"] == real["role"], model)
        spans += found
    return spans


def _check(same: bool, model: Model) -> None:
    if not same:
        raise MetaTemplateError(
            f"model {model.abbr!r} rewrites the text of the prompt (beyond trimming its ends), so its pieces cannot be located "
            "in the final input; spans are not available for this model"
        )


def _marked(text: str, number: int) -> str:
    """``text`` with its non-blank core replaced by marker ``number`` (leading and trailing whitespace kept)."""
    if _OPEN in text or _CLOSE in text:
        raise MetaTemplateError("the prompt contains the private-use characters U+E000/U+E001 that span markers use")
    core = text.strip()
    if not core:
        return text
    start = text.index(core)
    return f"{text[:start]}{_OPEN}{number}{_CLOSE}{text[start + len(core):]}"


def _mark_prompt(prompt: PromptList, mode: str) -> tuple[list[_Text], PromptList]:
    pieces = _piece_names(prompt.items, mode)
    texts: list[_Text] = []
    items: list[Item] = []
    for item, piece in zip(prompt.items, pieces, strict=True):
        if type(item) is Marker:
            items.append(item)
        elif type(item) is RoleItem:
            if item.parts is not None:
                raise MetaTemplateError("spans cover text prompts; this prompt has multimodal content parts")
            if item.prompt is None:
                items.append(item)
            else:
                texts.append(_Text(piece, item.prompt))
                items.append(RoleItem(item.role, _marked(item.prompt, len(texts) - 1), item.fallback_role, item.begin, item.end))
        else:
            assert isinstance(item, str)
            texts.append(_Text(piece, item))
            items.append(_marked(item, len(texts) - 1))
    return texts, PromptList(items)


def _piece_names(items: tuple[Item, ...], mode: str) -> list[str]:
    """The piece each item's text belongs to (see the module docstring); markers get ``''``."""
    names = [""] * len(items)
    stack: list[str] = []
    shot = -1
    last_round = max((i for i, item in enumerate(items) if item == Marker("round", "begin")), default=-1)
    turns = [i for i, item in enumerate(items) if type(item) is RoleItem and i > last_round]
    bots = [i for i in turns if items[i].role == "BOT"]  # type: ignore[union-attr]  # role items only
    if bots and bots[-1] == turns[-1]:  # the round ends with the BOT turn of the answer
        last_bot, previous_bot = bots[-1], bots[-2] if len(bots) > 1 else last_round
    else:  # a dialogue's turn ends with the question: every BOT turn is history
        last_bot, previous_bot = len(items), bots[-1] if bots else last_round
    for index, item in enumerate(items):
        if type(item) is Marker:
            if item.pos == "begin":
                stack.append(item.section)
                shot += item.section == "ice"
            else:
                stack.pop()
            continue
        section = stack[-1] if stack else ""
        role = item.role if type(item) is RoleItem else None
        if role == "SYSTEM":
            names[index] = "system"
        elif section == "ice":
            names[index] = f"shot[{shot}].answer" if role == "BOT" else f"shot[{shot}]"
        elif section == "round" and index > last_round and role is not None:
            if index == last_bot:
                names[index] = "answer_slot"
            elif index > previous_bot:
                names[index] = "query"
            else:
                names[index] = "history.answer" if role == "BOT" else "history"
        else:
            names[index] = "text"
    return names


def _locate(marked: str, texts: list[_Text], message: int | None) -> tuple[list[Span], str]:
    """Spans of the marked texts in ``marked`` with the texts put back, and the rebuilt string."""
    out: list[str] = []
    spans: list[Span] = []
    length = 0
    cursor = 0
    for match in _MARK.finditer(marked):
        number = int(match.group(1))
        text = texts[number].text
        core = text.strip()
        lead, trail = text[: text.index(core)], text[text.index(core) + len(core) :]
        before = marked[cursor : match.start()]
        out.append(before)
        length += len(before)
        start = length
        end = start + len(core)
        # Widen to the text's own whitespace when the model kept it next to the marker.
        if lead and before.endswith(lead):
            start -= len(lead)
        after = marked[match.end() : match.end() + len(trail)]
        if trail and after == trail:
            end += len(trail)
        out.append(core)
        length += len(core)
        spans.append(Span(texts[number].piece, start, end, message))
        cursor = match.end()
    out.append(marked[cursor:])
    return spans, "".join(out)


def _with_wrappers(spans: list[Span], final: str) -> list[Span]:
    """``spans`` plus a ``wrapper`` span for each stretch of ``final`` that no text covers."""
    out: list[Span] = []
    position = 0
    for span in sorted(spans, key=lambda s: s.start):
        if span.start > position:
            out.append(Span("wrapper", position, span.start))
        out.append(span)
        position = max(position, span.end)
    if position < len(final):
        out.append(Span("wrapper", position, len(final)))
    return out
