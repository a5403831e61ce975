"""`promptkit view`: the page file it writes, and one-line errors for bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from promptkit.cli.main import main

ROOT = Path(__file__).parents[2]
MTBENCH = ROOT / "configs" / "datasets" / "mtbench_demo" / "mtbench_demo_every_with_gt.py"
ARC = ROOT / "configs" / "datasets" / "arc_demo" / "arc_demo_few_shot_ppl.py"
LLAMA3 = ROOT / "configs" / "models" / "llama3_8b_instruct.py"
GPT4O = ROOT / "configs" / "models" / "gpt_4o_api.py"


def page_data(path: Path) -> dict:
    match = re.search(r'<script id="pk-data" type="application/json">(.*?)</script>', path.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert match is not None
    return json.loads(match.group(1))


def test_view_writes_one_page_for_every_config_and_model(tmp_path, capsys):
    """Two dataset configs × two --model configs: one file holding every prompt, and a line saying so."""
    out = tmp_path / "view.html"
    assert main(["view", str(MTBENCH), str(ARC), "--model", str(LLAMA3), "--model", str(GPT4O), "--indices", "0-1", "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: 24 prompts of 2 dataset(s) x 2 model(s)\n"
    data = page_data(out)
    assert data["title"] == "mtbench_demo_every_with_gt · arc_demo_few_shot_ppl"
    assert [d["name"] for d in data["datasets"]] == ["mtbench_demo_every_with_gt", "arc_demo_3shot_ppl"]
    assert [(m["name"], m["kind"]) for m in data["models"]] == [("llama-3-8b-instruct", "completion"), ("gpt-4o-2024-08-06", "chat")]
    assert sorted({(p["d"], p["m"], p["i"]) for p in data["prompts"]}) == [(d, m, i) for d in range(2) for m in range(2) for i in range(2)]


def test_dataset_glob_picks_datasets_by_abbr(tmp_path, capsys):
    """--dataset takes a shell pattern over the configs' abbrs."""
    out = tmp_path / "view.html"
    assert main(["view", str(MTBENCH), str(ARC), "--dataset", "arc_*", "--title", "ARC", "--out", str(out)]) == 0
    data = page_data(out)
    assert [d["name"] for d in data["datasets"]] == ["arc_demo_3shot_ppl"] and data["title"] == "ARC"
    assert data["models"] == [{"name": "(no model)", "kind": "completion", "tokens": []}]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dataset", "mmlu*"], "promptkit: error: --dataset 'mmlu*' matches no dataset; the configs have 'arc_demo_3shot_ppl'\n"),
        (
            ["--indices", "12"],
            f"promptkit: error: config {ARC}, dataset 'arc_demo_3shot_ppl': --indices '12': index 12 is out of range "
            "(the test split has 10 rows, 0 to 9)\n",
        ),
        (["--model", "missing.py"], "promptkit: error: config missing.py: config file 'missing.py' not found\n"),
    ],
)
def test_bad_input_is_one_line_and_no_file(tmp_path, capsys, argv, message):
    """A pattern matching nothing, a row out of range, a missing model config: one error line, exit 1, nothing written."""
    out = tmp_path / "view.html"
    assert main(["view", str(ARC), "--out", str(out), *argv]) == 1
    assert capsys.readouterr().err == message
    assert not out.exists()


def test_out_may_not_be_an_input(capsys):
    """--out naming the dataset config is refused before anything is rendered."""
    assert main(["view", str(ARC), "--out", str(ARC)]) == 1
    assert capsys.readouterr().err.startswith(f"promptkit: error: --out {ARC} is a dataset config; writing there would destroy an input")


def test_out_is_required(capsys):
    """Without --out argparse refuses the command (exit 2)."""
    with pytest.raises(SystemExit) as stop:
        main(["view", str(ARC)])
    assert stop.value.code == 2
    assert "the following arguments are required: --out" in capsys.readouterr().err
