"""The documentation's examples run: the runner loop in docs/api.md."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_runner_loop_in_api_docs_runs(monkeypatch):
    """Every ```python block of docs/api.md executes without error from the repo root."""
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), {})
    assert os.getcwd() == str(ROOT)


def test_render_examples_in_multimodal_docs_are_true(monkeypatch, capsys):
    """Each `promptkit render ...` command quoted in docs/multimodal.md prints the JSON block that follows it."""
    import json
    import shlex

    from promptkit.cli.main import main

    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "multimodal.md").read_text()
    examples = re.findall(r"`promptkit (render [^`]+)`[^`]*?```json\n(.*?)```", text, flags=re.S)
    assert len(examples) >= 2
    for command, block in examples:
        assert main(shlex.split(command)) == 0, command
        got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert got == [json.loads(line) for line in block.splitlines()], command
