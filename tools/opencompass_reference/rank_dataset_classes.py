"""Rank OpenCompass's dataset classes by how many dataset config files use them.

    python3 tools/opencompass_reference/rank_dataset_classes.py REPO [--top 40] [--rev HEAD]

REPO is a clone (or bare mirror) of OpenCompass's repository.  For every file
under ``opencompass/configs/datasets/`` (``*.py``) at ``--rev``, the script
parses the source (``ast``; nothing is executed), collects the names imported
from ``opencompass.datasets`` (or one of its submodules) and counts the file for
each such name that it uses as the ``type`` of a dataset entry: a ``dict(...)``
call or ``{...}`` literal whose ``type`` is that name and which also has one of
the keys ``abbr``, ``path``, ``reader_cfg``, ``infer_cfg``,
``eval_cfg``, and which is not the value of an ``evaluator``,
``pred_postprocessor`` or ``dataset_postprocessor`` key (evaluator and
postprocessor classes live in ``opencompass.datasets`` too).  It prints a Markdown table: rank, class,
number of config files.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections import Counter

CONFIG_DIR = "opencompass/configs/datasets/"
#: Keys of a dataset entry besides ``type``.
DATASET_KEYS = frozenset({"abbr", "path", "reader_cfg", "infer_cfg", "eval_cfg"})
#: Keys whose value is an evaluator or a postprocessor entry.
NOT_DATASET_KEYS = frozenset({"evaluator", "pred_postprocessor", "dataset_postprocessor"})


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def dataset_classes_used(source: str) -> set[str]:
    """Names imported from ``opencompass.datasets[...]`` that the config uses as ``type=``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    imported: dict[str, str] = {}  # local name -> class name
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[:2] == ["opencompass", "datasets"]:
            for alias in node.names:
                imported[alias.asname or alias.name] = alias.name
    # An evaluator or postprocessor entry may name a path too; it is never a dataset entry.
    not_datasets = {id(value) for node in ast.walk(tree) for key, value in _fields(node).items() if key in NOT_DATASET_KEYS}
    used: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in not_datasets:
            continue
        fields = _fields(node)
        value = fields.get("type")
        # A dataset entry also names its data or its reader (an evaluator or postprocessor entry does neither).
        if isinstance(value, ast.Name) and value.id in imported and DATASET_KEYS & fields.keys():
            used.add(imported[value.id])
    return used


def _fields(node: ast.AST) -> dict[str, ast.expr]:
    """The keys of a ``dict(...)`` call or a ``{...}`` literal with their values (``**`` entries left out)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg is not None}
    if isinstance(node, ast.Dict):
        return {
            key.value: value
            for key, value in zip(node.keys, node.values, strict=True)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)
        }
    return {}


def rank(repo: str, rev: str) -> tuple[Counter[str], int]:
    """(files per class, number of config files read)."""
    paths = [p for p in _git(repo, "ls-tree", "-r", "--name-only", rev, "--", CONFIG_DIR).splitlines() if p.endswith(".py")]
    counts: Counter[str] = Counter()
    for path in paths:
        counts.update(dataset_classes_used(_git(repo, "show", f"{rev}:{path}")))
    return counts, len(paths)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", help="path of an OpenCompass clone or bare mirror")
    parser.add_argument("--rev", default="HEAD", help="the commit to read (default HEAD)")
    parser.add_argument("--top", type=int, default=40, help="rows of the table (default 40)")
    args = parser.parse_args(argv)
    counts, files = rank(args.repo, args.rev)
    commit = _git(args.repo, "rev-parse", args.rev).strip()
    out = sys.stdout
    out.write(f"{files} config files under {CONFIG_DIR} at {commit[:12]}; {len(counts)} dataset classes used as type=.\n\n")
    out.write("| rank | class | config files |\n|---:|---|---:|\n")
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    for number, (name, count) in enumerate(ordered[: args.top], start=1):
        out.write(f"| {number} | `{name}` | {count} |\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
