"""Loading and validating the dataset formats: records/second for 100,000 records of each format.

    python3 benchmarks/bench_formats.py [--records 100000] [--repeat 3]

Per format, on generated records (few-shot examples, options, multi-turn
history where the format has them): ``validate`` is ``validate_file`` (read,
parse and check every line, pydantic's compiled validators, rules across
records); ``load`` adds building the rows and the shared few-shot split, what
a dataset config's loader does; ``load+render`` also renders every row for the
Llama-3 meta template with the format's default templates.  Best of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from promptkit import Renderer, build_dataset, load_models, validate_file

ROOT = Path(__file__).parents[1]
WORDS = ["the", "of", "a", "to", "in", "is", "that", "for", "on", "with", "as", "by", "at", "from", "model", "answer", "question", "river", "number", "city", "planet"]


def sentence(rng: random.Random, n: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "?"


def text(role: str, value: str) -> dict[str, Any]:
    return {"role": role, "content": [{"type": "text", "text": value}]}


def standard_record(i: int, rng: random.Random) -> dict[str, Any]:
    record: dict[str, Any] = {"schema_version": "v1", "id": f"s{i}", "messages": [text("user", sentence(rng))], "references": ["B"], "label": "B"}
    if i % 2:
        record["task_type"] = "multiple-choice"
        record["options"] = [{"id": key, "content": sentence(rng, 4)} for key in "ABCD"]
        record["unconditioned_input"] = "Answer with the letter only."
    else:
        record["messages"] = [text("system", "Be brief."), text("user", sentence(rng)), text("assistant", sentence(rng)), text("user", sentence(rng))]
    shared = i % 50  # shots recur across records, as in real files
    record["few_shot_examples"] = [{"messages": [text("user", f"Example {shared}.{k}?")], "references": [str(k)]} for k in range(3)]
    return record


def taskspec_record(i: int, rng: random.Random) -> dict[str, Any]:
    shared = i % 50
    return {
        "task_id": f"t{i}",
        "category": "summary",
        "prompt": sentence(rng, 30).rstrip("?") + ".\nSummary:",
        "targets": [sentence(rng, 6)],
        "metric_name": "rouge_l",
        "post_process": "extract_first_line",
        "few_shot_examples": [{"prompt": f"Example {shared}.{k}\nSummary:", "completion": f"Short {k}."} for k in range(3)],
        "metadata": {"difficulty": "easy"},
    }


def xpert_record(i: int, rng: random.Random) -> dict[str, Any]:
    record: dict[str, Any] = {"id": f"x{i}", "query": sentence(rng), "response": "A", "meta": {"task_type": "choice", "tags": ["demo"]}}
    if i % 2:
        record["choices"] = [{"id": key, "content": sentence(rng, 4)} for key in "ABCD"]
        record["answer"] = {"type": "choice", "value": "A"}
    else:
        record["history"] = [{"role": "human", "content": sentence(rng)}, {"role": "assistant", "content": sentence(rng)}]
        record["meta"] = {"task_type": "multi"}
    return record


FORMATS: dict[str, tuple[str, Callable[[int, random.Random], dict[str, Any]]]] = {
    "standard": ("StandardSampleDataset", standard_record),
    "taskspec": ("TaskSpecDataset", taskspec_record),
    "xpert": ("XpertFormatDataset", xpert_record),
}


def best_of(run: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000, help="records per format (default 100000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts (default 3)")
    args = parser.parse_args()
    [llama3] = load_models(ROOT / "configs" / "models" / "llama3_8b_instruct.py")
    header = f"{'format':10} {'records':>8} {'MiB':>6} {'validate rec/s':>15} {'load rec/s':>11} {'load+render rec/s':>18}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as folder:
        for name, (type_name, make) in FORMATS.items():
            rng = random.Random(0)
            path = Path(folder) / f"{name}.jsonl"
            with path.open("w", encoding="utf-8") as handle:
                for i in range(args.records):
                    handle.write(json.dumps(make(i, rng), ensure_ascii=False) + "\n")
            assert validate_file(path, name).ok

            def load(type_name: str = type_name, path: Path = path, name: str = name) -> Renderer:
                renderer = Renderer(build_dataset(dict(abbr=name, type=type_name, path=str(path))), llama3)
                len(renderer)  # loads the file
                return renderer

            def load_and_render(load: Callable[[], Renderer] = load) -> int:
                return sum(1 for _ in load())

            validate_s = best_of(lambda path=path, name=name: validate_file(path, name), args.repeat)
            load_s = best_of(load, args.repeat)
            render_s = best_of(load_and_render, args.repeat)
            size = path.stat().st_size / 2**20
            n = args.records
            print(f"{name:10} {n:>8,} {size:>6.1f} {n / validate_s:>15,.0f} {n / load_s:>11,.0f} {n / render_s:>18,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
