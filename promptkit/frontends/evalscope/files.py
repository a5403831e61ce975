"""Adapter files as EvalScope's guide writes them: a Python file that registers benchmarks with ``@register_benchmark``.

:func:`read_adapter_file` runs it as a module and returns the declarations it registered, each with its adapter class.  Without EvalScope
installed, its ``evalscope.*`` imports are promptkit's (:mod:`~promptkit.frontends.evalscope.imports`); with EvalScope
installed, they are EvalScope's own, and only ``register_benchmark`` is promptkit's while the file runs, so that the
file's classes are used whatever names they register (EvalScope 1.14 refuses a built-in name such as ``gsm8k`` from
any module but its own).  The file's folder is importable while it runs (a ``utils.py`` beside it).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from promptkit.errors import ConfigError, PromptkitError
from promptkit.frontends.evalscope.api.registry import register_benchmark, registrations
from promptkit.frontends.evalscope.imports import evalscope_imports, loading

__all__ = ["evalscope_installed", "read_adapter_file"]

def evalscope_installed() -> bool:
    """Whether the real EvalScope package can be imported (promptkit's served modules aside)."""
    return importlib.machinery.PathFinder.find_spec("evalscope") is not None


def read_adapter_file(path: Path) -> list[Any]:
    """The declarations (``BenchmarkMeta``) the adapter file at ``path`` registers, in order (see the module docstring)."""
    where = str(path)
    try:
        source = path.read_bytes()
        code = compile(source, where, "exec", dont_inherit=True)
    except OSError as error:
        raise ConfigError(f"cannot read the adapter file: {error.strerror}", config=where) from None
    except SyntaxError as error:
        raise ConfigError(_syntax(error), config=where) from None
    module = ModuleType(f"promptkit_evalscope_{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]}")
    module.__file__ = str(path)
    served = not evalscope_installed()
    try:
        with _beside(path), (evalscope_imports() if served else _evalscope_registrations()), loading(), registrations() as found:
            sys.modules[module.__name__] = module  # dataclasses and pydantic look up a class's module while it is built
            exec(code, module.__dict__)
    except PromptkitError as error:
        raise error.add_context(config=where) from None
    except Exception as error:  # an adapter file is user code: report what it raised, with the line
        raise ConfigError(f"cannot load the adapter file: {_located(error, where)}", config=where) from error
    if not found:
        raise ConfigError(
            "the file registers no benchmark: decorate an adapter class with @register_benchmark(BenchmarkMeta(...)) "
            "(from evalscope.api.registry import register_benchmark)",
            config=where,
        )
    return found


@contextmanager
def _beside(path: Path) -> Iterator[None]:
    """The file's folder first on ``sys.path`` for the block."""
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)
    try:
        yield
    finally:
        sys.path.remove(folder)


@contextmanager
def _evalscope_registrations() -> Iterator[None]:
    """EvalScope's own modules, with its ``register_benchmark`` replaced by promptkit's for the block."""
    import evalscope.api.registry as registry  # EvalScope is installed: the file imports it anyway

    original = registry.register_benchmark
    registry.register_benchmark = register_benchmark
    try:
        yield
    finally:
        registry.register_benchmark = original


def _syntax(error: SyntaxError) -> str:
    message = f"line {error.lineno}: {error.msg}"
    if "f-string" in (error.msg or "") and sys.version_info < (3, 12):
        message += (
            " — this line needs Python 3.12 (a backslash or a reused quote inside an f-string's braces, as EvalScope's "
            "guide writes its MMLU-Pro adapter); compute the value on the line before and put the name in the braces"
        )
    return message


def _located(error: BaseException, where: str) -> str:
    """What the file raised, with the line of the file that raised it."""
    line = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == where:
            line = tb.tb_lineno
        tb = tb.tb_next
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return f"line {line}: {text}" if line is not None else text
