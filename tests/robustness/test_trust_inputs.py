"""Bounded input: data files that are not regular files, records over the size limit, more workers than there is work.

Each case runs the CLI in a subprocess with a timeout, so a regression (a FIFO that blocks, a line read without end,
a hundred thousand worker processes) fails the test instead of hanging the suite.
"""

from __future__ import annotations

import gzip
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import promptkit

ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1]), "COLUMNS": "500"}
TIMEOUT = 60  # seconds; far beyond a normal run, so only a hang reaches it
READER = "reader_cfg=dict(input_columns=['question'], output_column='answer')"
INFER = "infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='Q: {question}'), retriever=dict(type='{retriever}'), inferencer=dict(type='GenInferencer'))"
SHOTS = (
    "infer_cfg=dict(ice_template=dict(type='PromptTemplate', template='Q: {question} A: {answer}'), "
    "prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}', ice_token='</E>'), "
    "retriever=dict(type='RandomRetriever', ice_num=1), inferencer=dict(type='GenInferencer'))"
)
REFUSED = "promptkit reads data from regular files only: save the data to a file and give its path"


def write_config(folder: Path, path: str = "rows.jsonl", retriever: str = "ZeroRetriever", name: str = "qa.py") -> Path:
    """A dataset config ``qa`` over ``path`` (zero-shot by default; ``'RandomRetriever'``: one shot from the same file)."""
    infer = SHOTS if retriever == "RandomRetriever" else INFER.replace("{retriever}", retriever)
    (folder / name).write_text(f"datasets = [dict(abbr='qa', type='JsonlDataset', path={path!r}, {READER}, {infer})]\n")
    return folder / name


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def cli(folder: Path, *args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "promptkit", *map(str, args)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**ENV, **(env or {})},
    )


def assert_one_line_error(run: subprocess.CompletedProcess[str], expected: str) -> None:
    assert (run.returncode, run.stdout, run.stderr) == (1, "", f"promptkit: error: {expected}\n")


# -- files that are not regular files ----------------------------------------------------------------------------


def make_special(path: Path, kind: str) -> None:
    """A FIFO (no writer ever comes), a symlink to /dev/zero (never ends), or a Unix socket, at ``path``."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:  # bound from its folder: socket paths are limited to about 100 characters
        here = Path.cwd()
        os.chdir(path.parent)
        try:
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(path.name)
            sock.close()
        finally:
            os.chdir(here)


SPECIAL = {"fifo": "a FIFO", "device": "a character device", "socket": "a socket"}


@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_rows_that_are_not_a_regular_file_are_refused_before_opening(tmp_path: Path, kind: str) -> None:
    """``--rows FIFO`` with no writer, a device, a socket: one line naming the file, at once (no hang)."""
    config = write_config(tmp_path)
    make_special(tmp_path / "stream.jsonl", kind)
    shown = "/dev/zero" if kind == "device" else tmp_path / "stream.jsonl"
    for command in (["render"], ["render", "--out", "out.jsonl"], ["preview"], ["view", "--out", "page.html"]):
        assert_one_line_error(
            cli(tmp_path, command[0], config, "--rows", "stream.jsonl", *command[1:]),
            f"config {config}, dataset 'qa', file {shown}: the data file is {SPECIAL[kind]}, not a regular file; {REFUSED}",
        )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["qa.py", "stream.jsonl"]


@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_a_config_path_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    """A dataset config's ``path=`` naming a FIFO (or a device, a socket), in any format promptkit reads."""
    for name in ("stream.jsonl", "stream.csv", "stream.json.gz", "stream.parquet"):
        config = write_config(tmp_path, name, name=f"{name.partition('.')[2].replace('.', '_')}.py")
        make_special(tmp_path / name, kind)
        assert_one_line_error(
            cli(tmp_path, "render", config),
            f"config {config}, dataset 'qa', file {tmp_path / name}: the data file is {SPECIAL[kind]}, not a regular file; {REFUSED}",
        )


def test_a_fifo_given_as_a_format_file_is_refused(tmp_path: Path) -> None:
    """``render FIFO --format standard`` and ``validate FIFO --format standard`` read no FIFO either."""
    os.mkfifo(tmp_path / "stream.jsonl")
    assert_one_line_error(
        cli(tmp_path, "render", "stream.jsonl", "--format", "standard"),
        f"dataset 'stream', file {tmp_path / 'stream.jsonl'}: the data file is a FIFO, not a regular file; {REFUSED}",
    )
    assert_one_line_error(
        cli(tmp_path, "validate", "stream.jsonl", "--format", "standard"),
        f"file stream.jsonl: the data file is a FIFO, not a regular file; {REFUSED}",
    )


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path: Path) -> None:
    """A data file is opened without blocking and checked again once open: a FIFO that passed no check cannot hang."""
    os.mkfifo(tmp_path / "pipe.jsonl")
    code = (
        "import sys; from pathlib import Path; from promptkit.data.sources.compression import open_binary\n"
        "from promptkit.errors import DatasetError\n"
        "try:\n    open_binary(Path(sys.argv[1])).__enter__()\nexcept DatasetError as error:\n    print(error)"
    )
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "pipe.jsonl")], capture_output=True, text=True, timeout=TIMEOUT, env=ENV)
    assert (run.returncode, run.stdout, run.stderr) == (0, f"file {tmp_path / 'pipe.jsonl'}: the data file is a FIFO, not a regular file; {REFUSED}\n", "")


# -- records over the size limit ----------------------------------------------------------------------------------

LIMIT = "promptkit reads for one record; if the data is right, set PROMPTKIT_MAX_RECORD_BYTES to a larger number of bytes (default 268,435,456, 256 MiB)"
BOMB_LINE = 64 * 2**20  # bytes of text in the bomb's one long line (about 64 KB compressed)
#: Runs the CLI and then prints the process's peak resident memory (KiB) as the last line of stderr.
PEAK = "import resource, sys\nfrom promptkit.cli.main import main\nstatus = main(sys.argv[1:])\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(status)"


def write_bomb(path: Path, document: bool) -> None:
    """A good row, then one whose question is BOMB_LINE bytes of 'a' on a single line, gzip-compressed as it is written
    (JSON Lines, or with ``document`` a JSON list)."""
    with gzip.open(path, "wb") as out:
        out.write(b'[{"question": "ok", "answer": "A"},\n' if document else b'{"question": "ok", "answer": "A"}\n')
        out.write(b'{"question": "')
        for _ in range(BOMB_LINE // 2**20):
            out.write(b"a" * 2**20)
        out.write(b'", "answer": "B"}' + (b"]" if document else b"\n"))


def peak(folder: Path, *args: str | Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], int]:
    """The CLI's run (its stderr without the last line) and its peak resident memory in bytes."""
    run = subprocess.run(
        [sys.executable, "-c", PEAK, *map(str, args)], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT, env={**ENV, **env}
    )
    *lines, last = run.stderr.splitlines()
    return subprocess.CompletedProcess(run.args, run.returncode, run.stdout, "".join(line + "\n" for line in lines)), int(last) * 1024


@pytest.mark.parametrize(("name", "retriever"), [("bomb.jsonl.gz", "ZeroRetriever"), ("bomb.jsonl.gz", "RandomRetriever"), ("bomb.json.gz", "ZeroRetriever")])
def test_a_gzip_bomb_stops_at_the_limit_without_reading_the_line(tmp_path: Path, name: str, retriever: str) -> None:
    """A small .gz whose second row inflates to 64 MiB on one line: with a 1 MiB limit the run stops naming the file,
    the line and the limit, and its memory grows by far less than the line (it is never read whole)."""
    write_bomb(tmp_path / name, document=name.startswith("bomb.json."))
    assert (tmp_path / name).stat().st_size < 2**20
    write_rows(tmp_path / "small.jsonl", [{"question": "ok", "answer": "A"}, {"question": "fine", "answer": "B"}])
    config = write_config(tmp_path, retriever=retriever)
    env = {"PROMPTKIT_MAX_RECORD_BYTES": "1M"}
    baseline, baseline_peak = peak(tmp_path, "render", config, "--rows", "small.jsonl", "--out", "out.jsonl", env=env)
    assert baseline.returncode == 0, baseline.stderr
    run, bomb_peak = peak(tmp_path, "render", config, "--rows", name, "--out", "out.jsonl", env=env)
    what, line = ("the row", 2) if name == "bomb.json.gz" else ("the line", 2)
    where = f"file {tmp_path / name}, line {line}" + (", row 1" if retriever == "ZeroRetriever" else "")
    assert_one_line_error(run, f"config {config}, dataset 'qa', {where}: {what} is longer than 1,048,576 bytes once decompressed, the most {LIMIT}")
    assert bomb_peak - baseline_peak < BOMB_LINE // 4


#: file -> where its long row is met when it is streamed (ZeroRetriever), read whole (RandomRetriever), read by
#: position (--indices: the JSON Lines line index is built, and stops at the line).
PLACES = {
    "long.jsonl": ("line 2, row 1: the line", "line 2: the line", "line 2: the line"),
    "long.csv": ("line 3: the line", "line 3: the line", "line 3: the line"),
    "long.json": ("line 6, row 1: the row", "line 6, row 1: the row", "line 6, row 1: the row"),
}


@pytest.mark.parametrize("name", sorted(PLACES))
def test_the_limit_applies_to_plain_files_and_the_line_index(tmp_path: Path, name: str) -> None:
    """Uncompressed files have the same bound: streamed, read whole, and through the line index (``--indices``)."""
    rows = [{"question": "ok", "answer": "A"}, {"question": "x" * 3000, "answer": "B"}]
    if name.endswith(".csv"):
        (tmp_path / name).write_text("question,answer\n" + "".join(f"{row['question']},{row['answer']}\n" for row in rows))
    elif name.endswith(".json"):
        (tmp_path / name).write_text(json.dumps(rows, indent=1))
    else:
        write_rows(tmp_path / name, rows)
    env = {"PROMPTKIT_MAX_RECORD_BYTES": "1000", "PROMPTKIT_CACHE_DIR": str(tmp_path / "cache")}
    ways = (("ZeroRetriever", ()), ("RandomRetriever", ()), ("ZeroRetriever", ("--indices", "0")))
    for (retriever, args), place in zip(ways, PLACES[name], strict=True):
        config = write_config(tmp_path, retriever=retriever)
        assert_one_line_error(
            cli(tmp_path, "render", config, "--rows", name, "--out", "out.jsonl", *args, env=env),
            f"config {config}, dataset 'qa', file {tmp_path / name}, {place} is longer than 1,000 bytes, the most {LIMIT}",
        )
    assert not (tmp_path / "out.jsonl").exists()
    assert list((tmp_path / "cache").rglob("*.tmp")) == []  # the line index stopped leaves no partial index


def test_a_line_at_the_limit_is_read(tmp_path: Path) -> None:
    """The limit is inclusive: a line of exactly the limit's bytes (its line break not counted) renders."""
    line = json.dumps({"question": "q", "answer": "A"})
    (tmp_path / "rows.jsonl").write_text(line + "\n")
    run = cli(tmp_path, "render", write_config(tmp_path), "--rows", "rows.jsonl", env={"PROMPTKIT_MAX_RECORD_BYTES": str(len(line))})
    assert (run.returncode, run.stderr, json.loads(run.stdout)["prompt"]) == (0, "", "Q: q")


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5G"])
def test_a_limit_that_is_not_a_size_is_one_line(tmp_path: Path, value: str) -> None:
    """PROMPTKIT_MAX_RECORD_BYTES must be a positive number of bytes, with an optional K, M or G."""
    write_rows(tmp_path / "rows.jsonl", [{"question": "q", "answer": "A"}])
    config = write_config(tmp_path)
    assert_one_line_error(
        cli(tmp_path, "render", config, env={"PROMPTKIT_MAX_RECORD_BYTES": value}),
        f"config {config}, dataset 'qa', key 'PROMPTKIT_MAX_RECORD_BYTES': PROMPTKIT_MAX_RECORD_BYTES={value!r} is not a size: "
        "give a positive number of bytes, e.g. 268435456 or 256M",
    )


# -- more workers than there is work --------------------------------------------------------------------------------


def test_a_hundred_thousand_workers_on_two_rows_render_at_once(tmp_path: Path) -> None:
    """``--workers 100000`` on a 2-row file: the output of one worker, and a note that says what was used and why."""
    from promptkit.render.parallel import available_cpus

    write_rows(tmp_path / "rows.jsonl", [{"question": "q0", "answer": "A"}, {"question": "q1", "answer": "B"}])
    config = write_config(tmp_path)
    one = cli(tmp_path, "render", config)
    assert (one.returncode, one.stderr) == (0, "")
    many = cli(tmp_path, "render", config, "--workers", "100000")
    cpus = " this process may run on 1 CPU and" if available_cpus() == 1 else ""
    assert (many.returncode, many.stdout, many.stderr) == (
        0,
        one.stdout,
        f"promptkit: warning: dataset 'qa': workers=100,000: rendering in this process, as{cpus} 2 test rows make 1 chunk of up to 512 rows\n",
    )
