"""Tasks, groups and tags: what a task file or a task name stands for, as lm-eval 0.4.x builds it
(``lm_eval/tasks/_index.py``, ``_factory.py``).

Every ``*.yaml`` under a task folder (sorted by path, includes merged) is a **group** if it has ``group``, else a
**task** if it has ``task`` (a Python task if it has ``class``); a task's ``tag`` (a name or a list) makes it a
member of that **tag**.  The first file to define a name wins.  Files that cannot be read are left out of the index,
as lm-eval leaves them out.

* A task file renders its task; a tag renders its tasks in name order.
* A group renders its ``task:`` members in order: a task, group or tag name; ``{task: name, KEY: value, ...}`` (the
  keys replace the task's); ``{group: name, ...}``; or a task not in the index, written inline (named
  ``group::task``).  The group file's keys other than ``group``, ``group_alias``, ``task``,
  ``aggregate_metric_list`` and ``metadata`` apply to every member.

The members of a group file are looked for in the file's folder, then in the task folder it sits in (its closest
parent folder named ``tasks``, as lm-eval's own ``lm_eval/tasks``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, PromptkitError, did_you_mean
from promptkit.frontends.lmeval.yaml_files import load_yaml

__all__ = ["GROUP_KEYS", "Member", "TaskIndex", "members"]

#: A group file's own keys; any other key applies to every member task.
GROUP_KEYS = ("group", "group_alias", "task", "aggregate_metric_list", "metadata")


@dataclass(frozen=True)
class Member:
    """One task to render: its keys (the file's, with the group's overrides) and the file they come from."""

    cfg: Mapping[str, Any]
    path: Path


@dataclass
class _Entry:
    kind: str  # "task", "group", "python", "tag"
    path: Path | None
    tasks: list[str] = field(default_factory=list)  # a tag's


class TaskIndex:
    """The tasks, groups and tags of task folders (see the module docstring); a folder is read when a name is not
    found in the ones before it."""

    def __init__(self, *roots: Path) -> None:
        self.roots = tuple(dict.fromkeys(roots))
        self._entries: dict[str, _Entry] = {}
        self._scanned = 0

    def find(self, name: str) -> _Entry | None:
        """The entry of ``name``, reading further folders until one has it."""
        while name not in self._entries and self._scanned < len(self.roots):
            self._scan_next()
        return self._entries.get(name)

    def names(self) -> list[str]:
        """Every name of every folder."""
        while self._scanned < len(self.roots):
            self._scan_next()
        return sorted(self._entries)

    def _scan_next(self) -> None:
        for name, entry in _scan(self.roots[self._scanned]).items():
            known = self._entries.get(name)
            if known is None:
                self._entries[name] = entry
            elif known.kind == "tag" and entry.kind == "tag":
                known.tasks += [task for task in entry.tasks if task not in known.tasks]
        self._scanned += 1


def _scan(root: Path) -> dict[str, _Entry]:
    """The entries of one task folder; read again only when a file in it changed (a stat per file, not a parse)."""
    paths = sorted((p for p in root.glob("**/*.yaml") if "__pycache__" not in p.parts and ".ipynb_checkpoints" not in p.parts), key=Path.as_posix)
    signature = tuple((path, stat.st_mtime_ns, stat.st_size) for path in paths if (stat := path.stat()))
    cached = _SCANNED.get(root)
    if cached is None or cached[0] != signature:
        cached = _SCANNED[root] = (signature, _read(paths))
    return {name: _Entry(entry.kind, entry.path, list(entry.tasks)) for name, entry in cached[1].items()}


#: Each task folder read in this process: the files' signature, and the entries read from them.
_SCANNED: dict[Path, tuple[tuple[tuple[Path, int, int], ...], dict[str, _Entry]]] = {}


def _read(paths: list[Path]) -> dict[str, _Entry]:
    entries: dict[str, _Entry] = {}
    for path in paths:
        try:
            cfg = load_yaml(path)
        except PromptkitError:
            continue  # lm-eval's index skips files it cannot read
        kind = "python" if "class" in cfg else "group" if "group" in cfg else "task" if "task" in cfg else None
        name = cfg.get("group") if kind == "group" else cfg.get("task")
        if kind is None or not isinstance(name, str) or name in entries:
            continue
        entries[name] = _Entry(kind, path)
        tags = cfg.get("tag") if kind != "group" else None
        for tag in [tags] if isinstance(tags, str) else tags if isinstance(tags, list) else []:
            if isinstance(tag, str):
                entries.setdefault(tag, _Entry("tag", None)).tasks.append(name)
    return entries


def members(source: Path | str, index: TaskIndex) -> list[Member]:
    """The tasks a task or group file, or a task, group or tag name, stands for, in lm-eval's order."""
    if isinstance(source, Path):
        cfg = load_yaml(source)
        if "group" in cfg:
            return list(_group(str(cfg["group"]), cfg, source, {}, index))
        if "task" not in cfg:
            raise ConfigError("the file has neither a 'task' nor a 'group' key, so it is not an lm-eval task or group", config=str(source))
        return [Member(_task_keys(cfg), source)]
    entry = index.find(source)
    if entry is None:
        roots = ", ".join(str(root) for root in index.roots)
        raise ConfigError(f"no task, group or tag {source!r} in {roots}{did_you_mean(source, index.names())}")
    return list(_build(source, entry, {}, index))


def _build(name: str, entry: _Entry, overrides: Mapping[str, Any], index: TaskIndex) -> Iterator[Member]:
    if entry.kind == "tag":
        for task in sorted(entry.tasks):
            yield _member(_found(index, task), overrides)
        return
    assert entry.path is not None
    if entry.kind == "group":
        yield from _group(name, load_yaml(entry.path), entry.path, overrides, index)
        return
    yield _member(entry, overrides)


def _member(entry: _Entry, overrides: Mapping[str, Any]) -> Member:
    assert entry.path is not None
    return Member(_task_keys({**load_yaml(entry.path), **overrides}), entry.path)


def _task_keys(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """A task's keys without the structural ones lm-eval removes before building it."""
    return {key: value for key, value in cfg.items() if key not in ("tag", "group", "task_list")}


def _group(name: str, cfg: Mapping[str, Any], path: Path, overrides: Mapping[str, Any], index: TaskIndex) -> Iterator[Member]:
    shared = {**{key: value for key, value in cfg.items() if key not in GROUP_KEYS}, **overrides}
    listed = cfg.get("task")
    for item in [listed] if isinstance(listed, str) else listed if isinstance(listed, list) else []:
        if isinstance(item, str):
            base, item_overrides = item, dict(shared)
        elif isinstance(item, Mapping) and "group" in item:
            inner = str(item["group"])
            entry = index.find(inner)
            if entry is not None:
                yield from _build(inner, entry, {**shared, **{k: v for k, v in item.items() if k != "group"}}, index)
            else:
                yield from _group(f"{name}::{inner}", item, path, shared, index)
            continue
        elif isinstance(item, Mapping) and "task" in item:
            base, item_overrides = str(item["task"]), {**shared, **item}
        else:
            raise ConfigError(f"group {name!r}: a member must be a name, or a mapping with 'task' or 'group' (got {item!r})", config=str(path), key="task")
        entry = index.find(base)
        if entry is None:
            if isinstance(item, Mapping):  # a task written inline in the group
                yield Member(_task_keys({**item_overrides, "task": f"{name}::{base}"}), path)
                continue
            roots = ", ".join(str(root) for root in index.roots)
            raise ConfigError(
                f"group {name!r} lists {base!r}, which is no task, group or tag in {roots}{did_you_mean(base, index.names())}", config=str(path), key="task"
            )
        if entry.kind == "group":
            yield from _build(base, entry, item_overrides, index)
        elif entry.kind == "tag":
            for task in sorted(entry.tasks):
                yield _member(_found(index, task), {"task": task, **item_overrides})
        else:
            yield _member(entry, {"task": base, **item_overrides})


def _found(index: TaskIndex, name: str) -> _Entry:
    entry = index.find(name)
    assert entry is not None  # a tag's tasks are in the index
    return entry
