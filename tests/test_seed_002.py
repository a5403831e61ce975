"""Every example of seed 002 (the user-facing contract) that the core covers, rendered as the seed shows it."""

from __future__ import annotations

import pytest

from promptkit import ChatModel, PromptList, PromptTemplate, RoleItem, TemplateError

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


def test_ice_template_without_ice_token_renders_zero_shot(make_renderer):
    """The guide's last example: only an ice_template (no ice_token), ZeroRetriever, GenInferencer — the ice_template is the prompt."""
    infer_cfg = dict(
        ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="GenInferencer"),
    )
    prompt = make_renderer([TEST], infer_cfg, train_rows=SHOTS).render(0)[0]
    assert (prompt.prompt, prompt.ice_idx) == ("Q: 1+1=?\nA: ", [])


def test_ice_template_without_ice_token_refuses_shots(make_renderer):
    """With shots picked, an ice_template that has no ice_token says where the shots would have to go."""
    infer_cfg = dict(
        ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0]),
        inferencer=dict(type="GenInferencer"),
    )
    with pytest.raises(TemplateError, match=r"the retriever picked shots \[0\] but the template has no ice_token None to put them at"):
        make_renderer([TEST], infer_cfg, train_rows=SHOTS).render(0)


def test_placeholder_without_column_stays_literal():
    """'If the sample has no such field, it is output as is.'"""
    assert PromptTemplate("{question} {missing}").render(EX) == "1+1=? {missing}"


# -- Multi-turn dialogues (MultiTurnPromptTemplate) ---------------------------------------------

DIALOGUE = {"question": ["1+1=?", "2+2=?", "3+3=?"], "answer": ["2", "4", "6"]}
MULTI_TURN = dict(
    prompt_template=dict(type="MultiTurnPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")])),
    retriever=dict(type="ZeroRetriever"),
)


def dialogue(make_renderer, infer_mode: str, replies=None):
    infer_cfg = {**MULTI_TURN, "inferencer": dict(type="MultiTurnGenInferencer", infer_mode=infer_mode)}
    return make_renderer([DIALOGUE], infer_cfg, reader_cfg=dict(input_columns=["question"], output_column="answer"), replies=replies)


def test_every_mode_splices_the_model_replies(make_renderer):
    """infer_mode='every': three prompts, the history holding the model's answers answer1, answer2."""
    conversation = dialogue(make_renderer, "every").conversation(0)
    seen = []
    while (prompt := conversation.next_prompt()) is not None:
        seen.append(roles_only(prompt.intermediate))
        conversation.add_reply(f"answer{len(seen)}")
    assert seen == [
        [dict(role="HUMAN", prompt="1+1=?")],
        [dict(role="HUMAN", prompt="1+1=?"), dict(role="BOT", prompt="answer1"), dict(role="HUMAN", prompt="2+2=?")],
        [
            dict(role="HUMAN", prompt="1+1=?"),
            dict(role="BOT", prompt="answer1"),
            dict(role="HUMAN", prompt="2+2=?"),
            dict(role="BOT", prompt="answer2"),
            dict(role="HUMAN", prompt="3+3=?"),
        ],
    ]


def test_every_with_gt_mode_uses_the_ground_truth(make_renderer):
    """infer_mode='every_with_gt': three prompts, the history holding the gold answers 2 and 4."""
    prompts = dialogue(make_renderer, "every_with_gt").render(0)
    assert [p.turn for p in prompts] == [0, 1, 2]
    assert [roles_only(p.intermediate) for p in prompts] == [
        [dict(role="HUMAN", prompt="1+1=?")],
        [dict(role="HUMAN", prompt="1+1=?"), dict(role="BOT", prompt="2"), dict(role="HUMAN", prompt="2+2=?")],
        [
            dict(role="HUMAN", prompt="1+1=?"),
            dict(role="BOT", prompt="2"),
            dict(role="HUMAN", prompt="2+2=?"),
            dict(role="BOT", prompt="4"),
            dict(role="HUMAN", prompt="3+3=?"),
        ],
    ]


def test_last_mode_sends_one_prompt(make_renderer):
    """infer_mode='last': one prompt, every earlier turn with its answer, ending before the last answer."""
    [prompt] = dialogue(make_renderer, "last").render(0)
    assert roles_only(prompt.intermediate) == [
        dict(role="HUMAN", prompt="1+1=?"),
        dict(role="BOT", prompt="2"),
        dict(role="HUMAN", prompt="2+2=?"),
        dict(role="BOT", prompt="4"),
        dict(role="HUMAN", prompt="3+3=?"),
    ]


# -- Multimodal prompts (MMPromptTemplate) ------------------------------------------------------
#
# The seed's row holds AISBench-tagged segments in `question`; {image_data} etc. stand for the
# payloads. Two slips in the seed's printed results are not reproduced (docs/compat.md, "Seed
# 002 errata"): its URL example prints the image url without the template's 'file://' prefix,
# and its base64 example prints 'data:video/mp4' where the template says 'data:video/jpeg'.

MM_ROW = {
    "anything": "blabla",
    "question": "<AIS_TEXT_START>What is this?<AIS_CONTENT_TAG><AIS_IMAGE_START>{image_data}<AIS_CONTENT_TAG>"
    "<AIS_AUDIO_START>{audio_data}<AIS_CONTENT_TAG><AIS_VIDEO_START>{video_data}<AIS_CONTENT_TAG>",
    "answer": "a cat",
}


def mm_template(scheme: dict[str, str]) -> dict:
    return dict(
        round=[
            dict(
                role="HUMAN",
                prompt_mm={
                    "text": {"type": "text", "text": "{anything}\nQuestion: {question}"},
                    "image": {"type": "image_url", "image_url": {"url": scheme["image"] + "{image}"}},
                    "video": {"type": "video_url", "video_url": {"url": scheme["video"] + "{video}"}},
                    "audio": {"type": "audio_url", "audio_url": {"url": scheme["audio"] + "{audio}"}},
                },
            )
        ]
    )


def mm_item(template: dict) -> list[dict]:
    from promptkit import MMPromptTemplate

    return roles_only(MMPromptTemplate(template).render(MM_ROW, masked="answer"))


def test_multimodal_url_example():
    """file:// URLs: one text part (with {anything} filled) and one part per media segment, in segment order."""
    assert mm_item(mm_template(dict(image="file://", video="file://", audio="file://"))) == [
        {
            "role": "HUMAN",
            "prompt_mm": [
                {"type": "text", "text": "blabla\nQuestion: What is this?"},
                {"type": "image_url", "image_url": {"url": "file://{image_data}"}},
                {"type": "audio_url", "audio_url": {"url": "file://{audio_data}"}},
                {"type": "video_url", "video_url": {"url": "file://{video_data}"}},
            ],
        }
    ]


def test_multimodal_base64_example():
    """data: URLs with the template's MIME prefixes; the payload is inserted as written."""
    scheme = dict(image="data:image/jpeg;base64,", video="data:video/jpeg;base64,", audio="data:audio/wav;base64,")
    assert mm_item(mm_template(scheme)) == [
        {
            "role": "HUMAN",
            "prompt_mm": [
                {"type": "text", "text": "blabla\nQuestion: What is this?"},
                {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,{image_data}"}},
                {"type": "audio_url", "audio_url": {"url": "data:audio/wav;base64,{audio_data}"}},
                {"type": "video_url", "video_url": {"url": "data:video/jpeg;base64,{video_data}"}},
            ],
        }
    ]


def test_multimodal_example_as_chat_messages():
    """For a chat model the HUMAN turn is one user message whose content is the parts list."""
    from promptkit import MMPromptTemplate

    prompt = MMPromptTemplate(mm_template(dict(image="file://", video="file://", audio="file://"))).render(MM_ROW, masked="answer")
    [message] = ChatModel().render(prompt)
    assert message["role"] == "user"
    assert [part["type"] for part in message["content"]] == ["text", "image_url", "audio_url", "video_url"]
