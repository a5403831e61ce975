"""The floor of ``promptkit render --as vllm|openai-batch``: hand-written loops that write the same engine lines.

    python3 benchmarks/engine_floor.py WORKLOAD FORMAT TRAIN.jsonl TEST.jsonl OUT.jsonl

Reads the same JSONL files and writes the same lines, byte for byte (bench_engines.py checks that), with the
workload's prompt spelled out as f-strings and the lines as dict literals: no config, no templates, no meta template,
one core.  WORKLOAD is the index into ENGINE_WORKLOADS (benchmarks/workloads.py); FORMAT is ``vllm`` or
``openai-batch``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

Row = dict[str, Any]
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode

MODEL = "bench-model"
SYSTEM = "Answer the following multiple choice questions."
USER = "<|start_header_id|>user<|end_header_id|>\n\n"
ASSISTANT = "<|start_header_id|>assistant<|end_header_id|>\n\n"
EOT = "<|eot_id|>"
SHOTS = [0, 1, 2, 3, 4]


def mcq(r: Row) -> str:
    return f"{r['question']}\nA. {r['A']}\nB. {r['B']}\nC. {r['C']}\nD. {r['D']}\nAnswer: "


def zero_shot(pool: list[Row]) -> Callable[[Row], str]:
    return lambda r: "Question: " + mcq(r)


def llama3_five_shot(pool: list[Row]) -> Callable[[Row], str]:
    prefix = f"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n{SYSTEM}{EOT}" + "".join(
        f"{USER}{mcq(pool[s])}{EOT}{ASSISTANT}{pool[s]['answer']}\n{EOT}" for s in SHOTS
    )
    return lambda r: f"{prefix}{USER}{mcq(r)}{EOT}{ASSISTANT}"


def chat_five_shot(pool: list[Row]) -> Callable[[Row], list[dict[str, str]]]:
    shots = [{"role": "system", "content": SYSTEM}]
    for s in SHOTS:
        shots += [{"role": "user", "content": mcq(pool[s])}, {"role": "assistant", "content": f"{pool[s]['answer']}\n"}]
    return lambda r: [*shots, {"role": "user", "content": mcq(r)}]


def completion_lines(prompt_of: Callable[[Row], str], fmt: str, bos: bool, rows: Iterator[Row]) -> Iterator[str]:
    """A completion string per row: vLLM's LLM.generate arguments, or an OpenAI Batch line to /v1/completions."""
    for i, r in enumerate(rows):
        prompt = prompt_of(r)
        if fmt == "vllm":
            line = {"custom_id": f"w/{i}", "model": MODEL, "prompts": prompt, "sampling_params": {}, "tokenization_kwargs": {"add_special_tokens": not bos}}
        else:
            line = {"custom_id": f"w/{i}", "method": "POST", "url": "/v1/completions", "body": {"model": MODEL, "prompt": prompt}}
        yield _ENCODE(line) + "\n"


def chat_lines(messages_of: Callable[[Row], list[dict[str, str]]], fmt: str, rows: Iterator[Row]) -> Iterator[str]:
    """Chat messages per row: vLLM's LLM.chat arguments, or an OpenAI Batch line to /v1/chat/completions."""
    for i, r in enumerate(rows):
        messages = messages_of(r)
        if fmt == "vllm":
            line = {"custom_id": f"w/{i}", "model": MODEL, "messages": messages, "sampling_params": {}}
        else:
            line = {"custom_id": f"w/{i}", "method": "POST", "url": "/v1/chat/completions", "body": {"model": MODEL, "messages": messages}}
        yield _ENCODE(line) + "\n"


def lines(workload: int, fmt: str, pool: list[Row], rows: Iterator[Row]) -> Iterator[str]:
    if workload == 0:
        return completion_lines(zero_shot(pool), fmt, False, rows)
    if workload in (1, 3):  # 5-shot Llama-3 meta template, short and long rows: the text starts with the BOS
        return completion_lines(llama3_five_shot(pool), fmt, True, rows)
    return chat_lines(chat_five_shot(pool), fmt, rows)


def main() -> None:
    workload, fmt, train, test, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    pool = [json.loads(line) for line in Path(train).read_text(encoding="utf-8").splitlines()]
    with open(test, encoding="utf-8") as source, open(out, "w", encoding="utf-8") as sink:
        write = sink.write
        for line in lines(workload, fmt, pool, map(json.loads, source)):
            write(line)


if __name__ == "__main__":
    main()
