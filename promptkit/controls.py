"""Prompt controls set per model, per dataset and per run: thinking, chat-template kwargs, shot layout, system prompt.

Each level gives a :class:`Controls`; the renderer merges them **model <
dataset < run** (a later level wins, key by key for ``chat_template_kwargs``):

* model: the model config's ``thinking=``, ``chat_template_kwargs=``, ``shots=``, ``system_prompt=``;
* dataset: the same keys in ``infer_cfg`` (next to ``max_out_len``, the other generation settings);
* run: ``Renderer(..., controls=Controls(...))``, or the CLI's ``--thinking``, ``--chat-template-kwarg``,
  ``--shots`` and ``--system-prompt``.

``thinking`` (``True``/``False``; ``None``: not set) is the reasoning switch a chat template reads
(:data:`THINKING_SWITCHES`); within one level it wins over the same switch in ``chat_template_kwargs``.

>>> model = Controls(chat_template_kwargs={"enable_thinking": True, "date_string": "1 Jan"})
>>> run = Controls(thinking=False)
>>> merged = Controls.merge(model, Controls(shots="as_turns"), run)
>>> merged.shots, merged.thinking_value(), dict(merged.template_kwargs("enable_thinking"))
('as_turns', False, {'date_string': '1 Jan', 'enable_thinking': False})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from promptkit.errors import ConfigError

__all__ = ["CONTROL_KEYS", "SHOT_LAYOUTS", "THINKING_SWITCHES", "Controls"]

#: How shots are laid out: as the templates say; string shots as HUMAN/BOT turns; chat shots flattened into the user turn.
SHOT_LAYOUTS = ("as_configured", "as_turns", "in_user_turn")
#: The chat-template variables a ``thinking=`` switch maps to, in the order they are looked for in a template.
THINKING_SWITCHES = ("enable_thinking", "thinking")
#: The config keys a :class:`Controls` is read from (a model config's, or a dataset's ``infer_cfg``).
CONTROL_KEYS = ("thinking", "chat_template_kwargs", "shots", "system_prompt")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Controls:
    """One level's prompt controls; ``None`` (and an empty ``chat_template_kwargs``) means "not set here"."""

    thinking: bool | None = None
    chat_template_kwargs: Mapping[str, Any] = field(default_factory=dict)
    shots: str | None = None
    system_prompt: str | None = None

    def __post_init__(self) -> None:
        if self.thinking is not None and not isinstance(self.thinking, bool):
            raise ConfigError(f"thinking must be True, False or None (got {self.thinking!r} that is a {type(self.thinking).__name__})", key="thinking")
        if not isinstance(self.chat_template_kwargs, Mapping) or not all(isinstance(k, str) for k in self.chat_template_kwargs):
            raise ConfigError(f"chat_template_kwargs must be a dict of names to values (got {self.chat_template_kwargs!r})", key="chat_template_kwargs")
        object.__setattr__(self, "chat_template_kwargs", MappingProxyType(dict(self.chat_template_kwargs)))
        if self.shots is not None and self.shots not in SHOT_LAYOUTS:
            raise ConfigError(f"shots must be one of {', '.join(map(repr, SHOT_LAYOUTS))} (got {self.shots!r})", key="shots")
        if self.system_prompt is not None and not isinstance(self.system_prompt, str):
            raise ConfigError(f"system_prompt must be a str (got {self.system_prompt!r})", key="system_prompt")

    def __reduce__(self) -> tuple[type[Controls], tuple[Any, ...]]:
        # A read-only mapping does not pickle: the controls travel as their arguments and are checked again on load.
        return Controls, (self.thinking, dict(self.chat_template_kwargs), self.shots, self.system_prompt)

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any]) -> Controls:
        """The controls among a config's keys (:data:`CONTROL_KEYS`); other keys are not read."""
        kwargs = cfg.get("chat_template_kwargs")
        return cls(cfg.get("thinking"), kwargs if kwargs is not None else _EMPTY, cfg.get("shots"), cfg.get("system_prompt"))

    @property
    def for_template(self) -> bool:
        """Whether a chat template's variables are set (``thinking`` or ``chat_template_kwargs``)."""
        return self.thinking is not None or bool(self.chat_template_kwargs)

    @staticmethod
    def merge(*levels: Controls | None) -> Controls:
        """The levels merged, lowest first: each set value replaces the one below, kwargs key by key.

        A level's ``thinking`` replaces the switches of the levels below in the kwargs too, so a run's
        ``thinking=False`` wins over a model's ``chat_template_kwargs=dict(enable_thinking=True)``.
        """
        thinking: bool | None = None
        kwargs: dict[str, Any] = {}
        shots = system = None
        for level in levels:
            if level is None:
                continue
            kwargs.update(level.chat_template_kwargs)
            if level.thinking is not None:
                thinking = level.thinking
                for name in THINKING_SWITCHES:
                    kwargs.pop(name, None)
            elif any(name in level.chat_template_kwargs for name in THINKING_SWITCHES):
                thinking = None  # this level's explicit switch stands
            shots = level.shots if level.shots is not None else shots
            system = level.system_prompt if level.system_prompt is not None else system
        return Controls(thinking, kwargs, shots, system)

    def describe(self) -> tuple[str, ...]:
        """One ``key=value`` line per control set here (values as Python literals), as records list overrides."""
        lines = [] if self.thinking is None else [f"thinking={self.thinking!r}"]
        lines += [f"chat_template_kwargs.{key}={value!r}" for key, value in self.chat_template_kwargs.items()]
        if self.shots is not None:
            lines.append(f"shots={self.shots!r}")
        if self.system_prompt is not None:
            lines.append(f"system_prompt={self.system_prompt!r}")
        return tuple(lines)

    @property
    def layout(self) -> str:
        """The shot layout, ``'as_configured'`` when none is set."""
        return self.shots or "as_configured"

    def thinking_value(self) -> bool | None:
        """Whether thinking is on: ``thinking``, else a switch in ``chat_template_kwargs``, else ``None`` (the template's default)."""
        if self.thinking is not None:
            return self.thinking
        for name in THINKING_SWITCHES:
            value = self.chat_template_kwargs.get(name)
            if isinstance(value, bool):
                return value
        return None

    def template_kwargs(self, switch: str | None) -> Mapping[str, Any]:
        """``chat_template_kwargs`` with ``thinking`` written under ``switch`` (the variable the template reads).

        ``thinking`` set and ``switch`` ``None`` (a template that reads no thinking switch) is an error.
        """
        if self.thinking is None:
            return self.chat_template_kwargs
        if switch is None:
            raise ConfigError(
                f"thinking={self.thinking} is set but the model's chat template reads no thinking switch "
                f"({', '.join(THINKING_SWITCHES)}); remove thinking, or pass the template's own variable with chat_template_kwargs",
                key="thinking",
            )
        return MappingProxyType({**self.chat_template_kwargs, switch: self.thinking})
