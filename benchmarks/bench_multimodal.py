"""Throughput of multimodal and multi-turn rendering.

    python3 benchmarks/bench_multimodal.py [--rows 1000] [--repeat 3] [--profile WORKLOAD]

Workloads (rows are built once, untimed; each timed run builds the config and
renders every prompt to its final input, media policy included):

* ``mm_keep`` — 1,000 rows × 2 local images, URLs kept (the template cost alone);
* ``mm_inline_resize`` — the same rows with ``media=dict(mode='inline',
  max_edge=256, image_format='JPEG')``: every image read, decoded, shrunk,
  re-encoded and base64-encoded (2,000 distinct 640×480 JPEG files, so no
  file is served from the cache);
* ``multiturn_every_with_gt`` — 1,000 dialogues × 3 turns (3,000 prompts),
  for a chat model and for a Llama-3-style completion model.

``--profile NAME`` prints the top functions of one workload under cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

from promptkit import Renderer, build_dataset, build_model

CHAT = dict(type="VLLMCustomAPIChat", abbr="chat")
LLAMA3 = dict(
    type="CompletionModel",
    abbr="llama3",
    meta_template=dict(
        begin="<|begin_of_text|>",
        round=[
            dict(role="HUMAN", begin="<|start_header_id|>user<|end_header_id|>\n\n", end="<|eot_id|>"),
            dict(role="BOT", begin="<|start_header_id|>assistant<|end_header_id|>\n\n", end="<|eot_id|>", generate=True),
        ],
        reserved_roles=[dict(role="SYSTEM", begin="<|start_header_id|>system<|end_header_id|>\n\n", end="<|eot_id|>")],
    ),
)
MM_TEMPLATE = dict(
    type="MMPromptTemplate",
    template=dict(round=[dict(role="HUMAN", prompt_mm={
        "text": {"type": "text", "text": "[{subject}] {question}"},
        "image": {"type": "image_url", "image_url": {"url": "file://{images}"}},
    })]),
)
MULTI_TEMPLATE = dict(
    type="MultiTurnPromptTemplate",
    template=dict(
        begin=[dict(role="SYSTEM", prompt="You are a helpful assistant.")],
        round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")],
    ),
)


def make_images(folder: Path, count: int) -> list[str]:
    """``count`` distinct 640×480 JPEG photos-alike (gradient + shapes), ~20 KB each."""
    rng = random.Random(0)
    names = []
    for number in range(count):
        image = Image.linear_gradient("L").resize((640, 480)).convert("RGB")
        pen = ImageDraw.Draw(image)
        for _ in range(6):
            x, y = rng.randrange(600), rng.randrange(440)
            pen.ellipse((x, y, x + rng.randrange(20, 200), y + rng.randrange(20, 200)), fill=tuple(rng.randrange(256) for _ in range(3)))
        name = f"img_{number:05d}.jpg"
        image.save(folder / name, quality=85)
        names.append(name)
    return names


def write(folder: Path, name: str, rows: list[dict]) -> str:
    path = folder / name
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def workloads(folder: Path, rows: int) -> dict[str, tuple[dict, dict]]:
    """name -> (dataset config, model config)."""
    images = make_images(folder, 2 * rows)
    mm_rows = [{"subject": f"s{i % 7}", "question": f"What differs between picture {i}a and {i}b?", "images": images[2 * i : 2 * i + 2], "answer": "x"} for i in range(rows)]
    dialogues = [{"question": [f"Turn {t} of dialogue {i}: what is {i} + {t}?" for t in range(3)], "answer": [str(i + t) for t in range(3)]} for i in range(rows)]
    mm_path, mt_path = write(folder, "mm.jsonl", mm_rows), write(folder, "dialogues.jsonl", dialogues)

    def mm(media: dict | None) -> dict:
        cfg = dict(abbr="mm", type="JsonlDataset", path=mm_path, reader_cfg=dict(input_columns=["subject", "question", "images"], output_column="answer"),
                   infer_cfg=dict(prompt_template=MM_TEMPLATE, retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))
        if media:
            cfg["media"] = media
        return cfg

    multi = dict(abbr="mt", type="JsonlDataset", path=mt_path, reader_cfg=dict(input_columns=["question"], output_column="answer"),
                 infer_cfg=dict(prompt_template=MULTI_TEMPLATE, retriever=dict(type="ZeroRetriever"),
                                inferencer=dict(type="MultiTurnGenInferencer", infer_mode="every_with_gt")))
    return {
        "mm_keep (chat)": (mm(None), CHAT),
        "mm_inline_resize (chat)": (mm(dict(mode="inline", max_edge=256, image_format="JPEG", quality=85)), CHAT),
        "multiturn_every_with_gt (chat)": (multi, CHAT),
        "multiturn_every_with_gt (llama3)": (multi, LLAMA3),
    }


def runner(dataset_cfg: dict, model_cfg: dict) -> Callable[[], int]:
    rows = Renderer(build_dataset(dataset_cfg)).test_rows  # read once, untimed
    inline = dict(dataset_cfg, type="RowsDataset", rows=list(rows))
    del inline["path"]
    base_dir = Path(dataset_cfg["path"]).parent
    inline.setdefault("media", {})
    if inline["media"]:
        inline["media"] = dict(inline["media"], root=str(base_dir))

    def run() -> int:
        return sum(1 for _ in Renderer(build_dataset(inline), build_model(model_cfg)))

    return run


def measure(run: Callable[[], int], repeat: int) -> tuple[float, int, float]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return count / best, count, peak / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000, help="rows (dialogues) per workload (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per workload; the best counts (default 3)")
    parser.add_argument("--profile", metavar="WORKLOAD", help="profile this workload (a name prefix) instead of timing")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"(writing {2 * args.rows} images and the rows to a temporary folder ...)", file=sys.stderr)
        chosen = workloads(Path(tmp), args.rows)
        if args.profile:
            name = next(n for n in chosen if n.startswith(args.profile))
            run = runner(*chosen[name])
            profile = cProfile.Profile()
            profile.runcall(run)
            pstats.Stats(profile).sort_stats("tottime").print_stats(12)
            return 0
        header = f"{'workload':34} {'prompts':>8} {'prompts/s':>10} {'rows/s':>9} {'peak MiB':>9}"
        print(header)
        print("-" * len(header))
        for name, (dataset_cfg, model_cfg) in chosen.items():
            per_second, count, peak = measure(runner(dataset_cfg, model_cfg), args.repeat)
            rows_per_second = per_second * args.rows / count
            print(f"{name:34} {count:8d} {per_second:10.0f} {rows_per_second:9.0f} {peak:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
