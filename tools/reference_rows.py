"""JSON Lines in and out for the reference harnesses (OpenCompass and AISBench): data rows as a ``datasets.Dataset``, records written.

Both harnesses hand the reference framework a ``datasets.Dataset`` built
from a test's JSONL file.  ``from_list`` keeps the first row's key order,
which is the order the frameworks' sequential placeholder substitution walks,
so every row must have the same keys in the same order.
"""

from __future__ import annotations

import json
from typing import IO

import datasets


class RowsError(ValueError):
    """The data file does not suit the harness (not objects, empty, keys differing between rows)."""


def load_jsonl(path: str) -> datasets.Dataset:
    rows = []
    with open(path, encoding='utf-8') as handle:
        for line_no, line in enumerate(handle, 1):
            if line.strip():
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise RowsError(f'{path}:{line_no}: expected a JSON object')
                rows.append(row)
    if not rows:
        raise RowsError(f'{path}: no rows')
    keys = list(rows[0])
    for line_no, row in enumerate(rows, 1):
        if list(row) != keys:
            raise RowsError(
                f'{path}: row {line_no} has keys {list(row)}, expected {keys} '
                '(the harness needs every row to have the same keys in the same order)')
    return datasets.Dataset.from_list(rows)


def write_jsonl(records: list[dict], handle: IO[str]) -> None:
    for record in records:
        handle.write(json.dumps(record, ensure_ascii=False) + '\n')
