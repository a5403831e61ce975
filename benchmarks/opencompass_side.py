"""The same workloads through OpenCompass 0.5.4's own prompt path (imported only when available).

Uses the reference harness in tools/opencompass_reference/ for the pieces that
stand in for OpenCompass's dataset and model classes, then runs the
GenInferencer/PPLInferencer prompt loops on OpenCompass's retriever, template
and parser objects — without token counting, as no workload sets max_seq_len.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "tools" / "opencompass_reference"))
os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")  # keep the table readable

import render_with_opencompass as reference  # noqa: E402  (imports opencompass; ImportError when absent)


def runner(workload: Any, paths: dict[str, str], reader_cfg: dict[str, Any]) -> Callable[[], int]:
    """The rows are loaded into OpenCompass's DatasetReader once, untimed, as promptkit's are."""
    infer = workload.infer_cfg
    dataset = reference.ReferenceDataset(paths, reader_cfg, base_dir="")

    def run() -> int:
        with contextlib.redirect_stderr(io.StringIO()):  # OpenCompass's retrievers draw tqdm bars
            return _run()

    def _run() -> int:
        model = reference.ReferenceModel(workload.model)
        ice_template = reference.build_template(infer.get("ice_template"))
        prompt_template = reference.build_template(infer.get("prompt_template"))
        retriever = reference.build_retriever(infer["retriever"], dataset)
        count = 0
        if infer["inferencer"]["type"] == "GenInferencer":
            for index, ice_idx in enumerate(retriever.retrieve()):
                ice = retriever.generate_ice(ice_idx, ice_template=ice_template)
                prompt = retriever.generate_prompt_for_generate_task(index, ice, ice_template=ice_template, prompt_template=prompt_template)
                model.final_input(prompt, "gen")
                count += 1
        else:
            labels = retriever.get_labels(ice_template=ice_template, prompt_template=prompt_template)
            ice_lists = retriever.retrieve()
            ices = [retriever.generate_ice(ice_idx, ice_template=ice_template) for ice_idx in ice_lists]
            for label in labels:
                for index, ice in enumerate(ices):
                    prompt = retriever.generate_label_prompt(index, ice, label, ice_template=ice_template, prompt_template=prompt_template)
                    model.final_input(prompt, "ppl")
                    count += 1
        return count

    return run
