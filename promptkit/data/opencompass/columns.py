"""Rows as an Arrow table gives them back: how OpenCompass's rows get their columns and value types.

OpenCompass's loaders hand their rows to ``datasets.Dataset.from_list``, which
stores them as an Arrow table; the rows a template sees are read back from it.
That round trip decides the columns and the types:

* the columns are the first row's keys, in their order; a later row's missing
  key is ``None`` and its extra keys are dropped;
* a nested dict gets every key any row has at that place (missing ones
  ``None``), sorted: Arrow's inference from Python values sorts a struct's
  fields (its JSON reader keeps them in order of first appearance);
* where ints and floats meet in one column (or one place of a nested value),
  the ints become floats.

>>> from_list([{"a": 1, "b": {"y": 1}}, {"b": {"x": 2.5}, "c": 3}])
[{'a': 1, 'b': {'x': None, 'y': 1}}, {'a': None, 'b': {'x': 2.5, 'y': None}}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["from_list", "from_columns", "unify"]



def from_list(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``Dataset.from_list(rows)`` read back: columns from the first row, types unified per column."""
    if not rows:
        return []
    return from_columns(list(rows[0]), rows, sort_keys=True)


def from_columns(columns: Sequence[str], rows: Sequence[Mapping[str, Any]], sort_keys: bool) -> list[dict[str, Any]]:
    """The rows with exactly ``columns`` (missing ones ``None``), each column's values unified."""
    unified = {name: unify([row.get(name) for row in rows], sort_keys) for name in columns}
    return [{name: unified[name][index] for name in columns} for index in range(len(rows))]


def unify(values: list[Any], sort_keys: bool) -> list[Any]:
    """The values of one column as Arrow stores them: dicts merged to one key set (sorted or not), ints widened beside floats."""
    present = [value for value in values if value is not None]
    if not present:
        return values
    if all(isinstance(value, Mapping) for value in present):
        keys = list(dict.fromkeys(key for value in present for key in value))
        if sort_keys:
            keys.sort()
        fields = {key: unify([None if value is None else value.get(key) for value in values], sort_keys) for key in keys}
        return [None if value is None else {key: fields[key][index] for key in keys} for index, value in enumerate(values)]
    if all(isinstance(value, list) for value in present):
        items = unify([item for value in present for item in value], sort_keys)
        out: list[Any] = []
        position = 0
        for value in values:
            if value is None:
                out.append(None)
            else:
                out.append(items[position : position + len(value)])
                position += len(value)
        return out
    numbers = [value for value in present if isinstance(value, (int, float)) and not isinstance(value, bool)]
    if len(numbers) == len(present) and any(isinstance(value, float) for value in numbers):
        return [None if value is None else float(value) for value in values]
    return values
