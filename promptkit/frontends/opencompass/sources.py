"""Where a dataset config's rows come from: its ``type=`` loader, ``--rows``, ``--data-root``, and OpenCompass's ``n``.

* :class:`RowSource` is what the caller adds: ``data_root`` (the folder
  OpenCompass's dataset classes read, default ``$COMPASS_DATA_CACHE``) and
  ``rows`` (a data file of any format promptkit reads, that feeds every dataset
  instead of its loader, as every split the dataset reads: :class:`RowsFileDataset`; ``-`` or
  ``/dev/stdin``: JSON Lines piped to standard input, read once for every dataset: :class:`StdinRowsDataset`).
* ``n`` and ``k`` are keys of OpenCompass's ``BaseDataset``, not of a loader:
  every split is repeated ``n`` times (:class:`RepeatedDataset`), and ``k``
  (for pass@k, which promptkit does not compute) must not exceed ``n``.
* ``circular=dict(...)`` reorders the options of the test split's rows, once per
  pattern (:class:`CircularDataset`, :mod:`promptkit.data.circular`).
* A dataset class imported from OpenCompass or AISBench that promptkit does not
  read natively (a :class:`~promptkit.frontends.opencompass.engine_imports.Foreign`) is read
  by the real class when its package is installed (:class:`EngineDataset`);
  otherwise loading its rows is an error that says the ways on
  (:class:`UnreadableDataset`).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from promptkit.data.circular import Circular
from promptkit.data.loaders import Splits, read_file, read_splits, stream_path
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.data.progress import current_progress
from promptkit.data.sources import saved_splits
from promptkit.data.sources.stdin import StdinReader
from promptkit.data.streaming import FileRows
from promptkit.errors import ConfigError, DatasetError
from promptkit.frontends.opencompass.engine_imports import Foreign, installed

__all__ = [
    "CircularDataset",
    "EngineDataset",
    "RepeatedDataset",
    "RowSource",
    "RowsFileDataset",
    "StdinRowsDataset",
    "UnreadableDataset",
    "engine_dataset",
    "repetition",
]

#: The engines' names, as their users know them.
_ENGINE_NAMES = {"opencompass": "OpenCompass", "ais_bench": "AISBench"}
#: The environment variables the engines read their data folder from.
_DATA_ROOT_ENVS = (DATA_ROOT_ENV, "AIS_BENCH_DATASETS_CACHE")

_Value = TypeVar("_Value")


@dataclass(frozen=True)
class RowSource:
    """What the caller says about rows: the data folder, and a data file (or standard input) to use instead of every loader."""

    data_root: Path | None = None
    rows: Path | StdinRowsDataset | None = None


class RowsFileDataset:
    """The rows of one data file (``--rows``, any format of :mod:`promptkit.data.sources`) as every split: the config's
    ``train_split``, ``test_split``, ``dev`` …; a ``DatasetDict.save_to_disk`` folder gives its own splits instead."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def data_dir(self, base_dir: Path | None) -> Path:
        return Path(self.path).parent

    def load(self, base_dir: Path | None = None) -> Splits:
        progress = current_progress()
        splits = read_splits(Path(self.path), progress=progress)
        if splits is not None:
            return splits
        rows, schema = read_file(Path(self.path), progress=progress)
        return Splits(_EverySplit(rows), schemas=_EverySplit(schema) if schema is not None else {})

    def stream(self, base_dir: Path | None = None) -> Splits:
        """As :meth:`load`, the rows read lazily (:class:`~promptkit.data.streaming.FileRows`)."""
        path = Path(self.path)
        if path.is_dir() and saved_splits(path) is not None:
            return stream_path(path)
        rows = FileRows(path)
        schema = rows.schema
        return Splits(_EverySplit(rows), schemas=_EverySplit(schema) if schema is not None else {})

    def __repr__(self) -> str:
        return f"RowsFileDataset({self.path!r})"


class StdinRowsDataset:
    """``--rows -``: the JSON Lines piped to standard input (:mod:`promptkit.data.sources.stdin`) as every split.

    One object serves every dataset of a config: standard input is read once, when the first dataset loads its rows
    (a failure is kept, and is each dataset's). Relative media paths resolve against the current folder.
    """

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] | None = None
        self._failure: DatasetError | None = None

    def data_dir(self, base_dir: Path | None) -> Path:
        return Path.cwd()

    def load(self, base_dir: Path | None = None) -> Splits:
        if self._failure is not None:
            raise self._failure
        if self._rows is None:
            try:
                self._rows = StdinReader(progress=current_progress()).read_all()
            except DatasetError as error:
                self._failure = error
                raise
        return Splits(_EverySplit(list(self._rows)))

    def __repr__(self) -> str:
        return "StdinRowsDataset()"


class _EverySplit(Mapping[str, _Value]):
    """The same rows (or schema) under any split name."""

    def __init__(self, rows: _Value) -> None:
        self.rows = rows

    def __getitem__(self, split: str) -> _Value:
        return self.rows

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def repetition(cfg: Mapping[str, Any]) -> int:
    """``n`` of a dataset config (default 1), checked with ``k`` as OpenCompass's ``BaseDataset`` checks them."""
    n = cfg.get("n", 1)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"n (how many times every split is repeated) must be a positive integer (got {n!r})", key="n")
    k = cfg.get("k", 1)
    ks = k if isinstance(k, (list, tuple)) else [k]
    if not ks or any(isinstance(value, bool) or not isinstance(value, int) or value < 1 for value in ks):
        raise ConfigError(f"k must be a positive integer or a list of them (got {k!r})", key="k")
    if max(ks) > n:
        raise ConfigError(f"k={k!r} must not exceed n={n} (the rows are repeated n times; pass@k picks k of them)", key="k")
    return n


class RepeatedDataset:
    """A loader whose every split is repeated ``n`` times, as OpenCompass's ``BaseDataset`` does for ``n=``."""

    def __init__(self, loader: Any, n: int) -> None:
        self.loader = loader
        self.n = n

    @property
    def path(self) -> Any:
        """The wrapped loader's ``path`` (the files a run reads)."""
        return getattr(self.loader, "path", None)

    def data_dir(self, base_dir: Path | None) -> Path | None:
        return getattr(self.loader, "data_dir", lambda _: base_dir)(base_dir)

    def load(self, base_dir: Path | None = None) -> Splits:
        splits = self.loader.load(base_dir)
        if splits.shared is not None:
            return replace(splits, shared=splits.shared * self.n)
        if isinstance(splits.by_name, _EverySplit):
            return replace(splits, by_name=_EverySplit(splits.by_name.rows * self.n))
        return replace(splits, by_name={name: rows * self.n for name, rows in splits.by_name.items()})

    def __repr__(self) -> str:
        return f"RepeatedDataset({self.loader!r}, n={self.n})"


class CircularDataset:
    """A loader whose split(s) under test hold each row once per order of its options (``circular=`` of a dataset config).

    ``test_split`` is the reader's: the split permuted when ``circular.splits``
    is not given.  The loader's own hooks (calibration rows, request fields)
    are its hooks too.
    """

    def __init__(self, loader: Any, circular: Circular, test_split: str) -> None:
        self.loader = loader
        self.circular = circular
        self.splits = circular.splits if circular.splits is not None else (test_split,)

    def __getattr__(self, name: str) -> Any:
        # The wrapped loader's hooks and attributes (path, data_dir, calib_row, request_fields), if it has them; not its
        # stream(): the rows under test are expanded as they are loaded, so a permuted dataset is read whole.
        if name.startswith("__") or name in ("loader", "circular", "splits", "stream"):
            raise AttributeError(name)
        return getattr(self.loader, name)

    def permutation(self, row: Mapping[str, Any]) -> str | None:
        """The row's order of options, e.g. ``'BCDA'`` (see :meth:`Circular.permutation`)."""
        return self.circular.permutation(row)

    def load(self, base_dir: Path | None = None) -> Splits:
        splits = self.loader.load(base_dir)
        expand = self.circular.expand
        if splits.shared is not None:
            return replace(splits, shared=expand(splits.shared))
        if isinstance(splits.by_name, _EverySplit):
            return replace(splits, by_name=_EverySplit(expand(splits.by_name.rows)))
        missing = [split for split in self.splits if split not in splits.by_name]
        if missing:
            raise DatasetError(
                f"circular: the dataset has no split {missing[0]!r} to permute (its splits: {sorted(splits.by_name)}); set circular.splits",
                key="circular.splits",
            )
        return replace(splits, by_name={name: expand(rows, name) if name in self.splits else rows for name, rows in splits.by_name.items()})

    def __repr__(self) -> str:
        return f"CircularDataset({self.loader!r}, mode={self.circular.mode!r})"


def engine_dataset(foreign: Foreign, keywords: Mapping[str, Any], data_root: Path | None) -> EngineDataset | UnreadableDataset:
    """The loader of a dataset class promptkit does not read: the real class if its package is installed."""
    if installed(foreign.module.split(".")[0]):
        return EngineDataset(foreign, keywords, data_root)
    return UnreadableDataset(foreign)


class UnreadableDataset:
    """A dataset class promptkit does not read, whose engine is not installed: loading its rows says the ways on."""

    def __init__(self, foreign: Foreign) -> None:
        self.foreign = foreign

    def load(self, base_dir: Path | None = None) -> Splits:
        engine = self.foreign.module.split(".")[0]
        raise DatasetError(
            f"dataset class {self.foreign.name} (from {self.foreign.module}) is not one promptkit reads, and "
            f"{_ENGINE_NAMES[engine]} is not installed to read it: pass --rows FILE.jsonl (rows for every dataset of the config), "
            "or set type='JsonlDataset', path='FILE.jsonl' in the config (the classes promptkit reads: docs/compat.md#dataset-classes)"
        )

    def __repr__(self) -> str:
        return f"UnreadableDataset({self.foreign.qualname})"


class EngineDataset:
    """A dataset class of an installed OpenCompass or AISBench: its module imported alone (not its package's
    ``__init__``, which imports every dataset), when the rows are first needed; its ``load(**keywords)`` gives the rows."""

    def __init__(self, foreign: Foreign, keywords: Mapping[str, Any], data_root: Path | None) -> None:
        self.foreign = foreign
        self.keywords = dict(keywords)
        self.data_root = data_root

    def load(self, base_dir: Path | None = None) -> Splits:
        cls = real_class(self.foreign)
        try:
            with _data_root_env(self.data_root):
                loaded = cls.load(**self.keywords)
        except Exception as error:  # the engine's own code: report whatever it raised, naming the class
            raise DatasetError(f"{self.foreign.name}.load() of the installed {_engine(self.foreign)} failed: {type(error).__name__}: {error}") from error
        if isinstance(loaded, Mapping):
            return Splits({str(split): _rows(rows, self.foreign) for split, rows in loaded.items()})
        return Splits({}, shared=_rows(loaded, self.foreign))

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={value!r}" for key, value in self.keywords.items())
        return f"{self.foreign.name}({shown}) [the installed {_engine(self.foreign)}]"


def _engine(foreign: Foreign) -> str:
    return _ENGINE_NAMES[foreign.module.split(".")[0]]


def _rows(loaded: Any, foreign: Foreign) -> list[dict[str, Any]]:
    """A ``datasets.Dataset`` (or a list of dicts) as rows."""
    rows = loaded.to_list() if hasattr(loaded, "to_list") else loaded
    if not isinstance(rows, list) or not all(isinstance(row, Mapping) for row in rows):
        raise DatasetError(f"{foreign.name}.load() returned {type(loaded).__name__}, not a Dataset or DatasetDict")
    return [dict(row) for row in rows]


@contextmanager
def _data_root_env(data_root: Path | None) -> Iterator[None]:
    """The engines' data-folder variables set to ``data_root`` while the real class reads (they read nothing else)."""
    if data_root is None:
        yield
        return
    saved = {name: os.environ.get(name) for name in _DATA_ROOT_ENVS}
    os.environ.update({name: str(data_root) for name in _DATA_ROOT_ENVS})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def real_class(foreign: Foreign) -> Any:
    """The class ``foreign`` names in the installed engine, its defining module imported alone."""
    engine = foreign.module.split(".")[0]
    spec = importlib.machinery.PathFinder.find_spec(engine)
    if spec is None or not spec.submodule_search_locations:
        raise DatasetError(f"{_engine(foreign)} is not installed as a package, so {foreign.name} cannot be read")
    root = Path(list(spec.submodule_search_locations)[0])
    module_name = _defining_module(foreign, root)
    try:
        module = _import_alone(module_name, root)
    except Exception as error:  # the engine's own module: report whatever importing it raised
        raise DatasetError(
            f"cannot import {module_name} of the installed {_engine(foreign)} (for {foreign.name}): {type(error).__name__}: {error}; "
            "pass --rows FILE.jsonl instead"
        ) from error
    found = getattr(module, foreign.name, None)
    if not isinstance(found, type):
        raise DatasetError(f"the installed {_engine(foreign)} has no class {foreign.name} in {module_name}")
    return found


def _defining_module(foreign: Foreign, root: Path) -> str:
    """The module that defines the class: the imported module when it is a file, else the file of its package defining it."""
    parts = foreign.module.split(".")
    folder = root.joinpath(*parts[1:])
    if folder.with_suffix(".py").is_file():
        return foreign.module
    definition = re.compile(rf"^class {re.escape(foreign.name)}\b", re.MULTILINE)
    if folder.is_dir():
        for file in sorted(folder.rglob("*.py")):
            if definition.search(file.read_text(encoding="utf-8", errors="replace")):
                relative = file.relative_to(root).with_suffix("").parts
                return ".".join([parts[0], *(part for part in relative if part != "__init__")])
    raise DatasetError(f"the installed {_engine(foreign)} defines no class {foreign.name} under {foreign.module}")


def _import_alone(module_name: str, root: Path) -> ModuleType:
    """Import ``module_name`` with its parent packages (below the top one) present but their ``__init__`` not run;
    those stand-ins leave ``sys.modules`` afterwards."""
    parts = module_name.split(".")
    importlib.import_module(parts[0])
    stand_ins = []
    for depth in range(2, len(parts)):
        parent = ".".join(parts[:depth])
        if parent in sys.modules:
            continue
        spec = importlib.machinery.ModuleSpec(parent, None, is_package=True)
        spec.submodule_search_locations = [str(root.joinpath(*parts[1:depth]))]
        sys.modules[parent] = importlib.util.module_from_spec(spec)
        stand_ins.append(parent)
    try:
        return importlib.import_module(module_name)
    finally:
        for parent in stand_ins:
            sys.modules.pop(parent, None)
