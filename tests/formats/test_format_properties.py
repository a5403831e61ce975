"""Property: any valid record of each format survives load → render with all its text, each piece once, in order.

Every generated text is wrapped in a unique ``<<n:…>>`` tag, so "once" and
"in order" are checked by position; the random part may hold ``{answer}``,
``</E>`` or other template syntax, which must stay literal.  The gold answer
of the item under test must appear nowhere.
"""

from __future__ import annotations

import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import Renderer, build_dataset, load_models

GPT4O = load_models(Path(__file__).parents[2] / "configs" / "models" / "gpt_4o_api.py")[0]
LLAMA3 = load_models(Path(__file__).parents[2] / "configs" / "models" / "llama3_8b_instruct.py")[0]

RAW = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="<>"), max_size=12) | st.sampled_from(
    ["{answer}", "</E>", "{question}", "{{x}}", "\n", " A. "]
)


class Tags:
    """Hands out texts tagged ``<<n:raw>>``, remembering the order they were made in."""

    def __init__(self) -> None:
        self.counter = itertools.count()

    def __call__(self, raw: str) -> str:
        return f"<<{next(self.counter)}:{raw}>>"


def render_texts(type_name: str, record: dict[str, Any]) -> list[str]:
    """The final text for: no model, Llama-3 (completion) and GPT-4o (chat messages joined)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.jsonl"
        path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
        dataset = build_dataset(dict(abbr="p", type=type_name, path=str(path)))
        out = []
        for model in (None, LLAMA3, GPT4O):
            prompt = Renderer(dataset, model).render(0)[0].prompt
            out.append(prompt if isinstance(prompt, str) else "\n".join(m["content"] for m in prompt))
        return out


def assert_once_in_order(text: str, pieces: list[str], absent: list[str]) -> None:
    positions = []
    for piece in pieces:
        assert text.count(piece) == 1, (piece, text)
        positions.append(text.index(piece))
    assert positions == sorted(positions), text
    for piece in absent:
        assert piece not in text, (piece, text)


@st.composite
def standard_records(draw: st.DrawFn) -> tuple[dict[str, Any], list[str], list[str]]:
    tag = Tags()
    expected: list[str] = []

    def user_turns(n_prior: int) -> list[dict[str, Any]]:
        messages = []
        for i in range(n_prior * 2 + 1):
            text = tag(draw(RAW))
            messages.append({"role": "user" if i % 2 == 0 else "assistant", "content": [{"type": "text", "text": text}]})
        return messages

    system = tag(draw(RAW)) if draw(st.booleans()) else None
    if system:
        expected.append(system)
    shots = []
    for _ in range(draw(st.integers(0, 2))):
        shot_messages = user_turns(0)
        answer = tag(draw(RAW))
        expected += [shot_messages[0]["content"][0]["text"], answer]
        shots.append({"messages": shot_messages, "references": [answer]})
    messages = user_turns(draw(st.integers(0, 2)))
    expected += [m["content"][0]["text"] for m in messages]
    options = [{"id": chr(65 + i), "content": tag(draw(RAW))} for i in range(draw(st.integers(0, 4)))]
    expected += [o["content"] for o in options]
    gold = tag(draw(RAW))
    if system:
        messages.insert(0, {"role": "system", "content": system})
    record = {"schema_version": "v1", "id": "p", "messages": messages, "references": [gold]}
    if shots:
        record["few_shot_examples"] = shots
    if options:
        record["options"] = options
    return record, expected, [gold]


@st.composite
def taskspec_records(draw: st.DrawFn) -> tuple[dict[str, Any], list[str], list[str]]:
    tag = Tags()
    examples = [{"prompt": tag(draw(RAW)), "completion": tag(draw(RAW))} for _ in range(draw(st.integers(0, 8)))]
    prompt = tag(draw(RAW))
    gold = tag(draw(RAW))
    record = {
        "task_id": "p",
        "category": "summary",
        "prompt": prompt,
        "targets": [gold],
        "metric_name": "rouge_l",
        "post_process": "none",
        "few_shot_examples": examples,
    }
    return record, [t for ex in examples for t in (ex["prompt"], ex["completion"])] + [prompt], [gold]


@st.composite
def xpert_records(draw: st.DrawFn) -> tuple[dict[str, Any], list[str], list[str]]:
    tag = Tags()
    history = [{"role": "human" if i % 2 == 0 else "assistant", "content": tag(draw(RAW))} for i in range(draw(st.integers(0, 2)) * 2)]
    query = tag(draw(RAW))
    choices = [{"id": chr(65 + i), "content": tag(draw(RAW))} for i in range(draw(st.integers(0, 4)))]
    gold = tag(draw(RAW))
    record: dict[str, Any] = {"id": "p", "query": query, "response": gold, "history": history}
    if choices:
        record["choices"] = choices
    return record, [turn["content"] for turn in history] + [query] + [c["content"] for c in choices], [gold]


@settings(max_examples=40, deadline=None)
@given(standard_records())
def test_standard_sample_text_survives_once_in_order(case):
    """Standardized Sample: system, shots (question, answer), messages, options — each once, in order; no gold answer."""
    record, expected, absent = case
    for text in render_texts("StandardSampleDataset", record):
        assert_once_in_order(text, expected, absent)


@settings(max_examples=40, deadline=None)
@given(taskspec_records())
def test_taskspec_text_survives_once_in_order(case):
    """Task-spec: each example's prompt and completion, then the prompt — each once, in order; no target."""
    record, expected, absent = case
    for text in render_texts("TaskSpecDataset", record):
        assert_once_in_order(text, expected, absent)


@settings(max_examples=40, deadline=None)
@given(xpert_records())
def test_xpert_text_survives_once_in_order(case):
    """XpertFormat: history, query, choices — each once, in order; the response nowhere."""
    record, expected, absent = case
    for text in render_texts("XpertFormatDataset", record):
        assert_once_in_order(text, expected, absent)
