"""A model's ``meta_template``, validated once: its round roles, reserved roles and wrappers.

``meta_template = dict(begin=..., round=[...], reserved_roles=[...], end=...)``:

* ``round`` — the roles of one turn, in order (``HUMAN`` then ``BOT``); each
  has ``begin``/``end`` markers, an optional default ``prompt``, ``generate=True``
  for the model's own turn, and (chat models) an ``api_role``.  Completion
  models may also put literal strings in ``round``.
* ``reserved_roles`` — roles outside the turn order, typically ``SYSTEM``.
* ``begin``/``end`` — text around the whole prompt (completion models); a chat
  model's ``begin`` may be a message dict placed first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from promptkit.errors import MetaTemplateError, check_keys

__all__ = ["MetaRole", "MetaTemplate"]

_META_ROLE_KEYS = ("role", "begin", "end", "prompt", "generate", "api_role", "fallback_role")
_META_KEYS = ("round", "reserved_roles", "begin", "end", "eos_token_id")


@dataclass(frozen=True, slots=True)
class MetaRole:
    """How a model wraps one role: ``begin + prompt + end``."""

    role: str
    begin: str = ""
    end: str = ""
    prompt: str | None = None
    generate: bool = False
    api_role: str | None = None

    @classmethod
    def from_config(cls, spec: Any, where: str) -> MetaRole:
        if not isinstance(spec, Mapping):
            raise MetaTemplateError(f"{where} must be a role dict such as dict(role='HUMAN', begin='User: ', end='\\n') (got {spec!r})")
        check_keys(spec, _META_ROLE_KEYS, where, MetaTemplateError)
        if not isinstance(spec.get("role"), str):
            raise MetaTemplateError(f"{where} needs a 'role' name (got {dict(spec)!r})")
        for key in ("begin", "end"):
            value = spec.get(key, "")
            if not isinstance(value, str):
                raise MetaTemplateError(
                    f"{where}: {key!r} of role {spec['role']!r} must be a str (got {value!r}); token ids are not supported, "
                    "write the token text instead",
                    key=key,
                )
        prompt = spec.get("prompt")
        if prompt is not None and not isinstance(prompt, str):
            raise MetaTemplateError(f"{where}: 'prompt' of role {spec['role']!r} must be a str (got {prompt!r})", key="prompt")
        generate = spec.get("generate", False)
        if not isinstance(generate, bool):
            # 'False' is a true string: reading the flag by truthiness would cut the prompt at the wrong turn.
            raise MetaTemplateError(
                f"{where}: 'generate' of role {spec['role']!r} must be True or False (got {generate!r} that is a {type(generate).__name__}); "
                "generate=True marks the model's own turn",
                key="generate",
            )
        return cls(
            role=spec["role"],
            begin=spec.get("begin", "") or "",
            end=spec.get("end", "") or "",
            prompt=prompt,
            generate=generate,
            api_role=spec.get("api_role"),
        )


RoundElement = MetaRole | str


@dataclass(frozen=True)
class MetaTemplate:
    """A validated meta template (see the module docstring)."""

    round: tuple[RoundElement, ...]
    reserved: tuple[MetaRole, ...] = ()
    begin: Any = ""
    end: str = ""

    @classmethod
    def from_config(cls, cfg: Any) -> MetaTemplate:
        if not isinstance(cfg, Mapping):
            hint = ": is there a trailing comma after dict(...)?" if isinstance(cfg, tuple) and len(cfg) == 1 and isinstance(cfg[0], Mapping) else ""
            raise MetaTemplateError(
                f"meta_template must be a dict with a 'round' list (got {type(cfg).__name__}{hint})", key="meta_template"
            )
        check_keys(cfg, _META_KEYS, "meta_template", MetaTemplateError)
        if "round" not in cfg:
            raise MetaTemplateError(
                "meta_template needs 'round', the roles of one turn, e.g. round=[dict(role='HUMAN', begin='User: ', end='\\n'), "
                "dict(role='BOT', begin='Assistant: ', generate=True)]",
                key="round",
            )
        if not isinstance(cfg["round"], (list, tuple)):
            raise MetaTemplateError(f"meta_template round must be a list (got {type(cfg['round']).__name__})", key="round")
        round_: list[RoundElement] = []
        for i, element in enumerate(cfg["round"]):
            round_.append(element if isinstance(element, str) else MetaRole.from_config(element, f"meta_template round[{i}]"))
        reserved_cfg = cfg.get("reserved_roles") or ()
        if not isinstance(reserved_cfg, (list, tuple)):
            raise MetaTemplateError(
                f"meta_template reserved_roles must be a list of role dicts (got {reserved_cfg!r})", key="reserved_roles"
            )
        reserved = tuple(MetaRole.from_config(spec, f"meta_template reserved_roles[{i}]") for i, spec in enumerate(reserved_cfg))
        names = [r.role for r in round_ if isinstance(r, MetaRole)] + [r.role for r in reserved]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise MetaTemplateError(f"role(s) {duplicates} appear more than once in meta_template round + reserved_roles; each role once")
        begin = cfg.get("begin", "") or ""
        end = cfg.get("end", "") or ""
        if not isinstance(end, str):
            raise MetaTemplateError(f"meta_template end must be a str (got {end!r})", key="end")
        return cls(tuple(round_), reserved, begin, end)

    @property
    def round_roles(self) -> tuple[MetaRole, ...]:
        return tuple(r for r in self.round if isinstance(r, MetaRole))

