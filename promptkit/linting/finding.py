"""A lint finding: which check, how serious, what is wrong, where (file, line, dataset, model, row), and the fix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SEVERITIES", "Finding"]

#: How serious a finding is, most first: ``error`` (the prompt cannot render, or renders without what the config
#: says), ``warning`` (a likely mistake: the prompt renders, but not as meant), ``note`` (behaviour worth knowing
#: that is as configured, e.g. a fallback role that fires).  ``promptkit lint --strict`` fails on errors and warnings.
SEVERITIES = ("error", "warning", "note")


@dataclass(frozen=True)
class Finding:
    """One finding of :func:`promptkit.linting` (the checks are listed in docs/lint.md)."""

    check: str
    severity: str
    message: str
    fix: str
    dataset: str
    #: The file the template text or key is written in (the config, or a ``read_base()`` file it imports).
    config: str | None = None
    line: int | None = None
    model: str | None = None
    #: The test row (or, for shots, the pool row) the finding was seen in; ``None`` for a finding about the config alone.
    row: int | None = None

    @property
    def fails(self) -> bool:
        """Whether ``--strict`` counts it: errors and warnings."""
        return self.severity != "note"

    def where(self) -> str:
        """``file:line`` (what exists of it)."""
        if self.config is None:
            return "(no config file)"
        return f"{self.config}:{self.line}" if self.line is not None else self.config

    def __str__(self) -> str:
        context = [f"dataset {self.dataset!r}"]
        if self.model is not None:
            context.append(f"model {self.model!r}")
        if self.row is not None:
            context.append(f"row {self.row}")
        return f"{self.where()}: {self.severity}: [{self.check}] {', '.join(context)}: {self.message}\n    fix: {self.fix}"

    def dump(self) -> dict[str, Any]:
        """The finding as a JSON object (every field, ``None`` where unknown)."""
        return {
            "check": self.check,
            "severity": self.severity,
            "message": self.message,
            "fix": self.fix,
            "dataset": self.dataset,
            "config": self.config,
            "line": self.line,
            "model": self.model,
            "row": self.row,
        }
