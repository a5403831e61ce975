"""BFCL v3 rows: categories, BFCL's language pre-processing, and multi-turn entries completed from their classes' documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import BFCLDataset, ConfigError, DatasetError
from promptkit.data.bfcl import category_of, is_multi_turn, language_docs

ADD = {"name": "add_note", "description": "Add a note.", "parameters": {"type": "dict", "properties": {"title": {"type": "string", "description": "Title."}}}}
DELETE = {"name": "delete_note", "description": "Delete a note.", "parameters": {"type": "dict", "properties": {}}}
ALARM = {"name": "set_alarm", "description": "Set an alarm.", "parameters": {"type": "dict", "properties": {}}}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_category_is_the_id_without_its_number():
    """simple_3 → simple, multi_turn_miss_func_0 → multi_turn_miss_func; multi_turn in the id marks an entry."""
    assert [category_of(i) for i in ("simple_3", "live_parallel_multiple_12", "multi_turn_miss_func_0", None)] == [
        "simple", "live_parallel_multiple", "multi_turn_miss_func", ""
    ]
    assert is_multi_turn("multi_turn_base_1") and not is_multi_turn("simple_0")


def test_language_docs_write_python_java_and_javascript_as_bfcl_does():
    """The category's hint after each description; Java/JavaScript parameters become strings described by their type."""
    function = {"name": "f", "description": "F.", "parameters": {"type": "dict", "properties": {
        "xs": {"type": "array", "description": "Xs.", "items": {"type": "integer"}},
        "o": {"type": "dict", "description": "O.", "properties": {"k": {"type": "string"}}},
        "a": {"type": "any", "description": "A."},
    }}}
    assert language_docs([function], "live_simple")[0]["description"] == "F. Note that the provided function is in Python 3 syntax."
    assert language_docs([function], "live_simple")[0]["parameters"] == function["parameters"]
    js = language_docs([function], "javascript")[0]
    assert js["description"] == "F. Note that the provided function is in JavaScript syntax."
    assert js["parameters"]["properties"] == {
        "xs": {"type": "string", "description": "Xs. This is JavaScript array type parameter in string representation. The list elements are of type integer; they are not in string representation."},
        "o": {"type": "string", "description": 'O. This is JavaScript dict type parameter in string representation. The dictionary entries have the following schema; they are not in string representation. {"k": {"type": "string"}}'},
        "a": {"type": "string", "description": "A. This parameter can be of any type of JavaScript object in string representation."},
    }
    assert function["parameters"]["properties"]["xs"]["type"] == "array", "the documents given are not changed"


def test_multi_turn_entries_get_their_classes_functions_without_the_held_out_ones(tmp_path: Path):
    """Functions in class order from class_docs; missed_function's names become those turns' documents; other rows stay."""
    write_jsonl(tmp_path / "notebook.jsonl", [ADD, DELETE])
    write_jsonl(tmp_path / "clock.jsonl", [ALARM])
    entry = {"id": "multi_turn_miss_func_0", "question": [[], []], "involved_classes": ["Clock", "Notebook"], "missed_function": {"1": ["delete_note"]}}
    single = {"id": "simple_0", "question": [[]], "function": [ADD]}
    write_jsonl(tmp_path / "rows.jsonl", [entry, single])
    rows = BFCLDataset("rows.jsonl", class_docs={"Notebook": "notebook.jsonl", "Clock": "clock.jsonl"}).load(tmp_path).get("test")
    assert rows[0]["function"] == [ALARM, ADD]
    assert rows[0]["missed_function"] == {"1": [DELETE]}
    assert rows[1] == single


def test_relevance_rows_without_an_answer_get_an_empty_one(tmp_path: Path):
    """BFCL's relevance categories have no answers: ground_truth=[] (AISBench puts a placeholder there)."""
    write_jsonl(tmp_path / "rows.jsonl", [{"id": "live_irrelevance_0", "question": [[]], "function": []}])
    assert BFCLDataset("rows.jsonl").load(tmp_path).get("test")[0]["ground_truth"] == []


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"id": "multi_turn_base_0", "question": [[]], "involved_classes": ["Mail"]},
         "multi-turn entry 'multi_turn_base_0' involves the class 'Mail', which class_docs does not name; add class_docs=dict(Mail='<file of its function documents>') (known: ['Notebook'])"),
        ({"id": "multi_turn_base_0", "question": [[]]}, "multi-turn entry 'multi_turn_base_0' must list its involved_classes (got None)"),
        ({"id": "multi_turn_miss_func_0", "question": [[]], "involved_classes": ["Notebook"], "missed_function": {"1": ["send"]}},
         "multi-turn entry 'multi_turn_miss_func_0' holds out 'send', which none of its classes has"),
    ],
)
def test_multi_turn_entry_errors_name_the_row(tmp_path: Path, entry: dict, message: str):
    """A class without documents, no involved_classes, an unknown held-out function: DatasetError at the row."""
    write_jsonl(tmp_path / "notebook.jsonl", [ADD])
    write_jsonl(tmp_path / "rows.jsonl", [entry])
    with pytest.raises(DatasetError) as caught:
        BFCLDataset("rows.jsonl", class_docs={"Notebook": "notebook.jsonl"}).load(tmp_path)
    assert caught.value.message == message
    assert caught.value.context["row"] == 0


def test_class_docs_must_map_classes_to_files():
    """class_docs=['x'] is a ConfigError naming the key."""
    with pytest.raises(ConfigError, match=r"class_docs must be a dict of class name -> file of function documents \(got \['x'\]\)"):
        BFCLDataset("rows.jsonl", class_docs=["x"])  # type: ignore[arg-type]
