"""MultiTurnPromptTemplate: the round repeated per turn, checked turn columns, begin/end and shots kept."""

from __future__ import annotations

import pytest

from promptkit import ChatModel, CompletionModel, MultiTurnPromptTemplate, PromptTemplate, RoleItem, TemplateError

QA = dict(round=[dict(role="HUMAN", prompt="Q: {q}"), dict(role="BOT", prompt="A: {a}")])


def turns(prompt) -> list[tuple[str, str | None]]:
    return [(item.role, item.prompt) for item in prompt if isinstance(item, RoleItem)]


def test_turn_columns_come_from_the_round_placeholders():
    """Any column names work, not only question/answer; the BOT template text is kept in the history."""
    t = MultiTurnPromptTemplate(QA)
    row = {"q": ["one", "two"], "a": ["1", "2"], "other": "x"}
    assert t.turn_columns(row) == ("q", "a")
    assert turns(t.render_turn(row, 1, masked="a")) == [("HUMAN", "Q: one"), ("BOT", "A: 1"), ("HUMAN", "Q: two")]


def test_a_string_column_is_an_error_not_characters():
    """AISBench iterates 'ab' as two turns; promptkit says the column must be a list."""
    with pytest.raises(TemplateError, match=r"column 'q' is a str, but the round of a MultiTurnPromptTemplate is filled once per turn: give a list"):
        MultiTurnPromptTemplate(QA).render({"q": "ab", "a": ["1", "2"]})


def test_unequal_turn_columns_are_an_error():
    """AISBench's zip drops the extra turn silently."""
    with pytest.raises(TemplateError, match=r"the turn columns differ in length \(q has 3, a has 2\)"):
        MultiTurnPromptTemplate(QA).render({"q": ["1", "2", "3"], "a": ["1", "2"]})


def test_empty_dialogue_and_missing_columns_are_errors():
    with pytest.raises(TemplateError, match=r"the turn columns \['q', 'a'\] are empty"):
        MultiTurnPromptTemplate(QA).render({"q": [], "a": []})
    with pytest.raises(TemplateError, match=r"the row has none of the round's columns \['q', 'a'\]"):
        MultiTurnPromptTemplate(QA).render({"question": ["x"]})


def test_the_round_needs_exactly_one_bot_item():
    with pytest.raises(TemplateError, match=r"needs exactly one BOT item, where the model's reply goes \(found 0\)"):
        MultiTurnPromptTemplate(dict(round=[dict(role="HUMAN", prompt="{q}")]))


def test_begin_and_end_are_formatted_from_the_row():
    """AISBench sends begin/end unformatted; here {topic} is filled like any placeholder."""
    t = MultiTurnPromptTemplate(dict(begin=[dict(role="SYSTEM", prompt="Topic: {topic}")], round=QA["round"], end=["(end of {topic})"]))
    prompt = t.render({"topic": "math", "q": ["1+1"], "a": ["2"]}, masked="a")
    assert turns(prompt) == [("SYSTEM", "Topic: math"), ("HUMAN", "Q: 1+1")]
    assert prompt[-2] == "(end of math)"


def test_the_answer_of_the_turn_under_test_is_masked_everywhere():
    """A HUMAN item that shows {a} (unusual) gets the mask, not the gold answer of its own turn."""
    t = MultiTurnPromptTemplate(dict(round=[dict(role="HUMAN", prompt="{q} [{a}]"), dict(role="BOT", prompt="{a}")]))
    prompt = t.render_turn({"q": ["x", "y"], "a": ["GOLD0", "GOLD1"]}, 1, masked="a", mask_value="?")
    assert turns(prompt) == [("HUMAN", "x [GOLD0]"), ("BOT", "GOLD0"), ("HUMAN", "y [?]")]


def test_replies_replace_the_bot_items_as_they_are():
    t = MultiTurnPromptTemplate(QA)
    prompt = t.render_turn({"q": ["1", "2", "3"], "a": ["x", "y", "z"]}, 2, masked="a", replies=["r0 {a}", "r1"])
    assert turns(prompt) == [("HUMAN", "Q: 1"), ("BOT", "r0 {a}"), ("HUMAN", "Q: 2"), ("BOT", "r1"), ("HUMAN", "Q: 3")]
    with pytest.raises(TemplateError, match=r"turn 2 needs the replies of the 2 turns before it; 1 given"):
        t.render_turn({"q": ["1", "2", "3"], "a": ["x", "y", "z"]}, 2, replies=["r0"])


def test_items_after_the_bot_item_close_earlier_turns_only():
    """A round [HUMAN, BOT, SYSTEM marker]: the marker follows each complete turn, not the open one (as AISBench)."""
    t = MultiTurnPromptTemplate(dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}"), dict(role="SYSTEM", prompt="--")]))
    assert turns(t.render_turn({"q": ["1", "2"], "a": ["x", "y"]}, 1, masked="a")) == [("HUMAN", "1"), ("BOT", "x"), ("SYSTEM", "--"), ("HUMAN", "2")]


def test_shots_at_the_ice_token_in_begin():
    """Few-shot works: the shots render where the ice token stands, before the dialogue (AISBench ignores them)."""
    ice = PromptTemplate(dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")]))
    shot = ice.render_shot({"q": "2+2", "a": "4"})
    t = MultiTurnPromptTemplate(dict(begin=["</E>"], round=QA["round"]), ice_token="</E>")
    prompt = t.render_turn({"q": ["1+1", "1+2"], "a": ["2", "3"]}, 1, shot, masked="a")
    assert turns(prompt) == [("HUMAN", "2+2"), ("BOT", "4"), ("HUMAN", "Q: 1+1"), ("BOT", "A: 2"), ("HUMAN", "Q: 1+2")]


def test_completion_and_chat_models_render_the_turn():
    meta = dict(round=[dict(role="HUMAN", begin="<U>", end="\n"), dict(role="BOT", begin="<A>", end="\n", generate=True)])
    prompt = MultiTurnPromptTemplate(QA).render_turn({"q": ["1", "2"], "a": ["x", "y"]}, 1, masked="a")
    assert CompletionModel(meta_template=meta).render(prompt) == "<U>Q: 1\n<A>A: x\n<U>Q: 2\n<A>"
    assert ChatModel().render(prompt) == [
        {"role": "user", "content": "Q: 1"},
        {"role": "assistant", "content": "A: x"},
        {"role": "user", "content": "Q: 2"},
    ]


def test_a_whole_dialogue_as_a_shot():
    shot = MultiTurnPromptTemplate(QA).render_shot({"q": ["1", "2"], "a": ["x", "y"]})
    assert turns(shot) == [("HUMAN", "Q: 1"), ("BOT", "A: x"), ("HUMAN", "Q: 2"), ("BOT", "A: y")]


def test_multimodal_turns():
    """Round items may give prompt_mm: each turn's parts come from that turn's elements."""
    t = MultiTurnPromptTemplate(
        dict(
            round=[
                dict(role="HUMAN", prompt_mm={"text": {"type": "text", "text": "{q}"}, "image": {"type": "image_url", "image_url": {"url": "{img}"}}}),
                dict(role="BOT", prompt="{a}"),
            ]
        )
    )
    prompt = t.render_turn({"q": ["look", "again"], "img": ["a.png", "b.png"], "a": ["x", "y"]}, 1, masked="a")
    assert t.is_multimodal
    assert [m["content"] for m in ChatModel().render(prompt)] == [
        [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "a.png"}}],
        "x",
        [{"type": "text", "text": "again"}, {"type": "image_url", "image_url": {"url": "b.png"}}],
    ]
