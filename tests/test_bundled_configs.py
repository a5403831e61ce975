"""Every bundled dataset config × model config: preview works, and render matches its golden file.

A change to a shipped prompt shows up as a diff of tests/golden/<config>.jsonl in
review. After an intended change, re-record with `pytest tests/test_bundled_configs.py --update-goldens`.

Some pairs cannot render, on purpose: a multimodal dataset for a completion
model without a placeholder for its media.  Their golden record is the error
message, and their preview must fail with it.  A dataset folder's
``data/replies.jsonl`` gives the model replies of ``infer_mode='every'`` dialogues.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import PromptkitError, Renderer, load_datasets, load_models, load_replies
from promptkit.cli.main import main

ROOT = Path(__file__).parents[1]
GOLDEN = Path(__file__).parent / "golden"
DATASET_CONFIGS = sorted(p for p in (ROOT / "configs" / "datasets").glob("*/*.py") if "common" not in p.name)
MODEL_CONFIGS = sorted(p.relative_to(ROOT) for p in (ROOT / "configs" / "models").glob("*.py"))


@pytest.fixture(autouse=True)
def no_model_on_this_machine(monkeypatch):
    """Model configs are read from the repository root, with a Hugging Face cache that holds nothing, so a config naming a
    hub id fails alike on every machine (the golden records the error)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_CACHE", "no-hf-cache")
    for name in ("TRANSFORMERS_CACHE", "PROMPTKIT_MODEL_PATHS"):
        monkeypatch.delenv(name, raising=False)


def test_there_are_enough_bundled_configs():
    """At least 8 dataset configs and 8 model configs ship."""
    assert len(DATASET_CONFIGS) >= 8 and len(MODEL_CONFIGS) >= 8


GOLDEN_ROWS = 3  # the first rows of each test split: enough to show every shape, small enough to review


def replies_file(dataset_config: Path) -> Path | None:
    path = dataset_config.parent / "data" / "replies.jsonl"
    return path if path.exists() else None


def render_all(dataset_config: Path) -> list[dict]:
    models = [None] + [m for path in MODEL_CONFIGS for m in load_models(path)]
    replies_path = replies_file(dataset_config)
    replies = load_replies(replies_path) if replies_path else None
    records = []
    for model in models:
        for spec in load_datasets(dataset_config):
            renderer = Renderer(spec, model, replies=replies)
            try:
                for index in range(min(GOLDEN_ROWS, len(renderer))):
                    records.extend(p.to_record() for p in renderer.render(index))
            except PromptkitError as error:
                records.append({"dataset": spec.abbr, "model": model.abbr if model else None, "error": error.message})
    return records


@pytest.mark.parametrize("dataset_config", DATASET_CONFIGS, ids=lambda p: p.stem)
def test_render_matches_golden(dataset_config: Path, request):
    """The config's prompts for every bundled model equal the recorded ones."""
    golden = GOLDEN / f"{dataset_config.stem}.jsonl"
    records = render_all(dataset_config)
    if request.config.getoption("--update-goldens"):
        golden.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    expected = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    assert records == expected


@pytest.mark.parametrize("dataset_config", DATASET_CONFIGS, ids=lambda p: p.stem)
def test_preview_with_every_model(dataset_config: Path, capsys):
    """`promptkit preview` succeeds for the config with no model and with each bundled model — or fails with the golden error."""
    golden = [json.loads(line) for line in (GOLDEN / f"{dataset_config.stem}.jsonl").read_text(encoding="utf-8").splitlines()]
    errors = {record["model"]: record["error"] for record in golden if "error" in record}
    replies = ["--replies", str(path)] if (path := replies_file(dataset_config)) else []
    assert main(["preview", str(dataset_config), "--color", "never", "--count", "2", *replies]) == (1 if None in errors else 0)
    shown = 0
    for model_config in MODEL_CONFIGS:
        abbr = load_models(model_config)[0].abbr
        status = main(["preview", str(dataset_config), "--model", str(model_config), "--color", "never", *replies])
        captured = capsys.readouterr()
        if abbr in errors:
            assert status == 1 and errors[abbr] in captured.err, model_config
        else:
            assert status == 0, (model_config, captured.err)
            shown += captured.out.count("final input")
    assert shown >= len(MODEL_CONFIGS) - len(errors)
