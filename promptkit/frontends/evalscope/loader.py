"""EvalScope benchmarks → dataset specs: one spec per subset, its rows the messages each sample sends.

:func:`load_benchmarks` reads a source — ``evalscope:NAME`` (a native benchmark, else the installed EvalScope's
adapter) or an adapter file — applies the run's ``dataset_args``, builds the adapter, reads the rows (the data folder,
``--rows``) and runs EvalScope's pipeline (:mod:`~promptkit.frontends.evalscope.pipeline`).  Each subset with
samples becomes a :class:`~promptkit.plan.dataset.DatasetSpec` named ``<benchmark>/<subset>``: its test split the
samples in EvalScope's order (a row: ``messages``, ``target``, ``choices``, ``subset``, ``id``), rendered with
:class:`~promptkit.templates.messages_template.MessagesTemplate` (so a model's meta template or chat template
receives the messages), no retriever (the shots are in the text, as EvalScope writes them), and
:class:`~promptkit.frontends.evalscope.inference.SampleInference`.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from promptkit.data.loaders import RowsDataset
from promptkit.data.reader import ReaderConfig
from promptkit.errors import ConfigError, did_you_mean
from promptkit.frontends.evalscope import PREFIX
from promptkit.frontends.evalscope.files import read_adapter_file
from promptkit.frontends.evalscope.inference import SampleInference
from promptkit.frontends.evalscope.installed import index_path, installed_benchmark, registered_names
from promptkit.frontends.evalscope.layouts import GivenFiles, HubFolder, LocalFiles, RowFiles
from promptkit.frontends.evalscope.natives import NATIVES
from promptkit.frontends.evalscope.options import dataset_args, rows_files
from promptkit.frontends.evalscope.pipeline import build_adapter, load_samples, loader_subsets, uses_local_loader
from promptkit.frontends.opencompass.overrides import Overrides
from promptkit.plan.dataset import DatasetSpec
from promptkit.retrievers.zero import ZeroRetriever
from promptkit.templates.messages_template import MessagesTemplate

__all__ = ["load_benchmarks"]


def load_benchmarks(source: str, data_root: Path | None, rows: tuple[str, ...], overrides: Overrides) -> list[DatasetSpec]:
    """The dataset specs of every benchmark ``source`` names or registers (see the module docstring)."""
    if source.startswith(PREFIX):
        metas, base, config = [_registered(source[len(PREFIX) :], source)], None, None
    else:
        path = Path(source)
        metas, base, config = read_adapter_file(path), path.parent, path
    specs = []
    for meta in metas:
        specs.extend(_benchmark(meta, source, base, config, data_root, rows, overrides))
    return specs


def _registered(name: str, source: str) -> Any:
    """The declaration of the registered benchmark ``name``: promptkit's native one, else the installed EvalScope's."""
    native = NATIVES.get(name)
    if native is not None:
        return native()
    found = installed_benchmark(name)
    if found is not None:
        return found
    installed = registered_names()
    if installed is None:
        raise ConfigError(
            f"{name!r} is not among the benchmarks promptkit reads natively{did_you_mean(name, NATIVES)} ({', '.join(sorted(NATIVES))}); "
            f"install evalscope to render its other registered benchmarks with EvalScope's own adapter, or write an adapter file "
            "for it (docs/evalscope.md)",
            config=source,
        )
    raise ConfigError(
        f"EvalScope registers no benchmark {name!r}{did_you_mean(name, [*NATIVES, *installed])}; its {len(installed)} benchmarks are "
        f"the names in {index_path()}",
        config=source,
    )


def _benchmark(
    meta: Any, source: str, base: Path | None, config: Path | None, data_root: Path | None, rows: tuple[str, ...], overrides: Overrides
) -> list[DatasetSpec]:
    where: dict[str, Any] = {"config": source, "dataset": meta.name}
    fields = [item.name for item in dataclasses.fields(meta)]
    args = dataset_args(overrides, fields, meta.name)
    try:
        meta._update(args.values)
    except (ValueError, KeyError) as error:
        raise ConfigError(f"dataset_args: {error.args[0] if error.args else error}", **where) from None
    on_promptkit = any(klass.__module__.startswith("promptkit.") for klass in type(meta).__mro__)
    run = args.run
    adapter = build_adapter(meta, run, run if on_promptkit else None, where)
    local = uses_local_loader(adapter, where)
    reads = loader_subsets(adapter)
    folder = _folder(meta, base, data_root)
    files: RowFiles | None = (LocalFiles if local else HubFolder)(folder) if folder is not None else None
    given = rows_files(rows, reads, adapter.subset_list) if rows else {}
    if given:
        files = GivenFiles(given, files)
    if files is None:
        needed = ", ".join(dict.fromkeys(f"{subset}:{split}" for subset, split, _ in reads))
        raise ConfigError(
            f"no data: EvalScope would download {meta.dataset_id!r}, and promptkit downloads nothing; give the local folder with "
            f"--set local_path=DIR (read as EvalScope reads it), --data-root DIR (for DIR/{meta.name}), or the rows with "
            f"--rows SUBSET:SPLIT=FILE (it reads {needed})",
            **where,
        )
    loaded = load_samples(adapter, files, run, local, where)
    if isinstance(files, GivenFiles):
        unused = [f"{subset}:{split}" for subset, split in given if (subset, split) not in files.used]
        if unused:
            raise ConfigError(f"--rows {', '.join(unused)}: read by nothing (the benchmark reads {', '.join(f'{s}:{p}' for s, p, _ in reads)})", **where)
    if not loaded.subsets:
        raise ConfigError(f"no subset of {list(adapter.subset_list)} has a sample to render", **where)
    template = MessagesTemplate(column="messages", answer_column="target", list_options=False)
    reader = ReaderConfig(input_columns=("messages",), output_column="target")
    return [
        DatasetSpec(
            abbr=f"{meta.name}/{subset}",
            loader=RowsDataset({"test": samples, "train": []}),
            reader=reader,
            ice_template=None,
            prompt_template=template,
            retriever=ZeroRetriever(),
            inferencer=SampleInference(),
            config_path=config,
            overrides=args.applied,
        )
        for subset, samples in loaded.subsets.items()
    ]


def _folder(meta: Any, base: Path | None, data_root: Path | None) -> Path | None:
    """The local data folder: ``dataset_id`` (``local_path``) when it is a path (beside an adapter file first), else
    ``<data_root>/<name>``."""
    dataset_id = Path(str(meta.dataset_id))
    for candidate in ([base / dataset_id] if base is not None and not dataset_id.is_absolute() else []) + [dataset_id]:
        if candidate.exists():
            return candidate
    if data_root is not None and (data_root / meta.name).exists():
        return data_root / meta.name
    return None
