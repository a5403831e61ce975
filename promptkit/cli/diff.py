"""``promptkit diff A B``: which pieces of which prompts differ between two configs, two models or two render files.

Exit status: 0 when every paired prompt is identical and no prompt is on one
side only, 1 when anything differs (or for bad input, with one error line).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from promptkit.cli._inputs import InputFile, config_files, refuse_overwrite
from promptkit.cli._output import AtomicFile
from promptkit.cli.arguments import model_path_option, model_paths, parse_indices
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.diff import DiffReport, RecordSet, diff_records, read_records, report_text
from promptkit.diff.records import Record, config_records
from promptkit.errors import ConfigError
from promptkit.render.renderer import Renderer

__all__ = ["add_arguments", "run"]


def add_arguments(sub: argparse.ArgumentParser) -> None:
    sub.description = (
        "Pair the prompts of A and B by id and report, per prompt, the pieces that changed (system prompt, "
        "shot 2 answer, meta-template wrapper, query ...) with an inline diff ([-removed-]{+added+}), then a summary. "
        "A and B are two dataset configs (with at most one --model), two `promptkit render` outputs (.jsonl; with "
        "--spans for pieces), or one dataset config given with two --model. Exit status 1 when anything differs."
    )
    sub.add_argument("inputs", nargs="+", metavar="A [B]", help="two dataset configs or two .jsonl render outputs; one dataset config with two --model")
    sub.add_argument(
        "--model",
        action="append",
        dest="models",
        default=[],
        metavar="MODEL_CONFIG",
        help="the model of two dataset configs; given twice with one dataset config: the two models compared",
    )
    sub.add_argument("--dataset", metavar="GLOB", help="only datasets whose abbr matches this shell pattern")
    sub.add_argument("--indices", metavar="SPEC", help="test rows of each dataset, e.g. '0,3,10-19' or ':100' (default: all)")
    sub.add_argument("--data-root", metavar="DIR", help=f"the folder OpenCompass's dataset classes read from; default: ${DATA_ROOT_ENV}")
    sub.add_argument(
        "--rows",
        metavar="FILE",
        action="append",
        help="a data file of rows that feeds every dataset of the configs instead of its own loader, as for render",
    )
    sub.add_argument("--html", metavar="FILE.html", help="also write the report as one self-contained HTML page")
    model_path_option(sub)
    sub.add_argument("--no-spans", action="store_true", help="compare final inputs whole (for models whose template rewrites the text)")
    sub.add_argument("--context", type=int, default=30, metavar="N", help="characters of unchanged text shown around a change (default 30)")


def run(args: argparse.Namespace) -> int:
    a, b = sides(args)
    report = diff_records(a, b)
    print(report_text(report, args.context), end="")
    if args.html:
        write_html(report, args.html, _inputs(args))
    return 1 if report.differs else 0


def write_html(report: DiffReport, path: str, inputs: list[InputFile]) -> None:
    """The report's page at ``path`` (written whole or not at all; never over an input of the run)."""
    from promptkit.view.diff_page import diff_html

    refuse_overwrite(path, inputs)
    with AtomicFile(path) as out:
        out.write(diff_html(report))


def sides(args: argparse.Namespace) -> tuple[RecordSet, RecordSet]:
    """A and B from the arguments: two render files, two dataset configs, or one dataset config and two models."""
    inputs, models = args.inputs, args.models
    if len(inputs) > 2:
        raise ConfigError(f"diff compares two things; got {len(inputs)} inputs: {' '.join(inputs)}")
    records = [_is_records(path) for path in inputs]
    if any(records):
        if not all(records) or len(inputs) != 2:
            raise ConfigError("give two render outputs (.jsonl), or dataset configs; not one of each")
        if models or args.dataset or args.indices or args.data_root or args.rows or args.no_spans:
            raise ConfigError(
                "--model, --dataset, --indices, --data-root, --rows and --no-spans are for dataset configs; render files are compared as written"
            )
        return read_records(inputs[0]), read_records(inputs[1])
    if len(inputs) == 1:
        if len(models) != 2:
            raise ConfigError(f"one dataset config compares two models: give --model twice (got {len(models)})")
        return RecordSet(models[0], _records(args, inputs[0], models[:1])), RecordSet(models[1], _records(args, inputs[0], models[1:]))
    if len(models) > 1:
        raise ConfigError(f"two dataset configs are compared for one model: give --model once at most (got {len(models)})")
    shown = f" with {models[0]}" if models else ""
    return RecordSet(inputs[0] + shown, _records(args, inputs[0], models)), RecordSet(inputs[1] + shown, _records(args, inputs[1], models))


def _records(args: argparse.Namespace, config: str, models: list[str]) -> list[Record]:

    def rows(renderer: Renderer) -> list[int] | None:
        return parse_indices(args.indices, len(renderer)) if args.indices else None

    return config_records(
        [config], models, dataset=args.dataset, data_root=args.data_root, rows=args.rows, indices=rows, spans=not args.no_spans, model_paths=model_paths(args)
    )


def _is_records(path: str) -> bool:
    return Path(path).suffix == ".jsonl"


def _inputs(args: argparse.Namespace) -> list[InputFile]:
    out = []
    for path in args.inputs:
        out += [InputFile(Path(path), "a render output")] if _is_records(path) else list(config_files(path, "a dataset config"))
    for path in args.models:
        out += config_files(path, "a model config")
    return out
