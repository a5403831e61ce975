"""Every bundled chat-template model config (configs/models/chat_template/) × every dataset config: golden prompts.

A change to a chat template, a model folder or OpenCompass's conversion shows
up as a diff of tests/golden/chat_template/<model config>.jsonl. Re-record with
`pytest tests/test_bundled_chat_template_configs.py --update-goldens`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import PromptkitError, Renderer, load_datasets, load_models
from promptkit.cli.main import main

ROOT = Path(__file__).parents[1]
GOLDEN = Path(__file__).parent / "golden" / "chat_template"
MODEL_CONFIGS = sorted(p.relative_to(ROOT) for p in (ROOT / "configs" / "models" / "chat_template").glob("*.py"))
DATASET_CONFIGS = sorted(p.relative_to(ROOT) for p in (ROOT / "configs" / "datasets").glob("*/*.py") if "common" not in p.name)
ROWS = 2


@pytest.fixture(autouse=True)
def at_repository_root(monkeypatch):
    """Bundled configs give model folders relative to the repository root."""
    monkeypatch.chdir(ROOT)


def render_all(model_config: Path, skipped: tuple[Path, ...] = ()) -> list[dict]:
    records = []
    for model in load_models(model_config):
        for dataset_config in DATASET_CONFIGS:
            if dataset_config in skipped:
                continue
            for spec in load_datasets(dataset_config):
                renderer = Renderer(spec, model)
                for index in range(min(ROWS, len(renderer))):
                    try:
                        records.extend(p.to_record() for p in renderer.render(index))
                    except PromptkitError as error:  # a template that refuses a prompt is part of the golden record
                        records.append({"dataset": spec.abbr, "model": model.abbr, "index": index, "error": str(error)})
    return records


def test_every_family_has_a_chat_template_config_and_a_twin():
    """Eight families ship as chat-template configs; each names a meta-template twin that exists."""
    chat = [p for p in MODEL_CONFIGS if not p.stem.endswith("_meta")]
    assert len(chat) >= 8
    for config in chat:
        twin = next(line for line in config.read_text().splitlines() if "Meta-template twin:" in line).split(": ")[1].split(";")[0]
        assert (config.parent / twin).is_file(), (config, twin)


@pytest.mark.parametrize("model_config", MODEL_CONFIGS, ids=lambda p: p.stem)
def test_render_matches_golden(model_config: Path, request, config_unavailable):
    """The first rows of every dataset config, through this model config, equal the recorded prompts (those of a config
    whose extra is not installed are left out on both sides)."""
    golden = GOLDEN / f"{model_config.stem}.jsonl"
    skipped = tuple(config for config in DATASET_CONFIGS if config_unavailable(config) is not None)
    records = render_all(model_config, skipped)
    if request.config.getoption("--update-goldens"):
        assert not skipped, f"re-recording needs every extra: {config_unavailable(skipped[0])}"
        golden.parent.mkdir(exist_ok=True)
        golden.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    left_out = {
        json.loads(line)["dataset"] for config in skipped for line in (GOLDEN.parent / f"{config.stem}.jsonl").read_text(encoding="utf-8").splitlines()
    }
    expected = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    assert records == [record for record in expected if record["dataset"] not in left_out]


@pytest.mark.parametrize("model_config", MODEL_CONFIGS, ids=lambda p: p.stem)
def test_preview_works(model_config: Path, capsys):
    """`promptkit preview` shows a final input for the model config."""
    assert main(["preview", "configs/datasets/chat_fewshot_demo/chat_fewshot_demo_gen.py", "--model", str(model_config), "--color", "never"]) == 0
    assert "final input" in capsys.readouterr().out
