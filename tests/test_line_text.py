"""Engine lines written from their parts (promptkit.records.line_text): always the text of the line object itself."""

from __future__ import annotations

import json
import logging
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit.records.engines import OpenAIBatch, VLLMRequests
from promptkit.records.json_text import JsonText
from promptkit.records.line_text import MessagesText, PrefixText
from promptkit.records.lines import RecordLines

# Text JSON escapes (quotes, backslashes, control characters, U+2028, non-ASCII), and plain text.
TEXT = st.text(
    alphabet=st.sampled_from(['"', "\\", "\n", "\t", "\x00", "\x1f", "\u2028", "é", "字", "😀", "a", "b", " ", "{"]), max_size=40
)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(
    shared=st.lists(TEXT, min_size=1, max_size=12).map("".join), rests=st.lists(TEXT, min_size=1, max_size=12), repeat=st.integers(1, 12)
)
def test_prefix_text_is_the_json_text_of_each_string(shared, rests, repeat):
    """Strings with and without a long shared prefix, in any order: each written as json.dumps writes it."""
    text = PrefixText()
    prefix = shared * repeat
    for rest in rests:
        for value in (prefix + rest, rest, prefix[: len(prefix) // 2] + rest):
            assert text(value) == dumps(value)


def test_prefix_text_reuses_a_prefix_the_strings_share():
    """Fixed shots: after two prompts the shared prefix is escaped once and reused (the text is still exact)."""
    shots = 'Q: "1+1"?\nA: 2\n\n' * 20
    text = PrefixText()
    prompts = [f"{shots}Q: {i}?\nA:" for i in range(5)]
    assert [text(p) for p in prompts] == [dumps(p) for p in prompts]
    assert text._prefix is not None and text._prefix.startswith(shots)


@settings(max_examples=200, deadline=None)
@given(
    contents=st.lists(TEXT.map(lambda t: t * 5), min_size=1, max_size=6),
    picks=st.lists(st.lists(st.integers(0, 5), max_size=6), max_size=6),
)
def test_messages_text_is_the_json_text_of_the_messages(contents, picks):
    """Messages whose content strings recur (as the same objects) or not: each list written as json.dumps writes it."""
    text = MessagesText()
    for pick in picks:
        messages = [{"role": "user" if i % 2 else "system", "content": contents[i % len(contents)]} for i in pick]
        assert text(messages) == dumps(messages)


def test_messages_text_follows_a_message_changed_after_it_was_written():
    """A message dict changed in place (another role, another content) is written as it is now, not as it was."""
    shared = "Answer with the letter of the right option. " * 3
    text = MessagesText()
    messages = [{"role": "system", "content": shared}, {"role": "user", "content": "Q1"}]
    assert text(messages) == dumps(messages)
    messages[0]["role"] = "developer"
    assert text(messages) == dumps(messages)
    messages[0]["content"] = shared.upper()
    assert text(messages) == dumps(messages)


def test_messages_text_checks_each_list_against_the_head_it_keeps():
    """After two lists share leading messages, a list is written with that head's text only when its first messages
    equal the head's, as plain dicts with role first; anything else is written message by message, or left to the
    encoder (None), as before."""
    system, shot = "Answer with the letter of the right option. " * 3, "Which planet is largest? " * 4
    text = MessagesText()

    def messages(own: str, **changes: Any) -> list[dict[str, Any]]:
        head = [{"role": "system", "content": system}, {"role": "user", "content": shot}, {"role": "assistant", "content": "B\n"}]
        for index, message in changes.items():
            head[int(index[1:])] = message
        return [*head, {"role": "user", "content": own}]

    for own in ("Q1", "Q2", "Q3"):
        assert text(messages(own)) == dumps(messages(own))
    assert text._head is not None and len(text._head[0]) == 3
    reordered = {"content": system, "role": "system"}
    assert text(messages("Q4", m0=reordered)) is None
    subclassed = type("Message", (dict,), {})(role="system", content=system)
    assert text(messages("Q5", m0=subclassed)) is None
    for changed in (
        {"role": "developer", "content": system},
        {"role": "system", "content": system.upper()},
        {"role": "system", "content": "".join(system)},
    ):
        assert text(messages("Q6", m0=changed)) == dumps(messages("Q6", m0=changed))
    assert text(messages("Q7")[:3]) == dumps(messages("Q7")[:3])  # the head alone, no turn of its own
    assert text(messages("Q8")) == dumps(messages("Q8"))


def test_messages_text_leaves_other_messages_to_the_encoder():
    """Content parts, tool calls, a name, keys in another order: not written here (None), so the line is encoded whole."""
    text = MessagesText()
    assert text([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]) is None
    assert text([{"role": "assistant", "content": "", "tool_calls": []}]) is None
    assert text([{"role": "user", "content": "hi", "name": "a"}]) is None
    assert text([{"content": "hi", "role": "user"}]) is None


def test_compact_messages_text_matches_the_compact_encoder():
    messages = [{"role": "system", "content": "x" * 80}, {"role": "user", "content": 'say "hi"'}]
    assert MessagesText(compact=True)(messages) == JsonText(compact=True)(messages)


SHOTS = [{"question": f'Shot question {i} with "quotes" and a tab\t?', "answer": "ABCD"[i % 4]} for i in range(5)]
ROWS = [{"question": f"Q{i}: é \\ \u2028?", "answer": "A"} for i in range(4)]
FEW_SHOT = dict(
    ice_template=dict(
        type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}\n")])
    ),
    prompt_template=dict(
        type="PromptTemplate",
        template=dict(
            begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Answer the questions."), "</E>"],
            round=[dict(role="HUMAN", prompt="{question}")],
        ),
        ice_token="</E>",
    ),
    retriever=dict(type="FixKRetriever", fix_id_list=[0, 1, 2, 3, 4]),
    inferencer=dict(type="GenInferencer", stopping_criteria=["\n\n"]),
)
LLAMA3 = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
    reserved_roles=[dict(role="SYSTEM", begin="<|start_header_id|>system<|end_header_id|>\n\n", end="<|eot_id|>")],
)
MODELS = [
    dict(
        abbr="llama",
        type="VLLM",
        path="meta-llama/Meta-Llama-3-8B",
        meta_template=LLAMA3,
        max_out_len=32,
        generation_kwargs=dict(temperature=0.2),
    ),
    dict(abbr="gpt", type="OpenAISDK", path="gpt-4o-mini", max_out_len=64, generation_kwargs=dict(seed=7)),
]


def test_engine_lines_as_written_are_the_text_of_the_line_objects(make_renderer):
    """Fixed shots, completion and chat models, both formats: what render writes is JsonText of ``line(prompt)``."""
    for model in MODELS:
        for engine in (OpenAIBatch, VLLMRequests):
            prompts = list(make_renderer(ROWS, FEW_SHOT, model=model, train_rows=SHOTS))
            written = RecordLines("c.py", None, engine())
            expected = [JsonText()(engine().line(p)) + "\n" for p in prompts]
            assert [written([p]) for p in prompts] == expected, (model["abbr"], engine.name)


def test_engine_line_with_nan_in_its_parameters_is_written_whole_with_null(make_renderer, caplog):
    """A NaN request parameter: each line written with null in its place, and the one warning names the lines."""
    model = dict(MODELS[0], generation_kwargs=dict(temperature=float("nan")))
    prompts = list(make_renderer(ROWS, FEW_SHOT, model=model, train_rows=SHOTS))
    written = RecordLines("c.py", None, VLLMRequests())
    lines = [json.loads(written([p])) for p in prompts]
    assert [line["sampling_params"]["temperature"] for line in lines] == [None] * len(ROWS)
    with caplog.at_level(logging.WARNING):
        written.non_finite.warn()
    assert f"{len(ROWS)} record(s) held NaN or Infinity" in caplog.text
