"""Helpers for the format tests: write records to a JSONL file, build a format dataset, render it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from promptkit import Renderer, build_dataset, load_models


def _write(path: Path, records: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """``write_jsonl(records, name='records.jsonl')`` → the path of a JSONL file in tmp_path (strings are written as lines)."""
    return lambda records, name="records.jsonl": _write(tmp_path / name, records)


@pytest.fixture
def render_records(tmp_path: Path):
    """``render_records(type_name, records, model_config=None, **dataset_cfg)`` → Renderer over the records."""

    def make(type_name: str, records: list[Any], model_config: Path | None = None, **cfg: Any) -> Renderer:
        path = _write(tmp_path / "rendered.jsonl", records)
        dataset = build_dataset(dict(abbr="t", type=type_name, path=str(path), **cfg))
        model = load_models(model_config)[0] if model_config is not None else None
        return Renderer(dataset, model)

    return make
