"""render_parallel and `promptkit render --workers N`: the same bytes as one worker, in order; a worker's error names the row."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import promptkit.parallel as parallel
from promptkit import (
    ConfigError,
    PromptkitError,
    Renderer,
    build_dataset,
    build_model,
    load_datasets,
    load_models,
    load_replies,
    render_parallel,
)
from promptkit.cli.main import main

ROOT = Path(__file__).parents[1]
# TopK embeds its pool for each renderer built (seconds); the shots it picks reach the workers as every retriever's do.
DATASET_CONFIGS = sorted(p for p in (ROOT / "configs" / "datasets").glob("*/*.py") if "common" not in p.name and "topk" not in p.name)
MODELS = [*load_models(ROOT / "configs" / "models" / "llama3_8b_instruct.py"), *load_models(ROOT / "configs" / "models" / "gpt_4o_api.py")]


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Chunks of 3 rows, so that every test split spans several chunks and workers; the cache in the test's folder."""
    monkeypatch.setattr(parallel, "CHUNK_ROWS", 3)
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
