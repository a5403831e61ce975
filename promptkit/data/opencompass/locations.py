"""Where OpenCompass keeps each dataset under its data folder: dataset id → relative path.

OpenCompass's ``get_data_path`` maps a dataset id (``path='opencompass/mmlu'``
in a config) to a path under its data folder (``COMPASS_DATA_CACHE``).  These
are the ids the natively read dataset classes' configs use; any other path is
taken as it is, relative to the data root, as OpenCompass does for an id it does
not know.
"""

from __future__ import annotations

__all__ = ["DATA_LOCATIONS", "local_path"]

#: dataset id → path under the data root, as in OpenCompass 0.5.4.
DATA_LOCATIONS: dict[str, str] = {
    "opencompass/IFEval": "./data/ifeval/input_data.jsonl",
    "opencompass/IFbench": "./data/IFBench/IFBench_test.jsonl",
    "opencompass/ai2_arc-dev": "./data/ARC/ARC-c/ARC-Challenge-Dev.jsonl",
    "opencompass/ai2_arc-easy-dev": "./data/ARC/ARC-e/ARC-Easy-Dev.jsonl",
    "opencompass/ai2_arc-test": "./data/ARC/ARC-c/ARC-Challenge-Test.jsonl",
    "opencompass/aime2024": "./data/aime.jsonl",
    "opencompass/aime2025": "./data/aime2025/aime2025.jsonl",
    "opencompass/aime2026": "./data/aime2026/aime2026.jsonl",
    "opencompass/bbh": "./data/BBH/data",
    "opencompass/bigcodebench": "./data/bigcodebench/",
    "opencompass/boolq": "./data/SuperGLUE/BoolQ/val.jsonl",
    "opencompass/ceval-exam": "./data/ceval/formal_ceval",
    "opencompass/cmmlu": "./data/cmmlu/",
    "opencompass/commonsense_qa": "./data/commonsenseqa",
    "opencompass/gsm8k": "./data/gsm8k/",
    "opencompass/hellaswag": "./data/hellaswag/hellaswag.jsonl",
    "opencompass/hellaswag_ice": "./data/hellaswag/",
    "opencompass/hmmt2026": "./data/hmmt2026/hmmt_feb_2026.jsonl",
    "opencompass/humaneval": "./data/humaneval/human-eval-v2-20210705.jsonl",
    "opencompass/humaneval_cn": "./data/humaneval_cn/human-eval-cn-v2-20210705.jsonl",
    "opencompass/math": "./data/math/",
    "opencompass/mbpp": "./data/mbpp/mbpp.jsonl",
    "opencompass/mbpp_plus": "./data/mbpp_plus/mbpp_plus.jsonl",
    "opencompass/mmlu": "./data/mmlu/",
    "opencompass/mmlu_pro": "./data/mmlu_pro",
    "opencompass/natural_question": "./data/nq/",
    "opencompass/nq_open": "./data/nq-open/",
    "opencompass/piqa": "./data/piqa",
    "opencompass/race": "./data/race/",
    "opencompass/sanitized_mbpp": "./data/mbpp/sanitized-mbpp.jsonl",
    "opencompass/siqa": "./data/siqa",
    "opencompass/trivia_qa": "./data/triviaqa/",
    "opencompass/winogrande": "./data/winogrande/",
}


def local_path(dataset_id: str) -> str:
    """The path of ``dataset_id`` under the data root (an unknown id is itself a relative path)."""
    return DATA_LOCATIONS.get(dataset_id, dataset_id)
