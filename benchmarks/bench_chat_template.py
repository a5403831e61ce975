"""Cost of a cached chat template against a plain meta template, on the chat workloads of bench_render.py.

    python3 benchmarks/bench_chat_template.py [--rows 5000] [--repeat 7]   (from the repository root)

For "5-shot chat, Llama-3 meta" (w2) and "5-shot chat, chat model" (w4), renders
the same rows through the workload's own model (a completion meta template;
OpenAI-style messages) and through Llama-3's Hugging Face chat template
(``HuggingFacewithChatTemplate`` on configs/models/hf/llama3_8b_instruct), and
prints prompts/second for both and the cost ratio (meta rate / chat-template rate):

* end to end — config compiled, shots picked, every prompt rendered (the target: at most 2x);
* model step — the model alone on the same PromptLists: the meta template against the
  chat-template model (OpenCompass's conversion to messages, then the template);
* template alone — the meta template against the bound chat template on the messages
  the chat-template model builds (Jinja only).

Both are timed in this one process, alternately, best of ``--repeat`` runs each,
in CPU time of the process (``time.process_time``), so that other programs
competing for the cores disturb the ratio as little as possible.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_render import READER, promptkit_runner  # noqa: E402
from workloads import WORKLOADS, Workload, write_data  # noqa: E402

from promptkit import ChatTemplateModel, Renderer, build_dataset, build_model  # noqa: E402
from promptkit.data.loaders import read_rows  # noqa: E402

CHAT_TEMPLATE_MODEL = dict(abbr="llama3-chat-template", type="HuggingFacewithChatTemplate", path="configs/models/hf/llama3_8b_instruct")


def best_rates(runs: list[Callable[[], int]], repeat: int) -> tuple[list[float], int]:
    """Prompts per CPU-second of each run (best of ``repeat``, runs alternating), and the prompt count."""
    best = [float("inf")] * len(runs)
    counts = set()
    for _ in range(repeat):
        for i, run in enumerate(runs):
            start = time.process_time()
            counts.add(run())
            best[i] = min(best[i], time.process_time() - start)
    (count,) = counts
    return [count / seconds for seconds in best], count


def step_runners(workload: Workload, paths: dict[str, str]) -> list[Callable[[], int]]:
    """The model step alone: meta template and chat-template model on each PromptList; the bound template on messages."""
    rows = {split: read_rows(Path(path)) for split, path in paths.items()}
    dataset = build_dataset(dict(abbr=workload.name, type="RowsDataset", rows=rows, reader_cfg=READER, infer_cfg=workload.infer_cfg))
    meta = build_model(workload.model) if workload.model else None
    chat = build_model(CHAT_TEMPLATE_MODEL)
    assert meta is not None and isinstance(chat, ChatTemplateModel)
    prompts = [p.intermediate for p in Renderer(dataset, meta)]
    messages = [chat.messages(prompt) for prompt in prompts]
    bound = chat.chat_template.bind()

    def meta_step() -> int:
        return sum(1 for prompt in prompts if meta.render(prompt) is not None)

    def chat_step() -> int:
        return sum(1 for prompt in prompts if chat.render(prompt))

    def template_step() -> int:
        return sum(1 for conversation in messages if bound.render(conversation, add_generation_prompt=True, plain_text=True))

    return [meta_step, chat_step, template_step]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000, help="test rows per workload (default 5000)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per model; the best counts (default 7)")
    args = parser.parse_args()
    header = f"{'workload':28} {'prompts':>8} {'meta template/s':>16} {'chat template/s':>16} {'end to end':>11} {'model step':>11} {'template alone':>15}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for number in (2, 4):
            workload = WORKLOADS[number - 1]
            paths = write_data(Path(tmp) / str(number), workload, args.rows)
            runs = [promptkit_runner(workload, paths), promptkit_runner(replace(workload, model=CHAT_TEMPLATE_MODEL), paths)]
            (meta_rate, chat_rate), count = best_rates(runs, args.repeat)
            (meta_step, chat_step, template_step), _ = best_rates(step_runners(workload, paths), args.repeat)
            print(
                f"w{number} {workload.name:25} {count:>8} {meta_rate:>16,.0f} {chat_rate:>16,.0f} {meta_rate / chat_rate:>10.2f}x "
                f"{meta_step / chat_step:>10.2f}x {meta_step / template_step:>14.2f}x",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
