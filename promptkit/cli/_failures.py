"""The datasets of a run whose rows cannot be read, said one line each, and missing data once per config.

``preview`` and ``render`` (to stdout) report a dataset whose rows cannot be read and go on with the others.  When
the data folder of an OpenCompass config is missing, every dataset of the config misses its files (OpenCompass's
``mmlu_ppl`` reads 57 subject files from one folder): that is one line for the config, naming the folder once, the
first file looked for, and the ways on (``--data-root``, ``--rows``).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from promptkit.data.opencompass.base import MissingDataError
from promptkit.errors import DatasetError

__all__ = ["DatasetFailures"]


class DatasetFailures:
    """Collects the run's unreadable datasets; :meth:`report` says those not said yet (missing data grouped by config)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say
        #: config → dataset abbr → its missing-data error (a dataset rendered for several models counts once).
        self._missing: dict[str, dict[str, MissingDataError]] = {}
        #: How many datasets (dataset × model pairs) failed.
        self.count = 0

    def add(self, error: DatasetError) -> None:
        """A dataset whose rows cannot be read: said now, or, for missing data of a config, with the config's others."""
        self.count += 1
        config = error.context.get("config")
        if isinstance(error, MissingDataError) and config is not None:
            self._missing.setdefault(str(config), {}).setdefault(str(error.context.get("dataset")), error)
            return
        self._say(f"promptkit: error: {error}")

    def report(self) -> None:
        """One line per config whose datasets miss their data (the error itself when only one dataset does)."""
        for config, errors in self._missing.items():
            first = next(iter(errors.values()))
            folders = [os.path.dirname(error.missing) for error in errors.values() if error.missing is not None]
            if len(errors) == 1 or not folders:
                self._say(f"promptkit: error: {first}")
                continue
            folder = os.path.commonpath(folders)
            self._say(
                f"promptkit: error: config {config}: {len(errors)} datasets miss their data files under {folder} (the first: "
                f"{first.missing}, dataset {first.context.get('dataset')!r}); {first.advice}"
            )
        self._missing.clear()
