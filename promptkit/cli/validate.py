"""``promptkit validate FILE --format standard|taskspec|xpert [--allow-bad]``: check every record of a data file.

Prints one line per broken rule (``file:line: field: rule (got …)``) and a
summary.  Exit status 1 when a record is bad, unless ``--allow-bad``: then the
bad records are reported and counted, and the status is 0.
"""

from __future__ import annotations

import argparse

from promptkit.formats import FORMATS, validate_file

__all__ = ["add_arguments", "run"]


def add_arguments(validate: argparse.ArgumentParser) -> None:
    validate.add_argument("file", help="a .jsonl data file")
    validate.add_argument("--format", required=True, choices=sorted(FORMATS), help="the file's dataset format")
    validate.add_argument("--allow-bad", action="store_true", help="report bad records but exit 0 (loaders skip them with allow_bad=True)")


def run(args: argparse.Namespace) -> int:
    report = validate_file(args.file, args.format)
    for violation in report.violations:
        print(violation)
    print(report.summary())
    if report.ok:
        return 0
    if args.allow_bad:
        print(f"--allow-bad: {report.total - len(report.bad_lines)} good record(s) kept, {len(report.bad_lines)} bad record(s) skipped")
        return 0
    return 1
