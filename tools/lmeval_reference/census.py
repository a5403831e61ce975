"""Count what the task YAMLs shipped with the installed lm-eval use, for promptkit's lm-eval front end.

Run with the scratch venv's python (see setup_venv.sh)::

    /work/scratch/lmeval-venv/bin/python tools/lmeval_reference/census.py [--out FILE]

Every ``*.yaml`` under ``lm_eval/tasks/`` is read with lm-eval's own loader
(``lm_eval.tasks._yaml_loader.load_yaml``: ``include:`` chains merged, local
keys winning), classified as lm-eval's task index classifies it (``class`` →
Python task, ``group`` → group, ``task`` → task), and counted.  ``!function``
values are kept as references (module + function) instead of being imported,
so no task code runs.  Every ``*.py`` beside the YAMLs is parsed (not imported)
to count the modules it imports.  The result is a JSON file (default:
``tools/lmeval_reference/census_<version>.json``) and a short summary on stdout.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata as md
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import lm_eval.tasks._yaml_loader as yaml_loader
import yaml
from lm_eval.config.group import GroupConfig
from lm_eval.config.task import FewshotConfig, TaskConfig

TASKS_ROOT = Path(yaml_loader.__file__).parent
TASK_KEYS = {f.name for f in fields(TaskConfig)}
GROUP_KEYS = {f.name for f in fields(GroupConfig)}
FEWSHOT_KEYS = {f.name for f in fields(FewshotConfig)}
PROMPT_KEYS = ("doc_to_text", "doc_to_target", "doc_to_choice", "description", "gen_prefix")
SIMPLE_VAR = re.compile(r"^\s*\{\{\s*[A-Za-z_][A-Za-z_0-9]*\s*\}\}\s*$")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")


@dataclass(frozen=True)
class FunctionRef:
    """A ``!function module.name`` value, not imported."""

    spec: str
    base_dir: str

    @property
    def module_file(self) -> str:
        module = self.spec.rpartition(".")[0]
        return str(Path(self.base_dir) / (module.replace(".", "/") + ".py"))


def _function_ctor(base_dir: Path, resolve: bool):  # same signature as lm-eval's
    def ctor(loader: yaml.Loader, node: yaml.Node) -> FunctionRef:
        return FunctionRef(loader.construct_scalar(node), str(base_dir))  # type: ignore[arg-type]

    return ctor


# lm-eval's loader, with !function read as a reference (no import).
yaml_loader._mk_function_ctor = _function_ctor  # type: ignore[assignment]


def include_depth(path: Path, seen: frozenset[Path] = frozenset()) -> int:
    """Longest include chain below this file (0: no include)."""
    path = path.resolve()
    if path in seen:
        return 0
    try:
        raw = yaml_loader.load_yaml(path, resolve_func=False, recursive=False)
    except Exception:
        return 0
    inc = raw.get("include")
    if not inc:
        return 0
    incs = inc if isinstance(inc, list) else [inc]
    return 1 + max(include_depth(path.parent / i, seen | {path}) for i in incs)


def value_kind(value: Any) -> str:
    """How lm-eval will read a doc_to_*/description/gen_prefix value (columns need the data to tell apart)."""
    if value is None:
        return "absent"
    if isinstance(value, FunctionRef):
        return "function"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    if isinstance(value, str):
        if value == "":
            return "empty_string"
        if "{%" in value:
            return "jinja_statement"
        if SIMPLE_VAR.match(value):
            return "jinja_single_variable"
        if "{{" in value:
            return "jinja_expression"
        if IDENTIFIER.match(value):
            return "bare_identifier (column name if the split has it, else literal text)"
        return "literal_text"
    return type(value).__name__


def fs_value(value: Any) -> Any:
    return f"!function {value.spec}" if isinstance(value, FunctionRef) else value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    version = md.version("lm_eval")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / f"census_{version}.json")
    ns = parser.parse_args()

    yaml_files = sorted(p for p in TASKS_ROOT.rglob("*.yaml") if "__pycache__" not in p.parts)
    kinds: Counter[str] = Counter()
    load_errors: dict[str, str] = {}
    output_type: Counter[str] = Counter()
    prompt_kinds: dict[str, Counter[str]] = {k: Counter() for k in PROMPT_KEYS}
    function_targets: dict[str, Counter[str]] = defaultdict(Counter)
    function_modules: Counter[str] = Counter()
    missing_function_modules: set[str] = set()
    keys: Counter[str] = Counter()
    unknown_keys: Counter[str] = Counter()
    fewshot_keys: Counter[str] = Counter()
    sampler: Counter[str] = Counter()
    samples_kind: Counter[str] = Counter()
    num_fewshot: Counter[str] = Counter()
    depth: Counter[int] = Counter()
    split_use: Counter[str] = Counter()
    eval_split: Counter[str] = Counter()
    fewshot_pool: Counter[str] = Counter()
    delimiters: dict[str, Counter[str]] = {"target_delimiter": Counter(), "fewshot_delimiter": Counter()}
    description: Counter[str] = Counter()
    gen_prefix: Counter[str] = Counter()
    generation: Counter[str] = Counter()
    tags: Counter[str] = Counter()
    group_stats: Counter[str] = Counter()
    group_override_keys: Counter[str] = Counter()
    task_names: Counter[str] = Counter()
    process_docs: Counter[str] = Counter()
    single_quoted_backslash_n = 0
    single_quote_re = re.compile(r"""^\s*[\w"]+\s*:\s*'[^']*\\n[^']*'\s*$""", re.M)

    for path in yaml_files:
        rel = str(path.relative_to(TASKS_ROOT))
        try:
            cfg = yaml_loader.load_yaml(path, resolve_func=False, recursive=True)
        except Exception as err:  # noqa: BLE001 - counted and reported, as lm-eval's index skips them
            load_errors[rel] = f"{type(err).__name__}: {err}"[:300]
            kinds["load_error"] += 1
            continue
        if single_quote_re.search(path.read_text(encoding="utf-8", errors="replace")):
            single_quoted_backslash_n += 1
        if "class" in cfg:
            kinds["python_task (class:)"] += 1
            continue
        if "group" in cfg:
            kinds["group"] += 1
            task_field = cfg.get("task")
            members = task_field if isinstance(task_field, list) else [task_field]
            group_stats["members_str"] += sum(isinstance(m, str) for m in members)
            group_stats["members_dict_task"] += sum(isinstance(m, dict) and "task" in m and "group" not in m for m in members)
            group_stats["members_dict_group"] += sum(isinstance(m, dict) and "group" in m for m in members)
            group_stats["with_aggregate_metric_list"] += "aggregate_metric_list" in cfg
            extra = set(cfg) - GROUP_KEYS
            if extra:
                group_stats["with_task_override_keys"] += 1
                group_override_keys.update(extra)
            continue
        if "task" not in cfg:
            kinds["no_task_key (skipped by the index)"] += 1
            continue
        if isinstance(cfg["task"], list):
            kinds["task_list_without_group"] += 1
            continue
        kinds["task"] += 1
        task_names[str(cfg["task"])] += 1
        depth[include_depth(path)] += 1
        keys.update(list(cfg))
        unknown_keys.update(k for k in cfg if k not in TASK_KEYS and k not in ("include", "group", "task_list", "class"))
        output_type[cfg.get("output_type", "generate_until (default)")] += 1
        for key in PROMPT_KEYS:
            value = cfg.get(key)
            prompt_kinds[key][value_kind(value)] += 1
            if isinstance(value, FunctionRef):
                function_targets[key][value.spec] += 1
        for key, value in cfg.items():
            if isinstance(value, FunctionRef):
                function_modules[str(Path(value.module_file).relative_to(TASKS_ROOT)) if value.module_file.startswith(str(TASKS_ROOT)) else value.module_file] += 1
                if not Path(value.module_file).exists():
                    missing_function_modules.add(value.spec)
                if key not in PROMPT_KEYS:
                    function_targets[key][value.spec] += 1
        pd = cfg.get("process_docs")
        process_docs["function" if isinstance(pd, FunctionRef) else ("absent" if pd is None else type(pd).__name__)] += 1
        fc = cfg.get("fewshot_config") or {}
        if isinstance(fc, dict):
            fewshot_keys.update(list(fc))
            sampler[str(fc.get("sampler", "default (absent)")) if fc else "no fewshot_config"] += 1
            s = fc.get("samples")
            samples_kind["absent" if s is None else ("function" if isinstance(s, FunctionRef) else type(s).__name__)] += 1
            for k, v in fc.items():
                if isinstance(v, FunctionRef):
                    function_targets[f"fewshot_config.{k}"][v.spec] += 1
        nf = cfg.get("num_fewshot")
        num_fewshot["absent" if nf is None else str(nf)] += 1
        for split_key in ("training_split", "validation_split", "test_split", "fewshot_split"):
            if cfg.get(split_key) is not None:
                split_use[split_key] += 1
        ev = cfg.get("test_split") or cfg.get("validation_split")
        eval_split["test_split" if cfg.get("test_split") else ("validation_split" if cfg.get("validation_split") else "none")] += 1
        if cfg.get("fewshot_split") is not None:
            pool = "fewshot_split"
        elif isinstance(fc, dict) and fc.get("samples") is not None:
            pool = "fewshot_config.samples"
        elif cfg.get("training_split") is not None:
            pool = "training_split"
        elif cfg.get("validation_split") is not None:
            pool = "validation_split"
        else:
            pool = "test_split"
        fewshot_pool[pool] += 1
        fs_split = fc.get("split") if isinstance(fc, dict) and fc.get("split") is not None else cfg.get("fewshot_split")
        if fs_split is not None and fs_split == ev and cfg.get("test_split") is None:
            fewshot_pool["fewshot split == evaluated validation split, no removal of the doc under test"] += 1
        if fs_split is not None and fs_split == cfg.get("test_split"):
            fewshot_pool["fewshot split == test_split (doc under test removed from its shots)"] += 1
        if fs_split is None and cfg.get("test_split") is None:
            fewshot_pool["no fewshot split, no test_split (doc under test removed from its shots)"] += 1
        if fs_split is None and cfg.get("test_split") is not None and pool == "test_split":
            fewshot_pool["pool is the test split, no removal of the doc under test"] += 1
        for dk in delimiters:
            if dk in cfg:
                delimiters[dk][repr(cfg[dk])] += 1
        d = cfg.get("description")
        if d is None or d == "":
            description["absent_or_empty"] += 1
        elif isinstance(d, str):
            description["ends_with_newline" if d.endswith("\n") else ("ends_with_space" if d[-1].isspace() else "no_trailing_whitespace (glued to the first shot)")] += 1
        gp = cfg.get("gen_prefix")
        if gp is not None:
            gen_prefix["ends_with_newline" if str(gp).endswith("\n") else ("ends_with_space" if str(gp)[-1:].isspace() else "no_trailing_whitespace")] += 1
        gk = cfg.get("generation_kwargs")
        if cfg.get("output_type", "generate_until") == "generate_until":
            generation["no generation_kwargs (until = [fewshot_delimiter])" if gk is None else ("until given" if "until" in gk else "generation_kwargs without until (until = [fewshot_delimiter])")] += 1
        t = cfg.get("tag")
        for tag in (t if isinstance(t, list) else [t] if t else []):
            tags[str(tag)] += 1

    # utils.py and other modules beside the YAMLs: what they import at module level and inside functions.
    imports_top: Counter[str] = Counter()
    imports_any: Counter[str] = Counter()
    py_files = sorted(p for p in TASKS_ROOT.rglob("*.py") if "__pycache__" not in p.parts and p.parent != TASKS_ROOT)
    for py in py_files:
        try:
            tree = ast.parse(py.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        top_nodes = {id(n) for n in tree.body}
        seen_top: set[str] = set()
        seen_any: set[str] = set()
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module.split(".")[0]]
            for n in names:
                seen_any.add(n)
                if id(node) in top_nodes:
                    seen_top.add(n)
        imports_top.update(seen_top)
        imports_any.update(seen_any)
    stdlib = set(sys.stdlib_module_names)

    def split_std(counter: Counter[str]) -> dict[str, Any]:
        return {
            "third_party": dict(sorted(((k, v) for k, v in counter.items() if k not in stdlib and k != "lm_eval"), key=lambda kv: -kv[1])),
            "lm_eval": counter.get("lm_eval", 0),
            "stdlib": dict(sorted(((k, v) for k, v in counter.items() if k in stdlib), key=lambda kv: -kv[1])),
        }

    function_spec_total = Counter()
    for counter in function_targets.values():
        function_spec_total.update(counter)
    result = {
        "lm_eval_version": version,
        "tasks_root": "lm_eval/tasks",
        "yaml_files": len(yaml_files),
        "kinds": dict(kinds),
        "distinct_task_names": len(task_names),
        "duplicate_task_names": {k: v for k, v in task_names.items() if v > 1},
        "output_type": dict(output_type.most_common()),
        "prompt_value_kinds": {k: dict(v.most_common()) for k, v in prompt_kinds.items()},
        "process_docs": dict(process_docs),
        "fewshot_config_sampler": dict(sampler.most_common()),
        "fewshot_config_samples": dict(samples_kind),
        "fewshot_config_keys": dict(fewshot_keys.most_common()),
        "fewshot_config_unknown_keys": sorted(set(fewshot_keys) - FEWSHOT_KEYS),
        "fewshot_pool": dict(fewshot_pool.most_common()),
        "eval_split": dict(eval_split),
        "split_keys_used": dict(split_use),
        "num_fewshot_in_yaml": dict(num_fewshot.most_common()),
        "include_depth": {str(k): v for k, v in sorted(depth.items())},
        "description": dict(description),
        "gen_prefix": dict(gen_prefix),
        "generate_until_stop": dict(generation),
        "target_delimiter_values": dict(delimiters["target_delimiter"].most_common()),
        "fewshot_delimiter_values": dict(delimiters["fewshot_delimiter"].most_common()),
        "single_quoted_strings_with_backslash_n_files": single_quoted_backslash_n,
        "tags": {"tasks_with_tag": sum(tags.values()), "distinct_tags": len(tags)},
        "groups": dict(group_stats),
        "group_task_override_keys": dict(group_override_keys.most_common()),
        "task_keys": dict(keys.most_common()),
        "task_keys_not_in_TaskConfig": dict(unknown_keys.most_common()),
        "function_refs_by_key": {k: {"total": sum(v.values()), "distinct": len(v), "top": dict(v.most_common(15))} for k, v in sorted(function_targets.items())},
        "function_refs_distinct_specs": len(function_spec_total),
        "function_modules_referenced": len(function_modules),
        "function_refs_missing_module_file (imported from sys.path)": sorted(missing_function_modules),
        "task_python_files": len(py_files),
        "task_python_imports_module_level": split_std(imports_top),
        "task_python_imports_anywhere": split_std(imports_any),
        "load_errors": load_errors,
    }
    ns.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"lm-eval {version}: {len(yaml_files)} YAML files -> {dict(kinds)}")
    print("output_type:", dict(output_type.most_common()))
    for k in ("doc_to_text", "doc_to_target", "doc_to_choice"):
        print(f"{k}:", dict(prompt_kinds[k].most_common()))
    print("process_docs:", dict(process_docs), "| sampler:", dict(sampler.most_common()))
    print("fewshot pool:", dict(fewshot_pool.most_common()))
    print("include depth:", {str(k): v for k, v in sorted(depth.items())})
    print("third-party imports at module level in task .py files:", dict(list(split_std(imports_top)["third_party"].items())[:15]))
    print(f"written: {ns.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
