"""lm-evaluation-harness task files, read as lm-eval 0.4.x reads them: the contexts lm-eval builds, for any model.

A source is a task or group YAML file (``arc_easy.yaml``), or a task, group or tag name: ``lmeval:NAME`` among the
tasks of the installed lm-eval, ``lmeval:NAME@FOLDER`` among those of a task folder (lm-eval's ``--include_path``).
Each task becomes one :class:`~promptkit.plan.dataset.DatasetSpec`:

* :mod:`.yaml_files` reads the files (``include:`` chains, ``!function`` tags), :mod:`.index` expands groups and
  tags, :mod:`.config` checks and completes a task's keys (the run's ``--set``, ``--num-fewshot`` and ``--seed``);
* the loader (:mod:`.data`) reads the splits (``--rows SPLIT=FILE``, else the local ``datasets`` cache) and runs
  ``process_docs``; :mod:`.functions` runs the task's own Python, fresh for each render;
* the retriever (:mod:`.sampler`) draws the shots as lm-eval's samplers do; the template (:mod:`.prompt`) lays out
  the context; the inferencer (:mod:`.requests`) makes each document's requests.

``--rows`` takes ``FILE`` (every split of every task), ``SPLIT=FILE`` (that split of every task) and
``TASK:SPLIT=FILE`` (that split of one task of a group), repeatable.  docs/lmeval.md says what is read and where
promptkit differs.  Reading task files needs PyYAML (``pip install 'promptkit[lmeval]'``, which also brings
``datasets`` for ``process_docs`` and the datasets cache); nothing heavy is imported before a task is read.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from promptkit.errors import ConfigError, PromptkitError

if TYPE_CHECKING:
    from promptkit.frontends.lmeval.config import TaskConfig
    from promptkit.frontends.lmeval.data import RowFiles
    from promptkit.frontends.lmeval.index import Member
    from promptkit.frontends.options import SourceOptions
    from promptkit.plan.dataset import DatasetSpec

__all__ = ["PREFIX", "LMEvalTasks", "row_files"]

#: How a source names a task, group or tag instead of a file: ``lmeval:NAME`` or ``lmeval:NAME@FOLDER``.
PREFIX = "lmeval:"


class LMEvalTasks:
    """lm-eval task and group files, and task names (see the module docstring)."""

    name = "lmeval"

    def reads(self, source: str) -> bool:
        return source.startswith(PREFIX) or source.endswith((".yaml", ".yml"))

    def load(self, source: str, options: SourceOptions) -> list[DatasetSpec]:
        # The reading modules are imported when a task is read: the CLI starts, and reads other configs, without them.
        from promptkit.frontends.lmeval.index import TaskIndex, members

        if source.startswith(PREFIX):
            name, _, folder = source[len(PREFIX) :].partition("@")
            if not name:
                raise ConfigError(f"{source!r}: name a task, group or tag, e.g. lmeval:arc_easy or lmeval:arc_easy@path/to/tasks")
            found = members(name, TaskIndex(Path(folder).expanduser() if folder else _installed_tasks(source)))
        else:
            path = Path(source)
            if not path.is_file():
                raise ConfigError(f"task file {source!r} not found", config=source)
            found = members(path, TaskIndex(path.resolve().parent, *_task_folder(path)))
        configs = [_config(member, options) for member in found]
        files = row_files(options.rows, [config.task for config, _ in configs], source)
        _check_splits(files, [config for config, _ in configs], source)
        return [_spec(config, files.get(config.task, files[""]), applied) for config, applied in configs]


def _installed_tasks(source: str) -> Path:
    """The task folder of the installed lm-eval (found without importing it)."""
    spec = importlib.util.find_spec("lm_eval")
    if spec is None or spec.origin is None:
        raise ConfigError(f"{source!r}: lm-eval is not installed, so its tasks cannot be named; give the task folder: {source}@FOLDER, or a YAML file")
    return Path(spec.origin).parent / "tasks"


def _task_folder(path: Path) -> list[Path]:
    """The closest folder above ``path`` named ``tasks`` (lm-eval's layout), where a group's members are looked for next."""
    return [parent for parent in path.resolve().parents if parent.name == "tasks"][:1]


def row_files(lines: Sequence[str], tasks: Sequence[object], source: str) -> dict[str, RowFiles]:
    """``--rows`` as given, by task name (``''``: what every task reads): ``FILE``, ``SPLIT=FILE``, ``TASK:SPLIT=FILE``."""
    from promptkit.frontends.lmeval.data import RowFiles

    every: Path | None = None
    shared: dict[str, Path] = {}
    own: dict[str, dict[str, Path]] = {}
    names = [str(task) for task in tasks]
    for line in lines:
        split, sep, file = line.partition("=")
        if not sep or Path(line).exists():
            if every is not None or shared or own:
                raise ConfigError(f"--rows {line}: one FILE feeds every split of every task; it cannot go with other --rows")
            every = Path(line)
            continue
        if every is not None:
            raise ConfigError(f"--rows {line}: --rows FILE already feeds every split; give SPLIT=FILE for each split instead")
        task, colon, split = split.rpartition(":")
        if not split.strip() or not file:
            raise ConfigError(f"--rows {line}: write SPLIT=FILE (e.g. --rows test=rows.jsonl) or TASK:SPLIT=FILE")
        if colon and task not in names:
            raise ConfigError(f"--rows {line}: {source} has no task {task!r} (its tasks: {', '.join(names)})")
        target = own.setdefault(task, {}) if colon else shared
        if split in target:
            raise ConfigError(f"--rows {line}: the split {split!r} is given twice")
        target[split] = Path(file)
    out = {"": RowFiles(shared, every)}
    for task, splits in own.items():
        out[task] = RowFiles({**shared, **splits})
    return out


def _config(member: Member, options: SourceOptions) -> tuple[TaskConfig, tuple[str, ...]]:
    """A member's config with the run's settings, and the settings applied as ``key=value`` lines."""
    from promptkit.frontends.lmeval.config import TaskConfig, apply_settings

    overrides = options.overrides
    cfg, applied = apply_settings(member.cfg, overrides.set, member.path)
    try:
        config = TaskConfig.build(cfg, member.path, overrides.num_fewshot, options.seed)
    except PromptkitError as error:
        raise error.add_context(dataset=str(cfg.get("task"))) from None
    if overrides.num_fewshot is not None:
        applied += (f"num_fewshot={overrides.num_fewshot}",)
    if options.seed is not None:
        applied += (f"seed={options.seed}",)
    return config, applied


def _check_splits(files: dict[str, RowFiles], configs: Sequence[TaskConfig], source: str) -> None:
    """Every split ``--rows`` names is one a task reads (each of a group's tasks, for ``TASK:SPLIT=FILE``)."""
    read = {config.task: {s for s in (config.training_split, config.validation_split, config.test_split, config.fewshot.split) if s} for config in configs}
    for task, given in files.items():
        splits = set().union(*read.values()) if not task else read[task]
        unknown = sorted(set(given.by_split) - splits)
        if unknown:
            whose = f"no task of {source}" if not task else f"task {task!r}"
            raise ConfigError(f"--rows {task + ':' if task else ''}{unknown[0]}=...: {whose} reads a split {unknown[0]!r} (the splits read: {', '.join(sorted(splits))})")


def _spec(config: TaskConfig, files: RowFiles, applied: tuple[str, ...]) -> DatasetSpec:
    from promptkit.data.reader import ReaderConfig
    from promptkit.frontends.lmeval.data import POOL, TaskData
    from promptkit.frontends.lmeval.prompt import TaskPrompt
    from promptkit.frontends.lmeval.requests import TaskRequests
    from promptkit.frontends.lmeval.sampler import TaskSampler
    from promptkit.frontends.lmeval.task import Task
    from promptkit.plan.dataset import DatasetSpec

    task = Task(config)
    prompt = TaskPrompt(task)
    return DatasetSpec(
        abbr=config.task,
        loader=TaskData(task, files),
        reader=ReaderConfig(input_columns=(), train_split=POOL, test_split=config.eval_split),
        ice_template=prompt,
        prompt_template=prompt,
        retriever=TaskSampler(config),
        inferencer=TaskRequests(task),
        config_path=config.path,
        overrides=applied,
    )
