"""ChatTemplate.render is byte-identical to transformers' apply_chat_template(..., tokenize=False).

The reference is the real library: transformers loads each bundled model
folder itself (the hf_tokenizer fixture in conftest.py). Nothing is downloaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2
import pytest

from promptkit import MetaTemplateError
from promptkit.chat_templates import ChatTemplate

MODEL_FOLDERS = sorted(p for p in (Path(__file__).parents[2] / "configs" / "models" / "hf").iterdir() if p.is_dir())

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather at a place.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City <name> & \"quotes\""}}, "required": ["city"]},
        },
    }
]
TOOL_CALL = {"id": "call12345", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Zürich"}}}

#: name -> (messages, extra apply_chat_template arguments)
CASES: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {
    "user": ([{"role": "user", "content": "What is 2+2?"}], {}),
    "system_user": ([{"role": "system", "content": "You are terse."}, {"role": "user", "content": "What is 2+2?"}], {}),
    "multi_turn": (
        [
            {"role": "user", "content": "Q1"},
            {"role": "assistant", "content": "A1"},
            {"role": "user", "content": "Q2"},
            {"role": "assistant", "content": "A2"},
            {"role": "user", "content": "Q3"},
        ],
        {},
    ),
    "system_multi_turn": (
        [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Q1"},
            {"role": "assistant", "content": "A1"},
            {"role": "user", "content": "Q2"},
        ],
        {},
    ),
    "empty_contents": ([{"role": "system", "content": ""}, {"role": "user", "content": ""}, {"role": "assistant", "content": ""}, {"role": "user", "content": "x"}], {}),
    "unicode_and_markup": (
        [
            {"role": "user", "content": "  Grüße, 世界 🙂\u2028 {{ 7*7 }} {% raw %} <|im_end|> </s> \n"},
            {"role": "assistant", "content": "\tÄ \\n {answer}  "},
            {"role": "user", "content": "<script>&amp;</script>"},
        ],
        {},
    ),
    "tool_calls": (
        [
            {"role": "user", "content": "Weather in Zürich?"},
            {"role": "assistant", "content": "", "tool_calls": [TOOL_CALL]},
            {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call12345", "name": "get_weather"},
            {"role": "user", "content": "Thanks"},
        ],
        {"tools": TOOLS},
    ),
    "tool_round_trip": (
        [
            {"role": "user", "content": "Weather in Zürich?"},
            {"role": "assistant", "content": "", "tool_calls": [TOOL_CALL]},
            {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call12345", "name": "get_weather"},
            {"role": "assistant", "content": "It is 21 °C."},
        ],
        {"tools": TOOLS},
    ),
    "tools_offered": ([{"role": "system", "content": "Use tools."}, {"role": "user", "content": "Weather?"}], {"tools": TOOLS}),
    "none_valued_key": ([{"role": "user", "content": "Hi", "name": None}], {}),
    "template_kwargs": ([{"role": "user", "content": "Hi"}], {"date_string": "01 Jan 2026", "enable_thinking": False}),
}
CONTINUE_CASES: dict[str, list[dict[str, Any]]] = {
    "continue_answer": [{"role": "user", "content": "What is 2+2?"}, {"role": "assistant", "content": "The answer is"}],
    "continue_trailing_space": [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "Answer: "}],
    "continue_after_system": [{"role": "system", "content": "S"}, {"role": "user", "content": "Q"}, {"role": "assistant", "content": "A:"}],
}


@pytest.fixture(scope="module", params=MODEL_FOLDERS, ids=lambda p: p.name)
def pair(request, hf_tokenizer) -> tuple[ChatTemplate, Any]:
    return ChatTemplate.from_folder(request.param), hf_tokenizer(request.param)


def reference_or_error(tokenizer: Any, messages: list[dict[str, Any]], **kwargs: Any) -> str | Exception:
    try:
        return tokenizer.apply_chat_template(json.loads(json.dumps(messages)), tokenize=False, **kwargs)
    except (jinja2.TemplateError, ValueError, TypeError, KeyError, IndexError) as exc:
        return exc


def assert_same(pair: tuple[ChatTemplate, Any], messages: list[dict[str, Any]], **kwargs: Any) -> None:
    template, tokenizer = pair
    expected = reference_or_error(tokenizer, messages, **kwargs)
    if isinstance(expected, Exception):
        with pytest.raises(MetaTemplateError) as caught:
            template.render(messages, **kwargs)
        message = getattr(expected, "message", None) or str(expected)
        assert message.split("\n")[0][:40] in str(caught.value) or isinstance(expected, ValueError), (caught.value, expected)
    else:
        assert template.render(messages, **kwargs) == expected


def test_every_bundled_model_folder_is_covered():
    """The bundled folders include the families the docs promise."""
    names = {p.name for p in MODEL_FOLDERS}
    assert {"llama3_8b_instruct", "llama3_1_8b_instruct", "qwen2_5_7b_instruct", "mistral_7b_instruct_v0_3", "gemma2_2b_it",
            "phi3_mini_4k_instruct", "deepseek_v2_chat", "chatml", "chatml_generation"} <= names


@pytest.mark.parametrize("add_generation_prompt", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_render_equals_apply_chat_template(pair, case, add_generation_prompt):
    """Same text as transformers for each message list, with and without the generation prompt (or both raise)."""
    messages, extra = CASES[case]
    assert_same(pair, messages, add_generation_prompt=add_generation_prompt, **extra)


@pytest.mark.parametrize("case", sorted(CONTINUE_CASES))
def test_continue_final_message_equals_apply_chat_template(pair, case):
    """continue_final_message leaves the last message open exactly where transformers does."""
    assert_same(pair, CONTINUE_CASES[case], continue_final_message=True)


def test_most_cases_render_for_every_template(pair):
    """Each bundled template renders plain user/assistant conversations (the comparison is not only of errors)."""
    template, tokenizer = pair
    rendered = [reference_or_error(tokenizer, CASES[c][0], add_generation_prompt=True) for c in ("user", "multi_turn")]
    assert all(isinstance(r, str) and r for r in rendered)


def test_folder_reads_what_transformers_reads(pair):
    """Template text and special tokens of each bundled folder equal those transformers loads."""
    template, tokenizer = pair
    assert dict(template.special_tokens) == tokenizer.special_tokens_map
    assert template.templates["default"] == tokenizer.chat_template
