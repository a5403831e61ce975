"""Record the rows OpenCompass's own dataset classes give for the loader test cases.

    /tmp/ocvenv/bin/python tools/opencompass_reference/record_loader_rows.py [CASE ...]

Run it with the scratch venv's Python (``setup_venv.sh``, plus ``pip install
pytest``, which the test module imports).  For each case of ``CASES`` in
``tests/data/test_opencompass_loaders.py`` (all, or those named), it writes the
case's files into a fresh folder, points ``COMPASS_DATA_CACHE`` at it (and runs
there), calls the real class's ``load(**kwargs)`` and writes what it returns to
``tests/data/opencompass_expected/<case>.json``: a ``Dataset``'s rows, or a
``DatasetDict``'s rows by split, in order.

Each dataset module is imported alone: ``opencompass.datasets`` is replaced by
an empty package over the same folder, so its ``__init__`` (which imports every
dataset, evaluator and their dependencies) does not run.  ``regex``, ``absl``
and ``gradio_client``, imported at the top of the MBPP, IFEval and BigCodeBench
modules but not by their ``load()``, get placeholders (``stubs/oc_autostub.py``).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "data" / "opencompass_expected"

#: class → the module of opencompass.datasets that defines it.
MODULES = {
    "ARCDataset": "arc",
    **{name: "circular" for name in ("CircularARCDataset", "CircularCEvalDataset", "CircularCMMLUDataset", "CircularCSQADataset",
                                     "CircularHSWAGDataset", "CircularMMLUDataset", "CircularPIQADataset", "CircularRaceDataset",
                                     "CircularsiqaDataset")},
    "Aime2024Dataset": "aime2024",
    "BBHDataset": "bbh",
    "BigCodeBenchDataset": "bigcodebench.bigcodebench",
    "BoolQDataset": "boolq",
    "BoolQDatasetV2": "boolq",
    "BoolQDatasetV3": "boolq",
    "CEvalDataset": "ceval",
    "CMMLUDataset": "cmmlu",
    "CustomDataset": "custom",
    "GPQADataset": "gpqa",
    "GSM8KDataset": "gsm8k",
    "HFDataset": "huggingface",
    "HellaswagDataset": "hellaswag",
    "HellaswagDatasetClean": "hellaswag",
    "HellaswagDataset_V2": "hellaswag",
    "HellaswagDataset_V3": "hellaswag",
    "HellaswagDatasetwithICE": "hellaswag",
    "HumanevalDataset": "humaneval",
    "IFEvalDataset": "IFEval.ifeval",
    "MATHDataset": "math",
    "MBPPDataset": "mbpp",
    "MBPPDatasetV2": "mbpp",
    "MMLUDataset": "mmlu",
    "MMLUProDataset": "mmlu_pro",
    "MathBenchDataset": "mathbench",
    "NQOpenDataset": "natural_question",
    "NaturalQuestionDataset": "natural_question",
    "PIQADataset": "piqa",
    "PIQADatasetV2": "piqa",
    "PIQADatasetV3": "piqa",
    "RaceDataset": "race",
    "SanitizedMBPPDataset": "mbpp",
    "SiqaDatasetV3": "siqa",
    "TriviaQADataset": "triviaqa",
    "TriviaQADatasetV2": "triviaqa",
    "WinograndeDataset": "winogrande",
    "WinograndeDatasetV2": "winogrande",
    "WinograndeDatasetV3": "winogrande",
    "commonsenseqaDataset": "commonsenseqa",
    "siqaDataset": "siqa",
    "siqaDataset_V2": "siqa",
}


def _isolate_dataset_modules() -> None:
    import oc_autostub  # the venv's placeholders for heavy imports (setup_venv.sh)
    import opencompass

    oc_autostub.STUBBED = oc_autostub.STUBBED | {"regex", "absl", "gradio_client", "langdetect", "tree_sitter", "tree_sitter_languages"}
    package = types.ModuleType("opencompass.datasets")
    package.__path__ = [str(Path(opencompass.__file__).parent / "datasets")]
    sys.modules["opencompass.datasets"] = package


def _cases_module() -> Any:
    sys.path.insert(0, str(REPO / "tests" / "data"))
    return importlib.import_module("test_opencompass_loaders")


def record(case_id: str, case: dict[str, Any], cases: Any) -> dict[str, Any]:
    cls = getattr(importlib.import_module(f"opencompass.datasets.{MODULES[case['class']]}"), case["class"])
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as root:
        cases.write_files(Path(root), case["files"])
        os.environ["COMPASS_DATA_CACHE"] = root
        os.chdir(root)
        try:
            loaded = cls.load(**case["kwargs"])
        finally:
            os.chdir(here)
    if hasattr(loaded, "to_list"):
        output: dict[str, Any] = {"type": "Dataset", "rows": loaded.to_list()}
    else:
        output = {"type": "DatasetDict", "splits": {split: rows.to_list() for split, rows in loaded.items()}}
    import opencompass

    return {"class": case["class"], "case": cases.case_digest(case), "engine": f"opencompass {opencompass.__version__}", "output": output}


def main(argv: list[str]) -> int:
    _isolate_dataset_modules()
    cases = _cases_module()
    chosen = argv or sorted(cases.CASES)
    OUT.mkdir(parents=True, exist_ok=True)
    for case_id in chosen:
        data = record(case_id, cases.CASES[case_id], cases)
        text = json.dumps(data, ensure_ascii=False, indent=1, default=cases._encode) + "\n"
        (OUT / f"{case_id}.json").write_text(text, encoding="utf-8")
        sys.stderr.write(f"recorded {case_id}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
