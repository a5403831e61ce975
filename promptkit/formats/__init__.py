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
from promptkit.formats.base import FormatDataset, check_file, record_format
from promptkit.formats.datasets import StandardSampleDataset, TaskSpecDataset, XpertFormatDataset
from promptkit.formats.report import ValidationReport, Violation

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

#: ``--format`` name → dataset class.
FORMATS: dict[str, type[FormatDataset]] = {cls.format_name: cls for cls in (StandardSampleDataset, TaskSpecDataset, XpertFormatDataset)}


def validate_file(path: str | Path, format: str) -> ValidationReport:
    """Check every record of a JSONL file against ``format`` (``'standard'``, ``'taskspec'`` or ``'xpert'``)."""
    if format not in FORMATS:
        raise ConfigError(f"unknown format {format!r}; the formats are {', '.join(FORMATS)}", key="format")
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"data file {str(path)!r} not found", file=str(path))
    report, _ = check_file(path, record_format(format), str(path))
    return report
