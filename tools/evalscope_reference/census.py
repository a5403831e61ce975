"""A census of EvalScope's registered benchmarks: which of them build their prompt from templates alone.

Run with the scratch venv's python (``setup_venv.sh`` builds it)::

    /work/scratch/evalscope-venv/bin/python tools/evalscope_reference/census.py            # -> census.json here
    /work/scratch/evalscope-venv/bin/python tools/evalscope_reference/census.py --no-imports  # skip the import probe

For every benchmark in EvalScope's registry (all adapter modules loaded), the JSON records:

* ``adapter``, ``module``: the adapter class and the module that registers it;
* ``api_base``: the nearest EvalScope API adapter class in its MRO (``DefaultDataAdapter``,
  ``MultiChoiceAdapter``, ``VisionLanguageAdapter``, ``AgentLoopAdapter``, ...);
* ``data_type``: ``text``, ``vision``, ``audio``, ``image_generation`` or ``agent`` (from the API base, then
  the tags: MultiModal/Video → vision, Audio/SpeechRecognition → audio, Agent → agent);
* ``prompt_hooks``: the prompt-building hooks that the benchmark's own classes define (anything outside
  ``evalscope.api``), in pipeline order, and ``api_base_prompt_hooks``: those its API base defines beyond
  ``DefaultDataAdapter``;
* ``prompt_build``: ``templates`` (no own prompt hook beyond ``record_to_sample``, on a template base:
  ``DefaultDataAdapter`` or ``MultiChoiceAdapter``), ``hooks`` (also ``sample_to_fewshot``,
  ``format_prompt_template``, ``format_fewshot_template``, ``sample_filter`` or the ``process_sample_*``
  steps, all plain Python on a sample), ``custom_loading`` (overrides loading: ``load*``,
  ``_post_process_samples``), ``custom_inference`` (the request is built at inference time: ``run_inference``,
  ``_on_inference_start``, ``_on_inference``; agent loops, multi-turn, tool calling) — with ``reasons``;
* ``input_as_messages``: ``record_to_sample`` builds ``Sample.input`` as chat messages (source inspection);
* facts that decide whether a sample can be rendered: few-shot numbers and mode, splits, subsets,
  judge-only scoring, a code sandbox, ``extra_params`` names; for text benchmarks also
  ``reformat_subset``/``split_as_subset`` from an adapter built without a task config (as EvalScope's docs
  pipeline builds them; sockets and subprocesses refused meanwhile), or ``construct_error`` when the
  constructor refuses (mostly a missing optional package);
* ``imports`` (unless ``--no-imports``): importing the adapter's module in a fresh child of a process that has
  done ``import evalscope`` (which Python does first anyway): the other adapter modules it pulls in, the
  third-party top-level packages it adds, and missing modules it tried to import.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib
import inspect
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

LOADING_HOOKS = (
    "load_dataset",
    "load",
    "load_from_disk",
    "load_from_remote",
    "load_subsets",
    "load_subset",
    "load_fewshot_subset",
    "_should_load_fewshot",
    "_post_process_samples",
)
CONVERSION_HOOKS = ("record_to_sample", "sample_filter")
FORMATTING_HOOKS = (
    "sample_to_fewshot",
    "format_fewshot_template",
    "format_prompt_template",
    "process_sample_input",
    "process_sample_str_input",
    "process_sample_messages_input",
)
INFERENCE_HOOKS = ("run_inference", "_on_inference_start", "_on_inference")
PROMPT_HOOKS = LOADING_HOOKS + CONVERSION_HOOKS + FORMATTING_HOOKS + INFERENCE_HOOKS
TEMPLATE_BASES = {"DefaultDataAdapter", "MultiChoiceAdapter"}
AGENT_BASES = {"AgentAdapter", "AgentLoopAdapter", "BrowserGymAdapter", "FunctionCallAdapter", "MultiTurnAdapter"}
HEAVY = {"torch", "transformers", "tensorflow", "jax", "vllm", "sklearn", "scipy", "cv2", "modelscope", "sentence_transformers"}


def _api_base(cls: type) -> type:
    return next(c for c in cls.__mro__ if c.__module__.startswith("evalscope.api.benchmark"))


def _own_classes(cls: type) -> list[type]:
    """The benchmark's own classes: its MRO without EvalScope's API classes and mixins (``evalscope.api``)."""
    return [c for c in cls.__mro__ if not c.__module__.startswith(("evalscope.api", "builtins", "abc", "typing"))]


def _defines(classes: list[type], hook: str) -> bool:
    return any(hook in vars(c) for c in classes)


def _data_type(api_base: str, tags: list[str]) -> str:
    if api_base == "VisionLanguageAdapter" or {"MultiModal", "Video"} & set(tags):
        return "vision"
    if api_base == "AudioLanguageAdapter" or {"Audio", "SpeechRecognition", "TextToSpeech"} & set(tags):
        return "audio"
    if api_base in {"Text2ImageAdapter", "ImageEditAdapter"}:
        return "image_generation"
    if api_base in AGENT_BASES or "Agent" in tags:
        return "agent"
    return "text"


def _input_as_messages(classes: list[type]) -> bool:
    for c in classes:
        fn = vars(c).get("record_to_sample")
        if fn is None:
            continue
        try:
            src = inspect.getsource(fn)
        except (OSError, TypeError):
            return False
        return "ChatMessage" in src or "dict_to_chat_message" in src
    return False


def describe(name: str, meta: Any) -> dict[str, Any]:
    from evalscope.api.benchmark import DefaultDataAdapter
    from evalscope.api.registry import get_benchmark

    cls = meta.data_adapter
    base = _api_base(cls)
    own = _own_classes(cls)
    own_hooks = [h for h in PROMPT_HOOKS if _defines(own, h)]
    base_hooks = [h for h in PROMPT_HOOKS if h in vars(base) and base is not DefaultDataAdapter]
    data_type = _data_type(base.__name__, list(meta.tags))

    reasons = []
    effective = set(own_hooks) | set(base_hooks if base.__name__ not in TEMPLATE_BASES else [])
    if base.__name__ not in TEMPLATE_BASES:
        reasons.append(f"API base {base.__name__} builds its own prompts ({', '.join(base_hooks) or 'no prompt hook'})")
    if effective & set(INFERENCE_HOOKS):
        build = "custom_inference"
        reasons.append("the request is built at inference time: " + ", ".join(h for h in PROMPT_HOOKS if h in effective & set(INFERENCE_HOOKS)))
    elif effective & set(LOADING_HOOKS):
        build = "custom_loading"
        reasons.append("overrides loading: " + ", ".join(h for h in PROMPT_HOOKS if h in effective & set(LOADING_HOOKS)))
    elif (effective - {"record_to_sample"}) or base.__name__ not in TEMPLATE_BASES:
        build = "hooks"
        extra = [h for h in PROMPT_HOOKS if h in effective - {"record_to_sample"}]
        if extra:
            reasons.append("adapter hooks: " + ", ".join(extra))
    else:
        build = "templates"

    entry: dict[str, Any] = {
        "name": name,
        "pretty_name": meta.pretty_name,
        "adapter": cls.__name__,
        "module": cls.__module__,
        "api_base": base.__name__,
        "data_type": data_type,
        "tags": list(meta.tags),
        "prompt_build": build,
        "reasons": reasons,
        "prompt_hooks": own_hooks,
        "api_base_prompt_hooks": base_hooks,
        "input_as_messages": _input_as_messages(own),
        "few_shot_num": meta.few_shot_num,
        "few_shot_mode": meta.few_shot_mode,
        "train_split": meta.train_split,
        "eval_split": meta.eval_split,
        "subsets": len(meta.subset_list),
        "default_subset": meta.default_subset,
        "has_prompt_template": meta.prompt_template is not None,
        "has_few_shot_prompt_template": meta.few_shot_prompt_template is not None,
        "has_system_prompt": meta.system_prompt is not None,
        "shuffle_choices": meta.shuffle_choices,
        "judge_only": str(getattr(cls, "scoring_policy", "")).lower().endswith("judge_only"),
        "sandbox": bool(meta.sandbox_config) or any(c.__name__ == "CodeExecutionSandboxMixin" for c in cls.__mro__),
        "extra_params": sorted(meta.extra_params),
    }
    if data_type == "text":
        # Built without a task config, as EvalScope's docs pipeline does. Not every constructor is side-effect
        # free (swe_bench_pro's clones a repository), so only text benchmarks are built, with sockets and
        # subprocesses refused while they are.
        try:
            with _offline():
                adapter = get_benchmark(name)
            entry["reformat_subset"] = adapter.reformat_subset
            entry["split_as_subset"] = adapter.split_as_subset
        except Exception as exc:  # recorded, not fatal: the census describes the class either way
            entry["construct_error"] = f"{type(exc).__name__}: {exc}"
    return entry


class _Refused(RuntimeError):
    pass


@contextlib.contextmanager
def _offline() -> Iterator[None]:
    """Refuse network connections and subprocesses (an adapter constructor must not reach out)."""
    import socket
    import subprocess

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise _Refused("the census refuses sockets and subprocesses while constructing an adapter")

    saved = (socket.socket.connect, subprocess.Popen.__init__)
    socket.socket.connect = refuse  # type: ignore[method-assign]
    subprocess.Popen.__init__ = refuse  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect, subprocess.Popen.__init__ = saved  # type: ignore[method-assign]


# --------------------------------------------------------------------------- import probe


class _MissingLogger:
    """A last meta-path finder: reached only when no other finder has the module; logs the name."""

    def __init__(self) -> None:
        self.missing: list[str] = []

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        self.missing.append(fullname)
        return None


def _third_party(modules: set[str]) -> set[str]:
    stdlib = set(sys.stdlib_module_names)
    return {m for m in modules if m not in stdlib and not m.startswith("_") and m != "evalscope"}


def probe_imports(modules: list[str]) -> dict[str, dict[str, Any]]:
    """Import each module in a forked child of this process (which has imported ``evalscope`` only)."""
    baseline = set(sys.modules)
    results: dict[str, dict[str, Any]] = {}
    for module in modules:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            os.close(read_fd)
            finder = _MissingLogger()
            sys.meta_path.append(finder)
            try:
                importlib.import_module(module)
                error = None
            except BaseException as exc:  # reported to the parent
                error = f"{type(exc).__name__}: {exc}"
            added = set(sys.modules) - baseline
            report = {
                "other_adapter_modules": sorted(m for m in added if m.startswith("evalscope.benchmarks.") and m.endswith("_adapter") and m != module),
                "third_party": sorted(_third_party({m.split(".")[0] for m in added})),
                # top-level names only: a submodule lookup (six.moves.*) reaches this finder by design
                "missing": sorted({m for m in finder.missing if "." not in m} - set(sys.stdlib_module_names)),
                "error": error,
            }
            with os.fdopen(write_fd, "w") as f:
                json.dump(report, f)
            os._exit(0)
        os.close(write_fd)
        with os.fdopen(read_fd) as f:
            data = f.read()
        os.waitpid(pid, 0)
        results[module] = json.loads(data)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "census.json")
    parser.add_argument("--no-imports", action="store_true", help="skip the per-module import probe")
    args = parser.parse_args(argv)

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import evalscope  # noqa: F401  the baseline every adapter import starts from
    from evalscope.version import __version__

    baseline_third_party = sorted(_third_party({m.split(".")[0] for m in sys.modules}))
    import evalscope.benchmarks as benchmarks

    modules = benchmarks.adapter_modules()
    imports = probe_imports(modules) if not args.no_imports else {}

    benchmarks.load_all()
    from evalscope.api.registry import BENCHMARK_REGISTRY

    entries = [describe(name, meta) for name, meta in sorted(BENCHMARK_REGISTRY.items())]
    for e in entries:
        if e["module"] in imports:
            e["imports"] = imports[e["module"]]

    def count(key: str, items: list[dict[str, Any]]) -> dict[str, int]:
        return dict(collections.Counter(e[key] for e in items).most_common())

    text = [e for e in entries if e["data_type"] == "text"]
    pulled = {m: r for m, r in imports.items() if r["other_adapter_modules"]}
    heavy = {m: sorted(set(r["third_party"]) & HEAVY) for m, r in imports.items() if set(r["third_party"]) & HEAVY}
    summary = {
        "evalscope_version": __version__,
        "registered": len(entries),
        "adapter_modules": len(modules),
        "by_api_base": count("api_base", entries),
        "by_data_type": count("data_type", entries),
        "text_by_prompt_build": count("prompt_build", text),
        "text_templates_input_as_messages": sum(1 for e in text if e["prompt_build"] == "templates" and e["input_as_messages"]),
        "text_judge_only": sum(1 for e in text if e["judge_only"]),
        "text_sandbox": sum(1 for e in text if e["sandbox"]),
        "construct_errors": {e["name"]: e["construct_error"] for e in entries if "construct_error" in e},
        "import_evalscope_third_party": baseline_third_party,
        "modules_importing_other_adapter_modules": {m: r["other_adapter_modules"] for m, r in pulled.items()},
        "modules_importing_heavy_packages": heavy,
        "modules_failing_to_import": {m: r["error"] for m, r in imports.items() if r["error"]},
    }
    args.out.write_text(json.dumps({"summary": summary, "benchmarks": entries}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
