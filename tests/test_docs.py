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
