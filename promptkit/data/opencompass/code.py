"""Code generation: HumanEval, MBPP (plain, V2, sanitized), BigCodeBench.

Layouts under the data root::

    data/humaneval/human-eval-v2-20210705.jsonl     {"task_id", "prompt", "canonical_solution", "test", "entry_point"}
    data/mbpp/mbpp.jsonl                            {"text", "code", "task_id", "test_list", ...}
    data/mbpp/sanitized-mbpp.jsonl                  {"prompt", "code", "task_id", "test_list", ...}
    data/bigcodebench/BigCodeBench-<release>.jsonl  (BigCodeBench-Hard-<release>.jsonl for dataset_version='hard')

MBPP's 'train' split is the file's first rows (10; 7 sanitized), 'test' the
next ones (500; 257 sanitized), read as ``load_dataset('json')`` reads them.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, Rows, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.data.opencompass.hf_files import load_dataset
from promptkit.errors import ConfigError

__all__ = ["BigCodeBenchDataset", "HumanevalDataset", "MBPPDataset", "MBPPDatasetV2", "SanitizedMBPPDataset"]


class HumanevalDataset(OpenCompassDataset):
    """HumanEval: the rows as they are, each ``num_repeats`` times in a row."""

    parameters: ClassVar = {"path": REQUIRED, "num_repeats": 1, "local_mode": False}

    def read(self, path: str, num_repeats: int, local_mode: bool) -> Rows:
        rows = self.json_lines(self.path(path, local_mode))
        return from_list([row for row in rows for _ in range(num_repeats)])


def _mbpp_splits(dataset: OpenCompassDataset, file: str, train: int, test: int) -> tuple[Rows, Rows]:
    """``split='train[:train]'`` and ``split='train[train:test]'`` of the JSON Lines file."""
    rows = load_dataset(dataset, "json", data_files=file)
    assert isinstance(rows, dict)
    return rows["train"][:train], rows["train"][train:test]


def _joined_tests(row: dict[str, Any]) -> dict[str, Any]:
    """``test_case`` (the test list), ``test_list`` (its lines joined), ``test_list_2`` (the same)."""
    row = dict(row)
    row["test_case"] = row["test_list"]
    row["test_list"] = "\n".join(row["test_list"])
    row["test_list_2"] = row["test_list"]
    return row


class MBPPDataset(OpenCompassDataset):
    """MBPP: rows 0-9 'train', 10-509 'test'; ``test_list`` joined to one string, the list kept as ``test_case``."""

    parameters: ClassVar = {"path": REQUIRED, "local_mode": False}

    def read(self, path: str, local_mode: bool) -> SplitRows:
        train, test = _mbpp_splits(self, str(self.path(path, local_mode)), 10, 510)
        return {"train": from_list([_joined_tests(row) for row in train]), "test": from_list([_joined_tests(row) for row in test])}


class MBPPDatasetV2(OpenCompassDataset):
    """MBPP for pass@k: ``test_case``, ``test_list`` joined, ``test_column``; the test rows ``num_repeats`` times over."""

    parameters: ClassVar = {"path": REQUIRED, "num_repeats": 1}

    def read(self, path: str, num_repeats: int) -> SplitRows:
        train, test = _mbpp_splits(self, str(self.path(path)), 10, 510)
        return {"train": _with_test_column(train, False), "test": _with_test_column(test, False) * num_repeats}


class SanitizedMBPPDataset(OpenCompassDataset):
    """Sanitized MBPP: rows 0-6 'train', 7-263 'test'; ``prompt`` renamed ``text``, tests joined, ``test_column``."""

    parameters: ClassVar = {"path": REQUIRED, "num_repeats": 1}

    def read(self, path: str, num_repeats: int) -> SplitRows:
        train, test = _mbpp_splits(self, str(self.path(path)), 7, 264)
        return {"train": _with_test_column(train, True), "test": _with_test_column(test, True) * num_repeats}


def _with_test_column(rows: Rows, sanitized: bool) -> Rows:
    out = []
    for row in rows:
        row = dict(row)
        if sanitized:
            row["text"] = row.pop("prompt")
        else:
            row["test_case"] = row["test_list"]
        row["test_list"] = "\n".join(row["test_list"])
        if sanitized:
            row["test_list_2"] = row["test_list"]
        row["test_column"] = {"test_list_2": row["test_list"], "task_id": row["task_id"]}
        out.append(row)
    return from_list(out)


class BigCodeBenchDataset(OpenCompassDataset):
    """BigCodeBench: the rows of one release file (full or hard) as they are, as 'train' and 'test'."""

    parameters: ClassVar = {"path": "opencompass/bigcodebench", "local_mode": False, "release_version": "v0.1.2", "dataset_version": "full"}

    def read(self, path: str, local_mode: bool, release_version: str, dataset_version: str) -> SplitRows:
        if dataset_version not in ("full", "hard"):
            raise ConfigError(
                f"BigCodeBenchDataset: dataset_version must be 'full' or 'hard' (got {dataset_version!r})", key="dataset_version"
            )
        stem = "BigCodeBench" if dataset_version == "full" else "BigCodeBench-Hard"
        rows = from_list(self.json_lines(os.path.join(self.path(path, local_mode), f"{stem}-{release_version}.jsonl"), skip_blank=True))
        return {"train": rows, "test": list(rows)}
