"""``promptkit render --as vllm|openai-batch`` against a hand-written loop writing the same lines; start-up time.

    python3 benchmarks/bench_engines.py [--rows 100000] [--repeat 3]

Whole processes, per workload (benchmarks/workloads.py ``ENGINE_WORKLOADS``) and format: ``promptkit render CONFIG
--model MODEL --as FORMAT --out FILE`` and benchmarks/engine_floor.py (the same JSONL in, the same lines out,
checked byte for byte), run ``--repeat`` times each, interleaved; the table shows the median CPU seconds (user +
sys) and wall seconds of each, and promptkit's as a multiple of the floor's.  Then start-up: ``promptkit --help``
and ``import promptkit`` against a bare interpreter, median CPU seconds of 9 runs each.  promptkit's modules are
byte-compiled first, as installing the package does.

``--instructions`` counts instead of timing (for a machine whose speed moves from run to run): each process runs
under valgrind's callgrind at ``--rows`` and at a sixth of it, and the table shows the instructions a row costs (the
difference of the two counts over the difference of rows) and those of start-up, for the floor and promptkit.  It
needs ``valgrind`` on PATH and takes about a minute per 1,000 rows; ``--rows 6000`` is plenty.
"""

from __future__ import annotations

import argparse
import compileall
import filecmp
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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
            for fmt in ("vllm", "openai-batch"):
                commands = _commands(folder, i, workload, fmt, paths)
                mine, floor = commands["promptkit"], commands["floor"]
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


def instructions(command: list[str]) -> int:
    """Instructions one run of ``command`` executes, counted by valgrind's callgrind."""
    # One hash seed for every run: the order of sets and the collisions in dicts (and with them the count) are then the same.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], capture_output=True, text=True, check=True, env=env)
    match = re.search(r"Collected : (\d+)", result.stderr)
    if match is None:
        raise SystemExit(f"valgrind printed no instruction count for {' '.join(command)}:\n{result.stderr[-2000:]}")
    return int(match.group(1))


def instructions_table(rows: int) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    sizes = (max(1, rows // 6), rows)
    header = f"{'workload':30} {'format':>12} {'floor Ir/row':>13} {'promptkit Ir/row':>16} {'ratio':>6} {'floor start-up':>15} {'pk start-up':>12}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for i, workload in enumerate(ENGINE_WORKLOADS):
            for fmt in ("vllm", "openai-batch"):
                counts: dict[str, list[int]] = {"floor": [], "promptkit": []}
                for size in sizes:
                    folder = Path(tmp) / f"{i}-{size}"
                    paths = write_data(folder, workload, size)
                    commands = _commands(folder, i, workload, fmt, paths)
                    for name, command in commands.items():
                        counts[name].append(instructions(command))
                    if not filecmp.cmp(folder / "promptkit.jsonl", folder / "floor.jsonl", shallow=False):
                        raise SystemExit(f"{workload.name} --as {fmt}: the floor's lines differ from promptkit's; fix benchmarks/engine_floor.py")
                per_row = {name: (big - small) / (sizes[1] - sizes[0]) for name, (small, big) in counts.items()}
                start = {name: counts[name][0] - sizes[0] * per_row[name] for name in counts}
                print(
                    f"{workload.name:30} {fmt:>12} {per_row['floor']:>13,.0f} {per_row['promptkit']:>16,.0f} {per_row['promptkit'] / per_row['floor']:>5.2f}x "
                    f"{start['floor'] / 1e6:>14,.0f}M {start['promptkit'] / 1e6:>11,.0f}M",
                    flush=True,
                )


def _commands(folder: Path, index: int, workload: Any, fmt: str, paths: dict[str, str]) -> dict[str, list[str]]:
    """The floor's and promptkit's command for one workload and format, its config files written into ``folder``."""
    dataset = dict(abbr="w", type="JsonlDataset", path=paths, reader_cfg=READER, infer_cfg=workload.infer_cfg)
    (folder / "dataset.py").write_text(f"datasets = [{dataset!r}]\n", encoding="utf-8")
    (folder / "model.py").write_text(f"models = [{workload.model!r}]\n", encoding="utf-8")
    return {
        "floor": [sys.executable, str(HERE / "engine_floor.py"), str(index), fmt, paths["train"], paths["test"], str(folder / "floor.jsonl")],
        "promptkit": [sys.executable, "-m", "promptkit", "render", str(folder / "dataset.py"), "--model", str(folder / "model.py"), "--as", fmt, "--out", str(folder / "promptkit.jsonl")],
    }


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
    parser.add_argument("--instructions", action="store_true", help="count instructions per row with valgrind instead of timing (see above)")
    args = parser.parse_args()
    compileall.compile_dir(Path(promptkit.__file__).parent, quiet=1)
    if args.instructions:
        instructions_table(args.rows)
        return 0
    if not args.startup_only:
        engines_table(args.rows, args.repeat)
    startup_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
