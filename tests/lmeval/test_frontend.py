"""The lm-eval front end beyond the recorded cases: sources and --rows, task code run fresh with its scoring-only imports
inert, local data files, the CLI (render, --seed, --set, --tokens, diff against an OpenCompass config), and one line
for each kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, MissingDependencyError, Renderer, TemplateError, load_datasets
from promptkit.cli.main import main

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
TASKS = HERE / "tasks"
DATA = HERE / "data"
ARC = [f"{split}={DATA / 'ai2_arc_easy' / f'{split}.jsonl'}" for split in ("train", "validation", "test")]
BUNDLED = ROOT / "configs" / "lmeval" / "mmlu_demo.yaml"
ROWS = [{"question": "What is 2+2?", "answer": "4"}, {"question": "What is 3+3?", "answer": "6"}, {"question": "What is {x}?", "answer": "x"}]


def write_task(folder: Path, text: str, rows: list[dict] | None = None, name: str = "task.yaml") -> Path:
    """A task file in ``folder`` (and its rows as test.jsonl)."""
    (folder / name).write_text(text, encoding="utf-8")
    (folder / "test.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows or ROWS), encoding="utf-8")
    return folder / name


TASK = """task: sums
dataset_path: local/sums
output_type: generate_until
test_split: test
doc_to_text: "Q: {{question}}\\nA:"
doc_to_target: answer
"""


def records(source: str | Path, *rows: str, **options) -> list[dict]:
    return [prompt.to_record() for spec in load_datasets(source, rows=list(rows), **options) for prompt in Renderer(spec)]


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


# -- sources and rows -------------------------------------------------------------------------------------------------


def test_a_task_file_a_group_file_and_a_tag_name_render_their_tasks():
    """A task file renders its task; a group file its members in order; lmeval:TAG@FOLDER the tag's tasks by name."""
    assert [spec.abbr for spec in load_datasets(TASKS / "arc" / "pk_arc_easy.yaml")] == ["pk_arc_easy"]
    assert [spec.abbr for spec in load_datasets(TASKS / "arc" / "_pk_arc_group.yaml")] == ["pk_arc_easy", "pk_arc_challenge"]
    assert [spec.abbr for spec in load_datasets(f"lmeval:pk_science@{TASKS}")] == ["pk_openbookqa", "pk_sciq"]


def test_rows_feed_one_split_of_every_task_or_of_one_task():
    """SPLIT=FILE feeds that split; TASK:SPLIT=FILE one task's; the records are each row's requests."""
    (first,) = records(TASKS / "arc" / "pk_arc_easy.yaml", *ARC)[:1]
    assert (first["id"], first["request_type"], first["continuation"], first["target"]) == ("pk_arc_easy/0/0", "loglikelihood", " a rubber band", 1)
    per_task = records(TASKS / "arc" / "pk_arc_easy.yaml", *(f"pk_arc_easy:{line}" for line in ARC))
    assert per_task[0]["prompt"] == first["prompt"]


def test_one_rows_file_is_every_split(tmp_path):
    """--rows FILE: the file is the test split (and the pool), as a plain --rows feeds every dataset."""
    task = write_task(tmp_path, TASK)
    out = records(task, str(tmp_path / "test.jsonl"))
    assert [(r["prompt"], r["target"], r["generation_kwargs"]) for r in out[:1]] == [
        ("Q: What is 2+2?\nA:", "4", {"until": ["\n\n"], "do_sample": False, "temperature": 0.0, "max_gen_toks": 256})
    ]
    assert out[0]["request"] == {"model": None, "stop": ["\n\n"], "temperature": 0.0, "max_tokens": 256, "add_special_tokens": True}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["dev=x.jsonl"], "--rows dev=...: no task of {source} reads a split 'dev' (the splits read: test, train, validation)"),
        (["pk_nope:test=x.jsonl"], "--rows pk_nope:test=x.jsonl: {source} has no task 'pk_nope' (its tasks: pk_arc_easy)"),
        (["test="], "--rows test=: write SPLIT=FILE (e.g. --rows test=rows.jsonl) or TASK:SPLIT=FILE"),
        (["test=a.jsonl", "test=b.jsonl"], "--rows test=b.jsonl: the split 'test' is given twice"),
    ],
)
def test_bad_rows_are_one_line_naming_the_split_or_task(rows, message):
    """--rows naming a split no task reads, an unknown task, no file, or one split twice: one line saying so."""
    source = str(TASKS / "arc" / "pk_arc_easy.yaml")
    with pytest.raises(ConfigError) as caught:
        load_datasets(source, rows=rows)
    assert caught.value.message == message.format(source=source)


def test_a_split_not_in_the_cache_names_the_dataset_the_split_and_rows(tmp_path, monkeypatch):
    """Without --rows the split comes from the datasets cache; a dataset that is not there says which, and --rows SPLIT=FILE."""
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    task = write_task(tmp_path, TASK.replace("local/sums", "promptkit-test/no-such-dataset"))
    with pytest.raises(DatasetError) as caught:
        records(task)
    assert caught.value.message.startswith("dataset 'promptkit-test/no-such-dataset' is not in the local datasets cache, and promptkit downloads nothing (")
    assert caught.value.message.endswith("); give the split's rows with --rows test=FILE")


def test_local_json_files_are_read_beside_the_task_file():
    """dataset_path: json with data_files relative to the task file: read by promptkit, no --rows needed."""
    out = records(BUNDLED)
    assert len(out) == 12 and out[0]["ice_idx"] == [0, 1, 2, 3, 4]
    assert out[0]["prompt"].startswith("The following are multiple choice questions (with answers) about high school physics.\n\nA car starts")
    assert out[0]["prompt"].endswith("\nAnswer:") and out[0]["target"] == "B"


# -- task code ----------------------------------------------------------------------------------------------------------


SCORING_IMPORTS = """
import promptkit_no_such_package as metric
from promptkit_no_such_scorer.metrics import rouge

SCORER = metric.load("rouge")


@metric.register("exact")
def score(doc, results):
    return rouge(results)


def text(doc):
    return "Q: " + doc["question"]


def uses_it(doc):
    return metric.normalize(doc["question"])
"""


def test_imports_only_scoring_uses_are_inert_and_name_the_package_where_used(tmp_path):
    """A task module importing missing packages loads (module-level calls stay inert); a prompt function using one names it."""
    (tmp_path / "utils.py").write_text(SCORING_IMPORTS, encoding="utf-8")
    task = write_task(tmp_path, TASK.replace('"Q: {{question}}\\nA:"', "!function utils.text"))
    assert records(task, f"test={tmp_path / 'test.jsonl'}")[0]["prompt"] == "Q: What is 2+2?"
    write_task(tmp_path, TASK.replace('"Q: {{question}}\\nA:"', "!function utils.uses_it"))
    with pytest.raises(MissingDependencyError) as caught:
        records(task, f"test={tmp_path / 'test.jsonl'}")
    assert caught.value.message == (
        f"promptkit_no_such_package.normalize is used by the task code {tmp_path / 'utils'}, but the package "
        "'promptkit_no_such_package' is not installed; install it (pip install promptkit_no_such_package) to render this task"
    )


def test_a_module_that_fails_to_import_is_one_line_naming_it_the_yaml_and_the_error(tmp_path):
    """!function whose module raises while importing: the module, the YAML and the exception."""
    (tmp_path / "utils.py").write_text("raise ValueError('no config for this machine')\n", encoding="utf-8")
    task = write_task(tmp_path, TASK.replace('"Q: {{question}}\\nA:"', "!function utils.text"))
    with pytest.raises(ConfigError) as caught:
        records(task, f"test={tmp_path / 'test.jsonl'}")
    assert str(caught.value) == (
        f"config {task}, dataset 'sums', row 0, key 'doc_to_text': !function utils.text: the module {tmp_path / 'utils.py'} failed "
        "to import: ValueError: no config for this machine"
    )


def test_module_state_starts_fresh_for_each_render():
    """A process_docs with a seeded generator at module level: two renders (two models) see the same documents."""
    source = TASKS / "commonsense_qa" / "pk_csqa_shuffled.yaml"
    rows = [f"{split}={DATA / 'commonsense_qa' / f'{split}.jsonl'}" for split in ("train", "validation")]
    (spec,) = load_datasets(source, rows=rows)
    first, second = ([p.row["options"] for p in Renderer(spec)] for _ in range(2))
    assert first == second


# -- what lm-eval refuses, and what promptkit does not read -----------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("use_prompt: promptsource:qa\n", "key 'use_prompt': 'use_prompt' is a feature of lm-eval promptkit does not read: promptsource templates need the promptsource package"),
        ("doc_to_txt: question\n", "key 'doc_to_txt': unknown key 'doc_to_txt' in the task (did you mean 'doc_to_text'?); lm-eval's TaskConfig has no such field"),
        ("fewshot_config:\n  sampler: balanced\n", "key 'fewshot_config.sampler': fewshot_config.sampler 'balanced' is not one lm-eval 0.4 ships: use 'default' or 'first_n'"),
        ("output_type: ranking\n", "key 'output_type': output_type must be one of multiple_choice, loglikelihood, loglikelihood_rolling, generate_until (got 'ranking')"),
    ],
)
def test_a_feature_promptkit_does_not_read_is_one_line_naming_the_key_and_the_file(tmp_path, extra, message):
    """An lm-eval key promptkit does not read, an unknown key, an unknown sampler or output type: the file and the key."""
    task = write_task(tmp_path, TASK + extra)
    with pytest.raises(ConfigError) as caught:
        load_datasets(task)
    assert str(caught.value) == f"config {task}, dataset 'sums', {message}"


def test_a_jinja_error_names_the_task_the_document_and_the_template(tmp_path):
    """A name the document lacks is an error (lm-eval's StrictUndefined), naming the task, the doc_id and the text."""
    task = write_task(tmp_path, TASK.replace("{{question}}", "{{reasoning}}"))
    with pytest.raises(TemplateError) as caught:
        records(task, f"test={tmp_path / 'test.jsonl'}")
    assert str(caught.value) == (
        f"config {task}, dataset 'sums', row 0, key 'doc_to_text': UndefinedError: 'reasoning' is undefined in the Jinja text "
        "'Q: {{reasoning}}\\nA:'"
    )


def test_an_include_cycle_and_a_missing_include_are_one_line(tmp_path):
    """include: a file that includes itself back, and one that is not there."""
    (tmp_path / "a.yaml").write_text("include: b.yaml\ntask: a\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("include: a.yaml\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_datasets(tmp_path / "a.yaml")
    assert caught.value.message == f"include cycle: {tmp_path / 'a.yaml'} -> {tmp_path / 'b.yaml'} -> {tmp_path / 'a.yaml'}"
    (tmp_path / "c.yaml").write_text("include: _missing_yaml\ntask: c\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_datasets(tmp_path / "c.yaml")
    assert str(caught.value) == f"config {tmp_path / 'c.yaml'}: cannot read {tmp_path / '_missing_yaml'} (included by {tmp_path / 'c.yaml'}): No such file or directory"


def test_shots_as_turns_needs_a_model_that_takes_turns(capsys, tmp_path):
    """--shots as_turns is lm-eval's --fewshot_as_multiturn: without a chat or meta-template model it is refused."""
    status, _, err = run(capsys, "render", BUNDLED, "--shots", "as_turns", "--out", tmp_path / "out.jsonl")
    assert (status, err) == (
        1,
        f"promptkit: error: config {BUNDLED}, dataset 'mmlu_demo_lmeval', key 'shots': --shots as_turns lays the shots out as chat "
        "turns (lm-eval's --fewshot_as_multiturn), which needs a model that takes turns: a chat-template or chat model config, or one "
        "with a meta template (--model)\n",
    )


# -- the CLI ------------------------------------------------------------------------------------------------------------


def test_render_cli_with_seed_num_fewshot_and_set(capsys, tmp_path):
    """--num-fewshot, --seed and --set reach the task; the records list them as overrides."""
    out = tmp_path / "out.jsonl"
    argv = ["render", TASKS / "arc" / "pk_arc_easy.yaml", *(f"--rows={line}" for line in ARC), "--num-fewshot", "2", "--out", out]
    assert run(capsys, *argv)[0] == 0
    default = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert run(capsys, *argv, "--seed", "42", "--set", "target_delimiter=' => '")[0] == 0
    seeded = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["ice_idx"] for r in default[::4]] != [r["ice_idx"] for r in seeded[::4]]
    assert seeded[0]["continuation"] == " => a rubber band"
    assert seeded[0]["provenance"]["overrides"] == ["target_delimiter=' => '", "num_fewshot=2", "seed=42"]


def test_diff_shows_how_lm_eval_and_opencompass_prompt_the_same_rows(capsys):
    """The bundled lm-eval task against the OpenCompass MMLU demo on the same rows: piece by piece, row by row."""
    status, out, _ = run(capsys, "diff", BUNDLED, ROOT / "configs" / "datasets" / "mmlu_demo" / "mmlu_demo_gen.py", "--indices", "0")
    assert status == 1
    lines = out.splitlines()
    assert lines[2] == (
        f"(pairing: dataset 'mmlu_demo_lmeval' of {BUNDLED} paired with dataset 'mmlu_demo_5shot_gen' of "
        f"{ROOT / 'configs' / 'datasets' / 'mmlu_demo' / 'mmlu_demo_gen.py'}, row by row)"
    )
    assert lines[4] == "  other text: only in A: «The following are multiple choice questions (with answers) about high school physics.↵↵»"
    assert lines[-1] == "1 prompt compared: 0 identical, 1 changed (other text 1, shot 1, shot answer 1, query 1)"


def test_tokens_score_the_continuation_after_the_context(capsys, tmp_path, trained_tokenizer):
    """--tokens: a likelihood request's junction is the continuation's tokens after the whole context."""
    tokenizer = trained_tokenizer(texts=["Question: Which object is a good conductor of electricity?\nAnswer: a rubber band"] * 3)
    out = tmp_path / "out.jsonl"
    argv = ["render", TASKS / "arc" / "pk_arc_easy.yaml", *(f"--rows={line}" for line in ARC), "--num-fewshot", "0", "--tokens", "--tokenizer", tokenizer]
    assert run(capsys, *argv, "--out", out)[0] == 0
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["junction"]["continuation"] == " a rubber band"
    assert first["junction"]["context_tokens"] == len(first["input_ids"])


def test_the_examples_of_the_lmeval_docs_are_true(monkeypatch, capsys, tmp_path):
    """docs/lmeval.md: its record example prints the JSON that follows it; its first commands run from a checkout."""
    import re
    import shlex

    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "lmeval.md").read_text(encoding="utf-8")
    ((command, block),) = re.findall(r"`promptkit (render [^`]+)`\s*```json\n(.*?)```", text, flags=re.S)
    assert main(shlex.split(command)) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == [json.loads(line) for line in block.splitlines()]
    commands = re.findall(r"^promptkit (.+?)(?:\s+#.*)?$", text.split("```bash", 1)[1].split("```", 1)[0].replace("\\\n", ""), flags=re.M)
    assert main([*shlex.split(commands[0]), "--out", str(tmp_path / "plain.jsonl")]) == 0
    assert main([*shlex.split(commands[1]), "--out", str(tmp_path / "vllm.jsonl")]) == 0
    assert main(shlex.split(commands[2])) == 1  # the two harnesses differ


def test_a_prepared_renderer_of_a_task_pickles_and_renders_the_same(tmp_path):
    """A worker's copy of a renderer (pickled) renders the same records; the task's code runs again there."""
    import pickle

    (spec,) = load_datasets(TASKS / "winogrande" / "pk_winogrande.yaml", rows=[f"{s}={DATA / 'winogrande_xl' / f'{s}.jsonl'}" for s in ("train", "validation")])
    renderer = Renderer(spec)
    renderer.prepare()
    copy = pickle.loads(pickle.dumps(renderer))
    assert [p.to_record() for p in copy] == [p.to_record() for p in renderer]


def test_every_command_takes_a_task_file(capsys, tmp_path):
    """preview, lint, view and snapshot write/check take an lm-eval task file as they take a dataset config."""
    status, out, _ = run(capsys, "preview", BUNDLED, "--index", "0", "--color", "never")
    assert status == 0 and "mmlu_demo_lmeval · row 0 · gen" in out
    assert run(capsys, "lint", BUNDLED)[1] == "no findings in 1 dataset\n"
    status, out, _ = run(capsys, "view", BUNDLED, "--model", ROOT / "configs" / "models" / "chat_template" / "qwen2_5_7b_instruct.py", "--out", tmp_path / "view.html")
    assert (status, out) == (0, f"{tmp_path / 'view.html'}: 12 prompts of 1 dataset(s) x 1 model(s)\n")
    assert run(capsys, "snapshot", "write", tmp_path / "pinned", BUNDLED)[0] == 0
    assert run(capsys, "snapshot", "check", tmp_path / "pinned")[1] == f"{tmp_path / 'pinned'}: 12 prompts compared: 12 identical, 0 changed\n"
