"""fastchat_template='vicuna': FastChat's conversation, as OpenCompass's chat-template models make it.

The expected strings were recorded from FastChat 0.2.36 (``fschat``): ``get_conv_template('vicuna_v1.1')``
(what ``get_conversation_template('vicuna')`` picks), the user and assistant messages appended as
OpenCompass's ``_format_with_fast_chat_template`` appends them, then an empty assistant message, and
``get_prompt()``.
"""

from __future__ import annotations

import pytest

from promptkit import ChatTemplateModel, MetaTemplateError, build_model
from promptkit.chat_templates.fastchat import fastchat_template

SYSTEM = (
    "A chat between a curious user and an artificial intelligence assistant. "
    "The assistant gives helpful, detailed, and polite answers to the user's questions."
)

#: (messages, FastChat's prompt)
RECORDED = [
    ([{"role": "user", "content": "What is 2+2?"}], SYSTEM + " USER: What is 2+2? ASSISTANT:"),
    (
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Q1"}, {"role": "assistant", "content": "A1"}, {"role": "user", "content": "Q2"}],
        SYSTEM + " USER: Q1 ASSISTANT: A1</s>USER: Q2 ASSISTANT:",
    ),
    (
        [
            {"role": "user", "content": "Q1"},
            {"role": "assistant", "content": "A1"},
            {"role": "user", "content": "Q2"},
            {"role": "assistant", "content": "A2"},
            {"role": "user", "content": "Q3 {answer} </s>"},
        ],
        SYSTEM + " USER: Q1 ASSISTANT: A1</s>USER: Q2 ASSISTANT: A2</s>USER: Q3 {answer} </s> ASSISTANT:",
    ),
]


@pytest.mark.parametrize(("messages", "expected"), RECORDED)
def test_vicuna_matches_fastchat(messages, expected):
    """The 'vicuna' style renders as FastChat's vicuna_v1.1 conversation; system messages are left out, as OpenCompass does."""
    assert fastchat_template("vicuna").render(messages, add_generation_prompt=True) == expected


def test_opencompass_vicuna_config_needs_no_model_folder():
    """OpenCompass's vicuna configs (a hub id and fastchat_template='vicuna') render without a model folder or cache."""
    model = build_model(
        dict(type="HuggingFacewithChatTemplate", abbr="vicuna-7b-v1.5-hf", path="lmsys/vicuna-7b-v1.5", fastchat_template="vicuna", max_out_len=1024)
    )
    assert isinstance(model, ChatTemplateModel)
    assert model.render("What is 2+2?") == SYSTEM + " USER: What is 2+2? ASSISTANT:"
    assert model.chat_template.origin == "fastchat_template='vicuna'"


def test_a_role_fastchat_has_not_is_an_error():
    """A tool message has no place in a FastChat conversation: the template says so."""
    with pytest.raises(MetaTemplateError, match="FastChat conversations have user and assistant messages, not tool"):
        fastchat_template("vicuna").render([{"role": "user", "content": "x"}, {"role": "tool", "content": "y"}])
