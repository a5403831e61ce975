"""Invariants, checked on generated rows: no answer leak, determinism, data stays data."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promptkit import ChatModel, CompletionModel, PromptTemplate, Renderer, build_dataset

# Text that looks like template syntax, role words, markers and unicode.
TRICKY = st.lists(
    st.sampled_from(list("ab {}</E>\n") + ["{answer}", "{question}", "</E>", "HUMAN", "BOT", "SYSTEM", "<|im_end|>", "é", "中", "🙂", "{{", "}}"]),
    max_size=12,
).map("".join)
ANSWER = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4E50), min_size=6, max_size=12)

CHAT = dict(
    begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Answer."), "</E>"],
    round=[dict(role="HUMAN", prompt="Q: {question}\nNote: {note}"), dict(role="BOT", prompt="A: {answer}")],
)
STRING = "</E>Q: {question}\nNote: {note}\nA: {answer}"
LLAMA = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
    reserved_roles=[dict(role="SYSTEM", begin="<|start_header_id|>system<|end_header_id|>\n\n", end="<|eot_id|>")],
)


def render_all(tmp: Path, rows: list[dict], template, model) -> list:
    path = tmp / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    ice = dict(type="PromptTemplate", template=template, ice_token="</E>")
    spec = build_dataset(
        dict(
            abbr="p",
            type="JsonlDataset",
            path=str(path),
            reader_cfg=dict(input_columns=["question", "note"], output_column="answer"),
            infer_cfg=dict(ice_template=ice, retriever=dict(type="FixKRetriever", fix_id_list=[0]), inferencer=dict(type="GenInferencer")),
        )
    )
    return list(Renderer(spec, model))


def text_of(final) -> str:
    return final if isinstance(final, str) else "\x00".join(m["content"] for m in final)


row_strategy = st.fixed_dictionaries({"question": TRICKY, "note": TRICKY, "answer": ANSWER})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(row_strategy, min_size=2, max_size=4), use_chat=st.booleans(), model_kind=st.sampled_from(["none", "llama", "chat"]))
def test_answer_of_the_item_under_test_never_leaks(tmp_path, rows, use_chat, model_kind):
    """No test row's answer appears in its own prompt, whatever its other fields contain."""
    model = {"none": None, "llama": CompletionModel(meta_template=LLAMA), "chat": ChatModel()}[model_kind]
    shot_answer = rows[0]["answer"]
    for p in render_all(tmp_path, rows, CHAT if use_chat else STRING, model):
        answer = rows[p.index]["answer"]
        if answer != shot_answer and answer not in shot_answer:
            assert answer not in text_of(p.prompt)


@settings(max_examples=60, deadline=None)
@given(question=TRICKY, note=TRICKY)
def test_row_text_survives_literally_exactly_once(question, note):
    """Braces, '</E>', role words and unicode in a row are inserted as written, once, in one pass."""
    t = PromptTemplate("[{question}]|[{note}]|{answer}")
    assert t.render({"question": question, "note": note, "answer": "X"}, masked="answer") == f"[{question}]|[{note}]|"


@settings(max_examples=40, deadline=None)
@given(question=TRICKY, note=TRICKY)
def test_chat_rendering_keeps_row_text(question, note):
    """A chat model's user message holds the row text exactly as a completion model's string does."""
    t = PromptTemplate(dict(round=[dict(role="HUMAN", prompt="{question}|{note}"), dict(role="BOT", prompt="{answer}")]))
    prompt = t.render({"question": question, "note": note, "answer": "X"}, masked="answer")
    [message] = ChatModel().render(prompt)
    assert message["content"] == f"{question}|{note}"
    assert CompletionModel().render(prompt) == f"{question}|{note}"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(row_strategy, min_size=2, max_size=4))
def test_rendering_is_deterministic(tmp_path, rows):
    """Rendering the same config twice gives the same prompts."""
    model = CompletionModel(meta_template=LLAMA)
    first = [p.to_record() for p in render_all(tmp_path, rows, CHAT, model)]
    second = [p.to_record() for p in render_all(tmp_path, rows, CHAT, model)]
    assert first == second


@settings(max_examples=300, deadline=None)
@given(
    template=st.text(max_size=40) | TRICKY,
    values=st.dictionaries(
        st.text(max_size=5),
        st.text(max_size=8) | st.integers() | st.floats() | st.none() | st.booleans() | st.lists(st.text(max_size=3), max_size=2),
        max_size=4,
    ),
)
def test_any_template_text_renders_like_a_single_regex_pass(template, values):
    """Any template text — quotes, backslashes, braces — fills exactly like one regex pass over it (no text becomes
    code); a value that is not a string renders as ``str()`` of it."""
    import re

    from promptkit.text.placeholders import compile_text

    def reference(match: re.Match) -> str:
        name = match.group(1)
        return str(values[name]) if name in values else match.group(0)

    assert compile_text(template).render(values) == re.sub(r"\{([^{}]+)\}", reference, template)
