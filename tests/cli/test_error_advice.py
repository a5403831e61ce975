"""Every flag a message of promptkit suggests is one the command showing the message accepts.

The walk reads every string of the package's modules (f-string pieces included; docstrings, argparse help and
descriptions left out, since they describe the flags where they are defined) and finds each ``--flag`` in it.  A
string that names its command (``promptkit render --spans``) is checked against that command; any other against
the commands whose runs can show it (:data:`SHOWN_BY`).  A new message suggesting a flag that no table row covers
fails here until the row is added, so the advice and the parsers cannot drift apart.
"""

from __future__ import annotations

import argparse
import ast
import re
import shlex
from pathlib import Path

import pytest

from promptkit.cli.examples import EXAMPLES
from promptkit.cli.main import COMMANDS, build_parser, main

PACKAGE = Path(__file__).parents[2] / "promptkit"
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*[a-z]")
#: Another tool's command line in a message: the flags after it are that tool's (``hf download ID --revision R``).
FOREIGN = re.compile(r"\b(?:hf download|pip install|lm_eval|evalscope eval)\b|lm-eval's|EvalScope's")
NAMED = re.compile(r"promptkit (snapshot (?:write|check)|" + "|".join(name for name in COMMANDS if name != "snapshot") + r")\b")

#: The commands that read dataset configs (their data may be missing: --data-root, --rows).
DATASETS = ("preview", "render", "view", "lint", "diff", "snapshot write", "snapshot check", "check-template")
#: Each flag a message suggests → the commands whose runs can show that message ("" is promptkit itself).
SHOWN_BY: dict[str, tuple[str, ...]] = {
    "--allow-bad": ("preview", "render", "view", "validate"),
    "--as": ("render",),
    "--chat-template-kwarg": ("preview", "render"),
    "--count": ("preview",),
    "--data-root": DATASETS,
    "--dataset": ("preview", "render", "view", "diff", "snapshot write"),
    "--debug": ("",),
    "--format": ("preview", "render", "view", "validate"),
    "--full": ("preview",),
    "--index": ("preview",),
    "--indices": ("render", "view", "diff"),
    "--model": ("preview", "render", "view", "diff", "snapshot write"),
    "--model-path": ("preview", "render", "view", "lint", "diff", "snapshot write", "snapshot check", "check-template"),
    "--no-spans": ("diff",),
    "--num-fewshot": ("preview", "render"),
    "--out": ("render", "view"),
    "--replies": ("preview", "render", "view"),
    "--rows": DATASETS,
    "--sample": ("lint",),
    "--seed": ("preview", "render"),
    "--set": ("preview", "render"),
    "--shots": ("preview", "render"),
    "--spans": ("render",),
    "--tokenizer": ("preview", "render", "view"),
    "--tokens": ("render",),
    "--workers": ("render",),
}


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the string nodes that are not messages: docstrings, and what argparse calls and descriptions hold."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("add_"):
            skipped.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.Assign) and any(isinstance(target, ast.Attribute) and target.attr == "description" for target in node.targets):
            skipped.update(id(sub) for sub in ast.walk(node.value))
    return skipped


def suggested_flags() -> list[tuple[str, str, str]]:
    """(where, flag, command) for every flag a message suggests, the examples of ``--help`` left to their own test."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "examples.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _skipped(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr) and id(node) not in skipped:  # an f-string is read whole, its values as {}
                skipped.update(id(value) for value in node.values)
                text = "".join(value.value if isinstance(value, ast.Constant) else "{}" for value in node.values)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
                text = node.value
            else:
                continue
            if "var(--" in text:
                continue  # (a style sheet's custom properties, --dim, are not flags)
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            named = NAMED.search(text)
            foreign = [found.start() for found in FOREIGN.finditer(text)]
            for match in FLAG.finditer(text):
                flag = match.group()
                if any(start < match.start() for start in foreign):
                    continue
                if named is not None and named.start() < match.start():
                    out.append((where, flag, named.group(1)))
                    continue
                assert flag in SHOWN_BY, f"{where}: a message suggests {flag}; add it to SHOWN_BY with the commands that can show it"
                out.extend((where, flag, command) for command in SHOWN_BY[flag])
    return out


def _parser_of(command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` (``'snapshot write'`` is a sub-command; ``''`` is promptkit's own)."""
    words = command.split()
    parser = build_parser(set(words[:1]))
    for word in words:
        sub = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


def _options(command: str) -> set[str]:
    return {option for action in _parser_of(command)._actions for option in action.option_strings}


SUGGESTED = suggested_flags()
#: An OpenCompass config whose data (GSM8K's files under the data root) is not there.
GSM8K_CONFIG = """from opencompass.datasets import GSM8KDataset
datasets = [dict(abbr='gsm8k', type=GSM8KDataset, path='opencompass/gsm8k',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='Q: {question}\\nA:'),
        retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')))]
"""


def test_the_walk_finds_the_advice_of_the_missing_data_and_bad_records_messages():
    """The walk reads library messages too: the missing-data advice names --data-root and --rows, the format loader --allow-bad."""
    places = {(where.split(":")[0], flag) for where, flag, _ in SUGGESTED}
    assert {
        ("promptkit/data/opencompass/base.py", "--data-root"),
        ("promptkit/data/opencompass/base.py", "--rows"),
        ("promptkit/formats/base.py", "--allow-bad"),
        ("promptkit/render/parallel.py", "--workers"),
    } <= places


@pytest.mark.parametrize(("where", "flag", "command"), SUGGESTED, ids=lambda value: str(value))
def test_every_suggested_flag_is_accepted_by_the_command_showing_it(where, flag, command):
    """The command that shows the message takes the flag it suggests."""
    assert flag in _options(command), f"{where}: the message suggests {flag}, which `promptkit {command}` does not take"


@pytest.mark.parametrize(
    ("command", "example"), [(name, example) for name, examples in EXAMPLES.items() for _, example in examples], ids=lambda value: str(value)
)
def test_every_help_example_parses(command, example):
    """Each example at the end of a --help is a command line its parser takes as written."""
    words = shlex.split(example.split(" | ")[0])  # the command, without a pipe after it
    assert words[0] == "promptkit"
    if "--version" in words:
        with pytest.raises(SystemExit) as shown:
            build_parser().parse_args(words[1:])
        assert shown.value.code in (0, None)  # printed and left, as --help does
        return
    build_parser().parse_args(words[1:])


@pytest.mark.parametrize("command", ["preview", "render", "view", "lint", "diff", "check-template"])
def test_missing_data_advice_runs(command, tmp_path, capsys):
    """The flags the missing-data line names are taken by each command that reads dataset configs: run with both, it renders."""
    config = tmp_path / "ds.py"
    config.write_text(GSM8K_CONFIG, encoding="utf-8")
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"question": "1 + 1?", "answer": "2"}\n', encoding="utf-8")
    model = PACKAGE.parent / "configs" / "models" / "llama3_8b_instruct.py"
    args = {
        "preview": ["preview", str(config)],
        "render": ["render", str(config)],
        "view": ["view", str(config), "--out", str(tmp_path / "v.html")],
        "lint": ["lint", str(config)],
        "diff": ["diff", str(config), str(config)],
        "check-template": ["check-template", str(model), str(config), "--count", "1"],
    }[command]
    # check-template exits 1 when the templates disagree: what matters here is that the run got that far.
    assert main([*args, "--data-root", str(tmp_path), "--rows", str(rows)]) in ((0, 1) if command == "check-template" else (0,))
    err = capsys.readouterr().err
    assert "unrecognized arguments" not in err and "promptkit: error" not in err


def test_snapshot_takes_the_data_flags_and_pins_the_rows(tmp_path, monkeypatch, capsys):
    """snapshot write takes --data-root and --rows and pins the rows file; check reads it again (or the --rows given)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ds.py").write_text(GSM8K_CONFIG, encoding="utf-8")
    (tmp_path / "rows.jsonl").write_text('{"question": "1 + 1?", "answer": "2"}\n', encoding="utf-8")
    (tmp_path / "other.jsonl").write_text('{"question": "2 + 2?", "answer": "4"}\n', encoding="utf-8")
    assert main(["snapshot", "write", "snap", "ds.py", "--rows", "rows.jsonl", "--data-root", str(tmp_path)]) == 0
    assert "rows" in (tmp_path / "snap" / "snapshot.json").read_text(encoding="utf-8")
    assert main(["snapshot", "check", "snap", "--data-root", str(tmp_path)]) == 0
    assert main(["snapshot", "check", "snap", "--rows", "other.jsonl"]) == 1
    assert "promptkit: error" not in capsys.readouterr().err
