"""What a run adds to a config source (:class:`SourceOptions`), as every front end receives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from promptkit.frontends.opencompass.overrides import Overrides

__all__ = ["SourceOptions"]


@dataclass(frozen=True)
class SourceOptions:
    """What a run adds to a config source: where data lives and what to change (the CLI's ``--data-root``,
    ``--rows``, ``--set``, ``--num-fewshot`` and ``--seed``)."""

    #: The folder a front end's datasets read their data from (OpenCompass's ``$COMPASS_DATA_CACHE``).
    data_root: Path | None = None
    #: ``--rows`` as given: one data file for every dataset, or ``SPLIT=FILE`` (a front end may take ``SUBSET:SPLIT=FILE``).
    rows: tuple[str, ...] = ()
    #: ``--set KEY=VALUE`` and ``--num-fewshot K``.
    overrides: Overrides = field(default_factory=Overrides)
    #: ``--seed N``: the seed of a front end whose shots are drawn at random with one (lm-eval's few-shot seed).
    seed: int | None = None
