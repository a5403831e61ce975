"""Parity with OpenCompass 0.5.4 on the scenarios of cases.json.

expected/<case>.jsonl was recorded by running OpenCompass itself
(tools/opencompass_reference/). promptkit must render every case
byte-identically — or, for the cases listed in deliberate.json, differ in the
way docs/compat.md describes: there promptkit's own output is pinned in
promptkit/<case>.jsonl (re-record with --update-goldens) and must not equal
OpenCompass's. Where OpenCompass raises, promptkit must raise too, unless the
case is a deliberate fix of that crash.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import PromptkitError, Renderer, load_datasets, load_models

#: The record fields promptkit adds for engines and pinning (id, gold, request, fingerprint, provenance).
ENGINE_FIELDS = ("id", "gold", "request", "fingerprint", "provenance")
HERE = Path(__file__).parent
CASES = json.loads((HERE / "cases.json").read_text())
DELIBERATE: dict[str, str] = json.loads((HERE / "deliberate.json").read_text())
COMPAT = (HERE.parents[1] / "docs" / "compat.md").read_text()


def words(text: str) -> int:
    """The harness's token count: whitespace-separated words."""
    return len(text.split())


def render_case(case: dict) -> list[dict]:
    try:
        models = load_models(HERE / case["model"]) if case["model"] else [None]
        records = [p.to_record() for m in models for d in load_datasets(HERE / case["dataset"]) for p in Renderer(d, m, token_counter=words)]
        # OpenCompass records no n_shots/truncated (ice_idx already shows the shots kept), nor promptkit's engine-ready fields.
        return [{k: v for k, v in r.items() if k not in ("n_shots", "truncated", *ENGINE_FIELDS)} for r in records]
    except PromptkitError as error:
        return [{"error": f"{type(error).__name__}: {error}"}]


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_at_least_forty_cases_and_every_difference_is_documented():
    """≥ 40 scenarios; each deliberate difference names a section of docs/compat.md that exists."""
    assert len(CASES) >= 40
    names = {case["name"] for case in CASES}
    assert set(DELIBERATE) <= names
    for name, section in DELIBERATE.items():
        assert f"<a id=\"{section}\"></a>" in COMPAT, f"{name}: docs/compat.md has no section {section!r}"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case: dict, request):
    """promptkit equals OpenCompass, or differs exactly as documented."""
    expected = load(HERE / "expected" / f"{case['name']}.jsonl")
    got = render_case(case)
    if case["name"] not in DELIBERATE:
        if "error" in expected[0]:
            assert len(got) == 1 and "error" in got[0], f"OpenCompass raised {expected[0]['error']!r}; promptkit rendered instead"
        else:
            assert got == expected
        return
    pinned = HERE / "promptkit" / f"{case['name']}.jsonl"
    if request.config.getoption("--update-goldens"):
        pinned.parent.mkdir(exist_ok=True)
        pinned.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in got), encoding="utf-8")
    assert got != expected, "listed as a deliberate difference but renders like OpenCompass: remove it from deliberate.json"
    assert got == load(pinned)
