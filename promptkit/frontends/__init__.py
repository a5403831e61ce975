"""Front ends: config sources, each compiled to :class:`~promptkit.plan.dataset.DatasetSpec` values.

A front end reads one kind of config — EvalScope benchmarks (:mod:`promptkit.frontends.evalscope`: ``evalscope:NAME``
and adapter files), OpenCompass/AISBench config files (:mod:`promptkit.frontends.opencompass`), lm-evaluation-harness
task files (:mod:`promptkit.frontends.lmeval`) — and hands every stage below the same values: dataset specs, whose loader, reader, templates, retriever and
inferencer say what each test row becomes (the plan, :mod:`promptkit.plan`).  Nothing below this package knows which
front end a spec came from.

:func:`load_datasets` asks each front end in turn whether it reads a source (a file path, or a name such as
``evalscope:gsm8k``) and loads it with the first that does.  A package adds a front end of its own by registering a
class implementing :class:`FrontEnd` in the ``promptkit.frontends`` entry-point group (docs/plugins.md); the
built-in ones are asked first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Protocol, runtime_checkable

from promptkit.errors import ConfigError
from promptkit.frontends.evalscope import PREFIX, imports_evalscope
from promptkit.frontends.lmeval import LMEvalTasks
from promptkit.frontends.opencompass.loader import load_datasets as load_opencompass
from promptkit.frontends.opencompass.overrides import Overrides
from promptkit.frontends.options import SourceOptions
from promptkit.plan.dataset import DatasetSpec

__all__ = [
    "BUILT_IN",
    "ENTRY_POINT_GROUP",
    "EvalScopeBenchmarks",
    "FrontEnd",
    "LMEvalTasks",
    "OpenCompassConfigs",
    "SourceOptions",
    "front_ends",
    "load_datasets",
]

#: The entry-point group third-party front ends register in.
ENTRY_POINT_GROUP = "promptkit.frontends"


@runtime_checkable
class FrontEnd(Protocol):
    """A config source's reader: whether it reads a source, and the dataset specs it makes of it."""

    @property
    def name(self) -> str:
        """The front end's name in messages (``'opencompass'``)."""
        ...

    def reads(self, source: str) -> bool:
        """Whether ``source`` (a path, or a name such as ``evalscope:gsm8k``) is this front end's to read."""
        ...

    def load(self, source: str, options: SourceOptions) -> list[DatasetSpec]:
        """Every dataset ``source`` defines, with ``options`` applied."""
        ...


class OpenCompassConfigs:
    """OpenCompass and AISBench dataset config files: Python files defining ``datasets = [...]``."""

    name = "opencompass"

    def reads(self, source: str) -> bool:
        return source.endswith(".py")

    def load(self, source: str, options: SourceOptions) -> list[DatasetSpec]:
        if options.seed is not None:
            raise ConfigError(
                f"--seed {options.seed}: an OpenCompass config's shots come from its retriever, which has its own seed "
                "(--set infer_cfg.retriever.seed=N)"
            )
        if len(options.rows) > 1 or any("=" in rows and not Path(rows).exists() for rows in options.rows):
            raise ConfigError(
                f"--rows {' '.join(options.rows)}: an OpenCompass config takes one --rows FILE, which feeds every dataset (each "
                "keeps its reader_cfg and infer_cfg)"
            )
        return load_opencompass(source, data_root=options.data_root, rows=options.rows[0] if options.rows else None, overrides=options.overrides)


class EvalScopeBenchmarks:
    """EvalScope's benchmarks (:mod:`promptkit.frontends.evalscope`): ``evalscope:NAME``, and adapter files (``.py`` files
    that import ``evalscope``)."""

    name = "evalscope"

    def reads(self, source: str) -> bool:
        return source.startswith(PREFIX) or imports_evalscope(Path(source))

    def load(self, source: str, options: SourceOptions) -> list[DatasetSpec]:
        from promptkit.frontends.evalscope.loader import load_benchmarks  # imported when an EvalScope source is read

        overrides = options.overrides
        if options.seed is not None:  # EvalScope's TaskConfig.seed, as --set seed=N sets it
            overrides = replace(overrides, set=(*overrides.set, f"seed={options.seed}"))
        return load_benchmarks(source, options.data_root, options.rows, overrides)


#: The front ends promptkit ships, asked first, in this order (EvalScope's before OpenCompass's, which reads every ``.py``).
BUILT_IN: tuple[FrontEnd, ...] = (EvalScopeBenchmarks(), OpenCompassConfigs(), LMEvalTasks())


def front_ends() -> tuple[FrontEnd, ...]:
    """The front ends, in the order they are asked: the built-in ones, then those packages register."""
    return BUILT_IN + _registered()


@cache
def _registered() -> tuple[FrontEnd, ...]:
    """The front ends installed packages register (entry points are read once, when no built-in one reads a source)."""
    from importlib.metadata import entry_points  # slow to import: read only for a source no built-in front end reads

    found: list[FrontEnd] = []
    for point in entry_points(group=ENTRY_POINT_GROUP):
        front_end = point.load()()
        if not isinstance(front_end, FrontEnd):
            raise ConfigError(f"entry point {point.name!r} ({point.value}) in group {ENTRY_POINT_GROUP!r} does not implement FrontEnd")
        found.append(front_end)
    return tuple(found)


def load_datasets(
    source: str | Path,
    *,
    data_root: str | Path | None = None,
    rows: str | Path | Sequence[str] | None = None,
    overrides: Overrides | Sequence[str] | None = None,
    seed: int | None = None,
) -> list[DatasetSpec]:
    """Every dataset of a config source, read by the first front end that reads it.

    ``data_root`` is the folder datasets read their data from; ``rows`` a data file that feeds every dataset (or, for
    front ends that take it, ``SPLIT=FILE`` lines); ``overrides`` the run's ``KEY=VALUE`` edits (or an
    :class:`~promptkit.frontends.opencompass.overrides.Overrides`), recorded on each spec; ``seed`` the few-shot seed
    of a front end that draws shots with one (lm-eval's).
    """
    text = str(source)
    given = () if rows is None else (str(rows),) if isinstance(rows, (str, Path)) else tuple(map(str, rows))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError(f"seed must be an int (got {seed!r})", key="seed")
    options = SourceOptions(None if data_root is None else Path(data_root), given, Overrides.of(overrides), seed)
    for front_end in (*BUILT_IN, *(() if any(built_in.reads(text) for built_in in BUILT_IN) else _registered())):
        if front_end.reads(text):
            return front_end.load(text, options)
    names = ", ".join(front_end.name for front_end in front_ends())
    raise ConfigError(
        f"no front end reads this config source (the front ends: {names}); a dataset config is a .py file, an lm-eval task a .yaml "
        "file or lmeval:NAME, an EvalScope benchmark evalscope:NAME",
        config=text,
    )
