"""``promptkit snapshot write DIR CONFIG…`` pins the prompts of configs; ``snapshot check DIR`` fails when one changed."""

from __future__ import annotations

import argparse
from pathlib import Path

from promptkit.cli._inputs import InputFile
from promptkit.cli.arguments import model_path_option, model_paths
from promptkit.cli.diff import write_html
from promptkit.cli.examples import with_examples
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.diff import report_text
from promptkit.diff.text import summary
from promptkit.snapshots import Snapshot, check_snapshot, write_snapshot

__all__ = ["add_arguments", "run"]


def add_arguments(sub: argparse.ArgumentParser) -> None:
    sub.description = (
        "`write` renders every prompt of the dataset configs for each model and pins the records (with their "
        "spans, fingerprints and provenance) in DIR; `check` renders them again and compares: exit 1 with the diff of "
        "`promptkit diff` when a prompt or its record changed, 0 when all match."
    )
    actions = sub.add_subparsers(dest="action", required=True, metavar="{write,check}")
    write = actions.add_parser("write", help="render the configs and pin their records in DIR", **with_examples("snapshot"))
    write.add_argument("directory", metavar="DIR", help="the snapshot folder (created; an earlier snapshot there is replaced)")
    write.add_argument("dataset_configs", nargs="+", metavar="CONFIG", help="dataset config files")
    write.add_argument("--model", action="append", dest="models", default=[], metavar="MODEL_CONFIG", help="model config file; repeatable")
    write.add_argument("--dataset", metavar="GLOB", help="only datasets whose abbr matches this shell pattern")
    _data_arguments(write, "pinned in the manifest: check reads them again")
    check = actions.add_parser("check", help="render the pinned configs again and compare (exit 1 when anything changed)", **with_examples("snapshot"))
    check.add_argument("directory", metavar="DIR", help="a folder `promptkit snapshot write` wrote")
    check.add_argument("--html", metavar="FILE.html", help="also write the diff as one self-contained HTML page")
    check.add_argument("--context", type=int, default=30, metavar="N", help="characters of unchanged text shown around a change (default 30)")
    _data_arguments(check, "default: those the snapshot was written with")


def _data_arguments(sub: argparse.ArgumentParser, rows_note: str) -> None:
    """Where the datasets read their rows, as for render."""
    sub.add_argument("--data-root", metavar="DIR", help=f"the folder OpenCompass's dataset classes read their data from; default: ${DATA_ROOT_ENV}")
    sub.add_argument(
        "--rows",
        metavar="FILE",
        action="append",
        default=[],
        help=f"a data file of rows that feeds every dataset of the configs instead of its own loader, as for render ({rows_note})",
    )
    model_path_option(sub)


def run(args: argparse.Namespace) -> int:
    if args.action == "write":
        count = write_snapshot(
            args.directory, args.dataset_configs, args.models, dataset=args.dataset, data_root=args.data_root, rows=args.rows, model_paths=model_paths(args)
        )
        print(f"{args.directory}: {count} prompts of {len(args.dataset_configs)} config(s) x {max(len(args.models), 1)} model(s) pinned")
        return 0
    report = check_snapshot(args.directory, data_root=args.data_root, rows=args.rows, model_paths=model_paths(args))
    if args.html:
        snapshot = Snapshot(args.directory)
        inputs = [InputFile(Path(path), "a config of the snapshot") for path in snapshot.configs + snapshot.models]
        write_html(report, args.html, inputs)
    if report.differs:
        print(report_text(report, args.context), end="")
        return 1
    print(f"{args.directory}: {summary(report)}")
    return 0
