"""lm-eval's few-shot samplers (``lm_eval/api/samplers.py``) as a retriever.

* ``default``: one ``random.Random(seed)`` per task (``fewshot_random_seed``, 1234 unless the run says otherwise),
  whose state runs on across the task's documents in order, one draw per document: ``sample(pool, n)``; when the
  document under test is to be left out, ``sample(pool, n + 1)`` with every row equal to it dropped, the first
  ``n`` kept (drawn again from the pool without it if fewer remain).  No draw at 0 shots.
* ``first_n``: the first ``n`` rows of the pool, in order, rows equal to the document under test dropped first.

The document under test is left out when the task's few-shot split equals its ``test_split``
(:attr:`~promptkit.frontends.lmeval.config.TaskConfig.removes_eval_doc`); removal is by equality of the rows, as in
lm-eval, so every copy of the document goes.  Shots appear in the order drawn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.frontends.lmeval.config import TaskConfig
from promptkit.retrievers.base import Retriever

__all__ = ["TaskSampler"]


class TaskSampler(Retriever):
    """The shots of each document of a task (see the module docstring)."""

    #: ``--num-fewshot`` is applied by the front end, with lm-eval's rule for a task that says 0.
    shot_count_param: ClassVar[str | None] = None

    def __init__(self, config: TaskConfig) -> None:
        super().__init__(ice_separator="", ice_eos_token="", ice_num=config.num_fewshot)
        self.config = config

    def retrieve(self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig) -> list[list[int]]:
        n = self.ice_num
        if not n:
            return [[] for _ in queries]
        self.check_pool(pool, reader)
        removes = self.config.removes_eval_doc
        if self.config.fewshot.sampler == "first_n":
            return [self._first(pool, doc if removes else None, n) for doc in queries]
        rnd = random.Random(self.config.seed)
        every = range(len(pool))
        picked = []
        for doc in queries:
            if not removes:
                self._check_size(len(pool), n)
                picked.append(rnd.sample(every, n))
                continue
            self._check_size(len(pool), n + 1)
            kept = [i for i in rnd.sample(every, n + 1) if pool[i] != doc][:n]
            if len(kept) < n:  # the pool held copies of the document: draw again from the pool without them
                others = [i for i in every if pool[i] != doc]
                self._check_size(len(others), n)
                kept = rnd.sample(others, n)
            picked.append(kept)
        return picked

    def _first(self, pool: Sequence[Mapping[str, Any]], doc: Mapping[str, Any] | None, n: int) -> list[int]:
        allowed = [i for i in range(len(pool)) if doc is None or pool[i] != doc]
        if n > len(allowed):
            raise RetrieverError(
                f"num_fewshot={n} but the few-shot pool has {len(allowed)} documents to show (first_n takes them in order); "
                "lower --num-fewshot",
                key="num_fewshot",
            )
        return allowed[:n]

    def check_pool(self, pool: Sequence[Mapping[str, Any]], reader: ReaderConfig) -> None:
        if not pool:
            raise RetrieverError(
                f"num_fewshot={self.ice_num} but the task's few-shot pool is empty: give its split (fewshot_split, else "
                "training_split, validation_split, test_split) with --rows SPLIT=FILE, or use --num-fewshot 0",
                key="num_fewshot",
            )

    def _check_size(self, size: int, wanted: int) -> None:
        if wanted > size:
            raise RetrieverError(
                f"num_fewshot={self.ice_num}: lm-eval draws {wanted} documents from the few-shot pool here, and it has {size}; lower --num-fewshot",
                key="num_fewshot",
            )

    def __repr__(self) -> str:
        return f"TaskSampler({self.config.fewshot.sampler!r}, num_fewshot={self.ice_num}, seed={self.config.seed})"
