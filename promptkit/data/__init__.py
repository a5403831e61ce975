"""Stage 0: rows from data files, and ``reader_cfg`` (columns, splits, ranges)."""

from promptkit.data.loaders import JsonlDataset, RowsDataset
from promptkit.data.reader import ReaderConfig

__all__ = ["JsonlDataset", "ReaderConfig", "RowsDataset"]
