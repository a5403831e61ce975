"""render_parallel and `promptkit render --workers N`: the same bytes as one worker, in order; a worker's error names the row."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import promptkit.render.parallel as parallel
from promptkit import (
    ConfigError,
    DatasetSpec,
    PromptkitError,
    RenderedPrompt,
    Renderer,
    build_dataset,
    build_model,
    load_datasets,
    load_models,
    load_replies,
    render_parallel,
)
from promptkit.cli.main import main
from promptkit.render.parallel import json_lines

ROOT = Path(__file__).parents[1]
# TopK embeds its pool for each renderer built (seconds); the shots it picks reach the workers as every retriever's do.
DATASET_CONFIGS = sorted(p for p in (ROOT / "configs" / "datasets").glob("*/*.py") if "common" not in p.name and "topk" not in p.name)
MODELS = [*load_models(ROOT / "configs" / "models" / "llama3_8b_instruct.py"), *load_models(ROOT / "configs" / "models" / "gpt_4o_api.py")]


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Chunks of 3 rows, so that every test split spans several chunks and workers, on 8 CPUs whatever the machine
    has (workers are capped at the CPUs); the cache in the test's folder."""
    monkeypatch.setattr(parallel, "CHUNK_ROWS", 3)
    monkeypatch.setattr(parallel, "available_cpus", lambda: 8)
    monkeypatch.setenv("PROMPTKIT_CACHE_DIR", str(tmp_path / "cache"))


def outcome(renderer: Renderer, workers: int) -> str:
    """The lines rendered, or the error's text (what the CLI prints)."""
    try:
        return "".join(render_parallel(renderer, workers))
    except PromptkitError as error:
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("dataset_config", DATASET_CONFIGS, ids=lambda p: p.stem)
def test_two_workers_give_the_bytes_of_one(dataset_config: Path) -> None:
    """Every bundled config (gen, ppl, multi-turn, few-shot, multimodal) × a completion and a chat model: 2 workers = 1, errors too."""
    replies_path = dataset_config.parent / "data" / "replies.jsonl"
    replies = load_replies(replies_path) if replies_path.exists() else None
    for model in MODELS:
        for spec in load_datasets(dataset_config):
            one = outcome(Renderer(spec, model, replies=replies), 1)
            assert outcome(Renderer(spec, model, replies=replies), 2) == one


ROWS = st.lists(
    st.fixed_dictionaries({"question": st.text(max_size=8), "answer": st.sampled_from(["A", "B", "C"])}), min_size=6, max_size=30
)


@settings(max_examples=15, deadline=None)
@given(rows=ROWS, workers=st.integers(2, 3), shots=st.sampled_from([None, [0, 1], [4, 2, 0]]), ppl=st.booleans())
def test_any_rows_render_the_same_on_workers(rows: list[dict[str, str]], workers: int, shots: list[int] | None, ppl: bool) -> None:
    """Random rows, zero- or few-shot, gen or ppl: the workers' lines are one worker's."""
    infer_cfg: dict[str, object] = dict(
        prompt_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="PPLInferencer", labels=["A", "B"]) if ppl else dict(type="GenInferencer"),
    )
    if shots:
        infer_cfg["ice_template"] = dict(type="PromptTemplate", template="Q: {question}\nA: {answer}\n")
        infer_cfg["prompt_template"] = dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>")
        infer_cfg["retriever"] = dict(type="FixKRetriever", fix_id_list=shots)
    spec = build_dataset(
        dict(abbr="qa", type="RowsDataset", rows=rows, reader_cfg=dict(input_columns=["question"], output_column="answer"), infer_cfg=infer_cfg)
    )
    assert "".join(render_parallel(Renderer(spec), workers)) == "".join(render_parallel(Renderer(spec), 1))


def test_a_workers_error_names_the_row() -> None:
    """A row refused in a worker (a control token under special_token_policy='error'): the same one-line error as one worker."""
    rows = [{"question": f"q{i}", "answer": "A"} for i in range(10)]
    rows[7]["question"] = "q7 <|eot_id|>"
    spec = build_dataset(
        dict(
            abbr="qa",
            type="RowsDataset",
            rows=rows,
            reader_cfg=dict(input_columns=["question"], output_column="answer"),
            infer_cfg=dict(
                prompt_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}")])),
                retriever=dict(type="ZeroRetriever"),
                inferencer=dict(type="GenInferencer"),
            ),
        )
    )
    model = build_model(
        dict(
            abbr="llama",
            type="CompletionModel",
            special_token_policy="error",
            meta_template=dict(round=[dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>")]),
        )
    )
    with pytest.raises(PromptkitError) as one:
        "".join(render_parallel(Renderer(spec, model), 1))
    with pytest.raises(PromptkitError) as two:
        "".join(render_parallel(Renderer(spec, model), 2))
    assert type(two.value) is type(one.value)
    assert str(two.value) == str(one.value)
    assert "row 7" in str(two.value)


@pytest.mark.parametrize(
    ("workers", "rows", "cpus", "used", "note"),
    [
        (2, 10, 8, 2, None),
        (100_000, 10, 8, 4, "workers=100,000: rendering with 4 worker processes, as 10 test rows make 4 chunks of up to 3 rows"),
        (100_000, 10_000, 2, 2, "workers=100,000: rendering with 2 worker processes, as this process may run on 2 CPUs"),
        (3, 2, 1, 1, "workers=3: rendering in this process, as this process may run on 1 CPU and 2 test rows make 1 chunk of up to 3 rows"),
        (4, None, 2, 2, "workers=4: rendering with 2 worker processes, as this process may run on 2 CPUs"),
        (4, 0, 8, 1, "workers=4: rendering in this process, as 0 test rows make 0 chunks of up to 3 rows"),
    ],
)
def test_workers_are_capped_at_the_cpus_and_the_chunks(
    monkeypatch: pytest.MonkeyPatch, workers: int, rows: int | None, cpus: int, used: int, note: str | None
) -> None:
    """No more worker processes than CPUs this process may run on, or than chunks of rows (when their count is known)."""
    monkeypatch.setattr(parallel, "available_cpus", lambda: cpus)
    assert parallel.worker_count(workers, rows) == (used, note)


def test_capped_workers_render_the_same_and_say_so(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """100,000 workers asked for 10 rows: 4 processes (one per chunk), the bytes of one worker, one warning."""
    one = "".join(render_parallel(Renderer(qa_spec()), 1))
    assert "".join(render_parallel(Renderer(qa_spec()), 100_000)) == one
    assert [record.getMessage() for record in caplog.records] == [
        "dataset 'qa': workers=100,000: rendering with 4 worker processes, as 10 test rows make 4 chunks of up to 3 rows"
    ]


def test_workers_must_be_positive() -> None:
    """workers=0 is a ConfigError; `--workers 0` is argparse's exit 2."""
    spec = build_dataset(dict(abbr="qa", type="RowsDataset", rows=[{"q": "x"}], reader_cfg=dict(input_columns=["q"]),
                              infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{q}"), retriever=dict(type="ZeroRetriever"),
                                             inferencer=dict(type="GenInferencer"))))
    with pytest.raises(ConfigError, match=r"^key 'workers': workers must be a positive number of processes \(got 0\)$"):
        list(render_parallel(Renderer(spec), 0))
    stderr = io.StringIO()
    with redirect_stderr(stderr), pytest.raises(SystemExit) as exit_:
        main(["render", "x.py", "--workers", "0"])
    assert exit_.value.code == 2
    assert "argument --workers: expected at least 1, got 0" in stderr.getvalue()


def test_cli_workers_write_the_same_file(tmp_path: Path) -> None:
    """`--workers 2 --out` writes the bytes of `--workers 1`, --spans included, for a streamed JSON Lines file."""
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps({"question": f"q{i}", "answer": "AB"[i % 2]}) + "\n" for i in range(40)))
    config = tmp_path / "qa.py"
    config.write_text(
        "datasets = [dict(abbr='qa', type='JsonlDataset', path='rows.jsonl', "
        "reader_cfg=dict(input_columns=['question'], output_column='answer'), "
        "infer_cfg=dict(ice_template=dict(type='PromptTemplate', template='Q: {question}\\nA: {answer}\\n'), "
        "prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\\nA: {answer}', ice_token='</E>'), "
        "retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]), inferencer=dict(type='GenInferencer')))]\n"
    )
    for workers in ("1", "2"):
        with redirect_stdout(io.StringIO()):
            assert main(["render", str(config), "--spans", "--workers", workers, "--out", str(tmp_path / f"{workers}.jsonl")]) == 0
    assert (tmp_path / "2.jsonl").read_bytes() == (tmp_path / "1.jsonl").read_bytes()
    assert len((tmp_path / "1.jsonl").read_text().splitlines()) == 40


FEW_CONFIGS = [ROOT / "configs" / "datasets" / name for name in (
    "mmlu_demo/mmlu_demo_gen.py",  # few-shot chat
    "mmlu_demo/mmlu_demo_ppl.py",  # ppl labels
    "adapter_demo/adapter_demo_gen.py",  # a function defined in the config file (it travels by value)
)]


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
@pytest.mark.parametrize("dataset_config", FEW_CONFIGS, ids=lambda p: p.stem)
def test_workers_started_fresh_give_the_bytes_of_one(dataset_config: Path, method: str) -> None:
    """Workers that unpickle the renderer (forkserver, spawn) write what one worker writes."""
    for model in MODELS:
        for spec in load_datasets(dataset_config):
            one = outcome(Renderer(spec, model), 1)
            assert "".join(render_parallel(Renderer(spec, model), 2, method=method)) == one


def qa_spec(count: int = 10) -> DatasetSpec:
    rows = [{"question": f"q{i}", "answer": "A"} for i in range(count)]
    return build_dataset(dict(abbr="qa", type="RowsDataset", rows=rows, reader_cfg=dict(input_columns=["question"], output_column="answer"),
                              infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="Q: {question}"),
                                             retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))


def test_with_another_thread_running_the_workers_start_fresh() -> None:
    """A thread running here (a fork could inherit its locks held): the workers start fresh, so what they run must
    pickle; what does not is a ConfigError saying why, and what does gives the bytes of one worker."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        lock = threading.Lock()

        def holds_a_lock(prompts: Sequence[RenderedPrompt]) -> str:
            with lock:
                return json_lines(prompts)

        with pytest.raises(ConfigError) as error:
            list(render_parallel(Renderer(qa_spec()), 2, encode=holds_a_lock))
        assert str(error.value).startswith(
            "key 'workers': this process runs other threads, so the workers start fresh (forkserver) and need the renderer "
            "and encode to pickle, which they do not: "
        )
        assert str(error.value).endswith("; render with one worker, or from a process with no other thread running")
        assert "".join(render_parallel(Renderer(qa_spec()), 2)) == "".join(render_parallel(Renderer(qa_spec()), 1))
    finally:
        stop.set()
        other.join()


def test_an_unknown_start_method_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"^key 'method': no start method 'thread' on this platform \(it has: .*fork"):
        list(render_parallel(Renderer(qa_spec()), 2, method="thread"))


# Run in a fresh interpreter (one thread, so `fork` is the automatic choice): the fork path, and workers that die.
FRESH_PROCESS = """
import os, sys
from promptkit import Renderer, RowsDataset, build_dataset, render_parallel
from promptkit.render import parallel
from promptkit.render.parallel import json_lines, start_method

parallel.available_cpus = lambda: 8  # the workers asked for, whatever CPUs the machine has
rows = [{"question": f"q{i}", "answer": "A"} for i in range(2000)]
spec = build_dataset(dict(abbr="qa", type="RowsDataset", rows=rows, reader_cfg=dict(input_columns=["question"], output_column="answer"),
                          infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="Q: {question}"),
                                         retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))

def dies_at_row_1500(prompts):
    if prompts[0].index == 1500:
        os._exit(3)
    return json_lines(prompts)

if __name__ == "__main__":  # workers that start fresh import this file (multiprocessing's idiom)
    one = "".join(render_parallel(Renderer(spec), 1))
    print(start_method(), "".join(render_parallel(Renderer(spec), 2)) == one, "".join(render_parallel(Renderer(spec), 3, method="fork")) == one)
    for method in ("fork", "forkserver"):
        written = []
        try:
            for lines in render_parallel(Renderer(spec), 2, encode=dies_at_row_1500, method=method):
                written.append(lines)
        except Exception as error:
            print(method, len("".join(written).splitlines()), type(error).__name__, error)
"""


def test_in_a_fresh_process_workers_fork_and_a_dead_worker_is_an_error(tmp_path: Path) -> None:
    """In a process with one thread the workers fork (same bytes); a worker that dies is an error naming its rows, with
    either start method, not a wait."""
    script = tmp_path / "fresh.py"
    script.write_text(FRESH_PROCESS)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0] == "fork True True"
    for method, line in zip(("fork", "forkserver"), lines[1:], strict=True):
        # The rows before the chunks in flight when row 1500's worker died were written; the error names the others.
        written, rest = line.removeprefix(f"{method} ").split(" ", 1)
        assert int(written) in (0, 512, 1024)  # whole chunks, none from row 1500's (1024-1535) on
        assert rest == (
            f"PromptkitError a worker process ended abruptly while rows {written}-1999 were being rendered (killed, out "
            "of memory, or a crash in native code); render them with --workers 1 to see what happens there"
        )
