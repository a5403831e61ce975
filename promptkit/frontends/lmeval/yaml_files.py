"""Reading a task YAML file as lm-eval 0.4.x reads it (``lm_eval/tasks/_yaml_loader.py``).

* PyYAML's safe loader (its C version when PyYAML has libyaml, as lm-eval's) with one more tag, ``!function``,
  kept as a :class:`~promptkit.frontends.lmeval.functions.FunctionRef` (nothing runs while reading).  Ordinary YAML
  rules apply: ``"\\n"`` in double quotes is a newline, ``'\\n'`` in single quotes is a backslash and an ``n``.
* ``include:`` (a file or a list of files, relative to the including file; no ``.yaml`` suffix needed) is read
  recursively; the included files are merged in order (``dict.update``), then the including file's own keys on
  top: a shallow merge, so a ``fewshot_config`` of the including file replaces the included one whole.  An included
  file's ``task_list`` is dropped; a cycle is an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, MissingDependencyError
from promptkit.frontends.lmeval.functions import FunctionRef

__all__ = ["load_yaml"]


def load_yaml(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The keys of a task, group or include file, its includes merged in (see the module docstring)."""
    path = path.expanduser().resolve()
    if path in seen:
        chain = " -> ".join(str(p) for p in (*seen, path))
        raise ConfigError(f"include cycle: {chain}", config=str(seen[0]))
    try:
        text = path.read_bytes()
    except OSError as error:
        where = f"included by {seen[-1]}" if seen else "the task file"
        raise ConfigError(f"cannot read {path} ({where}): {error.strerror or error}", config=str(seen[-1] if seen else path)) from None
    cfg = _parse(text, path)
    if not isinstance(cfg, dict):
        raise ConfigError(f"a task file holds a mapping of keys (got {type(cfg).__name__})", config=str(path))
    if "include" not in cfg:
        return cfg
    includes = cfg.pop("include")
    merged: dict[str, Any] = {}
    for include in includes if isinstance(includes, list) else [includes]:
        if not isinstance(include, str):
            raise ConfigError(f"include must name a file or a list of files (got {include!r})", config=str(path), key="include")
        included = load_yaml(Path(include) if Path(include).is_absolute() else path.parent / include, (*seen, path))
        included.pop("task_list", None)
        merged.update(included)
    merged.update(cfg)
    return merged


def _parse(text: bytes, path: Path) -> Any:
    try:
        import yaml
    except ImportError:
        raise MissingDependencyError("reading lm-eval task files needs PyYAML: pip install 'promptkit[lmeval]'") from None
    base = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader

    class Loader(base):  # type: ignore[misc, valid-type]  # one class per file: the !function tag knows its file
        pass

    def function(loader: Any, node: Any) -> FunctionRef:
        return FunctionRef(str(loader.construct_scalar(node)), path)

    Loader.add_constructor("!function", function)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 (a safe loader with one tag that only records its text)
    except yaml.YAMLError as error:
        problem = " ".join(str(error).split())
        raise ConfigError(f"cannot read the YAML: {problem}", config=str(path)) from None
