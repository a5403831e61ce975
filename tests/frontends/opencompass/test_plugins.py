"""The open registry: classes of one's own, import strings and entry-point plugins as ``type=``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from promptkit import ConfigError, Renderer, build_dataset
from promptkit.frontends.opencompass import registry

ROWS = [{"q": "one", "a": "1"}, {"q": "two", "a": "2"}, {"q": "three", "a": "3"}]

PLUGIN_SOURCE = textwrap.dedent(
    '''
    """A third-party plugin: a retriever that shows the previous row, a template that shouts."""
    from promptkit import PromptTemplate, Retriever


    class PreviousRowRetriever(Retriever):
        def retrieve(self, pool, queries, reader):
            return [[(i - 1) % len(pool)] for i in range(len(queries))]


    class ShoutingTemplate(PromptTemplate):
        def __init__(self, template, ice_token=None, sep_token=None):
            super().__init__(template.upper().replace("{Q}", "{q}").replace("{A}", "{a}"), ice_token, sep_token)
    '''
)


def _infer(retriever: object, template: object = "PromptTemplate") -> dict:
    # The shouting template upper-cases its text, so its prompts read "Q:"/"A:" where the config says "q:"/"a:".
    text = "</E>Q: {q}\nA: {a}\n" if template == "PromptTemplate" else "</E>q: {q}\na: {a}\n"
    return dict(
        ice_template=dict(type=template, template=text, ice_token="</E>"),
        retriever=dict(type=retriever),
        inferencer=dict(type="GenInferencer"),
    )


def _prompts(infer: dict) -> list[str]:
    spec = build_dataset(dict(abbr="d", type="RowsDataset", rows=ROWS, reader_cfg=dict(input_columns=["q"], output_column="a"), infer_cfg=infer))
    return [p.prompt for p in Renderer(spec)]  # type: ignore[misc]


@pytest.fixture
def plugin_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The plugin's module, importable as ``shouting_plugin``."""
    (tmp_path / "shouting_plugin.py").write_text(PLUGIN_SOURCE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "shouting_plugin"
    sys.modules.pop("shouting_plugin", None)


def test_a_class_of_ones_own_that_subclasses_retriever_is_accepted():
    """type=MyRetriever works for any Retriever subclass, not only subclasses of promptkit's retrievers."""
    from promptkit import Retriever

    class LastRowRetriever(Retriever):
        def retrieve(self, pool, queries, reader):
            return [[len(pool) - 1] if i != len(pool) - 1 else [0] for i in range(len(queries))]

    assert _prompts(_infer(LastRowRetriever)) == [
        "Q: three\nA: 3\n\nQ: one\nA: \n",
        "Q: three\nA: 3\n\nQ: two\nA: \n",
        "Q: one\nA: 1\n\nQ: three\nA: \n",
    ]


def test_an_import_string_names_a_class_in_any_module(plugin_module: str):
    """type='module:Class' imports the module and takes the class."""
    prompts = _prompts(_infer(f"{plugin_module}:PreviousRowRetriever", f"{plugin_module}:ShoutingTemplate"))
    assert prompts[0] == "Q: three\nA: 3\n\nQ: one\nA: \n"
    assert prompts[1] == "Q: one\nA: 1\n\nQ: two\nA: \n"


def test_a_class_of_another_kind_is_refused_with_what_the_kind_needs(plugin_module: str):
    """A template class given as the retriever: one error naming the class and what a retriever must be."""
    with pytest.raises(ConfigError) as info:
        _prompts(_infer(f"{plugin_module}:ShoutingTemplate"))
    assert str(info.value) == (
        "dataset 'd', key 'infer_cfg.retriever.type': type='shouting_plugin:ShoutingTemplate': ShoutingTemplate is not a retriever "
        "class; a retriever class must subclass promptkit.Retriever and implement retrieve(pool, queries, reader)"
    )


def test_import_string_errors_name_the_module_and_the_attribute(plugin_module: str):
    """A missing module or attribute is one error saying which."""
    with pytest.raises(ConfigError) as info:
        _prompts(_infer("no_such_plugin_pkg:R"))
    assert str(info.value) == (
        "dataset 'd', key 'infer_cfg.retriever.type': cannot import module 'no_such_plugin_pkg' for 'no_such_plugin_pkg:R': "
        "ModuleNotFoundError: No module named 'no_such_plugin_pkg'"
    )
    with pytest.raises(ConfigError) as info:
        _prompts(_infer(f"{plugin_module}:Missing"))
    assert str(info.value) == (
        "dataset 'd', key 'infer_cfg.retriever.type': module 'shouting_plugin' has no 'Missing' (from 'shouting_plugin:Missing')"
    )


def _wheel(folder: Path) -> Path:
    """A wheel of the plugin package with two ``promptkit.plugins`` entry points, as a build backend writes it."""
    wheel = folder / "shouting_plugin-1.0-py3-none-any.whl"
    info = "shouting_plugin-1.0.dist-info"
    files = {
        "shouting_plugin.py": PLUGIN_SOURCE,
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: shouting-plugin\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": (
            "[promptkit.plugins]\nPreviousRowRetriever = shouting_plugin:PreviousRowRetriever\n"
            "ShoutingTemplate = shouting_plugin:ShoutingTemplate\n"
        ),
    }
    files[f"{info}/RECORD"] = "".join(f"{name},,\n" for name in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


def test_an_installed_plugin_package_registers_its_classes_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """pip-installing a package with promptkit.plugins entry points makes its names usable as type=."""
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(site), str(_wheel(tmp_path))],
        check=True,
    )
    monkeypatch.syspath_prepend(str(site))
    registry._plugins.cache_clear()
    try:
        prompts = _prompts(_infer("PreviousRowRetriever", "ShoutingTemplate"))
        with pytest.raises(ConfigError) as info:
            _prompts(_infer("PreviousRowRetrievr"))
    finally:
        registry._plugins.cache_clear()
        sys.modules.pop("shouting_plugin", None)
    assert prompts[2] == "Q: two\nA: 2\n\nQ: three\nA: \n"
    assert "unknown retriever type 'PreviousRowRetrievr' (did you mean 'PreviousRowRetriever'?)" in str(info.value)
