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
``style='bfcl_fc'`` is what BFCL v3's function-calling handler (and so
AISBench's ``BFCLV3FunctionCallInferencer``) sends for its Python categories:
on top of that, ``.`` in a name becomes ``_``, the description gains BFCL's
language hint (" Note that the provided function is in Python 3 syntax.", or
Java's or JavaScript's for those categories, whose parameters become strings:
:func:`promptkit.data.bfcl.language_docs`, the category read from the row's
``id``), a ``float`` parameter gains ``"format": "float"`` and " This is a
float type value." in its description, and a parameter without a known type
is a ``string``.

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

from promptkit.data.bfcl import category_of, language_docs
from promptkit.errors import ConfigError, DatasetError, check_keys

__all__ = ["TOOL_STYLES", "Tools"]

#: How tool definitions are written: OpenAI's tool objects, or BFCL's function documents.
TOOL_STYLES = ("openai", "bfcl", "bfcl_fc")
#: BFCL's (Python) type names → JSON Schema's.
_BFCL_TYPES = {"dict": "object", "float": "number", "tuple": "array", "bool": "boolean", "any": "string", "list": "array", "int": "integer", "str": "string"}
#: The type names BFCL's function-calling conversion knows; any other type becomes ``string``.
_BFCL_FC_TYPES = {
    **{name: name for name in ("integer", "number", "string", "boolean", "array", "object")},
    "float": "number", "bool": "boolean", "list": "array", "dict": "object", "tuple": "array", "any": "string",
    # Java/JavaScript names BFCL's table also holds.
    "byte": "integer", "short": "integer", "long": "integer", "Bigint": "integer", "double": "number", "char": "string", "String": "string", "Any": "string",
    "ArrayList": "array", "Array": "array", "Queue": "array", "Stack": "array", "HashMap": "object", "Hashtable": "object",
}
#: What BFCL appends to a float parameter's description.
_BFCL_FLOAT_NOTE = " This is a float type value."


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
            if self.style == "bfcl_fc":
                tools = language_docs(tools, category_of(row.get("id")))
            convert = {"bfcl": _bfcl_tool, "bfcl_fc": _bfcl_fc_tool}.get(self.style, dict)
            out["tools"] = [convert(tool) for tool in tools]
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


def _bfcl_fc_tool(function: Mapping[str, Any]) -> dict[str, Any]:
    """A BFCL function document as BFCL's function-calling handler sends it (see the module docstring)."""
    out: dict[str, Any] = {}
    for key, value in function.items():
        if key == "name":
            value = str(value).replace(".", "_")
        elif key == "parameters" and isinstance(value, Mapping):
            value = {**value, "type": "object", "properties": _fc_properties(value.get("properties", {}))}
        out[key] = value
    return {"type": "function", "function": out}


def _fc_properties(properties: Mapping[str, Any]) -> dict[str, Any]:
    """BFCL's parameter conversion: known types mapped, others ``string``; nested properties and items too."""
    out = {}
    for name, spec in properties.items():
        spec = dict(spec)
        given = spec.get("type")
        if given == "float":
            spec["description"] = f"{spec.get('description', '')}{_BFCL_FLOAT_NOTE}"
            spec["format"] = "float"
        spec["type"] = _BFCL_FC_TYPES.get(given, "string") if isinstance(given, str) else "string"
        if spec["type"] in ("array", "object"):
            if isinstance(spec.get("properties"), Mapping):
                spec["properties"] = _fc_properties(spec["properties"])
            elif isinstance(spec.get("items"), Mapping):
                spec["items"] = _fc_items(spec["items"])
        out[name] = spec
    return out


def _fc_items(items: Mapping[str, Any]) -> dict[str, Any]:
    """An array's ``items`` schema: its type mapped, its own items or properties converted."""
    items = dict(items)
    items["type"] = _BFCL_FC_TYPES.get(str(items.get("type")), "string")
    if items["type"] == "array" and isinstance(items.get("items"), Mapping):
        items["items"] = {**items["items"], "type": _BFCL_FC_TYPES.get(str(items["items"].get("type")), "string")}
    elif items["type"] == "object" and isinstance(items.get("properties"), Mapping):
        items["properties"] = _fc_properties(items["properties"])
    return items
