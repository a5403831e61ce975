"""Progress: bars on a terminal's stderr (loading, indexing, rendering), --quiet, and the library's callback."""

from __future__ import annotations

import inspect
import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import promptkit
from promptkit import Renderer
from promptkit.cli.progress import TerminalProgress
from promptkit.data.progress import Progress, reporting, task, tracked
from promptkit.frontends.opencompass.loader import build_dataset
from promptkit.retrievers.embedding import embed_texts

ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1]), "COLUMNS": "160", "TERM": "xterm"}
DATASET = """
datasets = [dict(abbr='qa', type='JsonlDataset', path='rows.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(ice_template=dict(type='PromptTemplate', template='Q: {question}\\nA: {answer}'),
                   prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\\nA:', ice_token='</E>'),
                   retriever=dict(type='BM25Retriever', ice_num=1), inferencer=dict(type='GenInferencer')))]
"""


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

    def tasks(self) -> list[str]:
        return [event[1] for event in self.events if event[0] == "start"]


@pytest.fixture
def config(tmp_path: Path) -> Path:
    rows = [{"question": f"what is {i} plus {i}", "answer": str(2 * i)} for i in range(40)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    (tmp_path / "ds.py").write_text(DATASET)
    return tmp_path / "ds.py"


def run(args: list[str], cwd: Path, stderr_on_pty: bool = True) -> tuple[int, str]:
    """Run the CLI with stdout to a file and stderr on a pseudo-terminal (or a pipe); its exit status and stderr."""
    with (cwd / "stdout.txt").open("wb") as stdout:
        if not stderr_on_pty:
            done = subprocess.run([sys.executable, "-m", "promptkit", *args], cwd=cwd, env=ENV, stdout=stdout, stderr=subprocess.PIPE, timeout=120)
            return done.returncode, done.stderr.decode()
        controller, terminal = pty.openpty()
        process = subprocess.Popen([sys.executable, "-m", "promptkit", *args], cwd=cwd, env=ENV, stdout=stdout, stderr=terminal, stdin=subprocess.DEVNULL)
        os.close(terminal)
        seen = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        os.close(controller)
        return process.wait(timeout=120), seen.decode(errors="replace")


def test_render_to_a_file_shows_loading_indexing_and_rendering_on_a_terminal(config: Path):
    """With stderr on a terminal, render --out draws a bar per stage with its count, rate and time left."""
    status, stderr = run(["render", str(config), "--out", "out.jsonl"], config.parent)
    assert status == 0
    for text in ("reading rows.jsonl", "indexing the pool (BM25)", "picking shots (BM25)", "rendering qa", "40/40 rows", "rows/s", "eta"):
        assert text in stderr
    assert len((config.parent / "out.jsonl").read_text().splitlines()) == 40


def test_render_to_a_pipe_shows_progress_on_a_terminal_stderr(config: Path):
    """stdout may be a pipe (here a file): the bars still go to the terminal on stderr, and stdout holds only records."""
    status, stderr = run(["render", str(config)], config.parent)
    assert status == 0
    assert "rendering qa" in stderr
    assert all(json.loads(line)["dataset"] == "qa" for line in (config.parent / "stdout.txt").read_text().splitlines())


def test_quiet_silences_progress_but_not_warnings(config: Path):
    """--quiet draws no bar; the leakage guard's warning is still shown."""
    status, stderr = run(["render", str(config), "--out", "out.jsonl", "--quiet"], config.parent)
    assert status == 0
    assert "rendering" not in stderr and "rows/s" not in stderr
    assert "promptkit: warning: BM25Retriever: leakage guard dropped 40 candidate shot(s) for 40 test row(s)" in stderr


def test_no_progress_when_stderr_is_not_a_terminal(config: Path):
    """With stderr a pipe, nothing but the warnings is written to it."""
    status, stderr = run(["render", str(config), "--out", "out.jsonl"], config.parent, stderr_on_pty=False)
    assert status == 0
    assert [line.split(":")[1] for line in stderr.splitlines()] == [" warning"]


def test_renderer_reports_loading_indexing_and_rendering_to_its_callback(config: Path):
    """Renderer(progress=...) reports each stage as a task, opened and done in order; rendering counts every row."""
    recorder = Recorder()
    dataset = build_dataset(
        dict(
            abbr="qa",
            type="JsonlDataset",
            path=str(config.parent / "rows.jsonl"),
            reader_cfg=dict(input_columns=["question"], output_column="answer"),
            infer_cfg=dict(
                ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
                prompt_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA:", ice_token="</E>"),
                retriever=dict(type="BM25Retriever", ice_num=1, leakage_guard=False),
                inferencer=dict(type="GenInferencer"),
            ),
        )
    )
    prompts = list(Renderer(dataset, progress=recorder))
    assert len(prompts) == 40
    assert recorder.tasks() == ["reading rows.jsonl", "indexing the pool (BM25)", "picking shots (BM25)", "rendering qa"]
    rendering = recorder.events[recorder.events.index(("start", "rendering qa", 40, "rows")) :]
    assert rendering == [("start", "rendering qa", 40, "rows"), *[("advance", 1)] * 40, ("done",)]
    assert sum(1 for event in recorder.events if event[0] == "start") == sum(1 for event in recorder.events if event == ("done",))


def test_no_receiver_no_reports():
    """Without a receiver a task reports nowhere, and a Renderer's default is no receiver."""
    with task("nothing", 3) as advance:
        advance(3)
    assert list(tracked(range(3), "nothing", 3)) == [0, 1, 2]
    assert inspect.signature(Renderer).parameters["progress"].default is None


def test_embedding_is_reported_as_texts(tmp_path: Path):
    """embed_texts reports the texts it embeds to the current receiver; a failing task is still done."""
    recorder = Recorder()
    with reporting(recorder):
        embed_texts(lambda texts: [[1.0, float(len(text))] for text in texts], ["a", "bb", "ccc"])
    assert recorder.events == [("start", "embedding 3 texts", 3, "texts"), ("advance", 3), ("done",)]
    with reporting(recorder), pytest.raises(ZeroDivisionError), task("failing", 2):
        raise ZeroDivisionError
    assert recorder.events[-2:] == [("start", "failing", 2, "rows"), ("done",)]


def test_tracked_reports_in_chunks_and_the_rest():
    """tracked() advances every `every` items, then by what is left."""
    recorder = Recorder()
    assert list(tracked(range(7), "counting", 7, every=3, progress=recorder)) == list(range(7))
    assert recorder.events == [("start", "counting", 7, "rows"), ("advance", 3), ("advance", 3), ("advance", 1), ("done",)]


def test_terminal_progress_is_a_progress_and_draws_nested_tasks():
    """The CLI's receiver implements the protocol; nested tasks each get a line with count and rate."""
    from rich.console import Console

    console = Console(record=True, width=160, force_terminal=False)
    bars = TerminalProgress(console)
    assert isinstance(bars, Progress)
    bars.start("outer", 2)
    bars.start("reading x.jsonl", 2048, "bytes")
    bars.advance(2048)
    bars.done()
    bars.advance(2)
    bars.done()
    text = console.export_text()
    assert "outer" in text and "2/2 rows" in text and "reading x.jsonl" in text and "2.0 kB/2.0 kB" in text
