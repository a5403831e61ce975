"""`promptkit render --tokens`: input_ids, token_labels, loss_mask and the junction in each record; its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import HFTokenizer
from promptkit.cli.main import main

DATASET = """
_chat = dict(round=[dict(role='HUMAN', prompt='Q: {question}'), dict(role='BOT', prompt='A: {answer}')])
_reader = dict(input_columns=['question'], output_column='answer')
datasets = [
    dict(abbr='qa_gen', type='JsonlDataset', path='rows.jsonl', reader_cfg=_reader,
         infer_cfg=dict(ice_template=dict(type='PromptTemplate', template=_chat),
                        prompt_template=dict(type='PromptTemplate', template=dict(begin='</E>', round=_chat['round']), ice_token='</E>'),
                        retriever=dict(type='FixKRetriever', fix_id_list=[0]), inferencer=dict(type='GenInferencer'))),
    dict(abbr='qa_ppl', type='JsonlDataset', path='rows.jsonl', reader_cfg=_reader,
         infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template={'yes': 'Q: {question} yes', 'no': 'Q: {question} no'}),
                        retriever=dict(type='ZeroRetriever'), inferencer=dict(type='PPLInferencer'))),
]
"""
META = "dict(round=[dict(role='HUMAN', begin='<u>', end='</u>'), dict(role='BOT', begin='<b>', end='</b>', generate=True)])"


@pytest.fixture
def folder(tmp_path: Path, trained_tokenizer) -> Path:
    (tmp_path / "rows.jsonl").write_text('{"question": "1+1", "answer": "2"}\n{"question": "2+2", "answer": "4"}\n')
    (tmp_path / "ds.py").write_text(DATASET)
    tokenizer = trained_tokenizer(texts=["<u>Q: 1+1</u><b>A: 2</b> yes no"], special=("<u>", "</u>", "<b>", "</b>"))
    (tmp_path / "tokenizer.json").write_bytes(tokenizer.read_bytes())
    (tmp_path / "model.py").write_text(f"models = [dict(abbr='tiny', type='CompletionModel', meta_template={META})]\n")
    (tmp_path / "model_tok.py").write_text(
        f"models = [dict(abbr='tiny', type='CompletionModel', meta_template={META}, tokenizer=dict(type='HFTokenizer', path='{tmp_path / 'tokenizer.json'}'))]\n"
    )
    (tmp_path / "api.py").write_text("models = [dict(abbr='api', type='ChatModel')]\n")
    return tmp_path


def records(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_tokens_add_ids_labels_and_the_mask_of_the_shot_answer(folder, capsys):
    """gen: one label and one mask bit per token; the ids are the tokenizer's for the prompt; the mask is the shot's answer."""
    assert main(["render", str(folder / "ds.py"), "--model", str(folder / "model.py"), "--dataset", "qa_gen", "--indices", "1",
                 "--tokens", "--tokenizer", str(folder / "tokenizer.json")]) == 0
    (record,) = records(capsys)
    tokenizer = HFTokenizer(folder / "tokenizer.json")
    assert record["prompt"] == "<u>Q: 1+1</u><b>A: 2</b><u>Q: 2+2</u><b>"
    assert record["input_ids"] == tokenizer.encode_offsets(record["prompt"])[0]
    assert len(record["token_labels"]) == len(record["loss_mask"]) == len(record["input_ids"])
    masked = [tokenizer._tokenizer.decode([i]) for i, bit in zip(record["input_ids"], record["loss_mask"], strict=True) if bit]
    assert "".join(masked) == "A: 2" and set(record["token_labels"]) == {"wrapper", "shot[0]", "shot[0].answer", "query"}
    assert "junction" not in record


def test_tokens_use_the_model_configs_tokenizer_and_report_the_ppl_junction(folder, capsys):
    """Without --tokenizer the model config's HFTokenizer tokenizes; each ppl record carries its junction."""
    assert main(["render", str(folder / "ds.py"), "--model", str(folder / "model_tok.py"), "--dataset", "qa_ppl", "--indices", "0", "--tokens"]) == 0
    out = records(capsys)
    assert [(r["label"], r["junction"]["continuation"]) for r in out] == [("yes", "yes"), ("no", "no")]
    assert all(r["token_labels"][-1] == "answer_slot" and r["loss_mask"][-1] == 1 for r in out)


def test_spans_of_a_string_ppl_prompt_include_its_answer_slot(folder, capsys):
    """--spans: a label-keyed string template's prompt has query and answer_slot spans (once a single text span)."""
    assert main(["render", str(folder / "ds.py"), "--dataset", "qa_ppl", "--indices", "0", "--spans"]) == 0
    record = records(capsys)[0]
    assert [(s["piece"], record["prompt"][s["start"] : s["end"]]) for s in record["spans"]] == [("query", "Q: 1+1 "), ("answer_slot", "yes")]


def test_tokens_without_a_tokenizer_say_where_to_give_one(folder, capsys):
    """No --tokenizer and no tokenizer in the model config: one line naming both ways, exit 1."""
    assert main(["render", str(folder / "ds.py"), "--model", str(folder / "model.py"), "--tokens"]) == 1
    assert capsys.readouterr().err == (
        "promptkit: error: --tokens needs a tokenizer and model 'tiny' has none that gives token offsets: pass --tokenizer "
        "TOKENIZER_JSON, or set tokenizer=dict(type='HFTokenizer', path='.../tokenizer.json') in the model config\n"
    )


def test_tokens_for_a_chat_api_model_are_refused(folder, capsys):
    """A ChatModel's server tokenizes: --tokens is an error that says what to use instead."""
    assert main(["render", str(folder / "ds.py"), "--model", str(folder / "api.py"), "--tokens", "--tokenizer", str(folder / "tokenizer.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("promptkit: error: ") and "model 'api' is a chat API model (ChatModel)" in err and err.count("\n") == 1
