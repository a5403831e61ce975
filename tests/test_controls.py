"""Prompt controls: validation, the merge order model < dataset < run, and how runs describe them."""

from __future__ import annotations

import pytest

from promptkit import ConfigError
from promptkit.controls import Controls


def test_later_levels_win_and_kwargs_merge_key_by_key():
    """A run's value replaces a dataset's, which replaces a model's; kwargs merge per key."""
    model = Controls(chat_template_kwargs={"date_string": "1 Jan", "reasoning_effort": "high"}, shots="as_turns", system_prompt="M")
    dataset = Controls(chat_template_kwargs={"reasoning_effort": "low"}, system_prompt="D")
    run = Controls(shots="in_user_turn")
    merged = Controls.merge(model, dataset, run)
    assert dict(merged.chat_template_kwargs) == {"date_string": "1 Jan", "reasoning_effort": "low"}
    assert (merged.shots, merged.system_prompt) == ("in_user_turn", "D")


def test_thinking_of_a_higher_level_replaces_a_lower_switch_in_the_kwargs():
    """A run's thinking=False wins over a model's chat_template_kwargs enable_thinking=True."""
    merged = Controls.merge(Controls(chat_template_kwargs={"enable_thinking": True}), None, Controls(thinking=False))
    assert merged.thinking_value() is False
    assert dict(merged.template_kwargs("enable_thinking")) == {"enable_thinking": False}


def test_an_explicit_switch_of_a_higher_level_replaces_a_lower_thinking():
    """A dataset's chat_template_kwargs enable_thinking=True wins over a model's thinking=False."""
    merged = Controls.merge(Controls(thinking=False), Controls(chat_template_kwargs={"enable_thinking": True}))
    assert merged.thinking is None
    assert merged.thinking_value() is True
    assert dict(merged.template_kwargs(None)) == {"enable_thinking": True}


def test_thinking_under_a_template_without_a_switch_is_refused():
    """thinking= needs a template variable to write to."""
    with pytest.raises(ConfigError) as caught:
        Controls(thinking=True).template_kwargs(None)
    assert str(caught.value) == (
        "key 'thinking': thinking=True is set but the model's chat template reads no thinking switch (enable_thinking, thinking); "
        "remove thinking, or pass the template's own variable with chat_template_kwargs"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(thinking="off"), "key 'thinking': thinking must be True, False or None (got 'off' that is a str)"),
        (dict(shots="multiturn"), "key 'shots': shots must be one of 'as_configured', 'as_turns', 'in_user_turn' (got 'multiturn')"),
        (dict(system_prompt=3), "key 'system_prompt': system_prompt must be a str (got 3)"),
        (dict(chat_template_kwargs=["x"]), "key 'chat_template_kwargs': chat_template_kwargs must be a dict of names to values (got ['x'])"),
    ],
)
def test_bad_values_name_the_key(kwargs, message):
    """Each control checks its value and says what it takes."""
    with pytest.raises(ConfigError) as caught:
        Controls(**kwargs)
    assert str(caught.value) == message


def test_describe_lists_what_is_set_as_literals():
    """A run's controls are recorded as key=value lines."""
    controls = Controls(thinking=False, chat_template_kwargs={"reasoning_effort": "low"}, shots="as_turns", system_prompt="Be brief.")
    assert controls.describe() == ("thinking=False", "chat_template_kwargs.reasoning_effort='low'", "shots='as_turns'", "system_prompt='Be brief.'")
    assert Controls().describe() == ()
