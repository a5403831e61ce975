"""Streaming: test rows read lazily (FileRows), the JSON Lines line index and its cache, --indices that read only their rows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import promptkit.data.line_index as line_index
from promptkit import JsonlDataset, PromptkitError, Renderer, build_dataset
from promptkit.data.sources import JsonLinesReader
from promptkit.data.streaming import FileRows

ROWS = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(10)]
CONFIG = """
datasets = [dict(abbr="qa", type="JsonlDataset", path="rows.jsonl",
    reader_cfg=dict(input_columns=["question"], output_column="answer"),
    infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="Q: {question}\\nA: {answer}"),
                   retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))]
"""


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """promptkit's cache in a folder of the test's own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("PROMPTKIT_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A config over ten rows whose row 5 (line 6) is not JSON, and a previous output file."""
    data = tmp_path / "data"
    data.mkdir()
    lines = [json.dumps(row) for row in ROWS]
    lines[5] = '{"question": oops}'
    (data / "rows.jsonl").write_text("\n".join(lines) + "\n")
    (data / "qa.py").write_text(CONFIG)
    (data / "out.jsonl").write_text("previous\n")
    return data


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "promptkit", *args], cwd=folder, capture_output=True, text=True)


def qa(path: Path, retriever: dict[str, object]) -> dict[str, object]:
    return dict(
        abbr="qa",
        type="JsonlDataset",
        path=str(path),
        reader_cfg=dict(input_columns=["question"], output_column="answer"),
        infer_cfg=dict(
            ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}\n"),
            prompt_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
            retriever=retriever,
            inferencer=dict(type="GenInferencer"),
        ),
    )


def test_indices_render_only_their_rows_past_a_broken_one(broken: Path) -> None:
    """`--indices 0-2` succeeds on a file whose row 5 is broken: that row is never parsed."""
    result = run(broken, "render", "qa.py", "--indices", "0-2")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["prompt"] for line in result.stdout.splitlines()] == ["Q: q0\nA: ", "Q: q1\nA: ", "Q: q2\nA: "]


def test_a_full_render_fails_naming_file_line_and_row_and_leaves_out_untouched(broken: Path) -> None:
    """The whole split: one line naming the file, line 6 and row 5; --out keeps its previous content, no temp file."""
    result = run(broken, "render", "qa.py", "--out", "out.jsonl")
    assert result.returncode == 1
    assert result.stderr == (
        "promptkit: error: config qa.py, dataset 'qa', file rows.jsonl, line 6, row 5: "
        "malformed line: Expecting value at column 14; fix or remove it (one JSON object per line)\n"
    )
    assert (broken / "out.jsonl").read_text() == "previous\n"
    assert sorted(p.name for p in broken.iterdir()) == ["out.jsonl", "qa.py", "rows.jsonl"]


def test_a_full_render_to_stdout_writes_the_rows_before_the_broken_one(broken: Path) -> None:
    """On stdout, rows 0-4 are written as they are rendered, then the error."""
    result = run(broken, "render", "qa.py", "--workers", "2")
    assert result.returncode == 1
    assert [json.loads(line)["index"] for line in result.stdout.splitlines()] == [0, 1, 2, 3, 4]
    assert "line 6, row 5: malformed line" in result.stderr


def test_line_index_is_cached_outside_the_data_folder(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The index lands in $PROMPTKIT_CACHE_DIR/line-index, is read back without rebuilding, and a changed file gets a new one."""
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    assert len(FileRows(path)) == 10
    assert [p.parent.name for p in cache.rglob("*.idx")] == ["line-index"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "rows.jsonl"]

    def no_build(path: Path, size: int, out: object) -> None:
        raise AssertionError("rebuilt")

    with monkeypatch.context() as patch:
        patch.setattr(line_index, "_build", no_build)
        assert FileRows(path)[9] == ROWS[9]
    with path.open("a") as handle:
        handle.write('{"question": "q10", "answer": "a10"}\n')
    assert len(FileRows(path)) == 11
    assert len(list(cache.rglob("*.idx"))) == 2


def test_line_index_cache_falls_back_to_memory_when_unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder that cannot be created is skipped: the index serves the run."""
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("PROMPTKIT_CACHE_DIR", str(tmp_path / "file" / "cache"))
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    assert FileRows(path)[3] == ROWS[3]


def test_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without $PROMPTKIT_CACHE_DIR the cache is $XDG_CACHE_HOME/promptkit."""
    monkeypatch.delenv("PROMPTKIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert line_index.cache_dir() == tmp_path / "promptkit"


LINE = st.one_of(
    st.just(""),
    st.sampled_from(["  ", "\t", "\r", "\u00a0", "\u3000 "]),
    st.dictionaries(st.sampled_from(["a", "b"]), st.text(max_size=5), min_size=1).map(lambda row: json.dumps(row, ensure_ascii=False)),
)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(LINE, max_size=12), bom=st.booleans(), crlf=st.booleans(), step=st.integers(1, 3))
def test_file_rows_are_the_readers_rows(tmp_path_factory: pytest.TempPathFactory, lines: list[str], bom: bool, crlf: bool, step: int) -> None:
    """Count, indexing, iteration and slices of FileRows agree with the JSON Lines reader, whatever blank lines, BOM or CRLF."""
    path = tmp_path_factory.mktemp("rows") / "rows.jsonl"
    path.write_bytes(("\ufeff" if bom else "").encode() + ("\r\n" if crlf else "\n").join(lines).encode())
    expected = JsonLinesReader(path).read_all()
    rows = FileRows(path)
    assert len(rows) == len(expected)
    assert list(rows) == expected
    assert [rows[i] for i in range(len(rows))] == expected
    assert list(rows[1::step]) == expected[1::step]
    assert list(rows[1::step][1:]) == expected[1::step][1:]


def test_compressed_and_csv_rows_stream_and_index(tmp_path: Path) -> None:
    """Formats without a line index: len() counts, rows[i] reads the file once, slices keep order."""
    import gzip

    gz = tmp_path / "rows.jsonl.gz"
    gz.write_bytes(gzip.compress("".join(json.dumps(row) + "\n" for row in ROWS).encode()))
    csv = tmp_path / "rows.csv"
    csv.write_text("question,answer\n" + "".join(f"{r['question']},{r['answer']}\n" for r in ROWS))
    for path in (gz, csv):
        rows = FileRows(path)
        assert (len(rows), rows[7], list(rows[2:4])) == (10, ROWS[7], ROWS[2:4])


def test_parquet_rows_are_read_by_row_group(tmp_path: Path) -> None:
    """A Parquet file: len() from the footer, rows[i] from the row group holding it."""
    pyarrow = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "rows.parquet"
    parquet.write_table(pyarrow.Table.from_pylist(ROWS), path, row_group_size=3)
    rows = FileRows(path)
    assert (len(rows), rows[7], rows[0], list(rows[8:])) == (10, ROWS[7], ROWS[0], ROWS[8:])


def test_zero_and_fixk_stream_other_retrievers_read_the_split(tmp_path: Path) -> None:
    """ZeroRetriever and FixKRetriever read test rows as they render (no shot list kept); BM25 is given the whole split."""
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    for retriever, streams in ((dict(type="ZeroRetriever"), True), (dict(type="FixKRetriever", fix_id_list=[0, 2]), True), (dict(type="BM25Retriever", ice_num=2), False)):
        spec = build_dataset(qa(path, retriever))
        assert isinstance(spec.loader, JsonlDataset)
        renderer = Renderer(spec)
        prompts = [p.to_record() for p in renderer]
        assert renderer.streaming is streams
        assert isinstance(renderer.test_rows, FileRows) is streams
        assert ("ice_indices" in vars(renderer.rows)) is not streams
        in_memory = {key: value for key, value in qa(path, retriever).items() if key != "path"}
        assert prompts == [p.to_record() for p in Renderer(build_dataset({**in_memory, "type": "RowsDataset", "rows": ROWS}))]
        assert prompts == [p.to_record() for p in Renderer(spec).prompts([*range(10)])]


def test_a_streamed_row_missing_a_column_is_named(tmp_path: Path) -> None:
    """A streamed row without an input column: the error names the row, as for rows read whole."""
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row if i != 3 else {"answer": "x"}) + "\n" for i, row in enumerate(ROWS)))
    renderer = Renderer(build_dataset(qa(path, dict(type="ZeroRetriever"))))
    with pytest.raises(PromptkitError) as caught:
        list(renderer)
    assert str(caught.value) == (
        "dataset 'qa', row 3, key 'question': column 'question' (reader_cfg.input_columns) is missing from row 3 of split 'test'; "
        "the row has ['answer']"
    )
