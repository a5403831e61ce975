"""``reader_cfg``: which columns are inputs, which is the answer, which splits and ranges to use."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from promptkit.data.input_template import InputTemplate
from promptkit.data.protocol import RowText
from promptkit.data.sources import Schema
from promptkit.errors import ConfigError, DatasetError, check_keys
from promptkit.types import Row

__all__ = ["READER_KEYS", "ReaderConfig"]


_KEYS = (
    "input_columns",
    "output_column",
    "input_template",
    "output_template",
    "train_split",
    "train_range",
    "test_split",
    "test_range",
    "id_column",
)
#: The keys reader_cfg takes.
READER_KEYS = _KEYS
_SLICE = re.compile(r"^\[\s*(-?\d*)\s*(?::\s*(-?\d*)\s*)?(?::\s*(-?\d*)\s*)?\]$")


@dataclass(frozen=True)
class ReaderConfig:
    """The ``reader_cfg`` of a dataset config.

    ``input_columns`` may be a list or a whitespace-separated string;
    ``output_column`` is the answer column, masked in the item under test.
    ``train_range``/``test_range`` select rows as OpenCompass does: an int
    ``n`` (or a fraction in (0, 1)) takes ``n`` rows shuffled with seed ``n``;
    a slice string such as ``'[:100]'`` or ``'[::2]'`` slices.
    ``id_column`` (promptkit's, not OpenCompass's) names the column of each
    row's stable id, used in the records' ``id`` instead of the row's index.
    """

    input_columns: tuple[str, ...]
    output_column: str | None = None
    input_template: RowText | None = None
    output_template: Any = None
    train_split: str = "train"
    train_range: Any = None
    test_split: str = "test"
    test_range: Any = None
    id_column: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.input_columns, list):  # a list, as a config writes it, is taken as the tuple it stands for
            object.__setattr__(self, "input_columns", tuple(self.input_columns))

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> ReaderConfig:
        if not isinstance(cfg, Mapping):
            raise ConfigError(f"reader_cfg must be a dict (got {type(cfg).__name__})", key="reader_cfg")
        check_keys(cfg, _KEYS, "reader_cfg", key_prefix="reader_cfg.")
        if "input_columns" not in cfg:
            raise ConfigError("reader_cfg needs input_columns (a list of column names)", key="reader_cfg.input_columns")
        columns = cfg["input_columns"]
        if isinstance(columns, str):
            columns = columns.split()
        if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns):
            raise ConfigError(f"input_columns must be a list of column names (got {columns!r})", key="reader_cfg.input_columns")
        output = cfg.get("output_column") or None
        if output is not None and not isinstance(output, str):
            raise ConfigError(f"output_column must be one column name (got {output!r})", key="reader_cfg.output_column")
        for key in ("train_range", "test_range"):
            _check_range(cfg.get(key), key)
        id_column = cfg.get("id_column")
        if id_column is not None and (not isinstance(id_column, str) or not id_column):
            raise ConfigError(f"id_column must be one column name (got {id_column!r})", key="reader_cfg.id_column")
        return cls(
            input_columns=tuple(columns),
            output_column=output,
            input_template=_input_template(cfg.get("input_template")),
            output_template=cfg.get("output_template"),
            train_split=cfg.get("train_split", "train"),
            train_range=cfg.get("train_range"),
            test_split=cfg.get("test_split", "test"),
            test_range=cfg.get("test_range"),
            id_column=id_column,
        )

    def input_text(self, row: Row) -> str:
        """What retrievers index and compare: ``input_template``'s text of the row if set (as OpenCompass, unmasked),
        else the row's input columns joined by a space."""
        if self.input_template is None:
            return " ".join(str(row[c]) for c in self.input_columns)
        return self.input_template.text(row)

    def check_schema(self, schema: Schema | None, split: str) -> None:
        """Every input column and the output column must be among the columns the split's file declares (if it does)."""
        if schema is None:
            return
        for column in self.input_columns + ((self.output_column,) if self.output_column else ()):
            if column in schema.columns:
                continue
            kind = "output_column" if column == self.output_column else "input_columns"
            shown = ", ".join(repr(name) for name in schema.columns[:12]) + (", …" if len(schema.columns) > 12 else "")
            fix = (
                "; if the file has no header line, name its columns in the dataset config: columns=[...]"
                if schema.where.startswith("the CSV header")
                else f"; fix reader_cfg.{kind}, or give a file that has the column"
            )
            raise DatasetError(
                f"column {column!r} (reader_cfg.{kind}) of split {split!r} is not in {schema.where}, which has [{shown}]{fix}",
                file=schema.file,
                key=column,
            )

    @cached_property
    def columns(self) -> frozenset[str]:
        """The columns every row must have: the input columns and the output column."""
        return frozenset(self.input_columns + ((self.output_column,) if self.output_column else ()))

    def check_columns(self, rows: Sequence[Row], split: str, first: int = 0) -> None:
        """Every input column and the output column must exist in every row; ``first`` is the number of the first row."""
        wanted = self.columns
        for index, row in enumerate(rows, start=first):
            if wanted <= row.keys():
                continue
            column = next(c for c in self.input_columns + (self.output_column or "",) if c not in row)
            kind = "output_column" if column == self.output_column else "input_columns"
            raise DatasetError(
                f"column {column!r} (reader_cfg.{kind}) is missing from row {index} of split {split!r}; the row has {sorted(row)}",
                row=index,
                key=column,
            )


def _input_template(cfg: Any) -> RowText | None:
    """``reader_cfg.input_template``: a ``PromptTemplate`` config dict (or object), or anything with ``text(row)``."""
    if cfg is None or isinstance(cfg, RowText):
        return cfg
    if type(cfg).__name__ == "PromptTemplate" and not isinstance(cfg, Mapping):
        # A template object built in a Python config: its own config is what the text needs.
        return InputTemplate(cfg.template, cfg.ice_token, cfg.sep_token)
    return InputTemplate.from_config(cfg)


def _check_range(size: Any, key: str) -> None:
    if size is None:
        return
    if isinstance(size, bool) or not isinstance(size, (int, float, str)):
        raise ConfigError(f"{key} must be an int, a fraction or a slice string like '[:100]' (got {size!r})", key=f"reader_cfg.{key}")
    if isinstance(size, float) and not 0 < size < 1:
        raise ConfigError(f"{key}={size!r}: a float range must be a fraction in (0, 1); use an int for a number of rows", key=f"reader_cfg.{key}")
    if isinstance(size, str) and not _SLICE.match(size.strip()):
        raise ConfigError(f"{key}={size!r} is not a slice string such as '[:100]', '[100:200]' or '[::2]'", key=f"reader_cfg.{key}")


def apply_range(rows: Sequence[Row], size: Any, key: str = "range") -> Sequence[Row]:
    """Select rows as OpenCompass's ``load_partial_dataset`` does (see :class:`ReaderConfig`); ``key`` names the setting in errors."""
    if size is None:
        return rows
    total = len(rows)
    if isinstance(size, str):
        match = _SLICE.match(size.strip())
        assert match is not None  # checked by ReaderConfig.from_config
        start, stop, step = (int(g) if g not in (None, "") else None for g in match.groups())
        if ":" not in size:
            raise ConfigError(f"range {size!r} selects a single row; use a slice such as '[{start}:{(start or 0) + 1}]'", key=key)
        return rows[slice(start, stop, step)]
    if size >= total or size <= 0:
        return rows
    if isinstance(size, float):
        size = int(size * total)
    size = int(size)
    order = list(range(total))
    random.Random(size).shuffle(order)
    return [rows[i] for i in order[:size]]
