"""The examples at the end of each command's ``--help``: commands that run as written from a promptkit checkout."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["EXAMPLES", "with_examples"]

_MMLU = "configs/datasets/mmlu_demo/mmlu_demo_gen.py"
_LLAMA3 = "configs/models/llama3_8b_instruct.py"
_LLAMA31_META = "configs/models/chat_template/llama3_1_8b_instruct_meta.py"
_LMEVAL = "configs/lmeval/mmlu_demo.yaml"

#: Each command's examples: (what it does, the command).
EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "promptkit": (
        ("look at the prompt row 3 gives Llama 3", f"promptkit preview {_MMLU} --model {_LLAMA3} --index 3"),
        ("write every prompt as JSON Lines", f"promptkit render {_MMLU} --model {_LLAMA3} --out prompts.jsonl"),
        ("the version", "promptkit --version"),
    ),
    "preview": (
        ("row 3 for Llama 3, colours and spans", f"promptkit preview {_MMLU} --model {_LLAMA3} --index 3"),
        ("two models one after the other", f"promptkit preview {_MMLU} --model {_LLAMA3} --model configs/models/qwen2_5_7b_instruct.py"),
        ("every shot in full, no colour", f"promptkit preview {_MMLU} --full --color never"),
        ("a ppl dataset: the shared prefix, then each label", "promptkit preview configs/datasets/hellaswag_demo/hellaswag_demo_ppl.py"),
        ("only the datasets matching a glob", f"promptkit preview {_MMLU} --dataset 'mmlu_*'"),
    ),
    "render": (
        ("all rows to a file", f"promptkit render {_MMLU} --model {_LLAMA3} --out prompts.jsonl"),
        ("rows 0 to 9 with their spans, to stdout", f"promptkit render {_MMLU} --indices 0-9 --spans | head -1"),
        ("with token ids, labels and the answer loss mask", f"promptkit render {_MMLU} --model {_LLAMA3} --tokenizer tokenizer.json --tokens --indices 0"),
        ("two models into one file", f"promptkit render {_MMLU} --model {_LLAMA3} --model configs/models/gpt_4o_api.py --out both.jsonl"),
        (
            "an lm-eval task as lm-eval --apply_chat_template builds it, as vLLM requests",
            f"promptkit render {_LMEVAL} --model configs/models/chat_template/llama3_1_8b_instruct.py --as vllm --out requests.jsonl",
        ),
    ),
    "view": (
        ("one page for a dataset and Llama 3", f"promptkit view {_MMLU} --model {_LLAMA3} --out view.html"),
        (
            "a dialogue, two models side by side",
            "promptkit view configs/datasets/mtbench_demo/mtbench_demo_every_with_gt.py "
            f"--model {_LLAMA3} --model configs/models/gpt_4o_api.py --out dialogue.html",
        ),
        ("the first 20 rows of two ppl configs on one page", "promptkit view configs/datasets/hellaswag_demo/hellaswag_demo_ppl.py configs/datasets/arc_demo/arc_demo_few_shot_ppl.py --dataset '*' --indices :20 --out ppl.html"),
    ),
    "lint": (
        ("the hazards of a dataset config's templates and 20 of its rows", f"promptkit lint {_MMLU}"),
        ("with a model's roles, media placeholders and control tokens; exit 1 on findings", f"promptkit lint {_MMLU} --model {_LLAMA3} --strict"),
    ),
    "check-template": (
        ("meta template vs chat template: all 4 probes agree", "promptkit check-template configs/models/chat_template/chatml_generation_meta.py"),
        ("the first divergence on a dataset's first 3 rows (exit 1)", f"promptkit check-template {_LLAMA31_META} {_MMLU} --count 3"),
        ("a model's control tokens", "promptkit check-template configs/models/qwen2_5_7b_instruct.py --tokens"),
    ),
    "diff": (
        (
            "two models on one dataset's first rows: which pieces differ",
            f"promptkit diff {_MMLU} --model {_LLAMA3} --model configs/models/qwen2_5_7b_instruct.py --indices 0-2",
        ),
        ("how lm-eval and OpenCompass prompt the same rows, piece by piece", f"promptkit diff {_LMEVAL} {_MMLU} --indices 0"),
        (
            "a meta template against the chat template it imitates (exit 1 when they differ)",
            f"promptkit diff {_MMLU} --model configs/models/chat_template/llama3_1_8b_instruct.py --model {_LLAMA31_META} --indices 0",
        ),
        ("two render outputs (written with --spans), and the browser view", "promptkit diff before.jsonl after.jsonl --html diff.html"),
    ),
    "snapshot": (
        ("pin a config's prompts for a model", f"promptkit snapshot write prompt_snapshot {_MMLU} --model {_LLAMA3}"),
        ("render them again: exit 1 with the diff when one changed", "promptkit snapshot check prompt_snapshot"),
    ),
    "validate": (
        ("check a data file of the standard format", "promptkit validate configs/datasets/standard_sample_demo/data/samples.jsonl --format standard"),
        ("report bad records but exit 0", "promptkit validate configs/datasets/xpert_demo/data/xpert_bad.jsonl --format xpert --allow-bad"),
    ),
}


_HEADING = "examples:"


class _Formatter(argparse.HelpFormatter):
    """argparse's layout, except that the examples keep their lines (the description is still filled to the width)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(_HEADING):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def with_examples(command: str) -> dict[str, Any]:
    """``ArgumentParser`` keywords that end ``command``'s ``--help`` with its :data:`EXAMPLES`, laid out as written."""
    lines = [_HEADING]
    for what, example in EXAMPLES[command]:
        lines += [f"  # {what}", f"  {example}"]
    return {"epilog": "\n".join(lines), "formatter_class": _Formatter}
