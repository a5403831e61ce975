"""promptkit.integrations.ray on a local Ray instance: records identical to one process's, in order; worker errors; LLM preprocess.

One Ray instance serves the module (``ray.init(num_cpus=2)``, no dashboard): starting it costs seconds, each dataset
a few more. Ray keeps the order because render_dataset sets ``preserve_order`` on the dataset it returns.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import warnings
from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, MissingDependencyError, Renderer, build_dataset, build_model, load_datasets, load_models
from promptkit.integrations.ray import Preprocess, records, render_dataset, rows_dataset, sampling_params

ray = pytest.importorskip("ray")
col = pytest.importorskip("ray.data.expressions").col

ROOT = Path(__file__).parents[2]
ROWS = 10_000


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """A local Ray instance on two CPUs for the module's tests."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    with warnings.catch_warnings():
        # Ray 2.60 warns about its own default (use_push_based_shuffle) while building its DataContext, once per process.
        warnings.simplefilter("ignore", DeprecationWarning)
        ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


def lines(renderer: Renderer) -> list[str]:
    """What `promptkit render` writes for the renderer, one JSON line per record (one process)."""
    return [json.dumps(prompt.to_record(), ensure_ascii=False) for prompt in renderer]


def write_jsonl(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def few_shot(tmp_path: Path, rows: int, template: str = "PromptTemplate", prompt: str = "Q: {question}") -> dict:
    """A dataset config of ``rows`` generated test rows (varied columns and values) and two fixed shots from a pool."""
    test = [
        {"question": f"question {i} {'ü' * (i % 3)}", "answer": ["A", "B", "C"][i % 3], "subject": f"s{i % 7}", **({"extra": [i, None]} if i % 5 == 0 else {})}
        for i in range(rows)
    ]
    pool = [{"question": f"shot {i}", "answer": "A"} for i in range(5)]
    return dict(
        abbr="generated",
        type="JsonlDataset",
        path=dict(train=write_jsonl(tmp_path / "train.jsonl", pool), test=write_jsonl(tmp_path / "test.jsonl", test)),
        reader_cfg=dict(input_columns=["question"], output_column="answer"),
        infer_cfg=dict(
            ice_template=dict(type=template, template=dict(round=[dict(role="HUMAN", prompt=prompt), dict(role="BOT", prompt="A: {answer}")])),
            prompt_template=dict(
                type=template,
                template=dict(begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Answer."), "</E>"], round=[dict(role="HUMAN", prompt=prompt), dict(role="BOT", prompt="A: {answer}")]),
                ice_token="</E>",
            ),
            retriever=dict(type="FixKRetriever", fix_id_list=[3, 1]),
            inferencer=dict(type="GenInferencer"),
        ),
    )


def ray_lines(renderer: Renderer, dataset=None) -> list[str]:
    rows = dataset if dataset is not None else rows_dataset(renderer)
    return [json.dumps(record, ensure_ascii=False) for record in records(render_dataset(rows, renderer))]


@pytest.mark.parametrize("model_config", ["llama3_8b_instruct.py", "chat_template/qwen2_5_7b_instruct.py"])
def test_ten_thousand_rows_render_as_in_one_process_in_order(tmp_path: Path, model_config: str):
    """10,000 few-shot rows rendered on Ray (chat messages; a chat template's string) are the lines one process writes, in order."""
    renderer = Renderer(build_dataset(few_shot(tmp_path, ROWS)), load_models(ROOT / "configs" / "models" / model_config)[0])
    expected = lines(renderer)
    assert len(expected) == ROWS
    assert ray_lines(renderer) == expected


@pytest.mark.parametrize(
    ("dataset_config", "model_config"),
    [
        ("arc_demo/arc_demo_few_shot_ppl.py", "base_model.py"),  # ppl: one record per label
        ("trivia_demo/trivia_demo_bm25_gen.py", "gemma2_2b_it.py"),  # shots retrieved per row, on the driver
        ("jinja_mcq_demo/jinja_mcq_demo_gen.py", "gpt_4o_api.py"),  # Jinja templates compiled again in the workers
        ("adapter_demo/adapter_demo_gen.py", "mistral_7b_instruct_v0_3.py"),  # a function defined in the config
    ],
)
def test_bundled_configs_render_on_ray_as_in_one_process(dataset_config: str, model_config: str):
    """Bundled configs of other shapes give, on Ray, the records one process gives."""
    spec = load_datasets(ROOT / "configs" / "datasets" / dataset_config)[0]
    renderer = Renderer(spec, load_models(ROOT / "configs" / "models" / model_config)[0])
    assert ray_lines(renderer) == lines(renderer)


def test_filtered_rows_keep_their_index_and_shots(tmp_path: Path):
    """Rows filtered on Ray keep their test-split index: their records are those rows' records from one process."""
    renderer = Renderer(build_dataset(few_shot(tmp_path, 50)))
    kept = rows_dataset(renderer).filter(expr=(col("index") >= 10) & (col("index") < 23))
    assert ray_lines(renderer, kept) == [line for line in lines(renderer) if 10 <= json.loads(line)["index"] < 23]


def test_a_bad_row_in_a_worker_names_the_worker_and_the_row(tmp_path: Path):
    """A row a worker refuses raises, from records(), the PromptkitError naming the worker and the row, and what to do."""
    model = build_model(dict(type="CompletionModel", abbr="strict", special_token_policy="error", extra_control_tokens=["<|bad|>"]))
    config = few_shot(tmp_path, 300)
    renderer = Renderer(build_dataset(config), model)
    rows = rows_dataset(renderer).map(lambda row: {**row, "question": "forged <|bad|>"} if row["index"] == 170 else row)
    seen = []
    with pytest.raises(DatasetError) as caught:
        for record in records(render_dataset(rows, renderer, batch_size=50)):
            seen.append(record["index"])
    assert re.fullmatch(
        r"dataset 'generated', model 'strict', worker \S+ pid \d+, row 170, key 'question': column 'question' holds '<\|bad\|>', a control "
        r"token of model 'strict': row text could forge a turn with it; special_token_policy='error' refuses it \(remove it from the "
        r"data, or set special_token_policy='escape' to break the token with U\+200B\)",
        str(caught.value),
    ), str(caught.value)
    assert seen == list(range(len(seen))) and len(seen) <= 170  # the rows before it, in order
    with pytest.raises(DatasetError):  # read without records(): Ray's RayTaskError, also an instance of promptkit's class
        render_dataset(rows, renderer, batch_size=50).take_all()


def test_rows_without_the_index_column_are_refused(tmp_path: Path):
    """Rows without their test-split index raise a ConfigError that says how to add it."""
    renderer = Renderer(build_dataset(few_shot(tmp_path, 4)))
    with pytest.raises(ConfigError, match=r"a row has no column 'index': each row needs its index in the test split \(build the dataset with rows_dataset"):
        list(records(render_dataset(ray.data.from_items([{"question": "q", "answer": "A"}]), renderer)))


def test_test_rows_with_an_index_column_need_another_name(tmp_path: Path):
    """rows_dataset refuses to overwrite a test row's own 'index' column and names the way out."""
    renderer = Renderer(build_dataset({**few_shot(tmp_path, 3), "path": write_jsonl(tmp_path / "t.jsonl", [{"question": "q", "answer": "A", "index": 9}])}))
    with pytest.raises(ConfigError) as caught:
        rows_dataset(renderer)
    assert caught.value.message == "the test rows already have a column 'index'; pass another index_column to rows_dataset and render_dataset"


def test_preprocess_gives_what_the_llm_processor_stages_read(tmp_path: Path):
    """Preprocess, mapped over rows as build_processor maps it, gives messages (chat) or prompt (string), sampling_params and the record.

    Ray's ChatTemplateStage requires ``messages``; its vLLMEngineStage ``sampling_params`` and ``prompt`` (or tokens).
    """
    spec = build_dataset(few_shot(tmp_path, 20))
    for model_config, key in [("gpt_4o_api.py", "messages"), ("llama3_8b_instruct.py", "prompt")]:
        renderer = Renderer(spec, load_models(ROOT / "configs" / "models" / model_config)[0])
        mapped = rows_dataset(renderer).map(Preprocess(renderer, overrides={"temperature": 0.0})).take_all()
        rows = sorted(mapped, key=lambda row: json.loads(row["record"])["index"])  # the processor's order is Ray's
        expected = [prompt.to_record() for prompt in renderer]
        assert [sorted(row) for row in rows] == [sorted([key, "sampling_params", "record"])] * 20
        assert [json.loads(row["record"]) for row in rows] == expected
        assert [row[key] for row in rows] == [record["prompt"] for record in expected]
        # The record's request block (max_tokens from the model config's max_out_len, …) under the overrides.
        assert rows[0]["sampling_params"] == {**sampling_params(expected[0]), "temperature": 0.0}
        assert rows[0]["sampling_params"]["max_tokens"] == expected[0]["request"]["max_tokens"] > 0


def test_preprocess_applies_the_chat_template_kwargs_itself(tmp_path: Path):
    """A chat template model's chat_template_kwargs (enable_thinking) shape the prompt Preprocess gives, as in one process."""
    template = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{% if not enable_thinking %}<no-think>{% endif %}"
    spec = build_dataset(few_shot(tmp_path, 2))
    for thinking in (False, True):
        model = build_model(dict(type="ChatTemplateModel", abbr="thinker", chat_template=template, chat_template_kwargs=dict(enable_thinking=thinking)))
        renderer = Renderer(spec, model)
        prompt = rows_dataset(renderer).map(Preprocess(renderer)).take(1)[0]["prompt"]
        assert prompt == renderer.render(0)[0].prompt
        assert prompt.endswith("<user>Q: question 0 \n<no-think>") is not thinking


def test_preprocess_refuses_several_prompts_per_row():
    """The LLM processor takes one generation prompt per row: a ppl dataset is sent to render_dataset."""
    renderer = Renderer(load_datasets(ROOT / "configs" / "datasets" / "arc_demo" / "arc_demo_few_shot_ppl.py")[0])
    with pytest.raises(ConfigError) as caught:
        Preprocess(renderer)
    assert str(caught.value) == "dataset 'arc_demo_3shot_ppl': the LLM processor generates one reply per row; this dataset renders 'ppl' prompts, several per row: use render_dataset"


def test_without_ray_the_error_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Without ray installed, the integration says which extra to install."""
    monkeypatch.setitem(sys.modules, "ray.data", None)
    renderer = Renderer(build_dataset(few_shot(tmp_path, 2)))
    with pytest.raises(MissingDependencyError) as caught:
        rows_dataset(renderer)
    assert str(caught.value) == (
        "promptkit.integrations.ray needs the optional package 'ray.data', which is not installed; install it with pip install 'promptkit[ray]'"
    )


def test_the_local_instance_example_in_the_docs_runs(monkeypatch: pytest.MonkeyPatch):
    """docs/ray.md's local-instance block runs from the repository root (on this module's Ray instance) and its assertion holds."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "ray.md").read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(ray, "init", lambda *args, **kwargs: None)  # the instance is already up
    exec(compile(blocks[0], "docs/ray.md", "exec"), {})
