"""`render --as openai-batch` and `--as vllm`: lines checked against OpenAI's published types and vLLM 0.33's fields."""

from __future__ import annotations

import base64
import json
import typing
import wave
from pathlib import Path
from typing import Any

import pytest
from openai.types.batch_create_params import BatchCreateParams
from openai.types.chat import ChatCompletionContentPartParam, ChatCompletionMessageParam
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming as ChatParams
from openai.types.completion_create_params import CompletionCreateParamsNonStreaming as CompletionParams
from PIL import Image
from pydantic import BaseModel, ConfigDict, TypeAdapter, create_model

from promptkit import ConfigError
from promptkit.cli.main import main
from promptkit.records.engines import OpenAIBatch, VLLMRequests
from promptkit.records.json_text import JsonText

VLLM = json.loads((Path(__file__).parent / "vllm_fields" / "vllm-0.33.0.json").read_text(encoding="utf-8"))
ROWS = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(3)]
CHAT_TEMPLATE = dict(round=[dict(role="HUMAN", prompt="Q: {question}"), dict(role="BOT", prompt="{answer}")])
GEN = dict(prompt_template=dict(type="PromptTemplate", template=CHAT_TEMPLATE), retriever=dict(type="ZeroRetriever"),
           inferencer=dict(type="GenInferencer", stopping_criteria=["\n\n"]))
LLAMA3 = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
)
COMPLETION = dict(abbr="llama", type="VLLM", path="meta-llama/Meta-Llama-3-8B", meta_template=LLAMA3, max_out_len=32,
                  generation_kwargs=dict(temperature=0.2, top_k=20, eos_token_id=128009))
API = dict(abbr="gpt", type="OpenAISDK", path="gpt-4o-mini", max_out_len=64, generation_kwargs=dict(seed=7))




ENDPOINTS = typing.get_args(typing.get_args(typing.get_type_hints(BatchCreateParams, include_extras=True)["endpoint"])[0])


PART = TypeAdapter(ChatCompletionContentPartParam)


def keys(typed_dict: Any) -> set[str]:
    return set(typed_dict.__required_keys__) | set(typed_dict.__optional_keys__)


def check_openai_line(line: dict[str, Any]) -> None:
    """The envelope, then the body against the endpoint's create params (every key known, every value of its type)."""
    assert set(line) == {"custom_id", "method", "url", "body"} and isinstance(line["custom_id"], str) and line["method"] == "POST"
    assert line["url"] in ENDPOINTS
    params = ChatParams if line["url"] == "/v1/chat/completions" else CompletionParams
    assert set(line["body"]) <= keys(params), set(line["body"]) - keys(params)
    TypeAdapter(params).validate_python(line["body"])
    for message in line["body"].get("messages", ()):  # content lists validate lazily there (an Iterable): check each part
        if not isinstance(message["content"], str):
            for part in message["content"]:
                PART.validate_python(part)
                assert set(part) == {"type", part["type"]}


def vllm_model(name: str, exclude: tuple[str, ...] = ()) -> type[BaseModel]:
    """A pydantic model of a vLLM class's fields (vllm_fields/extract.py): annotations of builtins checked, others Any."""
    fields: dict[str, Any] = {}
    for field, annotation in VLLM[name].items():
        if field in exclude:
            continue
        try:
            kind = eval(annotation, {"__builtins__": {}}, {"int": int, "float": float, "str": str, "bool": bool, "list": list, "dict": dict, "Any": Any, "None": None})  # noqa: S307 (vLLM's own annotation text)
        except NameError:
            kind = Any
        fields[field] = (kind, None)
    return create_model(name, __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=True), **fields)


def check_vllm_line(line: dict[str, Any]) -> None:
    """As vLLM reads it: LLM.generate/LLM.chat keyword arguments, SamplingParams, and the server's request body."""
    chat = "messages" in line
    call = {k: v for k, v in line.items() if k not in ("custom_id", "model")}
    assert set(call) <= set(VLLM["LLM.chat" if chat else "LLM.generate"]), set(call)
    vllm_model("SamplingParams").model_validate(line["sampling_params"])
    body = {"model": line["model"], **line["sampling_params"], **line.get("tokenization_kwargs", {})}
    if chat:
        body["messages"] = line["messages"]
        TypeAdapter(list[ChatCompletionMessageParam]).validate_python(line["messages"])
        if "tools" in line:
            body["tools"] = line["tools"]
    else:
        body["prompt"] = line["prompts"]
    vllm_model("ChatCompletionRequest" if chat else "CompletionRequest").model_validate(body)


def test_openai_batch_lines_of_a_chat_model_match_the_batch_format(make_renderer):
    """Chat prompts: POST /v1/chat/completions with model, messages, max_tokens, stop, seed; valid per OpenAI's types."""
    writer = OpenAIBatch()
    lines = [writer.line(p) for p in make_renderer(ROWS, GEN, model=API)]
    assert lines[1] == {
        "custom_id": "demo/1", "method": "POST", "url": "/v1/chat/completions",
        "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Q: q1"}], "max_tokens": 64, "stop": ["\n\n"], "seed": 7},
    }
    for line in lines:
        check_openai_line(line)
    assert writer.dropped == {}


def test_openai_batch_lines_of_a_completion_model_leave_out_what_openai_does_not_take(make_renderer):
    """Completion strings: POST /v1/completions with prompt; top_k and stop_token_ids are left out and named."""
    writer = OpenAIBatch()
    [line] = [writer.line(p) for p in make_renderer(ROWS[:1], GEN, model=COMPLETION)]
    assert line["url"] == "/v1/completions" and line["body"] == {
        "model": "meta-llama/Meta-Llama-3-8B",
        "prompt": "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nQ: q0<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
        "max_tokens": 32, "stop": ["\n\n"], "temperature": 0.2,
    }
    check_openai_line(line)
    assert list(writer.dropped) == ["top_k", "stop_token_ids"]


def test_vllm_lines_are_generate_and_chat_arguments(make_renderer):
    """Completion: prompts, sampling_params, tokenization_kwargs (no second BOS); chat: messages; both valid for vLLM 0.33."""
    writer = VLLMRequests()
    [generate] = [writer.line(p) for p in make_renderer(ROWS[:1], GEN, model=COMPLETION)]
    assert writer.dropped == {}
    assert generate == {
        "custom_id": "demo/0", "model": "meta-llama/Meta-Llama-3-8B",
        "prompts": "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nQ: q0<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n",
        "sampling_params": {"max_tokens": 32, "stop": ["\n\n"], "temperature": 0.2, "top_k": 20, "stop_token_ids": [128009]},
        "tokenization_kwargs": {"add_special_tokens": False},
    }
    [chat] = [VLLMRequests().line(p) for p in make_renderer(ROWS[:1], GEN, model=API)]
    assert chat == {
        "custom_id": "demo/0", "model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Q: q0"}],
        "sampling_params": {"max_tokens": 64, "stop": ["\n\n"], "seed": 7},
    }
    for line in (generate, chat):
        check_vllm_line(line)


@pytest.mark.parametrize("writer_class", [OpenAIBatch, VLLMRequests])
@pytest.mark.parametrize(
    ("model", "nan"), [(COMPLETION, False), (API, False), (dict(API, generation_kwargs=dict(temperature=float("nan"))), True)], ids=["completion", "chat", "nan"]
)
def test_text_is_the_encoded_line_and_its_newline(make_renderer, writer_class, model, nan):
    """``text()`` is what render writes: the line's JSON, then a newline — put together from parts for the usual block,
    encoded whole for a block holding NaN (written as null, and noted as the encoder notes it)."""
    writer, reference, encode = writer_class(), writer_class(), JsonText()
    for prompt in make_renderer(ROWS, GEN, model=model):
        nulls: list[str] = []
        expected_nulls: list[str] = []
        assert writer.text(prompt, encode, nulls) == encode(reference.line(prompt), expected_nulls) + "\n"
        assert nulls == expected_nulls and bool(nulls) is nan


def test_vllm_field_list_rejects_what_vllm_does_not_declare():
    """The vLLM check can fail: an unknown sampling field or a wrongly typed one is refused."""
    with pytest.raises(ValueError):
        vllm_model("SamplingParams").model_validate({"max_new_tokens": 3})
    with pytest.raises(ValueError):
        vllm_model("SamplingParams").model_validate({"n": "many"})


def wav_row(tmp_path: Path) -> dict[str, str]:
    Image.new("RGB", (8, 8), (0, 0, 0)).save(tmp_path / "a.png")
    with wave.open(str(tmp_path / "a.wav"), "wb") as out:
        out.setnchannels(1), out.setsampwidth(1), out.setframerate(8000), out.writeframes(bytes(80))
    return {"image": "a.png", "audio": "a.wav"}


MM = dict(
    prompt_template=dict(type="MMPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt_mm={
        "image": {"type": "image_url", "image_url": {"url": "file://{image}"}},
        "audio": {"type": "audio_url", "audio_url": {"url": "file://{audio}"}},
    })])),
    retriever=dict(type="ZeroRetriever"),
    inferencer=dict(type="GenInferencer"),
)
MM_READER = dict(input_columns=["image", "audio"], output_column=None)


def test_audio_becomes_input_audio_when_inlined(make_renderer, tmp_path):
    """Inlined WAV audio is OpenAI's input_audio part (base64 data, format wav); vLLM keeps audio_url."""
    renderer = make_renderer([wav_row(tmp_path)], MM, MM_READER, model=API, media=dict(mode="inline"))
    [prompt] = renderer.render(0)
    line = OpenAIBatch().line(prompt)
    check_openai_line(line)
    image, audio = line["body"]["messages"][0]["content"]
    assert image["type"] == "image_url" and image["image_url"]["url"].startswith("data:image/png;base64,")
    assert audio["type"] == "input_audio" and audio["input_audio"]["format"] == "wav"
    assert base64.b64decode(audio["input_audio"]["data"]).startswith(b"RIFF")
    vllm = VLLMRequests().line(prompt)
    check_vllm_line(vllm)
    assert vllm["messages"][0]["content"][1]["type"] == "audio_url"


def test_media_not_inlined_is_refused_for_openai(make_renderer, tmp_path):
    """A file:// audio part cannot be input_audio: the error says to inline the media."""
    audio_only = dict(MM, prompt_template=dict(type="MMPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt_mm={
        "audio": {"type": "audio_url", "audio_url": {"url": "file://{audio}"}},
    })])))
    [prompt] = make_renderer([wav_row(tmp_path)], audio_only, MM_READER, model=API).render(0)
    with pytest.raises(ConfigError) as error:
        OpenAIBatch().line(prompt)
    assert str(error.value) == (
        "prompt 'demo/0': OpenAI's chat API takes audio as input_audio, base64 WAV or MP3 data, but the audio part is 'file://a.wav'; "
        "inline the media (media=dict(mode='inline') in the dataset config) with .wav or .mp3 files"
    )


@pytest.fixture
def configs(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    datasets = [
        dict(abbr="qa", type="JsonlDataset", path="rows.jsonl", reader_cfg=dict(input_columns=["question"], output_column="answer"), infer_cfg=GEN),
        dict(abbr="qa_ppl", type="JsonlDataset", path="rows.jsonl", reader_cfg=dict(input_columns=["question"], output_column="answer"),
             infer_cfg=dict(GEN, inferencer=dict(type="PPLInferencer", labels=["a0", "a1"]))),
    ]
    (tmp_path / "ds.py").write_text(f"datasets = {datasets!r}\n")
    (tmp_path / "api.py").write_text(f"models = [{API!r}]\n")
    (tmp_path / "two.py").write_text(f"models = [{API!r}, {dict(API, abbr='gpt2')!r}]\n")
    return tmp_path / "ds.py", tmp_path / "api.py"


def test_cli_writes_an_openai_batch_file(configs, tmp_path, capsys):
    """`render --as openai-batch --out FILE`: one valid line per prompt, custom_ids unique."""
    dataset, model = configs
    out = tmp_path / "batch.jsonl"
    assert main(["render", str(dataset), "--model", str(model), "--dataset", "qa", "--as", "openai-batch", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["custom_id"] for line in lines] == ["qa/0", "qa/1", "qa/2"]
    for line in lines:
        check_openai_line(line)


def test_cli_vllm_lines(configs, capsys):
    """`render --as vllm` on stdout: LLM.chat arguments for a chat model."""
    dataset, model = configs
    assert main(["render", str(dataset), "--model", str(model), "--dataset", "qa", "--as", "vllm", "--indices", "0"]) == 0
    [line] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    check_vllm_line(line)
    assert line["custom_id"] == "qa/0" and line["messages"] == [{"role": "user", "content": "Q: q0"}]


def test_cli_refuses_ppl_and_repeated_ids_and_unknown_formats(configs, capsys):
    """A ppl dataset, two models in one file, or an unknown --as: one line and exit 1 (argparse: 2)."""
    dataset, model = configs
    assert main(["render", str(dataset), "--model", str(model), "--dataset", "qa_ppl", "--as", "openai-batch"]) == 1
    assert capsys.readouterr().err == (
        "promptkit: error: config " + str(dataset) + ", dataset 'qa_ppl', model 'gpt', row 0: --as openai-batch writes generation requests, "
        "and prompt 'qa_ppl/0/a0' is scored for likelihood (ppl); write the records (without --as) and score them with the engine's log-probabilities\n"
    )
    assert main(["render", str(dataset), "--model", str(model.parent / "two.py"), "--dataset", "qa", "--as", "vllm", "--indices", "0"]) == 1
    assert "custom_id 'qa/0' appears twice: a request file holds one request per id; render one model per file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["render", str(dataset), "--as", "anthropic"])
    assert stop.value.code == 2
    assert "argument --as: invalid choice: 'anthropic' (choose from 'records', 'openai-batch', 'vllm')" in capsys.readouterr().err


@pytest.mark.parametrize("temperature", [0.0, 0.1, 0.7])
def test_the_inferencers_sampling_settings_reach_the_request(make_renderer, temperature):
    """MT-Bench's configs set temperature on the inferencer: each config's requests carry its own, and the --as lines too."""
    inferencer = dict(type="GenInferencer", max_out_len=1024, temperature=temperature, top_p=0.9, generation_kwargs=dict(seed=3))
    renderer = make_renderer(ROWS, dict(GEN, inferencer=inferencer), model=API)
    [prompt] = renderer.render(0)
    assert prompt.request == {"model": "gpt-4o-mini", "max_tokens": 1024, "temperature": temperature, "top_p": 0.9, "seed": 3}
    writer = OpenAIBatch()
    line = writer.line(prompt)
    check_openai_line(line)
    assert (line["body"]["temperature"], line["body"]["top_p"], line["body"]["max_tokens"]) == (temperature, 0.9, 1024)
    assert writer.dropped == {}


def test_an_inferencer_setting_an_engine_cannot_take_is_named_once(configs, tmp_path, capsys, caplog):
    """top_k on the inferencer: vLLM takes it; OpenAI's batch lines leave it out, and one warning names it."""
    dataset, model = configs
    datasets = [dict(abbr="qa", type="JsonlDataset", path=str(tmp_path / "rows.jsonl"), reader_cfg=dict(input_columns=["question"], output_column="answer"),
                     infer_cfg=dict(GEN, inferencer=dict(type="GenInferencer", temperature=0.7, top_k=20)))]
    dataset.write_text(f"datasets = {datasets!r}\n")
    out = tmp_path / "batch.jsonl"
    assert main(["render", str(dataset), "--model", str(model), "--as", "openai-batch", "--out", str(out)]) == 0
    assert [message for message in caplog.messages if "top_k" in message] == [
        "--as openai-batch: top_k not taken by the target API; left out of every line"
    ]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert {line["body"]["temperature"] for line in lines} == {0.7} and not any("top_k" in line["body"] for line in lines)
    assert main(["render", str(dataset), "--model", str(model), "--as", "vllm", "--indices", "0"]) == 0
    [line] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert line["sampling_params"] == {"max_tokens": 64, "seed": 7, "temperature": 0.7, "top_k": 20}
