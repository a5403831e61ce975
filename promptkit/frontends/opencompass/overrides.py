"""Run-time overrides of dataset configs: ``--set KEY=VALUE`` and ``--num-fewshot K``, without editing the file.

``KEY`` is a dotted path into each ``datasets`` entry, as mmengine's ``--cfg-options`` takes it:
``infer_cfg.inferencer.max_out_len``, ``infer_cfg.prompt_template.template.round.0.prompt`` (a number indexes a
list).  ``VALUE`` is read as a Python literal (``3``, ``True``, ``None``, ``[0, 1]``, ``'text'``), else taken as
the string it is.  Every key on the path must exist, except the last, which may be new when the config reads it:
a parameter of the ``type=`` class of that dict, a key promptkit reads in ``infer_cfg`` or ``reader_cfg``, or any
key of ``chat_template_kwargs``.  Overrides apply in order, to every dataset of the file, before it is built.

``num_fewshot`` sets the retriever's shot count (its class's ``shot_count_param``: ``ice_num``, ``k``, or
``fix_id_list`` cut to its first K ids).

Each applied override is recorded on the :class:`~promptkit.DatasetSpec` (``overrides``) as ``key=value``
(value as a Python literal), and the records of its prompts list them.

>>> entry = dict(abbr='d', infer_cfg=dict(retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2])))
>>> edited, applied = Overrides(("infer_cfg.retriever.ice_separator='\\\\n\\\\n'",), num_fewshot=2).apply(entry)
>>> edited['infer_cfg']['retriever'], applied
({'type': 'FixKRetriever', 'fix_id_list': [0, 1], 'ice_separator': '\\n\\n'}, ("infer_cfg.retriever.ice_separator='\\\\n\\\\n'", 'num_fewshot=2'))
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.controls import CONTROL_KEYS
from promptkit.data.reader import READER_KEYS
from promptkit.errors import ConfigError, PromptkitError, did_you_mean
from promptkit.frontends.opencompass.registry import resolve_type

__all__ = ["INFER_CFG_KEYS", "Overrides", "parse_value"]

#: The keys promptkit reads in ``infer_cfg``: the stages, and the prompt controls.
INFER_CFG_KEYS = ("ice_template", "prompt_template", "retriever", "inferencer", *CONTROL_KEYS)
#: The kind of config each dict of a dataset entry is, by its path (for its ``type=`` class).
_KINDS = {
    "": "dataset",
    "infer_cfg.retriever": "retriever",
    "infer_cfg.inferencer": "inferencer",
    "infer_cfg.prompt_template": "template",
    "infer_cfg.ice_template": "template",
}


def parse_value(text: str) -> Any:
    """A ``--set`` value: a Python literal if it reads as one, else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


@dataclass(frozen=True)
class Overrides:
    """``set``: ``KEY=VALUE`` lines, applied in order; ``num_fewshot``: the retriever's shot count."""

    set: tuple[str, ...] = ()
    num_fewshot: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "set", tuple(self.set))
        for line in self.set:
            if not isinstance(line, str) or "=" not in line or not line.split("=", 1)[0].strip():
                raise ConfigError(f"an override must read KEY=VALUE, e.g. infer_cfg.inferencer.max_out_len=512 (got {line!r})")
        count = self.num_fewshot
        if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
            raise ConfigError(f"num_fewshot must be a whole number of shots (got {count!r})", key="num_fewshot")

    @classmethod
    def of(cls, value: Overrides | Sequence[str] | None) -> Overrides:
        """An :class:`Overrides`, or ``KEY=VALUE`` lines read as one."""
        if value is None:
            return cls()
        if isinstance(value, Overrides):
            return value
        if isinstance(value, str):
            raise ConfigError(f"overrides must be a list of KEY=VALUE lines (got the string {value!r}); wrap it in a list")
        return cls(tuple(value))

    def __bool__(self) -> bool:
        return bool(self.set) or self.num_fewshot is not None

    def apply(self, entry: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        """A copy of ``entry`` with the overrides applied (``entry`` is left as it is), and the ``key=value`` lines applied."""
        edited: dict[str, Any] = dict(entry)
        applied: list[str] = []
        for line in self.set:
            key, text = (part.strip() for part in line.split("=", 1))
            value = parse_value(text)
            edited = _set(edited, key.split("."), value, key)
            applied.append(f"{key}={value!r}")
        if self.num_fewshot is not None:
            edited = _set_shot_count(edited, self.num_fewshot)
            applied.append(f"num_fewshot={self.num_fewshot}")
        return edited, tuple(applied)


def _set(node: Any, path: list[str], value: Any, key: str, at: str = "") -> Any:
    """``node`` with ``value`` at ``path``: the dicts and lists along the path copied, nothing else."""
    name, rest = path[0], path[1:]
    where = f"at {at!r}" if at else "at the top of the dataset entry"
    if isinstance(node, list):
        if not name.lstrip("-").isdigit() or not -len(node) <= int(name) < len(node):
            raise ConfigError(f"{where} is a list of {len(node)} items; {name!r} is not an index of it", key=key)
        copy: Any = list(node)
        index: Any = int(name)
    elif isinstance(node, Mapping):
        copy, index = dict(node), name
        if name not in node and not (not rest and _may_add(node, name, at)):
            known = [str(k) for k in node]
            raise ConfigError(f"no key {name!r} {where}{did_you_mean(name, known)}; its keys are {known}", key=key)
    else:
        raise ConfigError(f"{at!r} is a {type(node).__name__}, not a dict or list, so it has no {name!r}", key=key)
    copy[index] = value if not rest else _set(copy[index], rest, value, key, f"{at}.{name}" if at else name)
    return copy


def _may_add(node: Mapping[str, Any], name: str, at: str) -> bool:
    """Whether a new key ``name`` in the dict at ``at`` is one the config reads (see the module docstring)."""
    if at == "infer_cfg":
        return name in INFER_CFG_KEYS
    if at == "reader_cfg":
        return name in READER_KEYS
    if at.endswith("chat_template_kwargs"):
        return True
    kind = _KINDS.get(at)
    if kind is None or "type" not in node:
        return False
    try:
        params = inspect.signature(resolve_type(node["type"], kind, f"{at}.type")).parameters
    except (PromptkitError, TypeError, ValueError):
        return False  # the dict's build reports its type
    return name in params and params[name].kind is not inspect.Parameter.VAR_KEYWORD


def _set_shot_count(entry: dict[str, Any], count: int) -> dict[str, Any]:
    key = "infer_cfg.retriever"
    infer = entry.get("infer_cfg")
    retriever = infer.get("retriever") if isinstance(infer, Mapping) else None
    if not isinstance(retriever, Mapping) or "type" not in retriever:
        raise ConfigError("num_fewshot: the dataset has no infer_cfg.retriever with a type to set the shot count of", key=key)
    cls = resolve_type(retriever["type"], "retriever", f"{key}.type")
    param = getattr(cls, "shot_count_param", None)
    if param is None:
        if count == 0:
            return entry
        raise ConfigError(
            f"num_fewshot={count}: {cls.__name__} picks no counted shots; set a retriever that does, e.g. "
            "--set \"infer_cfg.retriever={'type': 'FixKRetriever', 'fix_id_list': [0, 1, 2]}\"",
            key=key,
        )
    value: Any = count
    if param == "fix_id_list":
        ids = retriever.get(param)
        if not isinstance(ids, Sequence) or count > len(ids):
            raise ConfigError(
                f"num_fewshot={count}: {cls.__name__} shows the ids in fix_id_list, and it has {len(ids) if isinstance(ids, Sequence) else 0}; "
                "give at most that many, or a longer fix_id_list with --set",
                key=f"{key}.fix_id_list",
            )
        value = list(ids[:count])
    return _set(entry, ["infer_cfg", "retriever", param], value, f"{key}.{param}")
