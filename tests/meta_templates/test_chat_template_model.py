"""ChatTemplateModel and its OpenCompass aliases: OpenCompass's message conversion, then the model's chat template."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit import ChatTemplateModel, ConfigError, MetaTemplateError, PromptList, build_model

HF = Path(__file__).parents[2] / "configs" / "models" / "hf"
CHATML = "{% for m in messages %}<{{ m.role }}>{{ m.content }}</>{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"
RESERVED_SYSTEM = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
    reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
)


def sec(name: str, pos: str) -> dict[str, str]:
    return {"section": name, "pos": pos}


def shot_prompt(system: str | None = "You are helpful.") -> PromptList:
    """A system prompt, one chat shot, the test question and the (cut) answer turn."""
    begin = [sec("begin", "begin")] + ([{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": system}] if system is not None else [])
    return PromptList(
        begin
        + [
            sec("ice", "begin"),
            {"role": "HUMAN", "prompt": "Q: 1+1\nAnswer: "},
            {"role": "BOT", "prompt": "2"},
            sec("ice", "end"),
            sec("begin", "end"),
            sec("round", "begin"),
            {"role": "HUMAN", "prompt": "Q: 2+2\nAnswer: "},
            {"role": "BOT", "prompt": "4"},
            sec("round", "end"),
        ]
    )


def test_default_meta_template_merges_system_into_user_with_trailing_newlines():
    """OpenCompass's default (SYSTEM a round role sent as HUMAN): system text joins the first user message, users end in '\\n'."""
    model = ChatTemplateModel(chat_template=CHATML)
    assert model.messages(shot_prompt()) == [
        {"role": "user", "content": "You are helpful.\nQ: 1+1\nAnswer: \n"},
        {"role": "assistant", "content": "2"},
        {"role": "user", "content": "Q: 2+2\nAnswer: \n"},
    ]
    assert model.render(shot_prompt()) == "<user>You are helpful.\nQ: 1+1\nAnswer: \n</><assistant>2</><user>Q: 2+2\nAnswer: \n</><assistant>"


def test_reserved_system_role_keeps_a_system_message():
    """With reserved SYSTEM→SYSTEM (OpenCompass's llama-3.1 config) the system message stands alone, no trailing '\\n'."""
    model = ChatTemplateModel(chat_template=CHATML, meta_template=RESERVED_SYSTEM)
    assert [m["role"] for m in model.messages(shot_prompt())] == ["system", "user", "assistant", "user"]
    assert model.messages(shot_prompt())[1]["content"] == "Q: 1+1\nAnswer: "


def test_empty_prompts_are_skipped():
    """An empty SYSTEM item sends no message (OpenCompass skips empty prompts)."""
    model = ChatTemplateModel(chat_template=CHATML, meta_template=RESERVED_SYSTEM)
    assert [m["role"] for m in model.messages(shot_prompt(system=""))] == ["user", "assistant", "user"]


def test_plain_string_prompt_is_one_user_message():
    """A string prompt becomes one user message before the template."""
    assert ChatTemplateModel(chat_template=CHATML).render("Q: 3+3?") == "<user>Q: 3+3?</><assistant>"


def test_ppl_mode_ends_with_the_answer_and_no_generation_prompt():
    """ppl: the answer turn is part of the conversation and the template adds no generation prompt."""
    assert ChatTemplateModel(chat_template=CHATML).render(shot_prompt(), "ppl").endswith("<user>Q: 2+2\nAnswer: \n</><assistant>4</>")


def test_bundled_llama3_folder():
    """The Llama-3 folder's template: BOS, headers, trimmed contents (the merged '\\n' is trimmed away)."""
    model = build_model(dict(type="HuggingFacewithChatTemplate", abbr="llama3", path=str(HF / "llama3_8b_instruct")))
    assert model.render(shot_prompt()) == (
        "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nYou are helpful.\nQ: 1+1\nAnswer:<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n2<|eot_id|>"
        "<|start_header_id|>user<|end_header_id|>\n\nQ: 2+2\nAnswer:<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    )


def test_template_refusing_system_names_model_and_policies():
    """Gemma-2 raises on a system message: the error names the model, the template and the system_role policies."""
    model = ChatTemplateModel(abbr="gemma-2", path=str(HF / "gemma2_2b_it"), meta_template=RESERVED_SYSTEM)
    with pytest.raises(MetaTemplateError) as caught:
        model.render(shot_prompt())
    assert str(caught.value) == (
        f"model 'gemma-2': the chat template ({HF / 'gemma2_2b_it'}) raised: System role not supported; the prompt has a system "
        "message: set system_role='merge_into_first_user' or 'fallback' in the model config to send its text as user text, "
        "'drop' to leave it out, or 'auto' to choose from what the template does"
    )


def test_system_role_merge_into_first_user():
    """merge_into_first_user: the system text opens the first user message, followed by a blank line."""
    model = ChatTemplateModel(path=str(HF / "gemma2_2b_it"), meta_template=RESERVED_SYSTEM, system_role="merge_into_first_user")
    assert model.render(shot_prompt()).startswith("<bos><start_of_turn>user\nYou are helpful.\n\nQ: 1+1\nAnswer:<end_of_turn>\n")


def test_system_role_fallback_sends_user_messages():
    """fallback: a system message becomes a user message, merged with the next one by '\\n' (OpenCompass's merge)."""
    model = ChatTemplateModel(chat_template=CHATML, meta_template=RESERVED_SYSTEM, system_role="fallback")
    assert model.messages(shot_prompt())[0] == {"role": "user", "content": "You are helpful.\nQ: 1+1\nAnswer: "}


def test_system_role_drop_leaves_system_messages_out():
    """drop: the system message is not sent; the rest of the conversation is unchanged."""
    model = ChatTemplateModel(chat_template=CHATML, meta_template=RESERVED_SYSTEM, system_role="drop")
    assert model.render(shot_prompt()) == "<user>Q: 1+1\nAnswer: </><assistant>2</><user>Q: 2+2\nAnswer: </><assistant>"


def test_system_role_drop_merges_the_user_messages_it_brings_together():
    """drop between two user messages: they are merged by '\n', as OpenCompass merges messages of one role."""
    model = ChatTemplateModel(chat_template=CHATML, meta_template=RESERVED_SYSTEM, system_role="drop")
    prompt = PromptList([sec("round", "begin"), {"role": "HUMAN", "prompt": "A"}, {"role": "SYSTEM", "prompt": "S"},
                         {"role": "HUMAN", "prompt": "B"}, {"role": "BOT", "prompt": ""}, sec("round", "end")])
    assert model.render(prompt) == "<user>A\nB</><assistant>"


@pytest.mark.parametrize(
    ("folder", "probe", "applied"),
    [
        ("gemma2_2b_it", "raises", "merge_into_first_user"),
        ("phi3_mini_4k_instruct", "drops", "merge_into_first_user"),
        ("llama3_8b_instruct", "own_turn", "error"),
        ("qwen2_5_7b_instruct", "own_turn", "error"),
        ("deepseek_v2_chat", "own_turn", "error"),
        ("mistral_7b_instruct_v0_3", "in_user_turn", "error"),
    ],
)
def test_system_role_auto_probes_the_template_once(folder: str, probe: str, applied: str):
    """auto: what the bundled chat template does with a system message picks the policy applied."""
    model = ChatTemplateModel(path=str(HF / folder), meta_template=RESERVED_SYSTEM, system_role="auto")
    assert (model.system_policy.probe, model.system_role) == (probe, applied)
    assert model.system_policy.dump() == {"system_role": "auto", "system_role_applied": applied, "system_probe": probe}


def test_system_role_auto_keeps_the_system_text_a_template_refuses():
    """auto on Gemma-2 (raises on system): the system text opens the first user turn instead of an error."""
    model = ChatTemplateModel(path=str(HF / "gemma2_2b_it"), meta_template=RESERVED_SYSTEM, system_role="auto")
    assert model.render(shot_prompt()).startswith("<bos><start_of_turn>user\nYou are helpful.\n\nQ: 1+1\nAnswer:<end_of_turn>\n")
    assert model.system_policy.describe() == (
        "system_role='auto': the chat template raises on a system message, so 'merge_into_first_user' "
        "(the system text opens the first user message)"
    )


def test_system_role_auto_keeps_the_system_text_a_template_drops():
    """auto on Phi-3 (whose template drops system messages): the system text reaches the prompt."""
    model = ChatTemplateModel(path=str(HF / "phi3_mini_4k_instruct"), meta_template=RESERVED_SYSTEM, system_role="auto")
    assert "You are helpful." in model.render(shot_prompt())
    assert "You are helpful." not in ChatTemplateModel(path=str(HF / "phi3_mini_4k_instruct"), meta_template=RESERVED_SYSTEM).render(shot_prompt())


def test_a_configured_system_role_is_not_probed():
    """A policy given by name is applied as given; the record's fields say so, with no probe."""
    model = ChatTemplateModel(path=str(HF / "gemma2_2b_it"), system_role="fallback")
    assert model.system_policy.dump() == {"system_role": "fallback", "system_role_applied": "fallback"}


def test_merge_into_first_user_without_user_message():
    """A system message and no user message cannot be merged: the error says so."""
    model = ChatTemplateModel(chat_template=CHATML, meta_template=RESERVED_SYSTEM, system_role="merge_into_first_user")
    with pytest.raises(MetaTemplateError, match="no user message to carry the system text"):
        model.render(PromptList([sec("begin", "begin"), {"role": "SYSTEM", "prompt": "S"}, sec("begin", "end")]))


def test_chat_template_kwargs_and_special_tokens_override():
    """chat_template_kwargs reach the template; special_tokens override the folder's."""
    model = ChatTemplateModel(
        chat_template="{{ bos_token }}{{ messages[0].content }}{% if enable_thinking is false %}/no_think{% endif %}",
        special_tokens={"bos_token": "<s>"},
        chat_template_kwargs={"enable_thinking": False},
    )
    assert model.render("Hi") == "<s>Hi/no_think"
    folder_model = ChatTemplateModel(path=str(HF / "llama3_8b_instruct"), special_tokens={"bos_token": "<BOS>"})
    assert folder_model.render("Hi").startswith("<BOS><|start_header_id|>user")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(), "a chat-template model needs path= (a local model folder with tokenizer_config.json) or chat_template= (the template text)"),
        (
            dict(chat_template=CHATML, system_role="keep"),
            "system_role must be one of ['error', 'merge_into_first_user', 'fallback', 'drop', 'auto'] (got 'keep')",
        ),
        (dict(chat_template=CHATML, fastchat_template="vicuna"), "the model config gives both fastchat_template and chat_template; keep one"),
        (
            dict(fastchat_template="alpaca"),
            "fastchat_template='alpaca' is a FastChat conversation style promptkit does not know (it knows 'vicuna'), so promptkit "
            "cannot know the prompt it makes; remove fastchat_template to use the model's own chat template, or write the style "
            "as a meta template (CompletionModel)",
        ),
        (dict(chat_template={"a": "A", "b": "B"}), "inline: the model has several chat templates and none is named 'default'"),
    ],
)
def test_config_errors(kwargs, message):
    """Bad model configs fail at load time with what to do."""
    with pytest.raises(ConfigError) as caught:
        ChatTemplateModel(**kwargs)
    assert message in str(caught.value)


def test_hub_id_path_fails_with_model_and_config(tmp_path, monkeypatch):
    """A hub id in no cache: the error names the config file and model and says nothing is downloaded."""
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.delenv("TRANSFORMERS_CACHE", raising=False)
    config = tmp_path / "qwen.py"
    config.write_text("models = [dict(abbr='qwen', type='HuggingFacewithChatTemplate', path='Qwen/Qwen2.5-7B-Instruct')]\n")
    from promptkit import load_models

    with pytest.raises(ConfigError) as caught:
        load_models(config)
    assert str(caught.value).startswith(
        f"config {config}, model 'qwen', key 'path': model 'Qwen/Qwen2.5-7B-Instruct' is neither a local folder nor in the "
        "Hugging Face cache (looked in the working directory and in the model config's folder"
    )


@pytest.mark.parametrize("alias", ["HuggingFacewithChatTemplate", "VLLMwithChatTemplate", "TurboMindModelwithChatTemplate"])
def test_aliases_accept_opencompass_runtime_keys(alias):
    """OpenCompass configs port with their runtime keys (max_out_len, batch_size, run_cfg, …) ignored."""
    model = build_model(dict(type=alias, path=str(HF / "qwen2_5_7b_instruct"), max_out_len=1024, batch_size=8, run_cfg=dict(num_gpus=1)))
    assert isinstance(model, ChatTemplateModel)
    assert model.render("Hi") == (
        "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
        "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    )


def test_multimodal_parts_reach_the_template_and_a_text_only_template_says_so():
    """Content parts are handed over as a list; a template that only handles text fails naming the messages with parts."""
    from promptkit import Part, RoleItem

    prompt = PromptList([sec("round", "begin"), RoleItem("HUMAN", "", parts=(Part.text("What is shown?"), Part.media("image", "https://x/cat.png"))),
                         RoleItem("BOT", ""), sec("round", "end")])
    lists = ChatTemplateModel(chat_template="{% for m in messages %}{% for p in m.content %}[{{ p.type }}]{% endfor %}{% endfor %}")
    assert lists.render(prompt) == "[text][image_url]"
    with pytest.raises(MetaTemplateError) as caught:
        ChatTemplateModel(chat_template="{% for m in messages %}{{ '<' + m.role + '>' + m.content }}{% endfor %}").render(prompt)
    assert "message(s) [0] carry multimodal content parts, which this chat template does not handle" in str(caught.value)
