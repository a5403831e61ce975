"""Worked examples a native benchmark shows as its fixed shots, read from the installed EvalScope package.

BBH's chain-of-thought prompts (one per task) and GPQA's five worked examples are files of EvalScope's, not
templates: promptkit does not ship them.  :func:`installed_constant` reads a module-level constant of an installed
EvalScope module by parsing its source — nothing is imported, so ``pip install evalscope --no-deps`` suffices — and
otherwise says how to get it or do without.
"""

from __future__ import annotations

import ast
import importlib.machinery
from functools import cache
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError

__all__ = ["installed_constant"]


def installed_constant(module: str, name: str, needed_for: str) -> Any:
    """The value of ``name`` in the installed EvalScope module ``module`` (``'benchmarks/bbh/cot_prompts'``)."""
    root = _package_root()
    path = root / f"{module}.py" if root is not None else None
    if path is None or not path.is_file():
        raise ConfigError(
            f"{needed_for} are EvalScope's own worked examples (evalscope/{module}.py), which promptkit reads from an installed "
            "EvalScope and does not ship: install it (pip install evalscope --no-deps is enough; nothing of it is imported), or "
            "render zero-shot with --num-fewshot 0"
        )
    return _constants(path)[name]


def _package_root() -> Path | None:
    # PathFinder finds the installed package without importing it (nor any finder of promptkit's).
    spec = importlib.machinery.PathFinder.find_spec("evalscope")
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


@cache
def _constants(path: Path) -> dict[str, Any]:
    """The module's top-level constants: literals, and dicts, lists and sums of literals and earlier constants."""
    values: dict[str, Any] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = _value(node.value, values)
            except ValueError:
                continue
    return values


def _value(node: ast.AST, known: dict[str, Any]) -> Any:
    if isinstance(node, ast.Name) and node.id in known:
        return known[node.id]
    if isinstance(node, ast.Dict):
        return {_value(key, known): _value(value, known) for key, value in zip(node.keys, node.values, strict=True) if key is not None}
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(item, known) for item in node.elts]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _value(node.left, known) + _value(node.right, known)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("strip", "lstrip", "rstrip") and not node.args:
        return getattr(_value(node.func.value, known), node.func.attr)()
    if isinstance(node, ast.Constant):
        return node.value
    raise ValueError(f"not a constant: {ast.dump(node)[:60]}")
