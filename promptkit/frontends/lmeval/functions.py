"""``!function module.fn`` in a task YAML: the task's own Python, run as trusted code (as a config file is).

lm-eval splits the text at its last dot into a module and a function.  The module is first looked for as a file
beside the YAML that holds the tag (``utils.process_docs`` → ``<that folder>/utils.py``; a dotted module path is a
relative path); if there is none, it is imported by name (a package on ``sys.path``).  Reading a YAML keeps the tag
as a :class:`FunctionRef`; nothing runs until a render needs the function (:class:`TaskCode`).

**Fresh for each render.**  :class:`TaskCode` executes the task's modules anew each time the task's rows are loaded
(:meth:`TaskCode.fresh`), so module-level state — a seeded shuffle in ``process_docs`` — starts where it starts in a
new lm-eval process, and two renders of one task (two models) see the same documents.

**The** ``random`` **module.**  ``simple_evaluate`` seeds Python's ``random`` with 0 before it loads any task, and task
code shuffles with it (gpqa's choices).  A task module's ``import random`` gets a copy of the module whose functions
draw from its own ``random.Random(0)``, made anew with the module: the draws lm-eval's run makes, without touching
the process's own generator.  lm-eval itself draws from it too: each read of a task's ``task_name`` evaluates
``random_task_id()`` (eight draws of ``random.choices``), and a run of one task reads it three times between the
evaluated split's first look and the pass its requests are built from (:meth:`TaskCode.run_draws`).

**Imports only scoring needs.**  Task modules import packages that only their metrics use (``evaluate``,
``rouge_score``, ``lm_eval`` itself).  While a task module runs, an import of a package that is not installed gives
an inert placeholder (:class:`MissingModule`) instead of failing: using it — calling it, or anything got from it —
raises :class:`~promptkit.errors.MissingDependencyError` naming the package, where it is used (a call made while the
module loads, such as a decorator, stays inert).  So a task renders when its prompt functions run, and a prompt
function that needs the package names it.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.util
import random
import string
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from promptkit.errors import ConfigError, MissingDependencyError

__all__ = ["TASK_RANDOM_SEED", "FunctionRef", "MissingModule", "TaskCode"]

#: The seed ``simple_evaluate`` gives Python's ``random`` before loading tasks (its ``--seed``'s first number).
TASK_RANDOM_SEED = 0
#: How often lm-eval 0.4.13 reads a task's ``task_name`` (each read draws from ``random``) between the task's init and
#: its requests, in a run of one task (``TaskManager.load`` and ``simple_evaluate``).
_TASK_NAME_READS = 3


@dataclass(frozen=True)
class FunctionRef:
    """A ``!function`` tag of a task YAML: its text (``utils.process_docs``) and the file that holds it."""

    spec: str
    #: The YAML file the tag is written in (an included file's own path: its folder is where the module is looked for).
    yaml: Path

    @property
    def module(self) -> str:
        return self.spec.rpartition(".")[0]

    @property
    def name(self) -> str:
        return self.spec.rpartition(".")[2]

    @property
    def local_file(self) -> Path:
        """Where the module would be beside the YAML (lm-eval looks there first)."""
        return (self.yaml.parent / f"{self.module.replace('.', '/')}.py").resolve()

    def __str__(self) -> str:
        return f"!function {self.spec}"


class MissingModule:
    """What a task module gets for a package that is not installed (see the module docstring)."""

    def __init__(self, name: str, importer: str, code: TaskCode) -> None:
        self._name = name
        self._importer = importer
        self._code = code

    def __getattr__(self, attribute: str) -> MissingModule:
        if attribute.startswith("__") and attribute.endswith("__"):
            raise AttributeError(attribute)
        return MissingModule(f"{self._name}.{attribute}", self._importer, self._code)

    def __call__(self, *args: Any, **kwargs: Any) -> MissingModule:
        if self._code.loading:
            return self  # a decorator or a registry call at import time: inert
        package = self._name.split(".", 1)[0]
        raise MissingDependencyError(
            f"{self._name} is used by the task code {self._importer}, but the package {package!r} is not installed; "
            f"install it (pip install {package}) to render this task"
        )

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        return ()  # `class Metric(evaluate.Metric)` in scoring code: the class is made without the missing base

    def __repr__(self) -> str:
        return f"<{self._name}: not installed>"


class TaskCode:
    """The modules a task's ``!function`` tags name, executed once per render (see the module docstring)."""

    def __init__(self) -> None:
        self._modules: dict[Path, ModuleType] = {}
        self._resolved: dict[FunctionRef, Callable[..., Any]] = {}
        self._random: ModuleType | None = None
        #: Whether a task module is being executed (placeholder calls are inert then).
        self.loading = False

    def __getstate__(self) -> dict[str, Any]:
        # Modules do not travel to a worker process: it executes them again when it first needs a function.
        return {"_modules": {}, "_resolved": {}, "_random": None, "loading": False}

    def fresh(self) -> None:
        """Forget the executed modules (and their ``random``): the next function asked for runs its module anew."""
        self._modules = {}
        self._resolved = {}
        self._random = None

    def run_draws(self) -> None:
        """The draws lm-eval's run makes from ``random`` between a task's first look at its evaluated split and the
        pass its requests come from: three ``random_task_id()`` (``random.choices(..., k=8)``), when task code uses it."""
        if self._random is not None:
            for _ in range(_TASK_NAME_READS):
                self._random.choices(string.ascii_lowercase + string.digits, k=8)

    def random_module(self) -> ModuleType:
        """The ``random`` the task's modules import: the standard module's functions bound to ``random.Random(0)``."""
        if self._random is None:
            module = ModuleType("random", random.__doc__)
            module.__dict__.update(random.__dict__)
            generator = random.Random(TASK_RANDOM_SEED)
            for name, value in random.__dict__.items():
                if getattr(value, "__self__", None) is random._inst:  # type: ignore[attr-defined]  # the module's functions
                    module.__dict__[name] = getattr(generator, name)
            self._random = module
        return self._random

    def resolve(self, ref: FunctionRef) -> Callable[..., Any]:
        """The function ``ref`` names; a module that fails to import, or has no such function, is one error naming
        the module, the YAML and what went wrong."""
        found = self._resolved.get(ref)
        if found is not None:
            return found
        if not ref.module:
            raise ConfigError(f"{ref}: name a module and a function, e.g. !function utils.process_docs", config=str(ref.yaml))
        local = ref.local_file
        module = self._local(local, ref) if local.is_file() else self._installed(ref)
        function = getattr(module, ref.name, None)
        if function is None or not callable(function):
            where = str(local) if local.is_file() else f"module {ref.module!r}"
            raise ConfigError(f"{ref}: {where} has no function {ref.name!r}", config=str(ref.yaml))
        self._resolved[ref] = function
        return function

    def _local(self, path: Path, ref: FunctionRef) -> ModuleType:
        module = self._modules.get(path)
        if module is not None:
            return module
        # lm-eval's name for a module outside its own tasks folder: the file's path without '.py'.
        name = str(path.with_suffix(""))
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None  # a .py file that exists
        module = importlib.util.module_from_spec(spec)
        module.__dict__["__builtins__"] = {**builtins.__dict__, "__import__": self._importer(name)}
        sys.modules[name] = module  # as lm-eval does: dataclasses and pickling look modules up by name
        try:
            with self._executing():
                spec.loader.exec_module(module)
        except Exception as error:  # task code is user code: report whatever it raised, with the module and the YAML
            del sys.modules[name]
            raise ConfigError(
                f"{ref}: the module {path} failed to import: {type(error).__name__}: {error}", config=str(ref.yaml)
            ) from error
        self._modules[path] = module
        return module

    def _installed(self, ref: FunctionRef) -> ModuleType:
        try:
            return importlib.import_module(ref.module)
        except ImportError as error:
            raise ConfigError(
                f"{ref}: there is no {ref.local_file.name} beside the YAML ({ref.local_file.parent}) and the module "
                f"{ref.module!r} cannot be imported: {error}",
                config=str(ref.yaml),
            ) from error
        except Exception as error:  # an installed module that fails while importing
            raise ConfigError(f"{ref}: the module {ref.module!r} failed to import: {type(error).__name__}: {error}", config=str(ref.yaml)) from error

    @contextmanager
    def _executing(self) -> Iterator[None]:
        outer, self.loading = self.loading, True
        try:
            yield
        finally:
            self.loading = outer

    def _importer(self, importer: str) -> Callable[..., Any]:
        """The ``__import__`` a task module's own import statements use: a package that is not installed is a placeholder."""
        real = builtins.__import__

        def guarded(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
            if name == "random" and not level:
                return self.random_module()
            try:
                return real(name, globals, locals, fromlist, level)
            except ModuleNotFoundError as error:
                top = name.split(".", 1)[0]
                if level or error.name is None or error.name.split(".", 1)[0] != top:
                    raise  # a relative import, or a package that is there but fails inside: not a missing package
                return MissingModule(name if fromlist else top, importer, self)

        return guarded
