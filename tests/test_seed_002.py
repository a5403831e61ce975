"""Every example of seed 002 (the user-facing contract) that the core covers, rendered as the seed shows it."""

from __future__ import annotations

from promptkit import ChatModel, PromptList, PromptTemplate, RoleItem

EX = {"anything": "blabla", "question": "1+1=?", "answer": "2"}
SHOTS = [
    {"question": "2+2=?", "answer": "4", "irrelavent_infos": "blabla"},
    {"question": "3+3=?", "answer": "6", "irrelavent_infos": "blabla"},
]
TEST = {"question": "1+1=?", "answer": "2", "irrelavent_infos": "blabla"}


def roles_only(prompt: PromptList) -> list[dict[str, str]]:
    """The PromptList as the seed prints it: role items only (section markers and empty texts hidden)."""
    return [item.dump() for item in prompt if isinstance(item, RoleItem)]


def test_string_prompt_masks_the_answer():
    """'{anything}\\nQuestion: {question}\\nAnswer: {answer}' renders without the answer."""
    t = PromptTemplate("{anything}\nQuestion: {question}\nAnswer: {answer}")
    assert t.render(EX, masked="answer") == "blabla\nQuestion: 1+1=?\nAnswer: "


def test_plain_chat_prompt():
    """A HUMAN/BOT round renders with the BOT answer masked."""
    t = PromptTemplate(dict(round=[dict(role="HUMAN", prompt="Question: {question}"), dict(role="BOT", prompt="Answer: {answer}")]))
    assert roles_only(t.render(EX, masked="answer")) == [
        dict(role="HUMAN", prompt="Question: 1+1=?"),
        dict(role="BOT", prompt="Answer: "),
    ]


def test_multi_turn_fixed_chat_prompt():
    """Hard-coded turns stay; only the last BOT is masked."""
    t = PromptTemplate(
        dict(
            round=[
                dict(role="HUMAN", prompt="Question: 2+2=?"),
                dict(role="BOT", prompt="Answer: 4"),
                dict(role="HUMAN", prompt="Question: 3+3=?"),
                dict(role="BOT", prompt="Answer: 6"),
                dict(role="HUMAN", prompt="Question: {question}"),
                dict(role="BOT", prompt="Answer: {answer}"),
            ]
        )
    )
    assert roles_only(t.render(EX, masked="answer")) == [
        dict(role="HUMAN", prompt="Question: 2+2=?"),
        dict(role="BOT", prompt="Answer: 4"),
        dict(role="HUMAN", prompt="Question: 3+3=?"),
        dict(role="BOT", prompt="Answer: 6"),
        dict(role="HUMAN", prompt="Question: 1+1=?"),
        dict(role="BOT", prompt="Answer: "),
    ]


def test_system_prompt_with_fallback_role():
    """begin=[SYSTEM with fallback_role HUMAN] is kept with its fallback in the PromptList."""
    t = PromptTemplate(
        dict(
            begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Solve the following questions.")],
            round=[dict(role="HUMAN", prompt="Question: {question}"), dict(role="BOT", prompt="Answer: {answer}")],
        )
    )
    assert roles_only(t.render(EX, masked="answer")) == [
        dict(role="SYSTEM", fallback_role="HUMAN", prompt="Solve the following questions."),
        dict(role="HUMAN", prompt="Question: 1+1=?"),
        dict(role="BOT", prompt="Answer: "),
    ]


def test_system_uses_fallback_when_model_has_no_system_role():
    """The seed's note: a model without SYSTEM renders it with the fallback role's template."""
    t = PromptTemplate(
        dict(
            begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Solve the following questions.")],
            round=[dict(role="HUMAN", prompt="Question: {question}"), dict(role="BOT", prompt="Answer: {answer}")],
        )
    )
    model = ChatModel(meta_template=dict(round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)]))
    assert model.render(t.render(EX, masked="answer")) == [
        {"role": "user", "content": "Solve the following questions.\nQuestion: 1+1=?"},
    ]


def test_last_bot_prompt_is_not_sent_in_generation(make_renderer):
    """The seed's remark: the final BOT prompt ('Answer: ') is not given to the model in gen mode."""
    infer = dict(
        prompt_template=dict(
            type="PromptTemplate",
            template=dict(round=[dict(role="HUMAN", prompt="Question: {question}"), dict(role="BOT", prompt="Answer: {answer}")]),
        ),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="GenInferencer"),
    )
    model = dict(
        abbr="m",
        type="CompletionModel",
        meta_template=dict(round=[dict(role="HUMAN", begin="User: ", end="\n"), dict(role="BOT", begin="Bot: ", end="\n", generate=True)]),
    )
    [prompt] = make_renderer([TEST], infer, model=model).render(0)
    assert prompt.prompt == "User: Question: 1+1=?\nBot: "


def test_string_ice_and_prompt_templates(make_renderer):
    """ice '{question}\\n{answer}' + prompt 'Solve the following questions.\\n</E>{question}\\n{answer}'."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template="{question}\n{answer}"),
        prompt_template=dict(type="PromptTemplate", template="Solve the following questions.\n</E>{question}\n{answer}", ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="GenInferencer"),
    )
    [prompt] = make_renderer([TEST], infer, train_rows=SHOTS).render(0)
    assert prompt.prompt == "Solve the following questions.\n2+2=?\n4\n3+3=?\n6\n1+1=?\n"


def test_chat_ice_and_prompt_templates(make_renderer):
    """Chat shots spliced at '</E>' in begin, after the SYSTEM item."""
    infer = dict(
        ice_template=dict(
            type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")])
        ),
        prompt_template=dict(
            type="PromptTemplate",
            template=dict(
                begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Solve the following questions."), "</E>"],
                round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")],
            ),
            ice_token="</E>",
        ),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="GenInferencer"),
    )
    [prompt] = make_renderer([TEST], infer, train_rows=SHOTS).render(0)
    assert roles_only(prompt.intermediate) == [
        dict(role="SYSTEM", fallback_role="HUMAN", prompt="Solve the following questions."),
        dict(role="HUMAN", prompt="2+2=?"),
        dict(role="BOT", prompt="4"),
        dict(role="HUMAN", prompt="3+3=?"),
        dict(role="BOT", prompt="6"),
        dict(role="HUMAN", prompt="1+1=?"),
        dict(role="BOT", prompt=""),
    ]


def test_omitted_prompt_template_equals_the_full_form(make_renderer):
    """ice_template carrying '</E>' alone renders exactly like the full two-template form."""
    full = dict(
        ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
        prompt_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="GenInferencer"),
    )
    omitted = dict(
        ice_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="GenInferencer"),
    )
    a = make_renderer([TEST], full, train_rows=SHOTS).render(0)[0].prompt
    b = make_renderer([TEST], omitted, train_rows=SHOTS).render(0)[0].prompt
    assert a == b == "Q: 2+2=?\nA: 4\nQ: 3+3=?\nA: 6\nQ: 1+1=?\nA: "


def test_omitted_form_works_zero_shot(make_renderer):
    """The omitted form with ZeroRetriever is valid: the token renders as nothing."""
    omitted = dict(
        ice_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="GenInferencer"),
    )
    assert make_renderer([TEST], omitted).render(0)[0].prompt == "Q: 1+1=?\nA: "


def test_placeholder_without_column_stays_literal():
    """'If the sample has no such field, it is output as is.'"""
    assert PromptTemplate("{question} {missing}").render(EX) == "1+1=? {missing}"
