"""`promptkit diff`: the pieces reported for configs that differ in one piece, exit statuses, render files, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit.cli.main import main

CONFIGS = Path(__file__).parents[1] / "diff" / "configs"
BASE, MODEL = CONFIGS / "base.py", CONFIGS / "model.py"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["diff", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("variant", "lines", "inputs"),
    [
        ("system", ["system prompt: Answer with a number{+ only+}."] * 2, " (inputs changed: template)"),
        ("shot_answer", ["shot 1 answer: [-6-]{+six+}"] * 2, ""),  # the same shot ids, so the same provenance
        ("query", ["query: [-Q-]{+Question+}: 1+1?", "query: [-Q-]{+Question+}: 5+5?"], " (inputs changed: template)"),
    ],
)
def test_configs_that_differ_in_one_piece_report_exactly_that_piece(capsys, variant, lines, inputs):
    """Base against a config with another system prompt / shot answer / query: that piece, in both prompts (with the
    provenance entry that changed), and exit 1."""
    status, out, _ = run(capsys, BASE, CONFIGS / f"{variant}.py", "--model", MODEL)
    label = lines[0].split(":")[0]
    kind = {"shot 1 answer": "shot answer"}.get(label, label)
    assert status == 1
    assert out == (
        f"--- A: {BASE} with {MODEL}\n+++ B: {CONFIGS / variant}.py with {MODEL}\n"
        f"sums/0: {label}{inputs}\n  {lines[0]}\nsums/1: {label}{inputs}\n  {lines[1]}\n"
        f"2 prompts compared: 0 identical, 2 changed ({kind} 2)\n"
    )


def test_two_models_that_differ_in_the_wrapper_report_only_the_wrapper(capsys):
    """One config, --model twice: the user turn's begin changed, so only the wrapper before each user turn differs."""
    status, out, _ = run(capsys, BASE, "--model", MODEL, "--model", CONFIGS / "model_wrapper.py", "--indices", "0")
    assert status == 1
    assert out == (
        f"--- A: {MODEL}\n+++ B: {CONFIGS / 'model_wrapper.py'}\n"
        "sums/0: meta-template wrapper (3 places) (inputs changed: meta_template)\n"
        "  meta-template wrapper before shot 0: </sys>↵[-<u>-]{+<user>+}\n"
        "  meta-template wrapper before shot 1: </a>↵[-<u>-]{+<user>+}\n"
        "  meta-template wrapper before query: </a>↵[-<u>-]{+<user>+}\n"
        "1 prompt compared: 0 identical, 1 changed (meta-template wrapper 1)\n"
    )


def test_identical_configs_exit_0(capsys):
    """The same prompts under another abbr: paired row by row, all identical, exit 0."""
    status, out, _ = run(capsys, BASE, CONFIGS / "renamed.py", "--model", MODEL)
    assert status == 0
    assert out.splitlines()[2:] == [
        f"(pairing: dataset 'sums' of {BASE} with {MODEL} paired with dataset 'sums_v2' of {CONFIGS / 'renamed.py'} with {MODEL}, row by row)",
        "2 prompts compared: 2 identical, 0 changed",
    ]


def render(capsys, tmp_path: Path, config: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    assert main(["render", str(config), "--model", str(MODEL), "--out", str(out), *extra]) == 0
    capsys.readouterr()
    return out


def test_render_files_with_spans_give_the_same_report_as_configs(tmp_path, capsys):
    """Two `render --spans` outputs are diffed as the configs they came from (the header names the files)."""
    a = render(capsys, tmp_path, BASE, "a.jsonl", "--spans")
    b = render(capsys, tmp_path, CONFIGS / "shot_answer.py", "b.jsonl", "--spans")
    status, out, _ = run(capsys, a, b)
    assert status == 1
    assert out.splitlines()[2:] == ["sums/0: shot 1 answer", "  shot 1 answer: [-6-]{+six+}", "sums/1: shot 1 answer", "  shot 1 answer: [-6-]{+six+}",
                                    "2 prompts compared: 0 identical, 2 changed (shot answer 2)"]
    assert run(capsys, a, a)[0] == 0


def test_render_files_without_spans_are_compared_whole(tmp_path, capsys):
    """Without --spans the final inputs are compared whole, and the report says why."""
    a = render(capsys, tmp_path, BASE, "a.jsonl", "--indices", "0")
    b = render(capsys, tmp_path, CONFIGS / "system.py", "b.jsonl", "--indices", "0")
    status, out, _ = run(capsys, a, b)
    assert status == 1
    assert out.splitlines()[2:] == [
        "sums/0: final input (inputs changed: template)",
        "  (compared whole: no spans in A and B (render with --spans))",
        "  final input: <s><sys>Answer with a number{+ only+}.</sys>↵<u>Q: 2+2?</u>↵<a>4</a…",
        "1 prompt compared: 0 identical, 1 changed (final input 1)",
    ]


def test_prompts_on_one_side_only_are_listed_and_differ(tmp_path, capsys):
    """Rows 0-1 against row 0: row 1 is only in A, which is a difference (exit 1)."""
    a = render(capsys, tmp_path, BASE, "a.jsonl")
    b = render(capsys, tmp_path, BASE, "b.jsonl", "--indices", "0")
    status, out, _ = run(capsys, a, b)
    assert status == 1
    assert out.splitlines()[2:] == ["only in A: sums/1", "1 prompt compared: 1 identical, 0 changed; 1 only in A"]


def test_html_page_holds_the_changed_pieces(tmp_path, capsys):
    """--html writes one page: each changed piece in the view's colours, removed text in <del>, added in <ins>, escaped."""
    page = tmp_path / "diff.html"
    assert run(capsys, BASE, "--model", MODEL, "--model", CONFIGS / "model_wrapper.py", "--indices", "0", "--html", page)[0] == 1
    text = page.read_text(encoding="utf-8")
    assert '<span class="label sp k-wrapper">meta-template wrapper before query</span>' in text
    assert "<del>&lt;u&gt;</del><ins>&lt;user&gt;</ins>" in text
    assert "<script" not in text and "1 prompt compared: 0 identical, 1 changed (meta-template wrapper 1)" in text


def test_no_common_ids_is_one_line(tmp_path, capsys):
    """Row 0 against row 1: nothing to pair, one error line (exit 1)."""
    a = render(capsys, tmp_path, BASE, "a.jsonl", "--indices", "0")
    b = render(capsys, tmp_path, BASE, "b.jsonl", "--indices", "1")
    assert run(capsys, a, b)[::2] == (
        1,
        f"promptkit: error: {a} and {b} have no prompt id in common ('sums/0' against 'sums/1'); "
        "diff pairs prompts by id: give two renders of the same dataset\n",
    )


def test_a_template_that_rewrites_the_text_is_named(capsys):
    """A chat template that upper-cases the messages: the pieces cannot be placed, and the message says which template."""
    status, _, err = run(capsys, BASE, "--model", MODEL, "--model", CONFIGS / "model_rewrites.py")
    assert (status, err) == (
        1,
        "promptkit: error: dataset 'sums', model 'shouting', row 0: the pieces of prompt 'sums/0' cannot be placed in its final "
        "input: its chat template rewrites their text (beyond trimming its ends); compare the final inputs whole with --no-spans\n",
    )
    status, out, _ = run(capsys, BASE, "--model", MODEL, "--model", CONFIGS / "model_rewrites.py", "--no-spans", "--indices", "0")
    assert status == 1 and "sums/0: final input (inputs changed: meta_template, chat_template)\n" in out


def test_a_span_outside_its_prompt_is_one_line(tmp_path, capsys):
    """A render file whose span runs past the prompt (edited by hand): the file, the line and the span."""
    a = render(capsys, tmp_path, BASE, "a.jsonl", "--spans", "--indices", "0")
    record = json.loads(a.read_text(encoding="utf-8"))
    record["spans"][-2]["end"] = 999
    b = tmp_path / "b.jsonl"
    b.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert run(capsys, a, b)[::2] == (
        1,
        f"promptkit: error: {b} line 1: span 'wrapper' (94:999) cannot be placed in the prompt (102 characters); "
        "give the records `promptkit render --spans` wrote\n",
    )


def test_a_file_of_two_models_against_one_says_so(tmp_path, capsys):
    """A render file of two models repeats each id: one line naming the models."""
    both = tmp_path / "both.jsonl"
    assert main(["render", str(BASE), "--model", str(MODEL), "--model", str(CONFIGS / "model_rewrites.py"), "--out", str(both)]) == 0
    one = render(capsys, tmp_path, BASE, "one.jsonl")
    assert run(capsys, both, one)[2] == (
        f"promptkit: error: {both} line 3: prompt id 'sums/0' appears twice, also at {both} line 1 "
        "(it holds prompts of models 'shouting', 'tiny-chat': give one model's prompts per side)\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([BASE, "--model", MODEL], "one dataset config compares two models: give --model twice (got 1)"),
        ([BASE, CONFIGS / "system.py", "--model", MODEL, "--model", MODEL], "two dataset configs are compared for one model: give --model once at most (got 2)"),
        ([BASE, "a.jsonl"], "give two render outputs (.jsonl), or dataset configs; not one of each"),
        (["a.jsonl", "b.jsonl", "--model", MODEL], "--model, --dataset, --indices, --data-root, --rows and --no-spans are for dataset configs; render files are compared as written"),
        ([BASE, BASE, BASE], f"diff compares two things; got 3 inputs: {BASE} {BASE} {BASE}"),
        (["a.jsonl", "b.jsonl"], "file a.jsonl: records file a.jsonl not found"),
        ([BASE, CONFIGS / "system.py", "--dataset", "mmlu*"], "no dataset abbr matches 'mmlu*'; the configs have 'sums'"),
    ],
)
def test_bad_arguments_are_one_line(capsys, argv, message):
    """Inputs of the wrong number or kind, and a missing file: one error line, exit 1."""
    assert run(capsys, *argv)[::2] == (1, f"promptkit: error: {message}\n")
