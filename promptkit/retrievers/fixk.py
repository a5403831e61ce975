"""``FixKRetriever``: the same shots, in the given order, for every row."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers.base import Retriever

__all__ = ["FixKRetriever"]


class FixKRetriever(Retriever):
    """Uses the pool rows ``fix_id_list`` as shots for every row (``ice_num`` is ignored, as in OpenCompass)."""

    shot_count_param = "fix_id_list"
    streams_rows = True

    def __init__(self, fix_id_list: Sequence[int], ice_separator: str = "\n", ice_eos_token: str = "\n", ice_num: int = 1) -> None:
        super().__init__(ice_separator, ice_eos_token, ice_num)
        if isinstance(fix_id_list, (str, bytes, Mapping, set, frozenset)) or not isinstance(fix_id_list, Iterable):
            raise RetrieverError(f"fix_id_list must be a list of row ids, in the order they are shown (got {fix_id_list!r})", key="fix_id_list")
        ids = list(fix_id_list)
        for i in ids:
            if not isinstance(i, int) or isinstance(i, bool):
                raise RetrieverError(f"fix_id_list must hold integers (got {i!r} that is a {type(i).__name__})", key="fix_id_list")
        self.fix_id_list = ids

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        for i in self.fix_id_list:
            if not 0 <= i < len(pool):
                raise RetrieverError(
                    f"fix_id_list id {i} is out of range: the train split '{reader.train_split}' has {len(pool)} rows "
                    f"(ids 0 to {len(pool) - 1})",
                    key="fix_id_list",
                )
        return [list(self.fix_id_list) for _ in queries]

    def __repr__(self) -> str:
        return f"FixKRetriever(fix_id_list={self.fix_id_list!r}, ice_separator={self.ice_separator!r}, ice_eos_token={self.ice_eos_token!r})"
