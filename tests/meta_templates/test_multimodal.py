"""Multimodal turns in final inputs: chat part lists (never dropped, never a TypeError), completion placeholders + media."""

from __future__ import annotations

import pytest

from promptkit import ChatModel, CompletionModel, ConfigError, MetaTemplateError, PromptList, build_model
from promptkit.models import OpenAI, VLLMCustomAPIChat

IMAGE = {"type": "image_url", "image_url": {"url": "file:///d/cat.png"}}
TEXT = {"type": "text", "text": "What is it?"}


def prompt(*items) -> PromptList:
    return PromptList([{"section": "round", "pos": "begin"}, *items, {"section": "round", "pos": "end"}])


MM_TURN = dict(role="HUMAN", prompt_mm=[TEXT, IMAGE])
BOT = dict(role="BOT", prompt="")


def test_chat_model_sends_the_parts_list():
    assert VLLMCustomAPIChat().render(prompt(MM_TURN, BOT)) == [{"role": "user", "content": [TEXT, IMAGE]}]


def test_text_and_multimodal_messages_of_one_role_merge_into_one_parts_list():
    """AISBench raises TypeError here; the text becomes the first part."""
    pl = PromptList([{"section": "begin", "pos": "begin"}, dict(role="HUMAN", prompt="Context."), {"section": "begin", "pos": "end"}, *prompt(MM_TURN, BOT)])
    assert ChatModel().render(pl) == [{"role": "user", "content": [{"type": "text", "text": "Context."}, TEXT, IMAGE]}]


def test_system_text_and_parts_without_meta_template_keep_everything():
    """OpenAI with no meta template: one user message; AISBench returns only the text and drops the image."""
    pl = PromptList([dict(role="SYSTEM", prompt="Be brief."), *prompt(MM_TURN, BOT)])
    assert OpenAI().render(pl) == [{"role": "user", "content": [{"type": "text", "text": "Be brief."}, TEXT, IMAGE]}]


def test_role_begin_and_end_become_text_parts():
    meta = dict(round=[dict(role="HUMAN", api_role="HUMAN", begin="<u>", end="</u>"), dict(role="BOT", api_role="BOT", generate=True)])
    [message] = ChatModel(meta_template=meta).render(prompt(MM_TURN, BOT))
    assert message["content"] == [{"type": "text", "text": "<u>"}, TEXT, IMAGE, {"type": "text", "text": "</u>"}]


def test_completion_model_without_placeholder_is_an_error():
    """AISBench renders the turn as '' and sends a prompt without the image."""
    meta = dict(round=[dict(role="HUMAN", begin="U:", end="\n"), dict(role="BOT", begin="A:", generate=True)])
    with pytest.raises(MetaTemplateError, match=r"the prompt has an image part but this completion model has no placeholder for image"):
        CompletionModel(meta_template=meta).render_with_media(prompt(MM_TURN, BOT))
    with pytest.raises(MetaTemplateError, match=r"set mm_placeholders=dict\(image='<image>'\)"):
        CompletionModel().render_with_media(prompt(MM_TURN, BOT))


def test_completion_model_with_placeholders_returns_the_media_in_order():
    model = build_model(dict(type="CompletionModel", mm_placeholders=dict(image="<image>\n", audio="<audio>"),
                             meta_template=dict(round=[dict(role="HUMAN", begin="USER: ", end=" "), dict(role="BOT", begin="ASSISTANT:", generate=True)])))
    audio = {"type": "audio_url", "audio_url": {"url": "a.wav"}}
    text, media = model.render_with_media(prompt(dict(role="HUMAN", prompt_mm=[IMAGE, TEXT, audio]), BOT))
    assert text == "USER: <image>\nWhat is it?<audio> ASSISTANT:"
    assert media == [IMAGE, audio]
    with pytest.raises(MetaTemplateError, match=r"call render_with_media\(\) to get the media list"):
        model.render(prompt(MM_TURN, BOT))


def test_mm_placeholders_are_checked():
    with pytest.raises(ConfigError, match=r"mm_placeholders has the key 'imgae'; its keys are modalities: image, audio, video, file \(did you mean 'image'\?\)"):
        CompletionModel(mm_placeholders=dict(imgae="<image>"))
    with pytest.raises(ConfigError, match=r"mm_placeholders\['image'\] must be a str"):
        CompletionModel(mm_placeholders=dict(image=None))
