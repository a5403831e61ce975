"""Request building for an lm-eval task: promptkit against lm-eval's own ``build_all_requests``, when lm-eval imports.

    python3 benchmarks/bench_lmeval.py [--docs 10000] [--repeat 3]
    /work/scratch/lmeval-venv/bin/python benchmarks/bench_lmeval.py   # side by side (tools/lmeval_reference/setup_venv.sh)

The workload is an MMLU-style task written here in lm-eval's style: multiple_choice, four choices, five shots taken
in order from a ``dev`` split (``first_n``), a Jinja ``doc_to_text`` and a description — ``--docs`` documents, so
four requests each.  promptkit is timed from the task file and the row files to every request (``Renderer`` over the
task: reading the rows, the shots, each document's context rendered once, one prompt per choice); lm-eval from its
loaded task to ``task.instances`` (``build_all_requests``: the rows already in memory as a ``datasets.Dataset``).
Best of ``--repeat`` runs for promptkit, one run for lm-eval (about a hundred times slower); prints requests/second
and the ratio.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))
os.environ.setdefault("TQDM_DISABLE", "1")  # lm-eval's progress bar

from promptkit import Renderer, load_datasets  # noqa: E402

TASK = """task: bench_mmlu
dataset_path: bench/mmlu
dataset_name: physics
test_split: test
fewshot_split: dev
fewshot_config:
  sampler: first_n
num_fewshot: 5
output_type: multiple_choice
description: "The following are multiple choice questions (with answers) about high school physics.\\n\\n"
doc_to_text: "{{question.strip()}}\\nA. {{choices[0]}}\\nB. {{choices[1]}}\\nC. {{choices[2]}}\\nD. {{choices[3]}}\\nAnswer:"
doc_to_choice: ["A", "B", "C", "D"]
doc_to_target: answer
metric_list:
  - metric: acc
"""


def rows(count: int, offset: int = 0) -> list[dict]:
    return [
        {
            "question": f"  Question {offset + i}: a ball of mass {i % 7 + 1} kg falls for {i % 5 + 1} s from rest. What is its speed?  ",
            "choices": [f"{(i % 5 + 1) * 10} m/s", f"{(i % 5 + 1) * 5} m/s", f"{i % 9} m/s", "none of these"],
            "answer": i % 4,
            "subject": "high_school_physics",
        }
        for i in range(count)
    ]


def best(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    times, count = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        count = run()
        times.append(time.perf_counter() - started)
    return min(times), count


def promptkit_run(folder: Path) -> Callable[[], int]:
    lines = [f"test={folder / 'test.jsonl'}", f"dev={folder / 'dev.jsonl'}"]

    def run() -> int:
        (spec,) = load_datasets(folder / "bench_mmlu.yaml", rows=lines)
        return sum(1 for _ in Renderer(spec))

    return run


def lm_eval_run(folder: Path, splits: dict[str, list[dict]]) -> Callable[[], int] | None:
    try:
        import datasets
        from lm_eval.tasks import TaskManager
    except ImportError:
        return None
    logging.getLogger("lm_eval").setLevel(logging.ERROR)
    loaded = datasets.DatasetDict({split: datasets.Dataset.from_list(split_rows) for split, split_rows in splits.items()})
    datasets.load_dataset = lambda *args, **kwargs: loaded
    task = TaskManager(include_path=str(folder), include_defaults=False).load(["bench_mmlu"])["tasks"]["bench_mmlu"]
    task.set_fewshot_seed(seed=1234)

    def run() -> int:
        task.build_all_requests()
        return len(task.instances)

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        splits = {"test": rows(args.docs), "dev": rows(5, offset=10**6)}
        (folder / "bench_mmlu.yaml").write_text(TASK, encoding="utf-8")
        for split, split_rows in splits.items():
            (folder / f"{split}.jsonl").write_text("".join(json.dumps(row) + "\n" for row in split_rows), encoding="utf-8")
        ours, requests = best(promptkit_run(folder), args.repeat)
        print(f"{args.docs:,} documents, 5-shot multiple_choice: {requests:,} requests")
        print(f"promptkit  {requests / ours:12,.0f} requests/s  ({ours:.2f} s)")
        theirs_run = lm_eval_run(folder, splits)
        if theirs_run is None:
            print("lm-eval    not importable (run with the scratch venv's python for the comparison)")
            return 0
        theirs, count = best(theirs_run, 1)
        if count != requests:
            print(f"lm-eval built {count:,} requests, promptkit {requests:,}: not the same workload", file=sys.stderr)
            return 1
        print(f"lm-eval    {count / theirs:12,.0f} requests/s  ({theirs:.2f} s)")
        print(f"ratio      {theirs / ours:12.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
