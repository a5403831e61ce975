"""``promptkit preview`` (for people), ``promptkit render`` (for programs), ``promptkit validate`` (data files)."""

from __future__ import annotations

import argparse
import fnmatch
import importlib.metadata
import logging
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from promptkit.cli._inputs import InputFile, config_files, dataset_inputs, model_inputs, refuse_overwrite
from promptkit.cli._output import AtomicFile, GuardedStream, Interrupted, JsonText, OutputError, ReaderGone, detach_stdout, stop_on_signals
from promptkit.cli.examples import with_examples
from promptkit.cli.validate import add_parser as add_validate_parser
from promptkit.cli.validate import file_dataset
from promptkit.cli.validate import run as run_validate
from promptkit.config import DatasetSpec, load_datasets, load_models
from promptkit.config.overrides import Overrides, parse_value
from promptkit.controls import SHOT_LAYOUTS, Controls
from promptkit.conversation import load_replies
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.data.progress import Progress
from promptkit.engines import ENGINE_FORMATS, EngineFormat, engine_format
from promptkit.errors import ConfigError, DatasetError, PromptkitError
from promptkit.formats import FORMATS
from promptkit.meta_templates import Model
from promptkit.parallel import render_parallel
from promptkit.pipeline import RenderedPrompt, Renderer
from promptkit.token_counters import HFTokenizer
from promptkit.token_view import TokenEncoder

if TYPE_CHECKING:
    from rich.console import Console

    from promptkit.cli.progress import TerminalProgress


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="promptkit", description="See and export the exact prompts a dataset config gives each model.", **with_examples("promptkit")
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("dataset_config", help="dataset config file (defines `datasets = [...]`), or a .jsonl data file with --format")
        sub.add_argument("--format", choices=sorted(FORMATS), help="read DATASET_CONFIG as a data file of this format, with its default templates")
        sub.add_argument(
            "--model",
            metavar="MODEL_CONFIG",
            action="append",
            help="model config file (defines `models = [...]`), repeatable: each model is shown or rendered in turn; "
            "default: a completion model with no meta template",
        )
        sub.add_argument("--dataset", metavar="ABBR", help="only the datasets whose abbr matches: an abbr, or a glob such as 'mmlu_*'")
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
        controls_group(sub)

    preview = commands.add_parser("preview", help="show rendered prompts to a person: shots, PromptList, final input", **with_examples("preview"))
    common(preview)
    preview.add_argument("--index", type=int, default=0, metavar="N", help="first test row to show (default 0)")
    preview.add_argument("--count", type=int, default=1, metavar="K", help="how many rows to show (default 1)")
    preview.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour output; auto (the default): when stdout is a terminal and NO_COLOR is not set",
    )
    preview.add_argument("--full", action="store_true", help="show every shot in full (default: a shot of several lines folded to one)")

    render = commands.add_parser("render", help="write every final prompt as JSON Lines", **with_examples("render"))
    common(render)
    render.add_argument("--indices", metavar="SPEC", help="test rows to render, e.g. '0,3,10-19' or ':100' (default: all)")
    render.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    render.add_argument("--spans", action="store_true", help="add each piece's character span (system, shots, query, answer slot, wrappers)")
    render.add_argument(
        "--workers",
        type=_positive,
        default=1,
        metavar="N",
        help="render with up to N processes (same output, in the same order): at most one per CPU and per chunk of 512 test rows, "
        "fewer said on stderr; shots are picked once, in the parent (default 1)",
    )
    render.add_argument(
        "--tokens",
        action="store_true",
        help="add input_ids, each token's piece (token_labels), the answer loss_mask and, for ppl/ll prompts, the junction; "
        "tokenized with --tokenizer, else the model config's tokenizer (not for chat API models)",
    )
    render.add_argument(
        "--as",
        dest="as_format",
        choices=("records", *ENGINE_FORMATS),
        default="records",
        help="what each line is: the render record (default), a line of an OpenAI Batch API file, or the arguments of "
        "vLLM's LLM.generate/LLM.chat (docs/cli.md shows both)",
    )

    from promptkit.cli import check_template

    check_template.add_parser(commands)
    from promptkit.cli import view

    view.add_parser(commands)
    add_validate_parser(commands)
    from promptkit.cli import lint

    lint.add_parser(commands)
    from promptkit.cli import diff, snapshot

    diff.add_parser(commands)
    snapshot.add_parser(commands)
    return parser


def _version() -> str:
    try:
        return importlib.metadata.version("promptkit")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def controls_group(sub: argparse.ArgumentParser) -> None:
    """The run-time overrides and prompt controls (docs/cli.md#overrides-and-controls)."""
    group = sub.add_argument_group("overrides and prompt controls (over the model's and the dataset's; see docs/cli.md)")
    group.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a dataset config key, dotted as mmengine's --cfg-options (infer_cfg.inferencer.max_out_len=512); "
        "VALUE is a Python literal, else a string; repeatable",
    )
    group.add_argument("--num-fewshot", type=int, metavar="K", help="how many shots the retriever picks (ice_num, or the first K of fix_id_list)")
    group.add_argument("--system-prompt", metavar="TEXT", help="the prompts' system turn (replaces the template's SYSTEM item in begin, or adds one)")
    group.add_argument("--thinking", choices=("on", "off"), help="the chat template's thinking switch (enable_thinking for Qwen3); refused in ppl mode")
    group.add_argument(
        "--chat-template-kwarg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a chat-template variable (VALUE a Python literal, else a string); API chat models send it as chat_template_kwargs; repeatable",
    )
    group.add_argument(
        "--shots",
        choices=SHOT_LAYOUTS,
        help="shot layout: as_turns (string shots as HUMAN/BOT turns), in_user_turn (chat shots in the user turn), as_configured",
    )


def _run_controls(args: argparse.Namespace) -> Controls | None:
    """The run's prompt controls from the flags (None when no flag is given)."""
    kwargs = {}
    for line in args.chat_template_kwarg:
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--chat-template-kwarg {line!r}: write KEY=VALUE, e.g. --chat-template-kwarg reasoning_effort=low")
        kwargs[key.strip()] = parse_value(value.strip())
    thinking = None if args.thinking is None else args.thinking == "on"
    controls = Controls(thinking, kwargs, args.shots, args.system_prompt)
    return None if not controls.describe() else controls


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


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
    if args.command == "view":
        from promptkit.cli.view import run as run_view

        return run_view(args)
    if args.command == "lint":
        from promptkit.cli.lint import run as run_lint

        return run_lint(args)
    if args.command == "diff":
        from promptkit.cli.diff import run as run_diff

        return run_diff(args)
    if args.command == "snapshot":
        from promptkit.cli.snapshot import run as run_snapshot

        return run_snapshot(args)
    return _render(args)


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _quiet(stdout: TextIO) -> None:
    """After stdout failed: nothing more reaches it, not even the interpreter's last flush (a process's own stdout only)."""
    if stdout is sys.__stdout__:
        detach_stdout()


def _load(args: argparse.Namespace) -> tuple[list[DatasetSpec], list[Model | None]]:
    """The datasets (``--dataset`` applied) and models of a run."""
    overrides = Overrides(tuple(args.set), args.num_fewshot)
    if args.format:
        if args.rows or args.data_root or overrides:
            raise ConfigError("--rows, --data-root, --set and --num-fewshot are for dataset configs; with --format, DATASET_CONFIG is itself the data file")
        datasets = [file_dataset(args.dataset_config, args.format)]
    else:
        datasets = load_datasets(args.dataset_config, data_root=args.data_root, rows=args.rows, overrides=overrides)
    if args.dataset is not None:
        datasets = _chosen(datasets, args.dataset, args.dataset_config)
    models: list[Model | None] = [model for path in args.model for model in load_models(path)] if args.model else [None]
    return datasets, models


def _chosen(datasets: list[DatasetSpec], pattern: str, config: str) -> list[DatasetSpec]:
    """``--dataset``: the datasets whose abbr is ``pattern`` or matches it as a glob (which ones is said on stderr)."""
    names = ", ".join(repr(d.abbr) for d in datasets)
    exact = [d for d in datasets if d.abbr == pattern]
    if exact:
        return exact
    chosen = [d for d in datasets if d.abbr is not None and fnmatch.fnmatchcase(d.abbr, pattern)]
    if not chosen:
        glob = any(char in pattern for char in "*?[")
        raise ConfigError(f"no dataset {'abbr matches' if glob else 'with abbr'} {pattern!r}; the config has {names}", config=config)
    _say(f"promptkit: --dataset {pattern!r} matches {len(chosen)} of {len(datasets)} datasets: {', '.join(repr(d.abbr) for d in chosen)}")
    return chosen


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
    for path in args.model or ():
        yield from config_files(path, "the model config")
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
    tokenizer = _token_view_tokenizer(model, token_counter) if getattr(args, "tokens", False) else None
    renderer = Renderer(
        dataset, model, token_counter=token_counter, replies=replies, progress=progress, controls=_run_controls(args), tokenizer=tokenizer
    )
    if replies:
        total = len(renderer)
        beyond = sorted(index for index in replies if index >= total)
        if beyond:
            raise ConfigError(
                f"--replies {args.replies}: row {beyond[0]} has replies but the test split has {total} rows (0 to {total - 1})",
                dataset=dataset.abbr,
            )
    return renderer


def _token_view_tokenizer(model: Model | None, given: HFTokenizer | None) -> TokenEncoder:
    """``--tokens``: the ``--tokenizer`` file, else the model config's ``tokenizer`` (one that gives offsets)."""
    if given is not None:
        return given
    counter = model.token_counter if model is not None else None
    if isinstance(counter, TokenEncoder):
        return counter
    which = f"model {model.abbr!r} has" if model is not None else "no --model is given, so there is"
    raise ConfigError(
        f"--tokens needs a tokenizer and {which} none that gives token offsets: pass --tokenizer TOKENIZER_JSON, or set "
        "tokenizer=dict(type='HFTokenizer', path='.../tokenizer.json') in the model config"
    )


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
    if args.spans and args.as_format != "records":
        raise ConfigError(f"--spans adds to the render records; it does not combine with --as {args.as_format}")
    writer = engine_format(args.as_format) if args.as_format != "records" else None
    failed = 0
    for dataset, model in _pairs(datasets, models):
        try:
            _write_dataset(args, dataset, model, replies, out, progress, writer)
        except DatasetError as error:
            if args.debug or args.out is not None:
                raise
            _say(f"promptkit: error: {error}")
            failed += 1
    if writer is not None and writer.dropped:
        logging.getLogger("promptkit.engines").warning(
            "--as %s: %s not taken by the target API; left out of every line", args.as_format, ", ".join(writer.dropped)
        )
    return failed


def _write_dataset(
    args: argparse.Namespace,
    dataset: DatasetSpec,
    model: Model | None,
    replies: dict[int, list[str]] | None,
    out: TextIO | AtomicFile,
    progress: Progress | None,
    writer: EngineFormat | None = None,
) -> None:
    renderer = _renderer(dataset, model, args, replies, progress)
    try:
        indices = parse_indices(args.indices, len(renderer)) if args.indices else None
    except PromptkitError as error:
        raise error.add_context(config=args.dataset_config, dataset=dataset.abbr) from None
    renderer.prepare()  # shots picked now, so that their progress is not counted as rendering
    lines_writer = writer
    if writer is not None and args.workers > 1:
        # Each worker writes with its own copy of a fresh writer (a dataset's ids never repeat within it); the file's
        # writer sees the first row here: a dataset written twice repeats its ids, and the parameters left out are
        # those of every prompt (a renderer's request block is one).
        lines_writer = engine_format(args.as_format)
        for prompt in renderer.render(indices[0] if indices else 0):
            _engine_line(args.dataset_config, writer, prompt)

    # Streamed: a row is read, rendered and written before the next is read (render_parallel in this process for 1 worker).
    encode = RecordLines(args.dataset_config, renderer if args.spans else None, lines_writer)
    for lines in render_parallel(renderer, args.workers, indices, encode):
        out.write(lines)


@dataclass(frozen=True)
class RecordLines:
    """A test row's prompts as ``promptkit render`` writes them: records (with their spans when ``spans_of``, the
    renderer, is given) or the lines of an engine format. A value, not a closure: workers that start fresh unpickle it."""

    config: str
    spans_of: Renderer | None
    engine: EngineFormat | None
    text: JsonText = field(default_factory=JsonText)

    def __call__(self, prompts: Sequence[RenderedPrompt]) -> str:
        lines = []
        for prompt in prompts:
            if self.engine is not None:
                lines.append(self.text(_engine_line(self.config, self.engine, prompt)) + "\n")
                continue
            record = prompt.to_record()
            if self.spans_of is not None:
                record["spans"] = [span.dump() for span in self.spans_of.spans(prompt, prompts)]
            lines.append(self.text(record) + "\n")
        return "".join(lines)


def _engine_line(config: str, writer: EngineFormat, prompt: RenderedPrompt) -> dict[str, Any]:
    """``prompt``'s line for the engine of ``--as``; an error names where the prompt is from."""
    try:
        return writer.line(prompt)
    except PromptkitError as error:
        raise error.add_context(config=config, dataset=prompt.dataset, model=prompt.model, row=prompt.index) from None


def _preview(args: argparse.Namespace) -> int:
    from promptkit.cli.preview import make_console, use_color

    console = make_console(use_color(args.color, sys.stdout))
    replies = load_replies(args.replies) if args.replies else None
    if args.count < 1:
        raise ConfigError(f"--count must be at least 1 (got {args.count})")
    failed = 0
    progress = _terminal_progress(args, transient=True)
    datasets, models = _load(args)
    for dataset in datasets:
        try:
            _preview_dataset(args, dataset, models, replies, console, progress)
        except DatasetError as error:  # a dataset whose rows cannot be read: reported, and the others still shown
            if args.debug:
                raise
            _say(f"promptkit: error: {error}")
            failed += 1
    return 1 if failed else 0


def _preview_dataset(
    args: argparse.Namespace,
    dataset: DatasetSpec,
    models: list[Model | None],
    replies: dict[int, list[str]] | None,
    console: Console,
    progress: TerminalProgress | None,
) -> None:
    """The dataset's rows, each shown for every model in turn (so that the models' inputs for one row sit together)."""
    from promptkit.cli.preview import Preview, show

    # Without replies, an 'every' dialogue shows its first turn (the preview says the rest needs --replies).
    renderers = [_renderer(dataset, model, args, replies if replies is not None else {}, progress) for model in models]
    total = len(renderers[0])
    if not 0 <= args.index < total:
        raise ConfigError(
            f"--index {args.index} is out of range: the test split has {total} rows (0 to {total - 1})",
            config=args.dataset_config,
            dataset=dataset.abbr,
        )
    stop = min(args.index + args.count, total)
    for renderer in renderers:
        renderer.prepare()  # shots picked, with their progress, before the preview is drawn
    show(renderers, range(args.index, stop), Preview(Path(args.dataset_config), full=args.full), console)


if __name__ == "__main__":
    sys.exit(main())
