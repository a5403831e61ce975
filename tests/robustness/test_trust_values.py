"""Values a row may hold that Python cannot carry through a run: each is rendered in its JSON form, or is one line
naming the file, the row and the column; never ``promptkit: error: internal error``.

Every case runs the CLI in a subprocess (with a timeout), as a user meets it.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import promptkit
from promptkit.cli.main import main

pa = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")
datasets = pytest.importorskip("datasets")
Image = pytest.importorskip("PIL.Image")

ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1]), "COLUMNS": "500"}
TIMEOUT = 60
INFER = "infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='Q: {question}'), retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer'))"
SHOTS = (
    "infer_cfg=dict(ice_template=dict(type='PromptTemplate', template='Q: {question} A: {answer}'), "
    "prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}', ice_token='</E>'), "
    "retriever=dict(type='RandomRetriever', ice_num=1, leakage_guard=False), inferencer=dict(type='GenInferencer'))"
)
DEEP = (
    "the value nests lists and objects more than 100 levels deep; promptkit reads at most 100 (deeper ones overflow "
    "Python's recursion): flatten it, or store it as a JSON string"
)
LONG_INTEGER = (
    "the value holds an integer of 5,000 digits, more than the 4,300 Python turns into text (sys.get_int_max_str_digits()); "
    "write the number in quotes, as a JSON string, to render its digits"
)
SURROGATE = (
    "the value holds a lone surrogate \\ud800 (half of a UTF-16 pair, escaped without its other half), which is not a "
    "character and cannot be written as UTF-8; write the character itself, or both halves of its pair"
)


def write_config(folder: Path, shots: bool = False) -> Path:
    """A dataset config ``qa`` over rows.jsonl: zero-shot (rows streamed), or one random shot (the file read whole)."""
    path = folder / ("shots.py" if shots else "qa.py")
    reader = "reader_cfg=dict(input_columns=['question'], output_column='answer')"
    path.write_text(f"datasets = [dict(abbr='qa', type='JsonlDataset', path='rows.jsonl', {reader}, {SHOTS if shots else INFER})]\n")
    return path


def cli(folder: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "promptkit", *map(str, args)], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT, env=ENV)


def assert_one_line_error(run: subprocess.CompletedProcess[str], expected: str) -> None:
    assert (run.returncode, run.stdout, run.stderr) == (1, "", f"promptkit: error: {expected}\n")


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


# -- JSON the reader refuses: nesting, long integers, lone surrogates ------------------------------------------------

GOOD = '{"question": "fine", "answer": "A"}'
#: case -> (the bad row's question, as JSON text; the message)
BAD_VALUES = {
    "nested_10000_deep": ("[" * 10_000 + "]" * 10_000, DEEP),
    "nested_101_deep": ("[" * 100 + "]" * 100, DEEP),
    "integer_of_5000_digits": ("9" * 5000, LONG_INTEGER),
    "lone_surrogate": ('"x\\ud800y"', SURROGATE),
}


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
def test_a_bad_value_in_json_lines_names_file_line_row_and_column(tmp_path: Path, case: str) -> None:
    """Streamed, read whole (a retriever that needs the whole split), by position (--indices: the line index), to
    stdout or --out: the same line, naming the file, the line, the row and the column."""
    value, message = BAD_VALUES[case]
    write_lines(tmp_path / "rows.jsonl", [GOOD, '{"question": ' + value + ', "answer": "B"}'])
    rows = tmp_path / "rows.jsonl"
    for config, args, where in (
        (write_config(tmp_path), ["--out", "out.jsonl"], "line 2, row 1"),
        (write_config(tmp_path), ["--indices", "1"], "line 2, row 1"),
        (write_config(tmp_path, shots=True), ["--out", "out.jsonl"], "line 2, row 1"),
    ):
        assert_one_line_error(cli(tmp_path, "render", config, *args), f"config {config}, dataset 'qa', file {rows}, {where}, key 'question': {message}")
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
def test_a_bad_value_in_a_json_document_names_file_line_row_and_column(tmp_path: Path, case: str) -> None:
    """A .json list of rows: the same errors, at the row's line."""
    value, message = BAD_VALUES[case]
    (tmp_path / "rows.json").write_text("[" + GOOD + ",\n" + '{"question": ' + value + ', "answer": "B"}]')
    config = write_config(tmp_path)
    assert_one_line_error(
        cli(tmp_path, "render", config, "--rows", "rows.json", "--out", "out.jsonl"),
        f"config {config}, dataset 'qa', file {tmp_path / 'rows.json'}, line 2, row 1, key 'question': {message}",
    )


def test_a_lone_surrogate_is_one_line_in_render_preview_and_view(tmp_path: Path) -> None:
    """render, render --out, preview and view each stop at the row with one line (no UnicodeEncodeError), anywhere in
    the row: the answer, a list, a column's name."""
    config = write_config(tmp_path)
    rows = tmp_path / "rows.jsonl"
    for row, column in (
        ('{"question": "x\\ud800y", "answer": "B"}', "question"),
        ('{"question": "q", "answer": "\\udfff"}', "answer"),
        ('{"question": "q", "answer": "B", "tags": ["ok", "\\ud83d"]}', "tags"),
        ('{"question": "q", "answer": "B", "k\\ud800": 1}', "k\ud800"),  # the column's name itself
    ):
        write_lines(rows, [row])
        message = SURROGATE.replace("\\ud800", "\\" + row.split("\\")[1][:5])
        for args in (["render"], ["render", "--out", "out.jsonl"], ["preview"], ["view", "--out", "page.html"]):
            assert_one_line_error(
                cli(tmp_path, args[0], config, *args[1:]),
                f"config {config}, dataset 'qa', file {rows}, line 1, row 0, key {column!r}: {message}",
            )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["qa.py", "rows.jsonl"]


def test_surrogate_pairs_and_deep_enough_values_still_render(tmp_path: Path) -> None:
    """What the checks let through: an escaped pair (an emoji), 100 levels, 4,300 digits, brackets inside strings."""
    write_lines(
        tmp_path / "rows.jsonl",
        ['{"question": "\\ud83d\\ude00 ' + "[" * 300 + '", "answer": ' + "[" * 99 + "]" * 99 + "}", '{"question": ' + "7" * 4300 + ', "answer": "B"}'],
    )
    run = cli(tmp_path, "render", write_config(tmp_path))
    assert run.returncode == 0, run.stderr
    first, second = (json.loads(line) for line in run.stdout.splitlines())
    assert (first["prompt"], first["gold"]) == ("Q: 😀 " + "[" * 300, json.loads("[" * 99 + "]" * 99))
    assert second["prompt"] == "Q: " + "7" * 4300


# -- columnar types: their JSON form, or one line ---------------------------------------------------------------------

WHEN = datetime.datetime(2024, 1, 2, 3, 4, 5, 123456)
#: Arrow type -> (a value, its JSON form in the row)
COLUMNS = {
    "timestamp[us]": (pa.array([WHEN], pa.timestamp("us")), "2024-01-02T03:04:05.123456"),
    "timestamp[ns, tz]": (pa.array([1704164645123456789], pa.int64()).cast(pa.timestamp("ns", tz="Europe/Paris")), "2024-01-02T04:04:05.123456789+01:00"),
    "timestamp[ms, UTC]": (pa.array([WHEN], pa.timestamp("ms", tz="UTC")), "2024-01-02T03:04:05.123Z"),
    "date32": (pa.array([WHEN.date()], pa.date32()), "2024-01-02"),
    "time64[ns]": (pa.array([11045123456789], pa.time64("ns")), "03:04:05.123456789"),
    "duration[us]": (pa.array([datetime.timedelta(seconds=90, microseconds=5)], pa.duration("us")), "PT90.000005S"),
    "duration[s] negative": (pa.array([-5], pa.int64()).cast(pa.duration("s")), "-PT5S"),
    "decimal128(5, 2)": (pa.array([decimal.Decimal("1.50")], pa.decimal128(5, 2)), "1.50"),
    "binary": (pa.array([b"caf\xc3\xa9"], pa.binary()), "café"),
    "large_binary": (pa.array([b"ok"], pa.large_binary()), "ok"),
    "list<timestamp[ms]>": (pa.array([[WHEN.replace(microsecond=123000), None]], pa.list_(pa.timestamp("ms"))), ["2024-01-02T03:04:05.123", None]),
    "struct<d: date32, n: int64>": (pa.array([{"d": WHEN.date(), "n": 3}], pa.struct([("d", pa.date32()), ("n", pa.int64())])), {"d": "2024-01-02", "n": 3}),
}


def write_table(table: Any, path: Path) -> None:
    """``table`` as Parquet, an Arrow IPC file, or (no suffix) a ``datasets`` save_to_disk folder."""
    if path.suffix == ".parquet":
        parquet.write_table(table, path)
    elif path.suffix == ".arrow":
        feather.write_feather(table, path)
    else:
        datasets.disable_progress_bars()
        datasets.Dataset(table).save_to_disk(str(path))


@pytest.mark.parametrize("column", sorted(COLUMNS))
@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ""])
def test_columnar_values_render_in_their_json_form(
    tmp_path: Path, column: str, suffix: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Parquet, Arrow or ``datasets`` column of a type JSON has no value for, as the answer and as an input: its JSON
    form in the prompt and in the record (and a null stays null).  In process: 72 commands, each a second or two as a
    process of its own (importing pyarrow or datasets)."""
    monkeypatch.chdir(tmp_path)
    values, form = COLUMNS[column]
    null = pa.nulls(1, values.type)
    for name, table in (
        ("answer", pa.table({"question": ["q", "r"], "answer": pa.concat_arrays([values, null])})),
        ("question", pa.table({"question": pa.concat_arrays([values, null]), "answer": ["A", "B"]})),
    ):
        path = tmp_path / f"{name}{suffix}"
        write_table(table, path)
        assert main(["render", str(write_config(tmp_path)), "--rows", path.name]) == 0
        out, err = capsys.readouterr()
        assert err == ""
        first, second = (json.loads(line) for line in out.splitlines())
        if name == "answer":
            assert (first["gold"], second["gold"]) == (form, None)
        else:
            assert first["prompt"] == f"Q: {form}"


@pytest.mark.parametrize("name", ["rows.parquet", "rows.arrow", "rows"])
def test_binary_that_is_not_utf8_names_the_row_and_column(tmp_path: Path, name: str) -> None:
    """Bytes that are not text have no JSON form: one line naming the file, the row and the column."""
    table = pa.table({"question": ["q0", "q1"], "answer": pa.array([b"A", b"\xff\xfe"], pa.binary())})
    write_table(table, tmp_path / name)
    config = write_config(tmp_path)
    assert_one_line_error(
        cli(tmp_path, "render", config, "--rows", name, "--out", "out.jsonl"),
        f"config {config}, dataset 'qa', file {tmp_path / name}, row 1, key 'answer': the value is binary data that is not "
        "UTF-8 text (invalid start byte: byte 0xff at offset 0); promptkit renders text: store the column as strings (base64 for "
        "bytes that are not text)",
    )


def test_a_parquet_row_group_over_the_record_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Two rows holding 3 MiB (a few KiB compressed) with a 1 MiB limit: refused from the footer's sizes."""
    table = pa.table({"question": ["q", "x" * (3 * 2**20)], "answer": ["A", "B"]})
    parquet.write_table(table, tmp_path / "rows.parquet", compression="zstd")
    assert (tmp_path / "rows.parquet").stat().st_size < 2**16
    size = parquet.ParquetFile(tmp_path / "rows.parquet").metadata.row_group(0).total_byte_size
    config = write_config(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "promptkit", "render", str(config), "--rows", "rows.parquet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**ENV, "PROMPTKIT_MAX_RECORD_BYTES": "1M"},
    )
    assert_one_line_error(
        run,
        f"config {config}, dataset 'qa', file {tmp_path / 'rows.parquet'}, row 0: a row of row group 0 (by the file's footer) "
        f"(2 rows of {size:,} bytes in all) is longer than 1,048,576 bytes, the most promptkit reads for one record; if the data "
        "is right, set PROMPTKIT_MAX_RECORD_BYTES to a larger number of bytes (default 268,435,456, 256 MiB)",
    )


# -- media ------------------------------------------------------------------------------------------------------------


def test_an_empty_png_in_inline_mode_names_the_row_and_the_file(tmp_path: Path) -> None:
    """A 0-byte .png named by a row, media inlined: one line naming the row and the file (Pillow's struct.error before)."""
    data = tmp_path / "data"
    data.mkdir()
    Image.new("RGB", (4, 4)).save(data / "ok.png")
    (data / "empty.png").write_bytes(b"")
    rows = [{"question": "fine?", "image": "ok.png", "answer": "yes"}, {"question": "this?", "image": "empty.png", "answer": "no"}]
    write_lines(data / "rows.jsonl", [json.dumps(row) for row in rows])
    template = (
        "dict(round=[dict(role='HUMAN', prompt_mm={'text': {'type': 'text', 'text': '{question}'}, "
        "'image': {'type': 'image_url', 'image_url': {'url': '{image}'}}})])"
    )
    config = tmp_path / "vqa.py"
    config.write_text(
        f"datasets = [dict(abbr='vqa', type='JsonlDataset', path='data/rows.jsonl', media=dict(mode='inline'), "
        "reader_cfg=dict(input_columns=['question', 'image'], output_column='answer'), "
        f"infer_cfg=dict(prompt_template=dict(type='MMPromptTemplate', template={template}), retriever=dict(type='ZeroRetriever'), "
        "inferencer=dict(type='GenInferencer')))]\n"
    )
    (tmp_path / "model.py").write_text("models = [dict(abbr='chat', type='ChatModel')]\n")
    for command in (["render", "--out", "out.jsonl"], ["preview", "--index", "1"]):
        assert_one_line_error(
            cli(tmp_path, command[0], config, "--model", "model.py", *command[1:]),
            f"config {config}, dataset 'vqa', model 'chat', row 1, key 'empty.png': the image file 'empty.png' "
            f"({data / 'empty.png'}) cannot be used: it is empty (0 bytes)",
        )
