"""Open-domain QA: TriviaQA and Natural Questions, in OpenCompass's TSV and JSON Lines variants.

Layouts under the data root::

    data/triviaqa/trivia-{dev,test}.qa.csv      tab-separated: question, a Python list literal of answers
    data/triviaqa/triviaqa-{validation,train}.jsonl
    data/nq/nq-{dev,test}.qa.csv                tab-separated: question, a Python list literal of answers
    data/nq-open/nq-open-{validation,train}.jsonl
"""

from __future__ import annotations

import ast
import os
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.errors import DatasetError

__all__ = ["NQOpenDataset", "NaturalQuestionDataset", "TriviaQADataset", "TriviaQADatasetV2"]


def _answers(text: str, file: str, line: int) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise DatasetError(f"the answers field is not a Python literal: {text[:60]!r}", file=file, line=line) from None


def _tsv_splits(dataset: OpenCompassDataset, path: str, pattern: str, first_answer_split: str) -> SplitRows:
    """question/answer rows of the splits 'dev' and 'test'; ``first_answer_split`` keeps only the first answer."""
    folder = dataset.path(path)
    splits: SplitRows = {}
    for split in ("dev", "test"):
        file = os.path.join(folder, pattern.format(split=split))
        rows = []
        for line, record in enumerate(dataset.csv_records(file, delimiter="\t"), start=1):
            question, answers_text = dataset.fields(record, 2, file, line)
            answers = _answers(answers_text, file, line)
            rows.append({"question": question, "answer": answers[0] if split == first_answer_split else answers})
        splits[split] = from_list(rows)
    return splits


class TriviaQADataset(OpenCompassDataset):
    """TriviaQA: ``question``, ``answer`` (the list of answers; in 'test' its first item)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _tsv_splits(self, path, "trivia-{split}.qa.csv", "test")


class NaturalQuestionDataset(OpenCompassDataset):
    """Natural Questions: ``question``, ``answer`` (the list of answers; in 'dev' its first item)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _tsv_splits(self, path, "nq-{split}.qa.csv", "dev")


class TriviaQADatasetV2(OpenCompassDataset):
    """TriviaQA (JSON Lines): the rows as they are; splits 'validation' and 'train'."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        folder = self.path(path)
        return {split: from_list(self.json_lines(os.path.join(folder, f"triviaqa-{split}.jsonl"))) for split in ("validation", "train")}


class NQOpenDataset(OpenCompassDataset):
    """NQ-Open: the rows as they are ('train' keeps the first answer only); splits 'validation' and 'train'."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        folder = self.path(path)
        splits: SplitRows = {}
        for split in ("validation", "train"):
            rows = self.json_lines(os.path.join(folder, f"nq-open-{split}.jsonl"))
            if split == "train":
                rows = [{**row, "answer": row["answer"][0]} for row in rows]
            splits[split] = from_list(rows)
        return splits
