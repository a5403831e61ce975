"""Render census: how many of the installed lm-eval's task YAMLs promptkit loads and renders, and where it agrees with lm-eval.

Run with the scratch venv's python and promptkit on the path (it needs lm-eval installed)::

    PYTHONPATH=. /work/scratch/lmeval-venv/bin/python tools/lmeval_reference/render_census.py [--sample N] [--out FILE] [--results FILE]

For every task file of ``lm_eval/tasks`` (a file lm-eval's index takes as a task; groups and tags are made of them):

1. **load** — promptkit reads the file (``promptkit.load_datasets``): includes, ``!function`` references, the keys.
2. **rows** — synthetic rows in the task's own columns, read off its texts and code: every name its Jinja texts
   use (``{{question}}``), a column named by ``doc_to_*``, every ``doc["key"]`` its Python functions read; a name
   used with ``.key`` or ``["key"]`` is a mapping of those keys, one iterated, indexed by a number or passed to a
   list filter is a list of four strings, one passed to ``int`` holds a digit; anything else is a string.  Six rows
   per split the task reads (``doc_to_choice`` choices differ per row).
3. **render** — promptkit renders the first document (``--rows SPLIT=FILE``, the task's own ``num_fewshot``).
4. **lm-eval** — lm-eval builds the same document's requests from the same rows (``TaskManager.load``,
   ``build_all_requests(limit=1)``, ``datasets.load_dataset`` serving the rows), and the contexts and continuations
   are compared.

The table counts each task under the first step that did not succeed, with the reason (the shape of the error);
"same rows, lm-eval fails too" means the synthetic rows do not fit the task's code (promptkit's render is not
judged there).  Tasks run in forked children, a hundred each, with a time limit per task, so a hang or a crash stays
with its task.  Nothing is downloaded: datasets' hub is off, and the rows are served from memory.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import json
import multiprocessing
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

import datasets  # noqa: E402
import jinja2  # noqa: E402
import jinja2.nodes as nodes  # noqa: E402
import lm_eval  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from promptkit import Renderer, load_datasets  # noqa: E402
from promptkit.frontends.lmeval.functions import FunctionRef  # noqa: E402
from promptkit.frontends.lmeval.index import TaskIndex  # noqa: E402

TASKS_ROOT = Path(lm_eval.__file__).parent / "tasks"
PROMPT_KEYS = ("doc_to_text", "doc_to_target", "doc_to_choice", "description", "gen_prefix")
LIST_FILTERS = {"join", "length", "count", "first", "last", "random", "list", "sort", "map", "select", "reject", "unique", "batch", "slice", "reverse", "sum", "min", "max"}
ROWS_PER_SPLIT = 6
SECONDS_PER_TASK = 60
#: Tasks per forked child.
CHUNK = 100


# ----------------------------------------------------------------------------- the columns of a task
class Shapes:
    """What the task's texts and code do with each column."""

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, Any]] = {}
        #: (list path, value path): ``list.index(value)`` is used, so the value is one of the list's.
        self.members: list[tuple[list[str], list[str]]] = []

    def use(self, name: str) -> dict[str, Any]:
        return self.columns.setdefault(name, {"keys": {}, "list": False, "int": False})

    def row(self, i: int) -> dict[str, Any]:
        row = {name: _value(name, shape, i) for name, shape in self.columns.items()}
        for listed, value in self.members:
            options = _at(row, listed)
            if isinstance(options, list) and options and len(value) >= 1:
                _put(row, value, options[i % len(options)])
        return row


def _at(row: Any, path: list[str]) -> Any:
    for key in path:
        if not isinstance(row, dict) or key not in row:
            return None
        row = row[key]
    return row


def _put(row: dict[str, Any], path: list[str], value: Any) -> None:
    for key in path[:-1]:
        inner = row.get(key)
        if not isinstance(inner, dict):
            return
        row = inner
    row[path[-1]] = value


def _value(name: str, shape: dict[str, Any], i: int) -> Any:
    if "const" in shape:
        return shape["const"]
    if shape["keys"]:
        return {key: _value(key, inner, i) for key, inner in shape["keys"].items()}
    if shape["list"]:
        return [f"{name} {i} option {k}" for k in range(4)]
    if shape["int"] or re.search(r"(^|_)(label|gold|answer_?idx|idx|index)$", name):
        return str(i % 2) if not shape["int"] else i % 2
    return f"{name} {i}"


def jinja_shapes(text: str, shapes: Shapes, env: jinja2.Environment) -> None:
    try:
        tree = env.parse(text)
    except jinja2.TemplateSyntaxError:
        return
    assigned = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}

    def path(node: nodes.Node) -> list[str] | None:
        if isinstance(node, nodes.Name):
            return [node.name] if node.name not in assigned and node.name not in ("loop", "range", "namespace") else None
        if isinstance(node, nodes.Getattr):
            inner = path(node.node)
            return inner + [node.attr] if inner else None
        if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            inner = path(node.node)
            return inner + [node.arg.value] if inner else None
        return None

    def shape_at(found: list[str]) -> dict[str, Any]:
        shape = shapes.use(found[0])
        for key in found[1:]:
            if key in dir(str):  # a str method (question.strip()): not a key
                break
            shape = shape["keys"].setdefault(key, {"keys": {}, "list": False, "int": False})
        return shape

    for node in tree.find_all((nodes.Name, nodes.Getattr, nodes.Getitem)):
        found = path(node)
        if found:
            shape_at(found)
    for node in tree.find_all(nodes.For):
        found = path(node.iter)
        if found:
            shape_at(found)["list"] = True
    for node in tree.find_all(nodes.Getitem):
        found = path(node.node)
        if found and not (isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str)) and not isinstance(node.arg, nodes.Slice):
            shape_at(found)["list"] = True
    for node in tree.find_all(nodes.Filter):
        found = path(node.node) if node.node is not None else None
        if found and node.name in LIST_FILTERS:
            shape_at(found)["list"] = True
        if found and node.name in ("int", "float"):
            shape_at(found)["int"] = True
    for node in tree.find_all(nodes.Getitem):
        used = path(node.arg)
        if used and isinstance(node.node, (nodes.List, nodes.Tuple, nodes.Const)):
            shape_at(used)["int"] = True  # ['A', 'B'][answer]
    for node in tree.find_all((nodes.Sub, nodes.Add, nodes.Mul)):
        for side, other in ((node.left, node.right), (node.right, node.left)):
            used = path(side)
            if used and isinstance(other, nodes.Const) and isinstance(other.value, int):
                shape_at(used)["int"] = True  # answer - 1
    for node in tree.find_all(nodes.Call):
        literal = node.node.node if isinstance(node.node, nodes.Getattr) else None
        if isinstance(literal, (nodes.List, nodes.Tuple)) and node.node.attr == "index" and node.args and literal.items:  # type: ignore[union-attr]
            used, first = path(node.args[0]), literal.items[0]
            if used and isinstance(first, nodes.Const):
                shape_at(used)["const"] = first.value  # ['A', 'B'].index(answer)
            continue
        if isinstance(node.node, nodes.Getattr) and node.node.attr == "index":
            found = path(node.node.node)
            if found:
                shape_at(found)["list"] = True
            for arg in node.args[:1]:
                used = path(arg)
                if used and found:
                    shape_at(used)["int"] = False
                    shapes.members.append((found, used))


def function_shapes(ref: FunctionRef, shapes: Shapes) -> None:
    """What the function's module does with ``doc["key"]``: a column; ``doc["key"]["inner"]`` a mapping, one iterated or
    indexed by a number a list, one passed to ``int`` a digit, one compared with a string constant that string."""
    path = ref.local_file
    if not path.is_file():
        return
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return

    def column(node: ast.AST) -> list[str] | None:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            inner = column(node.value) if isinstance(node.value, ast.Subscript) else [] if isinstance(node.value, ast.Name) else None
            return inner + [node.slice.value] if inner is not None else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and isinstance(node.func.value, ast.Name):
                return [first.value]
        return None

    def shape(found: list[str]) -> dict[str, Any]:
        at = shapes.use(found[0])
        for key in found[1:]:
            at = at["keys"].setdefault(key, {"keys": {}, "list": False, "int": False})
        return at

    for node in ast.walk(tree):
        found = column(node)
        if found:
            shape(found)
        if isinstance(node, ast.Subscript) and not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            inner = column(node.value)
            if inner and not isinstance(node.slice, ast.Slice):
                shape(inner)["list"] = True
        elif isinstance(node, (ast.For, ast.comprehension)):
            inner = column(node.iter)
            if inner:
                shape(inner)["list"] = True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            inner = column(node.args[0])
            if inner and node.func.id in ("int", "float"):
                shape(inner)["int"] = True
            elif inner and node.func.id in ("len", "enumerate", "zip", "sorted", "list"):
                shape(inner)["list"] = True
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            inner, other = column(node.left), node.comparators[0]
            if inner and isinstance(other, ast.Constant) and isinstance(other.value, (str, int)):
                shape(inner)["const"] = other.value
            elif inner and isinstance(other, ast.Name) and ref.name.startswith("process_"):
                shape(inner)["const"] = ref.name.removeprefix("process_")  # filter(x["subject"] == subject), one function per subject


def task_shapes(config: Any) -> Shapes:
    env = jinja2.Environment()
    shapes = Shapes()
    fewshot = config.fewshot
    values = [getattr(config, key) for key in PROMPT_KEYS] + [fewshot.doc_to_text, fewshot.doc_to_target, fewshot.doc_to_choice, fewshot.gen_prefix]
    for value in values:
        if isinstance(value, str):
            if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", value):
                shapes.use(value)
            else:
                jinja_shapes(value, shapes, env)
        elif isinstance(value, FunctionRef):
            function_shapes(value, shapes)
    if config.process_docs is not None:
        function_shapes(config.process_docs, shapes)
    choice = config.doc_to_choice
    if isinstance(choice, str) and choice in shapes.columns:
        shapes.columns[choice]["list"] = True
    elif isinstance(choice, str):
        whole = re.fullmatch(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}", choice)
        if whole:
            parts = whole.group(1).split(".")
            shape = shapes.use(parts[0])
            for key in parts[1:]:
                shape = shape["keys"].setdefault(key, {"keys": {}, "list": False, "int": False})
            shape["list"] = True
    target = config.doc_to_target
    if isinstance(target, str) and target in shapes.columns and config.doc_to_choice is not None:
        shapes.columns[target]["int"] = True
    return shapes


# ----------------------------------------------------------------------------- one task
def reason(error: BaseException) -> str:
    """The shape of an error: its class and message with names, numbers and quoted text blanked."""
    text = str(getattr(error, "message", None) or error).splitlines()[0] if str(error) else ""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"/[\w./-]+", "PATH", text)
    text = re.sub(r"\d+", "N", text)
    return f"{type(error).__name__}: {text[:110]}"


def splits_of(config: Any) -> list[str]:
    return sorted({s for s in (config.training_split, config.validation_split, config.test_split, config.fewshot.split) if s})


def one_task(path: Path, name: str, scratch: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"task": name, "file": str(path.relative_to(TASKS_ROOT))}
    try:
        (spec,) = [s for s in load_datasets(path) if s.abbr == name] or load_datasets(path)[:1]
    except Exception as error:  # noqa: BLE001 (a census reports every failure)
        return {**out, "stage": "load", "reason": reason(error)}
    config = spec.loader.task.config
    shapes = task_shapes(config)
    rows = [shapes.row(i) for i in range(ROWS_PER_SPLIT)]
    file = scratch / f"{name.replace('/', '_')}.jsonl"
    file.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    lines = [f"{split}={file}" for split in splits_of(config)]
    try:
        (spec,) = [s for s in load_datasets(path, rows=lines) if s.abbr == name]
        mine = Renderer(spec).render(0)
    except Exception as error:  # noqa: BLE001
        out.update(stage="render", reason=reason(error))
        mine = None
    try:
        theirs = lm_eval_requests(name, {split: rows for split in splits_of(config)})
    except Exception as error:  # noqa: BLE001
        if mine is None:
            return {**out, "stage": "rows", "reason": reason(error)}
        return {**out, "stage": "lm-eval fails, promptkit renders", "reason": reason(error)}
    if mine is None:
        return out
    ours = [_request(p.prompt, p.request_fields or {}) for p in mine]
    if ours != theirs:
        return {**out, "stage": "differs", "reason": f"{len(ours)} requests against {len(theirs)}" if len(ours) != len(theirs) else "context or continuation"}
    return {**out, "stage": "same"}


def _request(prompt: Any, fields: dict[str, Any]) -> tuple[Any, Any]:
    """A promptkit record as lm-eval's arguments: (context, continuation); rolling: (None, text); generation: (context, None)."""
    if fields.get("request_type") == "loglikelihood_rolling":
        return None, fields["continuation"]
    return prompt, fields.get("continuation")


#: lm-eval's task manager, its index built once in the parent (the forked children share it).
_MANAGER: Any = None


def lm_eval_requests(name: str, splits: dict[str, list[dict[str, Any]]]) -> list[tuple[Any, Any]]:
    import numpy

    for module in [m for m, value in sys.modules.items() if m.startswith("lm_eval.tasks.") and Path(getattr(value, "__file__", "") or "").parent != TASKS_ROOT]:
        del sys.modules[module]  # each task's code fresh, as in a run of that task alone (module state: gpqa's rng)
    random.seed(0)  # as simple_evaluate seeds before it loads the tasks
    numpy.random.seed(1234)
    datasets.load_dataset = lambda *args, **kwargs: datasets.DatasetDict({split: datasets.Dataset.from_list(rows) for split, rows in splits.items()})
    loaded = _MANAGER.load([name])
    task = loaded["tasks"][name] if name in loaded["tasks"] else next(iter(loaded["tasks"].values()))
    if task.get_config("num_fewshot") is None:
        task.set_config(key="num_fewshot", value=0)
    task.set_fewshot_seed(seed=1234)
    task.build_all_requests(limit=1)
    out = []
    for instance in task.instances:
        arguments = instance.arguments
        if instance.request_type == "loglikelihood_rolling":
            out.append((None, arguments[0]))
        elif instance.request_type == "generate_until":
            out.append((arguments[0], None))
        else:
            out.append((arguments[0], arguments[1]))
    return out


class _Timeout(Exception):
    pass


def child(chunk: list[tuple[str, str]], scratch: str, queue: Any) -> None:
    """Census a chunk of tasks, one result each on the queue; a task over its time is cut off with an alarm."""
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (task code prints; the census reads the queue)

    def alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    signal.signal(signal.SIGALRM, alarm)
    for path, name in chunk:
        signal.alarm(SECONDS_PER_TASK)
        try:
            result = one_task(Path(path), name, Path(scratch))
        except _Timeout:
            result = {"task": name, "stage": "census", "reason": f"timeout after {SECONDS_PER_TASK} s"}
        except BaseException as error:  # noqa: BLE001
            result = {"task": name, "stage": "census", "reason": reason(error)}
        finally:
            signal.alarm(0)
        queue.put(result)
    queue.put(None)


def run_chunk(context: Any, chunk: list[tuple[str, str]], scratch: str) -> list[dict[str, Any]]:
    """The chunk's results; a child that dies leaves its remaining tasks to children of one task each."""
    queue = context.Queue()
    process = context.Process(target=child, args=(chunk, scratch, queue))
    process.start()
    results: list[dict[str, Any]] = []
    while True:
        try:
            item = queue.get(timeout=SECONDS_PER_TASK + 30)
        except Exception:  # noqa: BLE001 (queue.Empty: the child is stuck or gone)
            item = None
            if process.is_alive():
                process.kill()
        if item is None:
            break
        results.append(item)
    process.join()
    done = len(results)
    if done < len(chunk):
        if len(chunk) == 1:
            return [{"task": chunk[0][1], "stage": "census", "reason": f"child exited {process.exitcode}"}]
        results.append({"task": chunk[done][1], "stage": "census", "reason": f"child exited {process.exitcode}"})
        for task in chunk[done + 1 :]:
            results += run_chunk(context, [task], scratch)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="only the first N task files (sorted)")
    parser.add_argument("--sample", type=int, help="only N task files picked at random (seed 0), for a quick look")
    parser.add_argument("--tasks", nargs="+", metavar="NAME", help="only these tasks")
    version = importlib.metadata.version("lm_eval")
    parser.add_argument("--out", default=str(Path(__file__).parent / f"render_census_{version}.json"), help="the counts, and a few tasks of each reason")
    parser.add_argument("--results", metavar="FILE", help="also every task's outcome and reason")
    args = parser.parse_args()
    from lm_eval.tasks import TaskManager

    global _MANAGER
    started = time.monotonic()
    _MANAGER = TaskManager()
    index = TaskIndex(TASKS_ROOT)
    names = index.names()
    tasks = sorted(((entry.path, name) for name in names if (entry := index.find(name)) is not None and entry.kind in ("task", "python") and entry.path is not None), key=lambda t: (str(t[0]), t[1]))
    if args.limit:
        tasks = tasks[: args.limit]
    if args.sample:
        tasks = sorted(random.Random(0).sample(tasks, min(args.sample, len(tasks))))
    if args.tasks:
        tasks = [task for task in tasks if task[1] in args.tasks]
    context = multiprocessing.get_context("fork")
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as scratch:
        one_task(*tasks[0], Path(scratch))  # warm up the parent: the children share what it imported
        print(f"indexed {len(tasks)} task files in {time.monotonic() - started:.0f} s", file=sys.stderr)
        chunks = [[(str(path), name) for path, name in tasks[i : i + CHUNK]] for i in range(0, len(tasks), CHUNK)]
        for chunk in chunks:
            results += run_chunk(context, chunk, scratch)
            print(f"{len(results)}/{len(tasks)} tasks, {time.monotonic() - started:.0f} s", file=sys.stderr)
    stages = Counter(r["stage"] for r in results)
    reasons = Counter((r["stage"], r.get("reason", "")) for r in results if r["stage"] != "same")
    examples: dict[tuple[str, str], list[str]] = {}
    for r in results:
        if r["stage"] != "same":
            examples.setdefault((r["stage"], r.get("reason", "")), []).append(r["task"])
    summary = {
        "lm_eval_version": version,
        "task_files": len(tasks),
        "stages": dict(stages.most_common()),
        "reasons": [{"stage": stage, "reason": why, "tasks": count, "examples": examples[(stage, why)][:5]} for (stage, why), count in reasons.most_common()],
    }
    Path(args.out).write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.results:
        Path(args.results).write_text(json.dumps(results, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(tasks)} task files of {TASKS_ROOT} ({time.monotonic() - started:.0f} s)\n")
    print("| outcome | tasks |\n|---|---:|")
    for stage, count in stages.most_common():
        print(f"| {stage} | {count} |")
    print("\n| outcome | reason | tasks |\n|---|---|---:|")
    for (stage, why), count in reasons.most_common(40):
        print(f"| {stage} | {why} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
