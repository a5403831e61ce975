"""What the commands share: their common arguments, and turning them into datasets, models and renderers."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from promptkit.chat_templates.folders import MODEL_PATHS_ENV, parse_model_paths
from promptkit.cli._inputs import InputFile, config_files, dataset_inputs, model_inputs, rows_input
from promptkit.cli._output import printable
from promptkit.controls import SHOT_LAYOUTS, Controls
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.data.progress import Progress
from promptkit.errors import ConfigError
from promptkit.formats import FORMATS
from promptkit.frontends import load_datasets
from promptkit.frontends.opencompass import build_dataset, load_models
from promptkit.frontends.opencompass.overrides import Overrides, parse_value
from promptkit.meta_templates import Model
from promptkit.plan.dataset import DatasetSpec
from promptkit.records.token_view import TokenEncoder
from promptkit.render.renderer import Renderer
from promptkit.tokens.counters import HFTokenizer

if TYPE_CHECKING:
    from promptkit.cli.progress import TerminalProgress

__all__ = [
    "check_allow_bad",
    "common",
    "controls_group",
    "file_dataset",
    "load_run",
    "make_renderer",
    "model_path_option",
    "model_paths",
    "pairs",
    "parse_indices",
    "positive",
    "run_controls",
    "run_inputs",
    "say",
    "terminal_progress",
]


def say(line: str) -> None:
    """A line on stderr (errors, warnings, notes), its control characters escaped (a message may quote a template, a row,
    a file name)."""
    print(printable(line), file=sys.stderr)


def common(sub: argparse.ArgumentParser) -> None:
    """The arguments preview and render share: the dataset config (or data file), models, data sources, controls."""
    sub.add_argument(
        "dataset_config",
        help="dataset config file (defines `datasets = [...]`), an lm-eval task or group .yaml or lmeval:NAME (docs/lmeval.md), an "
        "EvalScope benchmark (evalscope:NAME, or an adapter file), or a .jsonl data file with --format",
    )
    sub.add_argument("--format", choices=sorted(FORMATS), help="read DATASET_CONFIG as a data file of this format, with its default templates")
    sub.add_argument("--allow-bad", action="store_true", help="with --format: report the records that break the format's rules and skip them")
    sub.add_argument(
        "--model",
        metavar="MODEL_CONFIG",
        action="append",
        help="model config file (defines `models = [...]`), repeatable: each model is shown or rendered in turn; "
        "default: a completion model with no meta template",
    )
    model_path_option(sub)
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
        help=f"the folder OpenCompass's dataset classes read their data from (it holds data/mmlu/ ...); default: ${DATA_ROOT_ENV}; "
        "an EvalScope benchmark reads DIR/NAME",
    )
    sub.add_argument(
        "--rows",
        metavar="FILE",
        action="append",
        help="a data file of rows (.jsonl, .json, .csv, .parquet, .arrow, .feather, a datasets save_to_disk folder; text files also "
        ".gz/.bz2/.zst; '-' or /dev/stdin: JSON Lines piped in) that feeds every dataset of the config instead of its own loader "
        "(each keeps its reader_cfg and infer_cfg); front ends whose datasets have named splits also take SPLIT=FILE, an EvalScope "
        "benchmark SUBSET:SPLIT=FILE; repeatable (docs/cli.md)",
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


def model_path_option(sub: argparse.ArgumentParser) -> None:
    """``--model-path HUB_ID=FOLDER``: where a model config's hub id is, for models outside the Hugging Face cache."""
    sub.add_argument(
        "--model-path",
        action="append",
        default=[],
        metavar="HUB_ID=FOLDER",
        help="the local folder of a model a model config names by hub id (path='Qwen/Qwen2.5-7B-Instruct'), for models kept "
        f"outside the Hugging Face cache; repeatable; also ${MODEL_PATHS_ENV} (HUB_ID=FOLDER entries separated by ':')",
    )


def model_paths(args: argparse.Namespace) -> dict[str, str]:
    """The ``--model-path`` mappings: hub id → folder."""
    return parse_model_paths(args.model_path, "--model-path")


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
    group.add_argument(
        "--num-fewshot",
        type=int,
        metavar="K",
        help="how many shots the retriever picks (ice_num, or the first K of fix_id_list); an lm-eval task's num_fewshot (one that says 0 stays 0)",
    )
    group.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="the seed of lm-eval tasks' shots (lm-eval's fewshot_random_seed; default 1234) and of EvalScope benchmarks (their --set seed=N; default 42)",
    )
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


def run_controls(args: argparse.Namespace) -> Controls | None:
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


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {value}")
    return value


def load_run(args: argparse.Namespace) -> tuple[list[DatasetSpec], list[Model | None]]:
    """The datasets (``--dataset`` applied) and models of a run."""
    overrides = Overrides(tuple(args.set), args.num_fewshot)
    check_allow_bad(args)
    if args.format:
        if args.rows or args.data_root or overrides or args.seed is not None:
            raise ConfigError(
                "--rows, --data-root, --set, --num-fewshot and --seed are for dataset configs; with --format, DATASET_CONFIG is itself the data file"
            )
        datasets = [file_dataset(args.dataset_config, args.format, args.allow_bad)]
    else:
        datasets = load_datasets(args.dataset_config, data_root=args.data_root, rows=args.rows, overrides=overrides, seed=args.seed)
    if args.dataset is not None:
        datasets = chosen(datasets, args.dataset, args.dataset_config)
    paths = model_paths(args)
    models: list[Model | None] = [model for path in args.model for model in load_models(path, model_paths=paths)] if args.model else [None]
    return datasets, models


def chosen(datasets: list[DatasetSpec], pattern: str, config: str) -> list[DatasetSpec]:
    """``--dataset``: the datasets whose abbr is ``pattern`` or matches it as a glob (which ones is said on stderr)."""
    names = ", ".join(repr(d.abbr) for d in datasets)
    exact = [d for d in datasets if d.abbr == pattern]
    if exact:
        return exact
    chosen = [d for d in datasets if d.abbr is not None and fnmatch.fnmatchcase(d.abbr, pattern)]
    if not chosen:
        glob = any(char in pattern for char in "*?[")
        raise ConfigError(f"no dataset {'abbr matches' if glob else 'with abbr'} {pattern!r}; the config has {names}", config=config)
    say(f"promptkit: --dataset {pattern!r} matches {len(chosen)} of {len(datasets)} datasets: {', '.join(repr(d.abbr) for d in chosen)}")
    return chosen


def pairs(datasets: list[DatasetSpec], models: list[Model | None]) -> Iterator[tuple[DatasetSpec, Model | None]]:
    for model in models:
        for dataset in datasets:
            yield dataset, model


def run_inputs(args: argparse.Namespace, datasets: list[DatasetSpec], models: list[Model | None]) -> Iterator[InputFile]:
    """Every file the run reads that is known before rendering (see :mod:`promptkit.cli._inputs`)."""
    if args.format:
        yield InputFile(Path(args.dataset_config), "the data file")
    else:
        yield from config_files(args.dataset_config, "the dataset config")
    for path in args.model or ():
        yield from config_files(path, "the model config")
    if args.replies:
        yield InputFile(Path(args.replies), "the --replies file")
    for rows in args.rows or ():
        yield rows_input(rows)
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


def make_renderer(
    dataset: DatasetSpec, model: Model | None, args: argparse.Namespace, replies: dict[int, list[str]] | None, progress: Progress | None = None
) -> Renderer:
    token_counter = HFTokenizer(args.tokenizer) if args.tokenizer else None
    tokenizer = token_view_tokenizer(model, token_counter) if getattr(args, "tokens", False) else None
    renderer = Renderer(
        dataset, model, token_counter=token_counter, replies=replies, progress=progress, controls=run_controls(args), tokenizer=tokenizer
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


def token_view_tokenizer(model: Model | None, given: HFTokenizer | None) -> TokenEncoder:
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


def terminal_progress(args: argparse.Namespace, transient: bool = False) -> TerminalProgress | None:
    """Bars on stderr when it is a terminal, unless ``--quiet`` or the records themselves go to that terminal."""
    if args.quiet or not sys.stderr.isatty():
        return None
    if args.command == "render" and args.out is None and sys.stdout.isatty():
        return None
    from promptkit.cli.progress import TerminalProgress  # rich, imported only when bars are drawn

    return TerminalProgress(transient=transient)




def check_allow_bad(args: argparse.Namespace) -> None:
    """``--allow-bad`` goes with ``--format``: a dataset config says ``allow_bad=True`` on its format dataset."""
    if args.allow_bad and not args.format:
        raise ConfigError("--allow-bad is for data files read with --format; in a dataset config, set allow_bad=True on the format dataset")


def file_dataset(path: str, format: str, allow_bad: bool = False) -> DatasetSpec:
    """A data file (or a folder in XpertFormat's layout) of ``format`` as a dataset with the format's default templates
    (``--format``); ``allow_bad`` skips the records that break the format's rules (``--allow-bad``)."""
    return build_dataset(dict(abbr=Path(path).stem, type=FORMATS[format], path=str(Path(path).resolve()), allow_bad=allow_bad))
