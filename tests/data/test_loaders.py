"""Data files and reader_cfg: formats, splits, ranges, and errors naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, JsonlDataset, ReaderConfig, RowsDataset
from promptkit.data.reader import apply_range


def test_jsonl_json_and_csv_give_the_same_rows(tmp_path: Path):
    """The three formats load to the same dicts."""
    rows = [{"question": "1+1", "answer": "2"}, {"question": "2+2", "answer": "4"}]
    (tmp_path / "d.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    (tmp_path / "d.json").write_text(json.dumps(rows))
    (tmp_path / "d.csv").write_text("question,answer\n1+1,2\n2+2,4\n")
    for name in ("d.jsonl", "d.json", "d.csv"):
        assert JsonlDataset(path=name).load(tmp_path).get("test") == rows


def test_single_file_serves_train_and_test_only(tmp_path: Path):
    """A single path is used for train and test alike; another split name is an error, not a silent reuse of the test rows."""
    (tmp_path / "d.jsonl").write_text('{"q": 1}\n')
    splits = JsonlDataset(path="d.jsonl").load(tmp_path)
    assert splits.get("train") is splits.get("test")
    with pytest.raises(DatasetError, match=r"split 'dev' does not exist: the dataset is a single file, used as the splits 'train' and 'test'"):
        splits.get("dev")


def test_split_dict_and_unknown_split(tmp_path: Path):
    """path=dict(...) maps split names to files; an unknown split lists the known ones."""
    (tmp_path / "a.jsonl").write_text('{"q": 1}\n')
    splits = JsonlDataset(path=dict(dev="a.jsonl", test="a.jsonl")).load(tmp_path)
    with pytest.raises(DatasetError, match=r"split 'train' is not among the dataset's splits \['dev', 'test'\]"):
        splits.get("train")


def test_malformed_jsonl_line_names_file_and_line(tmp_path: Path):
    """A broken line is reported with its number; all bad lines are counted."""
    path = tmp_path / "bad.jsonl"
    path.write_text('{"q": 1}\n{"q": 2\n[1]\n')
    with pytest.raises(DatasetError) as info:
        JsonlDataset(path=str(path)).load()
    assert str(info.value) == (
        f"file {path}, line 2: 2 malformed line(s): line 2: Expecting ',' delimiter at column 8; "
        "line 3: expected a JSON object, got list; fix or remove them (one JSON object per line)"
    )


def test_missing_file_says_where_it_looked(tmp_path: Path):
    """A missing data file names the path and the places tried."""
    with pytest.raises(DatasetError, match=r"data file 'nope.jsonl' not found \(looked at .*nope.jsonl"):
        JsonlDataset(path="nope.jsonl").load(tmp_path)


def test_missing_column_names_row_and_column():
    """A column named in reader_cfg but absent from a row is an error with the row index."""
    reader = ReaderConfig.from_config(dict(input_columns=["question"], output_column="answer"))
    with pytest.raises(DatasetError, match=r"row 1, key 'answer': column 'answer' \(reader_cfg.output_column\) is missing from row 1"):
        reader.check_columns([{"question": "a", "answer": "b"}, {"question": "c"}], "test")


def test_reader_cfg_rejects_unknown_keys_with_suggestion():
    """A typo in reader_cfg is caught with a did-you-mean."""
    with pytest.raises(ConfigError, match=r"unknown key 'output_columns' in reader_cfg \(did you mean 'output_column'\?\)"):
        ReaderConfig.from_config(dict(input_columns=["q"], output_columns="a"))


def test_input_columns_as_a_string():
    """input_columns may be a whitespace-separated string."""
    assert ReaderConfig.from_config(dict(input_columns="a b")).input_columns == ("a", "b")


def test_ranges_follow_opencompass():
    """Slice strings slice; an int n takes n rows shuffled with seed n; out-of-bounds sizes keep everything."""
    rows = [{"i": i} for i in range(10)]
    assert apply_range(rows, "[2:5]") == rows[2:5]
    assert apply_range(rows, "[::3]") == rows[::3]
    picked = apply_range(rows, 3)
    assert len(picked) == 3 and picked == apply_range(rows, 3)
    assert apply_range(rows, 0.5) == apply_range(rows, 5)
    assert apply_range(rows, 20) == rows and apply_range(rows, None) == rows


def test_bad_range_is_a_config_error():
    """A range that is neither a size nor a slice string is rejected."""
    with pytest.raises(ConfigError, match=r"test_range='first 10' is not a slice string"):
        ReaderConfig.from_config(dict(input_columns=["q"], test_range="first 10"))


def test_rows_dataset_serves_rows_given_in_code():
    """RowsDataset takes rows directly: a list for every split, or a dict of splits."""
    rows = [{"q": 1}]
    assert RowsDataset(rows).load().get("train") == rows
    assert RowsDataset({"dev": rows, "test": []}).load().get("dev") == rows
    with pytest.raises(ConfigError, match=r"rows must be a list of dicts, one per row"):
        RowsDataset("q,a")  # type: ignore[arg-type]


def test_csv_row_with_missing_or_extra_fields_names_its_line(tmp_path: Path):
    """A CSV row shorter or longer than the header is an error with its line, not None values."""
    (tmp_path / "short.csv").write_text("q,a\nq0,A0\nq1\n")
    with pytest.raises(DatasetError, match=r"line 3: the row has 1 fields but the header has 2 columns"):
        JsonlDataset(path="short.csv").load(tmp_path)
    (tmp_path / "long.csv").write_text("q,a\nq0,A0,extra\n")
    with pytest.raises(DatasetError, match=r"line 2: the row has 3 fields but the header has 2 columns"):
        JsonlDataset(path="long.csv").load(tmp_path)


def test_utf8_byte_order_mark_is_ignored(tmp_path: Path):
    """Files saved with a UTF-8 BOM (Excel, Notepad) read like files without one."""
    (tmp_path / "bom.csv").write_bytes("\ufeffq,a\nq0,A0\n".encode())
    (tmp_path / "bom.jsonl").write_bytes('\ufeff{"q": "q0", "a": "A0"}\n'.encode())
    for name in ("bom.csv", "bom.jsonl"):
        assert JsonlDataset(path=name).load(tmp_path).get("test") == [{"q": "q0", "a": "A0"}]


def test_float_range_must_be_a_fraction():
    """test_range=3.0 is rejected instead of silently keeping every row."""
    with pytest.raises(ConfigError, match=r"test_range=3.0: a float range must be a fraction in \(0, 1\)"):
        ReaderConfig.from_config(dict(input_columns=["q"], test_range=3.0))


def test_input_text_joins_the_input_columns():
    """What retrievers compare: the input columns' values joined by a space."""
    reader = ReaderConfig.from_config(dict(input_columns=["q", "ctx"], output_column="a"))
    assert reader.input_text({"q": "Why?", "ctx": 3, "a": "x"}) == "Why? 3"


@pytest.mark.parametrize("suffix", [".jsonl", ".json", ".csv"])
def test_bytes_that_are_not_utf8_name_the_file_and_line(tmp_path: Path, suffix: str):
    path = tmp_path / f"rows{suffix}"
    path.write_bytes(b'{"question": "ok"}\n{"question": "caf\xe9"}\n' if suffix != ".csv" else b"question\nok\ncaf\xe9\n")
    with pytest.raises(DatasetError, match=r"line (2|3): the file is not valid UTF-8 \(invalid continuation byte at byte \d+\); save it as UTF-8") as info:
        JsonlDataset(str(path)).load()
    assert info.value.context["file"] == str(path)
