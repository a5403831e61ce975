"""Nothing a prompt carries is dropped without a word: tools, an assistant's tool calls, tool results and tool_choice
reach the final input, or the row is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from promptkit import DatasetError, MetaTemplateError, Renderer, build_dataset, load_datasets, load_models
from promptkit.cli.main import main

ROOT = Path(__file__).parents[2]
BFCL = ROOT / "configs" / "datasets" / "bfcl_demo" / "bfcl_demo_gen.py"
MODELS = ROOT / "configs" / "models"

#: What follows the template's name in the error, whichever part is left out.
ADVICE = (
    "out of the final input, so the model would never see it; use a model whose chat template writes it (its own chat_template= "
    "or path=), a ChatModel (its request carries tools and messages as they are), or a prompt that writes the functions into "
    "its text"
)


@pytest.fixture(autouse=True)
def at_repository_root(monkeypatch):
    """Bundled configs give model folders relative to the repository root."""
    monkeypatch.chdir(ROOT)


def bfcl(model_config: str) -> Renderer:
    """BFCL's function-calling rows (tools from the `function` column; row 0 is part-way through a tool call)."""
    return Renderer(load_datasets(BFCL)[0], load_models(MODELS / model_config)[0])


@pytest.mark.parametrize(
    ("model_config", "abbr", "folder"),
    [
        ("llama3_8b_instruct.py", "llama-3-8b-instruct", "configs/models/hf/llama3_8b_instruct"),
        ("gemma2_2b_it.py", "gemma-2-2b-it", "configs/models/hf/gemma2_2b_it"),
        ("chat_template/llama3_8b_instruct.py", "llama-3-8b-instruct-hf", "configs/models/hf/llama3_8b_instruct"),
        ("chat_template/gemma2_2b_it.py", "gemma-2-2b-it-hf", "configs/models/hf/gemma2_2b_it"),
    ],
)
def test_tools_for_a_template_that_ignores_them_are_refused(model_config, abbr, folder):
    """Llama 3's and Gemma 2's chat templates never write tools: a row that offers them is an error naming the row."""
    with pytest.raises(MetaTemplateError) as caught:
        bfcl(model_config).render(1)
    assert str(caught.value) == (
        f"config {BFCL}, dataset 'bfcl_demo_function_call', model {abbr!r}, row 1: the chat template ({folder}) "
        f"leaves the tools the prompt offers {ADVICE}"
    )


def test_tool_calls_the_template_leaves_out_are_refused():
    """Llama 3's template writes a tool message's text but not an assistant's tool_calls: the error names what is left out."""
    with pytest.raises(MetaTemplateError) as caught:
        bfcl("chat_template/llama3_8b_instruct.py").render(0)
    assert caught.value.message == (
        f"the chat template (configs/models/hf/llama3_8b_instruct) leaves the tools the prompt offers and the assistant's tool_calls {ADVICE}"
    )


def test_messages_with_tool_calls_and_no_tools(make_renderer):
    """A row's own messages with a tool call, for a template that leaves tool calls out, without any tools= config."""
    infer = dict(prompt_template=dict(type="MessagesTemplate", column="messages"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))
    call = {"id": "call00001", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}
    messages = [
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call00001", "content": "4 degrees"},
    ]
    model = dict(abbr="llama3-hf", type="HuggingFacewithChatTemplate", path=str(MODELS / "hf" / "llama3_8b_instruct"))
    rendering = make_renderer([{"messages": messages, "answer": "x"}], infer, reader_cfg=dict(input_columns=["messages"], output_column="answer"), model=model)
    with pytest.raises(MetaTemplateError) as caught:
        rendering.render(0)
    assert caught.value.message == f"the chat template ({MODELS / 'hf' / 'llama3_8b_instruct'}) leaves the assistant's tool_calls {ADVICE}"


@pytest.mark.parametrize("model_config", ["chat_template/qwen2_5_7b_instruct.py", "chat_template/mistral_7b_instruct_v0_3.py", "qwen2_5_7b_instruct.py"])
def test_templates_that_write_tools_render_them(model_config):
    """Qwen2.5's and Mistral's templates write the tools and the tool calls: the rows render, with the functions in the text."""
    prompts = [prompt for index in range(3) for prompt in bfcl(model_config).render(index)]
    assert all("get_weather" in prompt.prompt for prompt in prompts[::2])
    assert "convert_currency" in prompts[0].prompt and "21.7" in prompts[0].prompt


def tool_choice(choice: Any, model_config: str) -> Renderer:
    rows = [{"question": "Weather in Oslo?", "answer": "x"}]
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="")])),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="GenInferencer"),
    )
    dataset = build_dataset(
        dict(
            abbr="choice",
            type="RowsDataset",
            rows={"test": rows, "train": rows},
            reader_cfg=dict(input_columns=["question"], output_column="answer"),
            infer_cfg=infer,
            tools=dict(tools=tools, tool_choice=choice),
        )
    )
    return Renderer(dataset, load_models(MODELS / model_config)[0])


@pytest.mark.parametrize("model_config", ["chat_template/qwen2_5_7b_instruct.py", "qwen2_5_7b_instruct.py"])
def test_tool_choice_a_string_prompt_cannot_carry_is_refused(model_config):
    """tool_choice='required' (or a named function) has no place in a chat template's string: an error, not a silent drop."""
    with pytest.raises(DatasetError) as caught:
        tool_choice("required", model_config).render(0)
    assert caught.value.message == (
        "the prompt's tool_choice 'required' has no place in a string prompt: the chat template writes the tools into the text, "
        "and only a chat model's request carries tool_choice; use a ChatModel, or tool_choice='auto' (or none)"
    )
    assert "get_weather" in tool_choice("auto", model_config).render(0)[0].prompt


def test_tool_choice_travels_in_a_chat_models_request():
    """A chat model's request carries tools and tool_choice as they are."""
    prompt = tool_choice("required", "gpt_4o_api.py").render(0)[0]
    assert prompt.request_fields is not None and prompt.request_fields["tool_choice"] == "required"


def test_cli_refuses_with_one_line(capsys):
    """`promptkit render` of the tools dataset for Llama 3 ends with exit 1 and one line naming the row."""
    assert main(["render", str(BFCL), "--model", str(MODELS / "llama3_8b_instruct.py"), "--dataset", "bfcl_demo_function_call"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("promptkit: error: config ")
    assert "model 'llama-3-8b-instruct', row 0: the chat template (configs/models/hf/llama3_8b_instruct) leaves the tools" in err
