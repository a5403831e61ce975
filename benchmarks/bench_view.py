"""How large a `promptkit view` page gets and how fast it is built and opened, for a 10,000-prompt run.

    python3 benchmarks/bench_view.py [--rows 10000] [--workload 1] [--out view.html]   (from the repository root)

Renders ``--rows`` test rows of a workload of bench_render.py (default: "5-shot
chat, Llama-3 meta", 10,000 prompts) into an :class:`~promptkit.HtmlView` and
prints the time to collect the prompts (rendering, spans), to write the page,
and the file's size. With playwright and the system's ``chromium`` it then
opens the page headless and prints the time until the page is ready (its data
parsed, the first rows listed), to open a row, and to search every prompt for
a text. One run, wall-clock time: a measurement to quote, not a test.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_render import READER  # noqa: E402
from workloads import WORKLOADS, write_data  # noqa: E402

from promptkit import HtmlView, Renderer, build_dataset, build_model  # noqa: E402
from promptkit.data.loaders import read_rows  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--workload", type=int, default=1, help="index into workloads.WORKLOADS (default 1: 5-shot chat, Llama-3 meta)")
    parser.add_argument("--out", help="keep the page here (default: a temporary file)")
    args = parser.parse_args()
    workload = WORKLOADS[args.workload]
    with tempfile.TemporaryDirectory() as folder:
        paths = write_data(Path(folder), workload, args.rows)
        rows = {split: read_rows(Path(path)) for split, path in paths.items()}
        dataset = build_dataset(dict(abbr="bench", type="RowsDataset", rows=rows, reader_cfg=READER, infer_cfg=workload.infer_cfg))
        renderer = Renderer(dataset, build_model(workload.model) if workload.model else None)
        start = time.perf_counter()
        view = HtmlView(title=f"bench: {workload.name}")
        view.add(renderer)
        collected = time.perf_counter()
        page = view.html()
        out = Path(args.out) if args.out else Path(folder) / "view.html"
        out.write_text(page, encoding="utf-8")
        written = time.perf_counter()
        print(f"{workload.name}: {len(view):,} prompts")
        print(f"  collect {collected - start:.2f} s ({len(view) / (collected - start):,.0f} prompts/s), write {written - collected:.2f} s")
        print(f"  page {out.stat().st_size / 2**20:.1f} MiB")
        _open(out)


def _open(page: Path) -> None:
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        print("  (no playwright or chromium: the page was not opened)")
        return
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(profile, executable_path=chromium, args=ARGS, headless=True, offline=True)
        tab = context.new_page()
        start = time.perf_counter()
        tab.goto(page.as_uri())
        tab.wait_for_selector("body[data-ready=true]", timeout=120_000)
        ready = time.perf_counter()
        tab.locator("details.row").nth(1).locator("summary").click()
        tab.locator("details.row").nth(1).locator("article.prompt").wait_for()
        opened = time.perf_counter()
        tab.fill("#pk-search", "no prompt holds this text")
        tab.locator("#pk-count", has_text="0 of").wait_for(timeout=120_000)
        searched = time.perf_counter()
        print(f"  chromium: ready {ready - start:.2f} s, a row opened {opened - ready:.2f} s, a search of every prompt {searched - opened:.2f} s")
        context.close()


if __name__ == "__main__":
    main()
