"""Render throughput of promptkit on realistic workloads, side by side with OpenCompass 0.5.4 when importable.

    python3 benchmarks/bench_render.py [--rows 5000] [--repeat 3]
    python3 benchmarks/bench_render.py --floor [--rows 100000] [--repeat 3]

Prints, per workload: prompts/second and peak traced memory for promptkit and,
if ``opencompass`` imports (see docs/compat.md for the scratch venv), for
OpenCompass's own prompt path on the same rows, and the throughput ratio.
Both are timed in this one process, best of ``--repeat`` runs (and of at least
a second of runs), from loaded rows
to final inputs: config objects built, shots picked and rendered, every prompt
through the model's meta template (reading the data files is not timed).

``--floor`` times whole processes instead: ``promptkit render CONFIG --model
MODEL --out FILE`` against the workload's hand-written floor (benchmarks/floor.py:
the same JSONL in, the same JSONL out, checked byte for byte, the template
spelled out as f-strings), and prints promptkit's CPU time as a multiple of the floor's.
promptkit's modules are byte-compiled first, as installing the package does
(under ``PYTHONDONTWRITEBYTECODE`` every run would compile them again).
"""

from __future__ import annotations

import argparse
import compileall
import filecmp
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from workloads import WORKLOADS, Workload, write_data  # noqa: E402

import promptkit  # noqa: E402
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


def _best_cpu_time(command: list[str], repeat: int) -> float:
    """The least CPU time (user + sys) of ``repeat`` runs of ``command``: steadier than wall time on a shared machine."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def floor_table(rows: int, repeat: int) -> int:
    """Whole-process `promptkit render` against the hand-written floor, per workload: CPU seconds, best of `repeat`."""
    here = Path(__file__).parent
    compileall.compile_dir(Path(promptkit.__file__).parent, quiet=1)
    header = f"{'workload':32} {'rows':>8} {'records':>8} {'floor s':>8} {'promptkit s':>12} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for i, workload in enumerate(WORKLOADS):
            folder = Path(tmp) / str(i)
            paths = write_data(folder, workload, rows)
            dataset = dict(abbr="w", type="JsonlDataset", path=paths, reader_cfg=READER, infer_cfg=workload.infer_cfg)
            (folder / "dataset.py").write_text(f"datasets = [{dataset!r}]\n", encoding="utf-8")
            command = [sys.executable, "-m", "promptkit", "render", str(folder / "dataset.py"), "--out", str(folder / "promptkit.jsonl")]
            if workload.model:
                (folder / "model.py").write_text(f"models = [{workload.model!r}]\n", encoding="utf-8")
                command += ["--model", str(folder / "model.py")]
            floor_command = [sys.executable, str(here / "floor.py"), str(i), paths["train"], paths["test"], str(folder / "floor.jsonl")]
            promptkit_s = _best_cpu_time(command, repeat)
            floor_s = _best_cpu_time(floor_command, repeat)
            if not filecmp.cmp(folder / "promptkit.jsonl", folder / "floor.jsonl", shallow=False):
                raise SystemExit(f"{workload.name}: the floor's records differ from promptkit's; fix benchmarks/floor.py")
            with open(folder / "floor.jsonl", "rb") as file:
                records = sum(1 for _ in file)
            print(f"{workload.name:32} {rows:>8} {records:>8} {floor_s:>8.2f} {promptkit_s:>12.2f} {promptkit_s / floor_s:>5.2f}x", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="test rows per workload (default 5000; 100000 with --floor)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per engine; the best counts (default 3)")
    parser.add_argument("--floor", action="store_true", help="whole processes: promptkit render against the hand-written floor")
    args = parser.parse_args()
    if args.floor:
        return floor_table(args.rows or 100_000, args.repeat)
    args.rows = args.rows or 5000
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
