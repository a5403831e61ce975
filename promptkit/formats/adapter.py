"""``AdapterDataset``: raw records mapped to rows by a ``record_to_row`` callable in the config (EvalScope style, seed 004).

EvalScope adapters implement ``record_to_sample(record)``; here the dataset
config gives the same mapping as a function, and ordinary templates render
the rows::

    def record_to_row(record):
        return dict(question=record['question'], choices=record['options'], answer=record['answer'])

    datasets = [dict(type='AdapterDataset', path='data/test.jsonl', record_to_row=record_to_row, ...)]

A row whose ``choices`` is a list of option texts is a multiple-choice row, as
in EvalScope's ``MultiChoiceAdapter``: it gets ``options`` (the list),
``choices`` (``'A. …\\nB. …'``, what a ``{choices}`` placeholder shows) and
``letters`` (``'A,B,C,D'``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from promptkit.data.loaders import Splits, _resolve, read_rows
from promptkit.errors import ConfigError, DatasetError
from promptkit.formats.base import blanked, check_calib_blank, choice_columns

__all__ = ["AdapterDataset", "multiple_choice_columns"]

Record = Mapping[str, Any]


def multiple_choice_columns(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with ``options``/``choices``/``letters`` derived when its ``choices`` is a list of option texts."""
    choices = row.get("choices")
    if not isinstance(choices, (list, tuple)):
        return row
    if not all(isinstance(text, str) for text in choices):
        raise DatasetError(f"choices must be a list of option texts (got {choices!r})", key="choices")
    if len(choices) > 26:
        raise DatasetError(f"choices has {len(choices)} options; letters run out after 26", key="choices")
    pairs = [(chr(ord("A") + i), text) for i, text in enumerate(choices)]
    return {**row, "options": [{"id": key, "content": text} for key, text in pairs], **choice_columns(pairs)}


class AdapterDataset:
    """Rows from ``.jsonl``/``.json``/``.csv`` records through ``record_to_row`` (see the module docstring).

    ``path`` is one file (the splits ``train`` and ``test``) or a dict of split
    name → file; ``record_to_row`` defaults to taking each record as it is.
    ``calib_blank`` (column names) also renders each row with those columns
    emptied, as a ``"mode": "calib"`` prompt (for PMI-style scoring): the
    :meth:`calib_row` hook of ``promptkit.data.hooks``.
    """

    def __init__(
        self,
        path: str | Mapping[str, str],
        record_to_row: Callable[[Record], Mapping[str, Any]] | None = None,
        calib_blank: Sequence[str] | None = None,
    ) -> None:
        if not isinstance(path, (str, Path, Mapping)):
            raise ConfigError(f"path must be a file path or a dict of split name -> file path (got {path!r})", key="path")
        if record_to_row is not None and not callable(record_to_row):
            raise ConfigError(f"record_to_row must be a function record -> row (got {record_to_row!r})", key="record_to_row")
        self.path = path
        self.record_to_row = record_to_row
        self.calib_blank = check_calib_blank(calib_blank)

    def load(self, base_dir: Path | None = None) -> Splits:
        if isinstance(self.path, Mapping):
            return Splits({str(split): self._rows(p, base_dir) for split, p in self.path.items()})
        return Splits({}, shared=self._rows(self.path, base_dir))

    def _rows(self, path: str | Path, base_dir: Path | None) -> list[dict[str, Any]]:
        return [self._row(record, number, str(path)) for number, record in enumerate(read_rows(_resolve(path, base_dir)), start=1)]

    def _row(self, record: Record, number: int, file: str) -> dict[str, Any]:
        if self.record_to_row is None:
            return multiple_choice_columns(dict(record))
        try:
            row = self.record_to_row(record)
        except Exception as error:  # user code from the config: report what it raised, with the record
            raise DatasetError(f"record_to_row failed on record {number} (counting from 1): {type(error).__name__}: {error}", file=file) from error
        if not isinstance(row, Mapping):
            raise DatasetError(f"record_to_row must return a dict (got {type(row).__name__} for record {number}, counting from 1)", file=file)
        try:
            return multiple_choice_columns(dict(row))
        except DatasetError as error:
            raise error.add_context(file=file, row=number - 1) from None

    def calib_row(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The row's calibration form (``calib_blank`` columns emptied), or ``None`` without ``calib_blank``."""
        return blanked(row, self.calib_blank) if self.calib_blank is not None else None

    def __repr__(self) -> str:
        return f"AdapterDataset(path={self.path!r})"
