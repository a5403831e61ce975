"""``promptkit preview`` (for people), ``promptkit render`` (for programs), ``promptkit validate`` (data files)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from promptkit.cli._inputs import InputFile, config_files, dataset_inputs, model_inputs, refuse_overwrite
from promptkit.cli._output import AtomicFile, GuardedStream, Interrupted, OutputError, ReaderGone, detach_stdout, json_text, stop_on_signals
from promptkit.cli.validate import add_parser as add_validate_parser
from promptkit.cli.validate import file_dataset
from promptkit.cli.validate import run as run_validate
from promptkit.config import DatasetSpec, load_datasets, load_models
from promptkit.conversation import load_replies
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.data.progress import Progress, tracked
from promptkit.errors import ConfigError, DatasetError, PromptkitError
from promptkit.formats import FORMATS
from promptkit.meta_templates import CompletionModel, Model
from promptkit.meta_templates.spans import find_spans
from promptkit.pipeline import Renderer
from promptkit.token_counters import HFTokenizer

if TYPE_CHECKING:
    from promptkit.cli.progress import TerminalProgress


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="promptkit", description="See and export the exact prompts a dataset config gives each model.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    commands = parser.add_subparsers(dest="command", required=True)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("dataset_config", help="dataset config file (defines `datasets = [...]`), or a .jsonl data file with --format")
        sub.add_argument("--format", choices=sorted(FORMATS), help="read DATASET_CONFIG as a data file of this format, with its default templates")
        sub.add_argument("--model", metavar="MODEL_CONFIG", help="model config file (defines `models = [...]`); default: a completion model with no meta template")
        sub.add_argument("--dataset", metavar="ABBR", help="only the dataset with this abbr")
        sub.add_argument(
            "--replies",
            metavar="FILE",
            help="the model's replies for infer_mode='every' dialogues: JSON Lines of {\"index\", \"turn\", \"reply\"}; "
            "each row renders the turns its replies reach",
        )
        sub.add_argument(
            "--data-root",
            metavar="DIR",
            help=f"the folder OpenCompass's dataset classes read their data from (it holds data/mmlu/ ...); default: ${DATA_ROOT_ENV}",
        )
        sub.add_argument(
            "--rows",
            metavar="FILE",
            help="a data file of rows (.jsonl, .json, .csv, .parquet, .arrow, .feather, a datasets save_to_disk folder; text files also "
            ".gz/.bz2/.zst) that feeds every dataset of the config instead of its own loader (each keeps its reader_cfg and infer_cfg)",
        )
        sub.add_argument(
            "--tokenizer",
            metavar="TOKENIZER_JSON",
            help="count tokens with this Hugging Face tokenizer.json (instead of the model config's): enforces max_seq_len, "
            "and preview shows the tokens of each segment",
        )
        sub.add_argument(
            "--quiet", action="store_true", help="no progress bars on stderr (shown when stderr is a terminal); warnings and errors still are"
        )

    preview = commands.add_parser("preview", help="show rendered prompts to a person: shots, PromptList, final input")
    common(preview)
    preview.add_argument("--index", type=int, default=0, metavar="N", help="first test row to show (default 0)")
    preview.add_argument("--count", type=int, default=1, metavar="K", help="how many rows to show (default 1)")
    preview.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour output (default: when on a terminal)")

    render = commands.add_parser("render", help="write every final prompt as JSON Lines")
    common(render)
    render.add_argument("--indices", metavar="SPEC", help="test rows to render, e.g. '0,3,10-19' or ':100' (default: all)")
    render.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    render.add_argument("--spans", action="store_true", help="add each piece's character span (system, shots, query, answer slot, wrappers)")

    from promptkit.cli import check_template

    check_template.add_parser(commands)
    add_validate_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    with stop_on_signals():
        args = _parser().parse_args(argv)
        logging.basicConfig(level=logging.WARNING, format="promptkit: warning: %(message)s", stream=sys.stderr)
        for handler in logging.getLogger().handlers:
            handler.setLevel(logging.WARNING)  # libraries that set their own logger to DEBUG (bm25s) stay quiet
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The command, and how it ends: 0, 1 with one line for bad input, 128 + N on signal N, never a traceback (unless --debug)."""
    stdout = sys.stdout
    try:
        with redirect_stdout(GuardedStream(stdout, "stdout")):  # type: ignore[type-var]  # a TextIO in all but name
            status = _command(args)
            sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
            return status
    except Interrupted as stop:
        _say("promptkit: interrupted")
        return stop.exit_status
    except KeyboardInterrupt:  # main() run outside the main thread, where SIGINT keeps Python's own handler
        _say("promptkit: interrupted")
        return 130
    except (ReaderGone, BrokenPipeError):  # the reader went away (`| head`): a normal end
        _quiet(stdout)
        return 0
    except PromptkitError as error:
        if args.debug:
            raise
        if isinstance(error, OutputError):
            _quiet(stdout)
        _say(f"promptkit: error: {error}")
        return 1
    except Exception as error:  # the last resort: promptkit's own errors and write failures are caught above
        if args.debug:
            raise
        if isinstance(error, OSError) and error.filename is not None:
            _say(f"promptkit: error: file {error.filename}: {error.strerror}")
        else:
            _say(f"promptkit: error: internal error: {type(error).__name__}: {error} (run with --debug for the traceback)")
        return 1


def _command(args: argparse.Namespace) -> int:
    if args.command == "preview":
        return _preview(args)
    if args.command == "validate":
        return run_validate(args)
    if args.command == "check-template":
        from promptkit.cli.check_template import run

        return run(args)
    return _render(args)


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _quiet(stdout: TextIO) -> None:
    """After stdout failed: nothing more reaches it, not even the interpreter's last flush (a process's own stdout only)."""
    if stdout is sys.__stdout__:
        detach_stdout()


def _load(args: argparse.Namespace) -> tuple[list[DatasetSpec], list[Model | None]]:
    """The datasets (``--dataset`` applied) and models of a run."""
    if args.format:
        if args.rows or args.data_root:
            raise ConfigError("--rows and --data-root are for dataset configs; with --format, DATASET_CONFIG is itself the data file")
        datasets = [file_dataset(args.dataset_config, args.format)]
    else:
        datasets = load_datasets(args.dataset_config, data_root=args.data_root, rows=args.rows)
    if args.dataset is not None:
        chosen = [d for d in datasets if d.abbr == args.dataset]
        if not chosen:
            raise ConfigError(
                f"no dataset with abbr {args.dataset!r}; the config has {', '.join(repr(d.abbr) for d in datasets)}",
                config=args.dataset_config,
            )
        datasets = chosen
    models: list[Model | None] = list(load_models(args.model)) if args.model else [None]
    return datasets, models


def _pairs(datasets: list[DatasetSpec], models: list[Model | None]) -> Iterator[tuple[DatasetSpec, Model | None]]:
    for model in models:
        for dataset in datasets:
            yield dataset, model


def _inputs(args: argparse.Namespace, datasets: list[DatasetSpec], models: list[Model | None]) -> Iterator[InputFile]:
    """Every file the run reads that is known before rendering (see :mod:`promptkit.cli._inputs`)."""
    if args.format:
        yield InputFile(Path(args.dataset_config), "the data file")
    else:
        yield from config_files(args.dataset_config, "the dataset config")
    if args.model:
        yield from config_files(args.model, "the model config")
    if args.replies:
        yield InputFile(Path(args.replies), "the --replies file")
    if args.rows:
        yield InputFile(Path(args.rows), "the --rows file")
    if args.tokenizer:
        yield InputFile(Path(args.tokenizer), "the --tokenizer file")
    for dataset in datasets:
        yield from dataset_inputs(dataset)
    for model in models:
        if model is not None:
            yield from model_inputs(model)


def parse_indices(spec: str, total: int) -> list[int]:
    """``'0,3,10-19'`` or ``':100'`` → sorted unique row indices, each checked against ``total``; each part must select a row."""
    rows = f"the test split has {total} rows, 0 to {total - 1}" if total else "the test split has no rows"
    chosen: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        try:
            if ":" in part:
                bounds = [int(x) if x.strip() else None for x in part.split(":")]
                if len(bounds) > 3:
                    raise ValueError
                selected = range(total)[slice(*bounds)]
                if not selected:
                    raise ConfigError(f"--indices {spec!r}: the slice {part!r} selects no row ({rows})")
                chosen.update(selected)
                continue
            if "-" in part:
                low, high = (int(x) for x in part.split("-", 1))
                if high < low:
                    raise ConfigError(f"--indices {spec!r}: the range {part!r} runs backwards; write {high}-{low}")
            else:
                low = high = int(part)
        except ValueError:
            raise ConfigError(f"--indices {spec!r}: {part!r} is not an index, a range like 10-19, or a slice like :100") from None
        for number in (low, high):  # the bounds first: a range is only built once it lies inside the split
            if not 0 <= number < total:
                raise ConfigError(f"--indices {spec!r}: index {number} is out of range ({rows})")
        chosen.update(range(low, high + 1))
    return sorted(chosen)


def _renderer(
    dataset: DatasetSpec, model: Model | None, args: argparse.Namespace, replies: dict[int, list[str]] | None, progress: Progress | None = None
) -> Renderer:
    token_counter = HFTokenizer(args.tokenizer) if args.tokenizer else None
    renderer = Renderer(dataset, model, token_counter=token_counter, replies=replies, progress=progress)
    if replies:
        total = len(renderer)
        beyond = sorted(index for index in replies if index >= total)
        if beyond:
            raise ConfigError(
                f"--replies {args.replies}: row {beyond[0]} has replies but the test split has {total} rows (0 to {total - 1})",
                dataset=dataset.abbr,
            )
    return renderer


def _terminal_progress(args: argparse.Namespace, transient: bool = False) -> TerminalProgress | None:
    """Bars on stderr when it is a terminal, unless ``--quiet`` or the records themselves go to that terminal."""
    if args.quiet or not sys.stderr.isatty():
        return None
    if args.command == "render" and args.out is None and sys.stdout.isatty():
        return None
    from promptkit.cli.progress import TerminalProgress  # rich, imported only when bars are drawn

    return TerminalProgress(transient=transient)


def _render(args: argparse.Namespace) -> int:
    replies = load_replies(args.replies) if args.replies else None
    datasets, models = _load(args)
    progress = _terminal_progress(args)
    if args.out is None:
        with progress or nullcontext():
            return 1 if _write_records(args, datasets, models, replies, sys.stdout, progress) else 0
    refuse_overwrite(args.out, _inputs(args, datasets, models))
    with AtomicFile(args.out) as out, progress or nullcontext():
        _write_records(args, datasets, models, replies, out, progress)
    return 0


def _write_records(
    args: argparse.Namespace,
    datasets: list[DatasetSpec],
    models: list[Model | None],
    replies: dict[int, list[str]] | None,
    out: TextIO | AtomicFile,
    progress: Progress | None,
) -> int:
    """Each prompt's record, one JSON line each, written as it is rendered; how many datasets failed (each reported).

    On stdout a dataset whose rows cannot be read is reported and the others are still rendered; ``--out`` is all
    or nothing, so there the first such error ends the run.
    """
    failed = 0
    for dataset, model in _pairs(datasets, models):
        try:
            _write_dataset(args, dataset, model, replies, out, progress)
        except DatasetError as error:
            if args.debug or args.out is not None:
                raise
            _say(f"promptkit: error: {error}")
            failed += 1
    return failed


def _write_dataset(
    args: argparse.Namespace,
    dataset: DatasetSpec,
    model: Model | None,
    replies: dict[int, list[str]] | None,
    out: TextIO | AtomicFile,
    progress: Progress | None,
) -> None:
    renderer = _renderer(dataset, model, args, replies, progress)
    try:
        indices = parse_indices(args.indices, len(renderer)) if args.indices else range(len(renderer))
    except PromptkitError as error:
        raise error.add_context(config=args.dataset_config, dataset=dataset.abbr) from None
    renderer.ice_indices  # noqa: B018 (shots picked now, so that their progress is not counted as rendering)
    encode = json_text()
    for index in tracked(indices, f"rendering {dataset.abbr}", len(indices), every=1, progress=progress):
        for prompt in renderer.render(index):
            record = prompt.to_record()
            if args.spans:
                try:
                    mode = renderer.mode if prompt.mode == "calib" else prompt.mode  # calib prompts render in the task's mode
                    spans = find_spans(model or CompletionModel(abbr=None), prompt.intermediate, mode)
                except PromptkitError as error:
                    raise error.add_context(dataset=dataset.abbr, model=prompt.model, row=prompt.index) from None
                record["spans"] = [span.dump() for span in spans]
            out.write(encode(record) + "\n")
    renderer.report()


def _preview(args: argparse.Namespace) -> int:
    force = {"always": True, "never": False}.get(args.color)
    replies = load_replies(args.replies) if args.replies else None
    if args.count < 1:
        raise ConfigError(f"--count must be at least 1 (got {args.count})")
    failed = 0
    progress = _terminal_progress(args, transient=True)
    for dataset, model in _pairs(*_load(args)):
        try:
            _preview_dataset(args, dataset, model, replies, force, progress)
        except DatasetError as error:  # a dataset whose rows cannot be read: reported, and the others still shown
            if args.debug:
                raise
            _say(f"promptkit: error: {error}")
            failed += 1
    return 1 if failed else 0


def _preview_dataset(
    args: argparse.Namespace,
    dataset: DatasetSpec,
    model: Model | None,
    replies: dict[int, list[str]] | None,
    force: bool | None,
    progress: TerminalProgress | None,
) -> None:
    from promptkit.cli.preview import show

    # Without replies, an 'every' dialogue shows its first turn (the preview says the rest needs --replies).
    renderer = _renderer(dataset, model, args, replies if replies is not None else {}, progress)
    total = len(renderer)
    if not 0 <= args.index < total:
        raise ConfigError(
            f"--index {args.index} is out of range: the test split has {total} rows (0 to {total - 1})",
            config=args.dataset_config,
            dataset=dataset.abbr,
        )
    stop = min(args.index + args.count, total)
    renderer.ice_indices  # noqa: B018 (shots picked, with their progress, before the preview is drawn)
    show(renderer, range(args.index, stop), config=Path(args.dataset_config), force_color=force)


if __name__ == "__main__":
    sys.exit(main())
