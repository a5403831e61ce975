"""The CLI: `render`'s JSON Lines contract, `preview`'s content, and one-line errors."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from promptkit import Renderer, load_datasets, load_models
from promptkit.cli.arguments import parse_indices
from promptkit.cli.main import main

DATASET = """
from promptkit import PromptTemplate, FixKRetriever, GenInferencer, PPLInferencer, JsonlDataset
_chat = dict(round=[dict(role='HUMAN', prompt='Q: {question}'), dict(role='BOT', prompt='A: {answer}')])
datasets = [
    dict(abbr='qa_gen', type=JsonlDataset, path='rows.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         infer_cfg=dict(ice_template=dict(type=PromptTemplate, template=_chat),
                        prompt_template=dict(type=PromptTemplate, template=dict(begin='</E>', round=_chat['round']), ice_token='</E>'),
                        retriever=dict(type=FixKRetriever, fix_id_list=[0]), inferencer=dict(type=GenInferencer))),
    dict(abbr='qa_ppl', type=JsonlDataset, path='rows.jsonl',
         reader_cfg=dict(input_columns=['question'], output_column='answer'),
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template={'yes': 'Q: {question} yes', 'no': 'Q: {question} no'}),
                        retriever=dict(type='ZeroRetriever'), inferencer=dict(type=PPLInferencer))),
]
"""
MODELS = """
models = [dict(abbr='tiny-chat', type='CompletionModel', meta_template=dict(round=[
    dict(role='HUMAN', begin='<u>', end='</u>'), dict(role='BOT', begin='<b>', end='</b>', generate=True)])),
          dict(abbr='api', type='ChatModel')]
"""


@pytest.fixture
def configs(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "rows.jsonl").write_text('{"question": "1+1", "answer": "2"}\n{"question": "2+2", "answer": "4"}\n{"question": "3+3", "answer": "6"}\n')
    dataset = tmp_path / "ds.py"
    dataset.write_text(DATASET)
    model = tmp_path / "models.py"
    model.write_text(MODELS)
    return dataset, model


def records(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_render_writes_the_documented_records(configs, capsys):
    """One JSON object per prompt with dataset, model, index, mode, prompt, ice_idx, n_shots, truncated (+ label in ppl),
    then id, gold, request, fingerprint and provenance."""
    dataset, model = configs
    assert main(["render", str(dataset), "--model", str(model), "--dataset", "qa_gen", "--indices", "1-2"]) == 0
    out = records(capsys)
    assert out[0] == {
        "dataset": "qa_gen", "model": "tiny-chat", "index": 1, "mode": "gen",
        "prompt": "<u>Q: 1+1</u><b>A: 2</b><u>Q: 2+2</u><b>", "ice_idx": [0], "n_shots": 1, "truncated": False,
        "id": "qa_gen/1", "gold": "4", "request": {"model": None, "add_special_tokens": True}, "fingerprint": "sha256:c34530694f61c7c4",
        "provenance": {
            "template": "sha256:f886a43bb20a1c5f", "meta_template": "sha256:0aab54afa13c6a01", "chat_template": None, "tokenizer": None,
            "shots": "sha256:d0bca111f8628137", "row": "sha256:8bbbe307ef6926ee",
        },
    }
    assert [r["index"] for r in out] == [1, 2, 1, 2] and [r["model"] for r in out] == ["tiny-chat"] * 2 + ["api"] * 2
    assert out[2]["prompt"] == [
        {"role": "user", "content": "Q: 1+1"}, {"role": "assistant", "content": "A: 2"}, {"role": "user", "content": "Q: 2+2"}
    ]


def test_render_ppl_is_index_major_with_labels(configs, capsys):
    """ppl records: for each row, each label in template order, with "label"."""
    dataset, _ = configs
    assert main(["render", str(dataset), "--dataset", "qa_ppl", "--indices", ":2"]) == 0
    out = records(capsys)
    assert [(r["index"], r["label"], r["prompt"]) for r in out] == [(0, "yes", "Q: 1+1 yes"), (0, "no", "Q: 1+1 no"), (1, "yes", "Q: 2+2 yes"), (1, "no", "Q: 2+2 no")]
    assert all(r["model"] is None and r["mode"] == "ppl" and r["ice_idx"] == [] for r in out)


def test_render_equals_the_python_api(configs, capsys, tmp_path):
    """`render --out` writes exactly what the Python API yields."""
    dataset, model = configs
    out_file = tmp_path / "out.jsonl"
    assert main(["render", str(dataset), "--model", str(model), "--out", str(out_file)]) == 0
    from_cli = [json.loads(line) for line in out_file.read_text().splitlines()]
    from_api = [p.to_record() for m in load_models(model) for d in load_datasets(dataset) for p in Renderer(d, m)]
    assert from_cli == from_api and len(from_cli) == 2 * (3 + 6)


def test_render_hands_the_heap_back_to_the_collector(configs, tmp_path):
    """The objects made before rendering are left out of the collector's passes while rows render (gc.freeze), and handed
    back after, whether the run succeeds or fails: a program that calls the CLI's main keeps its collector as it was."""
    dataset, model = configs
    assert main(["render", str(dataset), "--model", str(model), "--out", str(tmp_path / "out.jsonl")]) == 0
    assert gc.get_freeze_count() == 0 and len((tmp_path / "out.jsonl").read_text().splitlines()) == 2 * (3 + 6)
    (tmp_path / "rows.jsonl").write_text('{"question": "1+1", "answer": "2"}\n{"question": "2+2", "answer": \n')
    assert main(["render", str(dataset), "--model", str(model), "--out", str(tmp_path / "bad.jsonl")]) != 0
    assert gc.get_freeze_count() == 0 and not (tmp_path / "bad.jsonl").exists()


def test_preview_shows_shots_promptlist_and_final_input(configs, capsys):
    """preview names the row and shots, shows roles and sections, and the final input."""
    dataset, model = configs
    assert main(["preview", str(dataset), "--model", str(model), "--dataset", "qa_gen", "--index", "2", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "qa_gen · row 2 · gen · tiny-chat" in out and "shots: rows [0] of split 'train'" in out
    assert "<ice>" in out and "HUMAN: «Q: 3+3»" in out and "<u>Q: 1+1</u><b>A: 2</b><u>Q: 3+3</u><b>" in out
    assert "3 chat messages" in out


def test_errors_are_one_line_without_traceback(configs, capsys):
    """An error exits 1 with one message on stderr."""
    dataset, _ = configs
    assert main(["preview", str(dataset), "--index", "9"]) == 1
    err = capsys.readouterr().err
    assert err == f"promptkit: error: config {dataset}, dataset 'qa_gen': --index 9 is out of range: the test split has 3 rows (0 to 2)\n"


def test_unknown_dataset_abbr(configs, capsys):
    """--dataset with an unknown abbr lists the config's datasets."""
    dataset, _ = configs
    assert main(["render", str(dataset), "--dataset", "nope"]) == 1
    assert "no dataset with abbr 'nope'; the config has 'qa_gen', 'qa_ppl'" in capsys.readouterr().err


def test_debug_shows_the_exception(configs):
    """--debug re-raises so the traceback is visible."""
    dataset, _ = configs
    with pytest.raises(Exception, match="out of range"):
        main(["--debug", "preview", str(dataset), "--index", "9"])


def test_indices_spec():
    """'0,3,5-6' and ':2' select rows; out-of-range and garbage are errors."""
    assert parse_indices("0,3,5-6", 10) == [0, 3, 5, 6]
    assert parse_indices(":2,8:", 10) == [0, 1, 8, 9]
    with pytest.raises(Exception, match=r"index 10 is out of range"):
        parse_indices("10", 10)
    with pytest.raises(Exception, match=r"'x' is not an index"):
        parse_indices("x", 10)
    with pytest.raises(Exception, match=r"the range '5-2' runs backwards; write 2-5"):
        parse_indices("5-2", 10)


def test_preview_shows_token_counts_per_segment(configs, capsys):
    """With a token counter, preview shows the total, the limit, the system prompt, each shot and the rest."""
    dataset, _ = configs
    model = dataset.parent / "counted.py"
    model.write_text(
        "models = [dict(abbr='counted', type='CompletionModel', max_seq_len=40, token_counter='chars', meta_template=dict(\n"
        "    round=[dict(role='HUMAN', begin='<u>', end='</u>'), dict(role='BOT', begin='<b>', end='</b>', generate=True)]))]\n"
    )
    assert main(["preview", str(dataset), "--model", str(model), "--dataset", "qa_gen", "--index", "2", "--color", "never"]) == 0
    out = capsys.readouterr().out
    # '<u>Q: 1+1</u><b>A: 2</b><u>Q: 3+3</u><b>' is 40 characters; the shot's text 'Q: 1+1A: 2' is 10.
    assert "tokens: 40 of max_seq_len 40 · system 0 · shots 10 · query and template 30" in out
    model.write_text(model.read_text().replace("max_seq_len=40", "max_seq_len=39"))
    assert main(["preview", str(dataset), "--model", str(model), "--dataset", "qa_gen", "--index", "2", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "tokens: 16 of max_seq_len 39 · system 0 · shots none · query and template 16 · \nshots dropped to fit" in out


def test_preview_counts_tokens_with_a_given_tokenizer_json(configs, tmp_path, capsys):
    """--tokenizer FILE counts with that tokenizer.json: preview prints the segments; a missing file is an error."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0, "Q": 1, ":": 2}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    path = tmp_path / "tokenizer.json"
    tokenizer.save(str(path))
    dataset, model = configs
    assert main(["preview", str(dataset), "--model", str(model), "--dataset", "qa_gen", "--index", "2", "--color", "never", "--tokenizer", str(path)]) == 0
    # Word and punctuation runs: '<u>Q: 1+1</u><b>A: 2</b><u>Q: 3+3</u><b>' has 31; the shot 'Q: 1+1', 'A: 2' has 5 + 3;
    # the chat model's three messages have 5 + 3 + 5.
    out = capsys.readouterr().out
    assert "tokens: 31 · system 0 · shots 8 · query and template 23" in out
    assert "tokens: 13 · system 0 · shots 8 · query and template 5" in out
    assert main(["preview", str(dataset), "--tokenizer", str(tmp_path / "missing.json")]) == 1
    assert "tokenizer file" in capsys.readouterr().err


def test_override_and_control_examples_in_cli_docs_are_true(monkeypatch, capsys):
    """Each `promptkit render ...` command of docs/cli.md's overrides section prints the JSON block that follows it."""
    import re
    import shlex

    root = Path(__file__).parents[2]
    monkeypatch.chdir(root)
    text = (root / "docs" / "cli.md").read_text().split("## Overrides and prompt controls", 1)[1].split("\n## ", 1)[0]
    examples = re.findall(r"`promptkit (render [^`]+)`\s*```json\n(.*?)```", text, flags=re.S)
    assert len(examples) == 3
    for command, block in examples:
        assert main(shlex.split(command)) == 0, command
        assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [json.loads(line) for line in block.splitlines()], command


def test_bad_override_key_is_one_error_line(capsys):
    """--set with a key the config lacks exits 1 with one line naming the key and the config."""
    config = "configs/datasets/string_fewshot_demo/string_fewshot_demo_gen.py"
    root = Path(__file__).parents[2]
    status = main(["render", str(root / config), "--set", "infer_cfg.inferencer.promt=1"])
    err = capsys.readouterr().err
    assert status == 1
    assert err == (
        f"promptkit: error: config {root / config}, dataset 'string_fewshot_demo', key 'infer_cfg.inferencer.promt': "
        "no key 'promt' at 'infer_cfg.inferencer'; its keys are ['type']\n"
    )


def test_bad_control_flags_exit_two(capsys):
    """--thinking and --shots take their choices only (argparse's exit status 2)."""
    for flag in (["--thinking", "maybe"], ["--shots", "multiturn"]):
        with pytest.raises(SystemExit) as caught:
            main(["render", "x.py", *flag])
        assert caught.value.code == 2
        assert "invalid choice" in capsys.readouterr().err


def test_chat_template_kwarg_without_equals_is_refused(capsys):
    """--chat-template-kwarg needs KEY=VALUE."""
    root = Path(__file__).parents[2]
    status = main(["render", str(root / "configs/datasets/string_fewshot_demo/string_fewshot_demo_gen.py"), "--chat-template-kwarg", "reasoning"])
    assert status == 1
    assert capsys.readouterr().err == "promptkit: error: --chat-template-kwarg 'reasoning': write KEY=VALUE, e.g. --chat-template-kwarg reasoning_effort=low\n"
