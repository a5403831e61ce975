"""Every JSON example of seeds 000, 001 and 003 is a test input: valid ones load and render, invalid ones are reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from promptkit import MetaTemplateError, PromptkitError, validate_file

MODELS = Path(__file__).parents[2] / "configs" / "models"
LLAMA3, GPT4O, QWEN = MODELS / "llama3_8b_instruct.py", MODELS / "gpt_4o_api.py", MODELS / "qwen2_5_7b_instruct.py"


def seed_examples(name: str) -> list[dict]:
    """The JSON examples of a seed document (tests/formats/seed_examples/), one per line: {section, example | fragment | raw}."""
    return [json.loads(line) for line in (Path(__file__).parent / "seed_examples" / name).read_text(encoding="utf-8").splitlines()]

SEED_000 = seed_examples("seed_000.jsonl")
SEED_001 = seed_examples("seed_001.jsonl")
SEED_003 = seed_examples("seed_003.jsonl")

SAMPLES_000 = [e for e in SEED_000 if "schema_version" in e["example"]]
FRAGMENTS_000 = [e for e in SEED_000 if "schema_version" not in e["example"]]
MEDIA = ("image_url", "audio_url", "video_url", "file_url")


def _has_media(sample: dict) -> bool:
    return any(isinstance(m["content"], list) and any(p["type"] in MEDIA for p in m["content"]) for m in sample["messages"])


TEXT_000 = [e for e in SAMPLES_000 if not _has_media(e["example"])]
MEDIA_000 = [e for e in SAMPLES_000 if _has_media(e["example"])]
LLAMA_USER = "<|start_header_id|>user<|end_header_id|>\n\n"
LLAMA_BOT = "<|start_header_id|>assistant<|end_header_id|>\n\n"


def test_seed_000_has_thirteen_samples_and_four_fragments():
    """The extraction kept every example of seed 000 (13 scenario samples, 4 field fragments)."""
    assert (len(SAMPLES_000), len(FRAGMENTS_000), len(MEDIA_000)) == (13, 4, 5)


@pytest.mark.parametrize("entry", SAMPLES_000, ids=lambda e: e["example"]["id"])
def test_seed_000_samples_are_valid(entry, write_jsonl):
    """Each scenario sample of seed 000 passes validation."""
    report = validate_file(write_jsonl([entry["example"]]), "standard")
    assert report.violations == [] and report.total == 1


@pytest.mark.parametrize("entry", FRAGMENTS_000, ids=lambda e: next(iter(e["example"])))
def test_seed_000_fragments_are_valid_inside_a_sample(entry, write_jsonl):
    """Each field fragment of seed 000, added to the text QA sample, still validates."""
    record = {**TEXT_000[0]["example"], **entry["example"]}
    assert validate_file(write_jsonl([record]), "standard").violations == []


@pytest.mark.parametrize("entry", TEXT_000, ids=lambda e: e["example"]["id"])
@pytest.mark.parametrize("model", [LLAMA3, GPT4O], ids=["llama3", "gpt4o"])
def test_seed_000_text_samples_render_every_message_in_order(entry, model, render_records):
    """Each text sample renders for a completion and a chat model with its message texts in order (a sample with tools:
    for a completion model whose chat template writes them, Qwen2.5's; Llama 3's would leave them out)."""
    sample = entry["example"]
    if model == LLAMA3 and sample.get("tools"):
        model = QWEN
    prompt = render_records("StandardSampleDataset", [sample], model).render(0)[0].prompt
    text = prompt if isinstance(prompt, str) else "\n".join(m["content"] for m in prompt)
    position = 0
    for message in sample["messages"]:
        for part in message["content"]:
            position = text.index(part["text"], position) + len(part["text"])


def test_seed_000_few_shot_example_becomes_earlier_turns(render_records):
    """1.6.1: the embedded example is a user/assistant exchange (its label as the answer) before the question."""
    renderer = render_records("StandardSampleDataset", [SAMPLES_000[0]["example"]], GPT4O)
    assert renderer.render(0)[0].prompt == [
        {"role": "user", "content": "1 + 1 等于多少"},
        {"role": "assistant", "content": "2"},
        {"role": "user", "content": "2 + 2 等于多少"},
    ]
    llama = render_records("StandardSampleDataset", [SAMPLES_000[0]["example"]], LLAMA3).render(0)[0].prompt
    assert llama == (
        f"<|begin_of_text|>{LLAMA_USER}1 + 1 等于多少<|eot_id|>{LLAMA_BOT}2<|eot_id|>{LLAMA_USER}2 + 2 等于多少<|eot_id|>{LLAMA_BOT}"
    )


def test_seed_000_multiple_choice_lists_options_and_renders_calibration(render_records):
    """1.6.2: options follow the question in order; unconditioned_input gives a calib prompt next to it."""
    gen, calib = render_records("StandardSampleDataset", [SAMPLES_000[1]["example"]], GPT4O).render(0)
    assert (gen.mode, calib.mode) == ("gen", "calib")
    assert gen.prompt == [{"role": "user", "content": "以下哪一项是哺乳动物\nA. 鲨鱼\nB. 海豚\nC. 章鱼\nD. 海星"}]
    assert calib.prompt == [{"role": "user", "content": "请只输出选项字母\nA. 鲨鱼\nB. 海豚\nC. 章鱼\nD. 海星"}]
    assert calib.to_record()["mode"] == "calib"


def test_seed_000_dialogue_keeps_turns(render_records):
    """1.6.3: a multi-turn sample renders as its turns, ending at the model's turn."""
    prompt = render_records("StandardSampleDataset", [SAMPLES_000[2]["example"]], LLAMA3).render(0)[0].prompt
    assert prompt == (
        f"<|begin_of_text|>{LLAMA_USER}推荐一部科幻电影<|eot_id|>{LLAMA_BOT}你偏好经典还是近期作品<|eot_id|>"
        f"{LLAMA_USER}近期作品<|eot_id|>{LLAMA_BOT}"
    )


def test_seed_000_agent_sample_carries_tools_for_chat_models_only(render_records):
    """1.6.13: the system message leads; tools and tool_choice ride in the chat model's render record; a completion model
    writes the tools with its folder's chat template, or refuses the sample when that template leaves them out."""
    sample = SAMPLES_000[-1]["example"]
    chat = render_records("StandardSampleDataset", [sample], GPT4O).render(0)[0].to_record()
    assert chat["prompt"] == [
        {"role": "system", "content": "你是一个数据分析助手"},
        {"role": "user", "content": "计算 2022 年 Q1 研发费用"},
    ]
    assert chat["tools"] == sample["tools"] and chat["tool_choice"] == "auto"
    completion = render_records("StandardSampleDataset", [sample], QWEN).render(0)[0].to_record()
    assert "tools" not in completion
    assert completion["prompt"].startswith("<|im_start|>system\n你是一个数据分析助手\n\n# Tools\n")
    assert all(tool["function"]["name"] in completion["prompt"] for tool in sample["tools"])
    with pytest.raises(MetaTemplateError) as caught:
        render_records("StandardSampleDataset", [sample], LLAMA3).render(0)
    assert "leaves the tools the prompt offers out of the final input" in caught.value.message


@pytest.mark.parametrize("entry", MEDIA_000, ids=lambda e: e["example"]["id"])
def test_seed_000_media_samples_render_their_parts_for_chat_models(entry, render_records):
    """Image, audio, video and file samples reach a chat model as their content parts, in order (a file as OpenAI's file part)."""
    sample = entry["example"]
    renderer = render_records("StandardSampleDataset", [sample], GPT4O)
    row = renderer.test_rows[0]
    urls = [p[p["type"]]["url"] for m in sample["messages"] for p in m["content"] if p["type"] in MEDIA]
    assert row["images"] + row["audios"] + row["videos"] + row["files"] == urls
    messages = renderer.render(0)[0].prompt
    openai = [
        {"type": "file", "file": {"file_url": p["file_url"]["url"], "filename": p["file_url"]["url"].rpartition("/")[2]}} if p["type"] == "file_url" else p
        for p in sample["messages"][0]["content"]
    ]
    assert messages[0] == {"role": "user", "content": openai}


def test_seed_000_image_sample_needs_a_placeholder_in_a_completion_model(render_records):
    """A text-only completion model (Llama-3) cannot carry the image of 1.6.4: the error says what to configure."""
    renderer = render_records("StandardSampleDataset", [MEDIA_000[0]["example"]], LLAMA3)
    with pytest.raises(PromptkitError, match=r"the prompt has an image part but this completion model has no placeholder for image"):
        renderer.render(0)


@pytest.mark.parametrize("entry", [e for e in MEDIA_000 if e["example"]["task_type"] != "doc-qa"], ids=lambda e: e["example"]["id"])
def test_seed_000_media_samples_render_for_llama3_with_placeholders(entry, tmp_path, write_jsonl):
    """With mm_placeholders on the Llama-3 meta template, a media sample becomes placeholders in the string plus its media list."""
    from mmengine.config import Config

    from promptkit import Renderer, build_dataset, build_model

    meta = Config.fromfile(str(LLAMA3)).models[0]["meta_template"]
    model = build_model(dict(type="CompletionModel", meta_template=meta, mm_placeholders=dict(image="<image>", audio="<audio>", video="<video>")))
    sample = entry["example"]
    dataset = build_dataset(dict(abbr="m", type="StandardSampleDataset", path=str(write_jsonl([sample]))))
    record = Renderer(dataset, model).render(0)[0].to_record()
    parts = sample["messages"][0]["content"]
    media = [p for p in parts if p["type"] != "text"]
    assert record["media"] == media
    placeholder = {"image_url": "<image>", "audio_url": "<audio>", "video_url": "<video>"}
    body = "".join(placeholder.get(p["type"], p.get("text", "")) for p in parts)
    assert record["prompt"].startswith(f"<|begin_of_text|>{LLAMA_USER}{body}")


def test_seed_000_raw_assets_never_reach_a_row(render_records):
    """1.3.9: raw_assets is validated but no row column holds it, so no template can print it."""
    record = {**TEXT_000[0]["example"], **FRAGMENTS_000[0]["example"]}
    row = render_records("StandardSampleDataset", [record]).test_rows[0]
    assert "path/to/image.jpg" not in json.dumps(row, ensure_ascii=False)


def _seed_001_render(task: dict) -> str:
    """Seed 001's render(), transcribed: examples as prompt + ' ' + completion, joined by blank lines, before the prompt."""
    parts = [ex["prompt"] + " " + ex["completion"] for ex in task.get("few_shot_examples", [])]
    parts.append(task["prompt"])
    return "\n\n".join(parts)


def test_seed_001_example_renders_exactly_as_its_rule_implies(render_records):
    """The seed's task renders to its render() string: bare, as Llama-3's user turn, and as one chat message."""
    task = SEED_001[0]["example"]
    expected = "问题:2 + 2\n答案: 4\n\n计算结果。问题:17 + 24\n答案:"
    assert _seed_001_render(task) == expected
    assert render_records("TaskSpecDataset", [task]).render(0)[0].prompt == expected
    assert render_records("TaskSpecDataset", [task], LLAMA3).render(0)[0].prompt == f"<|begin_of_text|>{LLAMA_USER}{expected}<|eot_id|>{LLAMA_BOT}"
    assert render_records("TaskSpecDataset", [task], GPT4O).render(0)[0].prompt == [{"role": "user", "content": expected}]


def test_seed_001_example_is_valid(write_jsonl):
    """The seed's task passes every rule."""
    assert validate_file(write_jsonl([SEED_001[0]["example"]]), "taskspec").violations == []


XPERT_EXAMPLES = {e["section"]: e["example"] for e in SEED_003 if "example" in e}
XPERT_FRAGMENTS = {e["section"]: e["fragment"] for e in SEED_003 if "fragment" in e}
XPERT_MINIMAL = {"id": "frag", "query": "问题文本", "response": "参考答案"}


def test_seed_003_format_overview_is_not_json(write_jsonl):
    """Section 1's overview has // comments: as a record it is reported as invalid JSON, at its line."""
    path = write_jsonl([SEED_003[0]["raw"].replace("\n", " ")])
    [violation] = validate_file(path, "xpert").violations
    assert str(violation).startswith(f"{path}:1: record: not valid JSON: expected value at column ")


def test_seed_003_format_overview_without_comments_reports_its_placeholders(write_jsonl):
    """Without comments, the overview's 'a|b|c' placeholders each break a closed vocabulary."""
    record = json.loads(re.sub(r"//[^\n]*", "", SEED_003[0]["raw"]))
    path = write_jsonl([record])
    assert [str(v) for v in validate_file(path, "xpert").violations] == [
        f'{path}:1: files[0].type: must be one of image, audio or video (got "image|audio|video")',
        f'{path}:1: answer.type: must be one of choice, text, code or step_by_step (got "choice|text|code|step_by_step")',
        f'{path}:1: meta.task_type: must be one of qa, choice, code, math, vision, audio or multi (got "qa|choice|code|math|vision|audio|multi")',
    ]


def test_seed_003_choice_example_lacks_the_required_response(write_jsonl):
    """4.1 has no response, which section 2 requires: exactly that is reported."""
    path = write_jsonl([XPERT_EXAMPLES["4.1"]])
    assert [str(v) for v in validate_file(path, "xpert").violations] == [f"{path}:1: response: required field is missing"]


@pytest.mark.parametrize("section", ["3.1", "3.2", "3.3", "3.5"])
def test_seed_003_fragments_are_valid_in_a_minimal_record(section, write_jsonl):
    """Each field fragment of section 3 validates inside a record with the required fields."""
    path = write_jsonl([{**XPERT_MINIMAL, **XPERT_FRAGMENTS[section]}])
    assert validate_file(path, "xpert").violations == []


def test_seed_003_choice_answer_fragment_needs_the_choices_fragment(write_jsonl):
    """3.4's choice answer validates with 3.3's choices, and alone is reported as lacking them."""
    path = write_jsonl([{**XPERT_MINIMAL, **XPERT_FRAGMENTS["3.3"], **XPERT_FRAGMENTS["3.4"]}, {**XPERT_MINIMAL, **XPERT_FRAGMENTS["3.4"]}])
    assert [str(v) for v in validate_file(path, "xpert").violations] == [f"{path}:2: choices: a choice answer needs choices (got null)"]


def test_seed_003_history_fragment_renders_as_earlier_turns(render_records):
    """3.1: history turns (human → user) come before the query; the history's last human turn opens the query's message."""
    record = {**XPERT_MINIMAL, **XPERT_FRAGMENTS["3.1"]}
    assert render_records("XpertFormatDataset", [record], GPT4O).render(0)[0].prompt == [
        {"role": "user", "content": "你好，请介绍一下自己"},
        {"role": "assistant", "content": "我是一个AI助手，可以回答您的问题"},
        {"role": "user", "content": "你能做什么?\n问题文本"},
    ]


@pytest.mark.parametrize("section", ["4.2", "4.3"])
@pytest.mark.parametrize("model", [LLAMA3, GPT4O], ids=["llama3", "gpt4o"])
def test_seed_003_text_examples_render_their_query(section, model, render_records):
    """4.2 and 4.3 render their query as the user turn, and the gold response nowhere."""
    record = XPERT_EXAMPLES[section]
    prompt = render_records("XpertFormatDataset", [record], model).render(0)[0].prompt
    text = prompt if isinstance(prompt, str) else json.dumps(prompt, ensure_ascii=False)
    assert record["query"] in text and record["answer"]["value"] not in text.replace(record["query"], "")


def test_seed_003_choice_example_with_a_response_lists_its_choices(render_records):
    """4.1 with the response it lacks: the choices follow the query in order."""
    record = {**XPERT_EXAMPLES["4.1"], "response": "A"}
    assert render_records("XpertFormatDataset", [record], GPT4O).render(0)[0].prompt == [
        {"role": "user", "content": "下列哪项是正确的?\nA. 选项A内容\nB. 选项B内容\nC. 选项C内容\nD. 选项D内容"}
    ]


def test_seed_003_vision_example_sends_its_image_before_the_query(render_records):
    """4.4: the file is an image part of the user message, before the query text; the path is in the images column."""
    renderer = render_records("XpertFormatDataset", [XPERT_EXAMPLES["4.4"]], GPT4O)
    assert renderer.test_rows[0]["images"] == ["images/cat.jpg"]
    assert renderer.render(0)[0].prompt == [
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "images/cat.jpg"}}, {"type": "text", "text": "描述这张图片中的内容"}]}
    ]
