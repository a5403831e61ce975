"""Data sources: every format promptkit reads through one reader interface, lazily, and its errors in one line."""

from __future__ import annotations

import bz2
import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import JsonlDataset, Renderer
from promptkit.cli.main import main
from promptkit.data.sources import RowReader, open_reader
from promptkit.errors import ConfigError, DatasetError, MissingDependencyError
from promptkit.frontends.opencompass.loader import build_dataset

pa = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")
feather = pytest.importorskip("pyarrow.feather")
zstandard = pytest.importorskip("zstandard")
datasets = pytest.importorskip("datasets")

ROWS = [{"question": f"q{i}", "answer": str(i)} for i in range(5)]


class Recorder:
    """A progress receiver that keeps what it was told."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def start(self, task: str, total: int | None = None, unit: str = "rows") -> None:
        self.events.append(("start", task, total, unit))

    def advance(self, n: int = 1) -> None:
        self.events.append(("advance", n))

    def done(self) -> None:
        self.events.append(("done",))


def jsonl_bytes(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode()


COMPRESS = {"": lambda data: data, ".gz": gzip.compress, ".bz2": bz2.compress, ".zst": lambda data: zstandard.ZstdCompressor().compress(data)}


def write(tmp_path: Path, name: str, rows: list[dict[str, Any]] = ROWS) -> Path:
    """``rows`` in the format and compression ``name`` says."""
    path = tmp_path / name
    compression = next((suffix for suffix in COMPRESS if suffix and name.endswith(suffix)), "")
    data_format = Path(name.removesuffix(compression)).suffix
    table = pa.Table.from_pylist(rows)
    if data_format == ".parquet":
        parquet.write_table(table, path, row_group_size=2)
    elif data_format == ".feather":
        feather.write_feather(table, path)
    elif data_format == ".arrow":  # the stream format, as datasets' cache files
        with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
    else:
        text = {
            ".jsonl": jsonl_bytes(rows),
            ".ndjson": jsonl_bytes(rows),
            ".json": json.dumps(rows).encode(),
            ".csv": ("question,answer\n" + "".join(f"{row['question']},{row['answer']}\n" for row in rows)).encode(),
        }[data_format]
        path.write_bytes(COMPRESS[compression](text))
    return path


@pytest.mark.parametrize(
    "name",
    [
        "rows.jsonl",
        "rows.ndjson",
        "rows.json",
        "rows.csv",
        "rows.jsonl.gz",
        "rows.jsonl.bz2",
        "rows.jsonl.zst",
        "rows.json.gz",
        "rows.csv.zst",
        "rows.parquet",
        "rows.feather",
        "rows.arrow",
    ],
)
def test_every_format_reads_the_same_rows(tmp_path: Path, name: str):
    """Each format and compression gives the rows that were written, through JsonlDataset and the reader alike."""
    path = write(tmp_path, name)
    reader = open_reader(path)
    assert isinstance(reader, RowReader)
    assert reader.read_all() == ROWS
    assert list(reader.iter_rows()) == ROWS
    assert JsonlDataset(path=name).load(tmp_path).get("test") == ROWS


def test_gzip_data_is_read_whatever_its_name(tmp_path: Path):
    """A .jsonl file that holds gzip data is decompressed: its first bytes say so."""
    (tmp_path / "rows.jsonl").write_bytes(gzip.compress(jsonl_bytes(ROWS)))
    assert open_reader(tmp_path / "rows.jsonl").read_all() == ROWS


def test_compressed_json_lines_split_on_newline_only(tmp_path: Path):
    """U+2028, U+0085 and a lone \\r inside a string stay in the value, compressed or not."""
    rows = [{"question": "a\u2028b\u0085c\rd", "answer": "x"}]
    for suffix, compress in COMPRESS.items():
        (tmp_path / f"odd.jsonl{suffix}").write_bytes(compress(jsonl_bytes(rows)))
        assert open_reader(tmp_path / f"odd.jsonl{suffix}").read_all() == rows


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=20), max_size=3), max_size=6), compression=st.sampled_from(sorted(COMPRESS)))
def test_json_lines_round_trip_in_every_compression(tmp_path_factory: pytest.TempPathFactory, rows: list[dict[str, str]], compression: str):
    """Any rows written as JSON Lines, in any compression, read back equal."""
    path = tmp_path_factory.mktemp("rt") / f"rows.jsonl{compression}"
    path.write_bytes(COMPRESS[compression](jsonl_bytes(rows)))
    assert open_reader(path).read_all() == rows


def test_header_less_csv_takes_its_columns_from_the_config(tmp_path: Path):
    """OpenCompass's MMLU files have no header: columns= names the fields, and every line is a row."""
    (tmp_path / "mmlu_dev.csv").write_text('"What is 1+1, really?",1,2,3,4,B\nWhy?,a,b,c,d,A\n')
    dataset = JsonlDataset(path="mmlu_dev.csv", columns=["input", "A", "B", "C", "D", "target"])
    assert dataset.load(tmp_path).get("test") == [
        {"input": "What is 1+1, really?", "A": "1", "B": "2", "C": "3", "D": "4", "target": "B"},
        {"input": "Why?", "A": "a", "B": "b", "C": "c", "D": "d", "target": "A"},
    ]
    (tmp_path / "short.csv").write_text("Why?,a,b\n")
    with pytest.raises(DatasetError, match=r"^file .*short.csv, line 1: the row has 3 fields but columns= names 6 columns; quote fields"):
        JsonlDataset(path="short.csv", columns=["input", "A", "B", "C", "D", "target"]).load(tmp_path)


def test_columns_is_only_for_csv(tmp_path: Path):
    """columns= on a file that names its own columns is a config error, not silently ignored."""
    write(tmp_path, "rows.jsonl")
    with pytest.raises(ConfigError, match=r"columns= names the columns of a header-less CSV file; rows.jsonl is JSON Lines data"):
        JsonlDataset(path="rows.jsonl", columns=["question"]).load(tmp_path)


def test_saved_dataset_and_dataset_dict_folders(tmp_path: Path):
    """A save_to_disk Dataset is one table (every split); a DatasetDict gives its own splits."""
    table = datasets.Dataset.from_list(ROWS)
    datasets.disable_progress_bars()
    table.save_to_disk(str(tmp_path / "one"))
    datasets.DatasetDict(dev=table.select(range(2)), test=table).save_to_disk(str(tmp_path / "both"))
    assert JsonlDataset(path="one").load(tmp_path).get("train") == ROWS
    splits = JsonlDataset(path="both").load(tmp_path)
    assert (splits.get("dev"), splits.get("test")) == (ROWS[:2], ROWS)
    assert open_reader(tmp_path / "both" / "dev").read_all() == ROWS[:2]
    with pytest.raises(DatasetError, match=r"^file .*both: the folder holds a DatasetDict \(several splits\); give it as a dataset's path"):
        open_reader(tmp_path / "both")


def test_rows_file_accepts_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """--rows FILE reads Parquet and compressed JSON Lines as it reads .jsonl."""
    (tmp_path / "ds.py").write_text(
        "datasets = [dict(abbr='qa', type='JsonlDataset', path='unused.jsonl', reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='Q: {question}\\nA:'), retriever=dict(type='ZeroRetriever'),\n"
        "    inferencer=dict(type='GenInferencer')))]\n"
    )
    outputs = []
    for name in ("rows.jsonl", "rows.parquet", "rows.jsonl.zst"):
        assert main(["render", str(tmp_path / "ds.py"), "--rows", str(write(tmp_path, name))]) == 0
        outputs.append([json.loads(line)["prompt"] for line in capsys.readouterr().out.splitlines()])
    assert outputs[0] == [f"Q: q{i}\nA:" for i in range(5)]
    assert outputs[1] == outputs[0] == outputs[2]


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.dictionaries(st.sampled_from(["q", "a"]), st.text(st.sampled_from("ab é\u2028\r"), max_size=12), max_size=2), min_size=1, max_size=8),
    block=st.integers(1, 40),
    bom=st.booleans(),
    blank=st.sampled_from(["", "  ", "\r"]),
)
def test_json_lines_read_in_blocks_of_any_size(tmp_path_factory: pytest.TempPathFactory, rows, block: int, bom: bool, blank: str):
    """Rows read the same whatever the block size (lines longer than a block, a BOM, blank lines, \\r\\n endings),
    and a bad line is named by its own number."""
    import promptkit.data.sources.text as text

    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    data = ("\ufeff" if bom else "") + "\r\n".join(lines) + f"\n{blank}\n" + "{not json\n" + lines[0]
    path = tmp_path_factory.mktemp("blocks") / "rows.jsonl"
    path.write_bytes(data.encode("utf-8"))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(text, "_BLOCK", block)
        with pytest.raises(DatasetError) as info:
            list(open_reader(path).iter_rows())
    assert str(info.value) == f"file {path}, line {len(rows) + 2}: 1 malformed line(s): line {len(rows) + 2}: Expecting property name enclosed in double quotes at column 2; fix or remove them (one JSON object per line)"
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(text, "_BLOCK", block)
        path.write_bytes(data.replace("{not json\n", "").encode("utf-8"))
        assert open_reader(path).read_all() == [*rows, rows[0]]


JSON_TEXT = st.text(st.sampled_from("ab é😀\u2028\r\n\"\\{}[],:"), max_size=12)
JSON_ROWS = st.lists(
    st.dictionaries(st.sampled_from(["q", "a", "c"]), st.one_of(JSON_TEXT, st.integers(), st.lists(JSON_TEXT, max_size=3)), max_size=3),
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(
    rows=JSON_ROWS,
    block=st.integers(1, 40),
    indent=st.sampled_from([None, 0, 2]),
    ascii=st.booleans(),
    bom=st.booleans(),
    cut=st.floats(0, 1, exclude_max=True),
)
def test_json_documents_read_row_by_row_in_pieces_of_any_size(
    tmp_path_factory: pytest.TempPathFactory, rows, block: int, indent, ascii: bool, bom: bool, cut: float
):
    """A .json document is parsed a row at a time from pieces of any size (a character cut between pieces, a row
    longer than a piece): the rows json.loads gives; a document cut short anywhere, json.loads' error at its line."""
    import promptkit.data.sources.text as text

    data = ("\ufeff" if bom else "") + json.dumps(rows, indent=indent, ensure_ascii=ascii)
    path = tmp_path_factory.mktemp("json") / "rows.json"
    path.write_bytes(data.encode("utf-8"))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(text, "_BLOCK", block)
        assert open_reader(path).read_all() == rows
        short = data[: int(len(data) * cut)]
        path.write_bytes(short.encode("utf-8"))
        with pytest.raises(json.JSONDecodeError) as expected:
            json.loads(short.removeprefix("\ufeff"))
        with pytest.raises(DatasetError) as info:
            open_reader(path).read_all()
        assert (info.value.context["line"], info.value.message) == (expected.value.lineno, f"invalid JSON: {expected.value.msg}")


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("", "file {path}, line 1: invalid JSON: Expecting value"),
        ('{"q": 1}', "file {path}: a .json data file must hold a list of objects (one per row), not an object"),
        ('[{"q": 1}, "x"]', "file {path}, line 1, row 1: a .json data file must hold a list of objects (one per row), and this row is a string"),
        ('[{"q": 1}]\n[]', "file {path}, line 2: invalid JSON: Extra data"),
        ('[{"q": 1}\n {"q": 2}]', "file {path}, line 2: invalid JSON: Expecting ',' delimiter"),
    ],
)
def test_a_json_document_that_is_not_a_list_of_objects(tmp_path: Path, document: str, message: str):
    """What the document holds instead of a list of objects is said, with the line (and row) where it is found."""
    path = tmp_path / "rows.json"
    path.write_text(document)
    with pytest.raises(DatasetError) as info:
        open_reader(path).read_all()
    assert str(info.value) == message.format(path=path)


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(0, 60), min_size=1, max_size=6), limit=st.integers(20, 80), block=st.integers(1, 50))
def test_every_text_reader_takes_lines_up_to_the_limit_and_names_the_first_longer_one(
    tmp_path_factory: pytest.TempPathFactory, sizes: list[int], limit: int, block: int
):
    """PROMPTKIT_MAX_RECORD_BYTES: a line of ``limit`` bytes is read, one byte more is an error naming its line, in
    JSON Lines (read whole or streamed, plain or gzip) and CSV, whatever the block size."""
    import promptkit.data.sources.text as text
    from promptkit.data.streaming import FileRows

    folder = tmp_path_factory.mktemp("limit")
    lines = ['{"q": "' + "x" * size + '"}' for size in sizes]
    first_over = next((number for number, line in enumerate(lines, start=1) if len(line) > limit), None)
    files = [folder / "rows.jsonl", folder / "rows.jsonl.gz", folder / "rows.csv"]
    files[0].write_text("\n".join(lines) + "\n")
    files[1].write_bytes(gzip.compress(files[0].read_bytes()))
    files[2].write_text("q\n" + "".join("x" * (size + 9) + "\n" for size in sizes))  # the lines' lengths, one line down
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(text, "_BLOCK", block)
        monkeypatch.setenv("PROMPTKIT_MAX_RECORD_BYTES", str(limit))
        for path in files:
            over = first_over + (path.suffix == ".csv") if first_over is not None else None
            for read in (lambda path: open_reader(path).read_all(), lambda path: list(FileRows(path))):
                if over is None:
                    assert len(read(path)) == len(sizes)
                    continue
                with pytest.raises(DatasetError) as info:
                    read(path)
                assert (info.value.context["file"], info.value.context["line"]) == (str(path), over)
                assert info.value.message.startswith(f"the line is longer than {limit:,} bytes")


def test_invalid_utf8_in_a_later_block_names_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Bytes that are not UTF-8 are reported at their own line, however the file was cut into blocks."""
    import promptkit.data.sources.text as text

    monkeypatch.setattr(text, "_BLOCK", 16)
    path = tmp_path / "rows.jsonl"
    path.write_bytes(jsonl_bytes(ROWS[:3]) + b'{"question": "\xc3("}\n')
    with pytest.raises(DatasetError) as info:
        open_reader(path).read_all()
    assert str(info.value) == f"file {path}, line 4: the file is not valid UTF-8 (invalid continuation byte at byte {len(jsonl_bytes(ROWS[:3])) + 14}); save it as UTF-8"


def test_iteration_is_lazy(tmp_path: Path):
    """The first row comes before the file is read through: a bad line at the end is not met, a Parquet file is read one row group in."""
    path = tmp_path / "big.jsonl"
    path.write_bytes(jsonl_bytes(ROWS * 1000) + b"{not json\n")
    assert next(open_reader(path).iter_rows()) == ROWS[0]
    recorder = Recorder()
    rows = open_reader(write(tmp_path, "rows.parquet"), progress=recorder).iter_rows()
    assert [next(rows), next(rows)] == ROWS[:2]
    assert recorder.events == [("start", "reading rows.parquet", 5, "rows")]
    assert list(rows) == ROWS[2:]
    assert recorder.events == [("start", "reading rows.parquet", 5, "rows"), ("advance", 2), ("advance", 2), ("advance", 1), ("done",)]


def test_text_files_report_progress_in_bytes_of_the_file(tmp_path: Path):
    """A compressed file's progress counts its own (compressed) bytes, up to its size."""
    path = write(tmp_path, "rows.jsonl.gz")
    recorder = Recorder()
    open_reader(path, progress=recorder).read_all()
    assert recorder.events[0] == ("start", "reading rows.jsonl.gz", path.stat().st_size, "bytes")
    assert sum(event[1] for event in recorder.events if event[0] == "advance") == path.stat().st_size
    assert recorder.events[-1] == ("done",)


# -- bad input: one line naming the file and what to do ------------------------------------------------


def test_corrupt_parquet_names_the_file(tmp_path: Path):
    """A file that is not Parquet says so and what to do."""
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 but not really" * 4)
    with pytest.raises(DatasetError) as info:
        JsonlDataset(path="bad.parquet").load(tmp_path)
    assert str(info.value) == (
        f"file {tmp_path / 'bad.parquet'}: not a readable Parquet file (Parquet magic bytes not found in footer. Either the file is "
        "corrupted or this is not a parquet file.); check that the file was written completely (copy or export it again)"
    )


def test_truncated_gzip_names_the_file(tmp_path: Path):
    """A .gz cut short is one line: truncated, and what to do; so is a .zst or .bz2."""
    for suffix in (".gz", ".bz2", ".zst"):
        path = tmp_path / f"cut.jsonl{suffix}"
        path.write_bytes(COMPRESS[suffix](jsonl_bytes(ROWS * 200))[:-30])
        with pytest.raises(DatasetError) as info:
            JsonlDataset(path=path.name).load(tmp_path)
        assert str(info.value) == f"file {path}: the compressed data ends early (the file is truncated); download or compress the file again"


def test_named_gz_that_is_not_gzip(tmp_path: Path):
    """A .gz name over plain text is refused with what to do."""
    (tmp_path / "rows.jsonl.gz").write_bytes(jsonl_bytes(ROWS))
    with pytest.raises(DatasetError, match=r"the file is named .gz but does not hold gzip data \(its first bytes are b'\{\"qu'\); rename it"):
        open_reader(tmp_path / "rows.jsonl.gz").read_all()


def test_column_missing_from_parquet_schema_names_the_reader_cfg_column(make_renderer, tmp_path: Path):
    """A reader_cfg column the Parquet schema lacks is named with the file and the columns it has."""
    write(tmp_path, "rows.parquet")
    cfg = dict(
        abbr="pq",
        type="JsonlDataset",
        path=str(tmp_path / "rows.parquet"),
        reader_cfg=dict(input_columns=["question"], output_column="label"),
        infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{question}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")),
    )
    with pytest.raises(DatasetError) as info:
        len(Renderer(build_dataset(cfg)))
    assert str(info.value) == (
        f"dataset 'pq', file {tmp_path / 'rows.parquet'}, key 'label': column 'label' (reader_cfg.output_column) of split 'test' is not in "
        "the Parquet schema, which has ['question', 'answer']; fix reader_cfg.output_column, or give a file that has the column"
    )


def test_header_less_csv_without_columns_says_to_name_them(tmp_path: Path):
    """Read as if its first line were a header, a header-less CSV misses the reader_cfg columns: the error says columns=."""
    (tmp_path / "mmlu.csv").write_text("What is 1+1?,1,2,3,4,B\nWhy?,a,b,c,d,A\n")
    cfg = dict(
        abbr="mmlu",
        type="JsonlDataset",
        path=str(tmp_path / "mmlu.csv"),
        reader_cfg=dict(input_columns=["input"], output_column="target"),
        infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{input}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")),
    )
    with pytest.raises(DatasetError) as info:
        len(Renderer(build_dataset(cfg)))
    assert str(info.value) == (
        f"dataset 'mmlu', file {tmp_path / 'mmlu.csv'}, key 'input': column 'input' (reader_cfg.input_columns) of split 'test' is not in "
        "the CSV header (the file's first line), which has ['What is 1+1?', '1', '2', '3', '4', 'B']; if the file has no header line, "
        "name its columns in the dataset config: columns=[...]"
    )


def test_unknown_extension_lists_the_known_ones(tmp_path: Path):
    """An extension no reader knows is refused with the list of those known."""
    (tmp_path / "rows.txt.gz").write_bytes(gzip.compress(b"x"))
    with pytest.raises(DatasetError) as info:
        open_reader(tmp_path / "rows.txt.gz")
    assert str(info.value) == (
        f"file {tmp_path / 'rows.txt.gz'}: unsupported data file type '.txt.gz'; use one of .jsonl, .ndjson, .json, .csv, .parquet, .arrow, "
        ".feather, .ipc (the text ones also as .gz, .bz2, .zst), or a folder written by datasets' save_to_disk"
    )


def test_compressed_parquet_is_refused(tmp_path: Path):
    """Parquet compresses inside; a .parquet.gz is refused with what to give instead."""
    (tmp_path / "rows.parquet.gz").write_bytes(gzip.compress(write(tmp_path, "rows.parquet").read_bytes()))
    with pytest.raises(DatasetError, match=r"a .parquet file is compressed inside already; give the .parquet file itself"):
        open_reader(tmp_path / "rows.parquet.gz")


@pytest.mark.parametrize(("name", "module", "extra"), [("rows.parquet", "pyarrow", "parquet"), ("rows.jsonl.zst", "zstandard", "zstd"), ("saved", "datasets", "hf")])
def test_a_missing_extra_names_its_pip_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, module: str, extra: str):
    """Without the optional package, reading says which extra to install."""
    if name == "saved":
        datasets.disable_progress_bars()
        datasets.Dataset.from_list(ROWS).save_to_disk(str(tmp_path / name))
    else:
        write(tmp_path, name)
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingDependencyError, match=rf"install it with pip install 'promptkit\[{extra}\]'$"):
        open_reader(tmp_path / name).read_all()
