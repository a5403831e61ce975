"""CompletionModel: OpenCompass LMTemplateParser semantics (its own test scenarios, ported)."""

from __future__ import annotations

import pytest

from promptkit import CompletionModel, MetaTemplateError, PromptList

B, E = "begin", "end"


def sec(name: str, pos: str) -> dict[str, str]:
    return {"section": name, "pos": pos}


def parser_input(u1_end: str | None = "\n") -> PromptList:
    """The shared input of OpenCompass's parser tests: begin/ice/round/end sections."""
    u1 = {"role": "HUMAN", "prompt": "U1"}
    if u1_end is not None:
        u1["end"] = u1_end
    return PromptList(
        [
            sec("begin", B),
            "begin",
            {"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "system msg"},
            sec("ice", B),
            {"role": "HUMAN", "prompt": "U0"},
            {"role": "BOT", "prompt": "B0"},
            sec("ice", E),
            sec("begin", E),
            sec("round", B),
            u1,
            {"role": "BOT", "prompt": "B1"},
            {"role": "HUMAN", "prompt": "U2"},
            {"role": "BOT", "prompt": "B2"},
            sec("round", E),
            sec("end", B),
            "end",
            sec("end", E),
        ]
    )


THOUGHTS_META = dict(
    begin="meta instruction\n",
    round=[
        dict(role="HUMAN", begin="<|HUMAN|>:", end="<eoh>\n"),
        dict(role="THOUGHTS", begin="<|Inner Thoughts|>:", end="<eot>\n", prompt="None", generate=True),
        dict(role="BOT", begin="<|BOT|>:", end="<eob>\n"),
    ],
    end="meta end",
)

FULL = (
    "meta instruction\nbegin<|HUMAN|>:system msg<eoh>\n"
    "<|HUMAN|>:U0<eoh>\n<|Inner Thoughts|>:None<eot>\n<|BOT|>:B0<eob>\n"
    "<|HUMAN|>:U1\n<|Inner Thoughts|>:None<eot>\n<|BOT|>:B1<eob>\n"
    "<|HUMAN|>:U2<eoh>\n"
)


def test_string_prompt_is_returned_unchanged():
    """A plain string passes through untouched, in both modes."""
    model = CompletionModel(meta_template=THOUGHTS_META)
    assert model.render("Hello", "gen") == "Hello" and model.render("Hello", "ppl") == "Hello"


def test_no_meta_template_joins_with_newlines():
    """Without a meta template items join with '\\n', roles and sections ignored."""
    expected = "begin\nsystem msg\nU0\nB0\nU1\nB1\nU2\nB2\nend"
    assert CompletionModel().render(parser_input(), "gen") == expected
    assert CompletionModel().render(parser_input(), "ppl") == expected


def test_generation_cuts_at_the_first_generate_role_of_the_last_turn():
    """gen stops at THOUGHTS' begin; item-level end overrides the role's end; ice turns are never cut."""
    assert CompletionModel(meta_template=THOUGHTS_META).render(parser_input(), "gen") == FULL + "<|Inner Thoughts|>:"


def test_ppl_renders_everything_and_meta_end():
    """ppl renders every role fully, then the end section and meta end."""
    expected = FULL + "<|Inner Thoughts|>:None<eot>\n<|BOT|>:B2<eob>\nendmeta end"
    assert CompletionModel(meta_template=THOUGHTS_META).render(parser_input(), "ppl") == expected


def test_generate_on_the_bot_role():
    """With generate on BOT the default THOUGHTS prompt renders, and gen cuts at BOT."""
    meta = dict(THOUGHTS_META, round=[dict(r) for r in THOUGHTS_META["round"]])
    meta["round"][1].pop("generate")
    meta["round"][2]["generate"] = True
    model = CompletionModel(meta_template=meta)
    assert model.render(parser_input(), "gen") == FULL + "<|Inner Thoughts|>:None<eot>\n<|BOT|>:"


def test_reserved_system_role_renders_with_its_own_markers():
    """A reserved SYSTEM role is used instead of the fallback."""
    meta = dict(THOUGHTS_META, reserved_roles=[dict(role="SYSTEM", begin="<|SYSTEM|>:", end="<eos>\n")])
    result = CompletionModel(meta_template=meta).render(parser_input(), "gen")
    assert result == FULL.replace("<|HUMAN|>:system msg<eoh>\n", "<|SYSTEM|>:system msg<eos>\n") + "<|Inner Thoughts|>:"


INTERNLM = dict(
    begin="<BOS>",
    end="<END>",
    round=[dict(role="HUMAN", begin="<|User|>:", end="\n"), dict(role="BOT", begin="<|Bot|>:", end="<eoa>\n", generate=True)],
)


def rnd(*items) -> PromptList:
    return PromptList([sec("round", B), *items, sec("round", E)])


@pytest.mark.parametrize(
    ("prompt", "mode", "expected"),
    [
        (rnd({"role": "HUMAN", "prompt": "Q: What is 2+2?"}, {"role": "BOT", "prompt": "A: "}), "gen", "<BOS><|User|>:Q: What is 2+2?\n<|Bot|>:"),
        (
            rnd({"role": "HUMAN", "prompt": "Q: What is 2+2?"}, {"role": "BOT", "prompt": "A: "}),
            "ppl",
            "<BOS><|User|>:Q: What is 2+2?\n<|Bot|>:A: <eoa>\n<END>",
        ),
        (rnd({"role": "HUMAN", "prompt": "Q: What is 2+2?"}), "ppl", "<BOS><|User|>:Q: What is 2+2?\n<|Bot|>:<eoa>\n<END>"),
        (
            rnd({"role": "HUMAN", "prompt": "H1"}, {"role": "HUMAN", "prompt": "H2"}, {"role": "BOT", "prompt": ""}),
            "gen",
            "<BOS><|User|>:H1\n<|Bot|>:<eoa>\n<|User|>:H2\n<|Bot|>:",
        ),
        (rnd({"role": "HUMAN", "prompt": "q", "begin": "[U]"}, {"role": "BOT", "prompt": ""}), "gen", "<BOS>[U]q\n<|Bot|>:"),
        (
            rnd({"role": "HUMAN", "prompt": "hi"}, "LOOSE", {"role": "BOT", "prompt": "yo"}),
            "ppl",
            "<BOS>LOOSE<|User|>:hi\n<|Bot|>:yo<eoa>\n<END>",
        ),
    ],
    ids=["gen", "ppl", "empty-bot-in-ppl", "two-humans", "item-begin-override", "loose-string-hoisted"],
)
def test_internlm_style_meta(prompt, mode, expected):
    """OpenCompass's verified internlm-chat examples."""
    assert CompletionModel(meta_template=INTERNLM).render(prompt, mode) == expected


def test_literal_strings_in_meta_round_are_emitted():
    """Strings in the meta round are emitted verbatim between roles."""
    meta = dict(round=["<s>", dict(role="HUMAN", begin="U:", end="\n"), "---", dict(role="BOT", begin="B:", generate=True)])
    assert CompletionModel(meta_template=meta).render(rnd({"role": "HUMAN", "prompt": "q"}), "gen") == "<s>U:q\n---B:"


def test_reserved_role_inside_a_round_is_rendered_in_place():
    """A reserved SYSTEM item inside a round renders on its own (OpenCompass raises KeyError)."""
    meta = dict(INTERNLM, reserved_roles=[dict(role="SYSTEM", begin="<|System|>:", end="\n")])
    prompt = rnd({"role": "SYSTEM", "prompt": "sys"}, {"role": "HUMAN", "prompt": "q"}, {"role": "BOT", "prompt": ""})
    assert CompletionModel(meta_template=meta).render(prompt, "gen") == "<BOS><|System|>:sys\n<|User|>:q\n<|Bot|>:"


def test_system_with_fallback_inside_a_round_uses_the_fallback():
    """SYSTEM (fallback HUMAN) inside a round becomes a HUMAN turn when the model has no SYSTEM."""
    prompt = rnd({"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "sys"}, {"role": "HUMAN", "prompt": "q"}, {"role": "BOT", "prompt": ""})
    assert CompletionModel(meta_template=INTERNLM).render(prompt, "gen") == "<BOS><|User|>:sys\n<|Bot|>:<eoa>\n<|User|>:q\n<|Bot|>:"


def test_end_section_works_in_ppl_mode():
    """A template's end section renders in ppl mode (OpenCompass crashes: both markers say pos='end')."""
    prompt = PromptList([*rnd({"role": "HUMAN", "prompt": "q"}, {"role": "BOT", "prompt": "a"}), sec("end", B), {"role": "HUMAN", "prompt": "bye"}, sec("end", E)])
    assert CompletionModel(meta_template=INTERNLM).render(prompt, "ppl") == "<BOS><|User|>:q\n<|Bot|>:a<eoa>\n<|User|>:bye\n<END>"


def test_unknown_role_without_fallback_names_the_role_and_the_fix():
    """An unknown role is an error naming it, the model's roles and the fix."""
    with pytest.raises(MetaTemplateError) as info:
        CompletionModel(meta_template=INTERNLM).render(rnd({"role": "ASSISTANT", "prompt": "x"}), "gen")
    assert str(info.value) == (
        "section round, item 0, key 'ASSISTANT': role 'ASSISTANT' is not in the model's meta template (its roles: HUMAN, BOT) "
        "and the item has no fallback_role; give the item a fallback_role that is (e.g. fallback_role='HUMAN') "
        "or add the role to the meta template"
    )


def test_meta_template_without_round_is_rejected():
    """'round' is required, with an example of what it looks like."""
    with pytest.raises(MetaTemplateError, match=r"key 'round': meta_template needs 'round', the roles of one turn"):
        CompletionModel(meta_template=dict(begin="x"))


def test_meta_role_with_token_ids_is_rejected():
    """begin/end as lists of token ids are not supported, and the message says so."""
    with pytest.raises(MetaTemplateError, match=r"token ids are not supported, write the token text instead"):
        CompletionModel(meta_template=dict(round=[dict(role="HUMAN", begin=[1, 2])]))


def test_duplicate_roles_are_rejected():
    """A role may appear once across round and reserved_roles."""
    with pytest.raises(MetaTemplateError, match=r"role\(s\) \['HUMAN'\] appear more than once"):
        CompletionModel(meta_template=dict(round=[dict(role="HUMAN")], reserved_roles=[dict(role="HUMAN")]))


def test_shots_nested_in_a_round_render_once():
    """Shots spliced inside a round (an ice section nested in it) are rendered once, before the round's own turns."""
    prompt = rnd(
        sec("ice", B), {"role": "HUMAN", "prompt": "s1"}, {"role": "BOT", "prompt": "a1"}, sec("ice", E),
        {"role": "HUMAN", "prompt": "q"}, {"role": "BOT", "prompt": ""},
    )
    assert CompletionModel(meta_template=INTERNLM).render(prompt, "gen") == "<BOS><|User|>:s1\n<|Bot|>:a1<eoa>\n<|User|>:q\n<|Bot|>:"


def test_completion_meta_begin_must_be_text():
    """A list or message dict as a completion model's begin is rejected at load time, with the way to a system prompt."""
    with pytest.raises(MetaTemplateError, match=r"begin must be a str, the text before the prompt .* add reserved_roles="):
        CompletionModel(meta_template=dict(INTERNLM, begin=dict(role="SYSTEM", prompt="You are a cat.")))
    with pytest.raises(MetaTemplateError, match=r"reserved_roles must be a list of role dicts \(got 'SYSTEM'\)"):
        CompletionModel(meta_template=dict(INTERNLM, reserved_roles="SYSTEM"))
