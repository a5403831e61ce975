"""Retrieval and shot fitting at scale, side by side with OpenCompass 0.5.4's BM25Retriever when importable.

    python3 benchmarks/bench_retrieval.py [--pool 100000] [--queries 10000] [--only bm25,topk,embed,fitting]
    PYTHONPATH=. $OC_VENV/bin/python benchmarks/bench_retrieval.py --only bm25   # adds OpenCompass's BM25Retriever
                                                                                # (pip install rank_bm25 bm25s there)

Workloads (synthetic English-like rows, Zipf-distributed words):

* ``bm25`` — BM25Retriever, ``--pool`` rows × ``--queries`` test rows, 8 shots:
  index build plus every query.  OpenCompass's BM25Retriever runs on the same
  pool with the same tokens (its NLTK tokenizer swapped for promptkit's, which
  needs no download); its Python loop over the pool per query token is timed on
  ``--oc-queries`` test rows and scaled to ``--queries``.
* ``topk search`` — TopkRetriever at full scale with 384-dimensional vectors
  precomputed (what the search and selection cost: one batched faiss search);
  ``topk embed`` — the bundled all-MiniLM-L6-v2's throughput on the CPU,
  measured on ``--embed-texts`` rows and projected to pool + queries (the model
  dominates TopK; embeddings are computed once and can be cached on disk).
  OpenCompass's TopkRetriever downloads its models from the hub: not run.
* ``fitting`` — 8 random shots per prompt from a 200-row dev split, a
  ``max_seq_len`` that keeps about half of them, tokens counted by a byte-level
  BPE ``tokenizer.json`` trained here: promptkit's fitting from cached shot
  counts against the drop-the-last-shot loop (render, tokenise, drop, repeat)
  on the same renderer and prompts; the prompts must be identical.

Prints seconds (one untimed-traced run) and peak traced memory (tracemalloc,
Python-side allocations, from a second run) per workload and the speed ratio;
``--profile`` prints the top of a cProfile of each promptkit workload.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from promptkit import BM25Retriever, ReaderConfig, Renderer, TopkRetriever, build_dataset, build_model
from promptkit.meta_templates import count_tokens
from promptkit.retrievers._text import tokenize

READER = ReaderConfig.from_config(dict(input_columns=["question"], output_column="answer"))
SHOTS = 8


def synthetic_rows(count: int, seed: int, vocabulary: list[str]) -> list[dict[str, str]]:
    """Rows whose question is 8–40 Zipf-distributed words (a few very common, most rare), as in real text."""
    rng = np.random.default_rng(seed)
    ranks = np.minimum(rng.zipf(1.2, size=count * 40), len(vocabulary)) - 1
    lengths = rng.integers(8, 41, size=count)
    rows, start = [], 0
    for n, length in enumerate(lengths):
        words = [vocabulary[r] for r in ranks[start : start + length]]
        start += length
        rows.append({"question": " ".join(words) + "?", "answer": f"answer {n % 7}"})
    return rows


def make_vocabulary(size: int = 30000) -> list[str]:
    rng = np.random.default_rng(0)
    syllables = ["ka", "to", "ri", "ne", "sa", "lo", "mi", "du", "pe", "an", "or", "el", "us", "ti", "vo", "ba"]
    words = {"".join(rng.choice(syllables, size=rng.integers(1, 5))) for _ in range(size * 3)}
    return sorted(words)[:size]


def timed(run: Callable[[], Any], memory: Callable[[], Any] | None = None) -> tuple[float, float, Any]:
    """(seconds, peak MiB, result): ``run`` timed untraced; peak memory traced in a run of ``memory`` (if given)."""
    start = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - start
    peak = float("nan")
    if memory is not None:
        tracemalloc.start()
        memory()
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return seconds, peak, result


def opencompass_bm25(pool: list[dict], queries: list[dict], folder: Path) -> tuple[float, float, float, list[list[int]]]:
    """(index seconds, seconds per query, peak MiB, shots) of OpenCompass's BM25Retriever on the same rows and tokens."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "tools" / "opencompass_reference"))
    import render_with_opencompass as reference
    from opencompass.openicl.icl_retriever import icl_bm25_retriever

    icl_bm25_retriever.word_tokenize = tokenize  # NLTK's needs its punkt data downloaded; the same tokens for both
    paths = {}
    for split, rows in (("train", pool), ("test", queries)):
        paths[split] = str(folder / f"{split}.jsonl")
        Path(paths[split]).write_text("".join(json.dumps(r) + "\n" for r in rows))
    dataset = reference.ReferenceDataset(paths, dict(input_columns=["question"], output_column="answer"), base_dir="")
    build = lambda: icl_bm25_retriever.BM25Retriever(dataset, ice_num=SHOTS)  # noqa: E731
    with contextlib.redirect_stderr(io.StringIO()):
        index_seconds, peak, retriever = timed(build, memory=build)
        query_seconds, _, shots = timed(retriever.retrieve)
    return index_seconds, query_seconds / len(queries), peak, shots


def bpe_tokenizer(folder: Path, rows: list[dict]) -> str:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=2000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tokenizer.train_from_iterator((r["question"] for r in rows[:5000]), trainer)
    path = folder / "tokenizer.json"
    tokenizer.save(str(path))
    return str(path)


class DropLastLoop(Renderer):
    """The loop promptkit replaced: render with all shots; while too long, drop the last shot, render and count again."""

    def _fit(self, row: Any, ice_idx: list[int], label: Any) -> tuple[Any, Any, list[int]]:
        intermediate, final = self._render_once(row, ice_idx, label)
        assert self.max_seq_len and self.token_counter
        while ice_idx and count_tokens(final, self.token_counter) > self.max_seq_len:
            ice_idx = ice_idx[:-1]
            intermediate, final = self._render_once(row, ice_idx, label)
        return intermediate, final, ice_idx


class Precomputed:
    """An embedder returning stored vectors (row text -> vector): TopK's search and selection without the model."""

    name = "precomputed"

    def __init__(self, texts: list[str], dim: int = 384) -> None:
        vectors = np.random.default_rng(3).normal(size=(len(texts), dim)).astype(np.float32)
        self.table = dict(zip(texts, vectors, strict=True))

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])


def fitting_workload(pool: list[dict], queries: list[dict], folder: Path) -> tuple[tuple[float, float], tuple[float, float], float, int]:
    """Times of fitting vs the loop, the mean shots kept, and how many prompts differ (must be 0)."""
    tokenizer = bpe_tokenizer(folder, pool)
    infer = dict(
        ice_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="Q: {question}"), dict(role="BOT", prompt="A: {answer}")])),
        prompt_template=dict(
            type="PromptTemplate",
            template=dict(begin="</E>", round=[dict(role="HUMAN", prompt="Q: {question}"), dict(role="BOT", prompt="A: {answer}")]),
            ice_token="</E>",
        ),
        retriever=dict(type="RandomRetriever", ice_num=SHOTS, per_row_seed=True),
        inferencer=dict(type="GenInferencer"),
    )
    dataset = build_dataset(dict(abbr="fit", type="RowsDataset", rows=dict(train=pool, test=queries), reader_cfg=dict(input_columns=["question"], output_column="answer"), infer_cfg=infer))
    meta = dict(round=[dict(role="HUMAN", begin="<|user|>\n", end="<|end|>\n"), dict(role="BOT", begin="<|assistant|>\n", end="<|end|>\n", generate=True)])
    model_cfg = dict(abbr="m", type="CompletionModel", meta_template=meta, tokenizer=dict(type="HFTokenizer", path=tokenizer))
    full = Renderer(dataset, build_model(model_cfg))
    counter = full.token_counter
    assert counter is not None
    lengths = [count_tokens(p.prompt, counter) for p in full]
    limit = int(np.median(lengths) * 0.55)
    model_cfg["max_seq_len"] = limit
    fitted = Renderer(dataset, build_model(model_cfg))
    looped = DropLastLoop(dataset, build_model(model_cfg))
    fitted.ice_indices, looped.ice_indices  # noqa: B018  (retrieval is not what is timed here)
    fit_time = timed(lambda: list(fitted), memory=lambda: list(Renderer(dataset, build_model(model_cfg))))
    loop_time = timed(lambda: list(looped), memory=lambda: list(DropLastLoop(dataset, build_model(model_cfg))))
    differ = sum(a.prompt != b.prompt or a.ice_idx != b.ice_idx for a, b in zip(fit_time[2], loop_time[2], strict=True))
    kept = float(np.mean([p.to_record()["n_shots"] for p in fit_time[2]]))
    return fit_time[:2], loop_time[:2], kept, differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--oc-queries", type=int, default=20, help="test rows OpenCompass's BM25 is timed on (default 20)")
    parser.add_argument("--fit-queries", type=int, default=2000, help="prompts in the fitting workload (default 2000)")
    parser.add_argument("--embed-texts", type=int, default=1000, help="rows the bundled model's throughput is measured on (default 1000)")
    parser.add_argument(
        "--only", default="bm25,topk,embed,fitting", help="comma-separated workloads to run (default: bm25,topk,embed,fitting)"
    )
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile of each promptkit workload")
    args = parser.parse_args()
    vocabulary = make_vocabulary()
    pool = synthetic_rows(args.pool, 1, vocabulary)
    queries = synthetic_rows(args.queries, 2, vocabulary)
    lines = []

    def profile(name: str, run: Callable[[], Any]) -> None:
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(run)
            print(f"--- profile: {name}")
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(12)

    only = set(args.only.split(","))
    if "bm25" in only:
        bm25 = lambda count: lambda: BM25Retriever(ice_num=SHOTS).retrieve(pool, queries[:count], READER)  # noqa: E731
        seconds, peak, _ = timed(bm25(args.queries), memory=bm25(args.queries // 10))
        bm25_line = f"{'bm25 (index + queries)':28} {args.pool:>8,} {args.queries:>8,} {seconds:>11.1f} {peak:>9.0f}"
        with tempfile.TemporaryDirectory() as folder:
            try:
                oc_index, oc_per_query, oc_peak, _ = opencompass_bm25(pool, queries[: args.oc_queries], Path(folder))
            except ImportError as error:
                lines.append(bm25_line + f"   (OpenCompass not importable: {error})")
            else:
                oc_total = oc_index + oc_per_query * args.queries
                lines.append(bm25_line + f" {oc_total:>13,.0f}* {oc_peak:>9.0f} {oc_total / seconds:>7.0f}x")
        profile("bm25", bm25(1000))

    if "topk" in only:
        embedder = Precomputed([r["question"] for r in pool + queries])
        topk = lambda count: lambda: TopkRetriever(ice_num=SHOTS, embedder=embedder).retrieve(pool, queries[:count], READER)  # noqa: E731
        seconds, peak, _ = timed(topk(args.queries), memory=topk(args.queries // 10))
        lines.append(f"{'topk search (precomputed)':28} {args.pool:>8,} {args.queries:>8,} {seconds:>11.1f} {peak:>9.0f}")
        profile("topk search", topk(1000))
    if "embed" in only:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from promptkit.retrievers.embedding import SentenceTransformerEmbedder

        model = SentenceTransformerEmbedder()
        model(["warm-up: load the model"])
        sample = [r["question"] for r in pool[: args.embed_texts]]
        seconds, _, _ = timed(lambda: model(sample))
        projected = seconds / len(sample) * (args.pool + args.queries)
        lines.append(
            f"{'topk embed (MiniLM, CPU)':28} {args.pool:>8,} {args.queries:>8,} {projected:>10,.0f}‡ {'':>9}   "
            f"({len(sample) / seconds:,.0f} texts/s on {len(sample)} rows)"
        )

    kept, differ = float("nan"), 0
    if "fitting" in only:
        with tempfile.TemporaryDirectory() as folder:
            fit, loop, kept, differ = fitting_workload(pool[:200], queries[: args.fit_queries], Path(folder))
        lines.append(
            f"{'fitting, 8 shots':28} {200:>8,} {args.fit_queries:>8,} {fit[0]:>11.2f} {fit[1]:>9.0f} {loop[0]:>13.2f}† {loop[1]:>9.0f} "
            f"{loop[0] / fit[0]:>7.1f}x"
        )
    header = f"{'workload':28} {'pool':>8} {'queries':>8} {'promptkit s':>11} {'peak MiB':>9} {'reference s':>14} {'peak MiB':>9} {'ratio':>8}"
    print(header)
    print("-" * len(header))
    print("\n".join(lines))
    print()
    if "bm25" in only:
        print(f"* OpenCompass BM25Retriever: index build + per-query time on {args.oc_queries} queries × {args.queries:,}.")
    if "fitting" in only:
        print(f"† the drop-the-last-shot loop on the same renderer and tokenizer; {kept:.1f} of 8 shots kept on average; prompts that differ: {differ}")
    if "embed" in only:
        print("‡ projected from the measured throughput to embed pool + queries once (then cached with cache_dir).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
