"""The shot layout switch and the system prompt, asserted on rendered strings and messages."""

from __future__ import annotations

import pytest

from promptkit import ChatModel, CompletionModel, PromptkitError, Renderer, build_dataset
from promptkit.controls import Controls

ROWS = {
    "train": [{"q": "2+2=?", "a": "4"}, {"q": "3+3=?", "a": "6"}],
    "test": [{"q": "1+1=?", "a": "2"}],
}
STRING = dict(
    ice_template=dict(type="PromptTemplate", template="Q: {q}\nA: {a}\n"),
    prompt_template=dict(type="PromptTemplate", template="Solve.\n</E>Q: {q}\nA: {a}", ice_token="</E>"),
)
CHAT = dict(
    ice_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="Q: {q}"), dict(role="BOT", prompt="A: {a}")])),
    prompt_template=dict(
        type="PromptTemplate",
        template=dict(begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Solve."), "</E>"], round=[dict(role="HUMAN", prompt="Q: {q}"), dict(role="BOT", prompt="A: {a}")]),
        ice_token="</E>",
    ),
)
COMPLETION = CompletionModel(
    meta_template=dict(
        round=[dict(role="HUMAN", begin="<u>", end="</u>\n"), dict(role="BOT", begin="<b>", end="</b>\n", generate=True)],
        reserved_roles=[dict(role="SYSTEM", begin="<s>", end="</s>\n")],
    )
)


def dataset(templates, inferencer="GenInferencer", **infer):
    shots = [0, 1] if "ice_template" in templates else []
    return build_dataset(
        dict(
            abbr="d",
            type="RowsDataset",
            rows=ROWS,
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(**templates, retriever=dict(type="FixKRetriever", fix_id_list=shots), inferencer=dict(type=inferencer), **infer),
        )
    )


def render(templates, model=None, inferencer="GenInferencer", controls=None, **infer):
    return [p.prompt for p in Renderer(dataset(templates, inferencer, **infer), model, controls=controls).render(0)]


def test_string_shots_as_turns_are_human_bot_pairs():
    """Each string shot splits at {a}: the text before (right-stripped) is the user turn, the answer the assistant's."""
    assert render(STRING, ChatModel(), controls=Controls(shots="as_turns")) == [[
        {"role": "user", "content": "Solve.\nQ: 2+2=?\nA:"},
        {"role": "assistant", "content": "4"},
        {"role": "user", "content": "Q: 3+3=?\nA:"},
        {"role": "assistant", "content": "6"},
        {"role": "user", "content": "Q: 1+1=?\nA:"},
    ]]


def test_string_shots_as_turns_through_a_meta_template():
    """The turns go through the completion model's meta template like a chat template's."""
    assert render(STRING, COMPLETION, controls=Controls(shots="as_turns")) == [
        "<u>Solve.\nQ: 2+2=?\nA:</u>\n<b>4</b>\n<u>Q: 3+3=?\nA:</u>\n<b>6</b>\n<u>Q: 1+1=?\nA:</u>\n<b>"
    ]


def test_string_as_turns_in_ppl_mode_puts_the_label_in_the_bot_turn():
    """ppl mode scores each label as the query's assistant turn."""
    prompts = render(STRING, COMPLETION, "PPLInferencer", Controls(shots="as_turns"))
    assert prompts[0].endswith("<u>Q: 1+1=?\nA:</u>\n<b>2</b>\n")
    assert len(prompts) == 1  # one label in the test split


def test_as_configured_and_chat_templates_are_unchanged_by_as_turns():
    """as_turns leaves a chat template as configured; as_configured changes nothing."""
    assert render(CHAT, COMPLETION, controls=Controls(shots="as_turns")) == render(CHAT, COMPLETION)
    assert render(STRING, COMPLETION, controls=Controls(shots="as_configured")) == ["Solve.\nQ: 2+2=?\nA: 4\n\nQ: 3+3=?\nA: 6\n\nQ: 1+1=?\nA: "]


def test_chat_shots_in_user_turn_are_flattened_before_the_query():
    """in_user_turn: a shot's turns joined by a newline, shots by a blank line, then the query's user text."""
    assert render(CHAT, ChatModel(), controls=Controls(shots="in_user_turn")) == [[
        {"role": "system", "content": "Solve."},
        {"role": "user", "content": "Q: 2+2=?\nA: 4\n\nQ: 3+3=?\nA: 6\n\nQ: 1+1=?"},
    ]]


def test_chat_shots_in_user_turn_through_a_meta_template():
    """The flattened prompt is one user turn for a completion model too."""
    assert render(CHAT, COMPLETION, controls=Controls(shots="in_user_turn")) == ["<s>Solve.</s>\n<u>Q: 2+2=?\nA: 4\n\nQ: 3+3=?\nA: 6\n\nQ: 1+1=?</u>\n<b>"]


def test_in_user_turn_leaves_a_string_template_as_configured():
    """String shots are in one text already."""
    assert render(STRING, COMPLETION, controls=Controls(shots="in_user_turn")) == render(STRING, COMPLETION)


def test_as_turns_needs_the_answer_placeholder_in_the_ice_template():
    """A shot without {a} cannot be split into question and answer."""
    templates = dict(STRING, ice_template=dict(type="PromptTemplate", template="Q: {q}\n"))
    with pytest.raises(PromptkitError) as caught:
        render(templates, ChatModel(), controls=Controls(shots="as_turns"))
    assert str(caught.value) == (
        "dataset 'd', model 'ChatModel', key 'infer_cfg.ice_template': shots='as_turns' splits each shot at its answer, but the ice_template "
        "'Q: {q}\\n' has no {a} placeholder (reader_cfg.output_column); put the answer in the ice_template, or use shots='as_configured'"
    )


def test_system_prompt_replaces_the_templates_system_item():
    """A SYSTEM item in begin gets the run's text."""
    assert render(CHAT, ChatModel(), controls=Controls(system_prompt="Be brief."))[0][0] == {"role": "system", "content": "Be brief."}


def test_system_prompt_is_added_first_when_the_template_has_none():
    """Without a SYSTEM item, one is put at the start of begin (fallback HUMAN for meta templates without SYSTEM)."""
    templates = dict(prompt_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="Q: {q}"), dict(role="BOT", prompt="{a}")])))
    assert render(templates, ChatModel()) == [[{"role": "user", "content": "Q: 1+1=?"}]]
    assert render(templates, ChatModel(), controls=Controls(system_prompt="Be brief.")) == [
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Q: 1+1=?"}]
    ]
    plain = CompletionModel(meta_template=dict(round=[dict(role="HUMAN", begin="<u>", end="\n"), dict(role="BOT", begin="<b>", generate=True)]))
    assert render(templates, plain, controls=Controls(system_prompt="Be brief.")) == ["<u>Be brief.\n<u>Q: 1+1=?\n<b>"]


def test_system_prompt_of_a_string_template_needs_turns():
    """A plain string has no turn to hold it; as_turns gives it one."""
    with pytest.raises(PromptkitError) as caught:
        render(STRING, ChatModel(), controls=Controls(system_prompt="Be brief."))
    assert "system_prompt is set but the prompt template is a plain string, which has no turns to hold a system prompt" in str(caught.value)
    assert render(STRING, ChatModel(), controls=Controls(system_prompt="Be brief.", shots="as_turns"))[0][0] == {"role": "system", "content": "Be brief."}


def test_dataset_and_model_levels_set_the_layout(tmp_path):
    """infer_cfg shots= and a model's shots= choose the layout; the dataset's wins over the model's."""
    model = ChatModel(shots="in_user_turn")
    as_turns = render(STRING, ChatModel(), shots="as_turns")
    assert as_turns == render(STRING, ChatModel(), controls=Controls(shots="as_turns"))
    assert render(STRING, model, shots="as_turns") == as_turns
    assert render(CHAT, model) == render(CHAT, ChatModel(), controls=Controls(shots="in_user_turn"))
