"""Tools everywhere: dataset and row tools, tool calls and tool results, through every model kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from promptkit import (
    ChatModel,
    CompletionModel,
    ConfigError,
    DatasetError,
    MessagesTemplate,
    MetaTemplateError,
    Renderer,
    load_datasets,
    load_models,
)
from promptkit.controls import Controls
from promptkit.data.tools import Tools
from promptkit.meta_templates import ChatTemplateModel

ROOT = Path(__file__).parents[1]
WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}
CALL = {"id": "call12345", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
CONVERSATION = [
    {"role": "system", "content": "Use the tools."},
    {"role": "user", "content": "Weather in Oslo?"},
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "call12345", "content": '{"temp": 4}'},
]


def _prompt(messages: list[dict[str, Any]] = CONVERSATION) -> Any:
    return MessagesTemplate().render({"messages": messages, "answer": "4 degrees"}, masked="answer")


def _config(tmp_path: Path, tools: str, rows: str | None = None) -> Path:
    rows = rows or repr([{"messages": CONVERSATION, "answer": "4 degrees", "tools": [WEATHER]}])
    path = tmp_path / "tools.py"
    path.write_text(
        f"datasets = [dict(abbr='tools', type='RowsDataset', rows={rows}, tools={tools},\n"
        "    reader_cfg=dict(input_columns=['messages'], output_column='answer'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='MessagesTemplate'), retriever=dict(type='ZeroRetriever'),\n"
        "                   inferencer=dict(type='GenInferencer')))]\n",
        encoding="utf-8",
    )
    return path


def test_tool_calls_and_tool_results_reach_a_chat_model_as_messages():
    """An assistant's tool_calls and a tool's result are messages of their own; the model answers the result (no empty user turn)."""
    assert ChatModel().render(_prompt()) == [
        {"role": "system", "content": "Use the tools."},
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "content": '{"temp": 4}', "tool_call_id": "call12345"},
    ]


def test_a_chat_meta_template_without_a_tool_role_still_carries_tool_results():
    """A config's chat meta template gets a reserved TOOL role (api role tool) when it has none."""
    model = ChatModel(meta_template=dict(round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)]))
    assert [m["role"] for m in model.render(_prompt(CONVERSATION[1:]))] == ["user", "assistant", "tool"]


def test_parallel_tool_results_are_not_merged():
    """Two tool results in a row stay two tool messages (a chat model merges other same-role messages)."""
    second = {**CALL, "id": "call67890"}
    messages = [
        {"role": "user", "content": "Oslo and Rome?"},
        {"role": "assistant", "content": "", "tool_calls": [CALL, second]},
        {"role": "tool", "tool_call_id": "call12345", "content": "4"},
        {"role": "tool", "tool_call_id": "call67890", "content": "19"},
    ]
    rendered = ChatModel().render(_prompt(messages))
    assert [(m["role"], m["content"], m.get("tool_call_id")) for m in rendered[2:]] == [("tool", "4", "call12345"), ("tool", "19", "call67890")]
    assert rendered[1]["tool_calls"] == [CALL, second]


def test_a_completion_meta_template_refuses_tool_calls():
    """A meta template has no way to write tool calls: an error saying which model kinds do."""
    model = CompletionModel(
        meta_template=dict(round=[dict(role="HUMAN", begin="U:"), dict(role="BOT", begin="A:", generate=True)], reserved_roles=[dict(role="TOOL", begin="T:")])
    )
    with pytest.raises(MetaTemplateError) as caught:
        model.render(_prompt(CONVERSATION[1:]))
    assert caught.value.message == (
        "the prompt has an assistant turn with tool_calls, which a completion model's meta template cannot write; "
        "use a ChatTemplateModel (the model's chat template writes tool calls) or a ChatModel"
    )


@pytest.mark.parametrize("config", ["qwen2_5_7b_instruct", "llama3_1_8b_instruct"])
def test_chat_template_models_render_tools_as_apply_chat_template_does(config: str, hf_tokenizer):
    """Tools and tool messages through a bundled chat-template model equal transformers' apply_chat_template(tools=...)."""
    model = load_models(ROOT / "configs" / "models" / "chat_template" / f"{config}.py")[0]
    assert isinstance(model, ChatTemplateModel)
    prompt = _prompt()
    tokenizer = hf_tokenizer(ROOT / "configs" / "models" / "hf" / config)
    expected = tokenizer.apply_chat_template(model.messages(prompt), tools=[WEATHER], add_generation_prompt=True, tokenize=False)
    got = model.render_tools(prompt, "gen", [WEATHER])
    assert got == expected
    assert '"get_weather"' in got and got != model.render(prompt)


def test_row_tools_reach_each_model_kind(tmp_path: Path):
    """A row's tools: a chat record's request fields, a chat template's tools, a completion model's folder template's tools."""
    spec = load_datasets(_config(tmp_path, "dict(column='tools', tool_choice='auto')"))[0]
    chat = Renderer(spec, load_models(ROOT / "configs" / "models" / "gpt_4o_api.py")[0]).render(0)[0].to_record()
    assert chat["tools"] == [WEATHER] and chat["tool_choice"] == "auto"
    qwen = load_models(ROOT / "configs" / "models" / "chat_template" / "qwen2_5_7b_instruct.py")[0]
    templated = Renderer(spec, qwen).render(0)[0]
    assert isinstance(qwen, ChatTemplateModel) and templated.prompt == qwen.render_tools(templated.intermediate, "gen", [WEATHER])
    assert templated.request_fields is None and "tools" not in templated.request  # written by the chat template, not sent
    # Qwen2.5's completion config writes them with its folder's chat template (Llama 3's leaves them out: refused,
    # tests/robustness/test_trust_tools.py).
    completion = Renderer(spec, load_models(ROOT / "configs" / "models" / "qwen2_5_7b_instruct.py")[0]).render(0)[0]
    assert isinstance(completion.prompt, str) and completion.prompt.startswith("<|im_start|>system\n")
    assert '"get_weather"' in completion.prompt and completion.prompt.endswith("<|im_start|>assistant\n")


def test_config_tools_serve_every_row_and_a_rows_own_win(tmp_path: Path):
    """tools=dict(tools=[...]) gives every row the tools, unless the row's column holds its own."""
    other = {"type": "function", "function": {"name": "other"}}
    rows = repr([{"messages": CONVERSATION[:2], "answer": "x", "tools": None}, {"messages": CONVERSATION[:2], "answer": "y", "tools": [other]}])
    spec = load_datasets(_config(tmp_path, f"dict(tools=[{WEATHER!r}], column='tools')", rows))[0]
    renderer = Renderer(spec, ChatModel())
    assert [renderer.render(i)[0].to_record()["tools"] for i in (0, 1)] == [[WEATHER], [other]]


def test_a_completion_model_without_a_chat_template_refuses_tools(tmp_path: Path):
    """A completion model with no model folder has nowhere to write the tools: the error says what to do."""
    spec = load_datasets(_config(tmp_path, "dict(column='tools')", repr([{"messages": CONVERSATION[1:2], "answer": "x", "tools": [WEATHER]}])))[0]
    model = CompletionModel(abbr="base", meta_template=dict(round=[dict(role="HUMAN", begin="U:"), dict(role="BOT", begin="A:", generate=True)]))
    with pytest.raises(ConfigError) as caught:
        Renderer(spec, model).render(0)
    assert caught.value.message == (
        "the dataset's prompts offer tools, and model 'base' is a completion model whose meta template has no place for them and which "
        "has no chat template to write them (path= a local model folder with one); give it path=, or use a ChatTemplateModel or a "
        "ChatModel (the request carries the tools)"
    )
    assert caught.value.context["row"] == 0


def test_bfcl_function_documents_become_openai_tools():
    """style='bfcl': JSON text of BFCL functions → OpenAI tools, Python type names → JSON Schema's at every depth."""
    function = {
        "name": "convert",
        "description": "Convert.",
        "parameters": {"type": "dict", "properties": {"pair": {"type": "tuple", "items": {"type": "string"}}, "x": {"type": "float"}}, "required": ["x"]},
    }
    assert Tools(column="function", style="bfcl").for_row({"function": json.dumps([function])}) == {
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "convert",
                    "description": "Convert.",
                    "parameters": {"type": "object", "properties": {"pair": {"type": "array", "items": {"type": "string"}}, "x": {"type": "number"}}, "required": ["x"]},
                },
            }
        ]
    }


def test_bfcl_fc_style_converts_as_bfcls_function_calling_handler():
    """style='bfcl_fc': dots in names → '_', BFCL's Python hint and float note, BFCL's type names mapped, others or none → string."""
    function = {
        "name": "math.scale",
        "description": "Scale.",
        "parameters": {
            "type": "dict",
            "properties": {
                "k": {"type": "float", "description": "Factor."},
                "pts": {"type": "list", "description": "Points.", "items": {"type": "tuple", "items": {"type": "float"}}},
                "opts": {"type": "dict", "description": "Options.", "properties": {"mode": {"description": "Mode."}, "n": {"type": "long", "description": "N."}, "p": {"type": "Path", "description": "P."}}},
            },
            "required": ["k"],
        },
    }
    assert Tools(column="function", style="bfcl_fc").for_row({"function": [function]})["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "math_scale",
                "description": "Scale. Note that the provided function is in Python 3 syntax.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "k": {"type": "number", "description": "Factor. This is a float type value.", "format": "float"},
                        "pts": {"type": "array", "description": "Points.", "items": {"type": "array", "items": {"type": "number"}}},
                        "opts": {"type": "object", "description": "Options.", "properties": {"mode": {"description": "Mode.", "type": "string"}, "n": {"type": "integer", "description": "N."}, "p": {"type": "string", "description": "P."}}},
                    },
                    "required": ["k"],
                },
            },
        }
    ]
    assert function["name"] == "math.scale" and function["parameters"]["type"] == "dict", "the row's own documents are left as they are"


@pytest.mark.parametrize(
    ("tools", "message"),
    [
        ("dict()", "tools needs tools=[...] (every row's) or column='...' (each row's own)"),
        ("dict(column='tools', style='gorilla')", "tools.style must be one of ['openai', 'bfcl', 'bfcl_fc'] (got 'gorilla')"),
        ("dict(column='tools', choice='auto')", "unknown key 'choice' in tools (did you mean 'tool_choice'?); it takes ['tools', 'column', 'tool_choice', 'choice_column', 'style']"),
        ("dict(tools='get_weather')", "tools.tools must be a list of tool objects (dicts), got 'get_weather'"),
        ("['x']", "tools must be a dict, e.g. dict(column='tools') or dict(tools=[...]) (got ['x'])"),
    ],
)
def test_bad_tools_settings_are_config_errors(tmp_path: Path, tools: str, message: str):
    """A bad tools= is a ConfigError with the message that says what it takes."""
    with pytest.raises(ConfigError) as caught:
        load_datasets(_config(tmp_path, tools))
    assert caught.value.message == message


def test_a_row_whose_tools_are_not_json_names_the_column():
    """A tools column holding text that is not JSON is a DatasetError naming the column."""
    with pytest.raises(DatasetError) as caught:
        Tools(column="function").for_row({"function": "[{oops"})
    assert caught.value.message == "column 'function' holds text that is not JSON (Expecting property name enclosed in double quotes); it must hold a list of tools"


def test_bundled_bfcl_config_renders_tool_calls_and_tools_for_a_chat_model(capsys: pytest.CaptureFixture[str]):
    """promptkit render of the BFCL demo: the conversation part-way through a call, its tools in BFCL's types converted."""
    from promptkit.cli.main import main

    assert main(["render", str(ROOT / "configs/datasets/bfcl_demo/bfcl_demo_gen.py"), "--model", str(ROOT / "configs/models/gpt_4o_api.py")]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    first = records[0]
    assert [m["role"] for m in first["prompt"]] == ["user", "assistant", "tool"]
    assert first["prompt"][1]["tool_calls"][0]["function"]["name"] == "convert_currency"
    assert first["tools"][0]["function"]["parameters"]["properties"]["pair"]["type"] == "array" and first["tool_choice"] == "auto"
    prompt_style = [r for r in records if r["dataset"] == "bfcl_demo_prompt"]
    assert len(prompt_style) == 2 and "tools" not in prompt_style[0]
    assert prompt_style[0]["prompt"][0]["role"] == "system" and '"calculate_triangle_area"' in prompt_style[0]["prompt"][0]["content"]


def test_tools_written_by_a_chat_template_take_the_run_controls_and_the_answer_start(tmp_path: Path, trained_tokenizer):
    """Dataset tools written by Qwen3's chat template, with a run's thinking switch (over the model config's) and a
    gen_prefix: transformers' apply_chat_template text with tools=, enable_thinking= and the answer's start continued."""
    transformers = pytest.importorskip("transformers")
    qwen3 = load_models(ROOT / "configs" / "models" / "chat_template" / "qwen3_0_6b.py")[0]
    assert isinstance(qwen3, ChatTemplateModel) and qwen3.controls.thinking is False
    folder = trained_tokenizer(ROOT / "configs" / "models" / "hf" / "qwen3_0_6b", texts=["Weather in Oslo?"]).parent
    reference = transformers.PreTrainedTokenizerFast.from_pretrained(str(folder))
    config = _config(tmp_path, "dict(column='tools')")
    plain = load_datasets(config)[0]
    config.write_text(config.read_text(encoding="utf-8").replace("type='GenInferencer'", "type='GenInferencer', gen_prefix='The weather'"), encoding="utf-8")
    prefixed = load_datasets(config)[0]
    # The answer's start: after the generation prompt (off: Qwen3's empty think block), or continued in a last
    # assistant message (which Qwen3's template gives a think block, whatever the switch).
    for spec, thinking, ending in (
        (plain, True, "<|im_start|>assistant\n"),
        (plain, False, "<|im_start|>assistant\n<think>\n\n</think>\n\n"),
        (prefixed, True, "<|im_start|>assistant\n<think>\n\n</think>\n\nThe weather"),
    ):
        prompt = Renderer(spec, qwen3, controls=Controls(thinking=thinking)).render(0)[0]
        messages = qwen3.messages(prompt.intermediate, "gen")
        if spec is prefixed:
            expected = reference.apply_chat_template(
                [*messages, {"role": "assistant", "content": "The weather"}], tools=[WEATHER], enable_thinking=thinking,
                continue_final_message=True, tokenize=False,
            )
        else:
            expected = reference.apply_chat_template(messages, tools=[WEATHER], enable_thinking=thinking, add_generation_prompt=True, tokenize=False)
        assert prompt.prompt == expected
        assert prompt.prompt.endswith(ending) and '"name": "get_weather"' in prompt.prompt
