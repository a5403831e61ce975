"""The retriever interface: the base class every retriever subclasses (the retriever kind's protocol).

A retriever picks, for each query row, the indices of rows of the pool (the
train split) to show as shots, in prompt order.  ``reader.input_text(row)``
is the text of a row that similarity-based retrievers compare.  It also carries how the
rendered shots are joined (``ice_separator``, ``ice_eos_token``) and how many
to pick (``ice_num``), as OpenCompass's retrievers do.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError

__all__ = ["Retriever"]


class Retriever(ABC):
    """Base class: subclasses implement :meth:`retrieve`."""

    #: The config parameter that says how many shots are picked (``--num-fewshot`` sets it; a list is cut to
    #: its first K); ``None``: the retriever's shots are not a count (none, or the row's own).
    shot_count_param: ClassVar[str | None] = "ice_num"
    #: Whether a test row's shots depend on nothing but the row and the pool (not on the other test rows or on the
    #: row's position), so the pipeline picks them as the rows stream, a chunk at a time, and reads the test split
    #: lazily: ``ZeroRetriever`` and ``FixKRetriever``. The others are given the whole test split at once.
    streams_rows: ClassVar[bool] = False

    def __init__(self, ice_separator: str = "\n", ice_eos_token: str = "\n", ice_num: int = 1) -> None:
        for name, value in (("ice_separator", ice_separator), ("ice_eos_token", ice_eos_token)):
            if not isinstance(value, str):
                raise RetrieverError(f"{name} must be a str (got {value!r} that is a {type(value).__name__})", key=name)
        if isinstance(ice_num, bool) or not isinstance(ice_num, int) or ice_num < 0:
            raise RetrieverError(f"ice_num must be a whole number of shots (got {ice_num!r})", key="ice_num")
        self.ice_separator = ice_separator
        self.ice_eos_token = ice_eos_token
        self.ice_num = ice_num

    @abstractmethod
    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        """One list of pool indices per query row, in the order the shots appear in the prompt."""

    def check_pool(self, pool: Sequence[Mapping[str, Any]], reader: ReaderConfig) -> None:
        """A pool to pick ``ice_num`` distinct shots from must have at least that many rows."""
        if self.ice_num and not pool:
            raise RetrieverError(
                f"the train split {reader.train_split!r} has no rows to pick shots from; check the data file and "
                "reader_cfg.train_split/train_range, or use ZeroRetriever for zero-shot prompts",
                key="reader_cfg.train_split",
            )
        if self.ice_num > len(pool):
            raise RetrieverError(
                f"ice_num={self.ice_num} is larger than the train split {reader.train_split!r}, which has {len(pool)} rows; "
                f"lower ice_num to at most {len(pool)}",
                key="ice_num",
            )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(ice_separator={self.ice_separator!r}, ice_eos_token={self.ice_eos_token!r}, ice_num={self.ice_num})"
