"""`promptkit lint` and `promptkit.linting`: each hazard of the test config gets exactly its findings, bundled configs lint clean."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from promptkit import Finding, build_dataset, lint, load_datasets, load_models
from promptkit.cli.main import main

ROOT = Path(__file__).parents[2]
DATA = Path(__file__).parent / "data"
HAZARDS = DATA / "hazards.py"
MODEL = DATA / "model.py"

#: (dataset, check, severity, line of hazards.py, row) for each finding without a model.
WITHOUT_MODEL = [
    ("typo", "unknown-placeholder", "warning", 11, None),
    ("typo", "unused-column", "warning", 4, None),
    ("unused", "unused-column", "warning", 12, None),
    ("labels", "unknown-label", "warning", 15, 2),
    ("glued", "answer-junction", "warning", 18, 0),
    ("double", "answer-junction", "warning", 21, 0),
    ("user_turn", "answer-in-user-turn", "warning", 24, None),
    ("ice_twice", "ice-token", "warning", 28, None),
    ("ice_missing", "ice-token", "error", 32, None),
]
#: What the model config adds: its roles, its image placeholder, its control tokens.
WITH_MODEL = [
    *WITHOUT_MODEL,
    ("roles", "missing-role", "note", 36, None),
    ("roles", "missing-role", "error", 37, None),
    ("media", "media-placeholder", "warning", 41, 0),
    ("tokens", "special-token", "warning", 44, 1),
]


def findings(model_config: Path | None = None) -> list[tuple[str, str, str, int | None, int | None]]:
    models = load_models(model_config) if model_config else [None]
    return [
        (f.dataset, f.check, f.severity, f.line, f.row)
        for model in models
        for dataset in load_datasets(HAZARDS)
        for f in lint(dataset, model, rows=5)
    ]


def test_each_hazard_gets_exactly_its_findings():
    """Without a model: placeholders, columns, labels, junctions, the answer's turn and the ice token; nothing else."""
    assert findings() == WITHOUT_MODEL


def test_a_model_adds_its_roles_media_placeholders_and_control_tokens():
    """With a model: a fallback role that fires (note), a role it lacks (error), placeholders vs parts, tokens in rows."""
    assert findings(MODEL) == WITH_MODEL


def test_every_finding_names_the_config_file():
    """Each finding's config is the hazards file."""
    assert {f.config for dataset in load_datasets(HAZARDS) for f in lint(dataset)} == {str(HAZARDS)}


def test_finding_text_names_file_line_dataset_row_and_fix():
    """A finding prints as file:line, severity, check, dataset and row, the message, then the fix."""
    [spec] = [d for d in load_datasets(HAZARDS) if d.abbr == "glued"]
    [finding] = lint(spec)
    assert str(finding) == (
        f"{HAZARDS}:18: warning: [answer-junction] dataset 'glued', row 0: no space where ice_template's text 'uestion}}\\nAnswer:' "
        "meets {answer} (here 'A'): the answer is scored or shown as '\\nAnswer:A'\n"
        "    fix: put a space between the text and {answer} (e.g. 'Answer: {answer}'), or start the answers with one"
    )


def test_placeholder_typo_message_suggests_the_column():
    """The typo's finding says it renders literally and names the column it probably meant."""
    [spec] = [d for d in load_datasets(HAZARDS) if d.abbr == "typo"]
    finding = lint(spec)[0]
    assert finding.message == (
        "{qestion} in prompt_template names no column of the rows (columns: answer, extra, image, question): it renders literally, as '{qestion}'"
    )
    assert finding.fix == "write {question}"


def test_a_typo_in_a_read_base_file_names_that_file(tmp_path: Path):
    """A template text written in a read_base() file is located in that file, at its line."""
    (tmp_path / "common.py").write_text("\n\nquestion = 'Q: {qestion}\\nA: '\n")
    (tmp_path / "rows.jsonl").write_text('{"question": "1+1?", "answer": "2"}\n')
    (tmp_path / "ds.py").write_text(
        "from mmengine.config import read_base\nwith read_base():\n    from .common import question\n"
        "datasets = [dict(abbr='d', type='JsonlDataset', path='rows.jsonl', reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template=question), retriever=dict(type='ZeroRetriever'),\n"
        "                   inferencer=dict(type='GenInferencer')))]\n"
    )
    [spec] = load_datasets(tmp_path / "ds.py")
    first = lint(spec)[0]
    assert (first.check, first.config, first.line) == ("unknown-placeholder", str(tmp_path / "common.py"), 3)


def test_a_label_of_another_type_is_named():
    """Int labels in the data against string keys: the finding says which type each has."""
    spec = build_dataset(
        dict(
            abbr="n",
            type="RowsDataset",
            rows=[{"q": "x", "a": 1}],
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(
                prompt_template=dict(type="PromptTemplate", template={"0": "{q} no", "1": "{q} yes"}),
                retriever=dict(type="ZeroRetriever"),
                inferencer=dict(type="PPLInferencer"),
            ),
        )
    )
    [finding] = lint(spec)
    assert finding.message == (
        "the row's label 1 (a) is not among the labels scored ('0', '1'): it is never scored (the template's label is '1', a str; the row's is a int)"
    )


def test_findings_are_frozen_and_dump_every_field():
    """A Finding cannot be changed, and dump() gives every field."""
    finding = Finding("render-error", "error", "m", "f", "d", "c.py", 3, "m1", 0)
    with pytest.raises(FrozenInstanceError):
        finding.line = 4  # type: ignore[misc]
    assert finding.dump() == {
        "check": "render-error",
        "severity": "error",
        "message": "m",
        "fix": "f",
        "dataset": "d",
        "config": "c.py",
        "line": 3,
        "model": "m1",
        "row": 0,
    }


def test_cli_prints_findings_and_exits_zero(capsys):
    """Without --strict the findings are printed, then a count line, and the exit status is 0."""
    assert main(["lint", str(HAZARDS)]) == 0
    out = capsys.readouterr().out
    assert out.count("    fix: ") == len(WITHOUT_MODEL)
    assert out.endswith("1 error, 8 warnings in 11 datasets\n")


def test_cli_strict_exits_one_on_findings(capsys):
    """--strict: exit 1 when a finding is an error or a warning."""
    assert main(["lint", str(HAZARDS), "--dataset", "typo", "--strict"]) == 1
    assert capsys.readouterr().out.endswith("2 warnings in 1 dataset\n")


def test_cli_strict_passes_on_notes_only(capsys):
    """--strict does not fail on notes (a fallback role that fires as configured)."""
    config = ROOT / "configs" / "datasets" / "system_chat_demo" / "system_chat_demo_gen.py"
    assert main(["lint", str(config), "--model", str(ROOT / "configs" / "models" / "gemma2_2b_it.py"), "--strict"]) == 0
    out = capsys.readouterr().out
    assert "note: [missing-role]" in out and out.endswith("1 note in 1 dataset\n")


def test_cli_json_gives_one_object_per_finding(capsys):
    """--json: one JSON object per finding, nothing else."""
    assert main(["lint", str(HAZARDS), "--dataset", "labels", "--json"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line) == {
        "check": "unknown-label",
        "severity": "warning",
        "dataset": "labels",
        "config": str(HAZARDS),
        "line": 15,
        "model": None,
        "row": 2,
        "message": "the row's label 'C' (answer) is not among the labels scored ('A', 'B'): it is never scored",
        "fix": "make the template's keys the data's labels, with the same values and types, or give PPLInferencer(labels=[...])",
    }


def test_cli_bad_sample_is_an_error(capsys):
    """--sample -1 is bad input: one error line, exit 1."""
    assert main(["lint", str(HAZARDS), "--sample", "-1"]) == 1
    assert capsys.readouterr().err == "promptkit: error: --sample must be 0 or more (got -1)\n"


DATASET_CONFIGS = sorted(p for p in (ROOT / "configs" / "datasets").glob("*/*.py") if "common" not in p.name)
MODEL_CONFIGS = sorted((ROOT / "configs" / "models").glob("*.py")) + sorted((ROOT / "configs" / "models" / "chat_template").glob("*.py"))


def golden_errors() -> set[tuple[str, str | None]]:
    """(dataset, model) pairs whose prompts the goldens record as refused (text models given media, API models CLP ...)."""
    pairs = set()
    for golden in (ROOT / "tests" / "golden").rglob("*.jsonl"):
        for line in golden.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "error" in record:
                pairs.add((record["dataset"], record["model"]))
    return pairs


@pytest.mark.parametrize("dataset_config", DATASET_CONFIGS, ids=lambda p: p.stem)
def test_bundled_configs_lint_clean(dataset_config: Path, monkeypatch):
    """Every bundled dataset config × every bundled model: no error or warning but the refusals the goldens record."""
    monkeypatch.chdir(ROOT)
    refused = golden_errors()
    datasets = load_datasets(dataset_config)
    for model in [None, *(m for path in MODEL_CONFIGS for m in load_models(path))]:
        for dataset in datasets:
            for finding in lint(dataset, model, rows=3):
                if not finding.fails:
                    continue
                assert finding.check == "render-error" and (dataset.abbr, finding.model) in refused, str(finding)
