"""``ZeroRetriever``: no shots (zero-shot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.data.reader import ReaderConfig
from promptkit.retrievers.base import Retriever

__all__ = ["ZeroRetriever"]


class ZeroRetriever(Retriever):
    """Picks no shots; the few-shot block renders as ``ice_eos_token`` (``''`` by default)."""

    shot_count_param = None
    streams_rows = True

    def __init__(self, ice_eos_token: str = "") -> None:
        super().__init__(ice_separator="", ice_eos_token=ice_eos_token, ice_num=0)

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        return [[] for _ in queries]
