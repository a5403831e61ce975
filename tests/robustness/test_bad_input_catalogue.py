"""The bad-input catalogue of the earlier issues, as a user meets it on the CLI: one line, exit 1, nothing else lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import promptkit

ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1])}
GEN = "inferencer=dict(type='GenInferencer')"
SHOTS = "ice_template=dict(type='PromptTemplate', template='{question} {answer}'), " \
        "prompt_template=dict(type='PromptTemplate', template='</E>{question}', ice_token='</E>')"
ZERO = "prompt_template=dict(type='PromptTemplate', template='{question}'), retriever=dict(type='ZeroRetriever')"
READER = "dict(input_columns=['question'], output_column='answer')"
MODEL = "models = [dict(abbr='m', type='CompletionModel', meta_template=dict(round=[dict(role='HUMAN', begin='U: '), dict(role='BOT', begin='A: ', generate=True)]))]\n"


def config(infer: str, path: str = "'rows.jsonl'", reader: str = READER) -> str:
    return f"datasets = [dict(abbr='qa', type='JsonlDataset', path={path}, reader_cfg={reader}, infer_cfg=dict({infer}))]\n"


#: name -> (dataset config, the error after "promptkit: error: config NAME.py, dataset 'qa', ")
CATALOGUE = {
    "unknown_type": (
        config(f"prompt_template=dict(type='PromptTemplat', template='{{question}}'), retriever=dict(type='ZeroRetriever'), {GEN}"),
        "key 'infer_cfg.prompt_template.type': unknown template type 'PromptTemplat' (did you mean 'PromptTemplate'?); known template types: "
        "JinjaPromptTemplate, MMPromptTemplate, MessagesTemplate, MultiTurnPromptTemplate, PromptTemplate, RawPromptTemplate, TaskTypeTemplate",
    ),
    "missing_round": (
        config(f"prompt_template=dict(type='PromptTemplate', template=dict(begin=[dict(role='HUMAN', prompt='{{question}}')])), retriever=dict(type='ZeroRetriever'), {GEN}"),
        "key 'infer_cfg.prompt_template': template: a chat template needs a 'round' list of role items, "
        "e.g. round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')]",
    ),
    "role_without_fallback": (
        config(f"prompt_template=dict(type='PromptTemplate', template=dict(round=[dict(role='TEACHER', prompt='{{question}}')])), retriever=dict(type='ZeroRetriever'), {GEN}"),
        "model 'm', row 0, section round, item 0, key 'TEACHER': role 'TEACHER' is not in the model's meta template (its roles: HUMAN, BOT) "
        "and the item has no fallback_role; give the item a fallback_role that is (e.g. fallback_role='HUMAN') or add the role to the meta template",
    ),
    "ice_token_absent": (
        config("ice_template=dict(type='PromptTemplate', template='{question} {answer}'), "
               f"prompt_template=dict(type='PromptTemplate', template='{{question}}', ice_token='</E>'), retriever=dict(type='FixKRetriever', fix_id_list=[0]), {GEN}"),
        "key 'infer_cfg.prompt_template': template: ice_token '</E>' does not occur in '{question}'; put it where the shots go",
    ),
    "shots_without_ice_template": (
        config(f"prompt_template=dict(type='PromptTemplate', template='</E>{{question}}', ice_token='</E>'), retriever=dict(type='FixKRetriever', fix_id_list=[0]), {GEN}"),
        "model 'm', row 0, key 'infer_cfg.ice_template': the retriever picked shots [0] but infer_cfg has no ice_template to render them; "
        "add an ice_template or use ZeroRetriever",
    ),
    "fixk_id_out_of_range": (
        config(f"{SHOTS}, retriever=dict(type='FixKRetriever', fix_id_list=[9]), {GEN}"),
        "model 'm', key 'fix_id_list': fix_id_list id 9 is out of range: the train split 'train' has 4 rows (ids 0 to 3)",
    ),
    "missing_data_file": (
        config(f"{ZERO}, {GEN}", path="'nowhere.jsonl'"),
        "model 'm', file nowhere.jsonl: data file 'nowhere.jsonl' not found (looked at nowhere.jsonl); check the dataset's path",
    ),
    "malformed_jsonl": (
        config(f"{ZERO}, {GEN}", path="'bad.jsonl'"),
        "model 'm', file bad.jsonl, line 2, row 1: malformed line: Expecting value at column 14; fix or remove it (one JSON object per line)",
    ),
    "unknown_ppl_label": (
        config("ice_template=dict(type='PromptTemplate', template=dict(A='{question} A', C='{question} C')), "
               "prompt_template=dict(type='PromptTemplate', template=dict(A='</E>{question} A', C='</E>{question} C'), ice_token='</E>'), "
               "retriever=dict(type='FixKRetriever', fix_id_list=[1]), inferencer=dict(type='PPLInferencer')"),
        "model 'm', row 0, label 'A', shot pool row 1, key 'answer': the shot's answer 'B' is not a label of the ice_template (labels: 'A', 'C'); "
        "each shot is rendered with the template of its answer, so fix the row's answer or add that label to ice_template",
    ),
    "ice_num_over_pool": (
        config(f"{SHOTS}, retriever=dict(type='RandomRetriever', ice_num=9), {GEN}"),
        "model 'm', key 'ice_num': ice_num=9 is larger than the train split 'train', which has 4 rows; lower ice_num to at most 4",
    ),
    "empty_pool": (
        config(f"{SHOTS}, retriever=dict(type='RandomRetriever', ice_num=1), {GEN}", path="dict(train='empty.jsonl', test='rows.jsonl')"),
        "model 'm', key 'reader_cfg.train_split': the train split 'train' has no rows to pick shots from; check the data file and "
        "reader_cfg.train_split/train_range, or use ZeroRetriever for zero-shot prompts",
    ),
    "label_balance_without_labels": (
        config(f"{SHOTS}, retriever=dict(type='RandomRetriever', ice_num=1, balance='label'), {GEN}", reader="dict(input_columns=['question'])"),
        "model 'm', key 'balance': balance='label' balances the answer column's labels, but reader_cfg has no output_column",
    ),
    "unknown_filter_column": (
        config(f"{SHOTS}, retriever=dict(type='RandomRetriever', ice_num=1, filter=dict(same='subject')), {GEN}"),
        "model 'm', key 'filter': filter=dict(same='subject') but row 0 of the train split 'train' has no column 'subject'; "
        "the row has ['answer', 'question', 'topic']",
    ),
}
PREVIOUS = b'{"kept": true}\n'


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Data files (good, malformed, empty), a model config and a previous output file."""
    rows = [{"question": f"q{i}", "answer": "AB"[i % 2], "topic": "t"} for i in range(4)]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "bad.jsonl").write_text('{"question": "q0", "answer": "A"}\n{"question": oops}\n')
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "ok.py").write_text(config(f"{ZERO}, {GEN}"))
    (tmp_path / "out.jsonl").write_bytes(PREVIOUS)
    return tmp_path


def run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "promptkit", *args], cwd=folder, capture_output=True, text=True, env=ENV)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_each_bad_config_is_one_line_and_the_previous_output_survives(folder, name):
    """render --out with a bad config: exit 1, the exact one-line error, no stdout, the old --out file unchanged, no temp file."""
    text, message = CATALOGUE[name]
    (folder / f"{name}.py").write_text(text)
    result = run(folder, "render", f"{name}.py", "--model", "model.py", "--out", "out.jsonl")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"promptkit: error: config {name}.py, dataset 'qa', {message}\n"
    assert (folder / "out.jsonl").read_bytes() == PREVIOUS
    assert sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp")) == []


def test_index_out_of_range_in_preview(folder):
    """preview --index past the split: one line saying how many rows there are."""
    result = run(folder, "preview", "ok.py", "--index", "7")
    assert (result.returncode, result.stderr) == (1, "promptkit: error: config ok.py, dataset 'qa': --index 7 is out of range: the test split has 4 rows (0 to 3)\n")


def test_missing_tokenizer_file(folder):
    """--tokenizer naming no file: one line naming the path and what it must be."""
    result = run(folder, "render", "ok.py", "--tokenizer", "missing/tokenizer.json", "--out", "out.jsonl")
    assert (result.returncode, result.stderr) == (
        1,
        "promptkit: error: key 'tokenizer.path': tokenizer file 'missing/tokenizer.json' does not exist; "
        "give the path of a Hugging Face tokenizer.json on this machine\n",
    )
    assert (folder / "out.jsonl").read_bytes() == PREVIOUS


@pytest.mark.parametrize("args", [["render"], ["render", "ok.py", "--indices"], ["preview", "ok.py", "--index", "x"], ["frobnicate"]])
def test_bad_arguments_exit_2_with_usage(folder, args):
    """Arguments argparse refuses: exit 2, a usage line, no traceback."""
    result = run(folder, *args)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: promptkit")
    assert "Traceback" not in result.stderr
