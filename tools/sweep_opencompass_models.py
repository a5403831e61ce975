"""Every OpenCompass model config, unmodified, through promptkit: does it render, or say in one line why not?

    PYTHONPATH=. python tools/sweep_opencompass_models.py --oc-src OC_SRC [--hf-cache DIR | --bundled-cache]
        [--show N] [--report FILE] [CONFIG ...]

OC_SRC is a checkout (working tree) of OpenCompass's repository (or the site-packages folder of a pip-installed
``opencompass``, whose package holds the same configs); every ``*.py`` under ``opencompass/configs/models`` but
``__init__.py`` is read as it is (CONFIG arguments, relative to that folder, replace the list).  Each model of a
file renders one row of a dataset written here (a HUMAN/BOT chat template under ``GenInferencer``, zero-shot).

A chat-template model (``HuggingFacewithChatTemplate``, …) names its model by hub id; promptkit reads the chat
template from the local Hugging Face cache.  ``--hf-cache DIR`` looks in that cache (``HF_HUB_CACHE``);
``--bundled-cache`` builds one in a temporary folder from the model folders promptkit ships
(``configs/models/hf/``), under the hub ids of the models they come from.  Without either, the machine's own
cache is used, as a user's run would.

Each model's outcome is one of:

* ``renders`` — the final input was made;
* a documented line (one of :data:`DOCUMENTED`, each a message promptkit gives on purpose and docs explain):
  the model is not on this machine, a class whose prompt promptkit cannot know, no ``models`` list, a
  malformed ``meta_template`` (which OpenCompass refuses too);
* ``other error`` — a promptkit error that is none of those (a defect to look at);
* ``internal error`` — any other exception (a defect).

The table goes to stdout; ``--report`` writes every file's outcome as JSON.  Exit status 1 when any outcome is an
``other error`` or an ``internal error``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS_DIR = Path("opencompass") / "configs" / "models"

#: Documented one-line errors: (name, pattern the message matches).
DOCUMENTED = (
    ("model not on this machine", re.compile(r"is neither a local folder nor in the Hugging Face cache")),
    ("class whose prompt promptkit cannot know", re.compile(r"so promptkit cannot know the prompt")),
    ("no models list", re.compile(r"the config defines no 'models' list")),
    ("meta_template not a dict (OpenCompass refuses it too)", re.compile(r"meta_template must be a dict")),
)

#: The bundled model folders (configs/models/hf/) by the hub id of the model each comes from.
BUNDLED = {
    "Qwen/Qwen2.5-7B-Instruct": "qwen2_5_7b_instruct",
    "meta-llama/Meta-Llama-3-8B-Instruct": "llama3_8b_instruct",
    "meta-llama/Llama-3.1-8B-Instruct": "llama3_1_8b_instruct",
    "google/gemma-2-2b-it": "gemma2_2b_it",
    "mistralai/Mistral-7B-Instruct-v0.3": "mistral_7b_instruct_v0_3",
    "microsoft/Phi-3-mini-4k-instruct": "phi3_mini_4k_instruct",
    "deepseek-ai/DeepSeek-V2-Chat": "deepseek_v2_chat",
    "Qwen/Qwen3-0.6B": "qwen3_0_6b",
}

DATASET = """\
datasets = [dict(
    abbr='sweep', type='JsonlDataset', path='rows.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Question: {question}'),
            dict(role='BOT', prompt='Answer: {answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer', max_out_len=64),
    ))]
"""


def build_bundled_cache(cache: Path) -> None:
    """A Hugging Face hub cache (``models--Org--Name/{refs/main, snapshots/<commit>/, blobs/}``) of the bundled folders."""
    for hub_id, name in BUNDLED.items():
        repo = cache / ("models--" + hub_id.replace("/", "--"))
        commit = f"{abs(hash(hub_id)) % 16**12:012x}" + "0" * 28
        snapshot = repo / "snapshots" / commit
        snapshot.mkdir(parents=True)
        (repo / "blobs").mkdir()
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text(commit, encoding="utf-8")
        for file in sorted((ROOT / "configs" / "models" / "hf" / name).iterdir()):
            blob = repo / "blobs" / f"{name}-{file.name}"
            shutil.copyfile(file, blob)
            (snapshot / file.name).symlink_to(os.path.relpath(blob, snapshot))


def outcome(error: BaseException | None) -> tuple[str, str]:
    """(category, message) of a model's render."""
    from promptkit import PromptkitError

    if error is None:
        return "renders", ""
    if not isinstance(error, PromptkitError):
        return "internal error", "".join(traceback.format_exception_only(type(error), error)).strip()
    message = str(error)
    for name, pattern in DOCUMENTED:
        if pattern.search(message):
            return name, message
    return "other error", message


def sweep(configs: list[Path], work: Path) -> list[dict[str, str]]:
    from promptkit import PromptkitError, Renderer, load_datasets, load_models

    (work / "rows.jsonl").write_text(json.dumps({"question": "What is 2+2?", "answer": "4"}) + "\n", encoding="utf-8")
    (work / "dataset.py").write_text(DATASET, encoding="utf-8")
    dataset = load_datasets(work / "dataset.py")[0]
    results = []
    for config in configs:
        try:
            models = load_models(config)
        except PromptkitError as error:
            results.append({"config": str(config), "model": None, "outcome": outcome(error)[0], "message": outcome(error)[1]})
            continue
        except Exception as error:  # noqa: BLE001  # the sweep reports whatever promptkit raises
            results.append({"config": str(config), "model": None, "outcome": "internal error", "message": outcome(error)[1]})
            continue
        for model in models:
            try:
                Renderer(dataset, model).render(0)
                error: BaseException | None = None
            except Exception as exc:  # noqa: BLE001
                error = exc
            category, message = outcome(error)
            results.append({"config": str(config), "model": model.abbr, "kind": model.kind, "outcome": category, "message": message})
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oc-src", required=True, type=Path, help="a checkout of OpenCompass (holds opencompass/configs/models)")
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument("--hf-cache", type=Path, help="the Hugging Face hub cache to read chat templates from (HF_HUB_CACHE)")
    cache.add_argument("--bundled-cache", action="store_true", help="a temporary hub cache of the bundled model folders")
    parser.add_argument("--show", type=int, default=3, metavar="N", help="example messages per outcome (default 3)")
    parser.add_argument("--report", type=Path, help="write every model's outcome here (JSON)")
    parser.add_argument("configs", nargs="*", type=Path, help="config files relative to opencompass/configs/models (default: all)")
    args = parser.parse_args(argv)
    root = args.oc_src / MODELS_DIR
    configs = [root / c for c in args.configs] if args.configs else sorted(p for p in root.rglob("*.py") if p.name != "__init__.py")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.bundled_cache:
            build_bundled_cache(work / "hub")
            os.environ["HF_HUB_CACHE"] = str(work / "hub")
        elif args.hf_cache:
            os.environ["HF_HUB_CACHE"] = str(args.hf_cache)
        results = sweep(configs, work)
    files = Counter(r["outcome"] for r in results)
    width = max(len(name) for name in files) + 2
    print(f"{len(configs)} config files, {len(results)} outcomes (one per model; one per file that does not load)")
    print(f"{'outcome':<{width}}count")
    for name, count in sorted(files.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{name:<{width}}{count}")
    kinds = Counter(r.get("kind") for r in results if r["outcome"] == "renders")
    print("renders by model kind: " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))
    for name in sorted(files):
        if name == "renders":
            continue
        print(f"\n{name}:")
        for result in [r for r in results if r["outcome"] == name][: args.show]:
            print(f"  {Path(result['config']).relative_to(root)}: {result['message']}")
    if args.report:
        args.report.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 1 if files["other error"] or files["internal error"] else 0


if __name__ == "__main__":
    sys.exit(main())
