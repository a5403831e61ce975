"""Parity with OpenCompass 0.5.4's HuggingFacewithChatTemplate path (and its vLLM/TurboMind twins).

expected/ct_*.jsonl hold, per prompt, the messages OpenCompass hands to
``tokenizer.apply_chat_template``: its default meta template (or the config's)
through ``APITemplateParser``, then ``_convert_chat_messages`` — recorded by
running OpenCompass (tools/opencompass_reference/). The string OpenCompass then
sends is ``apply_chat_template(messages, add_generation_prompt=True,
tokenize=False)``, computed here with the real transformers library on the same
model folder. promptkit must produce the same messages and the same string.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import ChatTemplateModel, PromptkitError, Renderer, load_datasets, load_models

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CASES = json.loads((HERE / "chat_template_cases.json").read_text())


@pytest.fixture(autouse=True)
def at_repository_root(monkeypatch):
    """Model configs give their folders relative to the repository root."""
    monkeypatch.chdir(ROOT)


def test_at_least_fifteen_dataset_model_combinations():
    """≥ 15 cases over ≥ 5 dataset configs and ≥ 5 model configs, all three OpenCompass classes."""
    assert len(CASES) >= 15
    assert len({c["dataset"] for c in CASES}) >= 5 and len({c["model"] for c in CASES}) >= 5
    types = {load_models(HERE / c["model"])[0].__class__.__name__ for c in CASES}
    assert types == {"HuggingFacewithChatTemplate", "VLLMwithChatTemplate", "TurboMindModelwithChatTemplate"}


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case: dict, hf_tokenizer):
    """Same messages as OpenCompass's conversion, and the same string as transformers makes of them."""
    expected = [json.loads(line) for line in (HERE / "expected" / f"{case['name']}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert expected and "error" not in expected[0], "the recording is an OpenCompass error; choose another combination"
    (model,) = load_models(HERE / case["model"])
    assert isinstance(model, ChatTemplateModel)
    tokenizer = hf_tokenizer(Path(model.chat_template.origin))
    try:
        rendered = [p for d in load_datasets(HERE / case["dataset"]) for p in Renderer(d, model)]
    except PromptkitError as error:
        pytest.fail(f"promptkit raised where OpenCompass rendered: {error}")
    assert len(rendered) == len(expected)
    for prompt, record in zip(rendered, expected, strict=True):
        assert (prompt.index, prompt.ice_idx) == (record["index"], record["ice_idx"])
        assert model.messages(prompt.intermediate, prompt.mode) == record["prompt"]
        assert prompt.prompt == tokenizer.apply_chat_template(record["prompt"], add_generation_prompt=True, tokenize=False)
