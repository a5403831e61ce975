"""EvalScope's loading pipeline, run by promptkit over an adapter: rows → samples → the messages each sample sends.

:func:`load_samples` replaces only EvalScope's reading of the rows (a local layout or ``--rows``,
:mod:`~promptkit.frontends.evalscope.layouts`); everything else is the adapter's own hooks, in EvalScope 1.x's order:

1. the test split of each subset (and, with ``few_shot_num > 0`` and ``few_shot_mode='auto'``, the train split) is
   read per *loader subset*: each ``subset_list`` entry, or — with ``reformat_subset`` — ``default_subset`` once,
   regrouped by ``Sample.subset_key`` into the ``subset_list`` order (other keys dropped);
2. per split: shuffled with the seed if asked (``shuffle`` for the test split, ``few_shot_random`` for shots; the
   ``datasets`` loader shuffles with numpy's ``default_rng(seed).permutation``, the local loader with
   ``random.Random(seed)``), cut to its limit (``few_shot_num`` shots; with ``reformat_subset`` per regrouped
   subset, after filtering), ``record_to_sample`` on each row, ``sample_filter``, numbered from 0, and each
   sample's choices shuffled if ``shuffle_choices`` (:func:`shuffle_choices`);
3. each test sample's input becomes its messages: the adapter's ``process_sample_str_input`` or
   ``process_sample_messages_input`` (its own ``_post_process_samples`` when it overrides it).

Errors name the subset and the row or sample, and say the way on.
"""

from __future__ import annotations

import hashlib
import random
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.errors import ConfigError, DatasetError, PromptkitError
from promptkit.frontends.evalscope.api.adapters import INFERENCE_HOOKS, LOADING_HOOKS, LocalLoader, RunConfig
from promptkit.frontends.evalscope.api.messages import MediaInPrompt, messages_to_markdown, openai_messages
from promptkit.frontends.evalscope.api.multi_choices import answer_character, answer_index
from promptkit.frontends.evalscope.layouts import RowFiles

__all__ = ["FORMATTING_HOOKS", "Loaded", "build_adapter", "load_samples", "loader_subsets", "shuffle_choices", "template_owned", "uses_local_loader"]

#: The hooks that turn a sample into its text, innermost last (an error names the innermost that raised).
FORMATTING_HOOKS = (
    "_post_process_samples",
    "process_sample_str_input",
    "process_sample_messages_input",
    "process_sample_input",
    "format_fewshot_template",
    "format_prompt_template",
    "sample_to_fewshot",
)
#: The modules of the adapters' API: promptkit's and EvalScope's (a hook defined there is not the benchmark's own).
_API_MODULES = ("promptkit.frontends.evalscope.api", "evalscope.api")
#: The API classes of the template pipeline, whose inference and loading hooks promptkit's pipeline stands in for.
_TEMPLATE_BASES = ("DataAdapter", "DefaultDataAdapter", "MultiChoiceAdapter")


@dataclass(frozen=True)
class Loaded:
    """A benchmark's test samples as they are sent, by subset (EvalScope's order; subsets with no sample dropped)."""

    #: subset name → one row per sample: ``messages`` (OpenAI-style), ``target``, ``choices``, ``subset``, ``id``.
    subsets: dict[str, list[dict[str, Any]]]


def template_owned(cls: type, hook: str) -> bool:
    """Whether ``cls``'s ``hook`` is that of the template pipeline (``DataAdapter``, ``DefaultDataAdapter``,
    ``MultiChoiceAdapter``): not the benchmark's own, nor that of an API base that builds its requests otherwise
    (``AgentAdapter``, ``MultiTurnAdapter``, ``DecisionAdapter`` …)."""
    for klass in cls.__mro__:
        if hook in vars(klass):
            return klass.__name__ in _TEMPLATE_BASES and klass.__module__.startswith(_API_MODULES)
    return True


def build_adapter(meta: Any, run: RunConfig, task_config: Any, where: dict[str, Any]) -> Any:
    """The adapter of ``meta`` (its ``data_adapter`` class), built as EvalScope builds it; its hooks checked."""
    cls = meta.data_adapter
    if cls is None:
        raise ConfigError(f"benchmark {meta.name!r} has no adapter class: decorate one with @register_benchmark(BenchmarkMeta(...))", **where)
    for hook in INFERENCE_HOOKS:
        if not template_owned(cls, hook):
            raise ConfigError(
                f"{_owner(cls, hook)} overrides {hook}, which builds the request when the model is called (an agent loop, a multi-turn "
                "exchange, a decision API); promptkit renders what the loaded samples send and calls no model, so it cannot run it",
                **where,
            )
    for hook in LOADING_HOOKS:
        if not template_owned(cls, hook):
            raise ConfigError(
                f"{_owner(cls, hook)} overrides {hook}, which loads rows its own way; promptkit reads the rows itself (the local "
                "layouts EvalScope's loaders read, or --rows), so it cannot run it",
                **where,
            )
    try:
        return cls(benchmark_meta=meta, task_config=task_config)
    except PromptkitError as error:
        raise error.add_context(**where) from None
    except (ValueError, AssertionError) as error:  # EvalScope's checks of the few-shot request
        raise ConfigError(f"{error}", **where) from None
    except ImportError as error:
        raise ConfigError(f"{cls.__name__} cannot be built: {error}", **where) from None
    except Exception as error:  # an adapter's __init__ is user code: report what it raised
        raise ConfigError(f"{cls.__name__}() raised {type(error).__name__}: {error}", **where) from error


def _owner(cls: type, hook: str) -> str:
    """The class (``cls`` or a base) that defines ``hook``: ``'MTBenchAdapter'``, ``'AgentAdapter (a base of X)'``."""
    klass = next(klass for klass in cls.__mro__ if hook in vars(klass))
    return cls.__name__ if klass is cls else f"{cls.__name__} (by its base {klass.__name__})"


def uses_local_loader(adapter: Any, where: dict[str, Any]) -> bool:
    """Whether the adapter reads a local folder with EvalScope's local file loader: its ``load_from_disk`` override
    calls ``super().load_from_disk(use_local_loader=True)`` (as ``general_qa`` does)."""
    cls = type(adapter)
    if template_owned(cls, "load_from_disk"):
        return False
    # On promptkit's API the base load_from_disk only answers which loader; on EvalScope's it would load the rows.
    answer = adapter.load_from_disk() if any(klass.__module__.startswith(_API_MODULES[0]) for klass in cls.__mro__) else None
    if not isinstance(answer, LocalLoader):
        raise ConfigError(
            f"{cls.__name__} overrides load_from_disk; promptkit reads the rows itself and takes from an override only which "
            "loader it picks (return super().load_from_disk(use_local_loader=True))",
            **where,
        )
    return answer.use_local_loader


def loader_subsets(adapter: Any) -> list[tuple[str, str, bool]]:
    """(loader subset, split, is the test split) of every split the adapter reads, in reading order."""
    few_shot = adapter.few_shot_mode == "auto" and adapter.few_shot_num > 0
    out = []
    for split, test in ((adapter.eval_split, True), (adapter.train_split, False)):
        if not test and not few_shot:
            continue
        if adapter.reformat_subset:
            out.append((adapter.default_subset, split, test))
        elif adapter.split_as_subset:
            out.extend((adapter.default_subset, subset, test) for subset in adapter.subset_list)
        else:
            out.extend((subset, split, test) for subset in adapter.subset_list)
    return out


def load_samples(adapter: Any, files: RowFiles, run: RunConfig, local: bool, where: dict[str, Any]) -> Loaded:
    """The adapter's test samples as messages, by subset (see the module docstring)."""
    test = _load_subsets(adapter, files, run, local, True, where)
    few_shot = adapter.few_shot_mode == "auto" and adapter.few_shot_num > 0
    shots = _load_subsets(adapter, files, run, local, False, where) if few_shot else None
    adapter.test_dataset, adapter.fewshot_dataset = test, shots
    _check_formatting(adapter, test, shots, where)
    if not template_owned(type(adapter), "_post_process_samples"):
        _run_hook(adapter._post_process_samples, (), "", None, where)
    else:
        for subset, samples in test.items():
            for sample in samples:
                if isinstance(sample.input, str):
                    sample.input = _run_hook(adapter.process_sample_str_input, (sample, subset), subset, sample.id, where)
                elif isinstance(sample.input, list):
                    sample.input = _run_hook(adapter.process_sample_messages_input, (sample, subset), subset, sample.id, where)
    subsets = {}
    for subset, samples in test.items():
        if samples:
            subsets[subset] = [_row(sample, subset, where) for sample in samples]
    return Loaded(subsets)


def _load_subsets(adapter: Any, files: RowFiles, run: RunConfig, local: bool, test: bool, where: dict[str, Any]) -> dict[str, list[Any]]:
    split = adapter.eval_split if test else adapter.train_split
    if adapter.reformat_subset:
        samples = _load_split(adapter, files, run, local, test, adapter.default_subset, split, None, where)
        limit = run.limit if test else adapter.few_shot_num
        grouped: dict[str, list[Any]] = {subset: [] for subset in adapter.subset_list}
        for sample in samples:
            key = sample.subset_key or "default"
            if key in grouped:
                grouped[key].append(sample)
        for subset, members in grouped.items():
            members = members[: _resolved(limit, len(members))] if limit is not None else members
            for index, sample in enumerate(members):
                sample.id, sample.group_id = index, index
            grouped[subset] = members
        return grouped
    out = {}
    for subset in adapter.subset_list:
        loader_subset, loader_split = (adapter.default_subset, subset) if adapter.split_as_subset else (subset, split)
        with adapter._temporary_attribute("current_subset_name", subset):
            out[subset] = _load_split(adapter, files, run, local, test, loader_subset, loader_split, run.limit if test else adapter.few_shot_num, where)
    return out


def _load_split(
    adapter: Any, files: RowFiles, run: RunConfig, local: bool, test: bool, subset: str, split: str, limit: int | float | None, where: dict[str, Any]
) -> list[Any]:
    """One loader subset's split as samples: shuffled, limited, converted, filtered, numbered, choices shuffled."""
    try:
        rows, source = files.rows(subset, split)
    except PromptkitError as error:
        raise error.add_context(**where) from None
    if adapter.shuffle if test else adapter.few_shot_random:
        rows = _shuffled(rows, run.seed, local)
    if limit:
        rows = rows[: _resolved(limit, len(rows))]
    place = dict(where, file=source)
    samples: list[Any] = []
    for index, record in enumerate(rows):
        try:
            made = adapter.record_to_sample(record)
        except PromptkitError as error:
            raise error.add_context(**place, row=index) from None
        except Exception as error:  # user code: the file, subset, row and exception
            raise DatasetError(f"record_to_sample raised {_raised(error)} (loader subset {subset!r}, split {split!r})", **place, row=index) from error
        samples.extend(made if isinstance(made, list) else [made])
    kept = []
    for sample in samples:
        try:
            keep = adapter.sample_filter(sample)
        except Exception as error:
            raise DatasetError(f"sample_filter raised {_raised(error)} (loader subset {subset!r}, split {split!r})", **place) from error
        if keep:
            kept.append(sample)
    for index, sample in enumerate(kept):
        sample.id, sample.group_id = index, index
    shuffle_choices(kept, adapter.shuffle_choices, run.seed)
    return kept


def _resolved(limit: int | float, size: int) -> int:
    return int(size * limit) if isinstance(limit, float) else limit


def _shuffled(rows: list[dict[str, Any]], seed: int | None, local: bool) -> list[dict[str, Any]]:
    """The rows in the order EvalScope's loader shuffles them: ``random.Random(seed)`` (local files) or the
    permutation of numpy's ``default_rng(seed)`` (``datasets``' ``Dataset.shuffle``)."""
    if local:
        out = list(rows)
        (random.Random(seed) if seed is not None else random.Random()).shuffle(out)
        return out
    import numpy  # only a shuffled datasets split needs it

    order = numpy.random.default_rng(seed).permutation(len(rows))
    return [rows[int(i)] for i in order]


def shuffle_choices(samples: Sequence[Any], setting: bool | int | None, seed: int | None) -> None:
    """Shuffle each sample's choices in place, as EvalScope does, and remap its target letters.

    ``setting`` ``True`` seeds with ``seed``, an int is the seed itself, ``False``/``None`` shuffles nothing.  Each
    sample's order is drawn from its own text: ``random.Random`` seeded with the first 8 bytes (big-endian) of the
    SHA-256 of ``seed``, the input text (messages as markdown) and the sorted choices, joined by NUL characters; new
    choice ``i`` is old choice ``perm[i]``.  Without a seed the order is random.

    >>> from promptkit.frontends.evalscope.api.samples import Sample
    >>> sample = Sample(input='What is the main source of energy for the water cycle?', choices=['the Sun', 'the Moon', 'wind', 'volcanoes'], target='A')
    >>> shuffle_choices([sample], True, 42)
    >>> sample.choices, sample.target
    (['volcanoes', 'the Sun', 'wind', 'the Moon'], 'B')
    """
    if setting is None or setting is False:
        return
    seed = seed if setting is True else int(setting)
    unseeded = random.Random() if seed is None else None
    for sample in samples:
        if not sample.choices:
            continue
        if unseeded is not None:
            rng = unseeded
        else:
            text = sample.input if isinstance(sample.input, str) else messages_to_markdown(sample.input)
            material = "\x00".join([str(seed), text, *sorted(sample.choices)])
            rng = random.Random(int.from_bytes(hashlib.sha256(material.encode("utf-8")).digest()[:8], "big"))
        order = list(range(len(sample.choices)))
        rng.shuffle(order)
        letters = {old: answer_character(new) for new, old in enumerate(order)}
        sample.choices = [sample.choices[i] for i in order]
        target = sample.target
        sample.target = [letters[answer_index(t)] for t in target] if isinstance(target, list) else letters[answer_index(target)]


def _check_formatting(adapter: Any, test: dict[str, list[Any]], shots: dict[str, list[Any]] | None, where: dict[str, Any]) -> None:
    """Refuse, with the way on, what EvalScope would fail on with a bare exception while formatting."""
    text_inputs = {subset for subset, samples in test.items() if any(isinstance(sample.input, str) for sample in samples)}
    if not text_inputs or not template_owned(type(adapter), "_post_process_samples") or not template_owned(type(adapter), "process_sample_input"):
        return
    name = adapter.name
    if adapter.few_shot_num > 0:
        if _default_hook(adapter, "format_fewshot_template") and adapter.few_shot_prompt_template is None:
            raise ConfigError(
                f"few_shot_num={adapter.few_shot_num} but {name!r} sets no few_shot_prompt_template, which its "
                "format_fewshot_template formats (EvalScope fails here: 'NoneType' object has no attribute 'format'); give one "
                "with --set few_shot_prompt_template='...{fewshot}...{question}...', or render zero-shot with --num-fewshot 0",
                **where,
            )
        if shots is not None:
            for subset in text_inputs:
                pool = shots.get(subset)
                if pool is None:
                    pool = shots[next(iter(shots))]
                if len(pool) < adapter.few_shot_num:
                    raise DatasetError(
                        f"subset {subset!r} has {len(pool)} few-shot sample(s) in split {adapter.train_split!r}, fewer than "
                        f"few_shot_num={adapter.few_shot_num} (EvalScope takes the first few_shot_num rows, then sample_filter, and "
                        "asserts there are enough); lower it with --num-fewshot, or give more rows",
                        **where,
                    )
    elif _default_hook(adapter, "format_prompt_template") and adapter.prompt_template is None:
        raise ConfigError(f"{name!r} sets no prompt_template, which its format_prompt_template formats; give one with --set prompt_template=...", **where)


def _default_hook(adapter: Any, hook: str) -> bool:
    """Whether ``hook`` is DefaultDataAdapter's own (which formats a template it does not check)."""
    for klass in type(adapter).__mro__:
        if hook in vars(klass):
            return klass.__name__ == "DefaultDataAdapter" and klass.__module__.startswith(_API_MODULES)
    return False


def _run_hook(hook: Callable[..., Any], args: tuple[Any, ...], subset: str, index: int | None, where: dict[str, Any]) -> Any:
    """``hook(*args)``, an error naming the hook that raised and the sample."""
    try:
        return hook(*args)
    except PromptkitError as error:
        raise error.add_context(**where) from None
    except Exception as error:  # the adapter's hooks are user code: which hook, which sample, what it raised
        raiser = _innermost_hook(error)
        what = f"sample {index} of subset {subset!r}" if index is not None else "the samples"
        hint = " (a multiple-choice template needs {question} and {choices})" if "template is not valid" in str(error) else ""
        raise ConfigError(f"{raiser} raised {_raised(error)} while building the prompt of {what}{hint}", **where) from error


def _innermost_hook(error: Exception) -> str:
    names = [frame.name for frame in traceback.extract_tb(error.__traceback__)]
    found = [name for name in names if name in FORMATTING_HOOKS]
    return found[-1] if found else "a prompt hook"


def _raised(error: Exception) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _row(sample: Any, subset: str, where: dict[str, Any]) -> dict[str, Any]:
    """A sample as a row: the messages it sends and what it is scored against."""
    try:
        messages = openai_messages(sample.input)
    except MediaInPrompt as error:
        raise ConfigError(
            f"sample {sample.id} of subset {subset!r}: {error}; promptkit's EvalScope front end renders text benchmarks "
            "(image, audio and video benchmarks are out of scope)",
            **where,
        ) from None
    target = sample.target if isinstance(sample.target, str) else list(sample.target)
    return {"messages": messages, "target": target, "choices": list(sample.choices) if sample.choices is not None else None, "subset": subset, "id": sample.id}
