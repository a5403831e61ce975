"""Memoised sections: reusing a shot's converted form gives exactly what converting its turns one by one gives.

The meta-template walk hands a run of shots to its consumers as one memoised
``Section``, and the chat and completion renderers keep what they make of it.
Here every renderer is checked, over random prompts that share shots (so the
memo is hit), against the plain algorithm: flatten the events, convert each,
merge afterwards.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import ChatModel, ChatTemplateModel, CompletionModel, Message, MetaTemplateError, PromptList, to_openai
from promptkit.meta_templates._walk import Cut, Rendered, Section, Text, _walk_items, walk
from promptkit.meta_templates.chat_messages import _event_content, _join_lines, merge_content
from promptkit.meta_templates.completion import parts_to_text

IMAGE = {"type": "image_url", "image_url": {"url": "file:///d/cat.png"}}
OPENAI = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}
LLAMA3 = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
    reserved_roles=[dict(role="SYSTEM", begin="<|start_header_id|>system<|end_header_id|>\n\n", end="<|eot_id|>")],
)
WITH_BEGIN = dict(
    begin=dict(role="HUMAN", prompt="Read carefully."),
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
    reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
)
#: OpenCompass's meta template for chat-template models: SYSTEM is a round role sent as HUMAN (empty in most turns).
OPENCOMPASS_DEFAULT = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="SYSTEM", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)]
)
#: Every role sent as a user message: every seam merges, so text meets parts lists at the seams.
ALL_USER = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="SYSTEM", api_role="HUMAN"), dict(role="BOT", api_role="HUMAN", generate=True)]
)
ECHO_TEMPLATE = "{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}"

texts = st.sampled_from(["", "Q1", "Q2 {answer}", "A", "B\n", "  ", "\n", "note:"])


def role(name: str, multimodal: bool = False, text: str = "") -> dict[str, Any]:
    if multimodal:
        return dict(role=name, prompt_mm=[{"type": "text", "text": text or "look"}, IMAGE])
    return dict(role=name, prompt=text)


@st.composite
def shot(draw: Any) -> list[Any]:
    items: list[Any] = [{"section": "ice", "pos": "begin"}]
    if draw(st.booleans()):
        items.append(draw(texts))  # text inside a shot: emitted where it stands
    items.append(role("HUMAN", draw(st.booleans()), draw(texts)))
    if draw(st.booleans()):
        items.append(role("HUMAN", text=draw(texts)))
    if draw(st.booleans()):
        items.append(role("BOT", text=draw(texts)))
    items.append({"section": "ice", "pos": "end"})
    return items


@st.composite
def prompts(draw: Any) -> tuple[list[PromptList], str]:
    """Several prompts whose shots come from one small pool (so memoised sections recur), and a mode."""
    pool = draw(st.lists(shot(), min_size=1, max_size=4))
    mode = draw(st.sampled_from(["gen", "ppl"]))
    out = []
    for _ in range(draw(st.integers(1, 4))):
        items: list[Any] = [{"section": "begin", "pos": "begin"}]
        if draw(st.booleans()):
            items.append(dict(role="SYSTEM", fallback_role="HUMAN", prompt=draw(texts)))
        if draw(st.booleans()):
            items.append(role("HUMAN", draw(st.booleans()), draw(texts)))
        if draw(st.booleans()):
            items.append(draw(texts))
        for index in draw(st.lists(st.integers(0, len(pool) - 1), max_size=5)):
            items.extend(pool[index])
            if draw(st.booleans()):
                items.append(draw(texts))
        items.append({"section": "begin", "pos": "end"})
        items.append({"section": "round", "pos": "begin"})
        items.append(role("HUMAN", draw(st.booleans()), draw(texts)))
        items.append(role("BOT", text=draw(texts)))
        items.append({"section": "round", "pos": "end"})
        if draw(st.booleans()):
            items.append(draw(texts))
        out.append(PromptList(items))
    return out, mode


def flat_events(prompt: PromptList, model: Any, mode: str) -> list[Any]:
    out: list[Any] = []
    for event in walk(prompt.items, model._roles, mode):
        out.extend(event.events if type(event) is Section else [event])
    return out


def plain_api_messages(prompt: PromptList, model: Any, mode: str) -> list[list[Any]]:
    """The plain algorithm: one message per rendered role, text outside roles joined to user messages, merge last."""
    messages: list[list[Any]] = []
    pending: list[str] = []
    for event in flat_events(prompt, model, mode):
        if type(event) is Rendered:
            content = _event_content(event)
            if pending:
                if event.spec.api_role != "HUMAN":
                    raise MetaTemplateError("misplaced text")
                content = _join_lines("".join(pending), content)
                pending = []
            messages.append([event.spec.api_role, content])
        elif type(event) is Text and event.text.strip():
            pending.append(event.text)
        elif type(event) is Cut:
            break
    if pending:
        if not messages or messages[-1][0] != "HUMAN":
            raise MetaTemplateError("misplaced text")
        messages[-1][1] = _join_lines(messages[-1][1], "".join(pending))
    merged: list[list[Any]] = []
    for api_role, content in messages:
        if merged and merged[-1][0] == api_role:
            merged[-1][1] = merge_content(merged[-1][1], content)
        else:
            merged.append([api_role, content])
    return merged


def plain_chat_messages(prompt: PromptList, model: ChatModel, mode: str) -> list[Message]:
    messages = [Message(OPENAI[r], c) for r, c in plain_api_messages(prompt, model, mode)]
    begin = model.meta_template.begin if model.meta_template else None
    if begin:
        messages.insert(0, Message(OPENAI[begin["role"]], begin.get("prompt", "")))
    return messages


def plain_chat(prompt: PromptList, model: ChatModel, mode: str) -> list[dict[str, Any]]:
    return to_openai(plain_chat_messages(prompt, model, mode))


def plain_chat_template_messages(prompt: PromptList, model: ChatTemplateModel, mode: str) -> list[dict[str, Any]]:
    """OpenCompass's conversion for chat-template models: empty messages skipped, same roles merged again."""
    merged: list[Message] = []
    for message in plain_chat_messages(prompt, model.chat_model, mode):
        if not message.content:
            continue
        if merged and merged[-1].role == message.role:
            merged[-1] = Message(message.role, merge_content(merged[-1].content, message.content))
        else:
            merged.append(message)
    return to_openai(merged)


def plain_completion(prompt: PromptList, model: CompletionModel, mode: str) -> tuple[str, list[Any]]:
    media: list[Any] = []
    out = []
    cut = False
    for event in flat_events(prompt, model, mode):
        if type(event) is Rendered:
            body = event.prompt if event.parts is None else parts_to_text(event.parts, model.mm_placeholders, media)
            out.append(event.begin + body + event.end)
        elif type(event) is Text:
            out.append(event.text)
        else:
            out.append(event.begin)
            cut = True
    meta = model._roles.meta
    return meta.begin + "".join(out) + ("" if cut else meta.end), media


def outcome(render: Any, *args: Any) -> Any:
    try:
        return render(*args)
    except MetaTemplateError:
        return "MetaTemplateError"


@settings(max_examples=300, deadline=None)
@given(prompts())
def test_chat_messages_equal_the_plain_algorithm(case):
    """ChatModel (with and without a begin message) and ChatTemplateModel's conversion, memo warm or cold."""
    batch, mode = case
    chat_models = [ChatModel(meta_template=meta) for meta in (None, WITH_BEGIN, OPENCOMPASS_DEFAULT, ALL_USER)]
    template_model = ChatTemplateModel(chat_template=ECHO_TEMPLATE)
    for prompt in batch + batch:  # the second pass meets every section memoised
        for model in chat_models:
            assert outcome(model.render, prompt, mode) == outcome(plain_chat, prompt, model, mode)
        assert outcome(template_model.messages, prompt, mode) == outcome(plain_chat_template_messages, prompt, template_model, mode)


@settings(max_examples=200, deadline=None)
@given(prompts())
def test_completion_strings_equal_the_plain_algorithm(case):
    """A completion model's string and media, memo warm or cold, with media placeholders."""
    batch, mode = case
    model = CompletionModel(meta_template=LLAMA3, mm_placeholders=dict(image="<image>"))
    for prompt in batch + batch:
        assert outcome(model.render_with_media, prompt, mode) == outcome(plain_completion, prompt, model, mode)


@settings(max_examples=100, deadline=None)
@given(prompts())
def test_runs_of_sections_carry_the_events_of_their_sections(case):
    """The walk joins consecutive sections into one; the events, in order, are those of the sections alone."""
    batch, mode = case
    roles = ChatModel()._roles
    for prompt in batch:
        joined = [e for event in walk(prompt.items, roles, mode) for e in (event.events if type(event) is Section else [event])]
        alone = [e for event in _walk_items(prompt.items, roles, mode) for e in (event.events if type(event) is Section else [event])]
        assert joined == alone


def test_a_shot_after_a_multimodal_message_of_its_role_is_converted_turn_by_turn():
    """Text merged onto a parts list adds a part per message, and an empty one adds none: the shot's joined text
    ("Q" and the empty SYSTEM turn of OpenCompass's meta template, "Q\\n") would add a newline that is not there."""
    shot_items = [{"section": "ice", "pos": "begin"}, dict(role="HUMAN", prompt="Q"), dict(role="BOT", prompt="A"), {"section": "ice", "pos": "end"}]
    prompt = PromptList(
        [{"section": "begin", "pos": "begin"}, role("HUMAN", True, "see"), *shot_items, {"section": "begin", "pos": "end"}]
        + [{"section": "round", "pos": "begin"}, dict(role="HUMAN", prompt="Z"), dict(role="BOT", prompt=""), {"section": "round", "pos": "end"}]
    )
    model = ChatModel(meta_template=OPENCOMPASS_DEFAULT)
    for _ in range(2):
        assert model.render(prompt, "gen") == [
            {"role": "user", "content": [{"type": "text", "text": "see"}, IMAGE, {"type": "text", "text": "Q"}]},
            {"role": "assistant", "content": "A"},
            {"role": "user", "content": "Z\n"},
        ]


@pytest.mark.parametrize("tail", ["", "B\n"])
def test_text_after_the_last_shot_joins_only_the_last_message(tail):
    """Loose text at the end joins the last message alone, then the merge: as if merging came after it."""
    prompt = PromptList(
        [role("HUMAN", True, "see"), {"section": "ice", "pos": "begin"}, dict(role="HUMAN", prompt="Q" + tail), {"section": "ice", "pos": "end"}, "And?"]
    )
    [message] = ChatModel(meta_template=dict(round=[dict(role="HUMAN", api_role="HUMAN")])).render(prompt, "ppl")
    joined = "Q" + tail + ("And?" if tail.endswith("\n") else "\nAnd?")
    assert message["content"] == [{"type": "text", "text": "see"}, IMAGE, {"type": "text", "text": joined}]
