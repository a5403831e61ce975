"""Config files of plain data are read without mmengine, to the values mmengine gives; anything else is mmengine's."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from promptkit.frontends.opencompass import reading
from promptkit.frontends.opencompass.plain import plain_values

NAMES = st.sampled_from(["abbr", "reader_cfg", "infer_cfg", "x", "_hidden", "datasets", "models", "mmlu_datasets", "__meta"])
KEYS = st.sampled_from(["type", "template", "round", "role", "prompt", "A", "B", "path"]) | st.integers(-3, 3)
TEXT = st.text(st.sampled_from("ab {}}\n\\'\"é\u2028"), max_size=8)
ATOMS = st.one_of(TEXT.map(repr), st.integers(-(10**20), 10**20).map(repr), st.floats(allow_nan=False, allow_infinity=False).map(repr), st.sampled_from(["True", "False", "None"]))


def _expressions(names: list[str]) -> st.SearchStrategy[str]:
    leaves = ATOMS | st.sampled_from(names) if names else ATOMS
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
            st.lists(inner, max_size=3).map(lambda items: "(" + "".join(item + ", " for item in items) + ")"),
            st.lists(st.tuples(KEYS.map(repr), inner), max_size=3).map(lambda pairs: "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"),
            st.lists(st.tuples(st.sampled_from(["abbr", "type", "role", "prompt", "ice_token"]), inner), max_size=3, unique_by=lambda p: p[0]).map(
                lambda pairs: "dict(" + ", ".join(f"{k}={v}" for k, v in pairs) + ")"
            ),
        ),
        max_leaves=8,
    )


@st.composite
def plain_configs(draw: st.DrawFn) -> str:
    """The text of a plain config: assignments of literals and of names assigned before, ending with a datasets list."""
    lines, names = ['"""A config."""'], []
    for name in draw(st.lists(NAMES, max_size=4)):
        lines.append(f"{name} = {draw(_expressions(names))}")
        names.append(name)
    lines.append(f"datasets = [{draw(_expressions(names))}, dict(abbr='last')]")
    return "\n".join(lines) + "\n"


def _read_both(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    plain = reading.read_entries(path, "datasets")
    with monkeypatch.context() as patch:
        patch.setattr(reading, "plain_values", lambda text: None)  # what mmengine gives
        engine = reading.read_entries(path, "datasets")
    return repr(plain), repr(engine)


@settings(max_examples=60, deadline=None)
@given(text=plain_configs())
def test_plain_config_reads_as_mmengine_reads_it(tmp_path_factory: pytest.TempPathFactory, text: str):
    """A plain config's entries are mmengine's, value for value and type for type (lists, tuples, ints, floats)."""
    assume("{{" not in text)  # mmengine's substitutions: not plain
    path = tmp_path_factory.mktemp("plain") / "ds.py"
    path.write_text(text, encoding="utf-8")
    assert plain_values(text) is not None
    with pytest.MonkeyPatch.context() as monkeypatch:
        plain, engine = _read_both(path, monkeypatch)
    assert plain == engine


@pytest.mark.parametrize(
    "text",
    [
        "from promptkit import PromptTemplate\ndatasets = [dict(type=PromptTemplate)]\n",
        "_base_ = ['base.py']\ndatasets = []\n",
        "datasets = [dict(path='{{ fileDirname }}/data.jsonl')]\n",
        "x = 1 + 1\ndatasets = []\n",
        "datasets = [dict(**other)]\n",
        "dict = list\ndatasets = [dict()]\n",
        "datasets = [dict(abbr=undefined_name)]\n",
        "if True:\n    datasets = []\n",
        "datasets = [{[1]: 2}]\n",
        "a, b = 1, 2\ndatasets = []\n",
        "filename = 'x'\ndatasets = []\n",
    ],
    ids=["import", "_base_", "substitution", "operator", "unpacking", "dict shadowed", "undefined name", "statement", "unhashable key", "unpacked targets", "reserved key"],
)
def test_anything_but_plain_data_is_left_to_mmengine(text: str):
    """Imports, bases, {{ }} substitutions, operators, statements, keys mmengine treats specially: not plain."""
    assert plain_values(text) is None

