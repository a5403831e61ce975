"""Do two revisions of promptkit render every bundled config the same? Records compared byte for byte.

    python3 tools/compare_revisions.py BASE [--rows 3]

Renders, with the working tree and with git revision ``BASE`` (checked out into a temporary worktree), each with its
own bundled configs, the first ``--rows`` test rows of every bundled dataset config (``configs/datasets/*/*.py``) for
no model and for every bundled model config (meta templates and chat templates), and each run feature no bundled config turns on (an id column,
prefill, a system prompt, both shot layouts, thinking, a token view) on three configs; then compares the records
(or the error a row raised, message and context) as JSON.  Prints one line per config and exits 1 when any differs.
Behaviour-preserving changes (a restructuring of the engine) are checked with it against the commit before them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Runs in a child interpreter with PYTHONPATH pointing at one revision: prints {case: records} as JSON.
CHILD = r'''
import json, sys
from pathlib import Path
import promptkit
assert Path(promptkit.__file__).parents[1] == Path.cwd(), (promptkit.__file__, Path.cwd())
from promptkit import Controls, Renderer, load_datasets, load_models, load_replies

root, rows, tokenizer_path = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
configs = root / "configs"
model_paths = [*sorted((configs / "models").glob("*.py")), *sorted((configs / "models" / "chat_template").glob("*.py"))]

def records(renderer):
    out = []
    for index in range(min(rows, len(renderer))):
        try:
            out.append([[p.to_record(), repr(p.intermediate)] for p in renderer.render(index)])
        except Exception as error:
            out.append(repr(error))
    return out

def models(paths):
    return [None, *(m for path in paths for m in load_models(path))]

cases = {}
for dataset_config in sorted((configs / "datasets").glob("*/*.py")):
    if "common" in dataset_config.name:
        continue
    replies_path = dataset_config.parent / "data" / "replies.jsonl"
    replies = load_replies(replies_path) if replies_path.exists() else None
    for model in models(model_paths):
        for spec in load_datasets(dataset_config):
            key = f"{dataset_config.stem} / {model.abbr if model else None} / {spec.abbr}"
            try:
                cases[key] = records(Renderer(spec, model, replies=replies))
            except Exception as error:
                cases[key] = repr(error)

FEATURE_MODELS = [configs / "models" / "llama3_8b_instruct.py", configs / "models" / "chat_template" / "qwen3_0_6b.py"]
FEATURES = {
    "id column": ({"overrides": ["reader_cfg.id_column=question"]}, {}, FEATURE_MODELS),
    "prefill": ({"overrides": ["infer_cfg.inferencer.gen_prefix=The answer is"]}, {}, FEATURE_MODELS),
    "system prompt": ({}, {"controls": Controls(system_prompt="Answer with one letter.")}, FEATURE_MODELS),
    "shots as turns": ({}, {"controls": Controls(shots="as_turns")}, FEATURE_MODELS),
    "shots in user turn": ({}, {"controls": Controls(shots="in_user_turn")}, FEATURE_MODELS),
    "thinking": ({}, {"controls": Controls(thinking=True)}, FEATURE_MODELS[1:]),
    "token view": ({}, {"tokenizer": tokenizer_path}, FEATURE_MODELS[:1]),
}
for feature, (load_kwargs, render_kwargs, paths) in FEATURES.items():
    for name in ("mmlu_demo_gen", "mmlu_demo_ppl", "string_fewshot_demo_gen"):
        (path,) = (configs / "datasets").glob(f"*/{name}.py")
        for model in models(paths):
            key = f"{feature}: {name} / {model.abbr if model else None}"
            try:
                cases[key] = [records(Renderer(spec, model, **render_kwargs)) for spec in load_datasets(path, **load_kwargs)]
            except Exception as error:
                cases[key] = repr(error)
print(json.dumps(cases, ensure_ascii=False, sort_keys=True))
'''


def render(source: Path, rows: int, tokenizer: Path) -> dict[str, object]:
    """Every case rendered by the promptkit in ``source`` (configs read from the working tree, the same for both)."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    # Run in the revision's own tree: `python -c` puts the working directory first on sys.path, so that is the
    # promptkit imported (and relative paths in configs resolve against the same checkout's configs/).
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(source), str(rows), str(tokenizer)], capture_output=True, text=True, env=env, cwd=source, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"rendering with {source} failed:\n{result.stderr[-3000:]}")
    cases: dict[str, object] = json.loads(result.stdout)
    return cases


def train_tokenizer(folder: Path) -> Path:
    """A small byte-level BPE tokenizer.json trained here (nothing is downloaded), for the token-view cases."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    text = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "configs" / "datasets").glob("*/data/*.jsonl"))]
    tokenizer.train_from_iterator(text, trainers.BpeTrainer(vocab_size=600, special_tokens=["<|begin_of_text|>", "<|eot_id|>"]))
    path = folder / "tokenizer.json"
    tokenizer.save(str(path))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the git revision to compare the working tree with (e.g. main, HEAD~3, a commit)")
    parser.add_argument("--rows", type=int, default=3, help="test rows per config (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(base), args.base], cwd=ROOT, check=True)
        try:
            tokenizer = train_tokenizer(Path(tmp))
            before = render(base, args.rows, tokenizer)
            after = render(ROOT, args.rows, tokenizer)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True)
    both = sorted(before.keys() & after.keys())
    differing = [key for key in both if before[key] != after[key]]
    for key in both:
        print(f"{'DIFFERS' if key in differing else 'same   '}  {key}")
    for key in sorted(before.keys() ^ after.keys()):
        print(f"only in {'the base' if key in before else 'the working tree'}  {key}")
    print(f"\n{len(both) - len(differing)} cases render the same, {len(differing)} differ (base {args.base}); "
          f"{len(before.keys() ^ after.keys())} in one of the two only (configs added or removed)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
