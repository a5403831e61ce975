"""The benchmark workloads: realistic configs over synthetic rows, as plain dicts both engines can read."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LLAMA3 = dict(
    begin="<|begin_of_text|>",
    round=[
        dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
        dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
    ],
    reserved_roles=[dict(role="SYSTEM", begin="<|start_header_id|>system<|end_header_id|>\n\n", end="<|eot_id|>")],
)
API = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
    reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
)
MCQ = "{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: "
CHAT_ICE = dict(round=[dict(role="HUMAN", prompt=MCQ), dict(role="BOT", prompt="{answer}\n")])
CHAT_PROMPT = dict(
    begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Answer the following multiple choice questions."), "</E>"],
    round=[dict(role="HUMAN", prompt=MCQ)],
)


@dataclass(frozen=True)
class Workload:
    name: str
    infer_cfg: dict[str, Any]
    model: dict[str, Any] | None  # a model config dict; None = completion model without meta template
    row_chars: int  # approximate length of a row's question


def _gen(ice, prompt, fix, extra=None):
    cfg = dict(prompt_template=dict(type="PromptTemplate", template=prompt, ice_token="</E>" if fix else None),
               retriever=dict(type="FixKRetriever", fix_id_list=list(range(fix))) if fix else dict(type="ZeroRetriever"),
               inferencer=dict(type="GenInferencer"))
    if ice is not None:
        cfg["ice_template"] = dict(type="PromptTemplate", template=ice)
    if not fix:
        cfg["prompt_template"].pop("ice_token")
    cfg.update(extra or {})
    return cfg


WORKLOADS = [
    Workload("zero-shot string", _gen(None, "Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: {answer}", 0), None, 200),
    Workload("5-shot chat, Llama-3 meta", _gen(CHAT_ICE, CHAT_PROMPT, 5), dict(abbr="llama3", type="CompletionModel", meta_template=LLAMA3), 200),
    Workload(
        "4-label ppl, 5 shots",
        dict(
            ice_template=dict(type="PromptTemplate", template={k: MCQ + k + "\n" for k in "ABCD"}),
            prompt_template=dict(type="PromptTemplate", template={k: "</E>" + MCQ + k for k in "ABCD"}, ice_token="</E>"),
            retriever=dict(type="FixKRetriever", fix_id_list=[0, 1, 2, 3, 4]),
            inferencer=dict(type="PPLInferencer"),
        ),
        None,
        200,
    ),
    Workload("5-shot chat, chat model", _gen(CHAT_ICE, CHAT_PROMPT, 5), dict(abbr="api", type="OpenAISDK", meta_template=API), 200),
    Workload("5-shot chat, 2,000-char rows", _gen(CHAT_ICE, CHAT_PROMPT, 5), dict(abbr="llama3", type="CompletionModel", meta_template=LLAMA3), 2000),
]

#: The workloads of ``promptkit render --as vllm|openai-batch`` (benchmarks/bench_engines.py): the generation
#: workloads above, each model given an engine-facing name (``path``); a ppl workload has no engine line.
ENGINE_WORKLOADS = [
    Workload("zero-shot string", WORKLOADS[0].infer_cfg, dict(abbr="base", type="CompletionModel", path="bench-model"), 200),
    Workload("5-shot chat, Llama-3 meta", WORKLOADS[1].infer_cfg, dict(WORKLOADS[1].model, path="bench-model"), 200),
    Workload("5-shot chat, chat model", WORKLOADS[3].infer_cfg, dict(WORKLOADS[3].model, path="bench-model"), 200),
    Workload("5-shot chat, 2,000-char rows", WORKLOADS[4].infer_cfg, dict(WORKLOADS[4].model, path="bench-model"), 2000),
]

_WORDS = ["the", "of", "a", "model", "answer", "question", "energy", "cell", "river", "number", "light", "value", "system", "function", "market", "theory"]


def make_rows(count: int, row_chars: int, seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        words = []
        while sum(len(w) + 1 for w in words) < row_chars:
            words.append(rng.choice(_WORDS))
        rows.append(
            dict(
                question=f"{i}: " + " ".join(words) + "?",
                A=rng.choice(_WORDS), B=rng.choice(_WORDS), C=rng.choice(_WORDS), D=rng.choice(_WORDS),
                answer=rng.choice("ABCD"),
            )
        )
    return rows


def write_data(folder: Path, workload: Workload, rows: int) -> dict[str, str]:
    """Train (pool) and test JSONL files for a workload; returns the `path=` dict."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for split, count, seed in (("train", 20, 1), ("test", rows, 2)):
        path = folder / f"{split}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in make_rows(count, workload.row_chars, seed)))
        paths[split] = str(path)
    return paths
