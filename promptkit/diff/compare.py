"""Pair two runs' records by id and compare each pair piece by piece.

A record's final input is cut into *segments* by its spans (``promptkit render
--spans``): the system prompt, each shot and its answer, history turns, the
query, the answer slot, and the model's wrapper around them (each stretch of
wrapper is named by the piece it precedes).  Two records are compared segment
by segment, by name, so a change to one shot's answer is reported as that, and
the shots after it, unchanged, are not.  Without spans on both sides a prompt is
compared whole (a chat prompt message by message).

Prompts are paired by ``id`` (see :func:`~promptkit.diff.records.prompt_id`);
when each side holds one dataset and their abbrs differ, by the id after the
dataset's name; when both sides hold the same several models, by model and id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.diff.records import Record, RecordSet, prompt_id
from promptkit.errors import DatasetError
from promptkit.meta_templates.spans import shot_of

__all__ = ["DiffReport", "PieceChange", "PromptDiff", "diff_records"]

#: Record keys that are the final input itself or derived from it, so not compared as fields.
_PROMPT_KEYS = frozenset({"prompt", "media", "spans", "fingerprint", "provenance"})
_LABELS = {
    "system": "system prompt",
    "wrapper": "meta-template wrapper",
    "answer_slot": "answer slot",
    "history.answer": "history answer",
    "text": "other text",
    "prompt": "final input",
    "message": "final input",
    "media": "media",
}
#: How many ids a message about pairing names.
_IDS_SHOWN = 3


@dataclass(frozen=True)
class PieceChange:
    """One piece that differs: ``before`` is its text in A (``None``: only in B), ``after`` in B (``None``: only in A)."""

    piece: str
    label: str
    kind: str
    before: str | None
    after: str | None
    #: Another difference than the text, e.g. ``role system → user``.
    note: str | None = None


@dataclass(frozen=True)
class PromptDiff:
    """A prompt whose final input (or, for snapshots, record) differs between A and B."""

    id: str
    changes: tuple[PieceChange, ...]
    #: The provenance entries that differ (``chat_template``, ``shots`` …): which input changed.
    inputs: tuple[str, ...] = ()
    #: Why the prompt was compared whole, when it was.
    note: str | None = None


@dataclass(frozen=True)
class DiffReport:
    """What :func:`diff_records` found: the changed prompts, the number identical, the ids on one side only."""

    a: str
    b: str
    identical: int
    changed: tuple[PromptDiff, ...]
    only_a: tuple[str, ...] = ()
    only_b: tuple[str, ...] = ()
    #: How the sides were paired when not plainly by id (e.g. two datasets' abbrs).
    pairing: str | None = None

    @property
    def differs(self) -> bool:
        """Whether anything differs: a changed prompt, or a prompt on one side only."""
        return bool(self.changed or self.only_a or self.only_b)

    def by_kind(self) -> dict[str, int]:
        """How many changed prompts have a change of each kind (``system prompt``, ``shot answer`` …), most first."""
        counts: dict[str, int] = {}
        for prompt in self.changed:
            for kind in dict.fromkeys(change.kind for change in prompt.changes):
                counts[kind] = counts.get(kind, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))


def diff_records(a: RecordSet, b: RecordSet, *, fields: bool = False) -> DiffReport:
    """Pair the records of ``a`` and ``b`` by id and compare their final inputs (``fields``: every other record key too).

    Two sides with no id in common, or a side that repeats an id, are a :class:`DatasetError`.
    """
    key, pairing = _pairing(a, b)
    _check_spans(a)
    _check_spans(b)
    index_a, index_b = _index(a, key), _index(b, key)
    if not index_a.keys() & index_b.keys():
        raise DatasetError(
            f"{a.name} and {b.name} have no prompt id in common ({_ids(a)} against {_ids(b)}); "
            "diff pairs prompts by id: give two renders of the same dataset"
        )
    identical = 0
    changed: list[PromptDiff] = []
    for pair_key, position in index_a.items():
        other = index_b.get(pair_key)
        if other is None:
            continue
        found = _compare(a.records[position], b.records[other], fields)
        if found is None:
            identical += 1
        else:
            changed.append(found)
    only_a = tuple(prompt_id(a.records[p]) for k, p in index_a.items() if k not in index_b)
    only_b = tuple(prompt_id(b.records[p]) for k, p in index_b.items() if k not in index_a)
    return DiffReport(a.name, b.name, identical, tuple(changed), only_a, only_b, pairing)


def _pairing(a: RecordSet, b: RecordSet) -> tuple[Any, str | None]:
    """The pairing key of a record, and how the pairing differs from plain ids (``None``: it does not)."""
    models_a, models_b = ({record.get("model") for record in side.records} for side in (a, b))
    by_model = len(models_a) > 1 and models_a == models_b
    datasets_a, datasets_b = ({record.get("dataset") for record in side.records} for side in (a, b))
    strip = len(datasets_a) == len(datasets_b) == 1 and datasets_a != datasets_b

    def key(record: Mapping[str, Any]) -> Any:
        pid = prompt_id(record)
        prefix = f"{record.get('dataset')}/"
        if strip and pid.startswith(prefix):
            pid = pid[len(prefix) :]
        return (record.get("model"), pid) if by_model else pid

    note = None
    if strip:
        note = f"dataset {next(iter(datasets_a))!r} of {a.name} paired with dataset {next(iter(datasets_b))!r} of {b.name}, row by row"
    return key, note


def _index(side: RecordSet, key: Any) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for position, record in enumerate(side.records):
        found = out.setdefault(key(record), position)
        if found != position:
            models = sorted({str(r.get("model")) for r in side.records})
            hint = f" (it holds prompts of models {', '.join(map(repr, models))}: give one model's prompts per side)" if len(models) > 1 else ""
            raise DatasetError(f"{side.where(position)}: prompt id {prompt_id(record)!r} appears twice, also at {side.where(found)}{hint}")
    return out


def _check_spans(side: RecordSet) -> None:
    """Every span of every record lies inside its prompt's text (a file edited by hand, or spans of another prompt)."""
    for position, record in enumerate(side.records):
        spans = record.get("spans")
        if spans is None:
            continue
        prompt = record["prompt"]
        for span in spans if isinstance(spans, list) else [spans]:
            text, where = _span_text(prompt, span)
            start, end = (span.get(k) if isinstance(span, dict) else None for k in ("start", "end"))
            if text is None or not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end <= len(text):
                piece = span.get("piece") if isinstance(span, dict) else span
                length = f"{len(text)} characters" if text is not None else "no text there"
                raise DatasetError(
                    f"{side.where(position)}: span {piece!r} ({start}:{end}) cannot be placed in {where} ({length}); "
                    "give the records `promptkit render --spans` wrote"
                )


def _span_text(prompt: Any, span: Any) -> tuple[str | None, str]:
    """The text a span indexes, and what it is for messages (``None``: no text there)."""
    if isinstance(prompt, str):
        return prompt, "the prompt"
    message = span.get("message") if isinstance(span, dict) else None
    if not isinstance(message, int) or not 0 <= message < len(prompt):
        return None, f"message {message} of {len(prompt)}"
    content = prompt[message].get("content") if isinstance(prompt[message], dict) else None
    return (content if isinstance(content, str) else None), f"message {message}"


def _ids(side: RecordSet) -> str:
    ids = [prompt_id(record) for record in side.records[:_IDS_SHOWN]]
    more = ", …" if len(side.records) > _IDS_SHOWN else ""
    return ", ".join(map(repr, ids)) + more


# -- one pair ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Segment:
    piece: str
    label: str
    text: str
    role: str | None


def _compare(a: Record, b: Record, fields: bool) -> PromptDiff | None:
    same_prompt = _same_input(a, b)
    field_changes = _field_changes(a, b) if fields else []
    if same_prompt and not field_changes:
        return None
    changes: list[PieceChange] = []
    note = None
    if not same_prompt:
        spans = isinstance(a.get("spans"), list) and isinstance(b.get("spans"), list)
        if not spans:
            missing = [side for side, record in (("A", a), ("B", b)) if not isinstance(record.get("spans"), list)]
            note = f"compared whole: no spans in {' and '.join(missing)} (render with --spans)"
        changes = _piece_changes(_segments(a, spans), _segments(b, spans))
        if a.get("media") != b.get("media"):
            changes.append(PieceChange("media", "media", "media", _json(a.get("media")), _json(b.get("media"))))
    return PromptDiff(prompt_id(a), tuple(changes + field_changes), _inputs(a, b), note)


def _same_input(a: Record, b: Record) -> bool:
    if isinstance(a.get("fingerprint"), str) and isinstance(b.get("fingerprint"), str):
        return bool(a["fingerprint"] == b["fingerprint"])
    return bool(a.get("prompt") == b.get("prompt") and a.get("media") == b.get("media"))


def _inputs(a: Record, b: Record) -> tuple[str, ...]:
    pa, pb = a.get("provenance"), b.get("provenance")
    if not isinstance(pa, dict) or not isinstance(pb, dict):
        return ()
    return tuple(name for name in dict.fromkeys([*pa, *pb]) if pa.get(name) != pb.get(name))


def _field_changes(a: Record, b: Record) -> list[PieceChange]:
    out = []
    for name in dict.fromkeys([*a, *b]):
        if name not in _PROMPT_KEYS and a.get(name) != b.get(name):
            before = _json(a[name]) if name in a else None
            after = _json(b[name]) if name in b else None
            out.append(PieceChange(name, f"record field {name!r}", "record field", before, after))
    return out


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _segments(record: Record, spans: bool) -> dict[tuple[Any, ...], _Segment]:
    """The record's final input as named segments, in order, by a key unique within the record."""
    prompt = record["prompt"]
    messages: list[tuple[str | None, Any]] = [(None, prompt)] if isinstance(prompt, str) else [(m.get("role"), m.get("content")) for m in prompt]
    by_message: dict[int | None, list[Mapping[str, Any]]] = {}
    for span in (record.get("spans") or ()) if spans else ():
        by_message.setdefault(span.get("message"), []).append(span)
    raw: list[tuple[str, str, str | None]] = []  # piece, text, role
    for number, (role, content) in enumerate(messages):
        text = content if isinstance(content, str) else _json(content)
        own = sorted(by_message.get(None if isinstance(prompt, str) else number, ()), key=lambda s: (s["start"], s["end"]))
        if not spans or not isinstance(content, str):
            raw.append(("prompt" if isinstance(prompt, str) else f"message[{number}]", text, role))
            continue
        position = 0
        for span in own:
            if span["start"] > position:
                raw.append(("wrapper", text[position : span["start"]], role))
            raw.append((span["piece"], text[span["start"] : span["end"]], role))
            position = max(position, span["end"])
        if position < len(text):
            raw.append(("wrapper", text[position:], role))
    return _named(raw)


def _named(raw: list[tuple[str, str, str | None]]) -> dict[tuple[Any, ...], _Segment]:
    """Keys and labels: a piece by its name and how many came before; a wrapper by the piece it precedes."""
    seen: dict[str, int] = {}
    totals: dict[str, int] = {}
    for piece, _, _ in raw:
        totals[piece] = totals.get(piece, 0) + 1
    keys: list[tuple[Any, ...]] = []
    labels: list[str] = []
    for piece, _, _ in raw:
        count = seen.get(piece, 0)
        seen[piece] = count + 1
        keys.append((piece, count))
        labels.append(_label(piece) + (f" #{count + 1}" if totals[piece] > 1 and piece != "wrapper" else ""))
    out: dict[tuple[Any, ...], _Segment] = {}
    following: tuple[Any, ...] = ("end",)
    following_label = "at the end"
    for position in range(len(raw) - 1, -1, -1):
        piece, text, role = raw[position]
        key, label = keys[position], labels[position]
        if piece == "wrapper":
            key, label = ("wrapper", following), f"{_label('wrapper')} {following_label}"
            while key in out:
                key = (*key, "+")
        else:
            following, following_label = key, f"before {label}"
        out[key] = _Segment(piece, label, text, role)
    return dict(reversed(out.items()))


def _label(piece: str) -> str:
    """The name a person reads: ``shot[2].answer`` → ``shot 2 answer``, ``system`` → ``system prompt``."""
    shot = shot_of(piece)
    if shot:
        return f"shot {shot[0]}" + (" answer" if shot[1] else "")
    message = re.fullmatch(r"message\[(\d+)\]", piece)
    if message:
        return f"message {message.group(1)}"
    return _LABELS.get(piece, piece.replace("_", " ").replace(".", " "))


def _kind(piece: str) -> str:
    """The kind a summary counts: shots without their number."""
    shot = shot_of(piece)
    if shot:
        return "shot answer" if shot[1] else "shot"
    return "final input" if piece.startswith("message[") else _label(piece)


@dataclass(frozen=True)
class _Pair:
    """A segment key's segment in A and in B (at least one of them)."""

    one: _Segment | None
    two: _Segment | None

    @property
    def segment(self) -> _Segment:
        found = self.one or self.two
        assert found is not None  # a key of the union is on one side at least
        return found

    @property
    def alone(self) -> bool:
        """A piece (not wrapper) on one side only."""
        return (self.one is None) != (self.two is None) and self.segment.piece != "wrapper"


def _piece_changes(a: dict[tuple[Any, ...], _Segment], b: dict[tuple[Any, ...], _Segment]) -> list[PieceChange]:
    """The pieces that differ, in order.  A piece on one side only is reported with the wrapper next to it, since the
    model's wrapper of the pieces beside it changes with it (a system turn added changes where the user turn begins)."""
    pairs = [_Pair(a.get(key), b.get(key)) for key in _union(list(a), list(b))]
    alone = [pair.alone for pair in pairs]
    joined = [
        alone[i] or (pair.segment.piece == "wrapper" and ((i > 0 and alone[i - 1]) or (i + 1 < len(pairs) and alone[i + 1])))
        for i, pair in enumerate(pairs)
    ]
    out = []
    position = 0
    while position < len(pairs):
        if joined[position]:
            stop = position
            while stop < len(pairs) and joined[stop]:
                stop += 1
            out.append(_joined(pairs[position:stop]))
            position = stop
            continue
        pair = pairs[position]
        position += 1
        one, two = pair.one, pair.two
        note = None
        if one is not None and two is not None:
            if one.role is not None and two.role is not None and one.role != two.role:
                note = f"role {one.role} → {two.role}"
            if one.text == two.text and note is None:
                continue
        piece = pair.segment.piece
        out.append(PieceChange(piece, pair.segment.label, _kind(piece), one.text if one else None, two.text if two else None, note))
    return out


def _joined(pairs: list[_Pair]) -> PieceChange:
    """Pieces on one side only and the wrappers next to them, as one change (their texts joined on each side)."""
    pieces = [pair.segment for pair in pairs if pair.segment.piece != "wrapper"]
    sides = sorted({"A" if pair.two is None else "B" for pair in pairs if pair.alone})
    first = pieces[0].piece
    label = ", ".join(piece.label for piece in pieces)
    before = [pair.one.text for pair in pairs if pair.one is not None]
    after = [pair.two.text for pair in pairs if pair.two is not None]
    note = f"only in {' and '.join(sides)}, shown with the wrapper around it" if len(pairs) > len(pieces) else None
    # A side holding none of the run's segments has no text (rather than an empty one): the piece is "only in" the other.
    return PieceChange(first, label, _kind(first), "".join(before) if before else None, "".join(after) if after else None, note)


def _union(a: Sequence[tuple[Any, ...]], b: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """A's keys in order, with each of B's own keys placed after the key that precedes it in B."""
    order = list(a)
    present = set(a)
    previous: tuple[Any, ...] | None = None
    for key in b:
        if key not in present:
            order.insert(order.index(previous) + 1 if previous is not None else 0, key)
            present.add(key)
        previous = key
    return order
