"""Exam-style multiple choice read from CSV: MMLU, CMMLU, C-Eval; and MMLU-Pro's folder.

Layouts under the data root (``path='opencompass/mmlu'`` etc.)::

    data/mmlu/{dev,test}/<name>_{dev,test}.csv        no header: question, A, B, C, D, answer
    data/cmmlu/{dev,test}/<name>.csv                  a header; columns 2-7: question, A-D, answer
    data/ceval/formal_ceval/{dev,val,test}/<name>_{split}.csv   a header (id, question, A-D, answer, explanation)
    data/mmlu_pro/                                    the Hugging Face files (test, validation), .parquet or .jsonl
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, Rows, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.data.opencompass.hf_files import load_dataset

__all__ = ["CEvalDataset", "CMMLUDataset", "MMLUDataset", "MMLUProDataset"]

_LETTERS = "ABCDEFGHIJKLMNOP"


class MMLUDataset(OpenCompassDataset):
    """MMLU: header-less CSV rows → ``input``, ``A``-``D``, ``target``; splits 'dev' and 'test'."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, name: str, **_: Any) -> SplitRows:
        folder = self.path(path)
        splits: SplitRows = {}
        for split in ("dev", "test"):
            file = os.path.join(folder, split, f"{name}_{split}.csv")
            rows: Rows = []
            for line, record in enumerate(self.csv_records(file), start=1):
                question, a, b, c, d, target = self.fields(record, 6, file, line)
                rows.append({"input": question, "A": a, "B": b, "C": c, "D": d, "target": target})
            splits[split] = from_list(rows)
        return splits


class CMMLUDataset(OpenCompassDataset):
    """CMMLU: CSV with a header, seven fields (an id first) → ``question``, ``A``-``D``, ``answer``; 'dev' and 'test'."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, name: str, **_: Any) -> SplitRows:
        folder = self.path(path)
        splits: SplitRows = {}
        for split in ("dev", "test"):
            file = os.path.join(folder, split, f"{name}.csv")
            rows: Rows = []
            for line, record in enumerate(self.csv_records(file)[1:], start=2):
                _number, question, a, b, c, d, answer = self.fields(record, 7, file, line)
                rows.append({"question": question, "A": a, "B": b, "C": c, "D": d, "answer": answer})
            splits[split] = from_list(rows)
        return splits


class CEvalDataset(OpenCompassDataset):
    """C-Eval: CSV with a header, its columns as they are, ``explanation`` and ``answer`` added as '' where missing."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED, "local_mode": False}

    def read(self, path: str, name: str, local_mode: bool) -> SplitRows:
        folder = self.path(path, local_mode)
        splits: SplitRows = {}
        for split in ("dev", "val", "test"):
            file = os.path.join(folder, split, f"{name}_{split}.csv")
            records = self.csv_records(file)
            header, body = (records[0], records[1:]) if records else ([], [])
            rows: Rows = []
            for record in body:
                row: dict[str, Any] = dict(zip(header, record, strict=False))
                row.setdefault("explanation", "")
                row.setdefault("answer", "")
                rows.append(row)
            if rows:
                splits[split] = from_list(rows)
        return splits


class MMLUProDataset(OpenCompassDataset):
    """MMLU-Pro: the rows of one ``category``, with ``answer_string``, ``options_str`` and a trimmed ``cot_content``."""

    parameters: ClassVar = {"path": REQUIRED, "category": REQUIRED}

    def read(self, path: str, category: str) -> SplitRows:
        splits = load_dataset(self, str(self.path(path)))
        assert isinstance(splits, dict)
        return {split: [_with_options(row) for row in rows if row.get("category") == category] for split, rows in splits.items()}


def _with_options(row: dict[str, Any]) -> dict[str, Any]:
    """The row plus ``answer_string`` (the answer's option line) and ``options_str`` (every option but 'N/A')."""
    lines = []
    answer_string = ""
    for index, option in enumerate(row["options"]):
        if option == "N/A":
            continue
        line = f"{_LETTERS[index]}. {option}\n"
        lines.append(line)
        if row["answer"] == _LETTERS[index]:
            answer_string = line
    cot = row["cot_content"].removeprefix("A: Let's think step by step.").strip()
    return {**row, "cot_content": cot, "answer_string": answer_string, "options_str": "".join(lines).strip()}
