"""The worked examples of docs/formats/*.md are true: the documented records render to the documented output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from promptkit.cli.main import main

ROOT = Path(__file__).parents[2]
PAGES = sorted((ROOT / "docs" / "formats").glob("*.md"))
EXAMPLE = re.compile(r"```jsonl\n(?P<input>.*?)```|<!-- render: (?P<format>\w+) (?P<model>\w+) -->\n```json\n(?P<output>.*?)```", re.S)


def examples() -> list[tuple[str, str, str, str, str]]:
    found = []
    for page in PAGES:
        records = None
        for match in EXAMPLE.finditer(page.read_text(encoding="utf-8")):
            if match["input"] is not None:
                records = match["input"]
            else:
                assert records is not None, f"{page.name}: a render block before any jsonl block"
                found.append((page.name, records, match["format"], match["model"], match["output"]))
    return found


def test_every_format_has_a_page_with_a_worked_example():
    """standard, taskspec and xpert each have rendered examples for a completion and a chat model."""
    assert {(e[2], e[3]) for e in examples()} == {(f, m) for f in ("standard", "taskspec", "xpert") for m in ("llama3_8b_instruct", "gpt_4o_api")}


@pytest.mark.parametrize("page, records, fmt, model, output", examples(), ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_documented_render_output_is_what_render_prints(page, records, fmt, model, output, tmp_path, capsys):
    """`promptkit render example.jsonl --format F --model M` prints the documented records."""
    path = tmp_path / "example.jsonl"
    path.write_text(records, encoding="utf-8")
    assert main(["render", str(path), "--format", fmt, "--model", str(ROOT / "configs" / "models" / f"{model}.py")]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == [json.loads(line) for line in output.splitlines()]
