"""MessagesTemplate: a row's OpenAI-style messages as turns; its errors name the message and say what to do."""

from __future__ import annotations

import pytest

from promptkit import MessagesTemplate, PromptList, RoleItem, TemplateError


def test_string_and_part_contents_render_as_text():
    """A str content and a list of text parts (joined by a newline) are both turn text."""
    row = {"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}, {"role": "assistant", "content": "c"},
                        {"role": "user", "content": "d"}]}
    out = MessagesTemplate().render(row, mask_value="")
    assert [item.dump() for item in out if not isinstance(item, str) and hasattr(item, "role")] == [
        {"role": "HUMAN", "prompt": "a\nb"}, {"role": "BOT", "prompt": "c"}, {"role": "HUMAN", "prompt": "d"}, {"role": "BOT", "prompt": ""}]


def test_shots_go_after_leading_system_messages():
    """Shots sit in the round, before the first non-system message; system messages stay in begin."""
    shot = MessagesTemplate().render_shot({"messages": [{"role": "user", "content": "q1"}], "answer": "a1"})
    row = {"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "q2"}]}
    out = MessagesTemplate().render(row, shot)
    assert repr(out) == repr(PromptList([
        {"section": "begin", "pos": "begin"}, {"role": "SYSTEM", "prompt": "s", "fallback_role": "HUMAN"}, {"section": "begin", "pos": "end"},
        {"section": "round", "pos": "begin"},
        {"section": "ice", "pos": "begin"}, {"role": "HUMAN", "prompt": "q1"}, {"role": "BOT", "prompt": "a1"}, {"section": "ice", "pos": "end"},
        {"role": "HUMAN", "prompt": "q2"}, {"role": "BOT", "prompt": ""},
        {"section": "round", "pos": "end"},
    ]))


def test_media_parts_make_a_multimodal_turn_with_choices_last():
    """Image parts stay parts, in order; the choices follow as a text part."""
    row = {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "a.png"}}, {"type": "text", "text": "what?"}]}],
           "choices": "A. cat\nB. dog"}
    turn = [item for item in MessagesTemplate().render(row) if isinstance(item, RoleItem)][0]
    assert turn.prompt is None and [part.dump() for part in turn.parts] == [
        {"type": "image_url", "image_url": {"url": "a.png"}}, {"type": "text", "text": "what?"}, {"type": "text", "text": "\nA. cat\nB. dog"}]


def test_file_part_is_a_part_of_the_turn():
    """A file part is a content part of its turn, in order, like an image; an unknown part type is an error naming the message."""
    row = {"messages": [{"role": "user", "content": [{"type": "file_url", "file_url": {"url": "a.pdf"}}, {"type": "text", "text": "sum?"}]}]}
    [turn, _] = [item for item in MessagesTemplate().render(row).items if isinstance(item, RoleItem)]
    assert [part.dump() for part in turn.parts] == row["messages"][0]["content"]
    row["messages"][0]["content"][0] = {"type": "input_file", "file_id": "f-1"}
    with pytest.raises(TemplateError) as caught:
        MessagesTemplate().render(row)
    assert str(caught.value) == (
        "key 'messages[0]': messages[0] has a 'input_file' part; a prompt carries text, image_url, audio_url, video_url and file_url parts"
    )


def test_unknown_roles_and_missing_messages_are_errors():
    """A message of a role no model knows, and a row without messages, are explained."""
    with pytest.raises(TemplateError, match="messages\\[1\\] has role 'narrator'; MessagesTemplate renders the roles system, user, assistant, tool"):
        MessagesTemplate().render({"messages": [{"role": "user", "content": "x"}, {"role": "narrator", "content": "y"}]})
    with pytest.raises(TemplateError, match="column 'messages' must hold a non-empty list of messages \\(got None\\)"):
        MessagesTemplate().render({"question": "x"})


def test_choices_need_a_user_message():
    """Choices to list with only a system message is an error, not a silent drop."""
    with pytest.raises(TemplateError, match="the row has choices to list but no user message to list them in"):
        MessagesTemplate().render({"messages": [{"role": "system", "content": "x"}], "choices": "A. 1"})


def test_options_listing_can_be_turned_off():
    """list_options=False leaves the last user message as written."""
    out = MessagesTemplate(list_options=False).render({"messages": [{"role": "user", "content": "q"}], "choices": "A. 1"})
    assert "A. 1" not in str(out)


def test_messages_column_of_a_plain_jsonl_dataset_renders_for_chat_and_completion(make_renderer):
    """Any dataset whose rows hold OpenAI-style messages can use MessagesTemplate: chat models get the messages back."""
    rows = [{"messages": [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi {answer}"}], "answer": "secret"}]
    infer = dict(prompt_template=dict(type="MessagesTemplate"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))
    chat = make_renderer(rows, infer, reader_cfg=dict(input_columns=["messages"], output_column="answer"), model=dict(type="ChatModel"))
    assert chat.render(0)[0].prompt == [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Hi {answer}"}]
    completion = make_renderer(rows, infer, reader_cfg=dict(input_columns=["messages"], output_column="answer"))
    assert completion.render(0)[0].prompt == "Be terse.\nHi {answer}"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, r"messages\[0\] content must be a str or a list of content parts \(dicts with 'type'\), got None"),
        (["hi"], r"messages\[0\] content must be a str or a list of content parts \(dicts with 'type'\), got \['hi'\]"),
        ([{"type": "text"}], r"messages\[0\] part 0 is a text part without a 'text' string"),
    ],
)
def test_malformed_message_content_is_a_template_error(content, message):
    with pytest.raises(TemplateError, match=message) as info:
        MessagesTemplate().render({"messages": [{"role": "user", "content": content}]})
    assert info.value.context["key"] == "messages[0]"


def test_a_shot_without_its_answer_column_is_an_error_not_an_empty_answer():
    with pytest.raises(TemplateError, match=r"the shot has no answer column 'answer' \(columns: messages, label\); set MessagesTemplate\(answer_column=...\)"):
        MessagesTemplate().render_shot({"messages": [{"role": "user", "content": "q"}], "label": "A"})


def test_turn_renders_that_turn_of_bfcl_question_turns():
    """turn=0 reads the column as BFCL's list of turns and renders the first turn's messages."""
    row = {"question": [[{"role": "system", "content": "Calls only."}, {"role": "user", "content": "Add 1 and 2."}], [{"role": "user", "content": "Now 3."}]]}
    assert MessagesTemplate(column="question", turn=0).render(row).items == PromptList._of(
        (*MessagesTemplate(column="q").render({"q": row["question"][0]}).items,)
    ).items


@pytest.mark.parametrize(
    ("turn", "value", "message"),
    [
        (1, [[{"role": "user", "content": "x"}]], "column 'question' must hold a list of turns (lists of messages) with a turn 1 (got [[{'role': 'user', 'content': 'x'}]])"),
        (0, "[[...]]", "column 'question' must hold a list of turns (lists of messages) with a turn 0 (got '[[...]]')"),
    ],
)
def test_turn_missing_from_the_column_is_a_template_error(turn: int, value: object, message: str):
    """A row without that turn is a TemplateError naming the column and the turn."""
    with pytest.raises(TemplateError) as caught:
        MessagesTemplate(column="question", turn=turn).render({"question": value})
    assert caught.value.message == message


def test_turn_must_be_a_turn_number():
    """turn=-1 (or True) is refused when the template is built."""
    for bad in (-1, True):
        with pytest.raises(TemplateError) as caught:
            MessagesTemplate(turn=bad)
        assert caught.value.message == f"turn must be a turn number, 0 or more (got {bad!r})"
