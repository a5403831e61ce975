"""EvalScope benchmarks: adapter files as its guide writes them, and registered benchmarks by name (``evalscope:NAME``).

The front end (:class:`EvalScopeBenchmarks`) reads a source that is ``evalscope:NAME`` or a ``.py`` file importing
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

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from promptkit.frontends import SourceOptions
    from promptkit.plan.dataset import DatasetSpec

__all__ = ["EvalScopeBenchmarks"]


class EvalScopeBenchmarks:
    """EvalScope's benchmarks: ``evalscope:NAME``, and adapter files (``.py`` files that import ``evalscope``)."""

    name = "evalscope"

    def reads(self, source: str) -> bool:
        from promptkit.frontends.evalscope.files import imports_evalscope

        return source.startswith("evalscope:") or imports_evalscope(Path(source))

    def load(self, source: str, options: SourceOptions) -> list[DatasetSpec]:
        from promptkit.frontends.evalscope.loader import load_benchmarks

        return load_benchmarks(source, options.data_root, options.rows, options.overrides)
