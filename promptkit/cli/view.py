"""``promptkit view DATASET_CONFIG… --out FILE.html``: the prompts of datasets × models as one self-contained HTML page."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from fnmatch import fnmatchcase
from pathlib import Path

from promptkit.cli._inputs import InputFile, config_files, dataset_inputs, model_inputs, refuse_overwrite, rows_input
from promptkit.cli._output import AtomicFile
from promptkit.cli.arguments import check_allow_bad, file_dataset, model_path_option, model_paths, parse_indices
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.data.progress import tracked
from promptkit.errors import ConfigError, PromptkitError
from promptkit.formats import FORMATS
from promptkit.frontends import load_datasets
from promptkit.frontends.opencompass import DatasetSpec, load_models
from promptkit.meta_templates import Model, TokenCounter
from promptkit.render.conversation import load_replies
from promptkit.render.renderer import Renderer
from promptkit.tokens.counters import HFTokenizer
from promptkit.view import HtmlView

__all__ = ["add_arguments", "run"]

def add_arguments(sub: argparse.ArgumentParser) -> None:
    sub.description = (
        "Render every prompt of the dataset configs for each model and write one self-contained HTML file "
        "(no network, nothing loaded from elsewhere): the PromptList with roles and sections, the final input with "
        "each piece coloured (system, shots and their answers, history, query, answer slot, the model's wrapper), "
        "control tokens and invisible characters marked, media as thumbnails, gold answers, token counts with a "
        "tokenizer, models side by side, search and filters, and each prompt's render record."
    )
    sub.add_argument("dataset_configs", nargs="+", metavar="DATASET_CONFIG", help="dataset config files (each defines `datasets = [...]`)")
    sub.add_argument("--out", required=True, metavar="FILE.html", help="the HTML file to write (replaced in full, or left as it was)")
    sub.add_argument(
        "--model",
        action="append",
        dest="models",
        metavar="MODEL_CONFIG",
        help="model config file (defines `models = [...]`); repeat to compare models side by side; "
        "default: a completion model with no meta template",
    )
    model_path_option(sub)
    sub.add_argument("--dataset", metavar="GLOB", help="only datasets whose abbr matches this shell pattern, e.g. 'mmlu*'")
    sub.add_argument("--indices", metavar="SPEC", help="test rows of each dataset, e.g. '0,3,10-19' or ':100' (default: all)")
    sub.add_argument("--title", help="the page's title (default: the dataset configs' names)")
    sub.add_argument("--format", choices=sorted(FORMATS), help="read each DATASET_CONFIG as a data file of this format, with its default templates")
    sub.add_argument("--allow-bad", action="store_true", help="with --format: report the records that break the format's rules and skip them")
    sub.add_argument(
        "--tokenizer", metavar="TOKENIZER_JSON", help="count tokens with this Hugging Face tokenizer.json (instead of the model config's)"
    )
    sub.add_argument(
        "--replies",
        metavar="FILE",
        help="the model's replies for infer_mode='every' dialogues (JSON Lines of {\"index\", \"turn\", \"reply\"}); "
        "without them such a dialogue shows its first turn",
    )
    sub.add_argument("--data-root", metavar="DIR", help=f"the folder OpenCompass's dataset classes read from; default: ${DATA_ROOT_ENV}")
    sub.add_argument(
        "--rows",
        metavar="FILE",
        action="append",
        help="a data file of rows ('-': JSON Lines piped in) that feeds every dataset instead of its own loader; SPLIT=FILE where "
        "the front end takes it, repeatable",
    )
    sub.add_argument("--quiet", action="store_true", help="no progress bars on stderr")


def run(args: argparse.Namespace) -> int:

    datasets = _datasets(args)
    models: list[Model | None] = [model for path in args.models for model in load_models(path, model_paths=model_paths(args))] if args.models else [None]
    replies = load_replies(args.replies) if args.replies else {}
    refuse_overwrite(args.out, _inputs(args, datasets, models))
    counter: TokenCounter | None = HFTokenizer(args.tokenizer) if args.tokenizer else None
    view = HtmlView(title=args.title or " · ".join(Path(path).stem for path in args.dataset_configs))
    progress = None
    if not args.quiet and sys.stderr.isatty():
        from promptkit.cli.progress import TerminalProgress  # rich, imported only when bars are drawn

        progress = TerminalProgress()
    with progress or nullcontext():
        for model in models:
            for dataset in datasets:
                renderer = Renderer(dataset, model, token_counter=counter, replies=replies, progress=progress)
                try:
                    indices = parse_indices(args.indices, len(renderer)) if args.indices else range(len(renderer))
                except PromptkitError as error:
                    raise error.add_context(config=str(dataset.config_path or ""), dataset=dataset.abbr) from None
                renderer.ice_indices  # noqa: B018 (shots picked now, so that their progress is not counted as rendering)
                view.add(renderer, tracked(indices, f"viewing {dataset.abbr}", len(indices), every=1, progress=progress))
    with AtomicFile(args.out) as out:
        out.write(view.html())
    print(f"{args.out}: {len(view)} prompts of {len(datasets)} dataset(s) x {len(models)} model(s)")
    return 0


def _datasets(args: argparse.Namespace) -> list[DatasetSpec]:
    """Every dataset of the configs, in order, with ``--dataset`` applied."""
    if args.format and (args.rows or args.data_root):
        raise ConfigError("--rows and --data-root are for dataset configs; with --format, DATASET_CONFIG is itself the data file")
    check_allow_bad(args)
    datasets: list[DatasetSpec] = []
    for path in args.dataset_configs:
        if args.format:
            datasets.append(file_dataset(path, args.format, args.allow_bad))
        else:
            datasets += load_datasets(path, data_root=args.data_root, rows=args.rows)
    if args.dataset is None:
        return datasets
    chosen = [dataset for dataset in datasets if fnmatchcase(dataset.abbr, args.dataset)]
    if not chosen:
        raise ConfigError(f"--dataset {args.dataset!r} matches no dataset; the configs have {', '.join(repr(d.abbr) for d in datasets)}")
    return chosen


def _inputs(args: argparse.Namespace, datasets: list[DatasetSpec], models: list[Model | None]) -> Iterator[InputFile]:
    """Every file the run reads: ``--out`` must be none of them."""
    for path in args.dataset_configs:
        if args.format:
            yield InputFile(Path(path), "the data file")
        else:
            yield from config_files(path, "a dataset config")
    for path in args.models or ():
        yield from config_files(path, "a model config")
    for path, what in ((args.replies, "the --replies file"), (args.tokenizer, "the --tokenizer file")):
        if path:
            yield InputFile(Path(path), what)
    for rows in args.rows or ():
        yield rows_input(rows)
    for dataset in datasets:
        yield from dataset_inputs(dataset)
    for model in models:
        if model is not None:
            yield from model_inputs(model)
