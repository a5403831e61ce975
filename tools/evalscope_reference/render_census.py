"""How many of EvalScope's registered text benchmarks promptkit renders a sample of: natively, through the installed
EvalScope's adapter, or not — and why not.

Run with a Python that has both EvalScope and promptkit's dependencies, from the repository root::

    /work/scratch/es-pk-venv/bin/python tools/evalscope_reference/render_census.py            # prints the table
    /work/scratch/es-pk-venv/bin/python tools/evalscope_reference/render_census.py --json out.json

(``setup_census_venv.sh`` builds it: the harness venv's packages, promptkit's dependencies, and the optional packages
some adapters need to be built — seqeval for the NER benchmarks, emoji and syllapy for ifbench.)

The text benchmarks are those of ``census.json`` (EvalScope 1.14.1's registry).  For each, promptkit renders
``evalscope:NAME`` (no ``--model``) on rows made here: EvalScope has no rows of its own to lend, and nothing is
downloaded.  A benchmark read natively renders its rows of ``tests/evalscope/data`` (with the ``dataset_args`` of its
``__default`` parity case) when it has them.  For any other,
the columns ``record_to_sample`` reads are found by calling it on a probing record (each key it reads, and the keys
it reads inside those), then a record is built with values of the shape the column's name suggests (a list of
options, a letter or an index for an answer, a date, text) and tried against the adapter until it gives a sample; six
such records (for a regrouped benchmark, with the subset column set so that the first subset gets them) are written
as a local dataset folder with one README config per loader subset and split, which promptkit reads as EvalScope
would.  "not" gives the first line of promptkit's refusal — or, for a record this script could not build, says so:
that is a limit of this census, not of promptkit.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import logging
import os
import re
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

_LIST_WORDS = re.compile(r"choices|options|endings|candidates|answers$|targets|labels$|examples|turns|history|contexts|docs|passages|items|list", re.I)
_ANSWER_WORDS = re.compile(r"^(answer|label|gold|target|correct|answerkey|answer_?idx|answer_?index|idx|golden|solution_idx|correct_answer)", re.I)
_NUMBER_WORDS = re.compile(r"level|year|count|num|score|difficulty|index$", re.I)
_DATE_WORDS = re.compile(r"date|time", re.I)
_JSON_WORDS = re.compile(r"json|metadata|test_cases|cases|kwargs|instruction_id", re.I)


class _Leaf(str):
    """A probed value: text that also records the keys read inside it."""

    def __new__(cls, path: tuple[str, ...], seen: dict[tuple[str, ...], None]) -> _Leaf:
        leaf = super().__new__(cls, "1")
        leaf.path, leaf.seen = path, seen
        return leaf

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            self.seen[(*self.path, key)] = None
            return _Leaf((*self.path, key), self.seen)
        return str.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key]

    def __index__(self) -> int:
        return 1

    def __int__(self) -> int:
        return 1


class _Probe(dict):
    """A record that says yes to every key and records which are read."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[str, ...], None] = {}

    def __getitem__(self, key: Any) -> Any:
        self.seen[(key,)] = None
        return _Leaf((key,), self.seen)

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key]

    def __contains__(self, key: Any) -> bool:
        return True


def probed_keys(adapter: Any) -> list[tuple[str, ...]]:
    probe = _Probe()
    with contextlib.suppress(Exception):
        adapter.record_to_sample(probe)
    return list(probe.seen)


def _value(name: str, profile: int, number: int) -> Any:
    if _ANSWER_WORDS.match(name):
        return ["A", 0, "1", 1, True][profile]
    if _LIST_WORDS.search(name):
        if re.search(r"messages|turns|history", name, re.I):
            return [{"role": "user", "content": f"Hello {number}"}]
        return [f"option {letter} {number}" for letter in "abcd"]
    if _DATE_WORDS.search(name):
        return "2024-06-01"
    if _NUMBER_WORDS.search(name):
        return [1, "1", 1, "1", 1][profile]
    if _JSON_WORDS.search(name):
        return "{}"
    return f"Text of {name}, number {number}."


def build_record(keys: list[tuple[str, ...]], profile: int, number: int) -> dict[str, Any]:
    record: dict[str, Any] = {}
    nested = collections.defaultdict(list)
    for path in keys:
        if len(path) > 1:
            nested[path[0]].append(path[1:])
    for path in keys:
        head = path[0]
        if head in record:
            continue
        if head in nested:
            inner = build_record([p for p in nested[head]], profile, number)
            record[head] = {key: (value if not isinstance(value, str) else [f"option {letter} {number}" for letter in "abcd"] if key in ("text", "label", "labels", "choices") else value) for key, value in inner.items()}
        else:
            record[head] = _value(str(head), profile, number)
    return record


def working_records(adapter: Any, count: int = 6) -> list[dict[str, Any]] | None:
    """``count`` records the adapter's ``record_to_sample`` turns into samples (and ``sample_filter`` keeps), or None."""
    keys = probed_keys(adapter)
    for profile in range(5):
        found = []
        for number in range(count):
            tried = list(keys)
            record = None
            for _ in range(12):
                candidate = build_record(tried, profile, number)
                try:
                    made = adapter.record_to_sample(candidate)
                except KeyError as error:
                    key = error.args[0] if error.args else None
                    if isinstance(key, str) and (key,) not in tried:
                        tried.append((key,))
                        continue
                    break
                except Exception:
                    break
                samples = made if isinstance(made, list) else [made]
                if samples and all(adapter.sample_filter(sample) for sample in samples):
                    record = _subset_aligned(adapter, candidate, samples[0])
                break
            if record is None:
                break
            found.append(record)
        if len(found) == count:
            return found
    return None


def _subset_aligned(adapter: Any, record: dict[str, Any], sample: Any) -> dict[str, Any] | None:
    """For a regrouped benchmark, the record changed so that its sample's subset_key is the first subset."""
    if not adapter.reformat_subset:
        return record
    target = adapter.subset_list[0]
    if sample.subset_key == target or (target == "default" and not sample.subset_key):
        return record
    for key, value in record.items():
        if not isinstance(value, (str, int)):
            continue
        for replacement in (target, target.split()[-1], _int(target.split()[-1])):
            if replacement is None:
                continue
            candidate = {**record, key: replacement}
            with contextlib.suppress(Exception):
                made = adapter.record_to_sample(candidate)
                first = made[0] if isinstance(made, list) else made
                if first.subset_key == target:
                    return candidate
    return None


def _int(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def write_folder(root: Path, reads: list[tuple[str, str, bool]], records: list[dict[str, Any]]) -> None:
    """A local datasets folder: one README config per loader subset, a file per split."""
    configs: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
    for index, (subset, split, _) in enumerate(dict.fromkeys(reads)):
        path = f"part{index}.jsonl"
        (root / path).write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8")
        configs[subset].append((split, path))
    lines = ["---", "configs:"]
    for subset, files in configs.items():
        lines += [f"- config_name: {json.dumps(subset)}", "  data_files:"]
        lines += [f"  - split: {json.dumps(split)}\n    path: {json.dumps(path)}" for split, path in files]
    (root / "README.md").write_text("\n".join([*lines, "---", ""]), encoding="utf-8")


def render_one(name: str, native: bool) -> tuple[str, str]:
    """('native' | 'installed' | 'not', the reason when not)."""
    from promptkit import PromptkitError, Renderer, load_datasets
    from promptkit.frontends.evalscope.api.adapters import RunConfig
    from promptkit.frontends.evalscope.installed import installed_benchmark
    from promptkit.frontends.evalscope.natives import NATIVES
    from promptkit.frontends.evalscope.pipeline import build_adapter, loader_subsets

    kind = "native" if native else "installed"
    cases = {case["name"]: case for case in json.loads((ROOT / "tests" / "evalscope" / "cases.json").read_text(encoding="utf-8"))}
    case = cases.get(f"{name}__default")
    try:
        if native and case is not None:
            data = ROOT / "tests" / "evalscope" / case["data"]
            overrides = [f"local_path={str(data)!r}", *(f"{key}={value!r}" for key, value in case["dataset_args"].items())]
        else:
            meta = NATIVES[name]() if native else installed_benchmark(name)
            run = RunConfig()
            adapter = build_adapter(meta, run, run if native else None, {"dataset": name})
            records = working_records(adapter)
            if records is None:
                return "not", "census: no record this script builds gives a sample (record_to_sample's columns)"
            folder = Path(tempfile.mkdtemp(prefix=f"census-{name}-"))
            write_folder(folder, loader_subsets(adapter), records)
            overrides = [f"local_path={str(folder)!r}"]
        specs = load_datasets(f"evalscope:{name}", overrides=overrides)
        prompt = next(iter(Renderer(specs[0])))
        if not prompt.to_record()["messages"]:
            return "not", "no messages"
        return kind, ""
    except PromptkitError as error:
        return "not", error.message.split("\n")[0]
    except Exception as error:  # a census row, not a crash: what raised
        return "not", f"{type(error).__name__}: {error}".split("\n")[0]


def reason_group(reason: str) -> str:
    """The reason's kind, for the summary."""
    for pattern, group in (
        (r"overrides (run_inference|_on_inference|_on_inference_start)", "builds the request at inference time (agent, multi-turn, decision API)"),
        (r"overrides (load\w*|_should_load_fewshot)", "loads its own rows"),
        (r"needs the package|No module named|cannot be built", "needs a package not installed here"),
        (r"^census:", "census could not build a record"),
        (r"carries (image|audio|video)", "media in the prompt"),
    ):
        if re.search(pattern, reason):
            return group
    return "other: " + reason[:90]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("names", nargs="*", help="only these benchmarks")
    args = parser.parse_args(argv)
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from promptkit.frontends.evalscope.natives import NATIVES

    census = json.loads((HERE / "census.json").read_text(encoding="utf-8"))
    text = [entry for entry in census["benchmarks"] if entry["data_type"] == "text" and (not args.names or entry["name"] in args.names)]
    rows = []
    for entry in text:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            outcome, reason = render_one(entry["name"], entry["name"] in NATIVES)
        rows.append({"name": entry["name"], "prompt_build": entry["prompt_build"], "outcome": outcome, "reason": reason})
        print(f"{entry['name']:<32} {outcome:<10} {reason[:150]}", flush=True)
    counts = collections.Counter(row["outcome"] for row in rows)
    print(f"\n{len(rows)} registered text benchmarks: {counts['native']} natively, {counts['installed']} through the installed adapter, {counts['not']} not")
    groups = collections.Counter(reason_group(row["reason"]) for row in rows if row["outcome"] == "not")
    print("\n| why not | benchmarks |\n|---|---|")
    for group, count in groups.most_common():
        print(f"| {group} | {count} |")
    by_build = collections.defaultdict(collections.Counter)
    for row in rows:
        by_build[row["prompt_build"]][row["outcome"]] += 1
    print("\n| prompt_build (census.json) | native | installed adapter | not |\n|---|---|---|---|")
    for build, outcome in sorted(by_build.items()):
        print(f"| {build} | {outcome['native']} | {outcome['installed']} | {outcome['not']} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
