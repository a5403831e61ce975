"""Dialogue modes: which turns a multi-turn row renders, with which history, and where their errors point."""

from __future__ import annotations

import pytest

from promptkit import (
    ConfigError,
    GenInferencer,
    MultiTurnGenInferencer,
    MultiTurnPromptTemplate,
    PPLInferencer,
    PromptTemplate,
    TemplateError,
)
from promptkit.plan.dialogue import Dialogue, DialogueTemplate, dialogue_for

CHAT = dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")])
ROWS = [{"q": ["q1", "q2", "q3"], "a": ["a1", "a2", "a3"]}, {"q": ["p1", "p2"], "a": ["b1", "b2"]}]
INFER = dict(prompt_template=dict(type="MultiTurnPromptTemplate", template=CHAT), retriever=dict(type="ZeroRetriever"))
READER = dict(input_columns=["q"], output_column="a")


def multi_turn(mode: str) -> dict:
    return dict(INFER, inferencer=dict(type="MultiTurnGenInferencer", infer_mode=mode))


def test_the_multi_turn_template_is_a_dialogue_template_and_the_plain_one_is_not():
    """MultiTurnPromptTemplate implements the DialogueTemplate protocol (count_turns, render_turn); PromptTemplate does not."""
    assert isinstance(MultiTurnPromptTemplate(CHAT), DialogueTemplate)
    assert not isinstance(PromptTemplate(CHAT), DialogueTemplate)


def test_dialogue_for_takes_the_infer_mode_of_the_inferencer():
    """MultiTurnGenInferencer's infer_mode, numbered turns; a plain GenInferencer renders the last turn, unnumbered."""
    template = MultiTurnPromptTemplate(CHAT)
    every = dialogue_for(template, MultiTurnGenInferencer(infer_mode="every"))
    last = dialogue_for(template, GenInferencer())
    assert every is not None and (every.infer_mode, every.numbered) == ("every", True)
    assert last is not None and (last.infer_mode, last.numbered) == ("last", False)
    assert dialogue_for(PromptTemplate(CHAT), GenInferencer()) is None


@pytest.mark.parametrize(
    ("template", "inferencer", "message"),
    [
        (PromptTemplate(CHAT), MultiTurnGenInferencer(), "MultiTurnGenInferencer needs a MultiTurnPromptTemplate as prompt_template"),
        (MultiTurnPromptTemplate(CHAT), PPLInferencer(), "a MultiTurnPromptTemplate renders for generation: use MultiTurnGenInferencer"),
    ],
)
def test_dialogue_for_refuses_a_mismatched_template_and_inferencer(template, inferencer, message):
    """A multi-turn inferencer without a dialogue template, or a dialogue template scored by likelihood, is a config error."""
    with pytest.raises(ConfigError) as info:
        dialogue_for(template, inferencer)
    assert info.value.message == message


@pytest.mark.parametrize(
    ("mode", "replies", "turns"),
    [
        ("last", None, ((2,), None)),
        ("every_with_gt", None, (range(3), None)),
        ("every", {}, (range(1), [])),
        ("every", {0: ["r1"]}, (range(2), ["r1"])),
        ("every", {0: ["r1", "r2", "r3"]}, (range(3), ["r1", "r2", "r3"])),
    ],
)
def test_turns_of_a_three_turn_row(mode, replies, turns):
    """'last' renders the last turn, 'every_with_gt' each turn, 'every' the turns its replies reach (one past the last reply)."""
    assert Dialogue(MultiTurnPromptTemplate(CHAT), mode, numbered=True).turns(0, 3, replies) == turns


def test_every_without_replies_or_with_too_many_is_an_error():
    """'every' needs the replies, and no more of them than the row has turns."""
    dialogue = Dialogue(MultiTurnPromptTemplate(CHAT), "every", numbered=True)
    with pytest.raises(ConfigError, match=r"^key 'replies': infer_mode='every' fills each turn's history with the model's own replies, and none"):
        dialogue.turns(0, 3, None)
    with pytest.raises(ConfigError, match=r"^key 'replies': row 1 has 2 turns but 3 replies$"):
        dialogue.turns(1, 2, {1: ["r1", "r2", "r3"]})


def test_a_conversation_turn_in_each_mode():
    """render_turn's turn: 'every' with the replies given, 'every_with_gt' with the ground truth, 'last' only turn 0."""
    template = MultiTurnPromptTemplate(CHAT)
    assert Dialogue(template, "every", numbered=True).turn(1, ["r1"]) == ((1,), ["r1"])
    assert Dialogue(template, "every_with_gt", numbered=True).turn(1, ["r1"]) == ((1,), None)
    assert Dialogue(template, "last", numbered=False).turn(0, []) is None
    with pytest.raises(ConfigError, match=r"^turn 1: infer_mode 'last' renders one prompt per row \(turn 0\)$"):
        Dialogue(template, "last", numbered=False).turn(1, [])


def test_conversation_length_is_one_in_last_mode():
    """A conversation has one prompt per turn, except in 'last' mode."""
    template = MultiTurnPromptTemplate(CHAT)
    assert Dialogue(template, "every", numbered=True).conversation_length(3) == 3
    assert Dialogue(template, "last", numbered=False).conversation_length(3) == 1


def test_renderer_records_turns_only_for_multi_turn_inferencers(make_renderer):
    """every_with_gt records each turn's number; a plain GenInferencer's one prompt per row records none."""
    with_gt = make_renderer(ROWS, multi_turn("every_with_gt"), reader_cfg=READER)
    plain = make_renderer(ROWS, dict(INFER, inferencer=dict(type="GenInferencer")), reader_cfg=READER)
    assert [(p.index, p.turn, p.prompt) for p in with_gt.render(1)] == [(1, 0, "p1"), (1, 1, "p1\nb1\np2")]
    assert [(p.index, p.turn, p.prompt) for p in plain.render(1)] == [(1, None, "p1\nb1\np2")]


def test_replies_errors_name_the_dataset_and_template_errors_name_the_row(make_renderer):
    """An error about the replies names the dataset but no row; the template's error about a row's turns names the row."""
    every = make_renderer(ROWS, multi_turn("every"), reader_cfg=READER, replies={0: ["r1", "r2", "r3", "r4"]})
    with pytest.raises(ConfigError, match=r"^dataset 'demo', key 'replies': row 0 has 3 turns but 4 replies$"):
        every.render(0)
    broken = make_renderer([{"q": "not a list", "a": "a1"}], multi_turn("every_with_gt"), reader_cfg=READER)
    with pytest.raises(TemplateError, match=r"^dataset 'demo', row 0, key 'q': column 'q' is a str, but the round"):
        broken.render(0)
    with pytest.raises(TemplateError, match=r"^dataset 'demo', row 0, key 'q': column 'q' is a str, but the round"):
        broken.count_turns(0)
