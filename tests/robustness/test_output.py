"""What the CLI leaves behind: --out replaced whole or not at all, inputs never overwritten, one line per failure, signals, JSONL lines."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import promptkit
from promptkit import JsonlDataset
from promptkit.cli import _output
from promptkit.cli.main import main
from promptkit.formats import validate_file
from promptkit.render.conversation import load_replies

ROOT = Path(__file__).parents[2]
#: Where the promptkit under test is imported from: the CLI subprocesses import the same one.
ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1])}

DATASET = """
from promptkit import PromptTemplate, ZeroRetriever, GenInferencer, JsonlDataset
datasets = [dict(abbr='qa', type=JsonlDataset, path={path!r},
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {{question}}\\nA:'),
                                retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))]
"""
PREVIOUS = b'{"previous": "output"}\n'
#: Characters str.splitlines() splits at and a JSON string may hold raw.
SEPARATORS = "a\u2028b\u2029c\u0085d\x1ce\x0bf"


def write_rows(path: Path, count: int, text: str = "q") -> None:
    path.write_text("".join(json.dumps({"question": f"{text}{i}", "answer": "a"}, ensure_ascii=False) + "\n" for i in range(count)), encoding="utf-8")


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A dataset config ds.py over rows.jsonl (3 rows) and a previous output file out.jsonl."""
    write_rows(tmp_path / "rows.jsonl", 3)
    (tmp_path / "ds.py").write_text(DATASET.format(path="rows.jsonl"))
    (tmp_path / "out.jsonl").write_bytes(PREVIOUS)
    return tmp_path


def promptkit_cli(*args: str | Path, **kwargs) -> subprocess.CompletedProcess:
    """``python -m promptkit ARGS``, run to the end; stdout and stderr captured as text unless given."""
    if "stdout" not in kwargs:
        kwargs["capture_output"] = True
    return subprocess.run([sys.executable, "-m", "promptkit", *map(str, args)], text=True, env=ENV, **kwargs)


def promptkit_process(*args: str | Path, **kwargs) -> subprocess.Popen:
    """``python -m promptkit ARGS``, started."""
    return subprocess.Popen([sys.executable, "-m", "promptkit", *map(str, args)], env=ENV, **kwargs)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- --out: atomic, never an input ---------------------------------------------------


def test_out_onto_the_data_file_is_refused_and_the_data_kept(run_dir):
    """--out naming the config's own data file: refused before rendering, one line, the data file unchanged."""
    before = (run_dir / "rows.jsonl").read_bytes()
    result = promptkit_cli("render", run_dir / "ds.py", "--out", run_dir / "rows.jsonl")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"promptkit: error: --out {run_dir / 'rows.jsonl'} is the data file of dataset 'qa'; "
        "writing there would destroy an input of this run: choose another output file\n"
    )
    assert (run_dir / "rows.jsonl").read_bytes() == before and leftovers(run_dir) == []


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_out_through_a_link_to_the_data_file_is_refused(run_dir, link):
    """A symlink or hard link to the data file is the data file."""
    alias = run_dir / "alias.jsonl"
    (os.symlink if link == "symlink" else os.link)(run_dir / "rows.jsonl", alias)
    before = (run_dir / "rows.jsonl").read_bytes()
    result = promptkit_cli("render", run_dir / "ds.py", "--out", alias)
    assert result.returncode == 1
    assert result.stderr == (
        f"promptkit: error: --out {alias} is the data file of dataset 'qa' ({run_dir / 'rows.jsonl'}); "
        "writing there would destroy an input of this run: choose another output file\n"
    )
    assert (run_dir / "rows.jsonl").read_bytes() == before


def test_out_onto_a_split_file_names_the_split(tmp_path):
    """With path=dict(train=..., test=...), the message names the split whose file it is."""
    write_rows(tmp_path / "dev.jsonl", 2)
    write_rows(tmp_path / "test.jsonl", 2)
    (tmp_path / "ds.py").write_text(DATASET.format(path=dict(train="dev.jsonl", test="test.jsonl")))
    result = promptkit_cli("render", tmp_path / "ds.py", "--out", tmp_path / "dev.jsonl")
    assert f"--out {tmp_path / 'dev.jsonl'} is the 'train' data file of dataset 'qa';" in result.stderr


def test_out_onto_a_config_or_an_included_config_is_refused(run_dir):
    """The dataset config, a file it includes with read_base(), and the model config are inputs too."""
    (run_dir / "common.py").write_text("qa_path = 'rows.jsonl'\n")
    (run_dir / "inherits.py").write_text(
        "from mmengine.config import read_base\nwith read_base():\n    from .common import qa_path\n" + DATASET.format(path="rows.jsonl")
    )
    (run_dir / "model.py").write_text("models = [dict(abbr='m', type='CompletionModel')]\n")
    cases = [
        ("inherits.py", "the dataset config"),
        ("common.py", "a file the dataset config includes"),
        ("model.py", "the model config"),
    ]
    for name, what in cases:
        before = (run_dir / name).read_bytes()
        result = promptkit_cli("render", run_dir / "inherits.py", "--model", run_dir / "model.py", "--out", run_dir / name)
        assert result.stderr == (
            f"promptkit: error: --out {run_dir / name} is {what}; writing there would destroy an input of this run: choose another output file\n"
        ), name
        assert (run_dir / name).read_bytes() == before


def test_out_onto_replies_tokenizer_or_format_data_file_is_refused(run_dir, tmp_path):
    """--replies, --tokenizer and a --format data file are inputs too (in-process: same messages as the CLI)."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    tokenizer.save(str(run_dir / "tokenizer.json"))
    (run_dir / "replies.jsonl").write_text('{"index": 0, "turn": 0, "reply": "hi"}\n')
    sample = ROOT / "configs" / "datasets" / "standard_sample_demo" / "data" / "samples.jsonl"
    (run_dir / "samples.jsonl").write_bytes(sample.read_bytes())
    cases = [
        (["render", str(run_dir / "ds.py"), "--replies", str(run_dir / "replies.jsonl")], "replies.jsonl", "the --replies file"),
        (["render", str(run_dir / "ds.py"), "--tokenizer", str(run_dir / "tokenizer.json")], "tokenizer.json", "the --tokenizer file"),
        (["render", str(run_dir / "samples.jsonl"), "--format", "standard"], "samples.jsonl", "the data file"),
    ]
    for args, name, what in cases:
        result = promptkit_cli(*args, "--out", run_dir / name)
        assert result.stderr.startswith(f"promptkit: error: --out {run_dir / name} is {what}"), result.stderr


def test_out_onto_a_model_folder_file_is_refused(run_dir):
    """The tokenizer_config.json a chat-template model reads its template from is an input."""
    folder = run_dir / "model"
    folder.mkdir()
    (folder / "tokenizer_config.json").write_text(json.dumps({"chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"}))
    (run_dir / "model.py").write_text(f"models = [dict(abbr='m', type='HuggingFacewithChatTemplate', path={str(folder)!r})]\n")
    result = promptkit_cli("render", run_dir / "ds.py", "--model", run_dir / "model.py", "--out", folder / "tokenizer_config.json")
    assert result.stderr.startswith(f"promptkit: error: --out {folder / 'tokenizer_config.json'} is a file of the model folder of model 'm';")


def test_a_failing_run_leaves_the_previous_output_intact(run_dir):
    """--out onto an existing file with a config that fails: exit 1, one line, the old bytes kept, no temporary file."""
    (run_dir / "bad.py").write_text(DATASET.format(path="rows.jsonl").replace("input_columns=['question']", "input_columns=['nope']"))
    result = promptkit_cli("render", run_dir / "bad.py", "--out", run_dir / "out.jsonl")
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and result.stderr.startswith("promptkit: error: ")
    assert (run_dir / "out.jsonl").read_bytes() == PREVIOUS and leftovers(run_dir) == []


def test_a_successful_run_replaces_the_file_and_keeps_its_mode(run_dir):
    """On success the target holds the whole output, with the permission bits of the file it replaced."""
    os.chmod(run_dir / "out.jsonl", 0o640)
    result = promptkit_cli("render", run_dir / "ds.py", "--out", run_dir / "out.jsonl")
    assert (result.returncode, result.stderr) == (0, "")
    assert [json.loads(line)["index"] for line in (run_dir / "out.jsonl").read_text().splitlines()] == [0, 1, 2]
    assert (run_dir / "out.jsonl").stat().st_mode & 0o777 == 0o640 and leftovers(run_dir) == []


def test_a_symlinked_out_replaces_the_file_it_points_to(run_dir):
    """--out through a symlink writes the file it points to; the link stays a link."""
    (run_dir / "link.jsonl").symlink_to(run_dir / "out.jsonl")
    assert promptkit_cli("render", run_dir / "ds.py", "--out", run_dir / "link.jsonl").returncode == 0
    assert (run_dir / "link.jsonl").is_symlink() and len((run_dir / "out.jsonl").read_text().splitlines()) == 3


def test_out_into_a_missing_folder_or_onto_a_folder(run_dir):
    """An --out that cannot be created is one line naming it, before anything is rendered."""
    missing = run_dir / "nope" / "out.jsonl"
    result = promptkit_cli("render", run_dir / "ds.py", "--out", missing)
    assert result.stderr == f"promptkit: error: file {missing}: cannot create the output file in {missing.parent}: No such file or directory\n"
    result = promptkit_cli("render", run_dir / "ds.py", "--out", run_dir)
    assert result.stderr == f"promptkit: error: --out {run_dir} is a folder; give the path of the file to write\n"


def test_out_onto_a_named_pipe_writes_into_it(run_dir):
    """A --out that is not a regular file (a FIFO, /dev/null) is written directly, never replaced by a file."""
    fifo = run_dir / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    result = promptkit_cli("render", run_dir / "ds.py", "--out", fifo)
    received, _ = reader.communicate(timeout=60)
    assert (result.returncode, result.stderr) == (0, "")
    assert len(received.splitlines()) == 3 and fifo.is_fifo() and leftovers(run_dir) == []


class _FillsUp(io.TextIOWrapper):
    """A file on a disk that is full after ``room`` characters: the write that overflows is cut, then ENOSPC."""

    room = 150

    def write(self, text: str) -> int:
        if len(text) > self.room:
            super().write(text[: self.room])
            self.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(text)
        return super().write(text)


def test_a_full_disk_while_writing_out_keeps_the_previous_file(run_dir, monkeypatch, capsys):
    """ENOSPC in the middle of a record: one line naming the file, exit 1, the old bytes kept, no temporary file."""
    monkeypatch.setattr(_output, "open", lambda fd, mode, encoding: _FillsUp(io.FileIO(fd, "w"), encoding=encoding), raising=False)
    assert main(["render", str(run_dir / "ds.py"), "--out", str(run_dir / "out.jsonl")]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: file {run_dir / 'out.jsonl'}: cannot write the output: No space left on device; the file is left as it was\n"
    )
    assert (run_dir / "out.jsonl").read_bytes() == PREVIOUS and leftovers(run_dir) == []


def test_a_full_disk_at_the_final_sync_keeps_the_previous_file(run_dir, monkeypatch, capsys):
    """ENOSPC reported only when the file is synced (delayed allocation): the same line, the old file kept."""

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(_output.os, "fsync", fsync)
    assert main(["render", str(run_dir / "ds.py"), "--out", str(run_dir / "out.jsonl")]) == 1
    assert "cannot write the output: No space left on device; the file is left as it was" in capsys.readouterr().err
    assert (run_dir / "out.jsonl").read_bytes() == PREVIOUS and leftovers(run_dir) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("verb", ["render", "preview"])
def test_a_full_stdout_is_one_line(run_dir, verb):
    """Writing to a full device (`> /dev/full`): one line, exit 1, no traceback, no "Exception ignored"."""
    with open("/dev/full", "w") as full:
        result = promptkit_cli(verb, run_dir / "ds.py", stdout=full, stderr=subprocess.PIPE)
    assert (result.returncode, result.stderr) == (1, "promptkit: error: cannot write to stdout: No space left on device\n")


@pytest.mark.parametrize("verb", ["render", "preview"])
def test_a_closed_pipe_ends_quietly(tmp_path, verb):
    """`promptkit render ... | head -n 1`: status 0, nothing on stderr."""
    write_rows(tmp_path / "rows.jsonl", 20000)
    (tmp_path / "ds.py").write_text(DATASET.format(path="rows.jsonl"))
    extra = ["--count", "20000", "--color", "never"] if verb == "preview" else []
    process = promptkit_process(verb, tmp_path / "ds.py", *extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()
    process.stdout.close()
    assert (process.wait(), process.stderr.read()) == (0, b"")
    process.stderr.close()


def test_render_to_stdout_streams(tmp_path):
    """Records reach stdout while rendering goes on: the first arrives before the process ends."""
    write_rows(tmp_path / "rows.jsonl", 100000)
    (tmp_path / "ds.py").write_text(DATASET.format(path="rows.jsonl"))
    process = promptkit_process("render", tmp_path / "ds.py", stdout=subprocess.PIPE)
    assert process.stdout is not None
    assert json.loads(process.stdout.readline())["index"] == 0
    assert process.poll() is None  # still rendering: a pipe holds 64 KiB, the output is 14 MB
    process.stdout.close()
    process.wait()


# -- signals -------------------------------------------------------------------------


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_mid_render_keeps_the_previous_output(tmp_path, signum, status):
    """SIGTERM/SIGINT during a large render onto an existing file: one line, 128 + N, the old bytes kept, no temporary file."""
    write_rows(tmp_path / "rows.jsonl", 200000)
    (tmp_path / "ds.py").write_text(DATASET.format(path="rows.jsonl"))
    (tmp_path / "out.jsonl").write_bytes(PREVIOUS)
    process = promptkit_process("render", tmp_path / "ds.py", "--out", tmp_path / "out.jsonl", stderr=subprocess.PIPE, text=True)
    # Rendering has begun once the temporary file holds a first flushed block of records.
    while process.poll() is None and not any(p.stat().st_size for p in tmp_path.glob(".out.jsonl.*.tmp")):
        time.sleep(0.01)
    process.send_signal(signum)
    _, stderr = process.communicate()
    assert (process.returncode, stderr) == (status, "promptkit: interrupted\n")
    assert (tmp_path / "out.jsonl").read_bytes() == PREVIOUS and leftovers(tmp_path) == []


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_during_preview_is_one_line(tmp_path, signum, status):
    """SIGTERM/SIGINT while preview prints: one line, 128 + N, no traceback."""
    write_rows(tmp_path / "rows.jsonl", 20000)
    (tmp_path / "ds.py").write_text(DATASET.format(path="rows.jsonl"))
    process = promptkit_process(
        "preview", tmp_path / "ds.py", "--count", "20000", "--color", "never", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline()  # previewing; the pipe fills and preview waits for this reader
    process.send_signal(signum)
    _, stderr = process.communicate()
    assert (process.returncode, stderr) == (status, "promptkit: interrupted\n")


# -- no traceback for any input --------------------------------------------------------


def test_a_data_path_that_is_a_folder(run_dir):
    """A dataset path naming a folder is one line saying so."""
    (run_dir / "folder.jsonl").mkdir()
    (run_dir / "ds.py").write_text(DATASET.format(path="folder.jsonl"))
    result = promptkit_cli("render", run_dir / "ds.py")
    assert result.returncode == 1
    assert result.stderr == (
        f"promptkit: error: config {run_dir / 'ds.py'}, dataset 'qa', file {run_dir / 'folder.jsonl'}: "
        "the data path is a folder; give the path of a .jsonl, .json or .csv file in it\n"
    )
    # A format reads a folder in XpertFormat's layout; a folder that is not one is one line naming what it misses.
    result = promptkit_cli("render", run_dir / "folder.jsonl", "--format", "standard")
    assert result.stderr.endswith(
        f"file {run_dir / 'folder.jsonl'}: the dataset folder holds neither dataset.jsonl nor test.jsonl (it holds nothing); a dataset "
        "folder has dataset.jsonl and, for splits, train.jsonl, dev.jsonl, test.jsonl (XpertFormat's layout), or give one .jsonl file\n"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("0-3000000000", "index 3000000000 is out of range (the test split has 3 rows, 0 to 2)"),
        ("100:", "the slice '100:' selects no row (the test split has 3 rows, 0 to 2)"),
        ("0,3:", "the slice '3:' selects no row (the test split has 3 rows, 0 to 2)"),
        ("2:1", "the slice '2:1' selects no row (the test split has 3 rows, 0 to 2)"),
    ],
)
def test_indices_outside_the_split_say_how_many_rows(run_dir, spec, message):
    """--indices that select nothing, or reach far past the end, are one line with the split's size (no MemoryError)."""
    result = promptkit_cli("render", run_dir / "ds.py", "--indices", spec)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"promptkit: error: config {run_dir / 'ds.py'}, dataset 'qa': --indices {spec!r}: {message}\n"


def test_a_csv_field_over_the_csv_limit_is_one_line(run_dir):
    """A CSV field longer than the csv module allows is an error naming the line, not a csv.Error traceback."""
    (run_dir / "rows.csv").write_text('question,answer\nq,a\n"' + "x" * 200_000 + '",a\n')
    (run_dir / "ds.py").write_text(DATASET.format(path="rows.csv"))
    result = promptkit_cli("render", run_dir / "ds.py")
    assert result.stderr == (
        f"promptkit: error: config {run_dir / 'ds.py'}, dataset 'qa', file {run_dir / 'rows.csv'}, line 3: "
        "not valid CSV: field larger than field limit (131072); fix the record, or save the data as .jsonl\n"
    )


def test_a_data_path_with_a_nul_character(run_dir):
    """A NUL in a dataset path is one line, not a ValueError from the file system calls."""
    (run_dir / "ds.py").write_text(DATASET.format(path="a\x00.jsonl"))
    result = promptkit_cli("render", run_dir / "ds.py")
    assert result.stderr == (
        f"promptkit: error: config {run_dir / 'ds.py'}, dataset 'qa': the data path 'a\\x00.jsonl' contains a NUL character; "
        "check the dataset's path\n"
    )


def test_bad_arguments_exit_2(run_dir):
    """argparse's own errors keep exit status 2."""
    result = promptkit_cli("preview", run_dir / "ds.py", "--count", "many")
    assert result.returncode == 2 and "invalid int value: 'many'" in result.stderr


def test_an_unexpected_exception_is_one_line(run_dir, monkeypatch, capsys):
    """A bug is one line naming the exception and --debug; --debug shows the traceback."""

    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr("promptkit.cli.render.run", broken)
    assert main(["render", str(run_dir / "ds.py")]) == 1
    assert capsys.readouterr().err == "promptkit: error: internal error: RuntimeError: boom (run with --debug for the traceback)\n"
    with pytest.raises(RuntimeError, match="boom"):
        main(["--debug", "render", str(run_dir / "ds.py")])


def test_an_os_error_on_a_named_file_is_one_line(run_dir, monkeypatch, capsys):
    """An OSError that names its file, wherever it comes from, is one line with the file and the reason."""

    def denied(args):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/data/images/cat.png")

    monkeypatch.setattr("promptkit.cli.render.run", denied)
    assert main(["render", str(run_dir / "ds.py")]) == 1
    assert capsys.readouterr().err == "promptkit: error: file /data/images/cat.png: Permission denied\n"


def test_a_replies_file_that_is_not_utf8(run_dir):
    """A --replies file in another encoding is one line with the line number."""
    (run_dir / "replies.jsonl").write_bytes(b'{"index": 0, "turn": 0, "reply": "ok"}\n{"index": 1, "turn": 0, "reply": "caf\xe9"}\n')
    result = promptkit_cli("render", run_dir / "ds.py", "--replies", run_dir / "replies.jsonl")
    assert result.stderr == (
        f"promptkit: error: file {run_dir / 'replies.jsonl'}, line 2: "
        "the replies file is not valid UTF-8 (invalid continuation byte at byte 76); save it as UTF-8\n"
    )


# -- JSON Lines: split on "\n" only ----------------------------------------------------------


def test_jsonl_strings_may_hold_unicode_line_separators(tmp_path):
    """U+2028, U+2029, U+0085 (and other str.splitlines() breaks) raw inside strings load; CRLF files too."""
    write_rows(tmp_path / "rows.jsonl", 2, text=SEPARATORS)
    (tmp_path / "crlf.jsonl").write_bytes(b'{"question": "x"}\r\n{"question": "y"}\r\n')
    assert [row["question"] for row in JsonlDataset(str(tmp_path / "rows.jsonl")).load().get("test")] == [f"{SEPARATORS}0", f"{SEPARATORS}1"]
    assert [row["question"] for row in JsonlDataset(str(tmp_path / "crlf.jsonl")).load().get("test")] == ["x", "y"]


def test_jsonl_error_line_numbers_count_newlines_only(tmp_path):
    """A bad record after records holding U+2028 is reported at its own line."""
    write_rows(tmp_path / "rows.jsonl", 2, text=SEPARATORS)
    with (tmp_path / "rows.jsonl").open("a") as file:
        file.write("{oops\n")
    with pytest.raises(promptkit.DatasetError, match=r"line 3: 1 malformed line\(s\): line 3: Expecting property name"):
        JsonlDataset(str(tmp_path / "rows.jsonl")).load()


def test_render_keeps_unicode_line_separators(tmp_path):
    """The CLI renders such rows with the characters in the prompt."""
    write_rows(tmp_path / "rows.jsonl", 1, text=SEPARATORS)
    (tmp_path / "ds.py").write_text(DATASET.format(path="rows.jsonl"))
    result = promptkit_cli("render", tmp_path / "ds.py")
    assert result.returncode == 0 and json.loads(result.stdout)["prompt"] == f"Q: {SEPARATORS}0\nA:"


def test_replies_may_hold_unicode_line_separators(tmp_path):
    """A --replies file with raw U+2028/U+2029/U+0085 in replies loads; error lines count newlines only."""
    path = tmp_path / "replies.jsonl"
    path.write_text(json.dumps({"index": 0, "turn": 0, "reply": SEPARATORS}, ensure_ascii=False) + "\r\n", encoding="utf-8")
    assert load_replies(path) == {0: [SEPARATORS]}
    with path.open("a", encoding="utf-8") as file:
        file.write('{"index": 0, "turn": 0, "reply": "again"}\n')
    with pytest.raises(promptkit.DatasetError, match=r"line 2: a second reply for row 0, turn 0"):
        load_replies(path)


def test_format_files_may_hold_unicode_line_separators(tmp_path):
    """A standard-format record with raw U+2028/U+2029/U+0085 validates and renders."""
    record = {
        "schema_version": "v1",
        "id": "a",
        "messages": [{"role": "user", "content": [{"type": "text", "text": SEPARATORS}]}],
        "references": ["x"],
    }
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    assert validate_file(path, "standard").summary() == f"{path}: 1 record(s): 1 good, 0 bad, 0 violation(s)"
    result = promptkit_cli("render", path, "--format", "standard")
    assert result.returncode == 0 and SEPARATORS in json.loads(result.stdout)["prompt"]
