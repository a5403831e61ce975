"""Where a benchmark's rows come from: the local layouts EvalScope's loaders read, and ``--rows`` files.

Each source answers :meth:`~RowFiles.rows` for a *loader subset* (the data's config, e.g. ``main`` for GSM8K,
``all`` for MMLU, ``default`` for most) and a split.  Nothing is downloaded.

* :class:`HubFolder` — a Hugging Face ``datasets`` folder, as EvalScope reads a local ``dataset_id``
  (``datasets.load_dataset(folder, name=subset, split=split)``): a ``README.md`` whose front matter declares
  ``configs`` (a ``config_name`` per loader subset, ``data_files`` per split), else, for the subset ``default``, the
  data files whose names say their split (``train``/``training``; ``validation``/``valid``/``dev``/``val``;
  ``test``/``testing``/``eval``/``evaluation``), in the folder or its ``data/`` folder.  A file named exactly after
  the split (``dev.jsonl``) is read too, which ``datasets`` would map to ``validation``.  Every row has every
  column of its split (a missing value is ``None``), as in an Arrow table.
* :class:`LocalFiles` — EvalScope's local file loader (``general_qa``, ``general_mcq``, adapters that pick it): the
  first of ``<subset>_<split>.<ext>`` and ``<subset>.<ext>`` that exists, extensions ``jsonl``, ``csv``, ``parquet`` in
  that order; a path to one such file serves every subset and split.
* :class:`GivenFiles` — ``--rows SUBSET:SPLIT=FILE`` (any format promptkit reads) for the splits it names, the
  folder (if any) for the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from promptkit.data.loaders import read_rows
from promptkit.data.sources import KNOWN_SUFFIXES
from promptkit.errors import DatasetError

__all__ = ["GivenFiles", "HubFolder", "LocalFiles", "RowFiles", "SPLIT_WORDS"]

#: The words ``datasets`` reads a split from in a file name, by split.
SPLIT_WORDS: Mapping[str, tuple[str, ...]] = {
    "train": ("train", "training"),
    "validation": ("validation", "valid", "dev", "val"),
    "test": ("test", "testing", "eval", "evaluation"),
}
_DELIMITERS = re.compile(r"[-._ 0-9/]+")
_LOCAL_SUFFIXES = (".jsonl", ".csv", ".parquet")

Rows = list[dict[str, Any]]


class RowFiles(Protocol):
    """A source of rows by loader subset and split."""

    def rows(self, subset: str, split: str) -> tuple[Rows, str]:
        """The rows of ``split`` of the loader subset ``subset``, and where they were read (for messages)."""
        ...


@dataclass(frozen=True)
class HubFolder:
    """A local Hugging Face ``datasets`` folder (see the module docstring)."""

    root: Path

    def rows(self, subset: str, split: str) -> tuple[Rows, str]:
        files = self.files(subset, split)
        rows: Rows = []
        for path in files:
            rows.extend(read_rows(path))
        return _every_column(rows), ", ".join(str(path) for path in files)

    def files(self, subset: str, split: str) -> list[Path]:
        """The data files of ``split`` of ``subset``."""
        configs = _readme_configs(self.root)
        if configs is not None:
            return self._configured(configs, subset, split)
        if subset != "default":
            raise DatasetError(
                f"{self.root} has no README.md declaring configs, so it holds only the subset 'default', not {subset!r}; "
                f"declare the configs in README.md as datasets reads them, or give the rows with --rows {subset}:{split}=FILE",
                file=str(self.root),
            )
        return self._inferred(split)

    def _configured(self, configs: list[dict[str, Any]], subset: str, split: str) -> list[Path]:
        names = [str(config.get("config_name", "default")) for config in configs]
        if subset in names:
            config = configs[names.index(subset)]
        elif subset == "default" and len(configs) == 1:
            config = configs[0]
        elif subset == "default" and any(config.get("default") for config in configs):
            config = next(config for config in configs if config.get("default"))
        else:
            raise DatasetError(
                f"README.md declares the configs {names}, not the loader subset {subset!r}; add it, or give the rows with "
                f"--rows {subset}:{split}=FILE",
                file=str(self.root / "README.md"),
            )
        by_split = _data_files(config.get("data_files"))
        patterns = by_split.get(split)
        if patterns is None:
            raise DatasetError(
                f"README.md config {names[configs.index(config)]!r} has the splits {sorted(by_split)}, not {split!r}; add its "
                f"data_files, or give the rows with --rows {subset}:{split}=FILE",
                file=str(self.root / "README.md"),
            )
        found = [path for pattern in patterns for path in sorted(self.root.glob(pattern)) if path.is_file()]
        if not found:
            raise DatasetError(f"README.md names {patterns} for split {split!r} of {subset!r}, and no such file exists", file=str(self.root))
        return found

    def _inferred(self, split: str) -> list[Path]:
        candidates = [path for folder in (self.root, self.root / "data") if folder.is_dir() for path in sorted(folder.iterdir()) if _is_data(path)]
        exact = [path for path in candidates if _stem(path) == split]
        if exact:
            return exact
        words = SPLIT_WORDS.get(split, ())
        found = [path for path in candidates if set(_DELIMITERS.split(_stem(path).lower())) & set(words)]
        if not found:
            present = ", ".join(path.name for path in candidates) or "no data files"
            raise DatasetError(
                f"no data file of split {split!r} in {self.root} (it holds {present}); name the file after the split "
                f"({split}.jsonl), declare configs in README.md, or give the rows with --rows {split}=FILE",
                file=str(self.root),
            )
        return found


@dataclass(frozen=True)
class LocalFiles:
    """EvalScope's local file loader (see the module docstring)."""

    root: Path

    def rows(self, subset: str, split: str) -> tuple[Rows, str]:
        if self.root.is_file():
            if self.root.suffix not in _LOCAL_SUFFIXES:
                raise DatasetError(f"EvalScope's local loader reads {', '.join(_LOCAL_SUFFIXES)} files, not {self.root.suffix!r}", file=str(self.root))
            return read_rows(self.root), str(self.root)
        for suffix in _LOCAL_SUFFIXES:
            for name in (f"{subset}_{split}{suffix}", f"{subset}{suffix}"):
                path = self.root / name
                if path.exists():
                    return read_rows(path), str(path)
        if not self.root.is_dir():
            raise DatasetError(f"the data folder {self.root} does not exist", file=str(self.root))
        expected = ", ".join(f"{subset}_{split}{suffix}" for suffix in _LOCAL_SUFFIXES)
        present = ", ".join(sorted(path.name for path in self.root.iterdir() if path.suffix in _LOCAL_SUFFIXES)) or "none"
        raise DatasetError(
            f"no file for subset {subset!r}, split {split!r} in {self.root}: expected one of {expected} (or {subset}.jsonl …); "
            f"data files there: {present}",
            file=str(self.root),
        )


@dataclass(frozen=True)
class GivenFiles:
    """``--rows`` files by (loader subset, split), over a folder for the splits they do not name (see the module docstring)."""

    files: Mapping[tuple[str, str], Path]
    folder: RowFiles | None = None
    used: set[tuple[str, str]] = field(default_factory=set, compare=False)

    def rows(self, subset: str, split: str) -> tuple[Rows, str]:
        path = self.files.get((subset, split))
        if path is not None:
            self.used.add((subset, split))
            return read_rows(path), str(path)
        if self.folder is not None:
            return self.folder.rows(subset, split)
        given = ", ".join(f"{s}:{p}" for s, p in self.files)
        raise DatasetError(f"no rows for subset {subset!r}, split {split!r}: --rows gives {given}; add --rows {subset}:{split}=FILE")


def _readme_configs(root: Path) -> list[dict[str, Any]] | None:
    """The ``configs`` list of the YAML front matter of ``root/README.md``, or ``None`` without one."""
    readme = root / "README.md"
    if not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8")
    match = re.match(r"---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(\r?\n|$)", text, re.S)
    if match is None:
        return None
    import yaml  # mmengine's dependency: read only for a folder with a README

    try:
        front = yaml.safe_load(match.group(1))
    except yaml.YAMLError as error:
        raise DatasetError(f"the front matter of README.md is not YAML: {error}", file=str(readme)) from None
    configs = front.get("configs") if isinstance(front, dict) else None
    if configs is None:
        return None
    if not isinstance(configs, list) or not all(isinstance(config, dict) for config in configs):
        raise DatasetError("README.md's configs must be a list of mappings with config_name and data_files", file=str(readme))
    return configs


def _data_files(value: Any) -> dict[str, list[str]]:
    """A config's ``data_files`` as split → path patterns (a bare path or list of paths is the split ``train``)."""
    if value is None:
        return {}
    if isinstance(value, (str, list)) and not (isinstance(value, list) and value and isinstance(value[0], dict)):
        return {"train": [value] if isinstance(value, str) else [str(item) for item in value]}
    if isinstance(value, dict):
        return {str(split): [paths] if isinstance(paths, str) else [str(path) for path in paths] for split, paths in value.items()}
    out: dict[str, list[str]] = {}
    for entry in value:
        paths = entry.get("path", [])
        out.setdefault(str(entry.get("split", "train")), []).extend([paths] if isinstance(paths, str) else [str(path) for path in paths])
    return out


def _is_data(path: Path) -> bool:
    return path.is_file() and any(path.name.endswith(suffix) for suffix in KNOWN_SUFFIXES)


def _stem(path: Path) -> str:
    name = path.name
    for suffix in KNOWN_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _every_column(rows: Rows) -> Rows:
    """Rows with every column of the split, missing values ``None`` (an Arrow table's rows)."""
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    if all(len(row) == len(columns) for row in rows):
        return rows
    return [{column: row.get(column) for column in columns} for row in rows]
