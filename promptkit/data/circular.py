"""Circular evaluation: each multiple-choice row once per order of its options, the gold answer remapped.

OpenCompass's CircularEval (``opencompass/datasets/circular.py``) and
inspect_ai's ``shuffle_choices`` guard against answer-position bias the same
way: the options move, the answer follows them.  A *pattern* names, for each
option column in order, the column its text moves to: with options
``A B C D``, the pattern ``B C D A`` puts the text of ``A`` under ``B``, of
``B`` under ``C`` …, and a gold ``A`` becomes ``B``.  An answer that is not
one of the labels stays as it is (OpenCompass's rule; C-Eval's test split
has empty answers).

Modes: ``rotations`` (OpenCompass's ``'circular'``: the options rotated,
``ABCD``, ``BCDA``, ``CDAB``, ``DABC``), ``all`` (``'all_possible'``: every
permutation, in :func:`itertools.permutations` order) and ``shuffle``
(``shuffles`` distinct seeded permutations per row, drawn from
``random.Random(f'{seed}/{row index}')``, so a row's orders do not depend on
the other rows, on ranges or on workers).

Each expanded row gets OpenCompass's two columns: ``qid`` (the row's index in
its split) and ``circular_pattern`` (the pattern, a list of option columns),
which OpenCompass's ``CircularEvaluator`` reads.

>>> spec = Circular(options=("A", "B", "C"))
>>> [row["A"] + row["B"] + row["C"] + ":" + row["answer"] for row in spec.expand([{"A": "x", "B": "y", "C": "z", "answer": "A"}])]
['xyz:A', 'zxy:B', 'yzx:C']
>>> spec.permutation(spec.expand([{"A": "x", "B": "y", "C": "z", "answer": "A"}])[1])
'BCA'
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.errors import ConfigError, DatasetError, check_keys

__all__ = ["CIRCULAR_MODES", "PATTERN_COLUMN", "QID_COLUMN", "Circular"]

#: The ways to order the options (see the module docstring).
CIRCULAR_MODES = ("rotations", "all", "shuffle")
#: The columns each expanded row gets (OpenCompass's names).
QID_COLUMN = "qid"
PATTERN_COLUMN = "circular_pattern"

Pattern = tuple[str, ...]


@dataclass(frozen=True)
class Circular:
    """How a dataset's options are permuted: a dataset config's ``circular=dict(...)`` (see the module docstring).

    ``options``: the option columns, in order; ``answer``: the column holding
    the gold label; ``labels``: the label of each option (default: the option
    column names; ARC's ``textA`` … columns have labels ``A`` …);
    ``splits``: the splits to permute (``None``: the test split; a
    single-file dataset, which is both 'train' and 'test', is permuted as a
    whole, as OpenCompass does).
    """

    options: tuple[str, ...]
    answer: str = "answer"
    mode: str = "rotations"
    labels: tuple[str, ...] | None = None
    seed: int = 0
    shuffles: int = 1
    splits: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.options) < 2 or len(set(self.options)) != len(self.options) or not all(isinstance(o, str) and o for o in self.options):
            raise ConfigError(f"circular.options must be two or more distinct column names (got {list(self.options)!r})", key="circular.options")
        if not isinstance(self.answer, str) or not self.answer:
            raise ConfigError(f"circular.answer must be the name of the answer column (got {self.answer!r})", key="circular.answer")
        if self.mode not in CIRCULAR_MODES:
            raise ConfigError(f"circular.mode must be one of {list(CIRCULAR_MODES)} (got {self.mode!r})", key="circular.mode")
        if self.labels is not None and (len(self.labels) != len(self.options) or len(set(self.labels)) != len(self.labels)):
            raise ConfigError(
                f"circular.labels must give one distinct label per option ({len(self.options)}), got {list(self.labels)!r}", key="circular.labels"
            )
        for name in ("seed", "shuffles"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name == "shuffles" else 0):
                raise ConfigError(f"circular.{name} must be a {'positive' if name == 'shuffles' else 'non-negative'} integer (got {value!r})", key=f"circular.{name}")
        if self.shuffles > 1 and self.mode != "shuffle":
            raise ConfigError(f"circular.shuffles is for mode='shuffle' (the mode is {self.mode!r})", key="circular.shuffles")
        if self.shuffles > math.factorial(len(self.options)):
            raise ConfigError(
                f"circular.shuffles={self.shuffles} is more than the {math.factorial(len(self.options))} orders of {len(self.options)} options",
                key="circular.shuffles",
            )

    @classmethod
    def from_config(cls, cfg: Any) -> Circular:
        """A dataset config's ``circular=dict(options=[...], answer=..., mode=..., labels=..., seed=..., shuffles=..., splits=...)``."""
        if not isinstance(cfg, Mapping):
            raise ConfigError(f"circular must be a dict, e.g. dict(options=['A', 'B', 'C', 'D'], answer='answer') (got {cfg!r})", key="circular")
        keys = ("options", "answer", "mode", "labels", "seed", "shuffles", "splits")
        check_keys(cfg, keys, "circular", key_prefix="circular.")
        if "options" not in cfg:
            raise ConfigError("circular needs options: the option columns, e.g. options=['A', 'B', 'C', 'D']", key="circular.options")
        values = dict(cfg)
        for name in ("options", "labels", "splits"):
            value = values.get(name)
            if value is None:
                continue
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise ConfigError(f"circular.{name} must be a list of names (got {value!r})", key=f"circular.{name}")
            values[name] = tuple(value)
        return cls(**values)

    @property
    def label_names(self) -> tuple[str, ...]:
        return self.labels if self.labels is not None else self.options

    def patterns(self, qid: int) -> list[Pattern]:
        """The patterns of row ``qid`` (see the module docstring)."""
        options = self.options
        if self.mode == "rotations":
            return [options[i:] + options[:i] for i in range(len(options))]
        if self.mode == "all":
            return list(itertools.permutations(options))
        rng = random.Random(f"{self.seed}/{qid}")
        drawn: dict[Pattern, None] = {}
        while len(drawn) < self.shuffles:
            order = list(options)
            rng.shuffle(order)
            drawn[tuple(order)] = None
        return list(drawn)

    def expand(self, rows: Sequence[Mapping[str, Any]], split: str | None = None) -> list[dict[str, Any]]:
        """Every row once per pattern, in row order (a row's patterns together)."""
        out: list[dict[str, Any]] = []
        options, labels = self.options, self.label_names
        for qid, row in enumerate(rows):
            missing = [column for column in (*options, self.answer) if column not in row]
            if missing:
                where = f" of split {split!r}" if split else ""
                raise DatasetError(
                    f"circular: row {qid}{where} has no column {missing[0]!r} (its columns: {', '.join(map(str, row))}); "
                    "set circular.options and circular.answer to the dataset's option and answer columns",
                    row=qid,
                    key=missing[0],
                )
            answer = row[self.answer]
            position = labels.index(answer) if isinstance(answer, str) and answer in labels else None
            for pattern in self.patterns(qid):
                item = dict(row)
                for source, target in zip(options, pattern, strict=True):
                    item[target] = row[source]
                if position is not None:
                    item[self.answer] = labels[options.index(pattern[position])]
                item[QID_COLUMN] = qid
                item[PATTERN_COLUMN] = list(pattern)
                out.append(item)
        return out

    def permutation(self, row: Mapping[str, Any]) -> str | None:
        """An expanded row's pattern as its labels, e.g. ``'BCDA'`` (joined by ``','`` when a label is longer than one
        character); ``None`` for a row that was not expanded (a shot from another split)."""
        pattern = row.get(PATTERN_COLUMN)
        if not isinstance(pattern, (list, tuple)):
            return None
        options, labels = self.options, self.label_names
        names = [labels[options.index(column)] if column in options else str(column) for column in pattern]
        return ("" if all(len(name) == 1 for name in names) else ",").join(names)
