"""``EmbeddedShotsRetriever``: each row's own few-shot examples, in the order the row lists them.

Dataset formats that embed few-shot examples in their records (the
standardized Sample's ``few_shot_examples``, task-spec's ``few_shot_examples``)
load them into the ``few_shot`` split and list each row's in its
``few_shot_ids`` column; this retriever hands exactly those to the
``ice_template``, so any template can render a row's own examples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers.base import Retriever

__all__ = ["EmbeddedShotsRetriever"]


class EmbeddedShotsRetriever(Retriever):
    """Picks the pool rows listed in each query row's ``column`` (default ``few_shot_ids``).

    The pool must be the ``few_shot`` split the format loaders build
    (``reader_cfg.train_split='few_shot'``), taken whole (no ``train_range``).
    """

    shot_count_param = None

    def __init__(self, column: str = "few_shot_ids", ice_separator: str = "", ice_eos_token: str = "") -> None:
        super().__init__(ice_separator, ice_eos_token, ice_num=0)
        if not isinstance(column, str) or not column:
            raise RetrieverError(f"column must be a column name (got {column!r})", key="column")
        self.column = column

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        if reader.train_split != "few_shot" or reader.train_range is not None:
            raise RetrieverError(
                "EmbeddedShotsRetriever picks each row's own examples from the 'few_shot' split built by the format loaders; "
                f"set reader_cfg train_split='few_shot' (got {reader.train_split!r}) and no train_range",
                key="reader_cfg.train_split",
            )
        out = []
        for index, row in enumerate(queries):
            ids = row.get(self.column)
            if not isinstance(ids, list) or not all(isinstance(i, int) and 0 <= i < len(pool) for i in ids):
                raise RetrieverError(
                    f"row {index}: column {self.column!r} must list the row's few-shot examples as indices into the few_shot "
                    f"split (0 to {len(pool) - 1}), as the format loaders build it (got {ids!r})",
                    key=self.column,
                )
            out.append(list(ids))
        return out

    def __repr__(self) -> str:
        return f"EmbeddedShotsRetriever(column={self.column!r}, ice_separator={self.ice_separator!r}, ice_eos_token={self.ice_eos_token!r})"
