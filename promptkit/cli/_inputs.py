"""The files a run reads, so that ``render --out`` can refuse to write over one of them before anything is rendered.

Known inputs: the dataset and model config files and the files they include
(``with read_base(): from .x import ...`` and ``_base_ = [...]``), each
dataset's data files, the ``--replies``, ``--rows`` and ``--tokenizer`` files
(``--rows -``: the file standard input reads, through ``/dev/stdin``), a model's
tokenizer file and the chat-template files of its model folder.  Media files
are named by rows and only known while rendering; they are not checked.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from promptkit.data.loaders import _resolve
from promptkit.data.sources.stdin import names_stdin
from promptkit.errors import ConfigError, PromptkitError
from promptkit.frontends.opencompass import DatasetSpec
from promptkit.meta_templates import Model

__all__ = ["InputFile", "config_files", "dataset_inputs", "model_inputs", "refuse_overwrite", "rows_input"]

#: The files of a model folder that a chat-template model reads (see ChatTemplate.from_folder).
_MODEL_FOLDER_FILES = ("tokenizer_config.json", "special_tokens_map.json", "chat_template.jinja", "tokenizer.json")


@dataclass(frozen=True)
class InputFile:
    """A file the run reads, and what it is to the run (for the message)."""

    path: Path
    what: str


def refuse_overwrite(out: str, inputs: Iterable[InputFile]) -> None:
    """Raise when ``out`` is (by path, symlink or hard link) one of ``inputs``."""
    if not os.path.exists(out):
        return
    for known in inputs:
        try:
            same = os.path.samefile(out, known.path)
        except OSError:  # an input that does not exist: its own error comes when it is read
            continue
        if same:
            where = "" if str(known.path) == out else f" ({known.path})"
            raise ConfigError(f"--out {out} is {known.what}{where}; writing there would destroy an input of this run: choose another output file")


def rows_input(rows: str) -> InputFile:
    """A ``--rows`` file (``SPLIT=FILE`` or ``SUBSET:SPLIT=FILE``: its file); standard input (``-``) as ``/dev/stdin``,
    which names the file a ``< rows.jsonl`` redirects from."""
    path = rows.split("=", 1)[1] if "=" in rows and not Path(rows).exists() else rows
    return InputFile(Path("/dev/stdin" if names_stdin(path) else path), "the --rows file")


def config_files(path: str | Path, what: str) -> Iterator[InputFile]:
    """A config file and, recursively, the config files it includes."""
    seen: set[Path] = set()
    pending = [(Path(path), what)]
    while pending:
        file, role = pending.pop()
        resolved = file.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        yield InputFile(file, role)
        pending.extend((base, f"a file {what} includes") for base in _includes(file))


def _includes(file: Path) -> list[Path]:
    """The files a config includes, as mmengine finds them: relative ``read_base()`` imports and ``_base_``."""
    try:
        tree = ast.parse(file.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.With) and any(_is_read_base(item.context_expr) for item in node.items):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.level > 0 and statement.module:
                    folder = file.parent.joinpath(*[".."] * (statement.level - 1))
                    found.append(folder.joinpath(*statement.module.split(".")).with_suffix(".py"))
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_base_" for t in node.targets):
            try:
                bases = ast.literal_eval(node.value)
            except ValueError:
                continue
            for base in [bases] if isinstance(bases, str) else bases if isinstance(bases, (list, tuple)) else []:
                if isinstance(base, str) and "::" not in base:
                    found.append(file.parent / base)
    return found


def _is_read_base(expr: ast.expr) -> bool:
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    return (func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None) == "read_base"


def dataset_inputs(dataset: DatasetSpec) -> Iterator[InputFile]:
    """The data files of a dataset (any loader with a ``path``: one file, or a dict of split → file)."""
    path: Any = getattr(dataset.loader, "path", None)
    base_dir = dataset.config_path.parent if dataset.config_path else None
    files = path.items() if isinstance(path, Mapping) else [(None, path)] if isinstance(path, (str, os.PathLike)) else []
    for split, file in files:
        if not isinstance(file, (str, os.PathLike)):
            continue
        try:
            resolved = _resolve(os.fspath(file), base_dir)
        except PromptkitError:  # not found: reading it says so
            continue
        split_words = f"the {split!r} " if split is not None else "the "
        yield InputFile(resolved, f"{split_words}data file of dataset {dataset.abbr!r}")


def model_inputs(model: Model) -> Iterator[InputFile]:
    """The tokenizer file and the chat-template folder files a model read."""
    tokenizer = getattr(model.token_counter, "path", None)
    if isinstance(tokenizer, Path):
        yield InputFile(tokenizer, f"the tokenizer file of model {model.abbr!r}")
    origin = getattr(getattr(model, "chat_template", None), "origin", "inline")  # a folder, or "inline"
    folder = Path(origin)
    if origin != "inline" and folder.is_dir():
        for name in _MODEL_FOLDER_FILES:
            yield InputFile(folder / name, f"a file of the model folder of model {model.abbr!r}")
        for file in sorted((folder / "additional_chat_templates").glob("*.jinja")):
            yield InputFile(file, f"a chat template of model {model.abbr!r}")
