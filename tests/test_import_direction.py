"""Imports inside promptkit go one way: a module imports only from its own layer or lower ones.

The layers, lowest first (docs/architecture.md shows the same table).  A
*unit* is a sub-package (``retrievers``) or a top-level module (``shots``);
every module of the package belongs to the layer of its unit.  Every import
counts: at module level, inside functions and under ``TYPE_CHECKING`` alike,
since each is a dependency a reader has to follow.  ``promptkit/__init__.py``,
the public surface, is exempt, and no module may import it.  Two units of one
layer may import each other in one direction only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "promptkit"
DOCS = Path(__file__).parents[1] / "docs" / "architecture.md"

#: (layer name, its units), lowest first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("errors", "_optional", "parts", "promptlist", "_placeholders", "_template_limits", "_sandbox", "control_tokens", "messages", "controls", "fingerprints", "_json_text")),
    ("data", ("data", "formats")),
    ("retrievers", ("retrievers",)),
    ("templates", ("templates", "shots", "layout")),
    ("media", ("media",)),
    ("models", ("meta_templates", "chat_templates", "token_counters", "fitting", "token_view")),
    ("inferencers", ("inferencers", "generation")),
    ("config", ("config", "models")),
    ("pipeline", ("pipeline", "conversation", "dialogue", "prompt_tokens", "parallel", "engines", "lint", "diff", "snapshots", "testing")),
    ("view", ("view",)),
    ("cli", ("cli", "__main__", "integrations")),
)
LEVEL = {unit: level for level, (_, units) in enumerate(LAYERS) for unit in units}
SUBPACKAGES = {unit for unit in LEVEL if (PACKAGE / unit / "__init__.py").is_file()}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the package but its public surface, by dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if path != PACKAGE / "__init__.py"}


def unit_of(module: str) -> str | None:
    """``promptkit.retrievers.topk`` → ``retrievers``; ``promptkit`` (the public surface) → None."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def imported(source: str, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, module) of every promptkit module that ``source`` imports, wherever the import statement sits."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "promptkit" or alias.name.startswith("promptkit."):
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: len(module.split(".")) - node.level + is_package]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target != "promptkit" and not target.startswith("promptkit."):
                continue
            for alias in node.names:
                # `from promptkit.x import y` names the module y when y is one (`from promptkit import models`).
                candidate = f"{target}.{alias.name}"
                yield node.lineno, candidate if is_module(candidate) else target


def is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def edges() -> Iterator[tuple[str, int, str]]:
    """(importing module, line, imported module) for every import of a promptkit module inside the package."""
    for module, path in modules().items():
        for line, target in imported(path.read_text(encoding="utf-8"), module, path.name == "__init__.py"):
            yield module, line, target


def describe(unit: str | None) -> str:
    if unit is None:
        return "the public surface promptkit/__init__.py"
    level = LEVEL[unit]
    return f"{unit} (layer {level} {LAYERS[level][0]})"


def test_every_module_has_a_layer():
    """Each module of the package belongs to a unit of the layer table, and the table names no unit that is gone."""
    units = {unit_of(module) for module in modules()}
    assert sorted(unit for unit in units if unit not in LEVEL) == []
    assert sorted(unit for unit in LEVEL if unit not in units) == []


def test_no_module_imports_a_higher_layer():
    """No import, at module level, in a function or under TYPE_CHECKING, reaches a higher layer or the public surface."""
    upward = []
    for module, line, target in edges():
        source, goal = unit_of(module), unit_of(target)
        assert source is not None
        if goal is None or LEVEL[goal] > LEVEL[source]:
            upward.append(f"{module}:{line} imports {target}: {describe(source)} -> {describe(goal)}")
    assert not upward, "\n".join(upward)


def test_subpackages_of_one_layer_import_each_other_one_way():
    """Within a layer, two sub-packages never import each other (directly or round a longer loop)."""
    graph: dict[str, set[str]] = {}
    for module, _, target in edges():
        source, goal = unit_of(module), unit_of(target)
        if source in SUBPACKAGES and goal in SUBPACKAGES and goal != source and LEVEL[goal] == LEVEL[source]:
            graph.setdefault(source, set()).add(goal)
    cycles = sorted({tuple(sorted(loop)) for unit in graph if (loop := cycle_through(graph, unit))})
    assert cycles == []


def cycle_through(graph: dict[str, set[str]], start: str) -> set[str] | None:
    """The units on a loop from ``start`` back to itself, if there is one."""
    seen: dict[str, str] = {}
    frontier = [start]
    while frontier:
        unit = frontier.pop()
        for goal in sorted(graph.get(unit, ())):
            if goal == start:
                loop, node = {start}, unit
                while node != start:
                    loop.add(node)
                    node = seen[node]
                return loop
            if goal not in seen:
                seen[goal] = unit
                frontier.append(goal)
    return None


def test_the_checker_sees_every_kind_of_import():
    """Imports in functions, under TYPE_CHECKING, relative ones and `from promptkit import <module>` are all found."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "import promptkit.shots\n"
        "from promptkit import models\n"
        "from ..templates import PromptTemplate\n"
        "if TYPE_CHECKING:\n"
        "    from promptkit.pipeline import Renderer\n"
        "def f():\n"
        "    from promptkit.fitting import prompt_text\n"
    )
    found = [target for _, target in imported(source, "promptkit.data.reader", False)]
    assert found == ["promptkit.shots", "promptkit.models", "promptkit.templates", "promptkit.pipeline", "promptkit.fitting"]


def test_a_cycle_is_found_round_a_loop():
    """A loop of three units is reported as one cycle; a chain is not a cycle."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_through(graph, "a") == {"a", "b", "c"}
    assert cycle_through(graph, "d") is None


def test_architecture_doc_shows_the_same_table():
    """docs/architecture.md lists each layer with the same units, in the same order."""
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (\w+) \| (.+?) \|", text, flags=re.MULTILINE)
    documented = [(int(level), name, tuple(re.findall(r"`([\w/.]+?)(?:/\*|\.py)?`", units))) for level, name, units in rows]
    assert documented == [(level, name, units) for level, (name, units) in enumerate(LAYERS)]
