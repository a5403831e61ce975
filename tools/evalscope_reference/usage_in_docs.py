"""Count how often EvalScope's own documentation runs each registered benchmark.

    python3 tools/evalscope_reference/usage_in_docs.py PATH_TO_EVALSCOPE_CHECKOUT [census.json]

Walks ``docs/``, ``examples/`` and the READMEs of an EvalScope checkout (text files: md, py, ipynb,
yaml, sh, json), skips the generated one-page-per-benchmark folders (``docs/*/benchmarks/``), and
collects the benchmark names inside ``datasets=[...]`` / ``'datasets': [...]`` lists and
``--datasets a b c`` command lines. Prints, for each registered benchmark named at least once, the
number of files that run it and the number of mentions, most used first. The registered names come
from ``census.json`` (default: the one beside this script).

This is how the harness chose the extra benchmarks of the parity suite (NOTES.md, "Which extra
benchmarks"). Standard library only.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

LIST_RE = re.compile(r"""datasets['"]?\s*[=:]\s*\[([^\]]*)\]""", re.S)
CLI_RE = re.compile(r"--datasets\s+((?:[A-Za-z0-9_\-]+[ \t]*)+)")
NAME_RE = re.compile(r"""['"]([A-Za-z0-9_\-]+)['"]""")
SUFFIXES = {".md", ".py", ".ipynb", ".yaml", ".yml", ".sh", ".json"}


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    root = Path(argv[0])
    census = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name("census.json")
    registered = {e["name"]: e["data_type"] for e in json.loads(census.read_text(encoding="utf-8"))["benchmarks"]}

    files: collections.Counter[str] = collections.Counter()
    mentions: collections.Counter[str] = collections.Counter()
    paths = [p for top in ("docs", "examples") for p in (root / top).rglob("*")] + list(root.glob("README*"))
    for path in paths:
        if not path.is_file() or path.suffix not in SUFFIXES or "benchmarks" in path.relative_to(root).parts[1:-1]:
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        found = set()
        for match in LIST_RE.finditer(text):
            names = NAME_RE.findall(match.group(1))
            found.update(names)
            mentions.update(names)
        for match in CLI_RE.finditer(text):
            names = match.group(1).split()
            found.update(names)
            mentions.update(names)
        files.update(found)

    rows = sorted((n for n in registered if files[n]), key=lambda n: (-files[n], -mentions[n], n))
    for name in rows:
        print(f"{name:32s} {registered[name]:16s} files={files[name]:3d} mentions={mentions[name]:3d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
