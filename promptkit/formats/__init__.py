"""Community dataset formats, validated record by record and turned into rows.

* ``StandardSampleDataset`` — the standardized Sample (seed 000);
* ``TaskSpecDataset`` — the task-spec JSONL contract (seed 001);
* ``XpertFormatDataset`` — XpertFormat (seed 003);
* ``AdapterDataset`` — any JSONL file through a ``record_to_row`` callable (EvalScope style, seed 004).

:func:`validate_file` checks a file without loading it for rendering (what
``promptkit validate`` runs).
"""

from pathlib import Path

from promptkit.errors import ConfigError
from promptkit.formats.adapter import AdapterDataset
from promptkit.formats.base import FormatDataset, RecordFormat, check_file
from promptkit.formats.report import ValidationReport, Violation
from promptkit.formats.standard import STANDARD, StandardSampleDataset
from promptkit.formats.taskspec import TASKSPEC, TaskSpecDataset
from promptkit.formats.xpert import XPERT, XpertFormatDataset

__all__ = [
    "FORMATS",
    "AdapterDataset",
    "FormatDataset",
    "StandardSampleDataset",
    "TaskSpecDataset",
    "ValidationReport",
    "Violation",
    "XpertFormatDataset",
    "validate_file",
]

#: ``--format`` name → (record format, dataset class).
FORMATS: dict[str, tuple[RecordFormat, type[FormatDataset]]] = {
    "standard": (STANDARD, StandardSampleDataset),
    "taskspec": (TASKSPEC, TaskSpecDataset),
    "xpert": (XPERT, XpertFormatDataset),
}


def validate_file(path: str | Path, format: str) -> ValidationReport:
    """Check every record of a JSONL file against ``format`` (``'standard'``, ``'taskspec'`` or ``'xpert'``)."""
    if format not in FORMATS:
        raise ConfigError(f"unknown format {format!r}; the formats are {', '.join(FORMATS)}", key="format")
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"data file {str(path)!r} not found", file=str(path))
    report, _ = check_file(path, FORMATS[format][0], str(path))
    return report
