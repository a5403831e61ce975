"""Render throughput of promptkit on realistic workloads, side by side with OpenCompass 0.5.4 when importable.

    python3 benchmarks/bench_render.py [--rows 5000] [--repeat 3]

Prints, per workload: prompts/second and peak traced memory for promptkit and,
if ``opencompass`` imports (see docs/compat.md for the scratch venv), for
OpenCompass's own prompt path on the same rows, and the throughput ratio.
Both are timed in this one process, best of ``--repeat`` runs (and of at least
a second of runs), from loaded rows
to final inputs: config objects built, shots picked and rendered, every prompt
through the model's meta template (reading the data files is not timed).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from workloads import WORKLOADS, Workload, write_data  # noqa: E402

from promptkit import Renderer, build_dataset, build_model  # noqa: E402
from promptkit.data.loaders import read_rows  # noqa: E402


def promptkit_runner(workload: Workload, paths: dict[str, str]) -> Callable[[], int]:
    """Rows are read once, untimed; each run compiles the config and renders every prompt."""
    rows = {split: read_rows(Path(path)) for split, path in paths.items()}

    def run() -> int:
        dataset = build_dataset(dict(abbr=workload.name, type="RowsDataset", rows=rows, reader_cfg=READER, infer_cfg=workload.infer_cfg))
        model = build_model(workload.model) if workload.model else None
        return sum(1 for _ in Renderer(dataset, model))

    return run


READER = dict(input_columns=["question", "A", "B", "C", "D"], output_column="answer")


def measure(run: Callable[[], int], repeat: int, min_seconds: float = 1.0) -> tuple[float, int, float]:
    """(prompts per second, prompts, peak MiB): the best of at least `repeat` runs and `min_seconds` of running
    (short runs are noisy); memory from one extra run under tracemalloc."""
    best = float("inf")
    count = 0
    runs = 0
    started = time.perf_counter()
    while runs < repeat or time.perf_counter() - started < min_seconds:
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
        runs += 1
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return count / best, count, peak / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000, help="test rows per workload (default 5000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per engine; the best counts (default 3)")
    args = parser.parse_args()
    try:
        import opencompass_side
    except ImportError as error:
        opencompass_side = None
        print(f"(OpenCompass not importable: {error}; showing promptkit only)\n")
    header = f"{'workload':32} {'prompts':>8} {'promptkit/s':>12} {'peak MiB':>9}"
    if opencompass_side:
        header += f" {'OpenCompass/s':>14} {'peak MiB':>9} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for i, workload in enumerate(WORKLOADS):
            paths = write_data(Path(tmp) / str(i), workload, args.rows)
            rate, count, peak = measure(promptkit_runner(workload, paths), args.repeat)
            line = f"{workload.name:32} {count:>8} {rate:>12,.0f} {peak:>9.1f}"
            if opencompass_side:
                oc_run = opencompass_side.runner(workload, paths, READER)
                oc_rate, oc_count, oc_peak = measure(oc_run, args.repeat)
                if oc_count != count:
                    raise SystemExit(f"{workload.name}: OpenCompass rendered {oc_count} prompts, promptkit {count}")
                line += f" {oc_rate:>14,.0f} {oc_peak:>9.1f} {rate / oc_rate:>6.1f}x"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
