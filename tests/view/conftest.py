"""Configs the view tests render: a 5-shot PPL config (written here), evil and invisible row text, and the bundled demos."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
ARC = ROOT / "configs" / "datasets" / "arc_demo" / "data"
MODELS = ROOT / "configs" / "models"

#: ARC-style questions scored by likelihood, with 5 fixed shots: chat-dict label templates, so each shot has its own span.
FIVE_SHOT_PPL = f"""
from promptkit import FixKRetriever, JsonlDataset, PPLInferencer, PromptTemplate
datasets = [dict(
    abbr='science_5shot_ppl', type=JsonlDataset, path=dict(dev={str(ARC / "dev.jsonl")!r}, test={str(ARC / "test.jsonl")!r}),
    reader_cfg=dict(input_columns=['question', 'textA', 'textB', 'textC', 'textD'], output_column='answerKey',
                    train_split='dev', test_split='test'),
    infer_cfg=dict(
        ice_template=dict(type=PromptTemplate, ice_token='</E>', template={{
            label: dict(begin='</E>', round=[dict(role='HUMAN', prompt='Question: {{question}}'),
                                             dict(role='BOT', prompt=f'Answer: {{{{text{{label}}}}}}')])
            for label in ['A', 'B', 'C', 'D']}}),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2, 3, 4]),
        inferencer=dict(type=PPLInferencer)),
)]
"""

#: Row text that would be markup if the page ever used it as HTML.
EVIL = "</script><img src=x onerror=\"window.__pwned=1\"><b>bold</b>"


@pytest.fixture
def five_shot_ppl(tmp_path: Path) -> Path:
    path = tmp_path / "science_5shot_ppl.py"
    path.write_text(FIVE_SHOT_PPL, encoding="utf-8")
    return path

#: Row text whose whitespace and zero-width characters a person cannot see unless they are marked (test row 2 of evil.py).
INVISIBLE = "tab\there, two trailing spaces  \nzero\u200bwidth"


@pytest.fixture
def evil_text() -> str:
    return EVIL


@pytest.fixture
def evil_config(tmp_path: Path) -> Path:
    rows = [{"question": "What is 2+2?", "answer": "4"}, {"question": EVIL, "answer": EVIL}, {"question": INVISIBLE, "answer": "x"}]
    (tmp_path / "evil.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    path = tmp_path / "evil.py"
    path.write_text(
        "datasets = [dict(abbr='evil', type='JsonlDataset', path='evil.jsonl',\n"
        "    reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='')])),\n"
        "                   retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')))]\n",
        encoding="utf-8",
    )
    return path
