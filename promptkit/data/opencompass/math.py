"""Math word problems: MATH, GSM8K, MathBench, AIME.

Layouts under the data root::

    data/math/math.json                 {"<id>": {"problem": ..., "solution": ...}, ...}
    data/gsm8k/{train,test}.jsonl       {"question": ..., "answer": ...}
    <path>/<name>.jsonl                 MathBench (path taken under the data root as given)
    data/aime.jsonl                     {"origin_prompt": ..., "gold_answer": ..., ...}
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, Rows, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.errors import DatasetError

__all__ = ["Aime2024Dataset", "GSM8KDataset", "MATHDataset", "MathBenchDataset", "boxed_answer"]

_ROTATIONS = ("ABCD", "BCDA", "CDAB", "DABC")


def boxed_answer(solution: str) -> str | None:
    r"""The content of the last ``\boxed{...}`` of a solution (``None`` if there is none, or it is a ``\fbox``).

    >>> boxed_answer(r"so $\boxed{\frac{1}{2}}$.")
    '\\frac{1}{2}'
    """
    start = solution.rfind("\\boxed")
    if start < 0:
        start = solution.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for end in range(start, len(solution)):
        if solution[end] == "{":
            depth += 1
        elif solution[end] == "}":
            depth -= 1
            if depth == 0:
                boxed = solution[start : end + 1]
                return boxed[len("\\boxed{") : -1] if boxed.startswith("\\boxed{") else None
    return None


class MATHDataset(OpenCompassDataset):
    """MATH: ``problem`` and ``solution`` (the boxed final answer only); the same rows as 'test' and 'train'."""

    parameters: ClassVar = {"path": REQUIRED, "file_name": "math.json"}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, file_name: str, **_: Any) -> SplitRows:
        file = os.path.join(self.path(path), file_name)
        data = self.parse_json(self.text(file), file)
        if not isinstance(data, dict):
            raise DatasetError("MATHDataset: the file must hold one JSON object: id -> {problem, solution}", file=file)
        rows = from_list([{"problem": item["problem"], "solution": boxed_answer(item["solution"])} for item in data.values()])
        return {"test": rows, "train": list(rows)}


class GSM8KDataset(OpenCompassDataset):
    """GSM8K: the rows of ``train.jsonl`` and ``test.jsonl`` as they are."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        folder = self.path(path)
        return {split: from_list(self.json_lines(os.path.join(folder, f"{split}.jsonl"))) for split in ("train", "test")}


class MathBenchDataset(OpenCompassDataset):
    """MathBench: cloze rows as ``question``/``answer``; choice rows in four rotations of their options (``with_circular``)."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED, "with_circular": True}

    def read(self, path: str, name: str, with_circular: bool) -> Rows:
        file = os.path.join(self.path(path, local_mode=True), f"{name}.jsonl")
        rows: Rows = []
        for index, entry in enumerate(self.json_lines(file)):
            if "cloze" in name:
                rows.append({"question": entry["question"].strip(), "answer": entry["answer"].strip()})
            elif with_circular:
                rows.extend(_rotations(entry, index))
            else:
                rows.append({"question": entry["question"].strip() + "\n" + _lettered(entry["options"]), "answer": entry["answer"].strip()})
        return from_list(rows)


def _lettered(options: list[Any]) -> str:
    return "".join(f"{letter}. {option}\n" for letter, option in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", options, strict=False))


def _rotations(entry: dict[str, Any], index: int) -> Rows:
    """The four rotations of a four-option question; ``answer`` is '<index>--<letter>--<rotation>'."""
    rows = []
    for rotation in _ROTATIONS:
        options = [entry["options"]["ABCD".index(letter)] for letter in rotation]
        letter = "ABCD"[rotation.index(entry["answer"])]
        row = dict(entry)
        row["options"] = options
        row["answer"] = f"{index}--{letter}--{rotation}"
        row["question"] = entry["question"].strip() + "\n" + _lettered(options)
        rows.append(row)
    return rows


class Aime2024Dataset(OpenCompassDataset):
    """AIME: each row as it is, plus ``question`` (its ``origin_prompt``) and ``answer`` (its ``gold_answer``)."""

    parameters: ClassVar = {"path": REQUIRED}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, **_: Any) -> Rows:
        rows = []
        for row in self.json_lines(self.path(path)):
            row["question"] = row["origin_prompt"]
            row["answer"] = row["gold_answer"]
            rows.append(row)
        return from_list(rows)
