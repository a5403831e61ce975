"""Where a piece of a dataset config is written: the file and line of a template's text or of a key.

A config's templates are built from Python strings, often in a ``read_base()``
file beside it (``from .mmlu_common import ...``).  :class:`ConfigSource`
parses the config and the files it imports relatively, once, and finds the
first string that holds a snippet (an f-string's literal parts count, ``{{x}}``
read as ``{x}``) or the first ``key=`` / ``'key':`` that names a key.  Seen
for one dataset (:meth:`ConfigSource.for_dataset`), what is written inside
that dataset's own entry (the ``dict(abbr=...)`` naming it) is found first.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ConfigSource", "Location"]


@dataclass(frozen=True)
class Location:
    """A file and a 1-based line in it."""

    file: str
    line: int


class ConfigSource:
    """The strings and keys of a config file and of the files it imports relatively (see the module docstring)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._strings: list[tuple[str, Location]] = []
        self._keys: list[tuple[str, Location]] = []
        #: Each dataset entry's lines in the config file, by abbr.
        self._entries: dict[str, tuple[int, int]] = {}
        self._within: tuple[str, int, int] | None = None
        if path is not None:
            self._read(path, set())

    def for_dataset(self, abbr: str) -> ConfigSource:
        """The same source, preferring what is written inside the entry of dataset ``abbr``."""
        view = object.__new__(ConfigSource)
        view.__dict__.update(self.__dict__)
        span = self._entries.get(abbr)
        view._within = (str(self.path), *span) if span is not None else None
        return view

    def _ordered(self, entries: list[tuple[str, Location]]) -> Iterator[tuple[str, Location]]:
        """``entries`` inside the dataset's entry first, then all of them."""
        if self._within is not None:
            file, first, last = self._within
            yield from (entry for entry in entries if entry[1].file == file and first <= entry[1].line <= last)
        yield from entries

    def _read(self, path: Path, seen: set[Path]) -> None:
        if path in seen or not path.is_file():
            return
        seen.add(path)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        except (SyntaxError, UnicodeDecodeError, OSError):
            return  # the config loaded, so this is only a base file that cannot help locate anything
        file = str(path)
        strings: list[tuple[str, Location]] = []
        keys: list[tuple[str, Location]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.append((node.value, Location(file, node.lineno)))
            elif isinstance(node, ast.keyword) and node.arg is not None:
                keys.append((node.arg, Location(file, node.lineno)))
            elif isinstance(node, ast.Dict):
                for key in node.keys:
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        keys.append((key.value, Location(file, key.lineno)))
            if not seen - {path} and isinstance(node, ast.Call):  # the config itself: where each dataset entry is
                abbr = next((k.value for k in node.keywords if k.arg == "abbr"), None)
                if isinstance(abbr, ast.Constant) and isinstance(abbr.value, str):
                    self._entries.setdefault(abbr.value, (node.lineno, node.end_lineno or node.lineno))
        # The config's own text first, in line order, then each base file's.
        self._strings.extend(sorted(strings, key=lambda entry: entry[1].line))
        self._keys.extend(sorted(keys, key=lambda entry: entry[1].line))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0 and node.module:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                self._read(base.joinpath(*node.module.split(".")).with_suffix(".py"), seen)

    def text(self, *snippets: str) -> Location | None:
        """Where the first string holding one of ``snippets`` (tried in order) is written."""
        for snippet in snippets:
            if not snippet:
                continue
            for value, where in self._ordered(self._strings):
                if snippet in value:
                    return where
        return None

    def string(self, value: str) -> Location | None:
        """Where a string that is exactly ``value`` (a role name, say) is first written."""
        return next((where for text, where in self._ordered(self._strings) if text == value), None)

    def key(self, *names: str) -> Location | None:
        """Where the first of ``names`` (tried in order) is written as a keyword or a dict key."""
        for name in names:
            for key, where in self._ordered(self._keys):
                if key == name:
                    return where
        return None
