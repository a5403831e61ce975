"""Rendering at scale: rows/s and peak memory of whole `promptkit render` runs, 100k and 1M generated rows.

    python3 benchmarks/bench_scale.py [--rows 100000 1000000] [--columns "1 worker" "2 workers"]

For each row count the rows are generated into a temporary folder (one JSON
Lines file, used as both splits: FixK's shots are rows 0-4 of it), and each
workload is rendered by each column's command in a fresh process, writing
``--out`` to the same folder.  A run is measured from outside: wall time, and
peak memory as the largest resident set of any process of the run (the
``ru_maxrss`` of a wrapper's children: the CLI and its workers), and the CPU
time of all of them (on a loaded machine wall time says little; CPU time
shows what the workers add).  The line index cache goes to the temporary
folder too.

Columns are commands (:data:`COLUMNS`): a function from the run's config and
output file to an argv; another engine (e.g. Ray Data on a local instance) is
one more entry.  The closing note says what the ratio 1M / 100k of peak memory is
(the streaming target is 1.3 or less).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: The workloads: (name, infer_cfg source, model config source or None).
LLAMA3 = (
    "dict(begin='<|begin_of_text|>', round=[dict(role='HUMAN', begin='<|start_header_id|>user<|end_header_id|>\\n\\n', end='<|eot_id|>'), "
    "dict(role='BOT', begin='<|start_header_id|>assistant<|end_header_id|>\\n\\n', end='<|eot_id|>', generate=True)])"
)
MCQ = "{question}\\nA. {A}\\nB. {B}\\nC. {C}\\nD. {D}\\nAnswer: "
WORKLOADS = {
    "zero-shot": (
        f"dict(prompt_template=dict(type='PromptTemplate', template='{MCQ}{{answer}}'), retriever=dict(type='ZeroRetriever'), "
        "inferencer=dict(type='GenInferencer'))",
        None,
    ),
    "5-shot FixK, Llama-3": (
        f"dict(ice_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{MCQ}'), dict(role='BOT', prompt='{{answer}}\\n')])), "
        f"prompt_template=dict(type='PromptTemplate', template=dict(begin='</E>', round=[dict(role='HUMAN', prompt='{MCQ}')]), ice_token='</E>'), "
        "retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2, 3, 4]), inferencer=dict(type='GenInferencer'))",
        f"models = [dict(abbr='llama3', type='CompletionModel', meta_template={LLAMA3})]\n",
    ),
}


@dataclass(frozen=True)
class Run:
    """What one column's command is given: the dataset config, the model config (or None), the output file."""

    config: Path
    model: Path | None
    out: Path


def cli(workers: int) -> Callable[[Run], list[str]]:
    """`promptkit render` with ``workers`` processes."""

    def argv(run: Run) -> list[str]:
        model = ["--model", str(run.model)] if run.model else []
        return [sys.executable, "-m", "promptkit", "render", str(run.config), *model, "--out", str(run.out), "--quiet", "--workers", str(workers)]

    return argv


#: Column name -> the command of one run.
COLUMNS: dict[str, Callable[[Run], list[str]]] = {"1 worker": cli(1), "2 workers": cli(2)}

_WORDS = ["the", "of", "a", "model", "answer", "question", "energy", "cell", "river", "number", "light", "value", "system", "function", "market", "theory"]


def write_rows(path: Path, count: int, seed: int = 0) -> None:
    """``count`` MMLU-like rows of about 200 characters each."""
    rng = random.Random(seed)
    phrases = [" ".join(rng.choice(_WORDS) for _ in range(32)) for _ in range(997)]
    with path.open("w") as handle:
        for i in range(count):
            row = dict(question=f"{i}: {phrases[i % 997]}?", A=_WORDS[i % 16], B=_WORDS[(i + 3) % 16], C=_WORDS[(i + 5) % 16], D=_WORDS[(i + 7) % 16], answer="ABCD"[i % 4])
            handle.write(json.dumps(row) + "\n")


# Runs the command and prints its wall time and the peak RSS (KiB) of its processes; resource is per-process.
_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.run(sys.argv[1:]).returncode
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(status, time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def measure(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of all its processes, peak MiB) of one run; a failed run is an error."""
    result = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, env=env)
    status, seconds, cpu, kib = result.stdout.split()
    if status != "0":
        raise SystemExit(f"run failed ({' '.join(argv)}):\n{result.stderr}")
    return float(seconds), float(cpu), int(kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--columns", nargs="+", default=list(COLUMNS), choices=list(COLUMNS))
    args = parser.parse_args()
    peaks: dict[tuple[str, str, int], float] = {}
    print(f"{'workload':24} {'rows':>9}  " + "  ".join(f"{name + ': rows/s, CPU s, peak':>36}" for name in args.columns))
    for count in args.rows:
        with tempfile.TemporaryDirectory(prefix="bench_scale_") as folder:
            root = Path(folder)
            data = root / "rows.jsonl"
            write_rows(data, count)
            env = {**os.environ, "PROMPTKIT_CACHE_DIR": str(root / "cache")}
            for name, (infer_cfg, model_cfg) in WORKLOADS.items():
                config = root / f"{name.split()[0]}.py"
                config.write_text(
                    f"datasets = [dict(abbr='scale', type='JsonlDataset', path={str(data)!r}, "
                    f"reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'), infer_cfg={infer_cfg})]\n"
                )
                model = None
                if model_cfg:
                    model = root / "model.py"
                    model.write_text(model_cfg)
                cells = []
                for column in args.columns:
                    seconds, cpu, peak = measure(COLUMNS[column](Run(config, model, root / "out.jsonl")), env)
                    peaks[name, column, count] = peak
                    cells.append(f"{count / seconds:>15,.0f} {cpu:>8.1f} {peak:>6.0f} MiB")
                print(f"{name:24} {count:>9,}  " + "  ".join(cells), flush=True)
    if len(args.rows) > 1:
        low, high = min(args.rows), max(args.rows)
        ratios = ", ".join(
            f"{name} / {column}: {peaks[name, column, high] / peaks[name, column, low]:.2f}" for name in WORKLOADS for column in args.columns
        )
        print(f"\npeak memory, {high:,} rows / {low:,} rows (streaming target <= 1.3): {ratios}")


if __name__ == "__main__":
    main()
