"""Rendering on Ray Data on a local instance: rows/s and peak memory of one run (promptkit.integrations.ray).

    python3 benchmarks/scale_ray.py [--rows 100000]

:func:`measure` runs one render in a fresh process: ``ray.init`` on this
machine's CPUs, the renderer built from the dataset config with ``rows_file``
as its rows (``load_datasets(..., rows=)``), ``render_dataset`` over
``rows_dataset``, every record line written to a file beside the rows, as a
runner would. Rows/s counts from building the renderer to the last line
written (loading, shots, rendering, writing; not Ray's start-up, reported
apart when run standalone). Peak memory is the largest sum of the resident
sets of the run's process tree (the driver, Ray's raylet and object store
processes, its workers), sampled every 0.1 s from /proc (Linux): the
memory the run holds, shared pages counted once per process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_PAGE_MIB = os.sysconf("SC_PAGE_SIZE") / 2**20
_WORDS = ["the", "of", "a", "model", "answer", "question", "energy", "cell", "river", "number", "light", "value", "system", "function", "market", "theory"]
_LLAMA3 = (
    "dict(begin='<|begin_of_text|>', round=[dict(role='HUMAN', begin='<|start_header_id|>user<|end_header_id|>\\n\\n', end='<|eot_id|>'), "
    "dict(role='BOT', begin='<|start_header_id|>assistant<|end_header_id|>\\n\\n', end='<|eot_id|>', generate=True)])"
)
_MCQ = "{question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: "
#: name -> (infer_cfg source, model config source or None): the workloads bench_scale.py renders.
WORKLOADS = {
    "zero-shot": (
        f"dict(prompt_template=dict(type='PromptTemplate', template='{_MCQ}{{answer}}'), retriever=dict(type='ZeroRetriever'), "
        "inferencer=dict(type='GenInferencer'))",
        None,
    ),
    "5-shot FixK, Llama-3": (
        f"dict(ice_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{_MCQ}'), dict(role='BOT', prompt='{{answer}}\\n')])), "
        f"prompt_template=dict(type='PromptTemplate', template=dict(begin='</E>', round=[dict(role='HUMAN', prompt='{_MCQ}')]), ice_token='</E>'), "
        "retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2, 3, 4]), inferencer=dict(type='GenInferencer'))",
        f"models = [dict(abbr='llama3', type='CompletionModel', meta_template={_LLAMA3})]\n",
    ),
}


def measure(rows_file: str | Path, dataset_config: str | Path, model_config: str | Path | None) -> tuple[float, float]:
    """(rows per second, peak RSS MiB) of rendering ``rows_file`` with the configs on a fresh local Ray instance."""
    argv = [sys.executable, __file__, "--run", str(rows_file), str(dataset_config), str(model_config or "")]
    result, peak = _run_sampled(argv)
    return result["rows"] / result["seconds"], peak


def _run_sampled(argv: list[str]) -> tuple[dict[str, float], float]:
    """The JSON the run prints last, and the peak summed RSS (MiB) of its process tree."""
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, _tree_rss(process.pid))
        time.sleep(0.1)
    out, err = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"run failed ({' '.join(argv)}):\n{err}")
    return json.loads(out.splitlines()[-1]), peak


def _tree_rss(root: int) -> float:
    """Summed resident set (MiB) of ``root`` and its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[1]) * _PAGE_MIB
        except OSError:
            continue
        stack.extend(children.get(pid, ()))
    return total


def _render(rows_file: str, dataset_config: str, model_config: str) -> None:
    """The measured run (in its own process): prints {"rows", "seconds", "startup"} as its last line."""
    import logging

    import ray

    from promptkit import Renderer, load_datasets, load_models
    from promptkit.integrations.ray import render_dataset, rows_dataset

    start = time.perf_counter()
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    ray.data.DataContext.get_current().enable_progress_bars = False
    started = time.perf_counter()
    [dataset] = load_datasets(dataset_config, rows=rows_file)
    model = load_models(model_config)[0] if model_config else None
    renderer = Renderer(dataset, model)
    out = Path(rows_file).with_name("ray_out.jsonl")
    with out.open("w", encoding="utf-8") as handle:
        for row in render_dataset(rows_dataset(renderer), renderer).iter_rows():
            handle.write(row["record"] + "\n")
    seconds = time.perf_counter() - started
    print(json.dumps({"rows": len(renderer), "seconds": seconds, "startup": started - start}))
    ray.shutdown()


def write_rows(path: Path, count: int, seed: int = 0) -> None:
    """``count`` MMLU-like rows of about 200 characters each."""
    rng = random.Random(seed)
    phrases = [" ".join(rng.choice(_WORDS) for _ in range(32)) for _ in range(997)]
    with path.open("w") as handle:
        for i in range(count):
            row = dict(question=f"{i}: {phrases[i % 997]}?", A=_WORDS[i % 16], B=_WORDS[(i + 3) % 16], C=_WORDS[(i + 5) % 16], D=_WORDS[(i + 7) % 16], answer="ABCD"[i % 4])
            handle.write(json.dumps(row) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--run", nargs=3, metavar=("ROWS_FILE", "DATASET_CONFIG", "MODEL_CONFIG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        _render(*args.run)
        return
    with tempfile.TemporaryDirectory(prefix="scale_ray_") as folder:
        root = Path(folder)
        data = root / "rows.jsonl"
        write_rows(data, args.rows)
        print(f"{'workload':24} {'rows':>9} {'rows/s':>9} {'peak':>9}")
        for name, (infer_cfg, model_cfg) in WORKLOADS.items():
            config = root / "dataset.py"
            config.write_text(
                f"datasets = [dict(abbr='scale', type='JsonlDataset', path={str(data)!r}, "
                f"reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'), infer_cfg={infer_cfg})]\n"
            )
            model = None
            if model_cfg:
                model = root / "model.py"
                model.write_text(model_cfg)
            rate, peak = measure(data, config, model)
            print(f"{name:24} {args.rows:>9,} {rate:>9,.0f} {peak:>5,.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
