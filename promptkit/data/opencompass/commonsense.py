"""Commonsense multiple choice: HellaSwag, WinoGrande, PIQA, SIQA, CommonsenseQA, BoolQ (each in OpenCompass's variants).

Layouts under the data root::

    data/hellaswag/hellaswag.jsonl                   {"query": "<activity>: <context>", "choices": [4], "gold": int}
    data/hellaswag/hellaswag_train_sampled25.jsonl   (HellaswagDatasetwithICE's 'train'; hellaswag.jsonl its 'val')
    data/winogrande/dev.jsonl (and train_xs.jsonl)   {"sentence": "... _ ...", "option1", "option2", "answer"}
    data/piqa/{train,dev}.jsonl + {train,dev}-labels.lst     one label per line beside each row
    data/siqa/{train,dev}.jsonl + {train,dev}-labels.lst
    data/commonsenseqa/{train,dev}_rand_split.jsonl  {"question": {"stem", "choices": [5]}, "answerKey"}
    data/SuperGLUE/BoolQ/val.jsonl                   {"question", "passage", "label", ...}
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

from promptkit.data.opencompass.base import REQUIRED, OpenCompassDataset, Rows, SplitRows
from promptkit.data.opencompass.columns import from_list
from promptkit.data.opencompass.hf_files import load_dataset, select_split
from promptkit.errors import DatasetError

__all__ = [
    "BoolQDataset",
    "BoolQDatasetV2",
    "BoolQDatasetV3",
    "HellaswagDataset",
    "HellaswagDatasetClean",
    "HellaswagDatasetwithICE",
    "HellaswagDataset_V2",
    "HellaswagDataset_V3",
    "PIQADataset",
    "PIQADatasetV2",
    "PIQADatasetV3",
    "SiqaDatasetV3",
    "WinograndeDataset",
    "WinograndeDatasetV2",
    "WinograndeDatasetV3",
    "commonsenseqaDataset",
    "siqaDataset",
    "siqaDataset_V2",
]


# -- HellaSwag --------------------------------------------------------------


def _choices(data: dict[str, Any]) -> dict[str, Any]:
    return {letter: data["choices"][index] for index, letter in enumerate("ABCD")}


class HellaswagDataset(OpenCompassDataset):
    """HellaSwag: ``ctx`` (the query after its second ': ' at most), ``A``-``D``, ``label`` (the gold index)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        return from_list(
            [
                {"ctx": data["query"].split(": ", 2)[-1], **_choices(data), "label": data["gold"]}
                for data in self.json_lines(self.path(path))
            ]
        )


def _v2_row(data: dict[str, Any]) -> dict[str, Any]:
    return {"ctx": data["query"].split(": ", 1)[-1], **_choices(data), "label": "ABCD"[data["gold"]]}


class HellaswagDataset_V2(OpenCompassDataset):  # noqa: N801 (OpenCompass's class name)
    """HellaSwag: ``ctx`` (the query after its first ': '), ``A``-``D``, ``label`` (the gold letter)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        return from_list([_v2_row(data) for data in self.json_lines(self.path(path))])


class HellaswagDataset_V3(OpenCompassDataset):  # noqa: N801 (OpenCompass's class name)
    """HellaSwag: the whole ``query``, ``A``-``D``, ``gold`` (the gold index)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        return from_list([{"query": data["query"], **_choices(data), "gold": data["gold"]} for data in self.json_lines(self.path(path))])


class HellaswagDatasetwithICE(OpenCompassDataset):
    """HellaSwag with shots: rows as :class:`HellaswagDataset_V2`; 'train' from the 25 sampled rows, 'val' the full file."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        folder = self.path(path)
        files = {"train": "hellaswag_train_sampled25.jsonl", "val": "hellaswag.jsonl"}
        return {split: from_list([_v2_row(data) for data in self.json_lines(os.path.join(folder, name))]) for split, name in files.items()}


class HellaswagDatasetClean(OpenCompassDataset):
    """HellaSwag as :class:`HellaswagDataset`, plus ``is_clean`` from the contamination annotations beside the file."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        file = self.path(path)
        notes_file = file.parent / "hellaswag_val_contamination_annotations.json"
        notes = self.parse_json(self.text(notes_file), notes_file)
        rows = []
        for index, data in enumerate(self.json_lines(file)):
            is_clean = notes[str(index)][0] if str(index) in notes else "not labeled"
            rows.append({"ctx": data["query"].split(": ", 2)[-1], **_choices(data), "label": data["gold"], "is_clean": is_clean})
        return from_list(rows)


# -- WinoGrande -------------------------------------------------------------


def _winogrande_row(line: dict[str, Any], letter_answer: bool) -> dict[str, Any]:
    sentence = line["sentence"]
    if "_" not in sentence:
        raise DatasetError(f"the sentence has no '_' to fill: {sentence!r}")
    answer = line["answer"]
    if letter_answer:
        answer = " AB"[int(answer)] if answer != "" else "NULL"
    return {
        "prompt": sentence,
        "only_option1": line["option1"],
        "only_option2": line["option2"],
        "opt1": sentence.replace("_", line["option1"]),
        "opt2": sentence.replace("_", line["option2"]),
        "answer": answer,
        "cont": sentence.split("_")[1],
    }


class WinograndeDataset(OpenCompassDataset):
    """WinoGrande (``dev.jsonl``): the sentence with each option filled in, the part after the blank, ``answer`` as given."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        return from_list([_winogrande_row(line, False) for line in self.json_lines(os.path.join(self.path(path), "dev.jsonl"))])


class WinograndeDatasetV2(OpenCompassDataset):
    """WinoGrande as :class:`WinograndeDataset`, ``answer`` as a letter ('A', 'B'; 'NULL' when unlabelled)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        return from_list([_winogrande_row(line, True) for line in self.json_lines(os.path.join(self.path(path), "dev.jsonl"))])


class WinograndeDatasetV3(OpenCompassDataset):
    """WinoGrande as :class:`WinograndeDatasetV2`, splits 'train_xs' and 'dev' from their files."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        folder = self.path(path)
        return {
            split: from_list([_winogrande_row(line, True) for line in self.json_lines(os.path.join(folder, f"{split}.jsonl"))])
            for split in ("train_xs", "dev")
        }


# -- PIQA and SIQA: rows beside a file of labels ---------------------------


def _labelled(dataset: OpenCompassDataset, folder: Path, stem: str) -> list[tuple[dict[str, Any], str]]:
    """(row, label line) pairs of ``<stem>.jsonl`` and ``<stem>-labels.lst``, which must have as many lines."""
    data_file, label_file = folder / f"{stem}.jsonl", folder / f"{stem}-labels.lst"
    data_lines = [line for _, line in dataset.lines(data_file)]
    label_lines = [line for _, line in dataset.lines(label_file)]
    if len(data_lines) != len(label_lines):
        raise DatasetError(
            f"{len(data_lines)} rows but {len(label_lines)} labels in {label_file.name}; they go line by line", file=str(data_file)
        )
    return [
        (dataset.parse_json(line.strip(), data_file, number), label.strip())
        for number, (line, label) in enumerate(zip(data_lines, label_lines, strict=True), start=1)
    ]


def _train_and_validation(dataset: OpenCompassDataset, path: str, row: Any) -> SplitRows:
    folder = dataset.path(path)
    return {
        split: from_list([row(data, label) for data, label in _labelled(dataset, folder, stem)])
        for split, stem in (("train", "train"), ("validation", "dev"))
    }


def _without_id(data: dict[str, Any]) -> dict[str, Any]:
    data.pop("id")
    return data


class PIQADataset(OpenCompassDataset):
    """PIQA: each row without its ``id``, plus ``label`` (an int); splits 'train' and 'validation'."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _train_and_validation(self, path, lambda data, label: _without_id({**data, "label": int(label)}))


class PIQADatasetV2(OpenCompassDataset):
    """PIQA: each row without its ``id``, plus ``answer`` ('A', 'B'; 'NULL' for a negative label)."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _train_and_validation(
            self, path, lambda data, label: _without_id({**data, "answer": "NULL" if int(label) < 0 else "AB"[int(label)]})
        )


def _piqa_v3_row(data: dict[str, Any], label: str) -> dict[str, Any]:
    row = {**data, "label": int(label)}
    row["goal"] = row["goal"][0].upper() + row["goal"][1:]
    case = str.upper if row["goal"].endswith(("?", ".")) else str.lower
    row["sol1"] = case(row["sol1"][0]) + row["sol1"][1:]
    row["sol2"] = case(row["sol2"][0]) + row["sol2"][1:]
    return _without_id(row)


class PIQADatasetV3(OpenCompassDataset):
    """PIQA: ``goal`` capitalised; the solutions' first letters upper case after a '?' or '.' goal, else lower; ``label``."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _train_and_validation(self, path, _piqa_v3_row)


class siqaDataset(OpenCompassDataset):  # noqa: N801 (OpenCompass's class name)
    """SIQA: each row plus ``label`` (an int); splits 'train' and 'validation'."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _train_and_validation(self, path, lambda data, label: {**data, "label": int(label)})


def _siqa_v2_row(data: dict[str, Any], label: str) -> dict[str, Any]:
    number = int(label)
    candidates = [[f"{letter}. {data['answer' + letter]}", letter, data["answer" + letter]] for letter in "ABC"]
    return {**data, "all_labels": {"candidates": candidates, "label": number - 1}, "label": " ABC"[number]}


class siqaDataset_V2(OpenCompassDataset):  # noqa: N801 (OpenCompass's class name)
    """SIQA: ``all_labels`` (the lettered candidates and the 0-based label) and ``label`` as a letter."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _train_and_validation(self, path, _siqa_v2_row)


def _siqa_v3_row(data: dict[str, Any], label: str) -> dict[str, Any]:
    row = dict(data)
    for letter in "ABC":
        row[letter] = row.pop("answer" + letter)
    row["answer"] = "ABC"[int(label) - 1]
    return row


class SiqaDatasetV3(OpenCompassDataset):
    """SIQA: ``answerA``-``answerC`` renamed ``A``-``C`` (moved last), ``answer`` as a letter."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        return _train_and_validation(self, path, _siqa_v3_row)


# -- CommonsenseQA ----------------------------------------------------------


class commonsenseqaDataset(OpenCompassDataset):  # noqa: N801 (OpenCompass's class name)
    """CommonsenseQA: ``question`` (the stem), ``A``-``E`` (the choices' texts), ``answerKey``; 'train' and 'validation'."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> SplitRows:
        folder = self.path(path)
        splits: SplitRows = {}
        for split, name in (("train", "train_rand_split.jsonl"), ("validation", "dev_rand_split.jsonl")):
            rows = []
            for line in self.json_lines(os.path.join(folder, name)):
                choices = line["question"]["choices"]
                rows.append(
                    {
                        "question": line["question"]["stem"],
                        **{letter: choices[index]["text"] for index, letter in enumerate("ABCDE")},
                        "answerKey": line["answerKey"],
                    }
                )
            splits[split] = from_list(rows)
        return splits


# -- BoolQ ------------------------------------------------------------------


class BoolQDataset(OpenCompassDataset):
    """BoolQ through ``load_dataset(**kwargs)``: each row plus ``answer``, 1 where ``label`` is the string 'true', else 0."""

    parameters: ClassVar = {"path": REQUIRED, "data_files": None, "split": None}
    takes_any_keyword: ClassVar = True

    def read(self, path: str, data_files: str | None, split: str | None, **_: Any) -> Rows | SplitRows:
        files = None if data_files is None else str(self.path(data_files))
        splits = load_dataset(self, path, data_files=files)
        assert isinstance(splits, dict)
        answered = {
            name: from_list([{**row, "answer": 1 if row.get("label") == "true" else 0} for row in rows]) for name, rows in splits.items()
        }
        return answered if split is None else select_split(answered, split, type(self).__name__)


class BoolQDatasetV2(OpenCompassDataset):
    """BoolQ: each row with ``label`` 'true'/'false' as 'A'/'B'."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        rows = []
        for line in self.json_lines(self.path(path)):
            if line["label"] not in ("true", "false"):
                raise DatasetError(f"BoolQDatasetV2: label must be 'true' or 'false' (got {line['label']!r})")
            rows.append({**line, "label": {"true": "A", "false": "B"}[line["label"]]})
        return from_list(rows)


class BoolQDatasetV3(OpenCompassDataset):
    """BoolQ: ``passage`` without its title (the text before the first ' -- '), ``question`` capitalised."""

    parameters: ClassVar = {"path": REQUIRED}

    def read(self, path: str) -> Rows:
        rows = []
        for line in self.json_lines(self.path(path, local_mode=True)):
            line["passage"] = " -- ".join(line["passage"].split(" -- ")[1:])
            line["question"] = line["question"][0].upper() + line["question"][1:]
            rows.append(line)
        return from_list(rows)
