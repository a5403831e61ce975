"""Config files that are plain data, read without mmengine.

A config file that only assigns literals — strings, numbers, ``True``/``None``,
lists, tuples, ``{...}`` and ``dict(key=value)`` — and names assigned above it
(``datasets = [dict(reader_cfg=reader_cfg, ...)]``) means the same to
mmengine's ``Config.fromfile`` as to a reader of its syntax tree, and reading
it that way costs a parse, where mmengine costs its import (a fifth of a
second, numpy with it).  Anything else — an import, ``read_base()``,
``_base_``, ``{{ ... }}`` substitutions, a call other than ``dict``, an
operator, a key mmengine treats specially — leaves the file to mmengine, so
what mmengine does (and the errors it raises) stays as it was.

>>> plain_values("abbr = 'x'\\nreader = dict(input_columns=['q'])\\ndatasets = [dict(abbr=abbr, reader_cfg=reader)]\\n")
{'abbr': 'x', 'reader': {'input_columns': ['q']}, 'datasets': [{'abbr': 'x', 'reader_cfg': {'input_columns': ['q']}}]}
>>> plain_values("from promptkit import PromptTemplate\\nt = dict(type=PromptTemplate)\\n") is None
True
"""

from __future__ import annotations

import ast
from typing import Any

__all__ = ["plain_values"]

#: Names mmengine gives a meaning (bases, deprecation notes, imports to run, Config's own attributes): such a file is its.
_MMENGINE_NAMES = frozenset({"_base_", "_deprecation_", "custom_imports", "filename", "text", "pretty_text", "env_variables", "dict"})


class _NotPlain(Exception):
    """The file holds something only running it (mmengine) can give."""


def plain_values(text: str) -> dict[str, Any] | None:
    """The top-level names of a config file's text and their values (fresh containers each), or ``None`` if the file is
    not plain data (see the module docstring) and mmengine must read it."""
    if "{{" in text:  # mmengine substitutes {{ fileDirname }}, {{ $ENV }} and {{ _base_.x }} anywhere in the text
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None  # mmengine reports it
    values: dict[str, Any] = {}
    try:
        for index, statement in enumerate(tree.body):
            if index == 0 and isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str):
                continue  # the docstring
            if not isinstance(statement, ast.Assign) or not all(isinstance(target, ast.Name) for target in statement.targets):
                raise _NotPlain
            value = _value(statement.value, values)
            for target in statement.targets:
                name = target.id  # type: ignore[attr-defined]  # checked above: every target is a Name
                if name in _MMENGINE_NAMES:
                    raise _NotPlain
                values[name] = value
    except _NotPlain:
        return None
    return {name: _fresh(value) for name, value in values.items() if not name.startswith("__")}


def _value(node: ast.expr, names: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant) and not isinstance(node.value, type(...)):
        return node.value
    if isinstance(node, ast.List):
        return [_value(item, names) for item in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_value(item, names) for item in node.elts)
    if isinstance(node, ast.Dict) and all(key is not None for key in node.keys):  # no ** unpacking
        return {_key(key, names): _value(item, names) for key, item in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]  # no None key, checked above
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        if any(keyword.arg is None for keyword in node.keywords):  # dict(**other)
            raise _NotPlain
        return {keyword.arg: _value(keyword.value, names) for keyword in node.keywords}
    if isinstance(node, ast.Name) and node.id in names:
        return _fresh(names[node.id])
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd) and isinstance(node.operand, ast.Constant):
        number = node.operand.value
        if isinstance(number, int | float) and not isinstance(number, bool):
            return -number if isinstance(node.op, ast.USub) else number
    raise _NotPlain


def _key(node: ast.expr, names: dict[str, Any]) -> Any:
    key = _value(node, names)
    try:
        hash(key)
    except TypeError:  # running the file raises it; mmengine reports it
        raise _NotPlain from None
    return key


def _fresh(value: Any) -> Any:
    """A copy of a value's containers (two uses of one name are two values, as mmengine's ConfigDict makes them)."""
    if isinstance(value, dict):
        return {name: _fresh(item) for name, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_fresh(item) for item in value)
    return value
