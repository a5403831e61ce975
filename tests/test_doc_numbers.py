"""The counts the docs quote are the counts tools/doc_numbers.py measures (those it can measure without other projects)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).parents[1]
COMPAT = (ROOT / "docs" / "compat.md").read_text(encoding="utf-8")


def doc_numbers():
    spec = importlib.util.spec_from_file_location("doc_numbers", ROOT / "tools" / "doc_numbers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_parity_case_counts_in_compat_md_are_measured():
    """Each parity suite's case count, with its dataset and model configs, is written in docs/compat.md as measured."""
    for name, counted in doc_numbers().parity_cases():
        assert f"`{name}`" in COMPAT and f"({counted}" in COMPAT, (name, counted)


def test_loader_cases_and_native_classes_in_compat_md_are_measured():
    """The loader cases and the number of dataset classes read natively are the measured ones."""
    from promptkit.data.opencompass import OPENCOMPASS_DATASETS

    assert f"Each of the {doc_numbers().loader_cases()} cases of `tests/data/test_opencompass_loaders.py`" in COMPAT
    assert f"(and {len(OPENCOMPASS_DATASETS) - 1} other OpenCompass dataset class names)" in COMPAT
