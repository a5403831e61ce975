"""A snapshot folder's manifest (:class:`Snapshot`), and :func:`write_snapshot` / :func:`check_snapshot` (see :mod:`promptkit.snapshots`)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from promptkit.diff import DiffReport, RecordSet, config_records, diff_records
from promptkit.diff.records import Record
from promptkit.errors import ConfigError, PromptkitError
from promptkit.records.json_text import JsonText, NonFinite, finite
from promptkit.records.record import RECORD_KEYS
from promptkit.snapshots.folder import replace_folder, write_file

__all__ = ["MANIFEST", "SNAPSHOT_FORMAT", "Snapshot", "check_snapshot", "pinned_files", "record_keys", "write_snapshot"]

#: The version of the folder's layout and manifest; a folder of another version is refused.
SNAPSHOT_FORMAT = 1
MANIFEST = "snapshot.json"
_UNSAFE = re.compile(r"[^\w.@+-]+")
_NO_MODEL = "no-model"
_INSIDE_ONLY = "a snapshot names files inside its folder only: remove that entry, or the folder, and write the snapshot again"


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
        data = _read_manifest(self.directory)
        if not isinstance(data, dict):
            raise ConfigError(f"{manifest}: not a JSON object; write the snapshot again")
        self.manifest: dict[str, Any] = data
        #: The files the manifest names (each inside the folder), ``/``-separated, in its order.
        self.files = pinned_files(self.directory, data)
        self._check_format()
        self.configs: list[str] = [str(self.directory / path) for path in data.get("configs", [])]
        self.models: list[str] = [str(self.directory / path) for path in data.get("models", [])]
        self.dataset: str | None = data.get("dataset")
        #: The ``--rows`` the snapshot was written with (``SPLIT=FILE`` kept), their files relative to the folder.
        self.rows: list[str] = [_rows_at(entry, self.directory) for entry in data.get("rows", [])]

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
        rows = [f"--rows {_rows_relative(entry, Path.cwd(), self.directory)}" for entry in self.manifest.get("rows", [])]
        return " ".join(["promptkit snapshot write", str(self.directory), *configs, *models, *dataset, *rows])

    def records(self) -> RecordSet:
        """The pinned records, in the manifest's file order, each placed by file and line for messages."""
        records: list[Record] = []
        places: list[str] = []
        for name in self.files:
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
    directory: str | Path,
    dataset_configs: Sequence[str | Path],
    model_configs: Sequence[str | Path] = (),
    *,
    dataset: str | None = None,
    data_root: str | Path | None = None,
    rows: Sequence[str] = (),
    model_paths: Mapping[str, str] | None = None,
) -> int:
    """Render every dataset of ``dataset_configs`` for each model and pin the records in ``directory``; how many.

    ``data_root`` and ``rows`` are where the datasets read their rows (``--data-root``, ``--rows``); the rows files are
    pinned in the manifest (``check`` reads them again), the data root is not: it is the checking machine's, and
    neither are ``model_paths`` (``--model-path``: where models named by hub id are).

    ``directory`` is created, or replaced as a whole when it is a snapshot already (:mod:`promptkit.snapshots.folder`:
    the old snapshot stays as it was until the new one is complete; files its manifest does not name are kept,
    stale pinned files removed); a folder that holds other files and no manifest is refused. A failure to write is
    a :class:`PromptkitError` saying that the old snapshot is left as it was.
    """
    folder = Path(directory)
    if not dataset_configs:
        raise ConfigError("a snapshot pins the prompts of at least one dataset config")
    if folder.exists() and (not folder.is_dir() or (any(folder.iterdir()) and not (folder / MANIFEST).is_file())):
        raise ConfigError(f"{folder} exists and is not a prompt snapshot; give a new or empty folder (nothing was written)")
    real, here = Path(os.path.realpath(folder)), Path.cwd().resolve()
    if real == here or real in here.parents:
        raise ConfigError(
            f"{folder} holds the current folder, and writing a snapshot replaces its folder as a whole: give the snapshot a folder of its own"
        )
    existed = folder.is_dir()
    dropped = pinned_files(folder, _read_manifest(folder, strict=False)) if (folder / MANIFEST).is_file() else []
    records = config_records(
        dataset_configs, model_configs, dataset=dataset, data_root=data_root, rows=list(rows) or None, model_paths=model_paths
    )
    files: dict[str, list[Record]] = {}
    for record in records:
        name = f"{_safe(record.get('dataset'))}/{_safe(record.get('model') or _NO_MODEL)}.jsonl"
        files.setdefault(name, []).append(record)
    manifest = {
        "snapshot_format": SNAPSHOT_FORMAT,
        "promptkit": _version(),
        "record_keys": record_keys(),
        "configs": [_relative(path, folder) for path in dataset_configs],
        "models": [_relative(path, folder) for path in model_configs],
        "dataset": dataset,
        "rows": [_rows_relative(entry, folder) for entry in rows],
        "files": {name: len(group) for name, group in files.items()},
    }

    text, non_finite = JsonText(), NonFinite()

    def lines(group: list[Record]) -> Iterator[str]:
        nulls: list[str] = []
        for record in group:
            yield text(record, nulls) + "\n"
            if nulls:
                non_finite.note(str(record.get("id")), record.get("model"), nulls.copy())
                nulls.clear()

    def fill(new: Path) -> None:
        for name, group in files.items():
            write_file(new / name, lines(group))
        write_file(new / MANIFEST, [json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"])

    try:
        replace_folder(folder, fill, dropped)
    except OSError as error:
        kept = "the snapshot there is left as it was" if existed else "nothing was written"
        where = f" ({error.filename})" if error.filename else ""
        raise PromptkitError(f"cannot write the snapshot {folder}: {error.strerror or error}{where}; {kept}") from None
    non_finite.warn()
    return len(records)


def check_snapshot(
    directory: str | Path, *, data_root: str | Path | None = None, rows: Sequence[str] = (), model_paths: Mapping[str, str] | None = None
) -> DiffReport:
    """The snapshot's configs rendered again and compared, record by record, with the pinned records: from ``rows``
    when given, else from the rows files the snapshot was written with, else from each dataset's own data (under
    ``data_root``)."""
    snapshot = Snapshot(directory)
    pinned = snapshot.records()
    now = config_records(
        snapshot.configs,
        snapshot.models,
        dataset=snapshot.dataset,
        data_root=data_root,
        rows=list(rows or snapshot.rows) or None,
        model_paths=model_paths,
    )
    # As the snapshot holds them: NaN and Infinity are written as null (promptkit.records.json_text), and compare so.
    return diff_records(pinned, RecordSet("rendered now", [finite(record) for record in now]), fields=True)


def pinned_files(folder: Path, manifest: object) -> list[str]:
    """The file names of a manifest's ``files`` (``manifest``: its JSON value), each checked to lie inside ``folder``.

    A name that is absolute, holds ``..``, or leads out of the folder through a symbolic link is a
    :class:`ConfigError` naming it: a snapshot comes with a repository someone else wrote, and its manifest says
    which files ``write`` replaces and ``check`` reads. A manifest that is no JSON object names nothing.
    """
    shown = folder / MANIFEST
    names = manifest.get("files", {}) if isinstance(manifest, dict) else {}
    if not isinstance(names, dict):
        raise ConfigError(f"{shown}: 'files' must map file names to record counts (got {type(names).__name__}); write the snapshot again into a new folder")
    checked = []
    for name in names:
        why = _outside(name, folder)
        if why is not None:
            raise ConfigError(f"{shown}: the manifest names {name!r}, {why}; {_INSIDE_ONLY}")
        checked.append(PurePosixPath(name).as_posix())
    return checked


def _outside(name: str, folder: Path) -> str | None:
    """Why the manifest entry ``name`` is not a file inside ``folder``; ``None`` when it is one."""
    path = PurePosixPath(name)
    if not name or "\x00" in name or not path.parts:
        return "which is not a file name"
    if path.is_absolute():
        return "an absolute path"
    if ".." in path.parts:
        return "a path with '..'"
    if not os.path.realpath(folder / path).startswith(os.path.realpath(folder) + os.sep):
        return f"which leads outside {folder} through a symbolic link"
    return None


def _read_manifest(folder: Path, *, strict: bool = True) -> object:
    """The JSON value of the folder's manifest, which must lie inside the folder. A manifest that is not JSON text is
    an error when ``strict``, else ``None`` (writing the snapshot again replaces it)."""
    manifest = folder / MANIFEST
    if not os.path.realpath(manifest).startswith(os.path.realpath(folder) + os.sep):
        raise ConfigError(f"{manifest} leads outside {folder} through a symbolic link; {_INSIDE_ONLY}")
    try:
        return json.loads(manifest.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        if not strict:
            return None
        raise ConfigError(f"{manifest}: not a JSON manifest ({error}); write the snapshot again") from None


def _names(keys: list[str]) -> str:
    return ", ".join(repr(key) for key in keys)


def _safe(name: object) -> str:
    """A file name from an abbr: path separators and other unsafe characters as ``_``."""
    return _UNSAFE.sub("_", str(name)).strip("._") or "_"


def _relative(path: str | Path, folder: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), folder.resolve())).as_posix()


def _rows_relative(entry: str, folder: Path, base: Path | None = None) -> str:
    """A ``--rows`` entry (``FILE`` or ``SPLIT=FILE``) with its file relative to ``folder`` (``base``: the folder a pinned
    entry's file is relative to; ``None``: the current folder)."""
    split, file = _split_rows(entry, base)
    return split + _relative(base / file if base is not None else file, folder)


def _rows_at(entry: str, folder: Path) -> str:
    """A pinned ``--rows`` entry with its file as a path from the current folder."""
    split, file = _split_rows(entry, folder)
    return split + str(folder / file)


def _split_rows(entry: str, base: Path | None) -> tuple[str, str]:
    """``('SPLIT=', 'FILE')`` of a ``SPLIT=FILE`` entry, ``('', entry)`` of a file (whose name may hold ``=`` too)."""
    split, sep, file = entry.partition("=")
    exists = (base / entry if base is not None else Path(entry)).exists()
    return (split + sep, file) if sep and not exists else ("", entry)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("promptkit")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"
