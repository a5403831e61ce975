"""What reaches the user's files and terminal: strict JSON records, escaped control characters, rows from stdin, no silent empty run."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import promptkit
from promptkit.cli.main import main

#: Where the promptkit under test is imported from: the CLI subprocesses import the same one.
ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1])}
READER = "reader_cfg=dict(input_columns=['question'], output_column='answer'{extra})"
DATASET = (
    "dict(abbr={abbr!r}, type='JsonlDataset', path={path!r}, " + READER + ", infer_cfg=dict("
    "prompt_template=dict(type='PromptTemplate', template='Q: {{question}}\\nA:'), retriever=dict(type='ZeroRetriever'), "
    "inferencer=dict(type='GenInferencer'))" + "{more})"
)


def dataset(abbr: str = "qa", path: str = "rows.jsonl", extra: str = "", more: str = "") -> str:
    return DATASET.format(abbr=abbr, path=path, extra=extra, more=more)


def write_config(folder: Path, *datasets: str) -> Path:
    path = folder / "ds.py"
    path.write_text(f"datasets = [{', '.join(datasets)}]\n", encoding="utf-8")
    return path


def promptkit_cli(*args: str | Path, **kwargs) -> subprocess.CompletedProcess:
    """``python -m promptkit ARGS`` run to the end, stdout and stderr captured as text."""
    return subprocess.run([sys.executable, "-m", "promptkit", *map(str, args)], capture_output=True, text=True, env=ENV, **kwargs)


def strict(line: str) -> object:
    """A line parsed as strict JSON (JSON.parse, jq): NaN and Infinity are not JSON."""

    def refuse(word: str) -> None:
        raise ValueError(f"{word} is not JSON")

    return json.loads(line, parse_constant=refuse)


# -- records are strict JSON -------------------------------------------------------------------------------------------

NAN_ROWS = '{"question": "q0", "answer": NaN}\n{"question": "q1", "answer": 1}\n{"question": "q2", "answer": -Infinity}\n'
NAN_WARNING = "promptkit: warning: 2 record(s) held NaN or Infinity, which JSON has no value for; written as null: qa/0 (gold), qa/2 (gold)\n"


@pytest.fixture
def nan_dir(tmp_path: Path) -> Path:
    """ds.py over rows.jsonl, whose gold answers are NaN, 1 and -Infinity (as Python's json writes a pandas column)."""
    (tmp_path / "rows.jsonl").write_text(NAN_ROWS, encoding="utf-8")
    write_config(tmp_path, dataset())
    return tmp_path


def test_nan_and_infinity_are_written_as_null_with_one_warning(nan_dir):
    """render: every line strict JSON, the non-finite gold answers null, one warning naming the records and fields."""
    result = promptkit_cli("render", nan_dir / "ds.py")
    assert (result.returncode, result.stderr) == (0, NAN_WARNING)
    assert [strict(line)["gold"] for line in result.stdout.splitlines()] == [None, 1, None]  # type: ignore[index]


def test_nan_in_out_files_and_worker_processes(nan_dir):
    """--out gets strict JSON too; with --workers the worker process that meets one warns, once."""
    result = promptkit_cli("render", nan_dir / "ds.py", "--out", nan_dir / "out.jsonl")
    assert (result.returncode, result.stderr) == (0, NAN_WARNING)
    assert [strict(line)["gold"] for line in (nan_dir / "out.jsonl").read_text(encoding="utf-8").splitlines()] == [None, 1, None]  # type: ignore[index]
    # Three rows are one chunk: --workers 2 renders them in this process, which warns as one worker does.
    result = promptkit_cli("render", nan_dir / "ds.py", "--workers", "2")
    assert [strict(line)["gold"] for line in result.stdout.splitlines()] == [None, 1, None]  # type: ignore[index]
    assert result.stderr.endswith(NAN_WARNING)
    # Two worker processes (one row a chunk, two CPUs): the worker that meets the first NaN warns, once, saying so.
    script = (
        "import logging, sys; from promptkit import Renderer, load_datasets; from promptkit.render import parallel; "
        "from promptkit.records.lines import RecordLines; logging.basicConfig(format='%(message)s'); "
        "parallel.CHUNK_ROWS = 1; parallel.available_cpus = lambda: 2; (spec,) = load_datasets(sys.argv[1]); "
        "sys.stdout.write(''.join(parallel.render_parallel(Renderer(spec), 2, encode=RecordLines(sys.argv[1], None, None), method='fork')))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1])}
    done = subprocess.run([sys.executable, "-c", script, str(nan_dir / "ds.py")], capture_output=True, text=True, env=env, timeout=120)
    assert [strict(line)["gold"] for line in done.stdout.splitlines()] == [None, 1, None]  # type: ignore[index]
    warned = [line for line in done.stderr.splitlines() if "NaN" in line]
    assert warned and all(line.endswith("(a worker process; it does not warn again)") for line in warned)
    assert any("qa/0 (gold)" in line for line in warned)


def test_nan_in_engine_lines(tmp_path):
    """--as openai-batch and --as vllm: a sampling setting that is NaN or Infinity is null in strict JSON, and named."""
    (tmp_path / "rows.jsonl").write_text('{"question": "q0", "answer": "a"}\n', encoding="utf-8")
    write_config(tmp_path, dataset())
    (tmp_path / "api.py").write_text(
        "models = [dict(abbr='gpt', type='OpenAISDK', path='gpt-4o-mini', generation_kwargs=dict(temperature=float('nan')))]\n", encoding="utf-8"
    )
    result = promptkit_cli("render", tmp_path / "ds.py", "--model", tmp_path / "api.py", "--as", "openai-batch")
    [line] = result.stdout.splitlines()
    assert strict(line)["body"]["temperature"] is None  # type: ignore[index]
    assert result.stderr == (
        "promptkit: warning: 1 record(s) held NaN or Infinity, which JSON has no value for; written as null: qa/0 of model 'gpt' (body.temperature)\n"
    )
    (tmp_path / "vllm.py").write_text(
        "models = [dict(abbr='v', type='VLLM', path='some/model', generation_kwargs=dict(temperature=float('inf')))]\n", encoding="utf-8"
    )
    result = promptkit_cli("render", tmp_path / "ds.py", "--model", tmp_path / "vllm.py", "--as", "vllm")
    [line] = result.stdout.splitlines()
    assert strict(line)["sampling_params"]["temperature"] is None  # type: ignore[index]
    assert result.stderr.endswith("written as null: qa/0 of model 'v' (sampling_params.temperature)\n")


def test_a_snapshot_of_nan_rows_is_strict_json_and_checks_clean(nan_dir, monkeypatch):
    """snapshot write: strict JSON files, one warning; check right after: every prompt identical (null against NaN is no change)."""
    monkeypatch.chdir(nan_dir)
    result = promptkit_cli("snapshot", "write", "snap", "ds.py")
    assert (result.returncode, result.stderr) == (0, NAN_WARNING)
    assert [strict(line)["gold"] for line in (nan_dir / "snap" / "qa" / "no-model.jsonl").read_text(encoding="utf-8").splitlines()] == [None, 1, None]  # type: ignore[index]
    result = promptkit_cli("snapshot", "check", "snap")
    assert (result.returncode, result.stdout, result.stderr) == (0, "snap: 3 prompts compared: 3 identical, 0 changed\n", "")


def test_the_view_page_data_is_strict_json(nan_dir):
    """view: the page's data parses as JSON.parse would parse it, the records' gold null; one warning."""
    result = promptkit_cli("view", nan_dir / "ds.py", "--out", nan_dir / "page.html")
    assert (result.returncode, result.stderr) == (0, NAN_WARNING)
    page = (nan_dir / "page.html").read_text(encoding="utf-8")
    data = strict(re.search(r'<script id="pk-data" type="application/json">(.*?)</script>', page, flags=re.DOTALL).group(1))  # type: ignore[union-attr]
    assert [entry["rec"]["gold"] for entry in data["prompts"]] == [None, 1, None]  # type: ignore[index]


# -- control characters in messages ------------------------------------------------------------------------------------


def test_a_chat_template_error_with_escape_sequences_is_escaped(tmp_path):
    """raise_exception('\\x1b[31m...') in a model's chat template: ESC, BEL and C1 escaped, printable unicode and tabs kept, one line."""
    (tmp_path / "rows.jsonl").write_text('{"question": "q0", "answer": "a"}\n', encoding="utf-8")
    write_config(tmp_path, dataset())
    folder = tmp_path / "m"
    folder.mkdir()
    message = "\x1b[31mred\x1b[0m é — 日本\rover\nline2\ttab\x07\x9b"
    (folder / "tokenizer_config.json").write_text(json.dumps({"chat_template": "{{ raise_exception(message) }}".replace("message", json.dumps(message))}), encoding="utf-8")
    (tmp_path / "model.py").write_text(f"models = [dict(abbr='m', type='HuggingFacewithChatTemplate', path={str(folder)!r})]\n", encoding="utf-8")
    result = promptkit_cli("render", tmp_path / "ds.py", "--model", tmp_path / "model.py")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"promptkit: error: config {tmp_path / 'ds.py'}, dataset 'qa', model 'm', row 0: the chat template ({folder}) raised: "
        "\\x1b[31mred\\x1b[0m é — 日本 over line2\ttab\\x07\\x9b\n"  # the template error's own line breaks are spaces
    )


def test_every_error_line_is_one_line(tmp_path, monkeypatch, capsys):
    """Whatever an error's message holds (a file name, a bug's exception text), it reaches stderr escaped, as one line."""
    (tmp_path / "ds.py").write_text("datasets = []\n", encoding="utf-8")

    def broken(args):
        raise promptkit.DatasetError("bad row:\n\x1b]0;owned\x07 café", file="a\rb.jsonl")

    monkeypatch.setattr("promptkit.cli.render.run", broken)
    assert main(["render", str(tmp_path / "ds.py")]) == 1
    assert capsys.readouterr().err == "promptkit: error: file a\\rb.jsonl: bad row:\\n\\x1b]0;owned\\x07 café\n"


def test_a_warning_with_control_characters_is_escaped(tmp_path):
    """A warning naming a record whose id (a row's id column) holds ESC: escaped like an error."""
    (tmp_path / "rows.jsonl").write_text('{"id": "\\u001b[2J", "question": "q0", "answer": NaN}\n', encoding="utf-8")
    write_config(tmp_path, dataset(extra=", id_column='id'"))
    result = promptkit_cli("render", tmp_path / "ds.py")
    assert result.stderr == "promptkit: warning: 1 record(s) held NaN or Infinity, which JSON has no value for; written as null: qa/\\x1b[2J (gold)\n"


# -- rows from stdin ---------------------------------------------------------------------------------------------------

ROWS = '{"question": "q0", "answer": "a"}\n{"question": "q1", "answer": "b"}\n'


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_rows_from_a_pipe_are_json_lines(tmp_path, name):
    """`... | promptkit render ds.py --rows -` (or /dev/stdin): the piped JSON Lines feed every dataset, read once."""
    write_config(tmp_path, dataset("a", "missing.jsonl"), dataset("b", "missing.jsonl"))
    result = promptkit_cli("render", tmp_path / "ds.py", "--rows", name, input=ROWS)
    assert (result.returncode, result.stderr) == (0, "")
    assert [(record["dataset"], record["prompt"]) for record in map(json.loads, result.stdout.splitlines())] == [
        ("a", "Q: q0\nA:"),
        ("a", "Q: q1\nA:"),
        ("b", "Q: q0\nA:"),
        ("b", "Q: q1\nA:"),
    ]


def test_preview_reads_rows_from_stdin(tmp_path):
    """preview --rows - shows the piped rows."""
    write_config(tmp_path, dataset())
    result = promptkit_cli("preview", tmp_path / "ds.py", "--rows", "-", "--index", "1", "--color", "never", input=ROWS)
    assert result.returncode == 0 and "Q: q1" in result.stdout


def test_a_bad_line_on_stdin_names_stdin_and_the_line(tmp_path):
    """A malformed line of the piped rows: one error naming <stdin> and its line, as a file's would."""
    write_config(tmp_path, dataset())
    result = promptkit_cli("render", tmp_path / "ds.py", "--rows", "-", input='{"question": "q0", "answer": "a"}\n{oops\n')
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"promptkit: error: config {tmp_path / 'ds.py'}, dataset 'qa', file <stdin>, line 2: 1 malformed line(s): "
        "line 2: Expecting property name enclosed in double quotes at column 2; fix or remove them (one JSON object per line)\n"
    )


def test_stdin_that_is_not_utf8(tmp_path):
    """Bytes that are not UTF-8 on stdin: one line naming the line, as for a file."""
    write_config(tmp_path, dataset())
    data = b'{"question": "q0", "answer": "a"}\n{"question": "caf\xe9"}\n'
    bad = data.index(b"\xe9")
    result = subprocess.run([sys.executable, "-m", "promptkit", "render", str(tmp_path / "ds.py"), "--rows", "-"], input=data, capture_output=True, env=ENV)
    assert result.stderr.decode() == (
        f"promptkit: error: config {tmp_path / 'ds.py'}, dataset 'qa', file <stdin>, line 2: "
        f"the file is not valid UTF-8 (invalid continuation byte at byte {bad}); save it as UTF-8\n"
    )


def test_out_onto_the_file_stdin_reads_is_refused(tmp_path):
    """`--rows - --out rows.jsonl < rows.jsonl`: the output would replace the rows read: refused before rendering."""
    (tmp_path / "rows.jsonl").write_text(ROWS, encoding="utf-8")
    write_config(tmp_path, dataset(path="other.jsonl"))
    with (tmp_path / "rows.jsonl").open("rb") as rows:
        result = promptkit_cli("render", tmp_path / "ds.py", "--rows", "-", "--out", tmp_path / "rows.jsonl", stdin=rows)
    assert result.stderr == (
        f"promptkit: error: --out {tmp_path / 'rows.jsonl'} is the --rows file (/dev/stdin); "
        "writing there would destroy an input of this run: choose another output file\n"
    )
    assert (tmp_path / "rows.jsonl").read_text(encoding="utf-8") == ROWS


def test_rows_from_a_terminal_are_refused(tmp_path, monkeypatch, capsys):
    """--rows - with stdin a terminal would wait for typing: refused with how to pipe the rows in."""

    class Terminal(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    write_config(tmp_path, dataset())
    monkeypatch.setattr(sys, "stdin", Terminal(io.BytesIO(ROWS.encode())))
    assert main(["render", str(tmp_path / "ds.py"), "--rows", "-"]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {tmp_path / 'ds.py'}, dataset 'qa', file <stdin>: standard input is a terminal; "
        "pipe the rows in as JSON Lines (cat rows.jsonl | promptkit render CONFIG --rows -)\n"
    )


# -- a config with no dataset ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["render", "preview"])
def test_an_empty_datasets_list_is_an_error(tmp_path, verb):
    """`datasets = []`: one line naming the config, exit 1 (not an empty run with status 0)."""
    (tmp_path / "ds.py").write_text("datasets = []\n", encoding="utf-8")
    result = promptkit_cli(verb, tmp_path / "ds.py")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"promptkit: error: config {tmp_path / 'ds.py'}: the 'datasets' list is empty: there is nothing to render; "
        "give it at least one dataset (datasets = [dict(...)])\n"
    )


def test_an_empty_models_list_is_an_error(tmp_path):
    """`models = []` in a model config: the same, naming the model config."""
    (tmp_path / "rows.jsonl").write_text(ROWS, encoding="utf-8")
    write_config(tmp_path, dataset())
    (tmp_path / "model.py").write_text("models = []\n", encoding="utf-8")
    result = promptkit_cli("render", tmp_path / "ds.py", "--model", tmp_path / "model.py")
    assert result.stderr == (
        f"promptkit: error: config {tmp_path / 'model.py'}: the 'models' list is empty: there is nothing to render; "
        "give it at least one model (models = [dict(...)])\n"
    )
