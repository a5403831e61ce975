"""Prefill, gen_prefix, thinking and chat-template kwargs in final inputs and records, per model kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit import ChatModel, ChatTemplateModel, CompletionModel, PromptkitError, Renderer, build_dataset
from promptkit.controls import Controls

ROOT = Path(__file__).parents[2]
QWEN3 = ROOT / "configs" / "models" / "hf" / "qwen3_0_6b"
QWEN2_5 = ROOT / "configs" / "models" / "hf" / "qwen2_5_7b_instruct"
ROWS = [{"q": "2+2=?", "a": "4"}]
CHAT = dict(begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Be brief.")], round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="Let me think.")])
ROUND = dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="Let me think.")])
COMPLETION = CompletionModel(meta_template=dict(round=[dict(role="HUMAN", begin="<u>", end="</u>"), dict(role="BOT", begin="<b>", end="</b>", generate=True)]))


def dataset(template=ROUND, inferencer=None, **infer):
    return build_dataset(
        dict(
            abbr="d",
            type="RowsDataset",
            rows=ROWS,
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(
                prompt_template=dict(type="PromptTemplate", template=template),
                retriever=dict(type="ZeroRetriever"),
                inferencer=inferencer or dict(type="GenInferencer"),
                **infer,
            ),
        )
    )


def user_messages(model: ChatTemplateModel) -> list[dict]:
    """The messages the chat-template model hands its template for the row (OpenCompass's conversion), without the cut BOT."""
    return model.messages(Renderer(dataset(), model).render(0)[0].intermediate, "gen")


def records(model, inferencer=None, controls=None, template=ROUND, **infer):
    return [p.to_record() for p in Renderer(dataset(template, inferencer, **infer), model, controls=controls).render(0)]


PREFILL = dict(type="GenInferencer", prefill=True)


def test_default_gen_drops_the_bot_text_as_opencompass():
    """Without prefill the final BOT item's text is cut, for every kind."""
    assert records(COMPLETION)[0]["prompt"] == "<u>2+2=?</u><b>"
    assert records(ChatModel(), template=CHAT)[0]["prompt"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "2+2=?"}]


def test_prefill_ends_a_completion_string_with_the_bot_text():
    """prefill=True keeps the BOT text (without its end); gen_prefix follows it verbatim."""
    assert records(COMPLETION, PREFILL)[0]["prompt"] == "<u>2+2=?</u><b>Let me think."
    both = dict(type="GenInferencer", prefill=True, gen_prefix=" The answer is")
    assert records(COMPLETION, both)[0]["prompt"] == "<u>2+2=?</u><b>Let me think. The answer is"
    only = dict(type="GenInferencer", gen_prefix="The best answer is")
    assert records(COMPLETION, only)[0]["prompt"] == "<u>2+2=?</u><b>The best answer is"


def test_gen_prefix_ends_a_string_template_prompt():
    """A string template has no cut; gen_prefix is appended to it."""
    record = records(None, dict(type="GenInferencer", gen_prefix=" Answer:"), template="Q: {q}")[0]
    assert record["prompt"] == "Q: 2+2=? Answer:"


def test_prefill_of_a_chat_model_is_an_assistant_message_to_continue():
    """API chat: the messages end with the assistant's start and the record says to continue it."""
    record = records(ChatModel(), PREFILL, template=CHAT)[0]
    assert record["prompt"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "2+2=?"},
        {"role": "assistant", "content": "Let me think."},
    ]
    assert (record["continue_final_message"], record["add_generation_prompt"]) == (True, False)
    assert "continue_final_message" not in records(ChatModel())[0]


def test_empty_bot_text_is_ordinary_generation():
    """prefill with nothing to keep adds no message and no continuation fields."""
    template = dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")])
    assert records(ChatModel(), PREFILL, template=template) == records(ChatModel(), template=template)


def test_chat_template_model_continues_the_final_message_as_transformers(hf_tokenizer):
    """Qwen3 with prefill: the same string as apply_chat_template(continue_final_message=True)."""
    model = ChatTemplateModel(path=str(QWEN3))
    expected = hf_tokenizer(QWEN3).apply_chat_template(
        [*user_messages(model), {"role": "assistant", "content": "Let me think."}],
        tokenize=False,
        continue_final_message=True,
        add_generation_prompt=False,
    )
    assert records(model, PREFILL)[0]["prompt"] == expected
    assert expected.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\nLet me think.")


@pytest.mark.parametrize("thinking", [True, False])
def test_thinking_sets_qwen3s_enable_thinking_as_transformers(hf_tokenizer, thinking):
    """thinking= is Qwen3's enable_thinking: the same string as transformers with that kwarg."""
    model = ChatTemplateModel(path=str(QWEN3))
    expected = hf_tokenizer(QWEN3).apply_chat_template(
        user_messages(model), tokenize=False, add_generation_prompt=True, enable_thinking=thinking
    )
    assert records(model, controls=Controls(thinking=thinking))[0]["prompt"] == expected
    assert expected.endswith("<|im_start|>assistant\n" if thinking else "<|im_start|>assistant\n<think>\n\n</think>\n\n")


def test_model_dataset_and_run_levels_merge_in_order():
    """model thinking=False < dataset infer_cfg thinking=True < run thinking=False, seen in Qwen3's output."""
    off = "<|im_start|>assistant\n<think>\n\n</think>\n\n"
    model = ChatTemplateModel(path=str(QWEN3), thinking=False)
    assert records(model)[0]["prompt"].endswith(off)
    assert records(model, thinking=True)[0]["prompt"].endswith("<|im_start|>assistant\n")
    assert records(model, controls=Controls(thinking=False), thinking=True)[0]["prompt"].endswith(off)
    assert records(model, chat_template_kwargs=dict(enable_thinking=True))[0]["prompt"].endswith("<|im_start|>assistant\n")


def test_api_chat_records_carry_chat_template_kwargs():
    """An API model's kwargs (thinking as enable_thinking) travel in the record, as vLLM's server takes them."""
    model = ChatModel(chat_template_kwargs=dict(reasoning_effort="low"))
    record = records(model, controls=Controls(thinking=False))[0]
    assert record["chat_template_kwargs"] == {"reasoning_effort": "low", "enable_thinking": False}
    assert record["provenance"]["overrides"] == ["thinking=False"]
    assert "chat_template_kwargs" not in records(ChatModel())[0]


def test_thinking_on_a_template_without_a_switch_is_refused():
    """Qwen2.5's template reads no enable_thinking: thinking= is an error there, naming the model."""
    with pytest.raises(PromptkitError) as caught:
        records(ChatTemplateModel(abbr="q25", path=str(QWEN2_5)), controls=Controls(thinking=False))
    assert str(caught.value).startswith("dataset 'd', model 'q25', key 'thinking': thinking=False is set but the model's chat template reads no thinking switch")


def test_ppl_refuses_thinking_on():
    """Likelihood scoring with thinking on is refused for every kind; thinking off is accepted."""
    ppl = dict(type="PPLInferencer")
    template = dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")])
    for model in (ChatTemplateModel(abbr="qwen3", path=str(QWEN3)), ChatModel(abbr="qwen3")):
        with pytest.raises(PromptkitError) as caught:
            records(model, ppl, Controls(thinking=True), template=template)
        assert str(caught.value) == (
            "dataset 'd', model 'qwen3', key 'thinking': thinking is on for model 'qwen3', but this dataset renders for likelihood (ppl/ll): "
            "a scored answer cannot follow a reasoning block; set thinking=False (or remove it) for this dataset"
        )
    assert records(ChatTemplateModel(path=str(QWEN3)), ppl, Controls(thinking=False), template=template)[0]["mode"] == "ppl"


def test_completion_model_refuses_thinking_on():
    """A meta template has no thinking switch."""
    with pytest.raises(PromptkitError) as caught:
        records(COMPLETION, controls=Controls(thinking=True))
    assert "thinking=True is set but model 'CompletionModel' is a completion model: its meta template has no thinking switch" in str(caught.value)


@pytest.mark.parametrize(("value", "message"), [(dict(prefill="yes"), "prefill must be True or False (got 'yes' that is a str)"), (dict(gen_prefix=3), "gen_prefix must be a str (got 3 that is a int)")])
def test_bad_prefill_options_name_the_key(value, message):
    """The inferencer checks prefill and gen_prefix."""
    with pytest.raises(PromptkitError) as caught:
        dataset(inferencer=dict(type="GenInferencer", **value))
    assert str(caught.value).endswith(message)
