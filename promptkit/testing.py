"""A test suite's own prompt snapshots: :func:`assert_prompts_match` fails a test when a config's prompts change.

Use it in a project's tests::

    from promptkit.testing import assert_prompts_match

    def test_prompts_are_pinned():
        assert_prompts_match("tests/prompt_snapshot", "configs/datasets/mmlu_gen.py", models=["configs/models/llama3.py"])

The first run fails, saying how to write the snapshot; run the tests once with
``PROMPTKIT_SNAPSHOT_UPDATE=1`` to write it (or again to accept a change), and
commit the folder.  A failure's message is the diff ``promptkit snapshot check``
prints: the prompts and pieces that changed, and which inputs did.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from promptkit.diff import report_text
from promptkit.snapshots import MANIFEST, Snapshot, check_snapshot, write_snapshot

__all__ = ["UPDATE_ENV", "assert_prompts_match"]

#: Set to anything but ``''`` or ``'0'`` to (re)write the snapshots instead of checking them.
UPDATE_ENV = "PROMPTKIT_SNAPSHOT_UPDATE"


def assert_prompts_match(
    snapshot_dir: str | Path,
    *dataset_configs: str | Path,
    models: Sequence[str | Path] = (),
    dataset: str | None = None,
    update: bool | None = None,
) -> None:
    """Raise ``AssertionError`` unless the prompts of ``dataset_configs`` × ``models`` are those pinned in ``snapshot_dir``.

    ``update`` (default: the :data:`UPDATE_ENV` environment variable) writes the snapshot instead. A snapshot of
    other configs than those given fails too: update it when the test's configs change.
    """
    if update if update is not None else os.environ.get(UPDATE_ENV, "") not in ("", "0"):
        write_snapshot(snapshot_dir, dataset_configs, models, dataset=dataset)
        return
    folder = Path(snapshot_dir)
    if not (folder / MANIFEST).is_file():
        raise AssertionError(f"no prompt snapshot in {folder}: run the tests with {UPDATE_ENV}=1 to write it, then commit it")
    snapshot = Snapshot(folder)
    given = ([_same(path) for path in dataset_configs], [_same(path) for path in models], dataset)
    if given != ([_same(path) for path in snapshot.configs], [_same(path) for path in snapshot.models], snapshot.dataset):
        raise AssertionError(
            f"the snapshot in {folder} pins other configs ({', '.join(map(str, snapshot.configs + snapshot.models))}); "
            f"run the tests with {UPDATE_ENV}=1 to pin these"
        )
    report = check_snapshot(folder)
    if report.differs:
        raise AssertionError(f"the prompts differ from the snapshot in {folder} (to accept them: {UPDATE_ENV}=1):\n{report_text(report)}")


def _same(path: str | Path) -> Path:
    return Path(path).resolve()
