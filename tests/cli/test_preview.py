"""`promptkit preview` on a terminal: spans in colour with a legend, markers for newlines and wraps, NO_COLOR, several models."""

from __future__ import annotations

import argparse
import fcntl
import importlib.metadata
import json
import os
import pty
import re
import shlex
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import promptkit
from promptkit.cli.examples import EXAMPLES
from promptkit.cli.main import build_parser, main
from promptkit.cli.preview import use_color

ROOT = Path(__file__).parents[2]
MMLU = ROOT / "configs/datasets/mmlu_demo/mmlu_demo_gen.py"
LLAMA3 = ROOT / "configs/models/llama3_8b_instruct.py"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
ENV = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
ENV.update(PYTHONPATH=str(Path(promptkit.__file__).parents[1]), TERM="xterm-256color")

ROWS = [
    {"question": "alpha beta gamma delta epsilon zeta eta theta iota kappa", "answer": "yes"},
    {"question": "tab\there and a zero\u200bwidth space", "answer": "no"},
]
DATASET = """
_label = lambda word: dict(round=[dict(role='HUMAN', prompt='Q: {question}'), dict(role='BOT', prompt=word)])
_infer = lambda template, inferencer: dict(prompt_template=dict(type='PromptTemplate', template=template),
                                           retriever=dict(type='ZeroRetriever'), inferencer=dict(type=inferencer))
_reader = dict(input_columns=['question'], output_column='answer')
datasets = [
    dict(abbr='wrap_gen', type='JsonlDataset', path='rows.jsonl', reader_cfg=_reader, infer_cfg=_infer('Q: {question} \\nA:', 'GenInferencer')),
    dict(abbr='wrap_ppl', type='JsonlDataset', path='rows.jsonl', reader_cfg=_reader,
         infer_cfg=_infer({'yes': _label('yes'), 'no': _label('no')}, 'PPLInferencer')),
]
"""
MODEL = """
models = [dict(abbr='tiny-chat', type='CompletionModel', meta_template=dict(round=[
    dict(role='HUMAN', begin='<u>', end='</u>\\n'), dict(role='BOT', begin='<b>', end='</b>', generate=True)]))]
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    (tmp_path / "ds.py").write_text(DATASET)
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "chat.py").write_text("models = [dict(abbr='api', type='ChatModel')]\n")
    return tmp_path


def on_terminal(args: list[str | Path], cwd: Path, columns: int = 120, **env: str) -> tuple[int, str]:
    """Run the CLI with stdout on a pseudo-terminal of ``columns`` × 40 (stderr a pipe); its exit status and what it drew."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "promptkit", *map(str, args)],
        cwd=cwd, env={**ENV, **env}, stdout=terminal, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(controller)
    assert process.stderr is not None
    process.stderr.close()
    return process.wait(timeout=120), seen.decode().replace("\r\n", "\n")


def plain(shown: str) -> list[str]:
    return [line.rstrip() for line in ANSI.sub("", shown).splitlines()]


def test_a_terminal_gets_spans_in_colour_control_tokens_highlighted_and_a_legend(folder):
    """On a terminal: each shot in its colour, the query bold, Llama 3's control tokens bold red; a legend names them."""
    status, shown = on_terminal(["preview", MMLU, "--model", LLAMA3, "--index", "3", "--quiet"], folder)
    assert status == 0
    assert "\x1b[1;31m<|eot_id|>" in shown and "\x1b[1;31m<|begin_of_text|>" in shown
    assert "\x1b[34mAnswer the following" in shown and "\x1b[36mAnswer the following" in shown  # shots 0 and 1 alternate
    assert "\x1b[1mA wave has a frequency" in shown  # the query
    legend = next(line for line in plain(shown) if line.startswith("legend:"))
    assert legend.startswith("legend: wrapper shot 0 shot 1 shot answer query <|…|> control token  ↵ newline  · trailing space")


def test_a_five_shot_row_folds_its_shots_to_one_line_each(folder):
    """A 5-shot row at 120 columns: one line per shot in the template output and in the final input; --full unfolds."""
    status, shown = on_terminal(["preview", MMLU, "--model", LLAMA3, "--index", "3", "--quiet"], folder)
    lines = plain(shown)
    assert status == 0 and len(lines) < 50  # 43; it was 154 before shots were folded
    assert [line[:26] for line in lines if line.startswith("shot ")] == [f"shot {n}        ⋯ Answer the" for n in range(5)]
    assert sum(line.startswith("⋯   <ice> shot ") for line in lines) == 5
    assert "query         │ Answer the following multiple choice questions about high school physics.↵" in lines
    status, shown = on_terminal(["preview", MMLU, "--model", LLAMA3, "--index", "3", "--quiet", "--full"], folder)
    lines = plain(shown)
    assert status == 0 and len(lines) > 140 and "⋯" not in "".join(lines)
    assert "              │ A car starts from rest and accelerates uniformly to 20 m/s in 5 s. What is its acceleration?↵" in lines


def test_newlines_trailing_spaces_and_wraps_are_marked_at_a_fixed_width(folder):
    """At 40 columns a wrapped line continues with ↪; a real newline ends its line with ↵; a trailing space shows as ·."""
    status, shown = on_terminal(["preview", "ds.py", "--dataset", "wrap_gen", "--quiet"], folder, columns=40)
    assert status == 0
    lines = plain(shown)
    final = lines.index("prompt: final input (completion strin… ─")
    assert lines[final + 1 : final + 5] == [
        "query │ Q: alpha beta gamma delta",
        "      ↪ epsilon zeta eta theta iota",
        "      ↪ kappa·↵",
        "      │ A:",
    ]
    assert lines[3] == "gold: 'yes' (column 'answer')"
    assert " ".join(lines[final + 5 :]) == (
        "legend: query ↵ newline  · trailing space  ↪ continues the line above (no newline there)"
    )


def test_tabs_and_zero_width_characters_are_shown(folder):
    """A tab shows as →, a zero-width space by its code point; the legend says so."""
    status, shown = on_terminal(["preview", "ds.py", "--dataset", "wrap_gen", "--index", "1", "--quiet"], folder, columns=60)
    lines = plain(shown)
    assert status == 0
    assert "query │ Q: tab→here and a zero⟨U+200B⟩width space·↵" in lines
    assert "→ tab  ⟨U+…⟩ an invisible character, by code point" in " ".join(lines)


def test_ppl_shows_the_shared_prefix_once_and_each_labels_continuation(folder):
    """ppl: the text both labels share, then each label's rest with its answer slot labelled (and underlined), gold marked."""
    status, shown = on_terminal(["preview", "ds.py", "--dataset", "wrap_ppl", "--model", "model.py", "--quiet"], folder, columns=60)
    assert status == 0
    lines = plain(shown)
    start = next(number for number, line in enumerate(lines) if line.startswith("labels 'yes', 'no': final input"))
    assert lines[start + 1 : start + 8] == [
        "query       │ <u>Q: alpha beta gamma delta epsilon zeta eta",
        "            ↪ theta iota kappa</u>↵",
        "wrapper     │ <b>",
        "label 'yes' (gold) continues with",
        "answer slot ↪ yes</b>",
        "label 'no' continues with",
        "answer slot ↪ no</b>",
    ]
    assert "\x1b[1;4;32myes" in shown  # the scored part: bold green underlined
    assert "answer slot: the label's text the model is scored on (underlined)" in " ".join(lines)


@pytest.mark.parametrize("no_color", ["1", "true"])
def test_no_color_turns_every_escape_off(folder, no_color):
    """NO_COLOR set and not empty: no escape sequence at all on the terminal, the same text as --color never."""
    status, shown = on_terminal(["preview", MMLU, "--model", LLAMA3, "--quiet"], folder, NO_COLOR=no_color)
    assert status == 0 and "\x1b" not in shown and "legend: wrapper" in shown
    status, never = on_terminal(["preview", MMLU, "--model", LLAMA3, "--quiet", "--color", "never"], folder)
    assert never == shown


def test_color_always_wins_over_no_color_and_an_empty_no_color_is_unset(folder):
    """--color always colours despite NO_COLOR; NO_COLOR='' is as if unset (no-color.org)."""
    for args, env in ((["--color", "always"], {"NO_COLOR": "1"}), ([], {"NO_COLOR": ""})):
        status, shown = on_terminal(["preview", MMLU, "--model", LLAMA3, "--quiet", *args], folder, **env)
        assert status == 0 and "\x1b[1;31m<|eot_id|>" in shown


def test_use_color_follows_the_flag_the_terminal_and_no_color():
    """auto: a terminal without NO_COLOR; always and never as they say."""

    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    assert use_color("auto", Stream(True), {}) and not use_color("auto", Stream(False), {})
    assert not use_color("auto", Stream(True), {"NO_COLOR": "1"}) and use_color("auto", Stream(True), {"NO_COLOR": ""})
    assert use_color("always", Stream(False), {"NO_COLOR": "1"}) and not use_color("never", Stream(True), {})


def test_two_models_are_shown_one_after_the_other_for_each_row(folder, capsys):
    """--model A --model B: each row for A then B, labelled; render writes both models' records."""
    assert main(["preview", str(folder / "ds.py"), "--dataset", "wrap_gen", "--model", str(folder / "model.py"),
                 "--model", str(folder / "chat.py"), "--count", "2", "--color", "never"]) == 0
    heads = [line.strip("─ ") for line in capsys.readouterr().out.splitlines() if "· gen ·" in line]
    assert heads == [
        "wrap_gen · row 0 · gen · tiny-chat (model 1 of 2)", "wrap_gen · row 0 · gen · api (model 2 of 2)",
        "wrap_gen · row 1 · gen · tiny-chat (model 1 of 2)", "wrap_gen · row 1 · gen · api (model 2 of 2)",
    ]
    assert main(["render", str(folder / "ds.py"), "--dataset", "wrap_gen", "--model", str(folder / "model.py"), "--model", str(folder / "chat.py")]) == 0
    assert [json.loads(line)["model"] for line in capsys.readouterr().out.splitlines()] == ["tiny-chat", "tiny-chat", "api", "api"]


def test_dataset_takes_a_glob_and_says_what_it_matched(folder, capsys):
    """--dataset 'wrap_*' picks both datasets and says so on stderr; a glob matching none is an error listing the abbrs."""
    assert main(["render", str(folder / "ds.py"), "--dataset", "wrap_*", "--indices", "0"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["dataset"] for line in captured.out.splitlines()] == ["wrap_gen", "wrap_ppl", "wrap_ppl"]
    assert captured.err == "promptkit: --dataset 'wrap_*' matches 2 of 2 datasets: 'wrap_gen', 'wrap_ppl'\n"
    assert main(["preview", str(folder / "ds.py"), "--dataset", "*_ppl", "--color", "never"]) == 0
    captured = capsys.readouterr()
    assert "wrap_ppl · row 0 · ppl" in captured.out and "wrap_gen" not in captured.out
    assert main(["preview", str(folder / "ds.py"), "--dataset", "mmlu_*"]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {folder / 'ds.py'}: no dataset abbr matches 'mmlu_*'; the config has 'wrap_gen', 'wrap_ppl'\n"
    )


@pytest.mark.parametrize("verb", ["preview", "render"])
def test_a_closed_pipe_exits_0(folder, verb):
    """`promptkit preview ... | head -1` in a shell: exit status 0 and nothing on stderr, colour forced or not."""
    (folder / "rows.jsonl").write_text("".join(json.dumps(ROWS[0]) + "\n" for _ in range(3000)))
    extra = "--count 3000 --color always" if verb == "preview" else ""
    command = f"{shlex.quote(sys.executable)} -m promptkit {verb} ds.py --dataset wrap_gen {extra} | head -1; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=ENV, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr, len(done.stdout.splitlines())) == (0, "", 1)


def test_version(capsys):
    """`promptkit --version` prints the installed version and exits 0."""
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out == f"promptkit {importlib.metadata.version('promptkit')}\n"


def commands() -> list[str]:
    """Every command of the parser (argparse keeps the subparsers' type private; it is how a parser lists them)."""
    subparsers = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    return sorted(subparsers.choices)


@pytest.mark.parametrize("command", ["", *commands()])
def test_every_help_ends_with_examples(command, capsys):
    """The top level's and every command's --help end with examples of that command."""
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"] if command else ["--help"])
    assert exit.value.code == 0
    help_text = capsys.readouterr().out
    examples = help_text.split("\nexamples:\n", 1)[1].splitlines()
    assert examples and all(line.startswith("  # ") or line.startswith("  promptkit ") for line in examples)
    assert any(line.startswith(f"  promptkit {command}".rstrip()) for line in examples)


EXAMPLE_LINES = [(command, example) for command, each in EXAMPLES.items() for _, example in each if example != "promptkit --version"]


@pytest.mark.parametrize(("command", "example"), EXAMPLE_LINES)
def test_every_example_parses(command, example):
    """Each example is a valid command line: its arguments parse, and the files it names exist in the checkout."""
    words = shlex.split(example.split(" | ")[0])[1:]
    args = build_parser().parse_args(words)
    assert args.command == command or command == "promptkit"
    for word in words:
        if word.startswith("configs/"):
            assert (ROOT / word).exists(), word


def test_a_prompt_with_media_is_shown_uncoloured_and_the_legend_says_why(capsys):
    """A multimodal prompt has no spans: its media parts are described, and the legend says why the text has no colours."""
    config, model = ROOT / "configs/datasets/vqa_demo/vqa_demo_columns_gen.py", ROOT / "configs/models/llava_1_5_7b.py"
    assert main(["preview", str(config), "--model", str(model), "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "media, in placeholder order:" in out
    assert "no spans: the prompt has media parts, so its text is shown uncoloured" in " ".join(out.split())
