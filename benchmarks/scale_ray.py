"""One `promptkit render` equivalent on Ray Data, for bench_scale.py's "Ray (local)" column (promptkit.integrations.ray).

    python3 benchmarks/scale_ray.py DATASET_CONFIG MODEL_CONFIG|'' OUT.jsonl

Starts a local Ray instance on this machine's CPUs (``ray.init``), builds the
renderer from the configs, renders ``rows_dataset(renderer)`` with
``render_dataset`` (shots picked once on the driver, the prepared renderer
shared with an actor pool) and writes every record line to ``OUT``, in order,
as a runner would. The same code runs against a cluster with
``ray.init("ray://HOST:10001")`` (docs/ray.md).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path


def main() -> None:
    import ray

    from promptkit import Renderer, load_datasets, load_models
    from promptkit.integrations.ray import render_dataset, rows_dataset

    dataset_config, model_config, out = sys.argv[1:4]
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    ray.data.DataContext.get_current().enable_progress_bars = False
    [dataset] = load_datasets(dataset_config)
    renderer = Renderer(dataset, load_models(model_config)[0] if model_config else None)
    with Path(out).open("w", encoding="utf-8") as handle:
        for row in render_dataset(rows_dataset(renderer), renderer).iter_rows():
            handle.write(row["record"] + "\n")
    ray.shutdown()


if __name__ == "__main__":
    main()
