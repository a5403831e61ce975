"""The practical floor of each benchmark workload: hand-written code that knows the template in advance.

    python3 benchmarks/floor.py WORKLOAD_NUMBER TRAIN.jsonl TEST.jsonl OUT.jsonl

Reads the same JSONL files ``promptkit render`` reads and writes the same
records, byte for byte (bench_render.py checks that), with the workload's
prompt spelled out as f-strings: no config, no templates, no meta template,
one core.  What promptkit costs beyond this is the price of being general.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

Row = dict[str, Any]

SYSTEM = "Answer the following multiple choice questions."
USER = "<|start_header_id|>user<|end_header_id|>\n\n"
ASSISTANT = "<|start_header_id|>assistant<|end_header_id|>\n\n"
EOT = "<|eot_id|>"
SHOTS = [0, 1, 2, 3, 4]


def mcq(r: Row) -> str:
    return f"{r['question']}\nA. {r['A']}\nB. {r['B']}\nC. {r['C']}\nD. {r['D']}\nAnswer: "


def zero_shot(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    for i, r in enumerate(rows):
        yield {"dataset": "w", "model": None, "index": i, "mode": "gen", "prompt": "Question: " + mcq(r), "ice_idx": [], "n_shots": 0, "truncated": False}


def llama3_five_shot(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    prefix = f"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n{SYSTEM}{EOT}" + "".join(
        f"{USER}{mcq(pool[s])}{EOT}{ASSISTANT}{pool[s]['answer']}\n{EOT}" for s in SHOTS
    )
    for i, r in enumerate(rows):
        prompt = f"{prefix}{USER}{mcq(r)}{EOT}{ASSISTANT}"
        yield {"dataset": "w", "model": "llama3", "index": i, "mode": "gen", "prompt": prompt, "ice_idx": SHOTS, "n_shots": 5, "truncated": False}


def ppl_four_labels(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    shots = "\n".join(f"{mcq(pool[s])}{pool[s]['answer']}\n" for s in SHOTS) + "\n"
    for i, r in enumerate(rows):
        question = shots + mcq(r)
        for label in "ABCD":
            yield {
                "dataset": "w", "model": None, "index": i, "mode": "ppl", "prompt": question + label,
                "ice_idx": SHOTS, "n_shots": 5, "truncated": False, "label": label,
            }


def chat_five_shot(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    shots: list[dict[str, str]] = [{"role": "system", "content": SYSTEM}]
    for s in SHOTS:
        shots += [{"role": "user", "content": mcq(pool[s])}, {"role": "assistant", "content": pool[s]["answer"] + "\n"}]
    for i, r in enumerate(rows):
        messages = [*shots, {"role": "user", "content": mcq(r)}]
        yield {"dataset": "w", "model": "api", "index": i, "mode": "gen", "prompt": messages, "ice_idx": SHOTS, "n_shots": 5, "truncated": False}


#: The floor of each workload in benchmarks/workloads.py, by position.
FLOORS: list[Callable[[list[Row], Iterator[Row]], Iterator[Row]]] = [zero_shot, llama3_five_shot, ppl_four_labels, chat_five_shot, llama3_five_shot]


def main() -> int:
    number, train, test, out = sys.argv[1:5]
    with open(train, encoding="utf-8") as file:
        pool = [json.loads(line) for line in file]
    with open(test, encoding="utf-8") as rows, open(out, "w", encoding="utf-8") as sink:
        write = sink.write
        for record in FLOORS[int(number)](pool, (json.loads(line) for line in rows)):
            write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
