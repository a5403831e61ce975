"""``promptkit render``: every final prompt as JSON Lines — the render records, or engine request lines (``--as``)."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import TextIO

from promptkit.cli._failures import DatasetFailures
from promptkit.cli._inputs import refuse_overwrite
from promptkit.cli._output import AtomicFile
from promptkit.cli.arguments import common, load_run, make_renderer, pairs, parse_indices, positive, run_inputs, say, terminal_progress
from promptkit.data.progress import Progress
from promptkit.errors import ConfigError, DatasetError, PromptkitError
from promptkit.meta_templates import Model
from promptkit.plan.dataset import DatasetSpec
from promptkit.records.engines import ENGINE_FORMATS, EngineFormat, engine_format
from promptkit.records.json_text import NonFinite
from promptkit.records.lines import RecordLines, engine_line
from promptkit.render.conversation import load_replies
from promptkit.render.parallel import render_parallel

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common(parser)
    parser.add_argument("--indices", metavar="SPEC", help="test rows to render, e.g. '0,3,10-19' or ':100' (default: all)")
    parser.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    parser.add_argument("--spans", action="store_true", help="add each piece's character span (system, shots, query, answer slot, wrappers)")
    parser.add_argument(
        "--workers",
        type=positive,
        default=1,
        metavar="N",
        help="render with up to N processes (same output, in the same order): at most one per CPU and per chunk of 512 test rows, "
        "fewer said on stderr; shots are picked once, in the parent (default 1)",
    )
    parser.add_argument(
        "--tokens",
        action="store_true",
        help="add input_ids, each token's piece (token_labels), the answer loss_mask and, for ppl/ll prompts, the junction; "
        "tokenized with --tokenizer, else the model config's tokenizer (not for chat API models)",
    )
    parser.add_argument(
        "--as",
        dest="as_format",
        choices=("records", *ENGINE_FORMATS),
        default="records",
        help="what each line is: the render record (default), a line of an OpenAI Batch API file, or the arguments of "
        "vLLM's LLM.generate/LLM.chat (docs/cli.md shows both)",
    )


def run(args: argparse.Namespace) -> int:
    """Render every prompt of the run's datasets × models to ``--out`` (all or nothing) or stdout."""
    replies = load_replies(args.replies) if args.replies else None
    datasets, models = load_run(args)
    progress = terminal_progress(args)
    if args.out is None:
        with progress or nullcontext():
            return 1 if _write_records(args, datasets, models, replies, sys.stdout, progress) else 0
    refuse_overwrite(args.out, run_inputs(args, datasets, models))
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
    non_finite = NonFinite()
    failures = DatasetFailures(say)
    for dataset, model in pairs(datasets, models):
        try:
            _write_dataset(args, dataset, model, replies, out, progress, writer, non_finite)
        except DatasetError as error:
            if args.debug or args.out is not None:
                raise
            failures.add(error)
    failures.report()
    if writer is not None and writer.dropped:
        logging.getLogger("promptkit.records.engines").warning(
            "--as %s: %s not taken by the target API; left out of every line", args.as_format, ", ".join(writer.dropped)
        )
    non_finite.warn()
    return failures.count


def _write_dataset(
    args: argparse.Namespace,
    dataset: DatasetSpec,
    model: Model | None,
    replies: dict[int, list[str]] | None,
    out: TextIO | AtomicFile,
    progress: Progress | None,
    writer: EngineFormat | None,
    non_finite: NonFinite,
) -> None:
    renderer = make_renderer(dataset, model, args, replies, progress)
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
            engine_line(args.dataset_config, writer, prompt)

    # Streamed: a row is read, rendered and written before the next is read (render_parallel in this process for 1 worker).
    encode = RecordLines(args.dataset_config, renderer if args.spans else None, lines_writer, non_finite)
    with _settled():
        for lines in render_parallel(renderer, args.workers, indices, encode):
            out.write(lines)


@contextmanager
def _settled() -> Iterator[None]:
    """The objects made before rendering (modules, configs, the renderer with its pool and shots) left out of the
    garbage collector's passes while rows render: they live through it, and each full pass would walk them all again
    (some fifteen times in 100,000 rows).  They are handed back to the collector after."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
