"""Record the EvalScope parity cases: the exact chat messages EvalScope sends, from EvalScope itself.

Run with the scratch venv's python (``setup_venv.sh`` builds it), from anywhere::

    /work/scratch/evalscope-venv/bin/python tools/evalscope_reference/record.py            # every case
    /work/scratch/evalscope-venv/bin/python tools/evalscope_reference/record.py gsm8k__default arc__shuffle_choices
    /work/scratch/evalscope-venv/bin/python tools/evalscope_reference/record.py --list

Each case of ``tests/evalscope/cases.json`` goes through EvalScope's own code path, the one
``run_task`` takes for the native backend: ``TaskConfig`` → ``seed_everything(seed)`` →
``get_benchmark(name, task_config)`` (the registry, ``BenchmarkMeta._update(dataset_args)``, the
adapter class) → ``validate_judge_strategy()`` → ``adapter.load_dataset()`` (loader, ``record_to_sample``,
``sample_filter``, few-shot, templates, system prompt) → for every sample ``adapter.run_inference(model,
sample)``, with ``model`` EvalScope's OpenAI-compatible model API (``eval_type='openai_api'``). The only
replacements: the dataset download (``dataset_args[name]['local_path']`` points at ``tests/evalscope/<data>``,
which EvalScope's loader reads as a local dataset) and the network: the OpenAI client's HTTP transport is an
in-process ``MockTransport`` that keeps the JSON body of each ``POST /chat/completions`` and answers with a
canned completion. ``messages`` in the recorded files is that body's ``messages``, byte for byte what a
server would receive.

An adapter file (``"adapter"`` in a case) is imported before the benchmark is looked up, either as a module
of its own (a user's script) or, with ``"adapter_module"``, under that dotted name: where the guide puts it,
replacing the built-in module in an EvalScope fork. Cases are run in one process per adapter file (and one
for the built-in benchmarks), so registrations never leak between them.

Output: ``tests/evalscope/expected/<case>.json``. A case that EvalScope refuses records the stage, the
exception type and its message instead of samples.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "tests" / "evalscope"
CASES = SUITE / "cases.json"
EXPECTED = SUITE / "expected"

MODEL_NAME = "evalscope-reference"
API_URL = "http://127.0.0.1:9/v1"  # never contacted: the HTTP transport is in-process
CANNED_REPLY = "ANSWER: A"


class HarnessError(Exception):
    """A problem with the harness input (unknown case, malformed cases.json); never recorded."""


def load_cases() -> list[dict[str, Any]]:
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    names = [c["name"] for c in cases]
    if len(names) != len(set(names)):
        raise HarnessError(f"{CASES}: duplicate case names")
    return cases


def group_key(case: dict[str, Any]) -> str:
    """Cases that can share one process: same adapter file, imported under the same name."""
    if "adapter" not in case:
        return "builtin"
    return f"{case['adapter']}@{case.get('adapter_module', '')}"


# --------------------------------------------------------------------------- worker (runs inside the venv)


def _relative(text: str) -> str:
    """Error messages name files; keep them free of this checkout's location."""
    return text.replace(str(SUITE) + os.sep, "").replace(str(REPO) + os.sep, "")


def _error(stage: str, exc: BaseException) -> dict[str, Any]:
    last = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = None
    if isinstance(exc, SyntaxError):
        where = f"{_relative(str(exc.filename))}:{exc.lineno}"
    elif last is not None:
        path = Path(last.filename)
        marker = "site-packages" + os.sep
        where = f"{str(path).split(marker, 1)[-1] if marker in str(path) else _relative(str(path))}:{last.name}"
    return {"stage": stage, "type": type(exc).__name__, "message": _relative(str(exc)), "raised_in": where}


def _import_adapter(case: dict[str, Any]) -> None:
    """Import an adapter file the way a user's code would: its @register_benchmark runs on import."""
    path = SUITE / case["adapter"]
    module_name = case.get("adapter_module") or path.stem
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise HarnessError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise


@contextmanager
def _recording_model(task: Any) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """The model ``run_task`` builds for ``task`` (``get_model_with_task_config``), its HTTP transport keeping each request body."""
    import httpx2  # the HTTP library openai 3.x is built on
    from evalscope.api.model.model import get_model
    from evalscope.utils import get_secret_value

    bodies: list[dict[str, Any]] = []

    def handler(request: Any) -> Any:
        if request.url.path.rstrip("/").endswith("/chat/completions"):
            bodies.append(json.loads(request.content))
            return httpx2.Response(
                200,
                json={
                    "id": "reference",
                    "object": "chat.completion",
                    "created": 0,
                    "model": MODEL_NAME,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": CANNED_REPLY}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                },
            )
        return httpx2.Response(404, json={"error": {"message": f"unexpected request {request.method} {request.url}"}})

    with httpx2.Client(transport=httpx2.MockTransport(handler)) as http_client:
        model = get_model(
            model=task.model,
            eval_type=task.eval_type,
            base_url=task.api_url,
            api_key=get_secret_value(task.api_key),
            config=task.generation_config,
            model_args={**(task.model_args or {}), "http_client": http_client},
            memoize=False,
        )
        yield model, bodies


def run_case(case: dict[str, Any], adapter_error: dict[str, Any] | None, workdir: str) -> dict[str, Any]:
    from evalscope.api.registry import get_benchmark
    from evalscope.config import TaskConfig
    from evalscope.utils.model_utils import seed_everything
    from evalscope.version import __version__

    record: dict[str, Any] = {"case": case, "evalscope_version": __version__, "python": platform.python_version()}
    if adapter_error is not None:
        record["error"] = adapter_error
        return record

    name = case["benchmark"]
    dataset_args = dict(case["dataset_args"], local_path=str(SUITE / case["data"]))
    stage = "task_config"
    try:
        task = TaskConfig(
            model=MODEL_NAME,
            eval_type="openai_api",
            api_url=API_URL,
            api_key="EMPTY",
            datasets=[name],
            dataset_args={name: dataset_args},
            work_dir=os.path.join(workdir, "outputs"),
            **case.get("task", {}),
        )
        if task.seed is not None:
            seed_everything(task.seed)  # as run_task does before anything else
        stage = "get_benchmark"
        adapter = get_benchmark(name, task)
        stage = "validate_judge_strategy"
        adapter.validate_judge_strategy()
        stage = "load_dataset"
        dataset_dict = adapter.load_dataset()
    except Exception as exc:  # EvalScope refused the case: that is the recorded outcome
        record["error"] = _error(stage, exc)
        return record

    meta = adapter.benchmark_meta
    record["adapter"] = {
        "class": type(adapter).__name__,
        "module": type(adapter).__module__,
        "few_shot_num": meta.few_shot_num,
        "few_shot_random": meta.few_shot_random,
        "train_split": meta.train_split,
        "eval_split": meta.eval_split,
        "subset_list": meta.subset_list,
        "default_subset": meta.default_subset,
        "reformat_subset": adapter.reformat_subset,
        "split_as_subset": adapter.split_as_subset,
        "shuffle_choices": meta.shuffle_choices,
        "seed": task.seed,
    }
    record["subsets"] = [{"name": subset, "samples": len(dataset)} for subset, dataset in dataset_dict.items()]

    samples: list[dict[str, Any]] = []
    request_params: dict[str, Any] | None = None
    try:
        with _recording_model(task) as (model, bodies):
            for subset, dataset in dataset_dict.items():
                for position, sample in enumerate(dataset):
                    if sample.id != position:
                        raise HarnessError(f"{case['name']}: sample id {sample.id} at position {position} of {subset}")
                    before = len(bodies)
                    adapter.run_inference(model=model, sample=sample, output_dir=os.path.join(workdir, "predictions"))
                    if len(bodies) != before + 1:
                        raise HarnessError(f"{case['name']}: {len(bodies) - before} requests for one sample")
                    body = bodies[-1]
                    params = {k: v for k, v in body.items() if k != "messages"}
                    if request_params is None:
                        request_params = params
                    elif params != request_params:
                        raise HarnessError(f"{case['name']}: request parameters differ between samples")
                    samples.append(
                        {
                            "subset": subset,
                            "index": sample.id,
                            "messages": body["messages"],
                            "target": sample.target,
                            "choices": sample.choices,
                            "subset_key": sample.subset_key,
                        }
                    )
    except HarnessError:
        raise
    except Exception as exc:
        record["error"] = _error("run_inference", exc)
        return record
    record["request"] = request_params
    record["samples"] = samples
    return record


def worker(names: list[str]) -> int:
    """Record the named cases, which share one adapter group, in this process."""
    sys.dont_write_bytecode = True  # no __pycache__ next to the adapter files
    by_name = {c["name"]: c for c in load_cases()}
    cases = [by_name[n] for n in names]
    keys = {group_key(c) for c in cases}
    if len(keys) != 1:
        raise HarnessError(f"one worker runs one adapter group, got {sorted(keys)}")

    adapter_error = None
    if "adapter" in cases[0]:
        try:
            _import_adapter(cases[0])
        except Exception as exc:  # SyntaxError included: the file does not load on this Python
            adapter_error = _error("import_adapter", exc)

    EXPECTED.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="evalscope-reference-") as workdir:
        for case in cases:
            record = run_case(case, adapter_error, workdir)
            out = EXPECTED / f"{case['name']}.json"
            out.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            outcome = f"error at {record['error']['stage']}: {record['error']['type']}" if "error" in record else f"{len(record['samples'])} samples"
            print(f"{case['name']}: {outcome}", file=sys.__stdout__, flush=True)
    return 0


# --------------------------------------------------------------------------- driver


def _worker_env(cache: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_HOME=os.path.join(cache, "hf"),
        HF_DATASETS_CACHE=os.path.join(cache, "hf", "datasets"),
        MODELSCOPE_CACHE=os.path.join(cache, "modelscope"),
        PYTHONDONTWRITEBYTECODE="1",
        TQDM_DISABLE="1",
    )
    return env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help="case names (default: all of tests/evalscope/cases.json)")
    parser.add_argument("--list", action="store_true", help="print the case names and exit")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        return worker(args.cases)

    cases = load_cases()
    if args.list:
        for c in cases:
            print(c["name"])
        return 0
    known = {c["name"] for c in cases}
    unknown = [n for n in args.cases if n not in known]
    if unknown:
        raise HarnessError(f"unknown case(s): {', '.join(unknown)}")
    selected = [c for c in cases if not args.cases or c["name"] in args.cases]

    if not args.cases and EXPECTED.exists():  # a full run replaces the folder: no stale cases survive
        for stale in EXPECTED.glob("*.json"):
            stale.unlink()

    groups: dict[str, list[str]] = {}
    for c in selected:
        groups.setdefault(group_key(c), []).append(c["name"])
    failed = 0
    with tempfile.TemporaryDirectory(prefix="evalscope-reference-cache-") as cache:
        for key, names in groups.items():
            # cwd outside site-packages/evalscope, whose `collections` folder would shadow the stdlib's
            proc = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--worker", *names],
                cwd=cache,
                env=_worker_env(cache),
                capture_output=True,
                text=True,
            )
            sys.stdout.write(proc.stdout)
            if proc.returncode != 0:
                failed += 1
                sys.stderr.write(f"--- worker for {key} failed ({proc.returncode}); its log:\n{proc.stderr}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except HarnessError as exc:
        print(f"record.py: error: {exc}", file=sys.stderr)
        sys.exit(2)
