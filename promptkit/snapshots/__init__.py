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

A snapshot folder often comes with a repository someone else wrote, so its
manifest is not trusted: a ``files`` entry that is absolute, holds ``..`` or
leads out of the folder through a symbolic link is refused
(:func:`~promptkit.snapshots.snapshot.pinned_files`) by ``write`` and ``check``
alike.  :func:`write_snapshot` replaces the folder as a whole
(:mod:`promptkit.snapshots.folder`): the old snapshot stays as it was until the
new one is complete, and the other files of the folder are kept.
"""

from promptkit.snapshots.snapshot import MANIFEST, SNAPSHOT_FORMAT, Snapshot, check_snapshot, record_keys, write_snapshot

__all__ = ["MANIFEST", "SNAPSHOT_FORMAT", "Snapshot", "check_snapshot", "record_keys", "write_snapshot"]
