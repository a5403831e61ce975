"""`promptkit preview/render FILE --format F` read a bundled data file directly, with the format's default templates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit.cli.main import main

DATASETS = Path(__file__).parents[2] / "configs" / "datasets"
FILES = {
    "standard": DATASETS / "standard_sample_demo" / "data" / "samples.jsonl",
    "taskspec": DATASETS / "taskspec_demo" / "data" / "tasks.jsonl",
    "xpert": DATASETS / "xpert_demo" / "data" / "xpert.jsonl",
}
LLAMA3 = Path(__file__).parents[2] / "configs" / "models" / "llama3_8b_instruct.py"


@pytest.mark.parametrize("fmt", FILES)
def test_preview_reads_a_data_file_with_format(fmt, capsys):
    """preview on the data file shows the final input of its first rows (and the calib prompt of a standard sample)."""
    assert main(["preview", str(FILES[fmt]), "--format", fmt, "--model", str(LLAMA3), "--color", "never", "--count", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("final input") == (3 if fmt == "standard" else 2)
    assert ("calib: final input" in out) == (fmt == "standard")


def test_render_reads_a_data_file_with_format(capsys):
    """render on the task-spec file writes one gen record per task, named after the file."""
    assert main(["render", str(FILES["taskspec"]), "--format", "taskspec"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 10 and records[0]["dataset"] == "tasks"
    assert records[0]["prompt"] == "Question: 2 + 2\nAnswer: 4\n\nQuestion: 10 - 3\nAnswer: 7\n\nCompute the result.\nQuestion: 17 + 24\nAnswer:"


def test_validate_reports_a_missing_file(capsys, tmp_path):
    """validate on a missing file exits 1 with one line naming it."""
    assert main(["validate", str(tmp_path / "nope.jsonl"), "--format", "xpert"]) == 1
    assert capsys.readouterr().err == f"promptkit: error: file {tmp_path / 'nope.jsonl'}: data file {str(tmp_path / 'nope.jsonl')!r} not found\n"


def test_render_spans_cover_calibration_prompts(capsys):
    """--spans works on calib records too (they render in the task's mode)."""
    assert main(["render", str(FILES["standard"]), "--format", "standard", "--model", str(LLAMA3), "--indices", "1", "--spans"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["mode"] for r in records] == ["gen", "calib"]
    assert all(r["spans"] and r["spans"][-1]["end"] == len(r["prompt"]) for r in records)


def test_check_template_takes_a_format_config_with_calibration_prompts(capsys):
    """check-template renders a format dataset's calib prompts in the task's mode instead of failing on them."""
    root = Path(__file__).parents[2] / "configs"
    status = main(["check-template", str(root / "models" / "chat_template" / "llama3_1_8b_instruct_meta.py"),
                   str(root / "datasets" / "standard_sample_demo" / "standard_sample_demo_gen.py"), "--count", "2"])
    out = capsys.readouterr().out
    # Rows 0 and 1, and row 1's calib prompt; Llama-3.1's template adds a default system prompt, so they differ (status 1).
    assert (status, "of 3 prompts agree" in out) == (1, True)
