"""``promptkit check-template MODEL_CONFIG [DATASET_CONFIG]``: a meta template against the model's own chat template.

With ``--tokens`` it lists each model's control tokens and ``special_token_policy`` instead (any model config),
and, with a dataset config, the test rows whose text holds them.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from promptkit.cli.arguments import model_path_option, model_paths
from promptkit.data.opencompass import DATA_ROOT_ENV
from promptkit.errors import ConfigError, PromptkitError
from promptkit.frontends import load_datasets
from promptkit.frontends.opencompass import load_models
from promptkit.meta_templates import ChatTemplateModel, CompletionModel, Model
from promptkit.meta_templates.conformance import Comparison, chat_template_twin, compare
from promptkit.promptlist import PromptList
from promptkit.render.renderer import Renderer
from promptkit.tokens.guard import describe_hits

__all__ = ["add_arguments", "run"]


def add_arguments(sub: argparse.ArgumentParser) -> None:
    sub.description = (
        "Render the same prompts through the model config's meta template and through the chat template of the "
        "model folder its path= names (a local folder, or a hub id in the Hugging Face cache); report the first place "
        "they differ. A chat-template model config: render the prompts through its chat template and report the first "
        "failure. Exit status 1 when they differ or fail."
    )
    sub.add_argument("model_config", help="model config with a meta template and path= a local model folder")
    sub.add_argument("dataset_config", nargs="?", help="render this dataset's prompts (default: built-in probe conversations)")
    sub.add_argument("--count", type=int, default=5, metavar="K", help="test rows per dataset to compare (default 5)")
    model_path_option(sub)
    sub.add_argument("--data-root", metavar="DIR", help=f"the folder OpenCompass's dataset classes read their data from; default: ${DATA_ROOT_ENV}")
    sub.add_argument(
        "--rows",
        metavar="FILE",
        action="append",
        help="a data file of rows that feeds every dataset of DATASET_CONFIG instead of its own loader, as for render",
    )
    sub.add_argument(
        "--tokens",
        action="store_true",
        help="instead, list each model's control tokens and special_token_policy (any model config) and, with a dataset "
        "config, the first K test rows whose text holds them",
    )


def _sec(name: str, pos: str) -> dict[str, str]:
    return {"section": name, "pos": pos}


def _probe(system: bool, turns: int) -> PromptList:
    items: list[object] = []
    if system:
        items += [_sec("begin", "begin"), dict(role="SYSTEM", fallback_role="HUMAN", prompt="You are a careful assistant."), _sec("begin", "end")]
    items.append(_sec("round", "begin"))
    for turn in range(1, turns):
        items += [dict(role="HUMAN", prompt=f"Question {turn}?"), dict(role="BOT", prompt=f"Answer {turn}.")]
    items += [dict(role="HUMAN", prompt=f"Question {turns}?"), dict(role="BOT", prompt=""), _sec("round", "end")]
    return PromptList(items)


#: Conversations that show the usual disagreements: BOS, headers, turn ends, the system prompt's place.
PROBES = {
    "one user turn": _probe(False, 1),
    "system + user": _probe(True, 1),
    "two shots + question": _probe(False, 3),
    "system + two shots + question": _probe(True, 3),
}


def _prompts(args: argparse.Namespace, model: Model) -> Iterator[tuple[str, str | PromptList, str]]:
    if args.dataset_config is None:
        for label, prompt in PROBES.items():
            yield label, prompt, "gen"
        return
    for dataset in load_datasets(args.dataset_config, data_root=args.data_root, rows=args.rows):
        renderer = Renderer(dataset, model)
        for index in range(min(args.count, len(renderer))):
            for rendered in renderer.render(index):
                label = f"{dataset.abbr} row {index}" + (f" label {rendered.label!r}" if rendered.mode == "ppl" else "")
                if rendered.mode == "calib":  # a format dataset's calibration prompt, rendered in the task's mode
                    yield f"{label} calib", rendered.intermediate, renderer.mode
                    continue
                yield label, rendered.intermediate, rendered.mode


def run(args: argparse.Namespace) -> int:
    if args.tokens:
        for model in load_models(args.model_config, model_paths=model_paths(args)):
            _show_tokens(args, model)
        return 0
    differ = False
    for model in load_models(args.model_config, model_paths=model_paths(args)):
        if isinstance(model, ChatTemplateModel):
            differ = _check_chat_template(args, model) or differ
            continue
        if not isinstance(model, CompletionModel) or model.meta_template is None:
            raise ConfigError(
                f"model {model.abbr!r} is a {type(model).__name__}; check-template compares a completion model's meta template "
                "with its chat template, so give the meta-template config (e.g. configs/models/llama3_8b_instruct.py)",
                config=args.model_config,
            )
        chat = chat_template_twin(model)
        results = compare(model, chat, _prompts(args, model))
        agree = sum(result.offset is None for result in results)
        print(f"model {model.abbr!r}: meta template vs chat template ({chat.chat_template.origin})")
        print(f"  {agree} of {len(results)} prompts agree")
        print(f"  {chat.probe_system_role().describe()}")
        first = next((result for result in results if result.offset is not None), None)
        if first is not None:
            differ = True
            _show(first)
    return 1 if differ else 0


def _check_chat_template(args: argparse.Namespace, model: ChatTemplateModel) -> bool:
    """A chat-template model has no meta template to compare: its template renders the prompts, or the first failure is
    shown; whether any failed."""
    print(f"model {model.abbr!r}: chat template ({model.chat_template.origin})")
    failures = []
    prompts = list(_prompts(args, model))
    for label, prompt, mode in prompts:
        try:
            model.render(prompt, mode)
        except PromptkitError as error:
            failures.append((label, error.message))
    print(f"  {len(prompts) - len(failures)} of {len(prompts)} prompts render")
    print(f"  {model.probe_system_role().describe()}")
    if failures:
        print(f"  first failure: {failures[0][0]}: {failures[0][1]}")
    return bool(failures)


def _show(result: Comparison) -> None:
    if result.chat_error is not None:
        print(f"  first divergence: {result.label}: {result.chat_error}")
        return
    before, meta, chat = result.context()
    print(f"  first divergence: {result.label}, character {result.offset}")
    print(f"    both have:        ...{before!r}")
    print(f"    meta template:    {meta!r}...")
    print(f"    chat template:    {chat!r}...")


def _show_tokens(args: argparse.Namespace, model: Model) -> None:
    """The model's control tokens, its policy, and the rows of the dataset config (if any) that hold them."""
    tokens = model.token_guard.tokens
    print(f"model {model.abbr!r}: {len(tokens)} control token(s), special_token_policy={model.token_guard.policy!r}")
    if tokens:
        print("  " + ", ".join(map(repr, tokens)))
    else:
        print("  (none known: row text is passed as it is; give extra_control_tokens=[...] for a server-side chat template)")
    if args.dataset_config is None or not tokens:
        return
    for dataset in load_datasets(args.dataset_config, data_root=args.data_root, rows=args.rows):
        rows = Renderer(dataset, model).test_rows
        shown = 0
        for index, row in enumerate(rows):
            _, hits = model.token_guard.guard_row(row)
            if hits:
                print(f"  {dataset.abbr} row {index}: {describe_hits(hits)}")
                shown += 1
                if shown == args.count:
                    break
        if not shown:
            print(f"  {dataset.abbr}: no test row holds them")
