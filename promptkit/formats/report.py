"""What validation found: one :class:`Violation` per broken rule, collected per file in a :class:`ValidationReport`.

A violation reads ``file:line: field: rule (got value)``, the shape ``promptkit
validate`` prints and loaders put in their errors::

    tasks_bad.jsonl:4: category: must be one of arithmetic, mcq, code_exec, classification, summary (got 'poetry')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["ValidationReport", "Violation", "violations_from"]

_SHOWN = 60  # characters of an offending value shown in a message
_NAMED_RULE = re.compile(r"^([\w.\[\]]+): (.*)$", re.S)

#: Pydantic's wording for the checks promptkit leaves to it, said the way the seed documents say them.
_RULES = {
    "missing": "required field is missing",
    "extra_forbidden": "unknown field",
    "string_type": "must be a string",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "too_short": "must not be empty",
    "string_too_short": "must not be empty",
    "int_type": "must be an integer",
}


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule a record breaks: where (file, line, field), which rule, and the offending value."""

    file: str
    line: int
    field: str
    rule: str
    got: str | None = None

    def __str__(self) -> str:
        got = "" if self.got is None else f" (got {self.got})"
        return f"{self.file}:{self.line}: {self.field}: {self.rule}{got}"


@dataclass
class ValidationReport:
    """Every record of one file, checked: how many were read, which lines were good, what the bad ones broke."""

    file: str
    total: int = 0
    good_lines: list[int] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)

    @property
    def bad_lines(self) -> list[int]:
        return sorted({v.line for v in self.violations})

    @property
    def ok(self) -> bool:
        return not self.violations

    def summary(self) -> str:
        bad = len(self.bad_lines)
        return f"{self.file}: {self.total} record(s): {self.total - bad} good, {bad} bad, {len(self.violations)} violation(s)"

    def describe(self, limit: int = 10) -> str:
        """How many records are bad, then the first ``limit`` violations, one per line."""
        lines = [f"{len(self.bad_lines)} of {self.total} record(s) break the format's rules:"] + [str(v) for v in self.violations[:limit]]
        if len(self.violations) > limit:
            lines.append(f"... and {len(self.violations) - limit} more (`promptkit validate FILE --format FORMAT` lists them all)")
        return "\n".join(lines)


def show(value: Any) -> str:
    """A short, JSON-like rendering of an offending value."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def field_path(loc: Sequence[str | int]) -> str:
    """``('few_shot_examples', 2, 'prompt')`` → ``'few_shot_examples[2].prompt'``; the empty path is ``'record'``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "record"


def violations_from(
    error: ValidationError, file: str, line: int, clean_loc: Callable[[list[str | int]], list[str | int]] | None = None
) -> list[Violation]:
    """Pydantic's errors for one record, as violations (one per field); rules promptkit words itself pass through verbatim."""
    out = []
    for detail in error.errors(include_url=False):
        loc = [part for part in detail["loc"] if not (isinstance(part, str) and part.startswith("function-"))]
        field, rule, got = _explain(detail, clean_loc(loc) if clean_loc is not None else loc)
        out.append(Violation(file, line, field, rule, got))
    return _dedupe(out)


def _explain(detail: Any, loc: list[str | int]) -> tuple[str, str, str | None]:
    """(field path, rule, offending value) for one pydantic error."""
    kind = detail["type"]
    ctx = detail.get("ctx", {})
    if kind == "value_error":
        rule = str(ctx["error"])
        named = _NAMED_RULE.match(rule)
        if named:  # a rule across fields, raised by the object that holds them as "field: rule"
            name, rule = named.groups()
            value = detail["input"].get(name.split("[")[0].split(".")[0]) if isinstance(detail["input"], dict) else None
            return field_path([*loc, name]), rule, show(value)
        return field_path(_without_union_branches(loc)), rule, show(detail["input"])
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        path = field_path([*loc, ctx["discriminator"].strip("'")])
        if kind == "union_tag_not_found":
            return path, "required field is missing", None
        tags = [tag.strip("' ") for tag in ctx["expected_tags"].split(",")]
        return path, f"must be one of {', '.join(tags[:-1])} or {tags[-1]}", show(ctx["tag"])
    path = field_path(_without_union_branches(loc))
    if kind in ("literal_error", "enum"):
        return path, "must be one of " + ctx["expected"].replace("'", ""), show(detail["input"])
    if kind == "too_long":
        return path, f"must hold at most {ctx['max_length']} items", str(ctx["actual_length"])
    if kind == "missing":
        return path, _RULES[kind], None
    if kind == "extra_forbidden" and len(loc) == 1:
        return path, "unknown top-level field", show(detail["input"])
    return path, _RULES.get(kind, detail["msg"][0].lower() + detail["msg"][1:]), show(detail["input"])


def _without_union_branches(loc: list[str | int]) -> list[str | int]:
    """A union reports each alternative under its name (``str``, ``list[...]``), which readers need not see."""
    return [part for part in loc if not (isinstance(part, str) and (part in ("str", "list", "dict") or "[" in part))]


def _dedupe(violations: list[Violation]) -> list[Violation]:
    """One message per field: a union's alternatives each complain about the same value."""
    seen: dict[str, Violation] = {}
    for violation in violations:
        seen.setdefault(violation.field, violation)
    return list(seen.values())
