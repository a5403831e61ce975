"""find_spans: where each piece of a prompt sits in the final input, for every bundled model config."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promptkit import ChatTemplateModel, CompletionModel, Hints, MetaTemplateError, Part, PromptkitError, PromptList, RoleItem, load_models
from promptkit.meta_templates.spans import Span, find_spans

ROOT = Path(__file__).parents[2]
LLAMA3 = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
    reserved_roles=[dict(role="SYSTEM", begin="<|start_header_id|>system<|end_header_id|>\n\n", end="<|eot_id|>")],
)


def sec(name: str, pos: str) -> dict[str, str]:
    return {"section": name, "pos": pos}


def few_shot(system: str | None, shots: list[tuple[str, str]], query: str, answer: str) -> PromptList:
    items: list[object] = [sec("begin", "begin")]
    if system is not None:
        items.append(dict(role="SYSTEM", fallback_role="HUMAN", prompt=system))
    for question, shot_answer in shots:
        items += [sec("ice", "begin"), dict(role="HUMAN", prompt=question), dict(role="BOT", prompt=shot_answer), sec("ice", "end")]
    items += [sec("begin", "end"), sec("round", "begin"), dict(role="HUMAN", prompt=query), dict(role="BOT", prompt=answer), sec("round", "end")]
    return PromptList(items)


def sliced(final, span: Span) -> str:
    return final[span.start : span.end] if span.message is None else final[span.message]["content"][span.start : span.end]


def test_completion_spans_name_each_piece_and_the_wrappers():
    """A Llama-3 meta template: system, shots with answers, query, wrappers between them, the generation point at the end."""
    model = CompletionModel(meta_template=LLAMA3)
    prompt = few_shot("Be brief.", [("2+2?", "4")], "1+1?", "")
    final = model.render(prompt)
    assert [(s.piece, sliced(final, s)) for s in find_spans(model, prompt)] == [
        ("wrapper", "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"),
        ("system", "Be brief."),
        ("wrapper", "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n"),
        ("shot[0]", "2+2?"),
        ("wrapper", "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"),
        ("shot[0].answer", "4"),
        ("wrapper", "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n"),
        ("query", "1+1?"),
        ("wrapper", "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"),
        ("answer_slot", ""),
    ]


def test_ppl_answer_slot_is_the_label_continuation():
    """In ppl mode the final BOT text (the candidate label) is the answer slot."""
    model = CompletionModel(meta_template=LLAMA3)
    prompt = few_shot(None, [], "Capital of France?", "Paris")
    final = model.render(prompt, "ppl")
    (slot,) = [s for s in find_spans(model, prompt, "ppl") if s.piece == "answer_slot"]
    assert final[slot.start : slot.end] == "Paris" and final[slot.end :] == "<|eot_id|>"


def test_chat_template_that_rewrites_content_is_refused():
    """A template that edits message text (here: cuts it) cannot be mapped: the error says spans are unavailable."""
    model = ChatTemplateModel(abbr="cut", chat_template="{% for m in messages %}{{ m.content[:2] }}{% endfor %}")
    with pytest.raises(MetaTemplateError, match="model 'cut' rewrites the text of the prompt .* spans are not available for this model"):
        find_spans(model, few_shot(None, [], "Hello there", ""))


def test_multimodal_turns_are_refused():
    """Spans cover text prompts; parts are an error, not silently skipped."""
    prompt = PromptList([sec("round", "begin"), RoleItem("HUMAN", "", parts=(Part.text("What?"),)), RoleItem("BOT", ""), sec("round", "end")])
    with pytest.raises(MetaTemplateError, match="multimodal content parts"):
        find_spans(CompletionModel(meta_template=LLAMA3, mm_placeholders=dict(image="<image>")), prompt)


def _bundled_models():
    """Every bundled model config (meta-template and chat-template ones); folders are relative to the repository root."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        paths = sorted((ROOT / "configs" / "models").glob("*.py")) + sorted((ROOT / "configs" / "models" / "chat_template").glob("*.py"))
        return [model for path in paths for model in load_models(path)]
    finally:
        os.chdir(here)


MODELS = _bundled_models()
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\ue000\ue001"), max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    system=st.none() | TEXT,
    shots=st.lists(st.tuples(TEXT, TEXT), max_size=3),
    query=TEXT,
    answer=TEXT,
    mode=st.sampled_from(["gen", "ppl"]),
)
def test_slicing_by_each_span_gives_its_piece(system, shots, query, answer, mode):
    """Property, for every bundled model: each span slices out exactly its piece's text (trimmed where the template trims)."""
    prompt = few_shot(system, shots, query, answer)
    expected = {"query": query, "answer_slot": answer}
    if system is not None:
        expected["system"] = system
    for i, (question, shot_answer) in enumerate(shots):
        expected[f"shot[{i}]"], expected[f"shot[{i}].answer"] = question, shot_answer
    for model in MODELS:
        try:
            final = model.render(prompt, mode)
        except PromptkitError:
            continue  # a template that refuses this conversation (e.g. Gemma-2 and a system message)
        spans = find_spans(model, prompt, mode)
        for span in spans:
            if span.piece == "wrapper" or (span.piece == "answer_slot" and mode == "gen"):
                continue
            text = sliced(final, span)
            # A template trims a whole message: a piece at its start loses leading, one at its end trailing whitespace.
            piece = expected[span.piece]
            assert text in (piece, piece.strip(), piece.lstrip(), piece.rstrip()), (model, span)
            if not isinstance(model, ChatTemplateModel):
                assert text == expected[span.piece], (model, span)  # meta templates never trim
        if isinstance(final, str):
            covered = "".join(final[s.start : s.end] for s in spans)
            assert covered == final, model  # pieces and wrappers tile the string


def test_a_dialogue_turn_that_ends_with_the_question_names_earlier_answers_history():
    """A multi-turn prompt cut before its last BOT turn: earlier turns are history, the last question is the query."""
    model = CompletionModel(meta_template=LLAMA3)
    prompt = PromptList(
        [sec("round", "begin"), dict(role="HUMAN", prompt="12*12?"), dict(role="BOT", prompt="144"), dict(role="HUMAN", prompt="Divided by 3?"), sec("round", "end")]
    )
    final = model.render(prompt)
    named = [(s.piece, sliced(final, s)) for s in find_spans(model, prompt) if s.piece != "wrapper"]
    assert named == [("history", "12*12?"), ("history.answer", "144"), ("query", "Divided by 3?"), ("answer_slot", "")]


def pieces_of(final, spans) -> list[tuple[str, str]]:
    return [(span.piece, sliced(final, span)) for span in spans if span.end > span.start]


SHOT_PIECES = (("shot[0]", "Q: 2+2\nA: "), ("shot[0].answer", "4"), ("shot[0]", "\n"))


def test_string_prompt_names_the_text_before_the_shots_each_shot_and_its_answer_and_the_query():
    """A string template's output: the hint before the shots is text, the shot block is cut into its pieces, the rest is the query."""
    prompt = "Solve.\nQ: 2+2\nA: 4\nQ: 1+1\nA: "
    model = CompletionModel()
    spans = find_spans(model, prompt, "gen", Hints(shots=SHOT_PIECES))
    assert pieces_of(prompt, spans) == [("text", "Solve.\n"), *SHOT_PIECES, ("query", "Q: 1+1\nA: ")]
    assert spans[-1] == Span("answer_slot", len(prompt), len(prompt))


def test_string_prompt_without_shots_is_all_query():
    """No shot block (or no hints): the whole string is the item under test."""
    assert pieces_of("Q: 1+1\nA: ", find_spans(CompletionModel(), "Q: 1+1\nA: ")) == [("query", "Q: 1+1\nA: ")]


def test_string_ppl_answer_slot_is_where_the_labels_prompts_differ():
    """ppl: the stretch in which a label's string prompt differs from the row's other labels' prompts is its answer slot."""
    prompts = {label: f"Q: 1+1\nA. 2\nB. 3\nAnswer: {label}\n" for label in "AB"}
    spans = find_spans(CompletionModel(), prompts["B"], "ppl", Hints(others=(prompts["A"], prompts["B"])))
    assert pieces_of(prompts["B"], spans) == [("query", "Q: 1+1\nA. 2\nB. 3\nAnswer: "), ("answer_slot", "B"), ("query", "\n")]


def test_string_ppl_answer_slot_through_a_meta_template_and_a_chat_template():
    """A string prompt becomes the HUMAN turn (completion) or the user message (chat template); its answer slot is found there."""
    chat_template = ChatTemplateModel(abbr="t", chat_template="{% for m in messages %}<{{ m.role }}>{{ m.content }}</>{% endfor %}")
    for model in (CompletionModel(meta_template=LLAMA3), chat_template):
        prompt = "Answer: yes"
        final = model.render(prompt, "ppl")
        spans = find_spans(model, prompt, "ppl", Hints(others=("Answer: no",)))
        assert [(piece, text) for piece, text in pieces_of(final, spans) if piece != "wrapper"] == [("query", "Answer: "), ("answer_slot", "yes")]


def test_ll_continuation_is_the_answer_slot_where_the_prompt_holds_it_and_empty_at_the_end_otherwise():
    """LLInferencer: the row's continuation at its last place in the prompt; a continuation that follows the prompt: empty slot at the end."""
    held = find_spans(CompletionModel(), "The trophy was too big.", "ppl", Hints(others=("The case was too big.",), continuation="was too big."))
    assert pieces_of("The trophy was too big.", held) == [("query", "The trophy "), ("answer_slot", "was too big.")]
    after = find_spans(CompletionModel(), "The trophy", "ppl", Hints(others=("The case",), continuation=" was too big."))
    assert pieces_of("The trophy", after) == [("query", "The trophy")] and after[-1] == Span("answer_slot", 10, 10)


def test_string_shots_inside_a_chat_turn_are_cut_out_of_it():
    """A string ice_template spliced into a chat prompt's HUMAN turn: the turn's text is cut into the shots and the query."""
    model = CompletionModel(meta_template=LLAMA3)
    prompt = PromptList([sec("round", "begin"), dict(role="HUMAN", prompt="Q: 2+2\nA: 4\nQ: 1+1?"), dict(role="BOT", prompt=""), sec("round", "end")])
    final = model.render(prompt)
    assert [p for p in pieces_of(final, find_spans(model, prompt, "gen", Hints(shots=SHOT_PIECES))) if p[0] != "wrapper"] == [*SHOT_PIECES, ("query", "Q: 1+1?")]


def test_a_dialogue_turn_after_a_reply_names_the_earlier_exchange_history():
    """every_with_gt turn 1 ends with the new question (no final BOT): the first exchange is history and history.answer, not
    query and answer_slot; generation starts at the end."""
    model = CompletionModel(meta_template=LLAMA3)
    prompt = PromptList([sec("round", "begin"), dict(role="HUMAN", prompt="Q1"), dict(role="BOT", prompt="A1"), dict(role="HUMAN", prompt="Q2"), sec("round", "end")])
    final = model.render(prompt)
    spans = find_spans(model, prompt)
    assert [p for p in pieces_of(final, spans) if p[0] != "wrapper"] == [("history", "Q1"), ("history.answer", "A1"), ("query", "Q2")]
    assert spans[-1] == Span("answer_slot", len(final), len(final))
