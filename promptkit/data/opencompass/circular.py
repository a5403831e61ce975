"""OpenCompass's CircularEval dataset classes (``CircularMMLUDataset`` …): a native reader's rows, each once per pattern.

Each class reads what its base class reads and permutes the rows of its
circular splits as :mod:`promptkit.data.circular` describes (a dataset of one
split, a ``Dataset`` in OpenCompass, is permuted whole; a class whose
default splits are ``None`` permutes none of a ``DatasetDict``'s, as
OpenCompass's ``make_circular`` does).  The loader keywords are the base
class's plus OpenCompass's ``circular_patterns`` (``'circular'``: rotations,
``'all_possible'``: every permutation), ``option_keys`` and ``answer_key``.
OpenCompass's circular classes over datasets promptkit does not read
(``CircularOBQADataset``, ``CircularXiezhiDataset``) are read by the
installed OpenCompass, as any such class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from promptkit.data.circular import Circular
from promptkit.data.loaders import Splits
from promptkit.data.opencompass.base import OpenCompassDataset
from promptkit.data.opencompass.columns import from_list
from promptkit.data.opencompass.commonsense import HellaswagDataset_V2, PIQADatasetV2, SiqaDatasetV3, commonsenseqaDataset
from promptkit.data.opencompass.exams import ARCDataset, RaceDataset
from promptkit.data.opencompass.mmlu import CEvalDataset, CMMLUDataset, MMLUDataset
from promptkit.errors import ConfigError

__all__ = [
    "CircularARCDataset",
    "CircularCEvalDataset",
    "CircularCMMLUDataset",
    "CircularCSQADataset",
    "CircularHSWAGDataset",
    "CircularMMLUDataset",
    "CircularPIQADataset",
    "CircularRaceDataset",
    "CircularsiqaDataset",
]

#: OpenCompass's ``circular_patterns`` values → promptkit's modes.
_MODES = {"circular": "rotations", "all_possible": "all"}
_CIRCULAR_KEYWORDS = ("circular_patterns", "option_keys", "answer_key")


class _CircularDataset(OpenCompassDataset):
    """What the circular classes share: the base class's rows, permuted (see the module docstring)."""

    #: The splits permuted when the base class gives several (``None``: none of them).
    circular_splits: ClassVar[tuple[str, ...] | None] = ("test",)
    option_keys: ClassVar[tuple[str, ...]] = ("A", "B", "C", "D")
    answer_key: ClassVar[str] = "answer"
    #: The answer column's label of each option, when it is not the option's column name.
    option_labels: ClassVar[tuple[str, ...] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.parameters = {**cls.parameters, "circular_patterns": "circular", "option_keys": list(cls.option_keys), "answer_key": cls.answer_key}

    def __init__(self, **keywords: Any) -> None:
        super().__init__(**keywords)
        # The circular keywords are this class's; the base class's read() gets the others.
        chosen = {key: self.keywords.pop(key) for key in _CIRCULAR_KEYWORDS}
        patterns = chosen["circular_patterns"]
        if patterns not in _MODES:
            raise ConfigError(f"circular_patterns must be 'circular' or 'all_possible' (got {patterns!r})", key="circular_patterns")
        options = tuple(chosen["option_keys"])
        labels = self.option_labels if options == self.option_keys else None
        #: How the rows are permuted (see :mod:`promptkit.data.circular`).
        self.circular = Circular(options=options, answer=chosen["answer_key"], mode=_MODES[patterns], labels=labels)

    def load(self, base_dir: Path | None = None) -> Splits:
        """The base class's rows, those of the circular splits once per pattern (a single split: all of them)."""
        splits = super().load(base_dir)
        expand = self.circular.expand
        if splits.shared is not None:
            return replace(splits, shared=from_list(expand(splits.shared)))
        chosen = self.circular_splits or ()
        return replace(splits, by_name={name: from_list(expand(rows, name)) if name in chosen else rows for name, rows in splits.by_name.items()})

    def permutation(self, row: Mapping[str, Any]) -> str | None:
        """The row's order of options, e.g. ``'BCDA'`` (see :meth:`Circular.permutation`)."""
        return self.circular.permutation(row)


class CircularCEvalDataset(_CircularDataset, CEvalDataset):
    """C-Eval, circular over 'val' and 'test'."""

    circular_splits = ("val", "test")


class CircularMMLUDataset(_CircularDataset, MMLUDataset):
    """MMLU, circular over 'test'; the answer is ``target``."""

    answer_key = "target"


class CircularCMMLUDataset(_CircularDataset, CMMLUDataset):
    """CMMLU, circular over 'test'."""


class CircularCSQADataset(_CircularDataset, commonsenseqaDataset):
    """CommonsenseQA, five options, circular over 'validation'; the answer is ``answerKey``."""

    circular_splits = ("validation",)
    option_keys = ("A", "B", "C", "D", "E")
    answer_key = "answerKey"


class CircularARCDataset(_CircularDataset, ARCDataset):
    """ARC: the options ``textA``-``textD``, labelled ``A``-``D`` in ``answerKey``."""

    circular_splits = None
    option_keys = ("textA", "textB", "textC", "textD")
    answer_key = "answerKey"
    option_labels = ("A", "B", "C", "D")


class CircularHSWAGDataset(_CircularDataset, HellaswagDataset_V2):
    """HellaSwag (V2 rows); the answer is ``label``."""

    circular_splits = None
    answer_key = "label"


class CircularRaceDataset(_CircularDataset, RaceDataset):
    """RACE, circular over 'test'."""


class CircularsiqaDataset(_CircularDataset, SiqaDatasetV3):  # noqa: N801 (OpenCompass's class name)
    """Social IQa (V3 rows), three options, circular over 'validation'."""

    circular_splits = ("validation",)
    option_keys = ("A", "B", "C")


class CircularPIQADataset(_CircularDataset, PIQADatasetV2):
    """PIQA (V2 rows): the options ``sol1``, ``sol2``, labelled ``A``, ``B`` in ``answer``; circular over 'validation'."""

    circular_splits = ("validation",)
    option_keys = ("sol1", "sol2")
    option_labels = ("A", "B")
