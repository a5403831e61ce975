"""RawPromptTemplate: messages with placeholders, expand columns and the ice token, for every model kind."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from promptkit import PromptkitError, RawPromptTemplate, TemplateError
from promptkit.templates.protocol import ChatMessagesTemplate, Template

MCQ = [dict(role="system", content="Be brief."), "</E>", dict(role="user", content="{question}"), dict(role="assistant", content="{answer}")]
SHOT = [dict(role="user", content="{question}"), dict(role="assistant", content="It is {answer}.")]
ROWS = [{"question": "1+1?", "answer": "2"}, {"question": "2+2?", "answer": "4"}, {"question": "3+3?", "answer": "6"}]
CHAT = dict(type="ChatModel")
INTERNLM = dict(
    type="CompletionModel",
    meta_template=dict(round=[dict(role="HUMAN", begin="<|User|>:", end="\n"), dict(role="BOT", begin="<|Bot|>:", end="<eoa>\n", generate=True)]),
)


def raw_infer(messages: list, shots: list | None = None, inferencer: str = "GenInferencer") -> dict:
    infer = dict(prompt_template=dict(type="RawPromptTemplate", messages=messages), inferencer=dict(type=inferencer))
    if shots is None:
        return dict(infer, retriever=dict(type="ZeroRetriever"))
    return dict(infer, ice_template=dict(type="RawPromptTemplate", messages=shots), retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]))


def test_it_is_a_template_whose_messages_a_chat_model_takes_as_written():
    """RawPromptTemplate implements Template and ChatMessagesTemplate."""
    template = RawPromptTemplate(MCQ)
    assert isinstance(template, Template) and isinstance(template, ChatMessagesTemplate)
    assert (template.kind, template.labels, template.has_ice_slot, template.ice_token) == ("chat", None, True, "</E>")
    assert not RawPromptTemplate(SHOT).has_ice_slot


def test_a_chat_model_receives_the_messages_and_shots_as_written(make_renderer):
    """System message, the shots' messages (answers shown), the question, and the masked assistant turn, in order."""
    renderer = make_renderer(ROWS[2:], raw_infer(MCQ, SHOT), train_rows=ROWS[:2], model=CHAT)
    assert renderer.render(0)[0].prompt == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "1+1?"},
        {"role": "assistant", "content": "It is 2."},
        {"role": "user", "content": "2+2?"},
        {"role": "assistant", "content": "It is 4."},
        {"role": "user", "content": "3+3?"},
        {"role": "assistant", "content": ""},
    ]


def test_a_chat_model_without_a_meta_template_still_gets_separate_messages(make_renderer):
    """OpenAI with no meta template joins PromptLists into one message; raw messages pass through instead, as in OpenCompass."""
    renderer = make_renderer(ROWS[:1], raw_infer(MCQ[:3]), model=dict(type="OpenAI"))
    assert renderer.render(0)[0].prompt == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "1+1?"}]


def test_a_completion_model_renders_the_messages_through_its_meta_template(make_renderer):
    """The system message falls back to a HUMAN turn; the generation slot ends the prompt at the BOT's begin."""
    renderer = make_renderer(ROWS[2:], raw_infer(MCQ, SHOT), train_rows=ROWS[:2], model=INTERNLM)
    assert renderer.render(0)[0].prompt == (
        "<|User|>:Be brief.\n<|User|>:1+1?\n<|Bot|>:It is 2.<eoa>\n<|User|>:2+2?\n<|Bot|>:It is 4.<eoa>\n<|User|>:3+3?\n<|Bot|>:"
    )


def test_without_a_model_the_texts_are_joined_by_newlines(make_renderer):
    """No meta template: the messages' texts, one per line (the masked answer adds nothing)."""
    renderer = make_renderer(ROWS[:1], raw_infer(MCQ))
    assert renderer.render(0)[0].prompt == "Be brief.\n1+1?"


def test_expand_column_inserts_the_rows_messages_unfilled():
    """The column's messages are data: their placeholders stay literal; None inserts nothing."""
    template = RawPromptTemplate([dict(expand_column="history"), dict(role="user", content="{question}")])
    row = {"question": "And 3+3?", "history": [{"role": "user", "content": "{question}"}, {"role": "assistant", "content": "4"}]}
    assert template.chat_messages(template.render(row)) == [
        {"role": "user", "content": "{question}"},
        {"role": "assistant", "content": "4"},
        {"role": "user", "content": "And 3+3?"},
    ]
    assert template.chat_messages(template.render({"question": "q", "history": None})) == [{"role": "user", "content": "q"}]


def test_format_variables_false_keeps_contents_as_written():
    """No placeholder is filled."""
    template = RawPromptTemplate([dict(role="user", content="{question}")], format_variables=False)
    assert template.chat_messages(template.render({"question": "x"})) == [{"role": "user", "content": "{question}"}]


def test_string_shots_have_no_place_among_messages():
    """A string ice (no ice_template, or a string one) renders nothing at the ice token, as in OpenCompass."""
    template = RawPromptTemplate(["</E>", dict(role="user", content="{question}")])
    assert template.chat_messages(template.render({"question": "q"}, "Q: 1\nA: 2\n")) == [{"role": "user", "content": "q"}]


@pytest.mark.parametrize(
    ("messages", "message"),
    [
        ("hi", "messages must be a list of message dicts (got 'hi' that is a str)"),
        (["<E>"], "messages[0] is the string '<E>', which is not the ice token '</E>'; messages holds message dicts, dict(expand_column=...) and the ice token"),
        ([dict(role="human", content="x")], "messages[0] has role 'human'; a message's role is one of 'system', 'user', 'assistant'"),
        ([dict(role="users", content="x")], "messages[0] has role 'users'; a message's role is one of 'system', 'user', 'assistant' (did you mean 'user'?)"),
        ([dict(role="user", prompt="x")], "messages[0] has the key 'prompt'; a message takes role and content"),
        ([dict(role="user", content=["x"])], "messages[0] needs a 'content' string (got ['x'])"),
        ([dict(expand_column="history", role="user")], "messages[0] must be dict(expand_column='<column>') and nothing else (got {'expand_column': 'history', 'role': 'user'})"),
        ([3], "messages[0] must be a message dict or the ice token (got 3 that is a int)"),
    ],
)
def test_malformed_messages_are_refused_at_construction(messages, message):
    """Each malformed element gets one message naming it (OpenCompass drops some silently)."""
    with pytest.raises(TemplateError) as caught:
        RawPromptTemplate(messages)
    assert caught.value.message == message


def test_an_expand_column_the_row_lacks_is_an_error_naming_it(make_renderer):
    """The error names the column, the row's columns, the dataset and the row."""
    renderer = make_renderer(ROWS[:1], raw_infer([dict(expand_column="histroy")]))
    with pytest.raises(TemplateError) as caught:
        renderer.render(0)
    assert str(caught.value) == "dataset 'demo', row 0, key 'histroy': expand_column 'histroy' names no column of the row (columns: question, answer)"


def test_ppl_refuses_it_with_the_inferencer_to_use(make_renderer):
    """It has no labels to score."""
    renderer = make_renderer(ROWS[:1], dict(raw_infer(MCQ[2:], inferencer="PPLInferencer")))
    with pytest.raises(PromptkitError) as caught:
        renderer.render(0)
    assert caught.value.message.startswith("RawPromptTemplate renders prompts for generation and has no labels to score; use GenInferencer")


@given(question=st.text(max_size=30), answer=st.from_regex(r"ANS[0-9]{6}", fullmatch=True))
def test_the_answer_of_the_item_under_test_is_never_sent(question: str, answer: str):
    """Whatever the question holds, the gold answer appears in no message; the question arrives verbatim."""
    template = RawPromptTemplate(MCQ)
    messages = template.chat_messages(template.render({"question": question, "answer": answer}, masked="answer"))
    assert all(answer not in m["content"] or answer in question for m in messages)
    assert messages[1] == {"role": "user", "content": question}
