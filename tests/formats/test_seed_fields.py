"""Every field the seed formats define reaches what a runner reads: the record's id, request, ``sample`` block, prompt.

Each test reads a file written in its seed's own example shape (the scenario samples of seed 000 §1.6, the task of
seed 001, the examples and the folder layout of seed 003), with the one field under test added where the seed's
examples lack it.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, PromptkitError, Renderer, build_dataset, build_model, load_models, validate_file
from promptkit.cli.main import main
from promptkit.messages import to_openai

MODELS = Path(__file__).parents[2] / "configs" / "models"
LLAMA3, GPT4O, QWEN3 = MODELS / "llama3_8b_instruct.py", MODELS / "gpt_4o_api.py", MODELS / "chat_template" / "qwen3_0_6b.py"
SEEDS = Path(__file__).parent / "seed_examples"


def seed(name: str) -> list[dict]:
    return [json.loads(line) for line in (SEEDS / name).read_text(encoding="utf-8").splitlines()]


SAMPLES = {e["example"]["id"]: e["example"] for e in seed("seed_000.jsonl") if "schema_version" in e["example"]}
TASK = seed("seed_001.jsonl")[0]["example"]
XPERT = {e["section"]: e["example"] for e in seed("seed_003.jsonl") if "example" in e}
XPERT_FRAGMENTS = {e["section"]: e["fragment"] for e in seed("seed_003.jsonl") if "fragment" in e}
LLAMA_USER = "<|start_header_id|>user<|end_header_id|>\n\n"
LLAMA_BOT = "<|start_header_id|>assistant<|end_header_id|>\n\n"


def records(path: Path, fmt: str, model: Path | None = None, *extra: str) -> list[dict]:
    """What `promptkit render FILE --format F [--model M]` prints, as JSON objects."""
    out = path.with_suffix(".out.jsonl")
    args = ["render", str(path), "--format", fmt, "--out", str(out), *extra]
    assert main([*args, *(["--model", str(model)] if model else [])]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


# -- seed 000: the standardized Sample -------------------------------------------------------------------------------


@pytest.mark.parametrize("model", [LLAMA3, GPT4O], ids=["completion", "chat"])
def test_sampling_and_generation_params_are_the_request_of_every_model(model, write_jsonl):
    """1.2: a sample's sampling_params and generation_params go into its records' request, over the model config's."""
    sample = {**SAMPLES["qa-0001"], "sampling_params": {"temperature": 0.0, "max_tokens": 16}, "generation_params": {"top_p": 0.9}}
    [record] = records(write_jsonl([sample]), "standard", model)
    assert {key: record["request"][key] for key in ("temperature", "max_tokens", "top_p")} == {"temperature": 0.0, "max_tokens": 16, "top_p": 0.9}
    assert "temperature" not in record  # in the request, not beside it


def test_sampling_params_reach_the_engine_lines(write_jsonl, tmp_path):
    """`--as openai-batch` carries a sample's own sampling parameters in the body."""
    path = write_jsonl([{**SAMPLES["qa-0001"], "sampling_params": {"temperature": 0.3, "seed": 7}}])
    out = tmp_path / "batch.jsonl"
    assert main(["render", str(path), "--format", "standard", "--model", str(GPT4O), "--as", "openai-batch", "--out", str(out)]) == 0
    body = json.loads(out.read_text(encoding="utf-8"))["body"]
    assert (body["temperature"], body["seed"], body["max_tokens"]) == (0.3, 7, 2048)


def test_sampling_and_generation_params_that_disagree_are_a_bad_record(write_jsonl):
    """A key in both with different values is reported: which one the request would carry is not the reader's guess."""
    path = write_jsonl([{**SAMPLES["qa-0001"], "sampling_params": {"temperature": 0.0}, "generation_params": {"temperature": 0.7}}])
    [violation] = validate_file(path, "standard").violations
    assert str(violation).startswith(
        f"{path}:1: generation_params: 'temperature' is 0.7 here and 0.0 in sampling_params (both go into the request): give it once"
    )


def test_the_sample_id_is_the_record_id_unless_the_config_names_another(write_jsonl):
    """1.2: id is the sample's unique id: each record's id is '<dataset>/<id>'; reader_cfg.id_column still overrides."""
    path = write_jsonl([SAMPLES["qa-0001"], SAMPLES["mc-0001"]])
    assert [r["id"] for r in records(path, "standard")] == ["records/qa-0001", "records/mc-0001", "records/mc-0001/calib"]
    reader = dict(input_columns=["question"], output_column="answer", train_split="few_shot", test_split="test", id_column="label")
    renderer = Renderer(build_dataset(dict(abbr="d", type="StandardSampleDataset", path=str(path), reader_cfg=reader)))
    assert [p.id for i in range(2) for p in renderer.render(i)] == ["d/4", "d/B", "d/B/calib"]


def test_a_repeated_sample_id_is_a_bad_record(write_jsonl):
    """Ids are unique in a file: the second holder is reported with the line of the first."""
    path = write_jsonl([SAMPLES["qa-0001"], SAMPLES["qa-0001"]])
    assert [str(v) for v in validate_file(path, "standard").violations] == [f'{path}:2: id: must be unique in the file (line 1 has it) (got "qa-0001")']


def test_the_sample_block_holds_what_a_runner_scores_with(write_jsonl):
    """references, label, eval_config, task_type, metadata (the execution's test cases), data_tag: the record's sample."""
    [record] = records(write_jsonl([SAMPLES["code-0001"]]), "standard", GPT4O)
    code = SAMPLES["code-0001"]
    assert record["sample"] == {
        "task_type": "code-generation",
        "references": ["<python_code>"],
        "label": "<python_code>",
        "metadata": code["metadata"],
        "sandbox": code["sandbox"],
    }
    [doc] = records(write_jsonl([SAMPLES["qa-0001"]]), "standard")
    assert doc["sample"] == {"task_type": "short-answer", "references": ["4"], "label": "4", "eval_config": {"metrics": ["exact_match"]}}


def test_a_file_part_is_an_openai_file_part_for_chat_models(write_jsonl):
    """1.6.7: the document travels as OpenAI's file part, before the question, with its name."""
    [record] = records(write_jsonl([SAMPLES["doc-0001"]]), "standard", GPT4O)
    assert record["prompt"] == [
        {
            "role": "user",
            "content": [
                {"type": "file", "file": {"file_url": "docs/report.pdf", "filename": "report.pdf"}},
                {"type": "text", "text": "报告中 2022 年营收是多少"},
            ],
        }
    ]


PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def _doc_dataset(tmp_path: Path, mode: str) -> Renderer:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "report.pdf").write_bytes(PDF)
    data = tmp_path / "doc.jsonl"
    data.write_text(json.dumps(SAMPLES["doc-0001"], ensure_ascii=False) + "\n", encoding="utf-8")
    dataset = build_dataset(dict(abbr="doc", type="StandardSampleDataset", path=str(data), media=dict(mode=mode, root=str(tmp_path))))
    return Renderer(dataset, load_models(GPT4O)[0])


def test_an_inlined_file_part_carries_the_file_data(tmp_path):
    """media=dict(mode='inline'): the PDF goes as file_data, a data: URL, as OpenAI's chat API takes files."""
    [prompt] = _doc_dataset(tmp_path, "inline").render(0)
    part = prompt.prompt[0]["content"][0]
    assert part == {"type": "file", "file": {"file_data": "data:application/pdf;base64," + base64.b64encode(PDF).decode()}}


def test_openai_batch_lines_take_inlined_files_only(tmp_path):
    """--as openai-batch: an inlined file is its body's file part; a path is refused with the way on."""
    from promptkit.records.engines import engine_format

    inlined = _doc_dataset(tmp_path, "inline").render(0)[0]
    assert engine_format("openai-batch").line(inlined)["body"]["messages"][0]["content"][0]["type"] == "file"
    kept = _doc_dataset(tmp_path, "keep").render(0)[0]
    with pytest.raises(ConfigError) as raised:
        engine_format("openai-batch").line(kept)
    assert str(raised.value) == (
        "prompt 'doc/doc-0001': OpenAI's chat API takes a file as its base64 data (file_data), not 'docs/report.pdf'; inline the media "
        "(media=dict(mode='inline') in the dataset config)"
    )


def test_a_file_part_needs_a_placeholder_in_a_completion_model(write_jsonl):
    """A completion model writes its file placeholder and lists the part; without one, the error says what to set."""
    from mmengine.config import Config

    meta = Config.fromfile(str(LLAMA3)).models[0]["meta_template"]
    dataset = build_dataset(dict(abbr="doc", type="StandardSampleDataset", path=str(write_jsonl([SAMPLES["doc-0001"]]))))
    model = build_model(dict(type="CompletionModel", meta_template=meta, mm_placeholders=dict(file="<file>")))
    record = Renderer(dataset, model).render(0)[0].to_record()
    assert record["prompt"].startswith(f"<|begin_of_text|>{LLAMA_USER}<file>报告中 2022 年营收是多少<|eot_id|>")
    assert record["media"] == [{"type": "file_url", "file_url": {"url": "docs/report.pdf"}}]
    with pytest.raises(PromptkitError, match=r"has no placeholder for file, .* set mm_placeholders=dict\(file='<file>'\)"):
        Renderer(dataset, load_models(LLAMA3)[0]).render(0)


REASONED = {
    **SAMPLES["dialog-0001"],
    "messages": [
        SAMPLES["dialog-0001"]["messages"][0],
        {**SAMPLES["dialog-0001"]["messages"][1], "reasoning_content": "先问用户的偏好"},
        SAMPLES["dialog-0001"]["messages"][2],
    ],
}


def test_reasoning_content_stays_in_the_history_of_chat_models(write_jsonl):
    """An assistant message's reasoning_content travels with it to a chat model; a completion model's meta template has no place for it."""
    path = write_jsonl([REASONED])
    [chat] = records(path, "standard", GPT4O)
    assert chat["prompt"][1] == {"role": "assistant", "content": "你偏好经典还是近期作品", "reasoning_content": "先问用户的偏好"}
    [completion] = records(path, "standard", LLAMA3)
    assert "先问用户的偏好" not in completion["prompt"]


def test_a_chat_template_that_reads_reasoning_content_renders_it_as_transformers_does(write_jsonl, hf_tokenizer):
    """Qwen3's template shows the reasoning of the assistant turn after the last question (an agent's tool call): the
    messages promptkit hands the template carry it, and the prompt is transformers' apply_chat_template of them."""
    agent = SAMPLES["agent-0001"]
    call = {**agent["golden_trajectories"][0][0], "reasoning_content": "需要查询财务数据"}
    # The question, the golden trajectory's tool call (with its reasoning) and the tool's result.
    sample = {**agent, "messages": [*agent["messages"], call, agent["golden_trajectories"][0][1]]}
    model = load_models(QWEN3)[0]
    [prompt] = Renderer(build_dataset(dict(abbr="a", type="StandardSampleDataset", path=str(write_jsonl([sample])))), model).render(0)
    messages = to_openai(model.chat_messages(prompt.intermediate, "gen"))
    assert [m.get("reasoning_content") for m in messages] == [None, "需要查询财务数据", None]
    tokenizer = hf_tokenizer(MODELS / "hf" / "qwen3_0_6b")
    expected = tokenizer.apply_chat_template(messages, tools=agent["tools"], tokenize=False, add_generation_prompt=True, enable_thinking=False)
    assert prompt.prompt == expected
    assert "<|im_start|>assistant\n<think>\n需要查询财务数据\n</think>\n\n调用工具查询\n<tool_call>" in prompt.prompt


def test_reasoning_content_on_a_user_message_is_a_bad_record(write_jsonl):
    """Only an assistant message has reasoning."""
    sample = {**SAMPLES["qa-0001"], "messages": [{"role": "user", "content": "2 + 2?", "reasoning_content": "x"}]}
    [violation] = validate_file(write_jsonl([sample]), "standard").violations
    assert (violation.field, violation.rule) == ("messages[0].reasoning_content", "only an assistant message has reasoning (this one's role is 'user')")


def test_the_tools_of_few_shot_examples_are_declared_with_the_sample_s(write_jsonl):
    """1.3.4: a few-shot example's tools are kept: the request declares them after the sample's own (each name once)."""
    agent = SAMPLES["agent-0001"]
    lookup = {"type": "function", "function": {"name": "lookup_rate", "parameters": {"type": "object"}}}
    shot = {"messages": [{"role": "user", "content": "汇率是多少"}], "references": ["7.1"], "tools": [lookup, agent["tools"][0]]}
    [record] = records(write_jsonl([{**agent, "few_shot_examples": [shot]}]), "standard", GPT4O)
    assert record["tools"] == [agent["tools"][0], lookup]


def test_task_templates_choose_a_template_by_task_type(write_jsonl):
    """1.3.2: task_type chooses the prompt; a sample of a type with no template of its own gets the format's default."""
    mc = dict(
        type="PromptTemplate",
        template=dict(round=[dict(role="HUMAN", prompt="</E>{question}\n{choices}\nAnswer with the option's letter."), dict(role="BOT", prompt="{answer}")]),
        ice_token="</E>",
    )
    path = write_jsonl([SAMPLES["mc-0001"], SAMPLES["qa-0001"]])
    dataset = build_dataset(dict(abbr="t", type="StandardSampleDataset", path=str(path), task_templates={"multiple-choice": mc}))
    renderer = Renderer(dataset, load_models(GPT4O)[0])
    assert renderer.render(0)[0].prompt == [{"role": "user", "content": "以下哪一项是哺乳动物\nA. 鲨鱼\nB. 海豚\nC. 章鱼\nD. 海星\nAnswer with the option's letter."}]
    assert renderer.render(1)[0].prompt == [{"role": "user", "content": "1 + 1 等于多少"}, {"role": "assistant", "content": "2"}, {"role": "user", "content": "2 + 2 等于多少"}]


def test_task_templates_with_the_dataset_s_own_infer_cfg_is_an_error(write_jsonl):
    """task_templates choose among the format's defaults: beside an infer_cfg of the config's own they would do nothing."""
    infer = dict(prompt_template=dict(type="MessagesTemplate"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))
    with pytest.raises(ConfigError, match="task_templates choose among the format's default templates, and the dataset gives its own infer_cfg"):
        build_dataset(dict(abbr="t", type="StandardSampleDataset", path="x.jsonl", task_templates={"dialogue": {}}, infer_cfg=infer))


# -- seed 001: the task-spec contract --------------------------------------------------------------------------------


def test_a_task_record_carries_its_targets_metric_and_post_processing(write_jsonl):
    """A runner scores a task from its record: targets, metric_name, post_process (and the task's id, category, metadata)."""
    [record] = records(write_jsonl([TASK]), "taskspec", GPT4O)
    assert record["id"] == "records/arith_001"
    assert record["sample"] == {
        "task_id": "arith_001",
        "category": "arithmetic",
        "targets": ["41"],
        "metric_name": "exact_match",
        "post_process": "strip_whitespace",
        "metadata": {"difficulty": "easy"},
    }


def test_task_templates_choose_by_category(write_jsonl):
    """A task-spec task's type is its category."""
    summary = {**TASK, "task_id": "sum_001", "category": "summary", "metric_name": "rouge_l", "few_shot_examples": []}
    template = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="</E>Summarize.\n{question}"), dict(role="BOT", prompt="{answer}")]), ice_token="</E>")
    dataset = build_dataset(dict(abbr="t", type="TaskSpecDataset", path=str(write_jsonl([TASK, summary])), task_templates={"summary": template}))
    renderer = Renderer(dataset)
    assert renderer.render(0)[0].prompt == "问题:2 + 2\n答案: 4\n\n计算结果。问题:17 + 24\n答案:"
    assert renderer.render(1)[0].prompt == "Summarize.\n计算结果。问题:17 + 24\n答案:"


# -- seed 003: XpertFormat ----------------------------------------------------------------------------------------


def test_an_xpert_record_carries_its_answer_meta_and_evaluation(write_jsonl):
    """4.2/4.3: the structured answer (its explanation too), meta and evaluation are the record's sample; the id is the record's."""
    math, code = records(write_jsonl([XPERT["4.2"], XPERT["4.3"]]), "xpert", GPT4O)
    assert math["id"] == "records/math_1" and math["gold"] == "3"
    assert math["sample"] == {
        "response": "x = 3",
        "answer": {"type": "step_by_step", "value": "3", "explanation": "5x + 3 = 18\n5x = 15\nx = 3"},
        "meta": {"task_type": "math", "difficulty": "简单"},
    }
    assert code["sample"]["evaluation"] == {"metrics": ["functional_correctness", "code_quality"]}
    assert code["sample"]["meta"] == {"task_type": "code", "programming_language": "python"}


def test_a_history_ending_on_a_human_turn_opens_the_query_s_message(write_jsonl):
    """3.1: the last human turn and the query are the user's, before any answer: one user message, no assistant turn made up."""
    record = {"id": "frag", "query": "问题文本", "response": "参考答案", **XPERT_FRAGMENTS["3.1"]}
    [chat] = records(write_jsonl([record]), "xpert", GPT4O)
    assert chat["prompt"] == [
        {"role": "user", "content": "你好，请介绍一下自己"},
        {"role": "assistant", "content": "我是一个AI助手，可以回答您的问题"},
        {"role": "user", "content": "你能做什么?\n问题文本"},
    ]
    [completion] = records(write_jsonl([record]), "xpert", LLAMA3)
    assert completion["prompt"].endswith(f"{LLAMA_USER}你能做什么?\n问题文本<|eot_id|>{LLAMA_BOT}")
    assert f"{LLAMA_BOT}<|eot_id|>" not in completion["prompt"]


def test_a_repeated_xpert_id_is_a_bad_record(write_jsonl):
    """Section 2: id is the sample's unique identifier."""
    path = write_jsonl([XPERT["4.2"], XPERT["4.2"]])
    assert [str(v) for v in validate_file(path, "xpert").violations] == [f'{path}:2: id: must be unique in the file (line 1 has it) (got "math_1")']


def _xpert_folder(root: Path) -> Path:
    """Section 5's layout: dataset.jsonl, the split files, media/, original/, README.md."""
    folder = root / "dataset_name"
    for sub in ("media/images", "media/audio", "media/video", "original"):
        (folder / sub).mkdir(parents=True)
    (folder / "media" / "images" / "cat.jpg").write_bytes(b"\xff\xd8\xff")
    (folder / "README.md").write_text("# dataset_name\n", encoding="utf-8")
    vision = {**XPERT["4.4"], "files": [{"path": "media/images/cat.jpg", "type": "image"}]}
    lines = {"dataset": [XPERT["4.2"], XPERT["4.3"], vision], "train": [XPERT["4.3"]], "dev": [XPERT["4.2"]], "test": [vision, XPERT["4.2"]]}
    for name, rows in lines.items():
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return folder


def test_an_xpert_dataset_folder_is_read_as_its_splits(tmp_path):
    """Section 5: a dataset folder is its splits (test.jsonl under test, dataset.jsonl as 'dataset'); media paths are the folder's."""
    folder = _xpert_folder(tmp_path)
    dataset = build_dataset(dict(abbr="x", type="XpertFormatDataset", path=str(folder), media=dict(mode="resolve")))
    splits = dataset.loader.load()
    assert {name: [row["id"] for row in splits.get(name)] for name in ("dataset", "train", "dev", "test")} == {
        "dataset": ["math_1", "code_1", "vision_1"],
        "train": ["code_1"],
        "dev": ["math_1"],
        "test": ["vision_1", "math_1"],
    }
    prompt = Renderer(dataset, load_models(GPT4O)[0]).render(0)[0].prompt
    assert prompt[0]["content"][0] == {"type": "image_url", "image_url": {"url": str(folder / "media" / "images" / "cat.jpg")}}


def test_an_xpert_folder_without_test_jsonl_tests_its_dataset_jsonl(tmp_path, capsys):
    """dataset.jsonl alone stands for the test (and train) split; `render FOLDER --format xpert` reads it."""
    folder = _xpert_folder(tmp_path)
    for name in ("train", "dev", "test"):
        (folder / f"{name}.jsonl").unlink()
    assert [r["id"] for r in records(folder, "xpert", GPT4O)] == ["dataset_name/math_1", "dataset_name/code_1", "dataset_name/vision_1"]


def test_validate_checks_each_file_of_a_dataset_folder(tmp_path, capsys):
    """`promptkit validate FOLDER --format xpert` checks every split file of the folder, each with its summary."""
    folder = _xpert_folder(tmp_path)
    (folder / "dev.jsonl").write_text('{"id": "x", "query": "q"}\n', encoding="utf-8")
    assert main(["validate", str(folder), "--format", "xpert"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{folder / 'dataset.jsonl'}: 3 record(s): 3 good, 0 bad, 0 violation(s)",
        f"{folder / 'dev.jsonl'}:1: response: required field is missing",
        f"{folder / 'dev.jsonl'}: 1 record(s): 0 good, 1 bad, 1 violation(s)",
        f"{folder / 'test.jsonl'}: 2 record(s): 2 good, 0 bad, 0 violation(s)",
        f"{folder / 'train.jsonl'}: 1 record(s): 1 good, 0 bad, 0 violation(s)",
    ]


def test_a_folder_with_no_dataset_file_is_one_error(tmp_path):
    """A folder that is not in the layout: the error names it, what it holds, and the layout."""
    folder = tmp_path / "empty_set"
    folder.mkdir()
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    dataset = build_dataset(dict(abbr="x", type="XpertFormatDataset", path=str(folder)))
    with pytest.raises(DatasetError) as raised:
        dataset.loader.load()
    assert str(raised.value) == (
        f"file {folder}: the dataset folder holds neither dataset.jsonl nor test.jsonl (it holds notes.txt); a dataset folder has "
        "dataset.jsonl and, for splits, train.jsonl, dev.jsonl, test.jsonl (XpertFormat's layout), or give one .jsonl file"
    )


# -- warn mode on the command line -----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["preview", "render", "view"])
def test_allow_bad_reports_bad_records_and_renders_the_good_ones(command, write_jsonl, tmp_path, capsys, caplog):
    """--allow-bad with --format (the seeds' warn mode): each violation is a warning, every good record renders."""
    path = write_jsonl([XPERT["4.2"], {**XPERT["4.2"], "id": "math_2", "querry": "typo"}, XPERT["4.3"]])
    extra = {"preview": ["--count", "2", "--color", "never"], "render": [], "view": ["--out", str(tmp_path / "v.html")]}[command]
    assert main([command, str(path), "--format", "xpert", *extra]) == 1
    assert "fix these records, or skip them: allow_bad=True in the dataset config, or --allow-bad with --format" in capsys.readouterr().err
    assert main([command, str(path), "--format", "xpert", "--allow-bad", *extra]) == 0
    assert caplog.messages[:2] == [
        f"{path}: skipping 1 bad record(s) of 3 (allow_bad):",
        f'{path}:2: querry: unknown top-level field (got "typo")',
    ]
    if command == "render":
        assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == ["records/math_1", "records/code_1"]


def test_allow_bad_without_format_is_an_error(tmp_path, capsys):
    """A dataset config says allow_bad=True on its format dataset; the flag is for data files."""
    config = Path(__file__).parents[2] / "configs" / "datasets" / "mmlu_demo" / "mmlu_demo_gen.py"
    assert main(["render", str(config), "--allow-bad"]) == 1
    assert capsys.readouterr().err == (
        "promptkit: error: --allow-bad is for data files read with --format; in a dataset config, set allow_bad=True on the format dataset\n"
    )
