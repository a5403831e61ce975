"""The numbers docs/compat.md and the README quote, measured again and printed.

    python3 tools/doc_numbers.py [--opencompass DIR] [--aisbench DIR] [--parity-report FILE]

Run it with the promptkit to measure (``PYTHONPATH=.`` from a checkout) in an
environment where neither OpenCompass nor AISBench is installed, as a user of
promptkit has it.  Each line is ``what: number`` and names the doc that quotes it.

* ``--opencompass DIR``: OpenCompass's dataset configs (``opencompass/configs/datasets`` of a
  checkout, or of the installed ``opencompass`` 0.5.4 package); each ``*.py`` but ``__init__.py`` is
  loaded with ``promptkit.load_datasets`` and counts as loading when that returns its datasets.  The
  failures are counted by their cause (the error's message, its varying parts left out).
* ``--aisbench DIR``: AISBench's (``ais_bench/benchmark/configs/datasets`` of the
  ``ais-bench-benchmark`` 3.1.20260630 wheel), the same way.
* ``--parity-report FILE``: the JSON report of ``tools/opencompass_reference/parity_real_configs.py``
  (the README's sample of OpenCompass's configs × 3 model setups): its counts by outcome.
* Always: the parity suites' cases (``tests/parity*/``), the loader cases, the dataset classes read natively.

Loading a config runs its code (as OpenCompass does): run this on config folders you trust.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import logging
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Parts of an error message that vary per file: paths, quoted names, numbers.
_VARYING = (
    (re.compile(r"(?:/[\w.+-]+)+/?"), "PATH"),
    (re.compile(r"(config|file) [^,:]+[,:]"), r"\1 …:"),
    (re.compile(r"'[^']*'"), "'…'"),
    (re.compile(r'"[^"]*"'), '"…"'),
    (re.compile(r"\b\d+\b"), "N"),
)


def config_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if path.name != "__init__.py")


def load_all(folder: Path) -> dict[Path, str | None]:
    """Each config file: ``None`` when it loads, else the cause of its error (see :func:`_cause`)."""
    from promptkit import load_datasets
    from promptkit.errors import PromptkitError

    results: dict[Path, str | None] = {}
    for path in config_files(folder):
        try:
            load_datasets(path)
        except PromptkitError as error:
            results[path] = _cause(error.message)
        except Exception as error:  # a config that breaks promptkit's loader itself: counted as such, by its type
            results[path] = f"internal error: {type(error).__name__}"
        else:
            results[path] = None
    return results


def _cause(message: str) -> str:
    text = message.split("; ")[0]
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    return text[:140]


def parity_cases() -> Iterator[tuple[str, str]]:
    for name in ("parity/cases.json", "parity/chat_template_cases.json", "parity_ais/cases.json"):
        cases = json.loads((ROOT / "tests" / name).read_text(encoding="utf-8"))
        datasets = {case["dataset"] for case in cases}
        models = {case["model"] for case in cases if case.get("model")}
        yield f"tests/{name}", f"{len(cases)} cases on {len(datasets)} dataset and {len(models)} model configs"


def loader_cases() -> int:
    """The cases of tests/data/test_opencompass_loaders.py: the keys of its ``CASES`` dict."""
    tree = ast.parse((ROOT / "tests" / "data" / "test_opencompass_loaders.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "CASES" for t in targets) and isinstance(node.value, ast.Dict):
                return len(node.value.keys)
    raise SystemExit("tests/data/test_opencompass_loaders.py has no CASES dict")


def say(what: str, value: object, where: str) -> None:
    print(f"{what}: {value}    [{where}]")


def report_configs(label: str, folder: Path, doc: str) -> None:
    results = load_all(folder)
    loaded = [path for path, cause in results.items() if cause is None]
    say(f"{label} dataset config files that load", f"{len(loaded):,} of {len(results):,}", doc)
    raw = [path for path in results if "RawPromptTemplate" in path.read_text(encoding="utf-8", errors="replace")]
    say(f"{label} config files using RawPromptTemplate that load", f"{sum(results[path] is None for path in raw):,} of {len(raw):,}", doc)
    for cause, count in Counter(cause for cause in results.values() if cause is not None).most_common(12):
        print(f"    {count:5,}  {cause}")


def report_classes(folder: Path, native: set[str]) -> None:
    """The dataset classes the configs use as ``type=`` (tools/opencompass_reference/rank_dataset_classes.py's count) and
    how many of the most used promptkit reads natively."""
    spec = importlib.util.spec_from_file_location("rank_dataset_classes", ROOT / "tools" / "opencompass_reference" / "rank_dataset_classes.py")
    assert spec is not None and spec.loader is not None
    rank = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rank)
    files = sorted(folder.rglob("*.py"))
    counts: Counter[str] = Counter()
    for path in files:
        counts.update(rank.dataset_classes_used(path.read_text(encoding="utf-8", errors="replace")))
    ordered = [name for name, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    doc = "docs/compat.md#which-classes-the-configs-use-measured"
    say("OpenCompass config files read for the class ranking, dataset classes they use", f"{len(files):,} files, {len(counts):,} classes", doc)
    for top in (25, 40):
        say(f"    read natively among the top {top}", sum(name in native for name in ordered[:top]), doc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opencompass", type=Path, metavar="DIR", help="OpenCompass's opencompass/configs/datasets folder")
    parser.add_argument("--aisbench", type=Path, metavar="DIR", help="AISBench's ais_bench/benchmark/configs/datasets folder")
    parser.add_argument("--parity-report", type=Path, metavar="FILE", help="the --report of tools/opencompass_reference/parity_real_configs.py")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)  # configs that load with a warning still load; the warnings are not the numbers
    sys.path.insert(0, str(ROOT))
    from promptkit.data.opencompass import OPENCOMPASS_DATASETS

    for name, counted in parity_cases():
        say(f"parity cases, {name}", counted, "docs/compat.md")
    say("loader cases (tests/data/test_opencompass_loaders.py)", loader_cases(), "docs/compat.md#dataset-classes")
    say("OpenCompass dataset classes read natively", len(OPENCOMPASS_DATASETS), "docs/compat.md#dataset-classes")
    if args.opencompass is not None:
        report_configs("OpenCompass", args.opencompass, "docs/compat.md#porting")
        report_classes(args.opencompass, set(OPENCOMPASS_DATASETS))
    if args.aisbench is not None:
        report_configs("AISBench", args.aisbench, "docs/compat.md#porting")
    if args.parity_report is not None:
        pairs = json.loads(args.parity_report.read_text(encoding="utf-8"))["pairs"]
        outcomes = Counter("deliberate" if pair["status"].startswith("deliberate") else pair["status"] for pair in pairs)
        configs = {pair["config"] for pair in pairs}
        say("parity sample (config x model pairs)", f"{len(pairs):,} pairs of {len(configs):,} configs", "README.md")
        for outcome, count in sorted(outcomes.items()):
            say(f"    {outcome}", f"{count:,}", "README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
