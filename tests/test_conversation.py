"""Dialogues: infer_mode 'every' played with a fake model through the runner API, the replies file, and the CLI."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, Renderer, load_datasets, load_models, load_replies
from promptkit.cli.main import main

ROOT = Path(__file__).parents[1]
EVERY = ROOT / "configs" / "datasets" / "mtbench_demo" / "mtbench_demo_every.py"
WITH_GT = ROOT / "configs" / "datasets" / "mtbench_demo" / "mtbench_demo_every_with_gt.py"
REPLIES = ROOT / "configs" / "datasets" / "mtbench_demo" / "data" / "replies.jsonl"
LLAMA3 = ROOT / "configs" / "models" / "llama3_8b_instruct.py"
GPT4O = ROOT / "configs" / "models" / "gpt_4o_api.py"


def renderer(dataset: Path, model: Path | None, **kwargs) -> Renderer:
    return Renderer(load_datasets(dataset)[0], load_models(model)[0] if model else None, **kwargs)


class FakeModel:
    """Answers each prompt with a numbered reply and remembers what it was sent."""

    def __init__(self) -> None:
        self.seen: list = []

    def __call__(self, prompt) -> str:
        self.seen.append(prompt)
        return f"<reply {len(self.seen)}>"


def test_every_mode_with_a_completion_model():
    """The second turn's string holds the model's first reply, inside the meta template's assistant turn."""
    r, model = renderer(EVERY, LLAMA3), FakeModel()
    conversation = r.conversation(4)
    while (prompt := conversation.next_prompt()) is not None:
        conversation.add_reply(model(prompt.prompt))
    first, second = model.seen
    assert second.startswith(first)
    assert second[len(first) :] == "<reply 1><|eot_id|><|start_header_id|>user<|end_header_id|>\n\nNow extract the country.<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
    assert conversation.done and conversation.replies == ["<reply 1>", "<reply 2>"]


def test_every_mode_with_a_chat_model_sends_only_replies_as_history():
    r, model = renderer(EVERY, GPT4O), FakeModel()
    for index in range(len(r)):
        conversation = r.conversation(index)
        while (prompt := conversation.next_prompt()) is not None:
            conversation.add_reply(model(prompt.prompt))
    assert len(model.seen) == 2 * len(r)
    second_turn = model.seen[1]
    assert [m["role"] for m in second_turn] == ["system", "user", "assistant", "user"]
    assert second_turn[2]["content"] == "<reply 1>"
    # The history holds the model's replies, never the reference answers.
    assert all(m["content"].startswith("<reply ") for messages in model.seen for m in messages if m["role"] == "assistant")


def test_the_conversation_works_from_async_code():
    r = renderer(EVERY, GPT4O)

    async def fake_client(messages) -> str:
        await asyncio.sleep(0)
        return f"async reply to {len(messages)} messages"

    async def run(index: int) -> list[str]:
        conversation = r.conversation(index)
        while (prompt := conversation.next_prompt()) is not None:
            conversation.add_reply(await fake_client(prompt.prompt))
        return conversation.replies

    async def run_all():
        return await asyncio.gather(*(run(i) for i in range(3)))

    assert asyncio.run(run_all()) == [["async reply to 2 messages", "async reply to 4 messages"]] * 3


def test_conversation_misuse_is_explained():
    conversation = renderer(EVERY, GPT4O).conversation(0)
    with pytest.raises(ConfigError, match=r"row 0: add_reply\(\) without a prompt awaiting it: call next_prompt\(\) first"):
        conversation.add_reply("x")
    assert conversation.next_prompt() is conversation.next_prompt()
    with pytest.raises(ConfigError, match=r"a reply must be the model's text, a str \(got dict\)"):
        conversation.add_reply({"content": "x"})  # type: ignore[arg-type]
    conversation.add_reply("a")
    conversation.next_prompt()
    conversation.add_reply("b")
    assert conversation.next_prompt() is None
    with pytest.raises(ConfigError, match=r"the conversation is over"):
        conversation.add_reply("c")


def test_every_mode_needs_replies_to_iterate():
    with pytest.raises(ConfigError, match=r"infer_mode='every' fills each turn's history with the model's own replies, and none were given"):
        list(renderer(EVERY, GPT4O))
    with pytest.raises(ConfigError, match=r"row 0 has 2 turns but 3 replies"):
        renderer(EVERY, GPT4O, replies={0: ["a", "b", "c"]}).render(0)
    # A finished run's replies include the last turn's, which feeds no prompt.
    assert [p.turn for p in renderer(EVERY, GPT4O, replies={0: ["a", "b"]}).render(0)] == [0, 1]


def test_replies_render_the_turns_they_reach():
    r = renderer(EVERY, GPT4O, replies=load_replies(REPLIES))
    assert [p.turn for p in r.render(0)] == [0, 1]
    assert [p.turn for p in r.render(5)] == [0]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"index": 0, "turn": 0, "reply": "a"}', "not json"], r"line 2: not JSON"),
        (['{"index": 0, "turn": 0}'], r"line 1: each line must be an object \{\"index\": row, \"turn\": t, \"reply\": \"text\"\}"),
        (['{"index": 0, "turn": -1, "reply": "a"}'], r"line 1: index and turn must be ints >= 0"),
        (['{"index": 0, "turn": 0, "reply": "a"}', '{"index": 0, "turn": 0, "reply": "b"}'], r"line 2: a second reply for row 0, turn 0"),
        (['{"index": 3, "turn": 1, "reply": "a"}'], r"row 3 has a reply for turn 1 but none for turn 0"),
    ],
)
def test_bad_replies_files(tmp_path, lines, message):
    path = tmp_path / "replies.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DatasetError, match=rf"file {path}.*{message}"):
        load_replies(path)


def records(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_cli_render_every_with_replies(capsys):
    assert main(["render", str(EVERY), "--model", str(GPT4O), "--replies", str(REPLIES), "--indices", "0,5"]) == 0
    out = records(capsys)
    assert [(r["index"], r["turn"]) for r in out] == [(0, 0), (0, 1), (5, 0)]
    assert list(out[0]) == [
        "dataset", "model", "index", "mode", "turn", "prompt", "ice_idx", "n_shots", "truncated", "id", "gold", "request", "fingerprint", "provenance",
    ]
    assert out[1]["prompt"][2] == {"role": "assistant", "content": "The sea is wide and grey and deep,\nit sings the sailors off to sleep."}


def test_cli_render_every_without_replies_fails_clearly(capsys):
    assert main(["render", str(EVERY), "--model", str(GPT4O)]) == 1
    assert "infer_mode='every' fills each turn's history with the model's own replies, and none were given: pass replies (promptkit render --replies FILE" in capsys.readouterr().err


def test_cli_render_every_with_gt_emits_one_record_per_turn(capsys):
    assert main(["render", str(WITH_GT), "--indices", "1"]) == 0
    out = records(capsys)
    assert [(r["index"], r["turn"]) for r in out] == [(1, 0), (1, 1)]
    assert out[1]["prompt"] == "You are a helpful assistant. Topic: math.\nWhat is 12 * 12?\n144\nAnd what is that number divided by 3?"


def test_cli_replies_for_a_row_outside_the_test_split(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"index": 99, "turn": 0, "reply": "x"}\n')
    assert main(["render", str(EVERY), "--replies", str(path)]) == 1
    assert "row 99 has replies but the test split has 10 rows (0 to 9)" in capsys.readouterr().err


def test_cli_preview_shows_the_turns(capsys):
    assert main(["preview", str(WITH_GT), "--model", str(GPT4O), "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "dialogue: infer_mode 'every_with_gt', 2 prompt(s)" in out
    assert "turn 0: final input" in out and "turn 1: final input" in out
    assert main(["preview", str(EVERY), "--color", "never"]) == 0
    assert "later turns need the model's replies (--replies FILE)" in " ".join(capsys.readouterr().out.split())


MULTI = dict(type="MultiTurnPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")]))


@pytest.mark.parametrize(
    ("infer_cfg", "message"),
    [
        (dict(prompt_template=MULTI, retriever=dict(type="ZeroRetriever"), inferencer=dict(type="MultiTurnGenInferencer", infer_mode="all")),
         r"infer_mode must be one of 'every', 'every_with_gt', 'last' \(got 'all'\)"),
        (dict(prompt_template=dict(type="PromptTemplate", template="{question}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="MultiTurnGenInferencer")),
         r"MultiTurnGenInferencer needs a MultiTurnPromptTemplate as prompt_template"),
        (dict(prompt_template=MULTI, retriever=dict(type="ZeroRetriever"), inferencer=dict(type="PPLInferencer")),
         r"a MultiTurnPromptTemplate renders for generation: use MultiTurnGenInferencer"),
    ],
)
def test_dialogue_config_errors(make_renderer, infer_cfg, message):
    with pytest.raises(ConfigError, match=message):
        make_renderer([{"question": ["q"], "answer": ["a"]}], infer_cfg)


def test_a_plain_gen_inferencer_renders_the_last_turn(make_renderer):
    """As in AISBench: GenInferencer + MultiTurnPromptTemplate is one prompt, the whole dialogue up to the last answer."""
    r = make_renderer([{"question": ["q1", "q2"], "answer": ["a1", "a2"]}], dict(prompt_template=MULTI, retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))
    [prompt] = r.render(0)
    assert prompt.turn is None and prompt.prompt == "q1\na1\nq2"
    assert r.count_turns(0) == 1 and r.conversation(0).next_prompt().prompt == "q1\na1\nq2"
