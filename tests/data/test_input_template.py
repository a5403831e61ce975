"""reader_cfg.input_template: the data stage's own compile gives the text PromptTemplate renders, for every shape."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from promptkit import ConfigError, PromptTemplate, ReaderConfig, RoleItem
from promptkit.data.input_template import InputTemplate

ROW = {"q": "boats {a} </E>", "a": "gold", "topic": "sailing", "n": 3}


def rendered_text(template: PromptTemplate, row: dict) -> str:
    """The text a PromptTemplate gives a row: the string, or its role items' prompts one per line."""
    prompt = template.render(row)
    if isinstance(prompt, str):
        return prompt
    return "\n".join(item.prompt or "" for item in prompt if isinstance(item, RoleItem))


pieces = st.lists(st.sampled_from(["{q}", "{a}", "{topic}", "{n}", "{missing}", "x", " ", "{", "}", "\n", "</E>", "<SEP>", "{q</E>}"]), max_size=8)
texts = pieces.map("".join)
tokens = st.sampled_from([(None, None), ("</E>", None), (None, "<SEP>"), ("</E>", "<SEP>")])
role_items = st.builds(
    lambda role, prompt, has_prompt: dict(role=role, prompt=prompt) if has_prompt else dict(role=role),
    st.sampled_from(["HUMAN", "BOT", "SYSTEM"]),
    texts,
    st.booleans(),
)
sections = st.lists(st.one_of(texts, role_items), max_size=3)
chats = st.builds(
    lambda begin, round, end: {k: v for k, v in (("begin", begin), ("round", round), ("end", end)) if v is not None},
    st.none() | sections,
    st.lists(st.one_of(texts, role_items), min_size=1, max_size=3),
    st.none() | sections,
)


@given(texts, tokens)
def test_a_string_template_gives_the_rendered_string(text, ice_sep):
    """A string template: the same text as PromptTemplate.render, ice and sep tokens removed."""
    ice, sep = ice_sep
    if ice and ice not in text:
        text += ice
    assert InputTemplate(text, ice, sep).text(ROW) == rendered_text(PromptTemplate(text, ice, sep), ROW)


@given(chats, tokens)
def test_a_chat_template_gives_its_role_prompts_one_per_line(chat, ice_sep):
    """A chat dict: its role items' prompts in order, one per line, as PromptTemplate renders them."""
    ice, sep = ice_sep
    assert InputTemplate(chat, ice, sep).text(ROW) == rendered_text(PromptTemplate(chat, ice, sep), ROW)


@given(st.one_of(texts, chats), st.one_of(texts, chats))
def test_a_label_template_gives_the_first_labels_text(first, second):
    """A label dict: the first label's template, as generation renders it."""
    labels = {"A": first, "B": second}
    assert InputTemplate(labels).text(ROW) == rendered_text(PromptTemplate(labels), ROW)


def test_reader_config_takes_a_config_dict_or_a_template_object():
    """input_template as a config dict, a PromptTemplate object, or any object with text(row)."""

    class Topic:
        def text(self, row):
            return row["topic"].upper()

    for given_template in (dict(type="PromptTemplate", template="t: {topic}"), dict(template="t: {topic}"), PromptTemplate("t: {topic}")):
        assert ReaderConfig.from_config(dict(input_columns=["q"], input_template=given_template)).input_text(ROW) == "t: sailing"
    assert ReaderConfig.from_config(dict(input_columns=["q"], input_template=Topic())).input_text(ROW) == "SAILING"


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        (dict(type="PromptTemplate", template="t", ice_tokn="</E>"), "input_template has the unknown key 'ice_tokn'; it takes ['type', 'template', 'ice_token', 'sep_token']"),
        (dict(type="PromptTemplate"), "input_template needs a 'template'; it takes ['type', 'template', 'ice_token', 'sep_token']"),
        (dict(type="JinjaPromptTemplate", template="t"), "input_template must be dict(type=PromptTemplate, template=...), the text retrievers compare (got {'type': 'JinjaPromptTemplate', 'template': 't'})"),
        (dict(template="t", ice_token="</E>"), "input_template: ice_token '</E>' does not occur in 't'"),
        (dict(template=dict(round=[])), "input_template's template must be a string, a chat dict with a non-empty 'round' list, or a label dict (got {'round': []})"),
        (dict(template=dict(round=[dict(prompt="x")])), "input_template round[0]: a role item needs a 'role' name (e.g. dict(role='HUMAN', prompt='{question}')), got {'prompt': 'x'}"),
    ],
)
def test_a_bad_input_template_is_a_config_error_naming_the_key(cfg, message):
    """Each mistake is one ConfigError at reader_cfg.input_template saying what is wrong."""
    with pytest.raises(ConfigError) as info:
        ReaderConfig.from_config(dict(input_columns=["q"], input_template=cfg))
    assert str(info.value) == f"key 'reader_cfg.input_template': {message}"
