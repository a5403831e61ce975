"""Question answering with given options or tasks: ARC, RACE, BBH, GPQA, IFEval.

Layouts under the data root::

    data/ARC/ARC-c/ARC-Challenge-{Dev,Test}.jsonl   {"question": {"stem", "choices": [{"label", "text"}]}, "answerKey"}
    data/race/{validation,test}/<name>.jsonl        {"article", "question", "options": [4], "answer"}
    data/BBH/data/<name>.json                       {"examples": [{"input", "target"}, ...]}
    <path>/<name>                                   GPQA's CSV (question in column 8, the correct option first of 9-12)
    data/ifeval/input_data.jsonl                    {"key", "prompt", "instruction_id_list", "kwargs"}
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, Rows, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.errors import DatasetError

__all__ = ["ARCDataset", "BBHDataset", "GPQADataset", "IFEvalDataset", "RaceDataset"]


class ARCDataset(OpenCompassDataset):
    """ARC: four-choice questions only → ``question``, ``answerKey`` (as A-D), ``textA``-``textD``."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED}

    def read(self, path: str, name: str) -> Rows:
        rows = []
        # OpenCompass reads the file dropping bytes that are not UTF-8.
        for item in self.json_lines(self.path(path), errors="ignore"):
            question = item["question"]
            choices = question["choices"]
            if len(choices) != 4:
                continue
            labels = [choice["label"] for choice in choices]
            if item["answerKey"] not in labels:
                raise DatasetError(f"ARCDataset: answerKey {item['answerKey']!r} is not among the choice labels {labels}")
            row = {"question": question["stem"], "answerKey": "ABCD"[labels.index(item["answerKey"])]}
            row.update({f"text{letter}": choices[index]["text"] for index, letter in enumerate("ABCD")})
            rows.append(row)
        return from_list(rows)


class RaceDataset(OpenCompassDataset):
    """RACE: ``article``, ``question``, ``A``-``D`` (the options), ``answer``; splits 'validation' and 'test'."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED}

    def read(self, path: str, name: str) -> SplitRows:
        folder = self.path(path)
        splits: SplitRows = {}
        for split in ("validation", "test"):
            rows = []
            for line in self.json_lines(os.path.join(folder, split, f"{name}.jsonl")):
                options = {letter: line["options"][index] for index, letter in enumerate("ABCD")}
                rows.append({"article": line["article"], "question": line["question"], **options, "answer": line["answer"]})
            splits[split] = from_list(rows)
        return splits


class BBHDataset(OpenCompassDataset):
    """BIG-Bench Hard: the ``examples`` of the task's JSON file."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED}

    def read(self, path: str, name: str) -> Rows:
        file = os.path.join(self.path(path), f"{name}.json")
        data = self.parse_json(self.text(file), file)
        if not isinstance(data, dict) or not isinstance(data.get("examples"), list):
            raise DatasetError('BBHDataset: the task file must hold {"examples": [...]}', file=file)
        return from_list(data["examples"])


class GPQADataset(OpenCompassDataset):
    """GPQA: ``question``, ``A``-``D`` (the correct option rotated to a different place row by row), ``answer``."""

    parameters: ClassVar = {"path": REQUIRED, "name": REQUIRED}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, name: str, **_: Any) -> Rows:
        file = os.path.join(self.path(path, local_mode=True), name)
        rotations = ("ABCD", "BCDA", "CDAB", "DABC")
        rows = []
        count = 0
        for line, record in enumerate(self.csv_records(file), start=1):
            if len(record) < 12:
                raise DatasetError(f"GPQADataset: the record has {len(record)} fields, expected at least 12", file=file, line=line)
            if record[7] == "Question":  # the header
                continue
            count += 1
            options = record[8:12]
            rotation = rotations[count % 4]
            row: dict[str, Any] = {"question": record[7]}
            row.update({letter: options["ABCD".index(source)] for letter, source in zip("ABCD", rotation, strict=True)})
            row["answer"] = next(letter for letter in "ABCD" if row[letter] == options[0])
            rows.append(row)
        return from_list(rows)


class IFEvalDataset(OpenCompassDataset):
    """IFEval: ``prompt`` and ``reference`` (the whole record)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        return from_list([{"prompt": record["prompt"], "reference": record} for record in self.json_lines(self.path(path))])
