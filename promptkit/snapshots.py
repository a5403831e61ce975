"""Snapshots: the records of a set of configs pinned in a folder, and checked against a fresh render.

A snapshot folder holds ``snapshot.json`` (the manifest) and one JSON Lines file
per dataset × model, ``<dataset>/<model>.jsonl``, of the records ``promptkit
render --spans`` writes: reviewable in a pull request, diffable by line.  The
manifest says what to render again and how the records were written::

    {"snapshot_format": 1, "promptkit": "0.1.0",
     "record_keys": ["dataset", "model", "index", ...],   # the keys every record carries
     "configs": ["../configs/datasets/x.py"], "models": ["../configs/models/y.py"], "dataset": null,
     "files": {"x_demo/y-model.jsonl": 10}}

Config paths are relative to the snapshot folder, so the project can move.
:func:`check_snapshot` renders the configs again and compares every record
with its pinned one (:func:`promptkit.diff.diff_records`, all record keys; the
provenance hashes say which input changed).  A folder written with another
snapshot format, or by a promptkit whose records carry other keys, is refused
with what changed, since every prompt would otherwise be reported as changed.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from promptkit.diff import DiffReport, RecordSet, config_records, diff_records
from promptkit.diff.records import Record
from promptkit.errors import ConfigError
from promptkit.records.record import RECORD_KEYS

__all__ = ["MANIFEST", "SNAPSHOT_FORMAT", "Snapshot", "check_snapshot", "record_keys", "write_snapshot"]

#: The version of the folder's layout and manifest; a folder of another version is refused.
SNAPSHOT_FORMAT = 1
MANIFEST = "snapshot.json"
_UNSAFE = re.compile(r"[^\w.@+-]+")
_NO_MODEL = "no-model"


def record_keys() -> list[str]:
    """The keys every record of this promptkit carries (those of the plainest prompt), in record order."""
    return list(RECORD_KEYS)


class Snapshot:
    """A snapshot folder's manifest, read and checked (see the module docstring); :meth:`records` the pinned records."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        manifest = self.directory / MANIFEST
        if not manifest.is_file():
            raise ConfigError(
                f"{self.directory} is not a prompt snapshot (it has no {MANIFEST}); write one with `promptkit snapshot write {self.directory} CONFIG…`"
            )
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ConfigError(f"{manifest}: not a JSON manifest ({error}); write the snapshot again") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{manifest}: not a JSON object; write the snapshot again")
        self.manifest: dict[str, Any] = data
        self._check_format()
        self.configs: list[str] = [str(self.directory / path) for path in data.get("configs", [])]
        self.models: list[str] = [str(self.directory / path) for path in data.get("models", [])]
        self.dataset: str | None = data.get("dataset")

    def _check_format(self) -> None:
        data = self.manifest
        writer = f"promptkit {data.get('promptkit', '(unknown version)')}"
        found = data.get("snapshot_format")
        if found != SNAPSHOT_FORMAT:
            raise ConfigError(
                f"{self.directory} was written by {writer} in snapshot format {found}; this promptkit reads format {SNAPSHOT_FORMAT}: "
                f"write the snapshot again ({self.rewrite_hint()})"
            )
        pinned, now = data.get("record_keys") or [], record_keys()
        if pinned != now:
            added = [key for key in now if key not in pinned]
            dropped = [key for key in pinned if key not in now]
            change = "; ".join(
                part
                for part in (
                    f"records now carry {_names(added)}, which the snapshot's lack" if added else "",
                    f"they no longer carry {_names(dropped)}" if dropped else "",
                    "" if added or dropped else "the record keys are in another order",
                )
                if part
            )
            raise ConfigError(
                f"{self.directory} was written by {writer}, whose records have another format: {change}; "
                f"write the snapshot again ({self.rewrite_hint()})"
            )

    def rewrite_hint(self) -> str:
        """The command that writes this snapshot again, runnable from the current folder."""
        configs = [os.path.relpath(self.directory / path) for path in self.manifest.get("configs", [])]
        models = [f"--model {os.path.relpath(self.directory / path)}" for path in self.manifest.get("models", [])]
        dataset = [f"--dataset '{self.manifest['dataset']}'"] if self.manifest.get("dataset") else []
        return " ".join(["promptkit snapshot write", str(self.directory), *configs, *models, *dataset])

    def records(self) -> RecordSet:
        """The pinned records, in the manifest's file order, each placed by file and line for messages."""
        records: list[Record] = []
        places: list[str] = []
        for name in self.manifest.get("files", {}):
            file = self.directory / name
            if not file.is_file():
                raise ConfigError(f"{self.directory}: the manifest names {name}, which is missing; write the snapshot again ({self.rewrite_hint()})")
            for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError as error:
                        raise ConfigError(f"{file} line {number}: not a JSON record ({error.msg}); write the snapshot again") from None
                    places.append(f"{file} line {number}")
        return RecordSet(f"snapshot {self.directory}", records, places)


def write_snapshot(
    directory: str | Path, dataset_configs: Sequence[str | Path], model_configs: Sequence[str | Path] = (), *, dataset: str | None = None
) -> int:
    """Render every dataset of ``dataset_configs`` for each model and pin the records in ``directory``; how many.

    ``directory`` is created, or replaced when it is a snapshot already (its files are rewritten, stale ones
    removed); a folder that holds other files is refused.
    """
    folder = Path(directory)
    if not dataset_configs:
        raise ConfigError("a snapshot pins the prompts of at least one dataset config")
    if folder.exists() and (not folder.is_dir() or (any(folder.iterdir()) and not (folder / MANIFEST).is_file())):
        raise ConfigError(f"{folder} exists and is not a prompt snapshot; give a new or empty folder (nothing was written)")
    records = config_records(dataset_configs, model_configs, dataset=dataset)
    files: dict[str, list[Record]] = {}
    for record in records:
        name = f"{_safe(record.get('dataset'))}/{_safe(record.get('model') or _NO_MODEL)}.jsonl"
        files.setdefault(name, []).append(record)
    _remove_pinned(folder)
    for name, group in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in group), encoding="utf-8")
    manifest = {
        "snapshot_format": SNAPSHOT_FORMAT,
        "promptkit": _version(),
        "record_keys": record_keys(),
        "configs": [_relative(path, folder) for path in dataset_configs],
        "models": [_relative(path, folder) for path in model_configs],
        "dataset": dataset,
        "files": {name: len(group) for name, group in files.items()},
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return len(records)


def check_snapshot(directory: str | Path) -> DiffReport:
    """The snapshot's configs rendered again and compared, record by record, with the pinned records."""
    snapshot = Snapshot(directory)
    pinned = snapshot.records()
    now = config_records(snapshot.configs, snapshot.models, dataset=snapshot.dataset)
    return diff_records(pinned, RecordSet("rendered now", now), fields=True)


def _remove_pinned(folder: Path) -> None:
    """The files an earlier snapshot in ``folder`` wrote (by its manifest), and the folders they leave empty."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        return
    try:
        names = json.loads(manifest.read_text(encoding="utf-8")).get("files", {})
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):  # a broken manifest: its files are overwritten
        names = {}
    for name in names:
        path = folder / name
        path.unlink(missing_ok=True)
        if path.parent != folder and path.parent.is_dir() and not any(path.parent.iterdir()):
            path.parent.rmdir()
    manifest.unlink()


def _names(keys: list[str]) -> str:
    return ", ".join(repr(key) for key in keys)


def _safe(name: object) -> str:
    """A file name from an abbr: path separators and other unsafe characters as ``_``."""
    return _UNSAFE.sub("_", str(name)).strip("._") or "_"


def _relative(path: str | Path, folder: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), folder.resolve())).as_posix()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("promptkit")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"
