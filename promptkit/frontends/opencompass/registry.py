"""The one registry behind ``type=``: an open one.

``type=`` takes, for each kind of config (template, retriever, inferencer,
dataset, model):

* a class — promptkit's own, or any class that implements the kind: a
  template, dataset or model implements its protocol
  (:mod:`promptkit.templates.protocol`, :mod:`promptkit.data.protocol`,
  :mod:`promptkit.meta_templates.protocol`: the methods are checked here, the
  attributes on the built object); a retriever subclasses
  :class:`~promptkit.Retriever`, an inferencer :class:`~promptkit.Inferencer`;
* an import string ``'my_pkg.retrievers:MyRetriever'``;
* a name: promptkit's own names, OpenCompass's dotted names by their last
  component (``'opencompass.openicl.icl_prompt_template.PromptTemplate'``),
  or a name a package registers in the ``promptkit.plugins`` entry-point
  group (``MyRetriever = "my_pkg.retrievers:MyRetriever"``).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator, Mapping
from functools import cache
from types import ModuleType
from typing import Any

from promptkit.data.protocol import Dataset
from promptkit.errors import ConfigError, did_you_mean
from promptkit.meta_templates.protocol import Model
from promptkit.plan.inferencers import Inferencer
from promptkit.retrievers.base import Retriever
from promptkit.templates.protocol import Template

__all__ = ["OUT_OF_SCOPE", "PLUGIN_GROUP", "REGISTRY", "implements", "lacking", "resolve_type"]

#: The entry-point group third-party packages register their classes in.
PLUGIN_GROUP = "promptkit.plugins"

#: What a class of each kind must be (a base class, or the kind's protocol), and how the error says it.
_BASES: Mapping[str, tuple[type, str]] = {
    "template": (
        Template,
        "implement promptkit.templates.protocol.Template: render(row, ice, *, label, masked, mask_value) and "
        "render_shot(row, label), with kind, labels, ice_token, has_ice_slot, sep_token and is_multimodal",
    ),
    "retriever": (Retriever, "subclass promptkit.Retriever and implement retrieve(pool, queries, reader)"),
    "inferencer": (Inferencer, "subclass promptkit.Inferencer"),
    "dataset": (Dataset, "have a load(base_dir) method returning the rows by split"),
    "model": (Model, "implement promptkit.meta_templates.protocol.Model: render(prompt, mode) and render_with_media(prompt, mode), with abbr, kind, max_seq_len, token_counter and token_guard"),
}


def implements(cls: type, kind: str) -> bool:
    """Whether ``cls`` is a class of ``kind``: a subclass of its base, or a class with every method of its protocol."""
    base = _BASES[kind][0]
    if not getattr(base, "_is_protocol", False):
        return issubclass(cls, base)
    return all(callable(getattr(cls, name, None)) for name in _methods(base))


def lacking(obj: Any, kind: str) -> list[str]:
    """The members of ``kind``'s protocol an object built by a config lacks (a base-class kind lacks none)."""
    base = _BASES[kind][0]
    if not getattr(base, "_is_protocol", False):
        return []
    return [name for name in _members(base) if not hasattr(obj, name)]


def _members(protocol: type) -> list[str]:
    """The public members a protocol declares, its parents' included."""
    return sorted(
        {name for layer in protocol.__mro__ if getattr(layer, "_is_protocol", False) for name in vars(layer) if not name.startswith("_")}
    )


def _methods(protocol: type) -> list[str]:
    return [name for name in _members(protocol) if callable(getattr(protocol, name))]


def _discovered(kind: str, *packages: ModuleType, exported: tuple[ModuleType, ...] = ()) -> dict[str, type]:
    """Every public, concrete class of ``kind`` defined in a public module of ``packages`` (a new module is registered
    by being there), and those the ``exported`` packages' ``__init__`` names (for packages whose modules are imported
    lazily)."""
    found: dict[str, type] = {}
    candidates: list[tuple[str, Any, str | None]] = [(name, cls, module.__name__) for module in _modules(*packages) for name, cls in vars(module).items()]
    candidates += [(name, getattr(package, name), None) for package in exported for name in package.__all__]
    for name, cls, module in candidates:
        if (
            isinstance(cls, type)
            and (module is None or cls.__module__ == module)
            and not name.startswith("_")
            and not getattr(cls, "_is_protocol", False)
            and not inspect.isabstract(cls)
            and implements(cls, kind)
        ):
            found[name] = cls
    return dict(sorted(found.items()))


def _modules(*packages: ModuleType) -> Iterator[ModuleType]:
    for package in packages:
        yield package
        for info in pkgutil.iter_modules(package.__path__):
            if not info.name.startswith("_"):
                yield importlib.import_module(f"{package.__name__}.{info.name}")


#: The package each kind's classes live in, and the packages whose ``__init__`` names them (for packages whose modules
#: are imported lazily): a name a package's ``__init__`` exports resolves without importing the kind's other modules.
_PACKAGES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "template": (("promptkit.templates",), ()),
    "retriever": (("promptkit.retrievers",), ()),
    # Every concrete inferencer promptkit.plan.inferencers exports (its base class is no config's type).
    "inferencer": ((), ("promptkit.plan.inferencers",)),
    # Dataset formats (promptkit.formats): validated records, their own shots, default templates when infer_cfg is omitted.
    "dataset": (("promptkit.data",), ("promptkit.formats",)),
    "model": ((), ("promptkit.models",)),
}


class _Registry(Mapping[str, Mapping[str, type]]):
    """kind -> {name -> class}: each kind's classes are discovered when the kind is first read (importing every module
    of its package), so that a config naming promptkit's usual classes imports only theirs.  Retrievers, templates and
    datasets are the classes of their packages' modules (the formats' schema modules compile pydantic models, so only
    the classes promptkit.formats exports are taken from it); OpenCompass's names throughout (it registers only some
    retrievers, RandomRetriever only by class; promptkit all), and OpenCompass's dataset classes read natively."""

    def __getitem__(self, kind: str) -> Mapping[str, type]:
        if kind not in _PACKAGES:
            raise KeyError(kind)
        return _kind(kind)

    def __iter__(self) -> Iterator[str]:
        return iter(_PACKAGES)

    def __len__(self) -> int:
        return len(_PACKAGES)


@cache
def _kind(kind: str) -> dict[str, type]:
    scanned, exported = _PACKAGES[kind]
    found = _discovered(kind, *map(importlib.import_module, scanned), exported=tuple(map(importlib.import_module, exported)))
    if kind == "inferencer":
        found.pop("Inferencer", None)
    if kind == "dataset":  # OpenCompass's dataset classes, read natively (promptkit.data.opencompass)
        found.update(importlib.import_module("promptkit.data.opencompass").OPENCOMPASS_DATASETS)
    return found


@cache
def _exported(kind: str, name: str) -> type | None:
    """The class of ``kind`` named ``name`` that one of the kind's packages' ``__init__`` exports, resolved without
    discovering the rest (a package that imports its modules lazily imports only this one); ``None`` if none does."""
    scanned, exported = _PACKAGES[kind]
    if name == "Inferencer":
        return None
    for package in map(importlib.import_module, (*scanned, *exported)):
        if name not in getattr(package, "__all__", ()):
            continue
        cls = getattr(package, name)
        if isinstance(cls, type) and not getattr(cls, "_is_protocol", False) and not inspect.isabstract(cls) and implements(cls, kind):
            return cls
    return None


#: kind -> {name -> class} (see :class:`_Registry`).
REGISTRY: Mapping[str, Mapping[str, type]] = _Registry()

#: kind -> {name -> why promptkit cannot build it}: classes of real configs whose prompts only exist with a model in the loop.
OUT_OF_SCOPE: dict[str, dict[str, str]] = {
    "inferencer": {
        name: f"{name} {what}, so its prompts depend on the model's replies and cannot be rendered ahead of time; promptkit "
        "renders no prompts for it (render the dataset with GenInferencer to see its first prompts)"
        for name, what in (
            ("AgentInferencer", "runs a tool-using agent: each next prompt holds the model's last reply and the tools' results"),
            ("AttackInferencer", "rewrites each prompt adversarially, searching with the model's answers"),
            ("ToTInferencer", "searches a tree of thoughts: each prompt extends thoughts the model generated and scored"),
        )
    },
    "model": {
        **{
            name: f"{name} builds its prompt with {how}, so promptkit cannot know the prompt it sends; use a chat-template "
            "model config (HuggingFacewithChatTemplate) or a meta template (CompletionModel) that writes the same format"
            for name, how in (
                ("LLaMA2AccessoryModel", "LLaMA2-Accessory's own conversation code"),
                ("Llama2", "Meta's llama package"),
                ("Llama2Chat", "Meta's llama package (its chat_completion dialog format, in tokens)"),
                ("Mixtral", "Mistral's reference package"),
                ("HuggingFaceChatGLM3", "the ChatGLM3 tokenizer's own build_chat_input"),
                ("CodeAgent", "a Lagent agent in the loop"),
            )
        },
        **{
            name: f"{name} sends its provider's own request format, which promptkit does not build, so promptkit cannot know "
            "the prompt it sends; render with OpenAISDK and the same meta_template to see the messages in OpenAI's form"
            for name in (
                "BlueLMAPI", "ByteDance", "ClaudeSDK", "Doubao", "GeminiSDK", "Hunyuan", "LiteLLMAPI", "MiniMax", "Mistral",
                "Nanbeige", "OpenAISDKResponse", "OpenAISDKRollout", "PanGu", "Qwen", "XunFei", "XunFeiSpark", "Yayi", "ZhiPuAI",
                "ZhiPuV2AI",
            )
        },
    },
}


def resolve_type(value: Any, kind: str, key: str) -> type:
    """The class ``value`` names for a config of ``kind`` ('template', 'retriever', …)."""
    refused = OUT_OF_SCOPE.get(kind, {})
    given = value.__name__ if isinstance(value, type) else value.rsplit(".", 1)[-1] if isinstance(value, str) and ":" not in value else None
    usual = _exported(kind, given) if isinstance(value, str) and given is not None and given not in refused else None
    if usual is not None:
        return usual  # promptkit's usual names, without discovering every class of the kind
    known = REGISTRY[kind]
    if given in refused and not (isinstance(value, type) and implements(value, kind)):
        raise ConfigError(refused[given], key=key)
    if isinstance(value, type):
        # Another framework's class of the same name (OpenCompass's own PromptTemplate) stands for promptkit's.
        if not implements(value, kind) and value.__name__ in known:
            return known[value.__name__]
        return _checked(value, kind, key, f"type={value.__name__}")
    if not isinstance(value, str):
        raise ConfigError(f"type must be a class, a class name or an import string 'module:Class' (got {value!r})", key=key)
    if ":" in value:
        return _checked(_import(value, key), kind, key, f"type={value!r}")
    name = value.rsplit(".", 1)[-1]
    if name in known:
        return known[name]
    plugin = _plugins().get(name)
    if plugin is not None:
        return _checked(_import(plugin, key, f"the {PLUGIN_GROUP!r} entry point {name!r}"), kind, key, f"type={name!r}")
    hint = did_you_mean(name, [*known, *_plugins()])
    raise ConfigError(f"unknown {kind} type {name!r}{hint}; known {kind} types: {', '.join(sorted(known))}", key=key)


def _checked(cls: Any, kind: str, key: str, given: str) -> type:
    what = _BASES[kind][1]
    if not isinstance(cls, type) or not implements(cls, kind):
        shown = cls.__name__ if isinstance(cls, type) else f"{cls!r} (a {type(cls).__name__}, not a class)"
        raise ConfigError(f"{given}: {shown} is not a {kind} class; a {kind} class must {what}", key=key)
    return cls


def _import(target: str, key: str, origin: str | None = None) -> Any:
    """``'module:Attr'`` → the object; errors say which import failed and from where the name came."""
    module_name, _, attribute = target.partition(":")
    where = f"{origin} ({target!r})" if origin else repr(target)
    if not module_name or not attribute:
        raise ConfigError(f"{where} is not an import string of the form 'module:Class'", key=key)
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # importing runs the plugin's own code: report whatever it raised
        raise ConfigError(f"cannot import module {module_name!r} for {where}: {type(error).__name__}: {error}", key=key) from error
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise ConfigError(f"module {module_name!r} has no {attribute!r} (from {where})", key=key)
        found = getattr(found, part)
    return found


@cache
def _plugins() -> dict[str, str]:
    """Names registered in the entry-point group, read once per process: name → import string."""
    from importlib.metadata import entry_points  # read only when a name is not promptkit's own

    return {entry.name: entry.value for entry in entry_points(group=PLUGIN_GROUP)}
