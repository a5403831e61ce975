"""Chat output is typed inside promptkit (frozen Message and Part values) and OpenAI-style dicts only at the edge."""

from __future__ import annotations

import dataclasses

import pytest

import promptkit.models
from promptkit import ChatModel, ChatTemplateModel, Message, Part, PromptList, to_openai
from promptkit.meta_templates import count_tokens

FEW_SHOT = PromptList(
    [
        {"section": "begin", "pos": "begin"},
        dict(role="SYSTEM", prompt="Be brief."),
        {"section": "ice", "pos": "begin"},
        dict(role="HUMAN", prompt="1+1?"),
        dict(role="BOT", prompt="2"),
        {"section": "ice", "pos": "end"},
        {"section": "begin", "pos": "end"},
        {"section": "round", "pos": "begin"},
        dict(role="HUMAN", prompt="2+2?"),
        dict(role="BOT", prompt=""),
        {"section": "round", "pos": "end"},
    ]
)
ROLES = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
    reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
)
IMAGE = {"type": "image_url", "image_url": {"url": "file:///d/cat.png", "detail": "low"}}


def test_rendered_dicts_are_fresh_for_every_prompt():
    """Changing the dicts one render returned changes neither the model's next render nor its typed messages."""
    model = ChatModel()
    first = model.render(FEW_SHOT)
    first[0]["content"] = "changed"
    first[1]["role"] = "changed"
    assert model.render(FEW_SHOT) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "1+1?"},
        {"role": "assistant", "content": "2"},
        {"role": "user", "content": "2+2?"},
    ]
    assert model.chat_messages(FEW_SHOT)[0] == Message("system", "Be brief.")


def test_messages_are_frozen_and_dump_their_parts_afresh():
    """A Message cannot be changed; its OpenAI dict holds fresh part dicts."""
    message = Message("user", (Part.text("look"), Part.from_dict(IMAGE)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.content = "x"  # type: ignore[misc]
    dumped = to_openai([message])
    dumped[0]["content"][1]["image_url"]["url"] = "changed"
    assert to_openai([message]) == [{"role": "user", "content": [{"type": "text", "text": "look"}, IMAGE]}]


def test_part_is_a_value_read_once():
    """A part keeps what it was built from (later changes to the dict do not reach it), equal regardless of key order."""
    data = {"type": "image_url", "image_url": {"url": "file:///d/cat.png", "detail": "low"}}
    part = Part.from_dict(data)
    data["image_url"]["url"] = "changed"
    assert part.url == "file:///d/cat.png"
    moved = part.with_url("file:///d/dog.png")
    assert moved.dump() == {"type": "image_url", "image_url": {"url": "file:///d/dog.png", "detail": "low"}}
    assert part.dump() == IMAGE
    reordered = Part.from_dict({"image_url": {"detail": "low", "url": "file:///d/cat.png"}, "type": "image_url"})
    assert reordered == part and hash(reordered) == hash(part)


def test_system_policy_builds_new_messages():
    """merge_into_first_user gives new messages; the composed chat model's messages stay as they were."""
    model = ChatTemplateModel(
        chat_template="{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}", system_role="merge_into_first_user", meta_template=ROLES
    )
    before = model.chat_model.chat_messages(FEW_SHOT)
    assert model.render(FEW_SHOT) == "[user]Be brief.\n\n1+1?[assistant]2[user]2+2?"
    assert model.render(FEW_SHOT) == "[user]Be brief.\n\n1+1?[assistant]2[user]2+2?"
    assert model.chat_model.chat_messages(FEW_SHOT) == before
    assert before[0] == Message("system", "Be brief.")


def test_chat_template_model_composes_a_chat_model():
    """ChatTemplateModel's messages come from the ChatModel it holds, over the same meta template."""
    model = ChatTemplateModel(chat_template="{{ messages | length }}")
    assert isinstance(model.chat_model, ChatModel)
    assert model.meta_template == model.chat_model.meta_template
    assert model.messages(FEW_SHOT) == to_openai(model.chat_messages(FEW_SHOT))


def test_tokens_are_counted_from_typed_messages_as_from_their_dicts():
    """count_tokens reads typed messages and the dicts at the edge alike; media parts count nothing."""
    model = ChatModel()
    words = 5  # Be brief. 1+1? 2 2+2?
    assert count_tokens(model.chat_messages(FEW_SHOT), lambda text: len(text.split())) == words
    assert count_tokens(model.render(FEW_SHOT), lambda text: len(text.split())) == words
    multimodal = (Message("user", (Part.text("look here"), Part.from_dict(IMAGE))),)
    assert count_tokens(multimodal, lambda text: len(text.split())) == count_tokens(to_openai(multimodal), lambda text: len(text.split())) == 2


def test_the_opencompass_names_module_keeps_its_names():
    """Configs import the model classes from promptkit.models under OpenCompass's and AISBench's names."""
    assert promptkit.models.__all__ == [
        "AI360GPT",
        "GLM130B",
        "VLLM",
        "AlayaLM",
        "BaiChuan",
        "BailingAPI",
        "ChatModel",
        "ChatTemplateModel",
        "Claude",
        "ClaudeAllesAPIN",
        "CompletionModel",
        "DeepseekAPI",
        "ERNIEBot",
        "Gemini",
        "HuggingFace",
        "HuggingFaceBaseModel",
        "HuggingFaceCausalLM",
        "HuggingFacewithChatTemplate",
        "InternLM",
        "InternTrain",
        "KrGPT",
        "LightllmAPI",
        "LightllmChatAPI",
        "LmdeployPytorchModel",
        "MiniMaxChatCompletionV2",
        "ModelScope",
        "ModelScopeCausalLM",
        "MoonShot",
        "OpenAI",
        "OpenAISDK",
        "OpenAISDKStreaming",
        "Rendu",
        "SenseTime",
        "StepFun",
        "TeleChat",
        "TeleChatStream",
        "TurboMindAPIModel",
        "TurboMindModel",
        "TurboMindModelwithChatTemplate",
        "UniGPT",
        "VLLMCustomAPI",
        "VLLMCustomAPIChat",
        "VLLMwithChatTemplate",
        "YiAPI",
    ]
