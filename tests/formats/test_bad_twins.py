"""The bundled *_bad.jsonl twins: each breaks every rule of its format once, and each break is reported exactly.

Every line of a bad twin breaks one rule (task-spec's line 6 is the good first
holder of the id that line 7 repeats), so the reports below list one
violation per line, word for word.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from promptkit import DatasetError, Renderer, build_dataset, validate_file

DATASETS = Path(__file__).parents[2] / "configs" / "datasets"
TWINS = {
    "standard": ("StandardSampleDataset", DATASETS / "standard_sample_demo" / "data" / "samples.jsonl", DATASETS / "standard_sample_demo" / "data" / "samples_bad.jsonl"),
    "taskspec": ("TaskSpecDataset", DATASETS / "taskspec_demo" / "data" / "tasks.jsonl", DATASETS / "taskspec_demo" / "data" / "tasks_bad.jsonl"),
    "xpert": ("XpertFormatDataset", DATASETS / "xpert_demo" / "data" / "xpert.jsonl", DATASETS / "xpert_demo" / "data" / "xpert_bad.jsonl"),
}

# Each line is "<line>: <field>: <rule> (got <value>)", after the file name.
EXPECTED = {
    'standard': [
        '1: record: not valid JSON: expected value at column 55 (got "{\\"schema_version\\": \\"v1\\", \\"id\\": \\"bad-00\\", \\"messa...)',
        '2: record: must be a JSON object (one record per line) (got ["schema_version", "v1"])',
        '3: schema_version: required field is missing',
        '4: id: required field is missing',
        '5: messages: required field is missing',
        '6: messages: must not be empty (got [])',
        '7: messages[0].role: must be one of system, user, assistant or tool (got "narrator")',
        '8: messages[0].content[0].type: must be one of text, image_url, audio_url, video_url or file_url (got "image")',
        '9: messages[0].content[0].image_url.url: must not be empty (got "")',
        '10: messages: must be a list (got "What is 1 + 1?")',
        '11: options: ids must be unique (\'A\' repeats) (got [{"id": "A", "content": "1"}, {"id": "A", "content": "2"}])',
        '12: options[0].content: required field is missing',
        '13: label: must equal references[0] (\'2\') (got "3")',
        '14: options: a multiple-choice sample needs options (got null)',
        '15: references: the answer of a multiple-choice sample must be one of the option ids (got ["C"])',
        '16: references[0]: must be a string or an object {answer, meta} (got 2)',
        '17: few_shot_examples[0].few_shot_examples: must not be nested inside a few-shot example (examples are not expanded recursively) (got [])',
        '18: few_shot_examples[0].raw_assets: not allowed in a few-shot example (it takes messages, options, references, label, tools, tool_choice) (got {"image": ["x.jpg"]})',
        '19: few_shot_examples[0].references: required field is missing',
        '20: tools: must be a list (got {"name": "calc"})',
        '21: tool_choice: must be a string or an object (got 1)',
        '22: unconditioned_input: must be a string or a list of messages (got 7)',
        '23: question_type: the legacy name of task_type, and it disagrees with task_type \'short-answer\' (got "dialogue")',
    ],
    'taskspec': [
        '1: record: not valid JSON: EOF while parsing a value at column 47 (got "{\\"task_id\\": \\"bad_00\\", \\"category\\": \\"arithmetic\\",")',
        '2: record: must be a JSON object (one record per line) (got "just a string")',
        '3: targets: required field is missing',
        '4: bonus_field: unknown top-level field (got true)',
        '5: task_id: must be a non-empty string without whitespace (got "bad 04")',
        '7: task_id: must be unique in the file (line 6 has it) (got "arith_001_dup")',
        '8: category: must be one of arithmetic, mcq, code_exec, classification or summary (got "poetry")',
        '9: prompt: must not be empty (got "")',
        '10: prompt: must not end with whitespace (got "Question: 1 + 1\\nAnswer: ")',
        '11: prompt: must not contain its few-shot block (few_shot_examples[0] is already in it); the runner renders the examples (got "Question: 2 + 2\\nAnswer: 4\\n\\nQuestion: 1 + 1\\nAnswer:")',
        '12: targets: must not be empty (got [])',
        '13: targets[0]: must be a string (got 2)',
        '14: metric_name: must be one of exact_match, f1, bleu_4, rouge_l, accuracy or code_exec (got "bleu")',
        '15: few_shot_examples: must hold at most 8 items (got 9)',
        '16: few_shot_examples[0].completion: required field is missing',
        '17: post_process: must be one of none, strip_whitespace, lower, extract_letter, extract_code_block or extract_first_line (got "strip_whitespace+lower")',
        '18: metric_name: category code_exec needs metric_name code_exec (got "exact_match")',
        '19: metric_name: category mcq needs metric_name exact_match (got "accuracy")',
        '20: targets: category mcq needs exactly one target (got ["A", "B"])',
        '21: targets: category mcq needs a single letter A-E as its target (got ["Jupiter"])',
        '22: metadata: must be an object (got ["easy"])',
    ],
    'xpert': [
        '1: record: not valid JSON: EOF while parsing a value at column 43 (got "{\\"id\\": \\"bad_00\\", \\"query\\": \\"x\\", \\"response\\":")',
        '2: record: must be a JSON object (one record per line) (got 42)',
        '3: id: required field is missing',
        '4: query: required field is missing',
        '5: response: required field is missing',
        '6: response: must be a string (got 4)',
        '7: querry: unknown top-level field (got "typo")',
        '8: history[0].role: must be one of human or assistant (got "user")',
        '9: history[0].content: required field is missing',
        '10: files[0].type: must be one of image, audio or video (got "pdf")',
        '11: files[0].path: required field is missing',
        '12: choices: ids must be unique (\'A\' repeats) (got [{"id": "A", "content": "3"}, {"id": "A", "content": "4"}])',
        '13: answer.type: must be one of choice, text, code or step_by_step (got "guess")',
        '14: answer.value: required field is missing',
        '15: choices: a choice answer needs choices (got null)',
        '16: answer: a choice answer\'s value must be one of the choice ids A, B (got {"type": "choice", "value": "C"})',
        '17: meta.task_type: must be one of qa, choice, code, math, vision, audio or multi (got "poetry")',
        '18: meta.tags: must be a list (got "math")',
        '19: evaluation.metrics: must be a list (got "accuracy")',
    ],
}


@pytest.mark.parametrize("fmt", TWINS)
def test_bad_twin_reports_each_broken_rule_once(fmt):
    """validate_file reports exactly the expected violations, in line order."""
    _, _, bad = TWINS[fmt]
    report = validate_file(bad, fmt)
    assert [str(v) for v in report.violations] == [f"{bad}:{line}" for line in EXPECTED[fmt]]
    assert len(report.bad_lines) == len(EXPECTED[fmt])


@pytest.mark.parametrize("fmt", TWINS)
def test_bundled_good_file_has_no_violations(fmt):
    """The bundled data file of each format is valid, 10 to 30 records."""
    _, good, _ = TWINS[fmt]
    report = validate_file(good, fmt)
    assert report.ok and 10 <= report.total <= 30


@pytest.mark.parametrize("fmt", TWINS)
def test_bad_record_aborts_the_load_with_the_report(fmt, tmp_path):
    """Without allow_bad, one bad record stops the load; the error names the file, line, field and rule."""
    type_name, good, bad = TWINS[fmt]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(good.read_text(encoding="utf-8") + bad.read_text(encoding="utf-8").splitlines()[2] + "\n", encoding="utf-8")
    renderer = Renderer(build_dataset(dict(abbr="m", type=type_name, path=str(mixed))))
    line = len(good.read_text(encoding="utf-8").splitlines()) + 1
    with pytest.raises(DatasetError) as caught:
        len(renderer)
    message = str(caught.value)
    assert f"1 of {line} record(s) break the format's rules:\n{mixed}:{line}: {EXPECTED[fmt][2].split(': ', 1)[1]}" in message
    assert message.endswith("fix these records, or skip them: allow_bad=True in the dataset config, or --allow-bad with --format")


@pytest.mark.parametrize("fmt", TWINS)
def test_allow_bad_keeps_every_good_record_once(fmt, tmp_path, caplog):
    """With allow_bad=True, good and bad lines interleaved: every good record is a row, in order, none twice."""
    type_name, good, bad = TWINS[fmt]
    good_lines = good.read_text(encoding="utf-8").splitlines()
    bad_lines = bad.read_text(encoding="utf-8").splitlines()
    mixed_lines = [line for pair in zip(good_lines, bad_lines, strict=False) for line in pair]
    mixed_lines += good_lines[len(bad_lines):] + bad_lines[len(good_lines):]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join(mixed_lines) + "\n", encoding="utf-8")
    dataset = build_dataset(dict(abbr="m", type=type_name, path=str(mixed), allow_bad=True))
    rows = Renderer(dataset).test_rows
    report = dataset.loader.reports[str(mixed)]
    good_in_bad_twin = report.total - len(report.bad_lines) - len(good_lines)
    assert report.total == len(good_lines) + len(bad_lines)
    assert len(report.bad_lines) == len(EXPECTED[fmt])
    assert len(rows) == len(good_lines) + good_in_bad_twin

    def record_id(line: str) -> str:
        record = json.loads(line)
        return record.get("id") or record["task_id"]

    assert [row["id"] for row in rows] == [record_id(mixed_lines[n - 1]) for n in report.good_lines]
    assert {record_id(line) for line in good_lines} <= {row["id"] for row in rows}
    assert f"{mixed}: skipping {len(report.bad_lines)} bad record(s) of {report.total} (allow_bad):" in caplog.text


@pytest.mark.parametrize("fmt", TWINS)
def test_validate_command_exit_status_and_allow_bad(fmt):
    """`promptkit validate` exits 1 on the bad twin, 0 with --allow-bad (counting kept and skipped), 0 on the good file."""
    _, good, bad = TWINS[fmt]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "promptkit", "validate", *args, "--format", fmt], capture_output=True, text=True)

    failed = run(str(bad))
    assert failed.returncode == 1
    assert failed.stdout.splitlines()[:-1] == [f"{bad}:{line}" for line in EXPECTED[fmt]]
    allowed = run(str(bad), "--allow-bad")
    assert allowed.returncode == 0
    kept = validate_file(bad, fmt).total - len(EXPECTED[fmt])
    assert allowed.stdout.splitlines()[-1] == f"--allow-bad: {kept} good record(s) kept, {len(EXPECTED[fmt])} bad record(s) skipped"
    passed = run(str(good))
    assert passed.returncode == 0 and passed.stdout.endswith("good, 0 bad, 0 violation(s)\n")


@pytest.mark.parametrize("fmt", TWINS)
def test_a_line_that_is_not_utf8_is_one_violation_and_the_rest_survive(fmt, tmp_path):
    """Bytes that are not UTF-8 break their own line only: reported with file and line, every good record kept."""
    _, good, _ = TWINS[fmt]
    lines = Path(good).read_bytes().splitlines(keepends=True)
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(lines[0] + b'{"broken": "caf\xe9"}\n' + b"".join(lines[1:]))
    report = validate_file(path, fmt)
    assert [str(v) for v in report.violations] == [f"{path}:2: record: not valid UTF-8 (byte 16 of the line); save the file as UTF-8 (got b'{{\"broken\": \"caf\\xe9\"}}\\n')"]
    assert report.good_lines == [1, *range(3, len(lines) + 2)]
