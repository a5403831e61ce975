"""A task's documents, read as lm-eval 0.4.x reads them (``ConfigurableTask.download``, ``*_docs``, ``fewshot_docs``).

**Splits.**  A split given on the command line (``--rows SPLIT=FILE``, any format ``--rows`` reads; ``--rows FILE``:
the file is every split) is read from it.  Any other split the task needs comes from its ``dataset_path``: local
files of the ``json``, ``parquet`` and ``arrow`` builders (``dataset_kwargs.data_files``: a file, a list or glob, or
a mapping of split to those; a relative path is looked for beside the task file, then in the working directory) are
read by promptkit's readers; anything else is ``datasets.load_dataset(dataset_path, dataset_name,
**dataset_kwargs)`` with the Hugging Face hub offline (the local ``datasets`` cache).  Nothing is downloaded; a
split that is not there is one error naming the dataset, the split and ``--rows SPLIT=FILE``.

**Which, and in what order.**  The evaluated split is ``test_split``, else ``validation_split``.  The few-shot pool
is ``fewshot_config.split`` (which defaults to ``fewshot_split``), else ``fewshot_config.samples`` (a list, or a
function called with no arguments), else the first of ``training_split``, ``validation_split`` and ``test_split``.
``process_docs`` (``fewshot_config.process_docs`` for the pool's split) takes a split as a ``datasets.Dataset``
and is called as lm-eval calls it in one run: on the pool's split, then twice on the evaluated split (lm-eval
looks at the first document, then builds its requests from a second pass); the documents are those of the last
pass, so task code with state of its own (a seeded shuffle, Python's ``random``) gives lm-eval's documents.  The task's code is
executed anew for each load (:class:`~promptkit.frontends.lmeval.functions.TaskCode`).  The pool is read only
when shots are drawn, or when the data is at hand anyway.

Without ``process_docs`` the rows are the documents as read (no ``datasets`` needed); lm-eval's ``Dataset`` gives
every row the columns of the first (docs/lmeval.md).
"""

from __future__ import annotations

import glob
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from promptkit.data.loaders import Splits, read_rows
from promptkit.errors import ConfigError, DatasetError, MissingDependencyError, PromptkitError
from promptkit.frontends.lmeval.config import TaskConfig
from promptkit.frontends.lmeval.functions import FunctionRef
from promptkit.frontends.lmeval.task import LoadedTask, Task

__all__ = ["POOL", "RowFiles", "TaskData"]

#: The name of the few-shot pool among the splits the loader returns (``reader_cfg.train_split``).
POOL = "fewshot"
#: The ``datasets`` builders of local files whose ``data_files`` promptkit reads itself.
_LOCAL_BUILDERS = ("json", "parquet", "arrow")


@dataclass(frozen=True)
class RowFiles:
    """The rows a run gives a task: ``--rows SPLIT=FILE`` by split, or ``--rows FILE`` for every split."""

    by_split: Mapping[str, Path] = field(default_factory=dict)
    every: Path | None = None

    def __bool__(self) -> bool:
        return bool(self.by_split) or self.every is not None


class TaskData:
    """The loader of a task's documents (implements :class:`~promptkit.data.protocol.Dataset`; see the module docstring)."""

    def __init__(self, task: Task, files: RowFiles) -> None:
        self.task = task
        self.files = files

    def load(self, base_dir: Path | None = None) -> Splits:
        """The evaluated documents (under their split's name) and the few-shot pool (:data:`POOL`)."""
        task = self.task
        config = task.config
        task.code.fresh()
        source = _Source(config, self.files)
        shots = config.num_fewshot > 0
        fewshot = config.fewshot
        pool: list[dict[str, Any]] | None = None
        if fewshot.split is not None:
            pool = self._processed(fewshot.process_docs, source.split(fewshot.split, needed=shots), "fewshot_config.process_docs")
        elif fewshot.samples is not None:
            pool = self._samples(fewshot.samples)
        else:
            split = config.training_split or config.validation_split or config.test_split
            assert split is not None  # an evaluated split is required
            pool = self._processed(config.process_docs, source.split(split, needed=shots), "process_docs")
        evaluated = source.split(config.eval_split, needed=True)
        if config.process_docs is not None:
            self._processed(config.process_docs, evaluated, "process_docs")  # lm-eval's look at the first document
        task.code.run_draws()
        docs = self._processed(config.process_docs, evaluated, "process_docs")
        assert docs is not None
        if not docs:
            raise DatasetError(f"the evaluated split {config.eval_split!r} has no documents", config=str(config.path))
        task.set_loaded(LoadedTask.of(config, task.code, docs))
        return Splits({config.eval_split: docs, POOL: pool or []})

    def _processed(self, process: FunctionRef | None, rows: Any, key: str) -> list[dict[str, Any]] | None:
        if rows is None:
            return None
        if process is None:
            return rows if isinstance(rows, list) else list(rows)
        function = self.task.code.resolve(process)
        try:
            result = function(_as_dataset(rows))
            return [dict(doc) for doc in result]
        except PromptkitError as error:
            raise error.add_context(config=str(self.task.config.path), key=key) from None
        except Exception as error:  # task code is user code: report what it raised
            raise ConfigError(f"{process} raised {type(error).__name__}: {error}", config=str(self.task.config.path), key=key) from None

    def _samples(self, samples: list[dict[str, Any]] | FunctionRef) -> list[dict[str, Any]]:
        if isinstance(samples, list):
            return samples
        function = self.task.code.resolve(samples)
        try:
            found = function()
        except Exception as error:  # task code is user code
            raise ConfigError(f"{samples} raised {type(error).__name__}: {error}", config=str(self.task.config.path), key="fewshot_config.samples") from None
        if not isinstance(found, Sequence) or not all(isinstance(doc, Mapping) for doc in found):
            raise ConfigError(f"{samples} must return a list of documents (got {type(found).__name__})", config=str(self.task.config.path), key="fewshot_config.samples")
        return [dict(doc) for doc in found]

    def __repr__(self) -> str:
        return f"TaskData({self.task.config.task!r})"


class _Source:
    """The task's splits as they are asked for: a file given on the command line, else the local datasets cache."""

    def __init__(self, config: TaskConfig, files: RowFiles) -> None:
        self.config = config
        self.files = files
        self._read: dict[Path, list[dict[str, Any]]] = {}
        self._hub: Any = None

    def split(self, split: str, needed: bool) -> Any:
        """The rows of ``split`` (a list, or a ``datasets.Dataset`` from the cache); ``None`` when it is not needed and
        not at hand."""
        path = self.files.every or self.files.by_split.get(split)
        if path is not None:
            return self._file(path)
        if not needed and self.files:
            return None  # the run gave its rows on the command line: the cache is not searched for splits it can do without
        splits = self._cached(split, needed)
        if splits is None:
            return None
        if split not in splits:
            if not needed:
                return None
            raise DatasetError(
                f"{self._name()} has no split {split!r} (it has {', '.join(sorted(splits)) or 'none'}); give its rows with --rows {split}=FILE",
                config=str(self.config.path),
            )
        return splits[split]

    def _file(self, path: Path) -> list[dict[str, Any]]:
        rows = self._read.get(path)
        if rows is None:
            rows = self._read[path] = read_rows(path)
        return rows

    def _name(self) -> str:
        config = self.config
        return f"dataset {config.dataset_path!r}" + (f" ({config.dataset_name!r})" if config.dataset_name else "")

    def _cached(self, split: str, needed: bool) -> Any:
        if self._hub is not None:
            return self._hub
        config = self.config
        files = config.dataset_kwargs.get("data_files")
        if config.dataset_path in _LOCAL_BUILDERS and files is not None:
            self._hub = self._local(files)
            return self._hub
        if config.dataset_path is None:
            if not needed:
                return None
            raise DatasetError(f"the task names no dataset_path; give the split's rows with --rows {split}=FILE", config=str(config.path))
        try:
            import datasets
        except ImportError:
            raise MissingDependencyError(
                f"{self._name()} is read with the datasets package, which is not installed: pip install 'promptkit[lmeval]', "
                f"or give the split's rows with --rows {split}=FILE"
            ) from None
        kwargs = dict(config.dataset_kwargs)
        kwargs.pop("trust_remote_code", None)  # lm-eval drops it for datasets >= 4; promptkit runs no dataset script
        try:
            with _offline(datasets):
                self._hub = datasets.load_dataset(path=config.dataset_path, name=config.dataset_name, **kwargs)
        except Exception as error:  # the datasets package's many errors for a dataset that is not in the cache
            problem = " ".join(str(error).split())[:300]
            raise DatasetError(
                f"{self._name()} is not in the local datasets cache, and promptkit downloads nothing ({type(error).__name__}: {problem}); "
                f"give the split's rows with --rows {split}=FILE",
                config=str(config.path),
            ) from None
        return self._hub


    def _local(self, files: Any) -> dict[str, list[dict[str, Any]]]:
        """The splits of a local builder's ``data_files`` (a bare file or list is the split ``train``, as in ``datasets``)."""
        by_split = files if isinstance(files, Mapping) else {"train": files}
        out = {}
        for split, given in by_split.items():
            rows: list[dict[str, Any]] = []
            for name in [given] if isinstance(given, str) else given if isinstance(given, list) else []:
                for path in self._local_paths(str(name)):
                    rows += self._file(path)
            out[str(split)] = rows
        return out

    def _local_paths(self, name: str) -> list[Path]:
        folder = self.config.path.parent
        for base in (folder, Path.cwd()):
            pattern = base / name if not Path(name).is_absolute() else Path(name)
            found = sorted(Path(p) for p in glob.glob(str(pattern), recursive=True)) if glob.has_magic(name) else [pattern] if pattern.is_file() else []
            if found:
                return found
        raise DatasetError(
            f"{self._name()}: data_files {name!r} matches no file beside the task file ({folder}) or in the working directory; "
            "fix dataset_kwargs.data_files, or give the split with --rows SPLIT=FILE",
            config=str(self.config.path),
            key="dataset_kwargs.data_files",
        )


def _as_dataset(rows: Any) -> Any:
    """Rows as the ``datasets.Dataset`` that ``process_docs`` takes."""
    if not isinstance(rows, list):
        return rows  # a split of the cache is one already
    try:
        import datasets
    except ImportError:
        raise MissingDependencyError("the task's process_docs takes a datasets.Dataset: pip install 'promptkit[lmeval]'") from None
    return datasets.Dataset.from_list(rows)


@contextmanager
def _offline(datasets: Any) -> Iterator[None]:
    """The Hugging Face hub off for the ``with`` block: the datasets cache and local files only."""
    import huggingface_hub.constants as hub

    saved = datasets.config.HF_HUB_OFFLINE, hub.HF_HUB_OFFLINE
    datasets.config.HF_HUB_OFFLINE = hub.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        datasets.config.HF_HUB_OFFLINE, hub.HF_HUB_OFFLINE = saved
