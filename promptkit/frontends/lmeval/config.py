"""A task's keys, checked and completed as lm-eval 0.4.x completes them (``lm_eval/config/task.py``).

:class:`TaskConfig` holds what shapes the requests; keys only scoring reads (``metric_list``, ``filter_list``,
``process_results``, …) are accepted and not read, except that ``acc_mutual_info`` in ``metric_list`` adds
unconditional requests.  A key lm-eval does not know is an error, as is a feature promptkit does not read (a Python
task ``class``, ``custom_dataset``, promptsource's ``use_prompt``, images and audio); each names the key and the file.

Completed as lm-eval completes them:

* ``fewshot_config``: every field not given is the task's (``split`` ← ``fewshot_split``, ``process_docs``,
  ``doc_to_*``, ``gen_prefix``, the delimiters); ``sampler`` is ``default`` or ``first_n``;
* ``generation_kwargs``: a ``temperature`` is a float; without ``until`` the stop list is ``[fewshot_delimiter]``;
  without any, ``{until: [fewshot_delimiter], do_sample: false, temperature: 0.0, max_gen_toks: 256}``;
* ``num_fewshot`` (``simple_evaluate``'s rule): a requested count replaces the task's unless the task says exactly 0;
  without one, the task's, else 0;
* the few-shot seed: 1234 (``fewshot_random_seed``), or the run's ``--seed``.

``--set KEY=VALUE`` edits the task's keys before this (``fewshot_config.sampler=first_n``, ``num_fewshot=3``,
``generation_kwargs.max_gen_toks=64``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from promptkit.errors import ConfigError, did_you_mean
from promptkit.frontends.lmeval.functions import FunctionRef
from promptkit.frontends.opencompass.overrides import parse_value

__all__ = ["DEFAULT_SEED", "OUTPUT_TYPES", "TASK_KEYS", "FewshotConfig", "TaskConfig", "apply_settings"]

#: lm-eval's ``output_type`` values.
OUTPUT_TYPES = ("multiple_choice", "loglikelihood", "loglikelihood_rolling", "generate_until")
#: The few-shot seed of ``simple_evaluate`` (``fewshot_random_seed``).
DEFAULT_SEED = 1234
#: The keys of lm-eval's ``TaskConfig``, and the structural keys a task file may carry.
TASK_KEYS = (
    "task", "task_alias", "tag", "custom_dataset", "dataset_path", "dataset_name", "dataset_kwargs", "training_split",
    "validation_split", "test_split", "fewshot_split", "process_docs", "doc_to_text", "doc_to_target", "doc_to_image",
    "doc_to_audio", "unsafe_code", "doc_to_choice", "process_results", "use_prompt", "description", "target_delimiter",
    "fewshot_delimiter", "fewshot_config", "num_fewshot", "metric_list", "output_type", "generation_kwargs", "repeats",
    "filter_list", "should_decontaminate", "doc_to_decontamination_query", "gen_prefix", "metadata", "group", "task_list",
)  # fmt: skip
#: The keys of ``fewshot_config``.
FEWSHOT_KEYS = (
    "sampler", "split", "process_docs", "fewshot_indices", "samples", "doc_to_text", "doc_to_choice", "doc_to_target",
    "gen_prefix", "fewshot_delimiter", "target_delimiter",
)  # fmt: skip
#: Features of lm-eval promptkit does not read, and why (a task using one is refused, naming the key).
UNREAD = {
    "class": "a Python task class builds its own requests",
    "custom_dataset": "a Python function builds the dataset",
    "use_prompt": "promptsource templates need the promptsource package",
    "doc_to_image": "multimodal lm-eval tasks are not read",
    "doc_to_audio": "multimodal lm-eval tasks are not read",
}
#: Keys whose value is a dict that ``--set`` may add keys to.
_OPEN_DICTS = ("generation_kwargs", "dataset_kwargs", "metadata")
_SAMPLERS = ("default", "first_n")
_DEFAULT_MAX_GEN_TOKS = 256


@dataclass(frozen=True)
class FewshotConfig:
    """``fewshot_config``, each field not given taken from the task (see the module docstring)."""

    sampler: str
    split: str | None
    process_docs: FunctionRef | None
    samples: list[dict[str, Any]] | FunctionRef | None
    doc_to_text: Any
    doc_to_choice: Any
    doc_to_target: Any
    gen_prefix: str | None
    fewshot_delimiter: str
    target_delimiter: str


@dataclass(frozen=True)
class TaskConfig:
    """One task's keys as lm-eval reads them for its requests (see the module docstring)."""

    task: str
    #: The task's YAML file (a group member inline in a group file: the group file).
    path: Path
    dataset_path: str | None
    dataset_name: str | None
    dataset_kwargs: Mapping[str, Any]
    training_split: str | None
    validation_split: str | None
    test_split: str | None
    fewshot_split: str | None
    process_docs: FunctionRef | None
    doc_to_text: Any
    doc_to_target: Any
    doc_to_choice: Any
    description: str | None
    target_delimiter: str
    fewshot_delimiter: str
    fewshot: FewshotConfig
    #: The shots each document gets, after lm-eval's rule for a requested count (see the module docstring).
    num_fewshot: int
    output_type: str
    generation_kwargs: Mapping[str, Any] | None
    repeats: int
    gen_prefix: str | None
    #: Whether ``acc_mutual_info`` is among the metrics (multiple-choice tasks then also score each choice alone).
    mutual_info: bool
    #: The few-shot sampler's seed.
    seed: int = DEFAULT_SEED
    #: The run's edits applied to the keys, as ``key=value`` lines.
    applied: tuple[str, ...] = field(default=())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Read-only mapping proxies do not pickle: they travel as dicts and are wrapped again on load.
        values = [getattr(self, item.name) for item in fields(self)]
        proxied = tuple(i for i, value in enumerate(values) if isinstance(value, MappingProxyType))
        return _restore, (proxied, *(dict(value) if i in proxied else value for i, value in enumerate(values)))

    @property
    def eval_split(self) -> str:
        """The split documents are evaluated from: ``test_split``, else ``validation_split``."""
        split = self.test_split or self.validation_split
        assert split is not None  # checked when built
        return split

    @property
    def removes_eval_doc(self) -> bool:
        """Whether the sampler leaves the document under test out of its shots: lm-eval does when the few-shot split
        equals ``test_split`` — as values, so two unset ones are equal."""
        return self.fewshot.split == self.test_split

    @classmethod
    def build(cls, cfg: Mapping[str, Any], path: Path, num_fewshot: int | None = None, seed: int | None = None) -> TaskConfig:
        """The config of the task ``cfg`` (the merged keys of its file, group overrides applied); ``num_fewshot``: the
        run's requested count; ``seed``: the run's few-shot seed."""
        where = {"config": str(path)}
        for key in cfg:
            if key in UNREAD:
                raise ConfigError(f"{key!r} is a feature of lm-eval promptkit does not read: {UNREAD[key]}", key=key, **where)
            if key not in TASK_KEYS:
                raise ConfigError(f"unknown key {key!r} in the task{did_you_mean(key, TASK_KEYS)}; lm-eval's TaskConfig has no such field", key=key, **where)
        name = _text(cfg, "task", where, required=True)
        assert name is not None
        output_type = cfg.get("output_type", "generate_until")
        if output_type not in OUTPUT_TYPES:
            raise ConfigError(f"output_type must be one of {', '.join(OUTPUT_TYPES)} (got {output_type!r})", key="output_type", **where)
        test_split, validation_split = _text(cfg, "test_split", where), _text(cfg, "validation_split", where)
        if test_split is None and validation_split is None:
            raise ConfigError("the task has neither test_split nor validation_split: lm-eval evaluates one of them", key="test_split", **where)
        target_delimiter = _text(cfg, "target_delimiter", where, default=" ")
        fewshot_delimiter = _text(cfg, "fewshot_delimiter", where, default="\n\n")
        assert target_delimiter is not None and fewshot_delimiter is not None
        gen_prefix = _text(cfg, "gen_prefix", where)
        process_docs = _function(cfg, "process_docs", where)
        fields = {key: _doc_field(cfg, key, where) for key in ("doc_to_text", "doc_to_target", "doc_to_choice")}
        fewshot_split = _text(cfg, "fewshot_split", where)
        fewshot = _fewshot(cfg.get("fewshot_config"), where, fewshot_split, process_docs, fewshot_delimiter, target_delimiter, gen_prefix, fields)
        dataset_kwargs = cfg.get("dataset_kwargs") or {}
        if not isinstance(dataset_kwargs, Mapping):
            raise ConfigError(f"dataset_kwargs must be a mapping (got {dataset_kwargs!r})", key="dataset_kwargs", **where)
        repeats = cfg.get("repeats", 1)
        if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
            raise ConfigError(f"repeats must be a whole number of at least 1 (got {repeats!r})", key="repeats", **where)
        metrics = cfg.get("metric_list") or []
        mutual_info = isinstance(metrics, list) and any(isinstance(m, Mapping) and m.get("metric") == "acc_mutual_info" for m in metrics)
        return cls(
            task=name,
            path=path,
            dataset_path=_text(cfg, "dataset_path", where),
            dataset_name=_text(cfg, "dataset_name", where),
            dataset_kwargs=MappingProxyType(dict(dataset_kwargs)),
            training_split=_text(cfg, "training_split", where),
            validation_split=validation_split,
            test_split=test_split,
            fewshot_split=fewshot_split,
            process_docs=process_docs,
            doc_to_text=fields["doc_to_text"],
            doc_to_target=fields["doc_to_target"],
            doc_to_choice=fields["doc_to_choice"],
            description=_text(cfg, "description", where),
            target_delimiter=target_delimiter,
            fewshot_delimiter=fewshot_delimiter,
            fewshot=fewshot,
            num_fewshot=_shots(cfg.get("num_fewshot"), num_fewshot, where),
            output_type=output_type,
            generation_kwargs=_generation_kwargs(cfg.get("generation_kwargs"), output_type, fewshot_delimiter, where),
            repeats=repeats,
            gen_prefix=gen_prefix,
            mutual_info=mutual_info and output_type == "multiple_choice",
            seed=DEFAULT_SEED if seed is None else seed,
        )


def _restore(proxied: tuple[int, ...], *values: Any) -> TaskConfig:
    restored: list[Any] = [MappingProxyType(value) if i in proxied else value for i, value in enumerate(values)]
    return TaskConfig(*restored)


def apply_settings(cfg: Mapping[str, Any], lines: tuple[str, ...], path: Path) -> tuple[dict[str, Any], tuple[str, ...]]:
    """``cfg`` with ``--set KEY=VALUE`` lines applied (a key of the task, or a dotted key into ``fewshot_config`` or an
    open mapping such as ``generation_kwargs``), and the lines applied as ``key=value``."""
    edited = dict(cfg)
    applied = []
    for line in lines:
        key, _, text = (part.strip() for part in line.partition("="))
        value = parse_value(text)
        top, _, rest = key.partition(".")
        if top not in TASK_KEYS or top in ("task", "group", "task_list"):
            known = [k for k in TASK_KEYS if k not in ("task", "group", "task_list")]
            raise ConfigError(f"--set {key}: the task has no key {top!r}{did_you_mean(top, known)}", config=str(path), key=key)
        if not rest:
            edited[top] = value
        else:
            if top != "fewshot_config" and top not in _OPEN_DICTS:
                raise ConfigError(f"--set {key}: {top!r} is not a mapping; set it whole (--set {top}=...)", config=str(path), key=key)
            if "." in rest or (top == "fewshot_config" and rest not in FEWSHOT_KEYS):
                raise ConfigError(f"--set {key}: fewshot_config has no key {rest!r}{did_you_mean(rest, FEWSHOT_KEYS)}", config=str(path), key=key)
            inner = edited.get(top) or {}
            if not isinstance(inner, Mapping):
                raise ConfigError(f"--set {key}: the task's {top} is not a mapping (it is {inner!r})", config=str(path), key=key)
            edited[top] = {**inner, rest: value}
        applied.append(f"{key}={value!r}")
    return edited, tuple(applied)


def _text(cfg: Mapping[str, Any], key: str, where: dict[str, str], default: str | None = None, required: bool = False) -> str | None:
    value = cfg.get(key, default)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        need = "a string" if required else "a string or null"
        raise ConfigError(f"{key} must be {need} (got {value!r} that is a {type(value).__name__})", key=key, **where)
    return value


def _function(cfg: Mapping[str, Any], key: str, where: dict[str, str]) -> FunctionRef | None:
    value = cfg.get(key)
    if value is not None and not isinstance(value, FunctionRef):
        raise ConfigError(f"{key} must be a !function (got {value!r})", key=key, **where)
    return value


def _doc_field(cfg: Mapping[str, Any], key: str, where: dict[str, str]) -> Any:
    value = cfg.get(key)
    allowed = (str, int, list, dict, FunctionRef) if key == "doc_to_choice" else (str, int, list, FunctionRef) if key == "doc_to_target" else (str, int, FunctionRef)
    if value is not None and (isinstance(value, bool) or not isinstance(value, allowed)):
        kinds = {"doc_to_choice": "a column, a Jinja text, a list, a mapping or a !function", "doc_to_target": "a column, a Jinja text, an int, a list or a !function"}
        raise ConfigError(f"{key} must be {kinds.get(key, 'a column, a Jinja text, an int or a !function')} (got {value!r})", key=key, **where)
    return value


def _fewshot(
    value: Any,
    where: dict[str, str],
    split: str | None,
    process_docs: FunctionRef | None,
    fewshot_delimiter: str,
    target_delimiter: str,
    gen_prefix: str | None,
    fields: Mapping[str, Any],
) -> FewshotConfig:
    value = value or {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"fewshot_config must be a mapping (got {value!r})", key="fewshot_config", **where)
    for key in value:
        if key not in FEWSHOT_KEYS:
            raise ConfigError(f"unknown key {key!r} in fewshot_config{did_you_mean(key, FEWSHOT_KEYS)}", key=f"fewshot_config.{key}", **where)
    merged = {
        "split": split, "process_docs": process_docs, "fewshot_delimiter": fewshot_delimiter, "target_delimiter": target_delimiter,
        "gen_prefix": gen_prefix, **fields, **value,
    }  # fmt: skip
    sampler = merged.get("sampler", "default")
    if sampler not in _SAMPLERS:
        raise ConfigError(
            f"fewshot_config.sampler {sampler!r} is not one lm-eval 0.4 ships: use {' or '.join(map(repr, _SAMPLERS))}", key="fewshot_config.sampler", **where
        )
    samples = merged.get("samples")
    if samples is not None and not isinstance(samples, FunctionRef) and not (isinstance(samples, list) and all(isinstance(s, Mapping) for s in samples)):
        raise ConfigError("fewshot_config.samples must be a list of documents or a !function returning one", key="fewshot_config.samples", **where)
    inner = {"config": where["config"]}
    for key in ("split", "gen_prefix", "fewshot_delimiter", "target_delimiter"):
        if merged.get(key) is not None and not isinstance(merged[key], str):
            raise ConfigError(f"fewshot_config.{key} must be a string (got {merged[key]!r})", key=f"fewshot_config.{key}", **inner)
    return FewshotConfig(
        sampler=sampler,
        split=merged.get("split"),
        process_docs=_function(merged, "process_docs", inner),
        samples=[dict(s) for s in samples] if isinstance(samples, list) else samples,
        doc_to_text=merged.get("doc_to_text"),
        doc_to_choice=merged.get("doc_to_choice"),
        doc_to_target=merged.get("doc_to_target"),
        gen_prefix=merged.get("gen_prefix"),
        fewshot_delimiter=_given(merged.get("fewshot_delimiter"), fewshot_delimiter),
        target_delimiter=_given(merged.get("target_delimiter"), target_delimiter),
    )


def _given(value: str | None, default: str) -> str:
    """A few-shot delimiter: the one ``fewshot_config`` gives, else the task's."""
    return default if value is None else value


def _shots(configured: Any, requested: int | None, where: dict[str, str]) -> int:
    if configured is not None and (isinstance(configured, bool) or not isinstance(configured, int) or configured < 0):
        raise ConfigError(f"num_fewshot must be a whole number of shots (got {configured!r})", key="num_fewshot", **where)
    if requested is not None:
        return 0 if configured == 0 else requested  # simple_evaluate: a task that says 0 stays at 0
    return configured or 0


def _generation_kwargs(value: Any, output_type: str, fewshot_delimiter: str, where: dict[str, str]) -> Mapping[str, Any] | None:
    if value is None:
        if output_type != "generate_until":
            return None
        return MappingProxyType({"until": [fewshot_delimiter], "do_sample": False, "temperature": 0.0, "max_gen_toks": _DEFAULT_MAX_GEN_TOKS})
    if not isinstance(value, Mapping):
        raise ConfigError(f"generation_kwargs must be a mapping (got {value!r})", key="generation_kwargs", **where)
    kwargs = dict(value)
    if "temperature" in kwargs:
        try:
            kwargs["temperature"] = float(kwargs["temperature"])
        except (TypeError, ValueError):
            raise ConfigError(f"generation_kwargs.temperature must be a number (got {kwargs['temperature']!r})", key="generation_kwargs.temperature", **where) from None
    if "until" not in kwargs:
        kwargs["until"] = [fewshot_delimiter]
    return MappingProxyType(kwargs)
