"""Load and retrieve: a dataset's pool and test split, read once, and the shots picked for each test row.

:class:`SplitRows` reads the splits through the dataset's loader and ``reader_cfg`` (columns checked, ranges
applied) when first asked for, and picks shots with the dataset's retriever.  It streams the test split — reads
rows as they are rendered, :data:`STREAM_CHUNK` at a time, picking their shots per chunk — when the loader can and
no row's shots depend on other test rows (``ZeroRetriever``, ``FixKRetriever``, an inferencer that uses no shots).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property

from promptkit.data.progress import Progress, reporting
from promptkit.data.protocol import StreamingDataset
from promptkit.data.reader import apply_range
from promptkit.data.streaming import FileRows
from promptkit.errors import ConfigError, DatasetError, PromptkitError
from promptkit.plan.dataset import DatasetSpec
from promptkit.types import Row

__all__ = ["STREAM_CHUNK", "RowWithShots", "SplitRows"]

#: How many streamed test rows are read (and their shots picked) at a time: the fixed buffer of a streaming run.
STREAM_CHUNK = 256

#: A test row to render: its index, the row, its shots.
RowWithShots = tuple[int, Row, Sequence[int]]


class SplitRows:
    """The pool and test rows of ``dataset`` and their shots (see the module docstring); ``uses_shots``: whether the
    inferencer puts shots into its prompts (no shots are picked otherwise)."""

    def __init__(self, dataset: DatasetSpec, uses_shots: bool, progress: Progress | None = None) -> None:
        self.dataset = dataset
        self.uses_shots = uses_shots
        self.progress = progress
        loader = dataset.loader
        #: Whether test rows are read as they are rendered: the loader can stream, and a row's shots need no other test row.
        self.streaming = isinstance(loader, StreamingDataset) and (dataset.retriever.streams_rows or not uses_shots)

    def __getstate__(self) -> dict[str, object]:
        # A pickled copy (a worker's) carries the loaded rows and picked shots; progress reports stay with the caller.
        return {**self.__dict__, "progress": None}

    @cached_property
    def _splits(self) -> tuple[Sequence[Row], Sequence[Row]]:
        base_dir = self.dataset.config_path.parent if self.dataset.config_path else None
        with reporting(self.progress):
            loader = self.dataset.loader
            splits = loader.stream(base_dir) if isinstance(loader, StreamingDataset) and self.streaming else loader.load(base_dir)
        reader = self.dataset.reader
        pool = apply_range(splits.get(reader.train_split), reader.train_range, "reader_cfg.train_range")
        test = apply_range(splits.get(reader.test_split), reader.test_range, "reader_cfg.test_range")
        if _empty(test):
            raise DatasetError(f"the test split {reader.test_split!r} has no rows; check the data file and reader_cfg.test_range")
        reader.check_schema(splits.schema(reader.test_split), reader.test_split)
        if not isinstance(test, FileRows):  # streamed rows are checked as they are read (rows_with_shots)
            reader.check_columns(test, reader.test_split)
        if pool is not test and self.dataset.retriever.ice_num > 0:  # a retriever of no shots (ZeroRetriever) reads no pool row
            reader.check_schema(splits.schema(reader.train_split), reader.train_split)
            reader.check_columns(pool, reader.train_split)
        return pool, test

    @property
    def pool(self) -> Sequence[Row]:
        """The rows shots are picked from (the train split)."""
        return self._splits[0]

    @property
    def test(self) -> Sequence[Row]:
        """The test split (a lazy sequence of a file's rows when it streams)."""
        return self._splits[1]

    @cached_property
    def ice_indices(self) -> list[list[int]]:
        """The shots picked for each test row (none when the inferencer uses no shots); a streaming split picks them
        as rows are read instead, and builds this list only when asked."""
        return self.retrieve(self.test)

    def retrieve(self, rows: Sequence[Row]) -> list[list[int]]:
        """The shots of ``rows`` (test rows, or rows outside the split)."""
        if not self.uses_shots:
            return [[] for _ in rows]
        with reporting(self.progress):
            return self.dataset.retriever.retrieve(self.pool, rows, self.dataset.reader)

    def row(self, index: int) -> Row:
        """Test row ``index`` (checked against the split)."""
        rows = self.test
        if 0 <= index < len(rows):
            return rows[index]
        raise ConfigError(f"index {index} is out of range: the test split has {len(rows)} rows (0 to {len(rows) - 1})", key="index")

    def shots_of(self, index: int, row: Row) -> Sequence[int]:
        """The shots of test row ``index``: picked for all rows at once, or for this one when the split streams."""
        if self.streaming and "ice_indices" not in self.__dict__:
            return self.retrieve([row])[0]
        return self.ice_indices[index]

    def with_shots(self, indices: Iterable[int] | None = None) -> Iterator[RowWithShots]:
        """Each test row (all, or ``indices``) with its index and shots, read as they are asked for."""
        if not self.streaming:
            ice_indices = self.ice_indices
            for index in range(len(self.test)) if indices is None else indices:
                yield index, self.row(index), ice_indices[index]
            return
        rows = self.test
        numbered: Iterator[tuple[int, Row]]
        if indices is None:
            numbered = enumerate(rows)
        elif isinstance(indices, range) and indices.step == 1 and 0 <= indices.start <= indices.stop <= len(rows):
            numbered = zip(indices, rows[indices.start : indices.stop], strict=True)  # consecutive rows of a file: read in one piece
        else:
            numbered = ((i, self.row(i)) for i in indices)
        reader = self.dataset.reader
        failure: PromptkitError | None = None
        while failure is None:
            chunk: list[tuple[int, Row]] = []
            try:  # a row that cannot be read (it names its file, line and row) ends the run after the rows before it
                for item in numbered:
                    chunk.append(item)
                    if len(chunk) == STREAM_CHUNK:
                        break
            except PromptkitError as error:
                failure = error
            if not chunk:
                break
            wanted = reader.columns
            for index, row in chunk:
                if not wanted <= row.keys():
                    reader.check_columns([row], reader.test_split, first=index)
            for (index, row), ice_idx in zip(chunk, self.retrieve([row for _, row in chunk]), strict=True):
                yield index, row, ice_idx
        if failure is not None:
            raise failure


def _empty(rows: Sequence[Row]) -> bool:
    """Whether there are no rows; a streamed file is not counted for it (its first row is read)."""
    if isinstance(rows, FileRows):
        return next(iter(rows), None) is None
    return not rows
