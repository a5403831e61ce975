"""Another framework's packages, served by promptkit while a config source written for it runs.

OpenCompass/AISBench config files and EvalScope adapter files import their framework's modules.  Inside
:func:`served_imports`, a ``sys.meta_path`` finder serves every module under the named top-level packages as an empty
package whose attributes come from a ``serve(module, name)`` function (each kept once served, so it stays the same
object).  Modules of those packages imported before are hidden from ``sys.modules`` for the block and put back after
it, so an installed framework is imported as usual everywhere else.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["served_imports"]

#: ``serve(module, name)``: what ``from module import name`` gives.
Serve = Callable[[str, str], Any]


class _ServedModule(ModuleType):
    """A served module: every public attribute comes from its finder's ``serve`` (kept, so it stays the same object)."""

    __promptkit_serve__: Serve

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = self.__promptkit_serve__(self.__name__, name)
        setattr(self, name, value)
        return value


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds every module under ``packages`` and serves it as a :class:`_ServedModule` package."""

    def __init__(self, packages: frozenset[str], serve: Serve) -> None:
        self.packages = packages
        self.serve = serve

    def owns(self, module: str) -> bool:
        return module.split(".", 1)[0] in self.packages

    def find_spec(self, fullname: str, path: Any = None, target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not self.owns(fullname):
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = _ServedModule(spec.name)
        module.__promptkit_serve__ = self.serve
        return module

    def exec_module(self, module: ModuleType) -> None:
        return None


@contextmanager
def served_imports(packages: frozenset[str], serve: Serve) -> Iterator[None]:
    """Serve the modules under ``packages`` (top-level names) through ``serve`` for the ``with`` block."""
    finder = _Finder(packages, serve)
    hidden = {name: module for name, module in sys.modules.items() if finder.owns(name)}
    for name in hidden:
        del sys.modules[name]
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [name for name in sys.modules if finder.owns(name)]:
            del sys.modules[name]
        sys.modules.update(hidden)
