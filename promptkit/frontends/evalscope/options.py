"""A run's options as EvalScope names them: ``--set`` and ``--num-fewshot`` as the benchmark's ``dataset_args``, ``--rows``
as files per loader subset and split.

* ``--set KEY=VALUE``: ``KEY`` is a ``dataset_args`` key — a ``BenchmarkMeta`` field (``subset_list``,
  ``few_shot_num``, ``few_shot_random``, ``prompt_template``, ``few_shot_prompt_template``, ``system_prompt``,
  ``shuffle_choices``, …), ``local_path`` (the data folder), ``extra_params`` (a dict) or ``extra_params.NAME`` (one
  switch) — or ``seed``, EvalScope's ``TaskConfig.seed`` (42 by default: few-shot shuffling and choice shuffling).
  ``VALUE`` is a Python literal, else the string it is.  EvalScope ignores a key that is no field without a word;
  promptkit refuses it.  ``--num-fewshot K`` is ``few_shot_num=K``.
* ``--rows SUBSET:SPLIT=FILE`` feeds one split of one *loader* subset (the data's config: ``all`` for MMLU,
  ``main`` for GSM8K, a subject for C-Eval; not a ``subset_list`` entry that is regrouped from it);
  ``--rows SPLIT=FILE`` when the benchmark reads one loader subset; ``--rows FILE`` for its test split then.

>>> args = dataset_args(Overrides(("subset_list=['main']", "extra_params.use_cot=True", "seed=7"), num_fewshot=0), {"subset_list", "few_shot_num", "extra_params"}, "quiz")
>>> args.values, args.run.seed, args.applied
({'subset_list': ['main'], 'extra_params': {'use_cot': True}, 'few_shot_num': 0}, 7, ("subset_list=['main']", 'extra_params.use_cot=True', 'seed=7', 'few_shot_num=0'))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, did_you_mean
from promptkit.frontends.evalscope.api.adapters import RunConfig
from promptkit.frontends.opencompass.overrides import Overrides, parse_value

__all__ = ["DatasetArgs", "dataset_args", "rows_files"]

#: Keys of ``dataset_args`` that are no ``BenchmarkMeta`` field.
_EXTRA_KEYS = ("local_path",)
#: The ``TaskConfig`` fields ``--set`` takes.
_TASK_KEYS = ("seed", "limit")


@dataclass(frozen=True)
class DatasetArgs:
    """The benchmark's ``dataset_args``, the run's ``TaskConfig`` fields, and the overrides as ``key=value`` lines (for the
    records)."""

    values: dict[str, Any]
    run: RunConfig
    applied: tuple[str, ...]


def dataset_args(overrides: Overrides, fields: Collection[str], name: str) -> DatasetArgs:
    """The ``dataset_args`` of ``overrides`` for the benchmark ``name`` whose declaration has ``fields``."""
    values: dict[str, Any] = {}
    run = RunConfig()
    applied = []
    known = sorted({*fields, *_EXTRA_KEYS, *_TASK_KEYS} - {"name", "data_adapter"})
    for line in overrides.set:
        key, text = (part.strip() for part in line.split("=", 1))
        value = parse_value(text)
        if key == "seed":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ConfigError(f"--set seed={text}: the seed must be an int or None")
            run = replace(run, seed=value)
        elif key == "limit":
            if value is not None and not _is_limit(value):
                raise ConfigError(f"--set limit={text}: the limit is a number of rows (0 or more) or a fraction from 0 to 1")
            run = replace(run, limit=value)
        elif key.startswith("extra_params."):
            values.setdefault("extra_params", {})[key.split(".", 1)[1]] = value
        elif key in known:
            if key == "extra_params" and not isinstance(value, dict):
                raise ConfigError(f"--set extra_params={text}: give a dict, or one switch as extra_params.NAME=VALUE")
            values[key] = {**values.get(key, {}), **value} if key == "extra_params" else value
        else:
            raise ConfigError(
                f"--set {key}: {name!r} has no dataset_args key {key!r}{did_you_mean(key, known)} (EvalScope would ignore it without a "
                f"word); the keys are the BenchmarkMeta fields, local_path, extra_params.NAME, seed and limit"
            )
        applied.append(f"{key}={value!r}")
    if overrides.num_fewshot is not None:
        values["few_shot_num"] = overrides.num_fewshot
        applied.append(f"few_shot_num={overrides.num_fewshot}")
    return DatasetArgs(values, run, tuple(applied))


def _is_limit(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return (isinstance(value, int) and value >= 0) or (isinstance(value, float) and 0.0 <= value <= 1.0)


def rows_files(given: Sequence[str], reads: Sequence[tuple[str, str, bool]], regrouped: Sequence[str]) -> dict[tuple[str, str], Path]:
    """The ``--rows`` files by (loader subset, split); ``reads`` lists the (loader subset, split, is test) the benchmark
    reads, ``regrouped`` the subset names regrouped from its loader subset (for the message when one is given)."""
    subsets = list(dict.fromkeys(subset for subset, _, _ in reads))
    files: dict[tuple[str, str], Path] = {}
    for text in given:
        named = "=" in text and not Path(text).exists()
        head, _, file = text.partition("=") if named else ("", "", text)
        subset, _, split = head.rpartition(":")
        if not split:
            split = next((s for _, s, test in reads if test), "test")
        if not subset:
            if len(subsets) != 1:
                raise ConfigError(
                    f"--rows {text}: the benchmark reads the loader subsets {subsets}; say which with --rows SUBSET:{split}=FILE"
                )
            subset = subsets[0]
        if subset not in subsets:
            hint = (
                f"; {subset!r} is a subset regrouped from the loader subset by Sample.subset_key, so give its rows with the others' "
                f"(--rows {subsets[0]}:{split}=FILE)"
                if subset in regrouped and len(subsets) == 1
                else ""
            )
            raise ConfigError(f"--rows {text}: the benchmark reads the loader subsets {subsets}, not {subset!r}{hint}")
        splits = [s for name, s, _ in reads if name == subset]
        if split not in splits:
            raise ConfigError(f"--rows {text}: the loader subset {subset!r} is read for the splits {splits}, not {split!r}")
        path = Path(file)
        if not path.exists():
            raise ConfigError(f"--rows {text}: the file {file!r} does not exist")
        if (subset, split) in files:
            raise ConfigError(f"--rows {text}: {subset}:{split} is given twice")
        files[(subset, split)] = path
    return files
