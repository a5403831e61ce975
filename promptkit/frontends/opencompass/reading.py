"""Reading a config file: mmengine ``Config.fromfile``, with OpenCompass's and AISBench's imports served.

mmengine runs a config with ``with read_base():`` or third-party imports in
its *lazy import* mode: each ``from x import y`` becomes a ``LazyObject``
built when the value is read.  So the engines' names are built here, inside
:func:`~promptkit.frontends.opencompass.engine_imports.engine_imports`, and the entries come
out as plain dicts and lists holding promptkit's classes (or
:class:`~promptkit.frontends.opencompass.engine_imports.Foreign` placeholders).

mmengine-lite 0.10 also takes the standard library's frozen modules (``os``,
``codecs`` …) for third-party ones and turns ``os.environ.get(...)`` into a
lazy call that fails; they are read as the standard library here, as
mmengine-lite 0.11 (OpenCompass's) reads them.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, PromptkitError
from promptkit.frontends.opencompass.engine_imports import ENGINES, engine_imports, installed
from promptkit.frontends.opencompass.plain import plain_values

__all__ = ["read_entries"]


def read_entries(path: Path, key: str) -> list[Any]:
    """The ``key`` list of a config file ('datasets' or 'models'), its values built: plain dicts, lists and classes."""
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} not found", config=str(path))
    try:
        values = plain_values(path.read_text(encoding="utf-8")) if path.suffix == ".py" else None
    except UnicodeDecodeError:
        values = None  # mmengine reports it
    if values is not None:  # plain data: the values mmengine would give, without importing it (promptkit.frontends.opencompass.plain)
        return _entries(values, key, path)
    from mmengine.config import Config, ConfigDict

    _check_engine_bases(path)
    try:
        with engine_imports(), _frozen_modules_as_stdlib(), _engine_checkouts(path):
            cfg = Config.fromfile(str(path), format_python_code=False)
            lazy, ConfigDict.lazy = ConfigDict.lazy, True  # read values as they are; _plain builds what the entries hold
            try:
                return [_plain(entry) for entry in _entries(cfg, key, path)]
            finally:
                ConfigDict.lazy = lazy
    except PromptkitError as error:
        raise error.add_context(config=str(path)) from None
    except Exception as error:  # a config file is user code: report whatever it raised, with the file
        raise ConfigError(f"cannot load config: {_explain(error)}", config=str(path)) from error


def _entries(cfg: Any, key: str, path: Path) -> list[Any]:
    entries = cfg.get(key)
    if entries is None:
        # OpenCompass also collects every top-level `*_datasets` list.
        suffix = f"_{key}"
        found = [item for name, value in cfg.items() if name.endswith(suffix) and isinstance(value, list) for item in value]
        if not found:
            raise ConfigError(f"the config defines no {key!r} list (e.g. {key} = [dict(...)])", config=str(path))
        return found
    if not isinstance(entries, (list, tuple)):
        raise ConfigError(f"{key!r} must be a list of dicts (got {type(entries).__name__})", config=str(path))
    if not entries:  # a run over nothing would end with status 0 and no output: the list was meant to hold something
        raise ConfigError(
            f"the {key!r} list is empty: there is nothing to render; give it at least one {key[:-1]} ({key} = [dict(...)])", config=str(path)
        )
    return list(entries)


def _plain(value: Any) -> Any:
    """Config values as plain Python: dicts (``dict(...)`` calls and ``{...}`` literals alike), lists, built imports."""
    from mmengine.config.lazy import LazyAttr, LazyObject

    if isinstance(value, (LazyObject, LazyAttr)):
        return _build(value)
    if isinstance(value, dict):  # a ConfigDict too: dict.items gives its values as stored, not built
        return {name: _plain(item) for name, item in dict.items(value)}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    return value


def _build(lazy: Any) -> Any:
    try:
        return lazy.build()
    except ImportError as error:
        # LazyObject re-raises as "Failed to import <module> in <file>, line <n> for <reason>".
        raise ConfigError(
            f"{lazy.location}: the config imports {str(lazy)!r} from {lazy.module!r}, which cannot be imported ({error.msg}); "
            f"promptkit serves only {' and '.join(f'{engine}.*' for engine in ENGINES)} imports: install {lazy.module.split('.')[0]!r} "
            "or remove the import"
        ) from None


def _explain(error: Exception) -> str:
    """What went wrong while the config ran; a call of a lazily imported name says which name."""
    from mmengine.config.lazy import LazyAttr, LazyObject

    frame = _last_frame(error)
    called = frame.f_locals.get("self") if frame is not None and frame.f_code.co_name == "__call__" else None
    if isinstance(called, (LazyObject, LazyAttr)):
        name = called.name if isinstance(called, LazyAttr) else str(called)
        return (
            f"{called.location}: the config calls {name!r}, an imported name, while it loads; mmengine imports a config's names "
            "only after it has run (OpenCompass too), so compute that value without calling an import"
        )
    return f"{type(error).__name__}: {error}"


def _last_frame(error: Exception) -> Any:
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame if tb is not None else None


def _check_engine_bases(path: Path) -> None:
    """Refuse ``with read_base(): from opencompass.configs... import ...`` when that package is neither installed nor the
    checkout the config lies in (mmengine reads the base file from one of them), naming the line and the way on."""
    for file, line, module in _engine_bases(path, set()):
        engine = module.split(".")[0]
        if not installed(engine) and _checkout_of(path, engine) is None:
            raise ConfigError(
                f"line {line} reads a base config from the installed {engine!r} package (from {module} import ...), and "
                f"{engine} is not installed: install it, or copy that config file beside this one and import it relatively "
                f"(from .{module.rsplit('.', 1)[-1]} import ...)",
                config=str(file),
            )


def _engine_bases(file: Path, seen: set[Path]) -> Iterator[tuple[Path, int, str]]:
    """(file, line, module) of every absolute engine import in a ``read_base()`` block, through relative bases too."""
    resolved = file.resolve()
    if resolved in seen:
        return
    seen.add(resolved)
    try:
        tree = ast.parse(file.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return  # mmengine reports it when it reads the file
    for node in ast.walk(tree):
        if not (isinstance(node, ast.With) and any(_is_read_base(item.context_expr) for item in node.items)):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom) or not statement.module:
                continue
            if statement.level == 0 and statement.module.split(".")[0] in ENGINES:
                yield file, statement.lineno, statement.module
            elif statement.level > 0:
                folder = file.parent.joinpath(*[".."] * (statement.level - 1))
                yield from _engine_bases(folder.joinpath(*statement.module.split(".")).with_suffix(".py"), seen)


def _is_read_base(expr: ast.expr) -> bool:
    func = expr.func if isinstance(expr, ast.Call) else None
    return (func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None) == "read_base"


@contextmanager
def _frozen_modules_as_stdlib() -> Iterator[None]:
    """Have mmengine take frozen modules for the standard library they are (mmengine-lite 0.10 takes them for others)."""
    from mmengine.config import config, utils

    original: Callable[[str], bool] = utils._is_builtin_module

    def is_builtin_module(module_name: str) -> bool:
        if not module_name.startswith("."):
            spec = importlib.util.find_spec(module_name.split(".")[0])
            if spec is not None and spec.origin == "frozen":
                return True
        return original(module_name)

    utils._is_builtin_module = config._is_builtin_module = is_builtin_module
    try:
        yield
    finally:
        utils._is_builtin_module = config._is_builtin_module = original


def _checkout_of(config: Path, engine: str) -> Path | None:
    """The engine's package folder in the source checkout ``config`` lies in (the nearest ancestor folder holding
    ``<engine>/__init__.py``, as in OpenCompass's own repository), or ``None``."""
    for folder in config.resolve().parents:
        if (folder / engine / "__init__.py").is_file():
            return folder / engine
    return None


@contextmanager
def _engine_checkouts(config: Path) -> Iterator[None]:
    """Have mmengine read ``read_base()`` imports of an engine package (``from opencompass.configs.datasets.x import
    ...``) from the checkout the config lies in, when the package is not installed: the configs of the engine's own
    repository include each other that way."""
    from mmengine.config import config as mmengine_config

    checkouts = {engine: folder for engine in ENGINES if not installed(engine) and (folder := _checkout_of(config, engine)) is not None}
    if not checkouts:
        yield
        return
    original: Callable[[str], str] = mmengine_config.get_installed_path

    def installed_path(package: str) -> str:
        return str(checkouts[package]) if package in checkouts else original(package)

    mmengine_config.get_installed_path = installed_path
    try:
        yield
    finally:
        mmengine_config.get_installed_path = original
