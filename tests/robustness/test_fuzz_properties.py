"""Fuzzed invariants over template × row × model: only promptkit's own errors, row text once and literal, no gold leak."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promptkit import ChatModel, CompletionModel, PromptkitError, Renderer, build_dataset, build_model

CHAT_TEMPLATE_FOLDER = Path(__file__).resolve().parents[2] / "configs" / "models" / "hf"

# Pieces a careless or hostile config author might write: placeholders (known, unknown, malformed), the ice token,
# Jinja-looking and format-looking syntax, role words, control tokens and unicode.
FRAGMENTS = st.sampled_from(
    ["{question}", "{answer}", "{qestion}", "{", "}", "{{", "}}", "{0}", "{question!r}", "{question:>5}", "</E>", "%s",
     "{% if x %}", "{{ question }}", "HUMAN", "BOT", "\n", " ", "Q:", "é", "🙂", "<|im_end|>", "\x00", "\u2028"]
)
TEXT = st.lists(FRAGMENTS, max_size=8).map("".join)
ROLE = st.sampled_from(["HUMAN", "BOT", "SYSTEM", "TOOL", "", "human"])
ROLE_ITEM = st.fixed_dictionaries({"role": ROLE, "prompt": TEXT}, optional={"fallback_role": ROLE, "begin": TEXT})
CHAT_SHAPE = st.fixed_dictionaries(
    {"round": st.lists(st.one_of(ROLE_ITEM, TEXT), max_size=4)},
    optional={"begin": st.lists(st.one_of(ROLE_ITEM, TEXT), max_size=2), "end": st.lists(ROLE_ITEM, max_size=1)},
)
TEMPLATE = st.one_of(TEXT, CHAT_SHAPE, ROLE_ITEM, st.dictionaries(st.sampled_from(["A", "B", 0, "role"]), TEXT, max_size=3))

# Row values: text with template syntax in it, and a gold answer in a script no fragment uses, so a leak is visible.
ROW_TEXT = st.lists(st.sampled_from(["{answer}", "{question}", "</E>", "{{", "}}", "<|eot_id|>", "BOT", "x", " ", "\n", "中"]), max_size=6).map(
    "".join
)
GOLD = st.text(alphabet=st.characters(min_codepoint=0x0F40, max_codepoint=0x0F6A), min_size=6, max_size=10)  # Tibetan letters
ROW = st.fixed_dictionaries({"question": ROW_TEXT, "answer": GOLD})

LLAMA = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
)


def _model(kind: str) -> Any:
    if kind == "completion":
        return None
    if kind == "llama":
        return CompletionModel(meta_template=LLAMA)
    if kind == "chat":
        return ChatModel()
    return build_model(dict(type="HuggingFacewithChatTemplate", abbr="qwen", path=str(CHAT_TEMPLATE_FOLDER / "qwen2_5_7b_instruct")))


def _renderer(tmp: Path, rows: list[dict[str, Any]], template: Any, with_shots: bool, model: Any) -> Renderer:
    path = tmp / "rows.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    if with_shots:
        infer = dict(
            ice_template=dict(type="PromptTemplate", template=template, ice_token="</E>"),
            retriever=dict(type="FixKRetriever", fix_id_list=[0]),
            inferencer=dict(type="GenInferencer"),
        )
    else:
        infer = dict(
            prompt_template=dict(type="PromptTemplate", template=template),
            retriever=dict(type="ZeroRetriever"),
            inferencer=dict(type="GenInferencer"),
        )
    spec = build_dataset(
        dict(abbr="fuzz", type="JsonlDataset", path=str(path), reader_cfg=dict(input_columns=["question"], output_column="answer"), infer_cfg=infer)
    )
    return Renderer(spec, model)


def _text(final: Any) -> str:
    if isinstance(final, str):
        return final
    pieces = []
    for message in final:
        content = message["content"]
        pieces.append(content if isinstance(content, str) else "".join(part.get("text", "") for part in content))
    return "\x00".join(pieces)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    template=TEMPLATE,
    rows=st.lists(ROW, min_size=2, max_size=3),
    with_shots=st.booleans(),
    model_kind=st.sampled_from(["completion", "llama", "chat", "chat_template"]),
)
def test_any_template_row_and_model_renders_or_raises_a_promptkit_error(tmp_path, template, rows, with_shots, model_kind):
    """Whatever the template, rows and model, rendering succeeds or raises promptkit's own error; nothing else escapes."""
    try:
        prompts = list(_renderer(tmp_path, rows, template, with_shots, _model(model_kind)))
    except PromptkitError:
        return
    for prompt in prompts:
        assert isinstance(prompt.prompt, (str, list))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    rows=st.lists(ROW, min_size=2, max_size=4),
    prefix=TEXT,
    model_kind=st.sampled_from(["completion", "llama", "chat", "chat_template"]),
)
def test_gold_answer_of_the_item_under_test_never_reaches_its_gen_prompt(tmp_path, rows, prefix, model_kind):
    """In gen mode, the test row's own answer is masked wherever the template places it; only shots show answers."""
    template = dict(round=[dict(role="HUMAN", prompt=prefix + "{question}"), dict(role="BOT", prompt="{answer}")])
    try:
        prompts = list(_renderer(tmp_path, rows, template, True, _model(model_kind)))
    except PromptkitError:
        return
    shot_answer = rows[0]["answer"]
    for prompt in prompts:
        gold = rows[prompt.index]["answer"]
        if gold not in shot_answer:
            assert gold not in _text(prompt.prompt)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(question=ROW_TEXT.filter(lambda text: "<|" not in text), model_kind=st.sampled_from(["completion", "llama", "chat"]))
def test_row_text_appears_once_and_literally(tmp_path, question, model_kind):
    """A row's text reaches the final input exactly once, as written: never re-read as template syntax."""
    marked = f"⟦{question}⟧"
    rows = [{"question": marked, "answer": "ཀཁགངཅཆ"}, {"question": "other", "answer": "ཇཉཏཐདན"}]
    prompts = list(_renderer(tmp_path, rows, dict(round=[dict(role="HUMAN", prompt="Q: {question}")]), False, _model(model_kind)))
    text = _text(prompts[0].prompt)
    assert text.count(marked) == 1
    assert text.count("⟦") == 1
