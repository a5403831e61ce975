"""``promptkit lint DATASET_CONFIG [--model MODEL_CONFIG] [--sample N] [--strict]``: the findings of :func:`promptkit.linting.lint`."""

from __future__ import annotations

import argparse
import json

from promptkit.cli.arguments import model_path_option, model_paths
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.errors import ConfigError
from promptkit.frontends import load_datasets
from promptkit.frontends.opencompass import load_models
from promptkit.linting import DEFAULT_ROWS, Finding, lint
from promptkit.meta_templates import Model

__all__ = ["add_arguments", "run"]


def add_arguments(sub: argparse.ArgumentParser) -> None:
    sub.description = (
        "Check a dataset config's templates, and a sample of its rows rendered for a model, for the mistakes that "
        "render silently (docs/lint.md lists the checks). Each finding names file:line, the dataset, the row and a fix. "
        "Exit status 0 unless --strict and a finding is an error or a warning."
    )
    sub.add_argument("dataset_config", help="dataset config file (defines `datasets = [...]`)")
    sub.add_argument(
        "--model", metavar="MODEL_CONFIG", help="model config file: adds the checks of roles, media placeholders and control tokens"
    )
    model_path_option(sub)
    sub.add_argument("--dataset", metavar="ABBR", help="only the dataset with this abbr")
    sub.add_argument(
        "--sample",
        type=int,
        default=DEFAULT_ROWS,
        metavar="N",
        help=f"test rows (and pool rows) to render per dataset (default {DEFAULT_ROWS})",
    )
    sub.add_argument(
        "--data-root", metavar="DIR", help=f"the folder OpenCompass's dataset classes read their data from; default: ${DATA_ROOT_ENV}"
    )
    sub.add_argument(
        "--rows",
        metavar="FILE",
        action="append",
        help="a data file of rows that feeds every dataset of the config instead of its own loader (as for render; SPLIT=FILE "
        "where the front end takes it, repeatable)",
    )
    sub.add_argument("--strict", action="store_true", help="exit 1 when a finding is an error or a warning (notes never fail)")
    sub.add_argument("--json", action="store_true", help="one JSON object per finding instead of text")


def run(args: argparse.Namespace) -> int:
    if args.sample < 0:
        raise ConfigError(f"--sample must be 0 or more (got {args.sample})")
    datasets = load_datasets(args.dataset_config, data_root=args.data_root, rows=args.rows)
    if args.dataset is not None:
        datasets = [d for d in datasets if d.abbr == args.dataset]
        if not datasets:
            raise ConfigError(f"no dataset with abbr {args.dataset!r}", config=args.dataset_config)
    models: list[Model | None] = list(load_models(args.model, model_paths=model_paths(args))) if args.model else [None]
    findings: list[Finding] = []
    for model in models:
        for dataset in datasets:
            findings.extend(lint(dataset, model, args.sample))
    for finding in findings:
        print(json.dumps(finding.dump(), ensure_ascii=False) if args.json else finding)
    if not args.json:
        counts = {severity: sum(f.severity == severity for f in findings) for severity in ("error", "warning", "note")}
        shown = ", ".join(f"{n} {severity}{'s' if n != 1 else ''}" for severity, n in counts.items() if n)
        pairs = len(datasets) * len(models)
        print(
            f"{shown or 'no findings'} in {pairs} dataset{'s' if pairs != 1 else ''}"
            + (f" × {len(models)} models" if len(models) > 1 else "")
        )
    return 1 if args.strict and any(finding.fails for finding in findings) else 0
