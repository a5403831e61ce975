"""OpenCompass's dataset classes, read natively: its configs' ``type=MMLUDataset`` and friends, on its data folder.

Each class takes the keywords its OpenCompass namesake's ``load()`` takes
(``path``, ``name``, ``local_mode`` …) and gives the rows that ``load()`` gives:
the same columns, in the same order, with the same value types.  Data files are
found as OpenCompass finds them (:mod:`promptkit.data.opencompass.base`): under
``data_root=``, else ``$COMPASS_DATA_CACHE``, in OpenCompass's layout
(``data/mmlu/dev/abstract_algebra_dev.csv`` …).  Nothing is downloaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from promptkit.data.opencompass.base import DATA_ROOT_ENV, OpenCompassDataset

if TYPE_CHECKING:
    from promptkit.data.opencompass.registry import OPENCOMPASS_DATASETS

__all__ = ["DATA_ROOT_ENV", "OPENCOMPASS_DATASETS", "OpenCompassDataset"]


def __getattr__(name: str) -> Any:
    # The dataset classes are imported when a config names one (a missing data file's error needs only base).
    if name != "OPENCOMPASS_DATASETS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from promptkit.data.opencompass.registry import OPENCOMPASS_DATASETS

    return OPENCOMPASS_DATASETS
