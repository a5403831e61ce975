"""``promptkit validate FILE --format standard|taskspec|xpert [--allow-bad]``: check every record of a data file (or of
each split file of a dataset folder).

Prints one line per broken rule (``file:line: field: rule (got …)``) and a
summary.  Exit status 1 when a record is bad, unless ``--allow-bad``: then the
bad records are reported and counted, and the status is 0.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from promptkit.formats import FORMATS, validate_file
from promptkit.formats.base import folder_splits

__all__ = ["add_arguments", "run"]


def add_arguments(validate: argparse.ArgumentParser) -> None:
    validate.add_argument("file", help="a .jsonl data file, or a dataset folder in XpertFormat's layout (each of its split files)")
    validate.add_argument("--format", required=True, choices=sorted(FORMATS), help="the file's dataset format")
    validate.add_argument("--allow-bad", action="store_true", help="report bad records but exit 0 (loaders skip them with allow_bad=True)")


def run(args: argparse.Namespace) -> int:
    folder = Path(args.file)
    files = sorted(set(folder_splits(folder).values())) if folder.is_dir() else [folder]
    bad = 0
    for file in files:
        report = validate_file(file, args.format)
        for violation in report.violations:
            print(violation)
        print(report.summary())
        if report.ok:
            continue
        bad += 1
        if args.allow_bad:
            print(f"--allow-bad: {report.total - len(report.bad_lines)} good record(s) kept, {len(report.bad_lines)} bad record(s) skipped")
    return 1 if bad and not args.allow_bad else 0
