"""Parity with AISBench 3.1.20260630 on the multi-turn and multimodal scenarios of cases.json.

expected/<case>.jsonl was recorded by running AISBench itself
(tools/aisbench_reference/): one record per request, multi-turn requests
carrying "turn". promptkit renders each case through `python -m promptkit
render` (in process) and must match byte for byte — or, for the cases listed in
deliberate.json, differ the way docs/compat.md describes: there promptkit's
own output is pinned in promptkit/<case>.jsonl (re-record with
--update-goldens) and must not equal AISBench's. Where AISBench raises,
promptkit must fail too (exit status 1, a `promptkit: error:` message),
unless the case is a deliberate fix of that failure.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit.cli.main import main

#: The record fields promptkit adds for engines and pinning (id, gold, request, fingerprint, provenance).
ENGINE_FIELDS = ("id", "gold", "request", "fingerprint", "provenance")
HERE = Path(__file__).parent
CASES = json.loads((HERE / "cases.json").read_text(encoding="utf-8"))
DELIBERATE: dict[str, str] = json.loads((HERE / "deliberate.json").read_text(encoding="utf-8"))
COMPAT = (HERE.parents[1] / "docs" / "compat.md").read_text(encoding="utf-8")
ERROR_PREFIX = "promptkit: error: "


def render_case(case: dict, monkeypatch, capsys) -> list[dict]:
    """Records from `promptkit render`, or one {"error": message} when it reports an error.

    Runs in this folder with the case's relative paths, so file names in
    pinned error messages do not depend on where the repository is checked out.
    """
    monkeypatch.chdir(HERE)
    command = ["render", case["dataset"]]
    if case["model"]:
        command += ["--model", case["model"]]
    if case.get("replies"):
        command += ["--replies", case["replies"]]
    status = main(command)
    captured = capsys.readouterr()
    if status == 0:
        # AISBench records no n_shots/truncated (ice_idx already shows the shots kept), nor promptkit's engine-ready fields.
        records = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
        return [{k: v for k, v in r.items() if k not in ("n_shots", "truncated", *ENGINE_FIELDS)} for r in records]
    message = captured.err.strip().splitlines()[-1] if captured.err.strip() else ""
    assert message.startswith(ERROR_PREFIX), f"promptkit render failed without its error line:\n{captured.err}"
    return [{"error": message.removeprefix(ERROR_PREFIX)}]


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_at_least_twenty_four_cases_and_every_difference_is_documented():
    """≥ 24 scenarios, each recorded; each deliberate difference names a section of docs/compat.md that exists."""
    assert len(CASES) >= 24
    names = {case["name"] for case in CASES}
    assert len(names) == len(CASES), "case names must be unique"
    assert set(DELIBERATE) <= names
    for name in names:
        assert (HERE / "expected" / f"{name}.jsonl").is_file(), f"{name}: not recorded; run tools/aisbench_reference/record_expected.sh"
    for name, section in DELIBERATE.items():
        assert f'<a id="{section}"></a>' in COMPAT, f"{name}: docs/compat.md has no section {section!r}"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case: dict, request, monkeypatch, capsys):
    """promptkit equals AISBench, or differs exactly as documented."""
    expected = load(HERE / "expected" / f"{case['name']}.jsonl")
    got = render_case(case, monkeypatch, capsys)
    if case["name"] not in DELIBERATE:
        if "error" in expected[0]:
            assert len(got) == 1 and "error" in got[0], f"AISBench raised {expected[0]['error']!r}; promptkit rendered instead"
        else:
            assert got == expected
        return
    pinned = HERE / "promptkit" / f"{case['name']}.jsonl"
    if request.config.getoption("--update-goldens"):
        pinned.parent.mkdir(exist_ok=True)
        pinned.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in got), encoding="utf-8")
    assert got != expected, "listed as a deliberate difference but renders like AISBench: remove it from deliberate.json"
    assert got == load(pinned)
