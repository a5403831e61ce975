"""PromptTemplate: shapes, ice splicing, masking, sep_token, and its errors (OpenCompass's scenarios, ported)."""

from __future__ import annotations

import pytest

from promptkit import PromptList, PromptTemplate, TemplateError

ENTRY = {"input": "Hello, how are you?", "answer": "Good."}
QA = dict(
    begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="instruct"), "</E>"],
    round=[dict(role="HUMAN", prompt="{input}"), dict(role="BOT", prompt="Answer: {answer}")],
)


def sec(name: str, pos: str) -> dict[str, str]:
    return {"section": name, "pos": pos}


def test_string_template_renders_a_string():
    """A plain string template gives a plain string."""
    assert PromptTemplate("Q: {input}\nA: {answer}").render(ENTRY) == "Q: Hello, how are you?\nA: Good."


def test_shot_of_a_chat_template_keeps_only_the_round_in_ice_markers():
    """A shot drops begin/end and wraps the round in ice markers, answer shown."""
    shot = PromptTemplate(QA, ice_token="</E>").render_shot(ENTRY)
    assert shot == [sec("ice", "begin"), {"role": "HUMAN", "prompt": "Hello, how are you?"}, {"role": "BOT", "prompt": "Answer: Good."}, sec("ice", "end")]


def test_chat_ice_is_spliced_into_the_begin_section():
    """A PromptList ice replaces a standalone '</E>' item, markers included."""
    ice = PromptList([sec("ice", "begin"), {"role": "HUMAN", "prompt": "h1"}, {"role": "BOT", "prompt": "b1"}, sec("ice", "end")])
    assert PromptTemplate(QA, ice_token="</E>").render(ENTRY, ice) == [
        sec("begin", "begin"),
        {"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "instruct"},
        sec("ice", "begin"),
        {"role": "HUMAN", "prompt": "h1"},
        {"role": "BOT", "prompt": "b1"},
        sec("ice", "end"),
        sec("begin", "end"),
        sec("round", "begin"),
        {"role": "HUMAN", "prompt": "Hello, how are you?"},
        {"role": "BOT", "prompt": "Answer: Good."},
        sec("round", "end"),
    ]


def test_masking_replaces_the_answer_column():
    """The answer column renders as '' or as the given replacement token."""
    t = PromptTemplate("</E>Q: {input}\nA: {answer}", ice_token="</E>")
    assert t.render(ENTRY, "Q: 1+1\nA: 2\n", masked="answer") == "Q: 1+1\nA: 2\nQ: Hello, how are you?\nA: "
    assert t.render(ENTRY, "", masked="answer", mask_value="<ans>") == "Q: Hello, how are you?\nA: <ans>"


def test_ice_text_is_not_reformatted_with_the_test_row():
    """Shots are finished text: '{answer}' inside them survives (OpenCompass blanks it)."""
    t = PromptTemplate("</E>Q: {input}\nA: {answer}", ice_token="</E>")
    assert t.render(ENTRY, "ex {answer} ", masked="answer") == "ex {answer} Q: Hello, how are you?\nA: "


def test_ice_token_inside_a_role_prompt_takes_a_string_ice():
    """'</E>' inside a HUMAN prompt is replaced by a string ice."""
    t = PromptTemplate(dict(round=[dict(role="HUMAN", prompt="</E>{input}"), dict(role="BOT", prompt="{answer}")]), ice_token="</E>")
    assert t.render(ENTRY, "EX\n", masked="answer").dump()[1] == {"role": "HUMAN", "prompt": "EX\nHello, how are you?"}


def test_ice_token_inside_a_role_prompt_rejects_chat_shots():
    """Chat shots cannot go inside one prompt; the error says how to fix the template."""
    t = PromptTemplate(dict(round=[dict(role="HUMAN", prompt="</E>{input}")]), ice_token="</E>")
    with pytest.raises(TemplateError, match=r"ice token sits inside the prompt of the round section's HUMAN item.*begin=\['</E>'\]"):
        t.render(ENTRY, PromptList([{"role": "HUMAN", "prompt": "x"}]))


def test_string_prompt_with_chat_shots_is_an_error():
    """A string template cannot hold chat shots."""
    with pytest.raises(TemplateError, match="prompt_template is a plain string, which cannot hold roles"):
        PromptTemplate("</E>{input}", ice_token="</E>").render(ENTRY, PromptList([{"role": "HUMAN", "prompt": "x"}]))


def test_label_template_picks_the_label_and_gen_uses_the_first():
    """A label dict renders the requested label; without one, the first label's template."""
    t = PromptTemplate({"A": "</E>Q: {input} Answer: A", "B": "</E>Q: {input} Answer: B"}, ice_token="</E>")
    assert t.render(ENTRY, "ICE|", label="A") == "ICE|Q: Hello, how are you? Answer: A"
    assert t.render(ENTRY, "ICE|", label="B") == "ICE|Q: Hello, how are you? Answer: B"
    assert t.render(ENTRY, "") == "Q: Hello, how are you? Answer: A"


def test_label_template_accepts_int_labels_and_chat_values():
    """Labels may be ints (siqa style) and values chat dicts."""
    t = PromptTemplate({1: dict(round=[dict(role="HUMAN", prompt="{input}"), dict(role="BOT", prompt="one")]), 2: "two"})
    assert t.render(ENTRY, label=1).dump()[2] == {"role": "BOT", "prompt": "one"}
    assert t.render(ENTRY, label=2) == "two"


def test_unknown_label_lists_the_labels():
    """Asking for a label the template lacks names the label and the known ones."""
    with pytest.raises(TemplateError, match=r"label 'E' is not a key of the label-keyed template \(labels: 'A', 'B'\)"):
        PromptTemplate({"A": "a", "B": "b"}).render(ENTRY, label="E")


def test_sep_token_is_removed_everywhere():
    """sep_token is removed from prompts and shots (OpenCompass leaves it in shots)."""
    t = PromptTemplate("Q: {input}\nA:<SEP> {answer}", sep_token="<SEP>")
    assert t.render(ENTRY) == "Q: Hello, how are you?\nA: Good."
    assert t.render_shot(ENTRY) == "Q: Hello, how are you?\nA: Good."


def test_ice_token_missing_from_a_string_template_is_an_error():
    """A string template that declares ice_token must contain it."""
    with pytest.raises(TemplateError, match=r"ice_token '</E>' does not occur in 'Q: \{input\}'; put it where the shots go"):
        PromptTemplate("Q: {input}", ice_token="</E>")


def test_empty_round_is_an_error():
    """round=[] renders nothing the model could answer, so it is rejected."""
    with pytest.raises(TemplateError, match=r"template: 'round' is empty; give the turn of the item under test"):
        PromptTemplate(dict(begin="sys", round=[]))


def test_chat_template_without_round_is_an_error():
    """begin/end without round is rejected with an example."""
    with pytest.raises(TemplateError, match=r"template: a chat template needs a 'round' list of role items"):
        PromptTemplate(dict(begin="sys"))


def test_role_item_without_role_and_with_typos_are_errors():
    """Role items need 'role'; unknown keys get a did-you-mean."""
    with pytest.raises(TemplateError, match=r"round\[0\]: a role item needs a 'role' name"):
        PromptTemplate(dict(round=[dict(prompt="x")]))
    with pytest.raises(TemplateError, match=r"round\[0\]: a role item needs a 'role' name"):
        PromptTemplate(dict(round=[dict(role=None, prompt="x")]))
    with pytest.raises(TemplateError, match=r"round\[0\]: unknown key 'fallback' in a role item \(did you mean 'fallback_role'\?\)"):
        PromptTemplate(dict(round=[dict(role="HUMAN", fallback="BOT")]))


def test_misspelled_chat_key_is_explained():
    """{'round': [...], 'begni': [...]} is not taken silently as a label template."""
    with pytest.raises(TemplateError, match=r"template has the chat section\(s\) \['round'\] and the other key\(s\) \['begni'\]: a chat template takes only begin/round/end \(did you mean 'begin'\?\)"):
        PromptTemplate({"begni": ["x"], "round": [dict(role="HUMAN", prompt="q")]})


def test_bad_template_and_token_types():
    """Wrong types name what was expected and what was found."""
    with pytest.raises(TemplateError, match=r"template must be a str or a dict \(got 3 that is a int\)"):
        PromptTemplate(3)  # type: ignore[arg-type]
    with pytest.raises(TemplateError, match=r"ice_token must be a str or None \(got 1 that is a int\)"):
        PromptTemplate("x", ice_token=1)  # type: ignore[arg-type]


def test_multiround_template_with_item_overrides():
    """Item-level begin/end overrides are carried into the PromptList untouched (not formatted)."""
    t = PromptTemplate(dict(round=[dict(role="HUMAN", prompt="{input}", end="<{input}>"), dict(role="BOT", prompt="{answer}", begin="B:")]))
    out = t.render(ENTRY).dump()
    assert out[1] == {"role": "HUMAN", "prompt": "Hello, how are you?", "end": "<{input}>"}
    assert out[2] == {"role": "BOT", "prompt": "Good.", "begin": "B:"}


def test_double_braces_render_like_opencompass():
    """'{{x}}' is not an escape: it renders as '{' + value + '}'."""
    assert PromptTemplate("{{input}}").render(ENTRY) == "{Hello, how are you?}"
