"""Bounded input: data files that are not regular files, records over the size limit, more workers than there is work.

Each case runs the CLI in a subprocess with a timeout, so a regression (a FIFO that blocks, a line read without end,
a hundred thousand worker processes) fails the test instead of hanging the suite.
"""

from __future__ import annotations

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
