"""The tools a dataset's prompts offer the model: a dataset config's ``tools=dict(...)``.

``tools=dict(tools=[...])`` gives every row the same tools; ``column='tools'``
takes each row's own (a list of tool objects, or its JSON text, as BFCL
stores its ``function`` column); ``tool_choice=`` (every row) or
``choice_column=`` (each row's) says whether the model must call one.  A
row's own tools win over the config's.  ``style='bfcl'`` reads BFCL's
function documents (``name``, ``description``, ``parameters`` with Python
type names) as OpenAI tools: each becomes ``{"type": "function",
"function": ...}``, with the types ``dict`` → ``object``, ``float`` →
``number``, ``tuple`` → ``array``, ``bool`` → ``boolean``, ``any`` → ``string``.

Where they go depends on the model: a chat model's records carry ``tools``
and ``tool_choice`` next to the messages (the request fields); a chat-template
model hands the tools to its chat template (``apply_chat_template(tools=...)``);
a completion model without a chat template refuses them.

>>> Tools(tools=({"type": "function", "function": {"name": "now"}},), tool_choice="auto").for_row({})
{'tools': [{'type': 'function', 'function': {'name': 'now'}}], 'tool_choice': 'auto'}
>>> Tools(column="function", style="bfcl").for_row({"function": '[{"name": "add", "parameters": {"type": "dict", "properties": {"a": {"type": "float"}}}}]'})
{'tools': [{'type': 'function', 'function': {'name': 'add', 'parameters': {'type': 'object', 'properties': {'a': {'type': 'number'}}}}}]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from promptkit.errors import ConfigError, DatasetError, check_keys

__all__ = ["TOOL_STYLES", "Tools"]

#: How tool definitions are written: OpenAI's tool objects, or BFCL's function documents.
TOOL_STYLES = ("openai", "bfcl")
#: BFCL's (Python) type names → JSON Schema's.
_BFCL_TYPES = {"dict": "object", "float": "number", "tuple": "array", "bool": "boolean", "any": "string", "list": "array", "int": "integer", "str": "string"}


@dataclass(frozen=True)
class Tools:
    """Where a dataset's tools and tool choice come from (see the module docstring)."""

    tools: tuple[Any, ...] | None = None
    column: str | None = None
    tool_choice: Any = None
    choice_column: str | None = None
    style: str = "openai"

    def __post_init__(self) -> None:
        if self.style not in TOOL_STYLES:
            raise ConfigError(f"tools.style must be one of {list(TOOL_STYLES)} (got {self.style!r})", key="tools.style")
        for name in ("column", "choice_column"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value):
                raise ConfigError(f"tools.{name} must be a column name (got {value!r})", key=f"tools.{name}")
        if self.tool_choice is not None and not isinstance(self.tool_choice, (str, Mapping)):
            raise ConfigError(f"tools.tool_choice must be a string or a dict (got {self.tool_choice!r})", key="tools.tool_choice")
        if self.tools is None and self.column is None:
            raise ConfigError("tools needs tools=[...] (every row's) or column='...' (each row's own)", key="tools")
        if self.tools is not None:
            _check_list(self.tools, "tools.tools", ConfigError)

    @classmethod
    def from_config(cls, cfg: Any) -> Tools:
        """A dataset config's ``tools=dict(tools=[...], column=..., tool_choice=..., choice_column=..., style=...)``."""
        if not isinstance(cfg, Mapping):
            raise ConfigError(f"tools must be a dict, e.g. dict(column='tools') or dict(tools=[...]) (got {cfg!r})", key="tools")
        check_keys(cfg, ("tools", "column", "tool_choice", "choice_column", "style"), "tools", key_prefix="tools.")
        values = dict(cfg)
        if isinstance(values.get("tools"), list):
            values["tools"] = tuple(values["tools"])
        return cls(**values)

    def for_row(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The row's ``tools`` and ``tool_choice`` (those that are set), OpenAI-style; ``None`` when neither is."""
        tools: Any = self.tools
        if self.column is not None and row.get(self.column) is not None:
            tools = row[self.column]
            if isinstance(tools, str):
                try:
                    tools = json.loads(tools)
                except json.JSONDecodeError as error:
                    raise DatasetError(f"column {self.column!r} holds text that is not JSON ({error.msg}); it must hold a list of tools", key=self.column) from None
            _check_list(tools, f"column {self.column!r}", DatasetError)
        choice = self.tool_choice
        if self.choice_column is not None and row.get(self.choice_column) is not None:
            choice = row[self.choice_column]
        out: dict[str, Any] = {}
        if tools is not None:
            out["tools"] = [_bfcl_tool(tool) for tool in tools] if self.style == "bfcl" else [dict(tool) for tool in tools]
        if choice is not None:
            out["tool_choice"] = choice
        return out or None


def _check_list(tools: Any, where: str, error: type[ConfigError] | type[DatasetError]) -> None:
    if isinstance(tools, (str, Mapping)) or not isinstance(tools, Sequence) or not all(isinstance(tool, Mapping) for tool in tools):
        raise error(f"{where} must be a list of tool objects (dicts), got {tools!r}", key=where.removeprefix("column ").strip("'"))


def _bfcl_tool(function: Mapping[str, Any]) -> dict[str, Any]:
    """A BFCL function document as an OpenAI tool (see the module docstring)."""
    return {"type": "function", "function": {key: _schema(value) if key == "parameters" else value for key, value in function.items()}}


def _schema(value: Any) -> Any:
    """A BFCL parameter schema with JSON Schema's type names, at every depth."""
    if isinstance(value, Mapping):
        return {key: _BFCL_TYPES.get(item, item) if key == "type" and isinstance(item, str) else _schema(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_schema(item) for item in value]
    return value
