"""Arrow values in their JSON form: what Parquet and Arrow columns of types JSON has no value for become in a row.

Rows are JSON values whatever file they come from, so that a template renders
them, and a record holds them, the same way.  Arrow types JSON has no value for
are read as text (ISO 8601 for times), exactly (nanoseconds and decimals
included), also inside lists and structs:

=============================  ====================================================================
Arrow type                     in the row
=============================  ====================================================================
``timestamp``                  ``'2024-01-02T03:04:05.123456'``; with a time zone, in it with its
                               offset (``'2024-01-02T04:04:05+01:00'``; UTC as ``Z``)
``date32``, ``date64``         ``'2024-01-02'``
``time32``, ``time64``         ``'03:04:05.123'``
``duration``                   ``'PT90.5S'``: ISO 8601, in seconds (``'-PT5S'`` when negative)
``decimal128``, ``decimal256``  ``'1.50'``: its digits, as text (a float would lose some)
``binary`` and its kinds       the bytes as UTF-8 text; bytes that are not UTF-8 are an error
                               naming the file, row and column
=============================  ====================================================================

Fractional seconds have the digits of the column's unit (3 for ``ms``, 6 for
``us``, 9 for ``ns``).  Columns of other types are read as ``pyarrow`` gives
them, and a schema with none of the types above costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from promptkit.data.sources.json_rows import RowValueError
from promptkit.errors import DatasetError

__all__ = ["JsonForm", "json_form"]

Finish = Callable[[Any], Any]
_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}


class JsonForm:
    """How the columns of one schema that need it become JSON values: a cast in Arrow, then a function per value."""

    def __init__(self, names: Sequence[str], casts: dict[int, Any], finish: dict[str, Finish]) -> None:
        self.names = list(names)
        self.casts = casts  # column position -> the Arrow type it is cast to
        self.finish = finish  # column name -> the function that finishes each of its values

    @property
    def columns(self) -> list[str]:
        """The columns whose values change, in schema order."""
        return [name for position, name in enumerate(self.names) if position in self.casts or name in self.finish]

    def rows(self, table: Any, path: Path, first_row: int) -> list[dict[str, Any]]:
        """The rows of a record batch or table of the schema (its first row is row ``first_row`` of the file at ``path``),
        with the columns in their JSON form; a value that has none is a ``DatasetError`` naming its file, row and column."""
        columns = [table.column(i).cast(self.casts[i]) if i in self.casts else table.column(i) for i in range(table.num_columns)]
        rows: list[dict[str, Any]] = type(table).from_arrays(columns, names=self.names).to_pylist()
        for position, row in enumerate(rows, start=first_row):
            for name, finish in self.finish.items():
                try:
                    row[name] = finish(row[name])
                except RowValueError as error:
                    raise DatasetError(error.message, file=str(path), row=position, key=name) from None
        return rows


def json_form(schema: Any) -> JsonForm | None:
    """The :class:`JsonForm` of a ``pyarrow`` schema, or ``None`` when every column's values are JSON values already."""
    casts: dict[int, Any] = {}
    finish: dict[str, Finish] = {}
    for position, field in enumerate(schema):
        plan = _plan(field.type)
        if plan is None:
            continue
        target, function = plan
        if target != field.type:
            casts[position] = target
        if function is not None:
            finish[field.name] = function
    return JsonForm(schema.names, casts, finish) if casts or finish else None


def _plan(data_type: Any) -> tuple[Any, Finish | None] | None:
    """(the Arrow type values of ``data_type`` are cast to, the function that finishes each in Python) for a type
    whose values are not all JSON values, else ``None``."""
    import pyarrow as pa  # imported by the Arrow readers before they get here

    types = pa.types
    if types.is_timestamp(data_type):
        return pa.string(), _timestamp
    if types.is_date(data_type) or types.is_time(data_type) or types.is_decimal(data_type):
        return pa.string(), None
    if types.is_duration(data_type):
        return pa.int64(), partial(_duration, _DIGITS[data_type.unit])
    if types.is_binary(data_type) or types.is_large_binary(data_type) or types.is_fixed_size_binary(data_type) or _is_binary_view(data_type):
        return data_type, _text
    if types.is_list(data_type) or types.is_large_list(data_type) or types.is_fixed_size_list(data_type):
        inner = _plan(data_type.value_type)
        if inner is None:
            return None
        item = data_type.value_field.with_type(inner[0])
        target = (
            pa.list_(item, data_type.list_size)
            if types.is_fixed_size_list(data_type)
            else pa.large_list(item)
            if types.is_large_list(data_type)
            else pa.list_(item)
        )
        return target, None if inner[1] is None else partial(_each, inner[1])
    if types.is_struct(data_type):
        fields = [data_type.field(i) for i in range(data_type.num_fields)]
        plans = [_plan(field.type) for field in fields]
        if all(plan is None for plan in plans):
            return None
        target = pa.struct([field if plan is None else field.with_type(plan[0]) for field, plan in zip(fields, plans, strict=True)])
        functions = {field.name: plan[1] for field, plan in zip(fields, plans, strict=True) if plan is not None and plan[1] is not None}
        return target, partial(_fields, functions) if functions else None
    if types.is_dictionary(data_type):
        return _plan(data_type.value_type)  # the cast decodes the dictionary
    return None


def _is_binary_view(data_type: Any) -> bool:
    import pyarrow as pa

    check = getattr(pa.types, "is_binary_view", None)  # pyarrow 16
    return bool(check is not None and check(data_type))


def _each(finish: Finish, values: list[Any] | None) -> list[Any] | None:
    return None if values is None else [finish(value) for value in values]


def _fields(functions: dict[str, Finish], value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return {key: functions[key](item) if key in functions else item for key, item in value.items()}


def _timestamp(text: str | None) -> str | None:
    """Arrow's text of a timestamp (``'2024-01-02 04:04:05.123+0100'``) as ISO 8601 (``'2024-01-02T04:04:05.123+01:00'``)."""
    if text is None:
        return None
    date, _, time = text.partition(" ")
    if len(time) > 5 and time[-5] in "+-" and time[-4:].isdigit():
        time = f"{time[:-2]}:{time[-2:]}"
    return f"{date}T{time}"


def _duration(digits: int, count: int | None) -> str | None:
    """A duration of ``count`` units of ``10**-digits`` seconds as ISO 8601 in seconds: ``'PT90.000005S'``."""
    if count is None:
        return None
    seconds, fraction = divmod(abs(count), 10**digits)
    shown = f"{seconds}.{fraction:0{digits}d}" if digits else str(seconds)
    return f"{'-' if count < 0 else ''}PT{shown}S"


def _text(data: bytes | None) -> str | None:
    """Binary data as the UTF-8 text it holds; :class:`RowValueError` if it holds bytes that are not UTF-8."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RowValueError(
            f"the value is binary data that is not UTF-8 text ({error.reason}: byte 0x{data[error.start]:02x} at offset "
            f"{error.start}); promptkit renders text: store the column as strings (base64 for bytes that are not text)"
        ) from None
