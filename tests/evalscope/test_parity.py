"""promptkit sends what EvalScope 1.14.1 sends: every case recorded from the real EvalScope (tools/evalscope_reference).

Each case of ``cases.json`` is rendered through promptkit's EvalScope front end — ``evalscope:NAME`` (or the case's
adapter file) with ``--set local_path=<data>``, its ``dataset_args`` and its seed as ``--set`` lines — and each record
is compared with the recorded request: the messages, the subset, the sample's index, the target and the choices.
A case EvalScope refused is refused here with promptkit's one-line message (listed in :data:`REFUSALS`).

Where promptkit differs from EvalScope on purpose (docs/evalscope.md), :data:`DIFFERENCES` says how:
``gsm8k__unknown_key`` (EvalScope ignores a key that is no dataset_args key; promptkit refuses it) and
``guide_gsm8k__as_user_module`` (EvalScope 1.14 refuses a user file registering the built-in name gsm8k; promptkit
renders the file's class — and so reaches the file's own missing few-shot template).
BBH's and GPQA's fixed shots are read from an installed EvalScope: without one, their cases are refused
(:func:`test_fixed_shots_need_an_installed_evalscope`); with a package holding the recorded shot texts, they match
(:func:`test_fixed_shots_from_the_installed_package`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from promptkit import PromptkitError, Renderer, load_datasets

HERE = Path(__file__).parent
CASES = {case["name"]: case for case in json.loads((HERE / "cases.json").read_text(encoding="utf-8"))}
EXPECTED = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted((HERE / "expected").glob("*.json"))}
#: Cases whose fixed shots are EvalScope's files (read from an installed EvalScope).
FIXED_SHOTS = ("bbh__default", "bbh__system_prompt", "gpqa_diamond__few_shot")

_FEW_SHOT_TEMPLATE = (
    "few_shot_num=4 but 'gsm8k' sets no few_shot_prompt_template, which its format_fewshot_template formats (EvalScope fails here: "
    "'NoneType' object has no attribute 'format'); give one with --set few_shot_prompt_template='...{fewshot}...{question}...', "
    "or render zero-shot with --num-fewshot 0"
)
#: promptkit's message for each case EvalScope refuses (after the location: config, dataset).
REFUSALS = {
    "gsm8k__unknown_placeholder": "format_prompt_template raised KeyError: 'context' while building the prompt of sample 0 of subset 'main'",
    "guide_gsm8k__default": _FEW_SHOT_TEMPLATE,
    "hellaswag__few_shot_unsupported": "Benchmark 'hellaswag' does not support few-shot evaluation; set few_shot_num=0.",
    "mmlu__invalid_prompt_template": (
        "format_prompt_template raised AssertionError: Prompt template is not valid while building the prompt of sample 0 of subset "
        "'high_school_geography' (a multiple-choice template needs {question} and {choices})"
    ),
    "mmlu__subset_without_shots": (
        "subset 'astronomy' has 1 few-shot sample(s) in split 'dev', fewer than few_shot_num=5 (EvalScope takes the first "
        "few_shot_num rows, then sample_filter, and asserts there are enough); lower it with --num-fewshot, or give more rows"
    ),
    "race__few_shot_4": "Benchmark 'race' supports few_shot_num values: 0, 1, 2, 3; got 4.",
    "short_answer__three_shots": (
        "subset 'easy' has 2 few-shot sample(s) in split 'train', fewer than few_shot_num=3 (EvalScope takes the first "
        "few_shot_num rows, then sample_filter, and asserts there are enough); lower it with --num-fewshot, or give more rows"
    ),
    "guide_mmlu_pro__as_written": (
        "line 66: f-string expression part cannot include a backslash — this line needs Python 3.12 (a backslash or a reused quote "
        "inside an f-string's braces, as EvalScope's guide writes its MMLU-Pro adapter); compute the value on the line before and put "
        "the name in the braces"
    ),
}
#: Where promptkit differs from EvalScope on purpose: the case, and promptkit's message.
DIFFERENCES = {
    "gsm8k__unknown_key": (
        "--set few_shot_number: 'gsm8k' has no dataset_args key 'few_shot_number' (did you mean 'few_shot_num'?) (EvalScope would "
        "ignore it without a word); the keys are the BenchmarkMeta fields, local_path, extra_params.NAME, seed and limit"
    ),
    "guide_gsm8k__as_user_module": _FEW_SHOT_TEMPLATE,
}


def source_and_overrides(case: dict[str, Any]) -> tuple[str, list[str]]:
    """The promptkit source and ``--set`` lines of a case."""
    source = str(HERE / case["adapter"]) if "adapter" in case else f"evalscope:{case['benchmark']}"
    overrides = [f"local_path={str(HERE / case['data'])!r}"]
    overrides += [f"{key}={value!r}" for key, value in case["dataset_args"].items()]
    if "seed" in case.get("task", {}):
        overrides.append(f"seed={case['task']['seed']!r}")
    return source, overrides


def rendered(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The records promptkit writes for a case, in order (no model)."""
    source, overrides = source_and_overrides(case)
    records = []
    for spec in load_datasets(source, overrides=overrides):
        records.extend(prompt.to_record() for prompt in Renderer(spec))
    return records


def as_recorded(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fields of promptkit's records that the recorded samples hold."""
    return [
        {"subset": r["subset"], "index": r["index"], "messages": r["messages"], "target": r["target"], "choices": r["choices"]} for r in records
    ]


def recorded(expected: dict[str, Any]) -> list[dict[str, Any]]:
    return [{key: sample[key] for key in ("subset", "index", "messages", "target", "choices")} for sample in expected["samples"]]


def refusal(case: dict[str, Any]) -> str:
    with pytest.raises(PromptkitError) as error:
        rendered(case)
    return error.value.message


RENDERED = [name for name, expected in EXPECTED.items() if "error" not in expected and name not in FIXED_SHOTS and name not in DIFFERENCES]


@pytest.mark.parametrize("name", RENDERED)
def test_messages_match_evalscope(name):
    """Every sample's messages, subset, index, target and choices are EvalScope's."""
    assert as_recorded(rendered(CASES[name])) == recorded(EXPECTED[name])


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refused_as_evalscope_refuses(name):
    """A case EvalScope refuses is refused in one line saying why and the way on."""
    assert "error" in EXPECTED[name]
    if name == "guide_mmlu_pro__as_written" and sys.version_info >= (3, 12):
        assert as_recorded(rendered(CASES[name])) == recorded(EXPECTED["guide_mmlu_pro__default"])
        return
    assert refusal(CASES[name]) == REFUSALS[name]


@pytest.mark.parametrize("name", sorted(DIFFERENCES))
def test_differences_from_evalscope(name):
    """The two cases where promptkit differs from EvalScope on purpose give promptkit's message."""
    assert refusal(CASES[name]) == DIFFERENCES[name]


def test_every_recorded_case_is_checked():
    """Each recorded case is compared (rendered, refused, a difference, or fixed shots)."""
    assert sorted(EXPECTED) == sorted(CASES)
    assert sorted([*RENDERED, *REFUSALS, *DIFFERENCES, *FIXED_SHOTS]) == sorted(EXPECTED)


@pytest.mark.parametrize("name", FIXED_SHOTS)
def test_fixed_shots_need_an_installed_evalscope(name, monkeypatch):
    """Without EvalScope installed, BBH's and GPQA's fixed shots are refused in one line naming the file and the ways on."""
    monkeypatch.setattr("promptkit.frontends.evalscope.natives.assets._package_root", lambda: None)
    what, module = ("BBH's chain-of-thought shots", "benchmarks/bbh/cot_prompts") if name.startswith("bbh") else ("GPQA-Diamond's 5 shots", "benchmarks/gpqa/prompt")
    assert refusal(CASES[name]).startswith(
        f"{what} are EvalScope's own worked examples (evalscope/{module}.py), which promptkit reads from an installed EvalScope and does "
        "not ship: install it (pip install evalscope --no-deps is enough; nothing of it is imported), or render zero-shot with --num-fewshot 0"
    )


def fixed_shot_texts(name: str) -> tuple[str, str, str]:
    """(module path, constant, value) of the shots a fixed-shot case shows, cut from its recorded messages."""
    samples = EXPECTED[name]["samples"]
    if name.startswith("bbh"):
        prompts = {}
        for sample in samples:
            text = sample["messages"][-1]["content"]
            prompts[sample["subset"]] = text[: text.rindex("\n\nQ: ")]
        return "benchmarks/bbh/cot_prompts.py", "COT_PROMPTS", repr(prompts)
    text = samples[0]["messages"][-1]["content"]
    header = "Here are some examples of how to answer similar questions:\n\n"
    return "benchmarks/gpqa/prompt.py", "FEW_SHOT_SAMPLES", repr(text[len(header) : text.index("\n\nAnswer the following multiple choice question")])


@pytest.mark.parametrize("name", FIXED_SHOTS)
def test_fixed_shots_from_the_installed_package(name, tmp_path, monkeypatch):
    """With EvalScope's shot files installed (here: a package holding the texts the recording shows), BBH and GPQA send
    EvalScope's messages: the file is parsed, not imported."""
    module, constant, value = fixed_shot_texts(name)
    path = tmp_path / "evalscope" / module
    path.parent.mkdir(parents=True)
    path.write_text(f"import this_module_is_never_imported\n{constant} = {value}\n", encoding="utf-8")
    monkeypatch.setattr("promptkit.frontends.evalscope.natives.assets._package_root", lambda: tmp_path / "evalscope")
    assert as_recorded(rendered(CASES[name])) == recorded(EXPECTED[name])
