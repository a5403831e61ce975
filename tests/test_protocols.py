"""Every built-in class of each kind implements the kind's declared protocol: attributes on an instance, method signatures."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from promptkit.data.opencompass import OPENCOMPASS_DATASETS
from promptkit.data.opencompass.base import REQUIRED
from promptkit.data.protocol import Dataset, RowText
from promptkit.frontends.opencompass.loader import _instantiate
from promptkit.frontends.opencompass.registry import REGISTRY, implements, lacking
from promptkit.meta_templates.protocol import Model
from promptkit.retrievers.base import Retriever
from promptkit.templates.protocol import DialogueTemplate, Template

PROTOCOLS: dict[str, type] = {"template": Template, "retriever": Retriever, "dataset": Dataset, "model": Model}

#: Config keys for the classes that need some to be built (every other class is built with none).
CONFIGS: dict[str, dict[str, Any]] = {
    "PromptTemplate": dict(template="{q}"),
    "JinjaPromptTemplate": dict(template="{{ q }}"),
    "MMPromptTemplate": dict(template=dict(round=[dict(role="HUMAN", prompt_mm=dict(text=dict(type="text", text="{q}")))])),
    "MultiTurnPromptTemplate": dict(template=dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")])),
    "RawPromptTemplate": dict(messages=[dict(role="user", content="{q}")]),
    "TaskTypeTemplate": dict(templates={"qa": dict(type="PromptTemplate", template="Q: {q}")}, default=dict(type="PromptTemplate", template="{q}")),
    "FixKRetriever": dict(fix_id_list=[0]),
    "SlidingWindowRetriever": dict(k=1),
    "MDLRetriever": dict(ice_template=dict(type="PromptTemplate", template="{q}"), scorer=lambda context, prompts: [0.0] * len(prompts)),
    "JsonlDataset": dict(path="rows.jsonl"),
    "BFCLDataset": dict(path="rows.jsonl"),
    "StandardSampleDataset": dict(path="rows.jsonl"),
    "TaskSpecDataset": dict(path="rows.jsonl"),
    "XpertFormatDataset": dict(path="rows.jsonl"),
    "AdapterDataset": dict(path="rows.jsonl", record_to_row=dict),
    "RowsDataset": dict(rows=[{"q": "1"}]),
    **{
        name: dict(chat_template="{% for m in messages %}{{ m.content }}{% endfor %}")
        for name in ("ChatTemplateModel", "HuggingFacewithChatTemplate", "TurboMindModelwithChatTemplate", "VLLMwithChatTemplate")
    },
}
EMBEDDING = {"TopkRetriever", "VotekRetriever", "DPPRetriever", "MDLRetriever"}

BUILT_INS = [(kind, name) for kind in PROTOCOLS for name in REGISTRY[kind]]


def build(kind: str, name: str) -> Any:
    """A built-in class built from a small config, as a config file would build it."""
    cfg: dict[str, Any] = dict(type=name, **CONFIGS.get(name, {}))
    if kind == "dataset" and name in OPENCOMPASS_DATASETS:  # OpenCompass's classes: their required load() keywords
        cfg.update({key: "x" for key, default in OPENCOMPASS_DATASETS[name].parameters.items() if default is REQUIRED})
    if name in EMBEDDING:
        cfg["embedder"] = lambda texts: np.ones((len(texts), 2))
    return _instantiate(cfg, kind, "")


def public_methods(protocol: type) -> dict[str, Callable[..., Any]]:
    return {
        name: member
        for name, member in inspect.getmembers(protocol, inspect.isfunction)
        if not name.startswith("_") and (getattr(protocol, "_is_protocol", False) or getattr(member, "__isabstractmethod__", False))
    }


def accepts(implementation: inspect.Signature, declared: inspect.Signature) -> list[str]:
    """What keeps ``implementation`` from taking every call ``declared`` allows (empty: compatible)."""
    problems = []
    given = implementation.parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in given.values())
    positional = [p for p in given.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for index, wanted in enumerate(p for p in declared.parameters.values() if p.name != "self"):
        found = given.get(wanted.name)
        if wanted.kind is wanted.POSITIONAL_OR_KEYWORD and (index >= len(positional) - 1 or positional[index + 1].name != wanted.name):
            problems.append(f"{wanted.name!r} is not positional parameter {index + 1}")
        elif found is None and not takes_any:
            problems.append(f"no parameter {wanted.name!r}")
        elif found is not None and wanted.default is not inspect.Parameter.empty and found.default is inspect.Parameter.empty:
            problems.append(f"{wanted.name!r} has no default")
    declared_names = set(declared.parameters)
    for extra in given.values():
        if extra.name not in declared_names and extra.default is inspect.Parameter.empty and extra.kind not in (extra.VAR_KEYWORD, extra.VAR_POSITIONAL):
            problems.append(f"the extra parameter {extra.name!r} has no default")
    return problems


@pytest.mark.parametrize(("kind", "name"), BUILT_INS)
def test_every_built_in_instance_implements_its_kinds_protocol(kind, name):
    """Built from a small config, each built-in class's instance is an instance of its kind's protocol, lacking nothing."""
    built = build(kind, name)
    assert isinstance(built, PROTOCOLS[kind])
    assert lacking(built, kind) == []
    assert implements(type(built), kind)


@pytest.mark.parametrize(("kind", "name"), BUILT_INS)
def test_every_built_in_method_takes_the_protocols_arguments(kind, name):
    """Each protocol method of each built-in class takes the protocol's parameters, in order, with the same defaults."""
    cls = REGISTRY[kind][name]
    protocols = [PROTOCOLS[kind]] + ([DialogueTemplate] if name == "MultiTurnPromptTemplate" else [])
    for protocol in protocols:
        for method, declared in public_methods(protocol).items():
            assert accepts(inspect.signature(getattr(cls, method)), inspect.signature(declared)) == [], f"{name}.{method}"


def test_the_dialogue_template_is_the_multi_turn_one():
    """MultiTurnPromptTemplate is a DialogueTemplate; the single-prompt templates are not."""
    dialogue = {name for name in REGISTRY["template"] if isinstance(build("template", name), DialogueTemplate)}
    assert dialogue == {"MultiTurnPromptTemplate"}


def test_the_reader_input_template_is_row_text():
    """reader_cfg.input_template compiles to a RowText."""
    from promptkit import ReaderConfig

    reader = ReaderConfig.from_config(dict(input_columns=["q"], input_template=dict(template="{q}")))
    assert isinstance(reader.input_template, RowText)


def test_the_signature_check_finds_each_incompatibility():
    """The signature check names a missing, misplaced, default-less or extra required parameter."""

    def declared(self, row, ice="", *, label=None): ...

    def good(self, row, ice="", *, label=None, extra=1): ...

    def bad(self, ice, row, *, must): ...

    assert accepts(inspect.signature(good), inspect.signature(declared)) == []
    assert accepts(inspect.signature(bad), inspect.signature(declared)) == [
        "'row' is not positional parameter 1",
        "'ice' is not positional parameter 2",
        "no parameter 'label'",
        "the extra parameter 'must' has no default",
    ]


class UpperTemplate:
    """A template of one's own that subclasses nothing: the row's question, upper-cased, after the shots."""

    kind, labels, ice_token, has_ice_slot, sep_token, is_multimodal = "string", None, "</E>", True, None, False

    def render_shot(self, row, label=None):
        return f"{row['q'].upper()} {row['a']}\n"

    def render(self, row, ice="", *, label=None, masked=None, mask_value=""):
        return f"{ice}{row['q'].upper()} {mask_value if masked == 'a' else row['a']}"


def test_a_class_implementing_the_template_protocol_renders_prompts():
    """type= takes a template class that implements the protocol without subclassing PromptTemplate."""
    from promptkit import Renderer, build_dataset

    spec = build_dataset(
        dict(
            abbr="d",
            type="RowsDataset",
            rows=[{"q": "one", "a": "1"}, {"q": "two", "a": "2"}],
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(ice_template=dict(type=UpperTemplate), retriever=dict(type="FixKRetriever", fix_id_list=[0]), inferencer=dict(type="GenInferencer")),
        )
    )
    assert [p.prompt for p in Renderer(spec)] == ["ONE 1\n\nONE ", "ONE 1\n\nTWO "]


def test_a_template_class_lacking_an_attribute_is_refused_by_name():
    """A class with the methods but not every attribute of the protocol: one ConfigError naming what it lacks."""
    from promptkit import ConfigError, build_dataset

    class NoKind:
        labels, ice_token, has_ice_slot, sep_token = None, None, False, None
        render_shot, render = UpperTemplate.render_shot, UpperTemplate.render

    with pytest.raises(ConfigError) as info:
        build_dataset(
            dict(abbr="d", type="RowsDataset", rows=[{"q": "x", "a": "1"}], reader_cfg=dict(input_columns=["q"]),
                 infer_cfg=dict(prompt_template=dict(type=NoKind), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))
        )
    assert str(info.value) == "dataset 'd', key 'infer_cfg.prompt_template.type': NoKind does not implement the template protocol: it has no is_multimodal, kind"
