"""``promptkit render --as vllm|openai-batch`` against a hand-written loop writing the same lines; start-up time.

    python3 benchmarks/bench_engines.py [--rows 100000] [--repeat 3]

Whole processes, per workload (benchmarks/workloads.py ``ENGINE_WORKLOADS``) and format: ``promptkit render CONFIG
--model MODEL --as FORMAT --out FILE`` and benchmarks/engine_floor.py (the same JSONL in, the same lines out,
checked byte for byte), run ``--repeat`` times each, interleaved; the table shows the median CPU seconds (user +
sys) and wall seconds of each, and promptkit's as a multiple of the floor's.  Then start-up: ``promptkit --help``
and ``import promptkit`` against a bare interpreter, median CPU seconds of 9 runs each.  promptkit's modules are
byte-compiled first, as installing the package does.
"""

from __future__ import annotations

import argparse
import compileall
import filecmp
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from workloads import ENGINE_WORKLOADS, write_data  # noqa: E402

import promptkit  # noqa: E402

HERE = Path(__file__).parent
READER = dict(input_columns=["question", "A", "B", "C", "D"], output_column="answer")


def timed(command: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def engines_table(rows: int, repeat: int) -> None:
    header = f"{'workload':30} {'format':>12} {'rows':>8} {'floor CPU s':>11} {'promptkit CPU s':>15} {'ratio':>6} {'floor wall':>10} {'pk wall':>8} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for i, workload in enumerate(ENGINE_WORKLOADS):
            folder = Path(tmp) / str(i)
            paths = write_data(folder, workload, rows)
            dataset = dict(abbr="w", type="JsonlDataset", path=paths, reader_cfg=READER, infer_cfg=workload.infer_cfg)
            (folder / "dataset.py").write_text(f"datasets = [{dataset!r}]\n", encoding="utf-8")
            (folder / "model.py").write_text(f"models = [{workload.model!r}]\n", encoding="utf-8")
            for fmt in ("vllm", "openai-batch"):
                mine = [sys.executable, "-m", "promptkit", "render", str(folder / "dataset.py"), "--model", str(folder / "model.py"), "--as", fmt, "--out", str(folder / "promptkit.jsonl")]
                floor = [sys.executable, str(HERE / "engine_floor.py"), str(i), fmt, paths["train"], paths["test"], str(folder / "floor.jsonl")]
                runs: dict[str, list[tuple[float, float]]] = {"promptkit": [], "floor": []}
                for _ in range(repeat):  # interleaved: a change in the machine's load hits both alike
                    runs["floor"].append(timed(floor))
                    runs["promptkit"].append(timed(mine))
                if not filecmp.cmp(folder / "promptkit.jsonl", folder / "floor.jsonl", shallow=False):
                    raise SystemExit(f"{workload.name} --as {fmt}: the floor's lines differ from promptkit's; fix benchmarks/engine_floor.py")
                f_cpu, f_wall = (statistics.median(run[k] for run in runs["floor"]) for k in (0, 1))
                p_cpu, p_wall = (statistics.median(run[k] for run in runs["promptkit"]) for k in (0, 1))
                print(
                    f"{workload.name:30} {fmt:>12} {rows:>8} {f_cpu:>11.2f} {p_cpu:>15.2f} {p_cpu / f_cpu:>5.2f}x {f_wall:>10.2f} {p_wall:>8.2f} {p_wall / f_wall:>5.2f}x",
                    flush=True,
                )


def startup_table(repeat: int = 9) -> None:
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import promptkit'": [sys.executable, "-c", "import promptkit"],
        "promptkit --help": [sys.executable, "-m", "promptkit", "--help"],
    }
    cpu = {}
    for _ in range(repeat):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.setdefault(name, []).append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    bare = statistics.median(cpu["python -c pass"])
    print(f"\n{'start-up':32} {'CPU s (median of ' + str(repeat) + ')':>22} {'over bare':>10}")
    for name, runs in cpu.items():
        print(f"{name:32} {statistics.median(runs):>22.3f} {statistics.median(runs) - bare:>10.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000, help="test rows per workload (default 100000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each process, interleaved; the median counts (default 3)")
    parser.add_argument("--startup-only", action="store_true", help="only the start-up table")
    args = parser.parse_args()
    compileall.compile_dir(Path(promptkit.__file__).parent, quiet=1)
    if not args.startup_only:
        engines_table(args.rows, args.repeat)
    startup_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
