"""The practical floor of each benchmark workload: hand-written code that knows the template in advance.

    python3 benchmarks/floor.py WORKLOAD_NUMBER TRAIN.jsonl TEST.jsonl OUT.jsonl

Reads the same JSONL files ``promptkit render`` reads and writes the same
records, byte for byte (bench_render.py checks that), with the workload's
prompt spelled out as f-strings: no config, no templates, no meta template,
one core.  What promptkit costs beyond this is the price of being general.

The records' hashes (promptkit.records.fingerprints) are computed here too: the
template and meta-template hashes once, from the workload's config dicts
(benchmarks/workloads.py), the row and final-input hashes per record.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from workloads import WORKLOADS  # noqa: E402

Row = dict[str, Any]
_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def canonical(value: Any) -> bytes:
    return _ENCODE(value).encode()


def source(template: dict[str, Any] | None) -> dict[str, Any] | None:
    if template is None:
        return None
    return {"type": template["type"], "template": template["template"], "ice_token": template.get("ice_token"), "sep_token": template.get("sep_token")}


def meta(cfg: dict[str, Any] | None, chat: bool = False) -> str | None:
    """The meta template's hash: its roles with every field filled in, as promptkit's MetaTemplate holds them (a chat
    model's with a reserved TOOL role added, which carries tool results)."""
    if cfg is None:
        return None
    if chat and all(r["role"] != "TOOL" for r in [*cfg["round"], *cfg.get("reserved_roles", [])]):
        cfg = {**cfg, "reserved_roles": [*cfg.get("reserved_roles", []), {"role": "TOOL", "api_role": "TOOL"}]}

    def role(r: dict[str, Any]) -> dict[str, Any]:
        return {"role": r["role"], "begin": r.get("begin", ""), "end": r.get("end", ""), "prompt": r.get("prompt"), "generate": r.get("generate", False), "api_role": r.get("api_role")}

    return sha(canonical({"round": [role(r) for r in cfg["round"]], "reserved": [role(r) for r in cfg.get("reserved_roles", [])], "begin": cfg.get("begin", ""), "end": cfg.get("end", "")}))


def provenance(workload: int) -> dict[str, Any]:
    """The hashes every record of a workload shares (``shots`` and ``row`` are filled in per record)."""
    infer = WORKLOADS[workload].infer_cfg
    model = WORKLOADS[workload].model
    prompt = infer.get("prompt_template") or infer["ice_template"]
    template = sha(canonical({"prompt_template": source(prompt), "ice_template": source(infer.get("ice_template"))}))
    return {"template": template, "meta_template": meta(model["meta_template"], model["type"] == "OpenAISDK") if model else None, "chat_template": None, "tokenizer": None}


NO_SHOTS = sha(b"[]")
FIVE_SHOTS = sha(b"[0,1,2,3,4]")
COMPLETION = {"model": None, "add_special_tokens": True}
WITH_BOS = {"model": None, "add_special_tokens": False}
CHAT = {"model": None}

SYSTEM = "Answer the following multiple choice questions."
USER = "<|start_header_id|>user<|end_header_id|>\n\n"
ASSISTANT = "<|start_header_id|>assistant<|end_header_id|>\n\n"
EOT = "<|eot_id|>"
SHOTS = [0, 1, 2, 3, 4]


def mcq(r: Row) -> str:
    return f"{r['question']}\nA. {r['A']}\nB. {r['B']}\nC. {r['C']}\nD. {r['D']}\nAnswer: "


def zero_shot(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    static = provenance(0)
    for i, r in enumerate(rows):
        prompt = "Question: " + mcq(r)
        yield {
            "dataset": "w", "model": None, "index": i, "mode": "gen", "prompt": prompt, "ice_idx": [], "n_shots": 0, "truncated": False,
            "id": f"w/{i}", "gold": r["answer"], "request": COMPLETION, "fingerprint": sha(prompt.encode()),
            "provenance": {**static, "shots": NO_SHOTS, "row": sha(canonical(r))},
        }


def llama3_five_shot(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    static = provenance(1)
    prefix = f"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n{SYSTEM}{EOT}" + "".join(
        f"{USER}{mcq(pool[s])}{EOT}{ASSISTANT}{pool[s]['answer']}\n{EOT}" for s in SHOTS
    )
    for i, r in enumerate(rows):
        prompt = f"{prefix}{USER}{mcq(r)}{EOT}{ASSISTANT}"
        yield {
            "dataset": "w", "model": "llama3", "index": i, "mode": "gen", "prompt": prompt, "ice_idx": SHOTS, "n_shots": 5, "truncated": False,
            "id": f"w/{i}", "gold": r["answer"], "request": WITH_BOS, "fingerprint": sha(prompt.encode()),
            "provenance": {**static, "shots": FIVE_SHOTS, "row": sha(canonical(r))},
        }


def ppl_four_labels(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    static = provenance(2)
    shots = "\n".join(f"{mcq(pool[s])}{pool[s]['answer']}\n" for s in SHOTS) + "\n"
    for i, r in enumerate(rows):
        question = shots + mcq(r)
        row = {**static, "shots": FIVE_SHOTS, "row": sha(canonical(r))}
        for label in "ABCD":
            prompt = question + label
            yield {
                "dataset": "w", "model": None, "index": i, "mode": "ppl", "prompt": prompt,
                "ice_idx": SHOTS, "n_shots": 5, "truncated": False, "label": label,
                "id": f"w/{i}/{label}", "gold": r["answer"], "request": COMPLETION, "fingerprint": sha(prompt.encode()), "provenance": row,
            }


def chat_five_shot(pool: list[Row], rows: Iterator[Row]) -> Iterator[Row]:
    shots: list[dict[str, str]] = [{"role": "system", "content": SYSTEM}]
    for s in SHOTS:
        shots += [{"role": "user", "content": mcq(pool[s])}, {"role": "assistant", "content": pool[s]["answer"] + "\n"}]
    static = provenance(3)
    for i, r in enumerate(rows):
        messages = [*shots, {"role": "user", "content": mcq(r)}]
        yield {
            "dataset": "w", "model": "api", "index": i, "mode": "gen", "prompt": messages, "ice_idx": SHOTS, "n_shots": 5, "truncated": False,
            "id": f"w/{i}", "gold": r["answer"], "request": CHAT, "fingerprint": sha(canonical(messages)),
            "provenance": {**static, "shots": FIVE_SHOTS, "row": sha(canonical(r))},
        }


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
