"""A :class:`DiffReport` as text: per changed prompt the pieces that changed, each with an inline diff, then a summary.

Inside a piece's diff, removed text is written ``[-like this-]`` and added text
``{+like this+}`` (as ``wdiff`` does), compared word by word and, within
whitespace, character by character; a newline is shown as ``↵``, a tab as
``→``, so that whitespace changes are seen.  Unchanged stretches longer than
twice the context are shortened to their ends around ``…``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from difflib import SequenceMatcher

from promptkit.diff.compare import DiffReport, PieceChange, PromptDiff

__all__ = ["diff_runs", "headline", "inline_diff", "piece_diff", "report_text", "shown", "summary"]

_TOKEN = re.compile(r"</?\|?[\w.:▁-]+\|?>|\w+|\s|[^\w\s]")  # control tokens (<|eot_id|>, </s>) whole
_SHOWN = str.maketrans({"\n": "↵", "\t": "→", "\r": "␍"})
#: How many ids of prompts on one side only the report names.
_IDS_SHOWN = 10
#: The longest text of a piece on one side only that is shown whole.
_ONE_SIDE = 120


def report_text(report: DiffReport, context: int = 30) -> str:
    """The report ``promptkit diff`` prints (see the module docstring); ``context``: characters kept around a change."""
    return "".join(line + "\n" for line in _lines(report, context))


def _lines(report: DiffReport, context: int) -> Iterator[str]:
    yield f"--- A: {report.a}"
    yield f"+++ B: {report.b}"
    if report.pairing:
        yield f"(pairing: {report.pairing})"
    for prompt in report.changed:
        yield from _prompt_lines(prompt, context)
    for side, ids in (("A", report.only_a), ("B", report.only_b)):
        if ids:
            more = f", and {len(ids) - _IDS_SHOWN} more" if len(ids) > _IDS_SHOWN else ""
            yield f"only in {side}: {', '.join(ids[:_IDS_SHOWN])}{more}"
    yield summary(report)


def summary(report: DiffReport) -> str:
    """The closing line: prompts compared, identical, changed (by piece kind), on one side only."""
    compared = report.identical + len(report.changed)
    line = f"{compared} prompt{'s' if compared != 1 else ''} compared: {report.identical} identical, {len(report.changed)} changed"
    kinds = report.by_kind()
    if kinds:
        line += " (" + ", ".join(f"{kind} {count}" for kind, count in kinds.items()) + ")"
    for side, ids in (("A", report.only_a), ("B", report.only_b)):
        if ids:
            line += f"; {len(ids)} only in {side}"
    return line


def headline(prompt: PromptDiff) -> str:
    """The pieces of a changed prompt in one phrase: each piece by its label, the wrapper's places counted."""
    labels = [change.label for change in prompt.changes if change.piece != "wrapper"]
    wrappers = sum(change.piece == "wrapper" for change in prompt.changes)
    if wrappers:
        where = [change.label for change in prompt.changes if change.piece == "wrapper"]
        labels.insert(0, where[0] if wrappers == 1 else f"meta-template wrapper ({wrappers} places)")
    return ", ".join(dict.fromkeys(labels))


def _prompt_lines(prompt: PromptDiff, context: int) -> Iterator[str]:
    pieces = headline(prompt)
    inputs = f" (inputs changed: {', '.join(prompt.inputs)})" if prompt.inputs else ""
    yield f"{prompt.id}: {pieces}{inputs}"
    if prompt.note:
        yield f"  ({prompt.note})"
    for change in prompt.changes:
        yield f"  {change.label}: {piece_diff(change, context)}"


def piece_diff(change: PieceChange, context: int = 30) -> str:
    """One piece's change on one line: the inline diff, or the text of a piece on one side only."""
    note = f"({change.note}) " if change.note else ""
    if change.before is None or change.after is None:
        side, text = ("B", change.after) if change.before is None else ("A", change.before)
        assert text is not None  # a change is on at least one side
        cut = shown(text[:_ONE_SIDE]) + ("…" if len(text) > _ONE_SIDE else "")
        return f"{note}only in {side}: «{cut}»"
    if change.before == change.after:
        return note.strip()
    return note + inline_diff(change.before, change.after, context)


def diff_runs(before: str, after: str) -> list[tuple[str, str]]:
    """``before`` → ``after`` as runs of ``("equal" | "delete" | "insert", text)``, compared word by word (words,
    single whitespace characters and single punctuation marks are the units)."""
    one, two = _TOKEN.findall(before), _TOKEN.findall(after)
    runs: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, one, two, autojunk=False).get_opcodes():
        if tag == "equal":
            runs.append(("equal", "".join(one[i1:i2])))
            continue
        if i2 > i1:
            runs.append(("delete", "".join(one[i1:i2])))
        if j2 > j1:
            runs.append(("insert", "".join(two[j1:j2])))
    return runs


def inline_diff(before: str, after: str, context: int = 30) -> str:
    """``before`` → ``after`` with ``[-removed-]`` and ``{+added+}`` (see the module docstring).

    >>> inline_diff("You are a helpful assistant.", "You are a careful assistant.")
    'You are a [-helpful-]{+careful+} assistant.'
    """
    runs = diff_runs(before, after)
    out: list[str] = []
    for number, (tag, text) in enumerate(runs):
        if tag == "equal":
            out.append(_shortened(text, context, first=number == 0, last=number == len(runs) - 1))
        else:
            out.append(f"[-{shown(text)}-]" if tag == "delete" else f"{{+{shown(text)}+}}")
    return "".join(out)


def _shortened(text: str, context: int, *, first: bool, last: bool) -> str:
    """An unchanged stretch: whole when short, else only the ends next to changes."""
    if first and last:
        return shown(text)
    if first:
        return shown(text) if len(text) <= context else "…" + shown(text[-context:])
    if last:
        return shown(text) if len(text) <= context else shown(text[:context]) + "…"
    return shown(text) if len(text) <= 2 * context else shown(text[:context]) + " … " + shown(text[-context:])


def shown(text: str) -> str:
    """``text`` with newlines, tabs and carriage returns made visible (``↵``, ``→``, ``␍``)."""
    return text.translate(_SHOWN)
