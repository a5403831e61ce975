"""OpenCompass's dataset class names → promptkit's native readers of the same data."""

from __future__ import annotations

from promptkit.data.opencompass import circular, code, commonsense, custom, exams, math, mmlu, open_qa
from promptkit.data.opencompass.base import OpenCompassDataset

__all__ = ["OPENCOMPASS_DATASETS"]

#: class name → class, for every dataset class promptkit reads natively.
OPENCOMPASS_DATASETS: dict[str, type[OpenCompassDataset]] = {
    name: value
    for module in (custom, mmlu, math, code, exams, commonsense, open_qa, circular)
    for name in module.__all__
    if isinstance(value := getattr(module, name), type) and issubclass(value, OpenCompassDataset)
}
