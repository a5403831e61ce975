"""ChatModel and the OpenCompass/AISBench chat aliases: APITemplateParser semantics plus the OpenAI conversion."""

from __future__ import annotations

import pytest

from promptkit import ChatModel, MetaTemplateError, PromptList, build_model

B, E = "begin", "end"
API_META = dict(round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)])
WITH_SYSTEM = dict(API_META, reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")])


def sec(name: str, pos: str) -> dict[str, str]:
    return {"section": name, "pos": pos}


def parser_input() -> PromptList:
    """OpenCompass's API-parser test input, without its two loose strings."""
    return PromptList(
        [
            sec("begin", B),
            {"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "system msg"},
            sec("ice", B),
            {"role": "HUMAN", "prompt": "U0"},
            {"role": "BOT", "prompt": "B0"},
            sec("ice", E),
            sec("begin", E),
            sec("round", B),
            {"role": "HUMAN", "prompt": "U1"},
            {"role": "BOT", "prompt": "B1"},
            {"role": "HUMAN", "prompt": "U2"},
            {"role": "BOT", "prompt": "B2"},
            sec("round", E),
        ]
    )


def msgs(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"role": r, "content": c} for r, c in pairs]


def test_fallback_and_merge_of_same_role_messages():
    """SYSTEM falls back to HUMAN and merges with the next HUMAN message ('\\n'); gen drops the final BOT."""
    model = ChatModel(meta_template=API_META)
    gen = msgs(("user", "system msg\nU0"), ("assistant", "B0"), ("user", "U1"), ("assistant", "B1"), ("user", "U2"))
    assert model.render(parser_input(), "gen") == gen
    assert model.render(parser_input(), "ppl") == gen + msgs(("assistant", "B2"))


def test_reserved_system_role_becomes_a_system_message():
    """With a reserved SYSTEM role the system prompt is its own message."""
    gen = msgs(("system", "system msg"), ("user", "U0"), ("assistant", "B0"), ("user", "U1"), ("assistant", "B1"), ("user", "U2"))
    assert ChatModel(meta_template=WITH_SYSTEM).render(parser_input(), "gen") == gen


def test_chat_model_without_meta_template_maps_the_three_roles():
    """ChatModel's default: HUMAN→user, BOT→assistant (generated), SYSTEM→system."""
    gen = msgs(("system", "system msg"), ("user", "U0"), ("assistant", "B0"), ("user", "U1"), ("assistant", "B1"), ("user", "U2"))
    assert ChatModel().render(parser_input(), "gen") == gen


def test_openai_alias_without_meta_joins_into_one_user_message():
    """OpenCompass's OpenAI without a meta template sends the '\\n'-joined prompt as one user message."""
    model = build_model(dict(abbr="gpt", type="OpenAI", path="gpt-4o", key="ENV", max_out_len=512))
    assert model.render(parser_input(), "gen") == msgs(("user", "system msg\nU0\nB0\nU1\nB1\nU2\nB2"))


def test_string_prompt_is_one_user_message():
    """A plain-string template reaches a chat model as one user message."""
    assert ChatModel().render("Q: hi", "gen") == msgs(("user", "Q: hi"))


def test_role_begin_and_end_go_inside_the_message():
    """A chat role's begin/end wrap the text inside the message."""
    meta = dict(round=[dict(role="HUMAN", api_role="HUMAN", begin="<<", end=">>"), dict(role="BOT", api_role="BOT", generate=True)])
    prompt = PromptList([sec("round", B), {"role": "HUMAN", "prompt": "Q"}, {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert ChatModel(meta_template=meta).render(prompt, "gen") == msgs(("user", "<<Q>>"))


def test_empty_messages_are_kept_in_earlier_turns():
    """Every meta round role renders in every turn, empty or not (OpenCompass keeps them)."""
    prompt = PromptList([sec("round", B), {"role": "HUMAN", "prompt": "H1"}, {"role": "HUMAN", "prompt": "H2"}, {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert ChatModel(meta_template=API_META).render(prompt, "gen") == msgs(("user", "H1"), ("assistant", ""), ("user", "H2"))


def test_meta_begin_message_is_placed_first():
    """A meta template's begin message comes first (OpenCompass PR 1405)."""
    model = ChatModel(meta_template=dict(WITH_SYSTEM, begin=dict(role="SYSTEM", prompt="You are a cat")))
    prompt = PromptList([sec("round", B), {"role": "HUMAN", "prompt": "hi"}, {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert model.render(prompt, "gen") == msgs(("system", "You are a cat"), ("user", "hi"))


def test_loose_text_joins_the_next_user_message():
    """A string-form shot block outside any role is put into the next user message, not dropped."""
    prompt = PromptList([sec("begin", B), "Q: 1+1\nA: 2\n", sec("begin", E), sec("round", B), {"role": "HUMAN", "prompt": "Q: 2+2"}, {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert ChatModel().render(prompt, "gen") == msgs(("user", "Q: 1+1\nA: 2\nQ: 2+2"))


def test_loose_text_before_a_non_user_message_is_an_error():
    """Text that has no user message to join is rejected with the fix."""
    prompt = PromptList(["shots", sec("begin", B), {"role": "SYSTEM", "prompt": "s"}, sec("begin", E), sec("round", B), {"role": "HUMAN", "prompt": "q"}, sec("round", E)])
    with pytest.raises(MetaTemplateError) as info:
        ChatModel().render(prompt, "gen")
    assert str(info.value) == (
        "text 'shots' stands outside any role before a SYSTEM message; a chat model can only carry it inside a user message. "
        "Move it into a HUMAN prompt, or make ice_template a chat template so shots become turns"
    )


def test_whitespace_between_shots_is_dropped():
    """Blank loose strings (separators between chat shots) carry nothing and are dropped."""
    prompt = PromptList([sec("round", B), {"role": "HUMAN", "prompt": "q"}, "\n", {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert ChatModel().render(prompt, "gen") == msgs(("user", "q"))


def test_system_inside_a_round_is_rendered_not_lost():
    """A reserved SYSTEM inside a round is kept (OpenCompass renders empty HUMAN/BOT and loses it)."""
    prompt = PromptList([sec("round", B), {"role": "SYSTEM", "prompt": "sys"}, {"role": "HUMAN", "prompt": "q"}, {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert ChatModel(meta_template=WITH_SYSTEM).render(prompt, "gen") == msgs(("system", "sys"), ("user", "q"))


def test_vllm_custom_api_chat_passes_unknown_api_roles():
    """AISBench's VLLMCustomAPIChat keeps api roles it does not know (e.g. TOOL)."""
    meta = dict(round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="TOOL", api_role="tool"), dict(role="BOT", api_role="BOT", generate=True)])
    model = build_model(dict(abbr="v", type="VLLMCustomAPIChat", meta_template=meta))
    prompt = PromptList([sec("round", B), {"role": "HUMAN", "prompt": "q"}, {"role": "TOOL", "prompt": "t"}, {"role": "BOT", "prompt": "a"}, sec("round", E)])
    assert model.render(prompt, "ppl") == msgs(("user", "q"), ("tool", "t"), ("assistant", "a"))


def test_chat_meta_needs_api_roles():
    """A chat model's roles must say which message role they are."""
    with pytest.raises(MetaTemplateError, match=r"role 'HUMAN' needs api_role \('HUMAN', 'BOT' or 'SYSTEM'\)"):
        ChatModel(meta_template=dict(round=[dict(role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)]))


def test_chat_meta_rejects_literal_strings_in_round():
    """Literal strings between roles cannot exist in a chat request."""
    with pytest.raises(MetaTemplateError, match=r"literal string '---' in round"):
        ChatModel(meta_template=dict(round=[dict(role="HUMAN", api_role="HUMAN"), "---"]))


def test_begin_message_written_openai_style_is_caught():
    """begin=dict(role=..., content=...) would lose its text; the error points to 'prompt'."""
    with pytest.raises(MetaTemplateError, match=r"unknown key 'content' in meta_template begin \(its text goes in 'prompt'\); the message takes role and prompt"):
        ChatModel(meta_template=dict(WITH_SYSTEM, begin=dict(role="SYSTEM", content="You are a cat.")))


def test_loose_text_without_newline_gets_its_own_line():
    """An instruction string in begin stays on its own line in the user message, as a completion model shows it."""
    prompt = PromptList([sec("begin", B), "Answer briefly.", sec("begin", E), sec("round", B), {"role": "HUMAN", "prompt": "q0"}, {"role": "BOT", "prompt": ""}, sec("round", E)])
    assert ChatModel().render(prompt, "gen") == msgs(("user", "Answer briefly.\nq0"))
