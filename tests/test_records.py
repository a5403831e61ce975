"""Render records: id, gold, the request block, fingerprint and provenance, for every kind of prompt."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promptkit import DatasetError

ROWS = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(3)]
CHAT = dict(round=[dict(role="HUMAN", prompt="Q: {question}"), dict(role="BOT", prompt="{answer}")])
ZERO = dict(prompt_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))
PPL = dict(
    prompt_template=dict(type="PromptTemplate", template={"B": "{question} -> B", "A": "{question} -> A"}),
    retriever=dict(type="ZeroRetriever"),
    inferencer=dict(type="PPLInferencer"),
)
LLAMA3 = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
)
NO_SHOTS = "sha256:4f53cda18c2baa0c"


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def test_zero_shot_completion_record_has_id_gold_request_fingerprint_provenance(make_renderer):
    """A zero-shot completion prompt: id dataset/index, the answer as gold, add_special_tokens true, hashes of its sources."""
    record = make_renderer(ROWS, ZERO).render(1)[0].to_record()
    assert {k: record[k] for k in ("id", "gold", "request", "fingerprint", "provenance")} == {
        "id": "demo/1",
        "gold": "a1",
        "request": {"model": None, "add_special_tokens": True},
        "fingerprint": "sha256:7d5a16c28b6fabcb",
        "provenance": {
            "template": "sha256:e5d620c6a615cadb", "meta_template": None, "chat_template": None, "tokenizer": None,
            "shots": NO_SHOTS, "row": "sha256:1c2a45827b31ab1c",
        },
    }
    assert list(record)[-5:] == ["id", "gold", "request", "fingerprint", "provenance"]


def test_fingerprint_is_sha256_of_the_final_input_and_row_hash_of_its_canonical_json(make_renderer):
    """The fingerprint hashes the completion string's bytes (chat: canonical JSON); provenance.row the row's canonical JSON."""
    [prompt] = make_renderer(ROWS, ZERO).render(1)
    assert prompt.fingerprint == sha(b"Q: q1\nA: ")
    assert prompt.provenance["row"] == sha(json.dumps(ROWS[1], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
    assert prompt.provenance["shots"] == sha(b"[]")
    [chat] = make_renderer(ROWS, dict(ZERO, prompt_template=dict(type="PromptTemplate", template=CHAT)), model=dict(abbr="api", type="ChatModel")).render(1)
    assert chat.fingerprint == sha(json.dumps(chat.prompt, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())


def test_ppl_records_are_one_id_per_label_with_the_gold_label(make_renderer):
    """ppl: id dataset/index/label, every label's record carries the row's gold label."""
    prompts = make_renderer(ROWS[:2], PPL).render(1)
    assert [(p.id, p.label, p.gold) for p in prompts] == [("demo/1/B", "B", "a1"), ("demo/1/A", "A", "a1")]
    assert prompts[0].provenance == prompts[1].provenance


def test_completion_model_request_block_from_model_and_inferencer_config(make_renderer):
    """The engine name is path; max_tokens the inferencer's max_out_len; stop words then stopping criteria; BOS noticed."""
    model = dict(
        abbr="llama", type="VLLM", path="meta-llama/Meta-Llama-3-8B-Instruct", meta_template=LLAMA3, max_out_len=64,
        stop_words=["<|eot_id|>"], generation_kwargs=dict(do_sample=False, eos_token_id=[128001, 128009]),
    )
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template=CHAT), retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="GenInferencer", max_out_len=16, stopping_criteria=["\n\n", "<|eot_id|>"]),
    )
    [prompt] = make_renderer(ROWS, infer, model=model).render(0)
    assert prompt.to_record()["request"] == {
        "model": "meta-llama/Meta-Llama-3-8B-Instruct", "max_tokens": 16, "stop": ["<|eot_id|>", "\n\n"], "temperature": 0,
        "stop_token_ids": [128001, 128009], "add_special_tokens": False,
    }
    assert prompt.provenance["meta_template"] == "sha256:b74960027544b14a" and prompt.fingerprint == "sha256:6d15c40d4053e11d"
    no_bos = dict(model, meta_template=dict(LLAMA3, begin=""), max_out_len=64)
    [plain] = make_renderer(ROWS, dict(infer, inferencer=dict(type="GenInferencer")), model=no_bos).render(0)
    assert plain.request == {"model": "meta-llama/Meta-Llama-3-8B-Instruct", "max_tokens": 64, "stop": ["<|eot_id|>"], "temperature": 0,
                             "stop_token_ids": [128001, 128009], "add_special_tokens": True}


def test_few_shot_chat_model_with_self_consistency(make_renderer):
    """A 2-shot chat prompt: model name from path, temperature overridden by SCInferencer's generation_kwargs, n = sc_size."""
    few = dict(
        ice_template=dict(type="PromptTemplate", template=CHAT),
        prompt_template=dict(type="PromptTemplate", template=dict(begin="</E>", round=CHAT["round"]), ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="SCInferencer", sc_size=5, generation_kwargs=dict(temperature=1.0, top_p=0.9)),
    )
    model = dict(abbr="gpt", type="OpenAISDK", path="gpt-4o-mini", max_out_len=256, temperature=0.7)
    record = make_renderer(ROWS, few, model=model, train_rows=ROWS).render(2)[0].to_record()
    assert {k: record[k] for k in ("sc_size", "id", "gold", "request", "fingerprint")} == {
        "sc_size": 5, "id": "demo/2", "gold": "a2", "request": {"model": "gpt-4o-mini", "max_tokens": 256, "temperature": 1.0, "top_p": 0.9, "n": 5},
        "fingerprint": "sha256:c9264f359f7da71c",
    }
    assert record["provenance"]["shots"] == sha(b"[0,1]") == "sha256:463f2998327eb3a6"


def test_multi_turn_records_are_numbered_by_turn_with_that_turns_answer(make_renderer):
    """A dialogue's records: id dataset/index/turn<k>, gold the k-th element of the answer column."""
    infer = dict(
        prompt_template=dict(type="MultiTurnPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")])),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="MultiTurnGenInferencer", infer_mode="every_with_gt"),
    )
    prompts = make_renderer([{"question": ["1+1=?", "2+2=?"], "answer": ["2", "4"]}], infer, model=dict(abbr="api", type="OpenAISDK", path="m")).render(0)
    assert [(p.id, p.gold, p.request, p.fingerprint) for p in prompts] == [
        ("demo/0/turn0", "2", {"model": "m"}, "sha256:31ff46720bcf6564"),
        ("demo/0/turn1", "4", {"model": "m"}, "sha256:d5d7e2671713a03c"),
    ]


def test_chat_template_model_knows_its_bos(make_renderer):
    """A chat template that writes the tokenizer's bos_token: add_special_tokens false; its template and tokens hashed."""
    template = "{{ bos_token }}{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
    model = dict(abbr="t", type="ChatTemplateModel", path="org/tiny", chat_template=template, special_tokens=dict(bos_token="<B>"))
    [prompt] = make_renderer(ROWS, dict(ZERO, prompt_template=dict(type="PromptTemplate", template=CHAT)), model=model).render(0)
    assert prompt.prompt.startswith("<B>") and prompt.request == {"model": "org/tiny", "add_special_tokens": False}
    assert prompt.provenance["chat_template"] is not None and prompt.provenance["tokenizer"] is None


def test_provenance_names_the_source_that_changed(make_renderer):
    """Another template changes only the template hash; another row only the row hash."""
    one = make_renderer(ROWS, ZERO).render(0)[0].provenance
    other = make_renderer(ROWS, dict(ZERO, prompt_template=dict(type="PromptTemplate", template="Question: {question}"))).render(0)[0].provenance
    assert {k for k in one if one[k] != other[k]} == {"template"}
    changed = make_renderer([{"question": "q0", "answer": "b"}], ZERO).render(0)[0].provenance
    assert {k for k in one if one[k] != changed[k]} == {"row"}


def test_id_column_gives_stable_ids(make_renderer):
    """reader_cfg.id_column: the id is dataset/<the column's value>, whatever the row's position."""
    rows = [{"qid": f"x{9 - i}", **row} for i, row in enumerate(ROWS)]
    reader = dict(input_columns=["question"], output_column="answer", id_column="qid")
    assert [p.id for p in make_renderer(rows, PPL, reader_cfg=reader)] == ["demo/x9/B", "demo/x9/A", "demo/x8/B", "demo/x8/A", "demo/x7/B", "demo/x7/A"]


def test_id_column_duplicates_and_gaps_name_the_rows(make_renderer):
    """A repeated id names both rows; a row without the column names it."""
    reader = dict(input_columns=["question"], output_column="answer", id_column="qid")
    rows = [{"qid": "a", **ROWS[0]}, {"qid": "b", **ROWS[1]}, {"qid": "a", **ROWS[2]}]
    with pytest.raises(DatasetError) as error:
        make_renderer(rows, ZERO, reader_cfg=reader).render(0)
    assert str(error.value) == (
        "dataset 'demo', row 2, key 'qid': reader_cfg.id_column 'qid': test rows 0 and 2 have the same id 'a'; ids must be unique "
        "(fix the data, or drop id_column to number prompts by index)"
    )
    with pytest.raises(DatasetError, match=r"reader_cfg.id_column 'qid' is missing from test row 1; the row has \['answer', 'question'\]"):
        make_renderer([{"qid": "a", **ROWS[0]}, ROWS[1]], ZERO, reader_cfg=reader).render(0)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    answers=st.lists(st.sampled_from(["A", "B", "1", "yes"]), min_size=1, max_size=6),
    labels=st.lists(st.one_of(st.integers(0, 3), st.sampled_from(["0", "1", "A"])), min_size=1, max_size=4, unique=True),
    ppl=st.booleans(),
)
def test_ids_are_unique_within_a_render(make_renderer, answers, labels, ppl):
    """Whatever the rows and candidate labels (1 beside '1'), no two prompts of a render share an id."""
    rows = [{"question": f"q{i}", "answer": answer} for i, answer in enumerate(answers)]
    infer = dict(ZERO, inferencer=dict(type="PPLInferencer", labels=labels)) if ppl else ZERO
    ids = [p.id for p in make_renderer(rows, infer)]
    assert len(ids) == len(set(ids)) == len(rows) * (len(labels) if ppl else 1)


def test_record_fields_are_in_the_order_the_record_maker_writes():
    """RecordMaker.make builds a RenderedPrompt positionally: a field added, removed or moved must be added there too."""
    from promptkit.records.record import RenderedPrompt

    assert RenderedPrompt._fields == (
        "context", "spec", "index", "prompt", "ice_idx", "id", "intermediate", "gold", "request", "request_fields", "row", "media",
        "truncated", "over_limit", "escaped_tokens", "permutation", "tokens",
    )  # fmt: skip
