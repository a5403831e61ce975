"""EvalScope benchmarks: adapter files as its guide writes them, and registered benchmarks by name (``evalscope:NAME``).

The front end (:class:`promptkit.frontends.EvalScopeBenchmarks`) reads a source that is ``evalscope:NAME`` or a ``.py`` file importing
``evalscope``, and hands the stages one dataset spec per subset whose rows are the messages EvalScope 1.x sends for
each sample (:mod:`.loader`).  The package, in the order a source is read:

* :mod:`.files` — an adapter file, run with its ``evalscope.*`` imports served (:mod:`.imports`, :mod:`.api`: promptkit's
  ``BenchmarkMeta``, ``DefaultDataAdapter``, ``MultiChoiceAdapter``, ``Sample`` …) or EvalScope's own when installed;
* :mod:`.natives` — the benchmarks read natively; :mod:`.installed` — the others, by EvalScope's own adapter class;
* :mod:`.options` — ``--set``/``--num-fewshot`` as ``dataset_args``, ``--rows`` per loader subset and split;
* :mod:`.layouts` — the local data layouts EvalScope's loaders read;
* :mod:`.pipeline` — EvalScope's loading and prompt pipeline over the adapter's hooks;
* :mod:`.inference` — what each sample's record carries.

docs/evalscope.md is the user's guide.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["PREFIX", "imports_evalscope"]

#: How a source names a registered benchmark: ``evalscope:gsm8k``.
PREFIX = "evalscope:"
_IMPORTS = re.compile(rb"^[ \t]*(?:from[ \t]+evalscope[ \t.]|import[ \t]+evalscope\b)", re.M)


def imports_evalscope(path: Path) -> bool:
    """Whether ``path`` is a Python file with an ``import evalscope…`` or ``from evalscope… import`` line (an adapter file)."""
    if path.suffix != ".py" or not path.is_file():
        return False
    try:
        return _IMPORTS.search(path.read_bytes()) is not None
    except OSError:
        return False
