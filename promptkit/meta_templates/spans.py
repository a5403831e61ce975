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
* ``query`` — the item under test: the role items after the round's last
  ``BOT`` reply (a dialogue's earlier replies are history, whether or not a
  final ``BOT`` follows);
* ``answer_slot`` — in ``ppl`` mode the final ``BOT`` text when it ends the
  round (the label continuation); in ``gen`` mode an empty span at the end of
  a completion string (where generation starts);
* ``text`` — any other text; ``wrapper`` — text the model added (role
  ``begin``/``end``, BOS, headers), for completion strings.

A string prompt (a string template's output) is named with what the
pipeline knows of it, given as :class:`Hints`: the shots' texts (rendered one
by one, so known) cut out of whichever text holds them — the text before them
is ``text``, the rest of a string prompt (all of it, without shots) ``query`` — and, in ``ppl`` mode, the
``answer_slot``: the row's continuation where the prompt holds it
(``LLInferencer``; an empty slot at the end where it does not), else the stretch in which the prompt differs from the
row's other labels' prompts.

A span of a text that a template trimmed covers the trimmed text.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.errors import MetaTemplateError
from promptkit.meta_templates.protocol import Model
from promptkit.promptlist import Item, Marker, PromptList, RoleItem

__all__ = ["Hints", "Span", "find_spans", "is_answer", "shot_of"]

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


_SHOT_PIECE = re.compile(r"shot\[(\d+)\](\.answer)?")


def shot_of(piece: str) -> tuple[int, bool] | None:
    """For a shot's piece (``shot[2]``, ``shot[2].answer``): its number and whether it is the answer; else ``None``."""
    shot = _SHOT_PIECE.fullmatch(piece)
    return (int(shot.group(1)), shot.group(2) is not None) if shot else None


def is_answer(piece: str) -> bool:
    """Whether ``piece`` is text an assistant/answer loss mask covers: a shot's answer, an earlier reply, the answer slot."""
    return piece == "answer_slot" or piece.endswith(".answer")


#: A text as named pieces, in order, whose texts concatenate to it.
Pieces = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Hints:
    """What the pipeline knows of a prompt's texts that the prompt does not say (see the module docstring).

    ``shots``: the pieces of a string shot block (``shot[i]``, ``shot[i].answer``, separators as ``text``);
    ``others``: the row's other labels' string prompts (ppl); ``continuation``: the row's continuation (``LLInferencer``).
    """

    shots: Pieces = ()
    others: tuple[str, ...] = ()
    continuation: str | None = None


@dataclass(frozen=True, slots=True)
class _Text:
    """What marker ``n`` stands for: ``text``, and the pieces of the whitespace around it that the model may trim."""

    piece: str
    text: str
    lead: Pieces = ()
    trail: Pieces = ()


def find_spans(
    model: Model, prompt: str | PromptList, mode: str = "gen", hints: Hints | None = None, render: Callable[[str | PromptList, str], Any] | None = None
) -> list[Span]:
    """The spans of ``prompt``'s pieces in ``model.render(prompt, mode)``, in order of position; ``render`` renders in
    the model's place (a prompt stage that is not the model's own: a chat history as built)."""
    render = render or model.render
    final = render(prompt, mode)
    texts: list[_Text] = []
    marked_prompt: str | PromptList
    # A continuation that follows a string prompt: an empty answer slot where the prompt's text ends.
    end_slot = False
    if isinstance(prompt, str):
        string_pieces = _string_pieces(prompt, mode, hints or Hints())
        end_slot = string_pieces[-1] == ("answer_slot", "")
        marked_prompt = _mark(string_pieces, texts)
    else:
        marked_prompt = _mark_prompt(prompt, mode, hints or Hints(), texts)
    marked = render(marked_prompt, mode)
    if isinstance(final, str):
        if not isinstance(marked, str):
            raise MetaTemplateError("the model renders a string for the prompt but messages for its marked copy")
        spans, rebuilt = _locate(marked, texts, None)
        _check(rebuilt == final, model)
        if end_slot:
            end = max((span.end for span in spans), default=0)
            return sorted([*_with_wrappers(spans, final), Span("answer_slot", end, end)], key=lambda span: (span.start, span.end > span.start))
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
    if end_slot and spans:
        spans.append(Span("answer_slot", spans[-1].end, spans[-1].end, spans[-1].message))
    return spans


def _check(same: bool, model: Model) -> None:
    if not same:
        raise MetaTemplateError(
            f"model {model.abbr!r} rewrites the text of the prompt (beyond trimming its ends), so its pieces cannot be located "
            "in the final input; spans are not available for this model"
        )


def _mark(pieces: Sequence[tuple[str, str]], texts: list[_Text]) -> str:
    """The text the pieces make, with each piece's part of its non-blank core replaced by a numbered marker (added to
    ``texts``); the text's leading and trailing whitespace stays, so that a template trims the copy as it trims the text."""
    whole = "".join(text for _, text in pieces)
    if _OPEN in whole or _CLOSE in whole:
        raise MetaTemplateError("the prompt contains the private-use characters U+E000/U+E001 that span markers use")
    core = whole.strip()
    if not core:
        return whole
    start = whole.index(core)
    stop = start + len(core)
    out = [whole[:start]]
    position = 0
    marked: list[int] = []
    lead: list[tuple[str, str]] = []
    trail: list[tuple[str, str]] = []
    for piece, text in pieces:
        begin, end = position, position + len(text)
        position = end
        if begin < start:
            lead.append((piece, whole[begin : min(end, start)]))
        if max(begin, start) < min(end, stop):
            marked.append(len(texts))
            texts.append(_Text(piece, whole[max(begin, start) : min(end, stop)]))
            out.append(f"{_OPEN}{len(texts) - 1}{_CLOSE}")
        if end > stop:
            trail.append((piece, whole[max(begin, stop) : end]))
    first, last = texts[marked[0]], texts[marked[-1]]
    texts[marked[0]] = _Text(first.piece, first.text, tuple(p for p in lead if p[1]), first.trail)
    last = texts[marked[-1]]
    texts[marked[-1]] = _Text(last.piece, last.text, last.lead, tuple(p for p in trail if p[1]))
    out.append(whole[stop:])
    return "".join(out)


def _mark_prompt(prompt: PromptList, mode: str, hints: Hints, texts: list[_Text]) -> PromptList:
    pieces = _piece_names(prompt.items, mode)
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
                marked = _mark(_cut_shots(item.prompt, piece, piece, hints.shots), texts)
                items.append(RoleItem(item.role, marked, item.fallback_role, item.begin, item.end))
        else:
            assert isinstance(item, str)
            items.append(_mark(_cut_shots(item, piece, piece, hints.shots), texts))
    return PromptList(items)


def _cut_shots(text: str, before: str, after: str, shots: Pieces) -> list[tuple[str, str]]:
    """``text`` as pieces: the string shot block where ``text`` holds it (each time), ``before`` and ``after`` around it
    (all of it ``after`` where it holds no block)."""
    block = "".join(piece_text for _, piece_text in shots)
    if not block or block not in text:
        return [(after, text)]
    out: list[tuple[str, str]] = []
    rest = text
    name = before
    while block in rest:
        at = rest.index(block)
        out += [(name, rest[:at]), *shots]
        rest = rest[at + len(block) :]
        name = after
    out.append((after, rest))
    return out


def _string_pieces(prompt: str, mode: str, hints: Hints) -> list[tuple[str, str]]:
    """A string prompt's pieces: what precedes the shots is ``text``, the rest ``query`` with the ppl answer slot cut out."""
    pieces = _cut_shots(prompt, "text", "query", hints.shots)
    if mode != "ppl":
        return pieces
    # The answer slot lies in the query: after the last shot block.
    tail = len(pieces[-1][1])
    slot = _answer_slot(prompt, len(prompt) - tail, hints)
    if slot is None:
        return pieces
    low, high = slot
    query = pieces[-1][1]
    offset = len(prompt) - tail
    cut = [("query", query[: low - offset]), ("answer_slot", prompt[low:high]), ("query", query[high - offset :])]
    return [*pieces[:-1], *(piece for piece in cut if piece[1] or piece[0] == "answer_slot")]


def _answer_slot(prompt: str, start: int, hints: Hints) -> tuple[int, int] | None:
    """Where a string ppl prompt's answer is, at or after ``start``: the continuation's last occurrence, else where the
    prompt differs from the row's other labels' prompts (their common prefix and suffix cut off)."""
    if hints.continuation is not None:
        at = prompt.rfind(hints.continuation) if hints.continuation else -1
        # A continuation the prompt does not hold follows it: the slot is empty, at the end.
        return (at, at + len(hints.continuation)) if at >= start else (len(prompt), len(prompt))
    others = [other for other in hints.others if other != prompt]
    if not others:
        return None
    prefix = min(_common_prefix(prompt, other) for other in others)
    suffix = min(_common_prefix(prompt[::-1], other[::-1]) for other in others)
    low = max(prefix, start)
    high = max(low, len(prompt) - suffix)
    return low, high


def _common_prefix(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def _piece_names(items: tuple[Item, ...], mode: str) -> list[str]:
    """The piece each item's text belongs to (see the module docstring); markers get ``''``."""
    names = [""] * len(items)
    stack: list[str] = []
    shot = -1
    last_round = max((i for i, item in enumerate(items) if type(item) is Marker and item.section == "round" and item.pos == "begin"), default=-1)
    turns = [i for i, item in enumerate(items) if type(item) is RoleItem and i > last_round and item.role != "SYSTEM"]
    bots = [i for i in turns if items[i].role == "BOT"]  # type: ignore[union-attr]
    # The answer slot is a final BOT that ends the round; the query is what follows the last reply before it.
    slot = bots[-1] if bots and bots[-1] == turns[-1] else len(items)
    replies = [i for i in bots if i < slot]
    last_reply = replies[-1] if replies else last_round
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
            if index == slot:
                names[index] = "answer_slot"
            elif index > last_reply:
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
        entry = texts[int(match.group(1))]
        core = entry.text
        lead, trail = "".join(text for _, text in entry.lead), "".join(text for _, text in entry.trail)
        before = marked[cursor : match.start()]
        out.append(before)
        length += len(before)
        # The text's own whitespace, where the model kept it next to the marker, belongs to its pieces.
        own: list[Span] = []
        if lead and before.endswith(lead):
            _add_run(own, entry.lead, length - len(lead), message)
        _add_run(own, ((entry.piece, core),), length, message)
        after = marked[match.end() : match.end() + len(trail)]
        if trail and after == trail:
            _add_run(own, entry.trail, length + len(core), message)
        spans += own
        out.append(core)
        length += len(core)
        cursor = match.end()
    out.append(marked[cursor:])
    return spans, "".join(out)


def _add_run(spans: list[Span], pieces: Pieces, start: int, message: int | None) -> None:
    """Append the spans of consecutive ``pieces`` of one text from ``start``, a piece that continues the previous span joined to it."""
    for piece, text in pieces:
        if spans and spans[-1].piece == piece and spans[-1].end == start and spans[-1].message == message:
            spans[-1] = Span(piece, spans[-1].start, start + len(text), message)
        else:
            spans.append(Span(piece, start, start + len(text), message))
        start += len(text)


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
