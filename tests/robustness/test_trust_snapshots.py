"""Snapshot folders a user clones or keeps: a manifest names files inside its folder only, and a write replaces the folder whole or not at all."""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import shutil
import signal
import stat
from pathlib import Path

import pytest

from promptkit import ConfigError, PromptkitError
from promptkit.cli._output import Interrupted
from promptkit.cli.main import main
from promptkit.snapshots import MANIFEST, check_snapshot, write_snapshot
from promptkit.testing import assert_prompts_match

CONFIGS = Path(__file__).parents[1] / "diff" / "configs"
SECRET = "the user's own file\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder: base.py, renamed.py, model.py, a snapshot `snap` of base.py × model.py, and victim.txt beside it."""
    for name in ("base.py", "renamed.py", "model.py"):
        shutil.copy(CONFIGS / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert main(["snapshot", "write", "snap", "base.py", "--model", "model.py"]) == 0
    (tmp_path / "victim.txt").write_text(SECRET, encoding="utf-8")
    return tmp_path


def tree(folder: Path) -> dict[str, object]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder's permission bits."""
    entries: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            entries[name] = ("link", os.readlink(path))
        elif path.is_dir():
            entries[name] = ("folder", stat.S_IMODE(path.stat().st_mode))
        else:
            entries[name] = path.read_bytes()
    return entries


def leftovers(folder: Path) -> list[str]:
    """Temporary or backup folders a snapshot write left beside the snapshot."""
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


def edit_files(project: Path, files: dict[str, int]) -> None:
    path = project / "snap" / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["files"] = files
    path.write_text(json.dumps(manifest), encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


# -- the manifest names files inside its folder only -------------------------------------------------------------------

OUTSIDE = "a snapshot names files inside its folder only: remove that entry, or the folder, and write the snapshot again"


def unsafe_entries(project: Path) -> dict[str, tuple[str, str]]:
    """id -> (the manifest entry, why it is refused)."""
    return {
        "dotdot": ("../victim.txt", "a path with '..'"),
        "inner_dotdot": ("sums/../../victim.txt", "a path with '..'"),
        "absolute": (str(project / "victim.txt"), "an absolute path"),
        "link_out": ("sums/tiny-chat.jsonl", "which leads outside snap through a symbolic link"),
        "folder_link_out": ("out/victim.txt", "which leads outside snap through a symbolic link"),
        "empty": ("", "which is not a file name"),
    }


@pytest.mark.parametrize("case", ["dotdot", "inner_dotdot", "absolute", "link_out", "folder_link_out", "empty"])
@pytest.mark.parametrize("verb", ["write", "check"])
def test_a_manifest_entry_outside_the_folder_is_refused(project, capsys, case, verb):
    """`..`, an absolute path, a symlink (to a file or a folder) leading out: one line naming the entry; nothing outside is deleted or read, the folder unchanged."""
    name, why = unsafe_entries(project)[case]
    if case == "link_out":
        (project / "snap" / "sums" / "tiny-chat.jsonl").unlink()
        (project / "snap" / "sums" / "tiny-chat.jsonl").symlink_to(project / "victim.txt")
    if case == "folder_link_out":
        (project / "snap" / "out").symlink_to(project, target_is_directory=True)
    edit_files(project, {name: 1})
    before = tree(project / "snap")
    argv = ["snapshot", "write", "snap", "base.py", "--model", "model.py"] if verb == "write" else ["snapshot", "check", "snap"]
    status, err = run(capsys, *argv)
    assert (status, err) == (1, f"promptkit: error: {Path('snap') / MANIFEST}: the manifest names {name!r}, {why}; {OUTSIDE}\n")
    assert (project / "victim.txt").read_text(encoding="utf-8") == SECRET
    assert tree(project / "snap") == before and leftovers(project) == []


def test_files_must_be_a_mapping_of_names(project, capsys):
    """A manifest whose files is not an object of names is refused as not a manifest, by write and check alike."""
    edit_files(project, ["../victim.txt"])  # type: ignore[arg-type]
    expected = f"promptkit: error: {Path('snap') / MANIFEST}: 'files' must map file names to record counts (got list); write the snapshot again into a new folder\n"
    assert run(capsys, "snapshot", "check", "snap") == (1, expected)
    assert run(capsys, "snapshot", "write", "snap", "base.py") == (1, expected)
    assert (project / "victim.txt").read_text(encoding="utf-8") == SECRET


def test_the_library_and_the_test_helper_refuse_it_too(project):
    """write_snapshot, check_snapshot and assert_prompts_match(update=True) raise the same ConfigError."""
    edit_files(project, {"../victim.txt": 1})
    for call in (
        lambda: write_snapshot("snap", ["base.py"]),
        lambda: check_snapshot("snap"),
        lambda: assert_prompts_match("snap", "base.py", models=["model.py"], update=True),
    ):
        with pytest.raises(ConfigError, match=r"the manifest names '\.\./victim\.txt', a path with '\.\.'"):
            call()
    assert (project / "victim.txt").read_text(encoding="utf-8") == SECRET


def test_a_manifest_that_is_a_link_out_of_the_folder_is_refused(project, capsys):
    """snapshot.json itself may not lead out of the folder (check would read another file as the manifest)."""
    outside = project / "elsewhere.json"
    shutil.move(project / "snap" / MANIFEST, outside)
    (project / "snap" / MANIFEST).symlink_to(outside)
    assert run(capsys, "snapshot", "check", "snap") == (
        1,
        f"promptkit: error: {Path('snap') / MANIFEST} leads outside snap through a symbolic link; {OUTSIDE}\n",
    )


# -- a write replaces the folder whole, or leaves it as it was --------------------------------------------------------


class _Disk:
    """Files opened for writing under ``root`` share ``room`` bytes; the write that overflows is cut, then ``failure`` is raised."""

    def __init__(self, root: Path, room: int, failure: BaseException) -> None:
        self.root, self.room, self.failure = str(root), room, failure
        self.real = builtins.open

    def open(self, file, mode="r", *args, **kwargs):
        handle = self.real(file, mode, *args, **kwargs)
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file).startswith(self.root) and any(flag in mode for flag in "wxa"):
            return _Filling(handle, self)
        return handle


class _Filling:
    def __init__(self, handle, disk: _Disk) -> None:
        self._handle, self._disk = handle, disk

    def write(self, text):
        if len(text) > self._disk.room:
            self._handle.write(text[: self._disk.room])
            self._handle.flush()
            self._disk.room = 0
            raise self._disk.failure
        self._disk.room -= len(text)
        return self._handle.write(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._handle.close()

    def __getattr__(self, name):
        return getattr(self._handle, name)


def full_disk(monkeypatch: pytest.MonkeyPatch, root: Path, room: int, failure: BaseException | None = None) -> None:
    disk = _Disk(root, room, failure or OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    monkeypatch.setattr(builtins, "open", disk.open)
    monkeypatch.setattr(io, "open", disk.open)


WRITE = ("snapshot", "write", "snap", "renamed.py", "--model", "model.py")


@pytest.mark.parametrize("room", [0, 1500, 2600])
def test_a_full_disk_keeps_the_old_snapshot(project, capsys, monkeypatch, room):
    """ENOSPC at the first byte, inside a record, or at the manifest: one line, exit 1, the old snapshot byte for byte, no temporary folder."""
    before = tree(project / "snap")
    full_disk(monkeypatch, project, room)
    assert run(capsys, *WRITE) == (1, "promptkit: error: cannot write the snapshot snap: No space left on device; the snapshot there is left as it was\n")
    assert tree(project / "snap") == before and leftovers(project) == []


def test_a_full_disk_at_the_sync_keeps_the_old_snapshot(project, capsys, monkeypatch):
    """ENOSPC reported only when a file is synced (delayed allocation): the same line, the old snapshot kept."""

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    before = tree(project / "snap")
    monkeypatch.setattr(os, "fsync", fsync)
    assert run(capsys, *WRITE) == (1, "promptkit: error: cannot write the snapshot snap: No space left on device; the snapshot there is left as it was\n")
    assert tree(project / "snap") == before and leftovers(project) == []


def test_a_full_disk_on_a_new_folder_leaves_nothing(project, capsys, monkeypatch):
    """Writing a new snapshot on a full disk: one line, no folder, no partial file."""
    full_disk(monkeypatch, project, 1500)
    assert run(capsys, "snapshot", "write", "new/snap", "base.py") == (
        1,
        "promptkit: error: cannot write the snapshot new/snap: No space left on device; nothing was written\n",
    )
    assert not (project / "new").exists() and leftovers(project) == []


def test_a_signal_while_writing_keeps_the_old_snapshot(project, capsys, monkeypatch):
    """SIGTERM while the records are written: 143, one line, the old snapshot as it was."""
    before = tree(project / "snap")
    full_disk(monkeypatch, project, 1500, Interrupted(signal.SIGTERM))
    assert run(capsys, *WRITE) == (143, "promptkit: interrupted\n")
    assert tree(project / "snap") == before and leftovers(project) == []


@pytest.mark.parametrize(("failing", "when"), [(1, "before"), (2, "before"), (2, "after")])
def test_a_stop_at_the_renames_puts_the_old_snapshot_back(project, capsys, monkeypatch, failing, when):
    """The old folder is moved aside, then the new one into place: a stop before either rename, or right after the second, leaves the old snapshot in place."""
    before = tree(project / "snap")
    real, calls = os.rename, []

    def rename(source, target, *args, **kwargs):
        calls.append(source)
        if len(calls) == failing and when == "before":
            raise Interrupted(signal.SIGTERM)
        real(source, target, *args, **kwargs)
        if len(calls) == failing:
            raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr(os, "rename", rename)
    assert run(capsys, *WRITE) == (143, "promptkit: interrupted\n")
    assert tree(project / "snap") == before and leftovers(project) == []


def test_a_signal_during_the_swap_waits_for_it(project, capsys, monkeypatch):
    """SIGTERM arriving while the folders are swapped is held back until the swap is done: the new snapshot whole, then 143."""
    real, sent = os.rename, []

    def rename(source, target, *args, **kwargs):
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGTERM)  # held back: delivered when the swap is over
        real(source, target, *args, **kwargs)

    monkeypatch.setattr(os, "rename", rename)
    assert run(capsys, *WRITE) == (143, "promptkit: interrupted\n")
    assert json.loads((project / "snap" / MANIFEST).read_text(encoding="utf-8"))["files"] == {"sums_v2/tiny-chat.jsonl": 2}
    assert check_snapshot("snap").differs is False and leftovers(project) == []


def test_a_failed_render_touches_nothing(project, capsys):
    """A config that fails to render: the old snapshot as it was, nothing beside it."""
    (project / "bad.py").write_text((CONFIGS / "base.py").read_text(encoding="utf-8").replace("input_columns=['q']", "input_columns=['nope']"), encoding="utf-8")
    before = tree(project / "snap")
    status, err = run(capsys, "snapshot", "write", "snap", "bad.py")
    assert status == 1 and err.startswith("promptkit: error: ") and err.count("\n") == 1
    assert tree(project / "snap") == before and leftovers(project) == []


def test_the_users_own_files_in_the_folder_survive_a_write(project, capsys):
    """Files the manifest does not name (a README, notes inside a dataset folder, a link, an empty folder) are kept; stale pinned files go."""
    snap = project / "snap"
    (snap / "README.md").write_text("# prompts\n", encoding="utf-8")
    (snap / "sums" / "notes.txt").write_text("mine\n", encoding="utf-8")
    (snap / "keep").mkdir()
    (snap / "link").symlink_to("README.md")
    assert run(capsys, *WRITE) == (0, "")
    assert sorted(tree(snap)) == ["README.md", "keep", "link", MANIFEST, "sums", "sums/notes.txt", "sums_v2", "sums_v2/tiny-chat.jsonl"]
    assert (snap / "sums" / "notes.txt").read_text(encoding="utf-8") == "mine\n" and os.readlink(snap / "link") == "README.md"
    assert check_snapshot("snap").differs is False and leftovers(project) == []


def test_a_symlinked_folder_is_replaced_behind_its_link(project, capsys):
    """DIR a symlink to the real folder: the folder it points to gets the new snapshot, the link stays a link."""
    shutil.move(project / "snap", project / "real")
    (project / "snap").symlink_to("real", target_is_directory=True)
    assert run(capsys, *WRITE) == (0, "")
    assert (project / "snap").is_symlink() and os.readlink(project / "snap") == "real"
    assert json.loads((project / "real" / MANIFEST).read_text(encoding="utf-8"))["files"] == {"sums_v2/tiny-chat.jsonl": 2}
    assert leftovers(project) == []


def test_the_folder_keeps_its_permission_bits(project, capsys):
    """A rewritten snapshot folder keeps its mode; a new one gets 0777 less the umask, as mkdir gives it."""
    os.chmod(project / "snap", 0o750)
    assert run(capsys, *WRITE) == (0, "")
    assert stat.S_IMODE((project / "snap").stat().st_mode) == 0o750
    old = os.umask(0o027)
    try:
        assert run(capsys, "snapshot", "write", "fresh", "base.py") == (0, "")
    finally:
        os.umask(old)
    assert stat.S_IMODE((project / "fresh").stat().st_mode) == 0o750


def test_the_current_folder_is_not_replaced(project, capsys, monkeypatch):
    """A snapshot folder holding the current folder would be swapped from under the shell: refused."""
    monkeypatch.chdir(project / "snap")
    assert run(capsys, "snapshot", "write", ".", "../base.py") == (
        1,
        "promptkit: error: . holds the current folder, and writing a snapshot replaces its folder as a whole: give the snapshot a folder of its own\n",
    )


def test_a_write_error_is_a_promptkit_error(project, monkeypatch):
    """The library raises the same failure as a PromptkitError (the CLI's one line)."""
    full_disk(monkeypatch, project, 10)
    with pytest.raises(PromptkitError, match="^cannot write the snapshot snap: No space left on device; the snapshot there is left as it was$"):
        write_snapshot("snap", ["base.py"])


def test_a_broken_manifest_is_replaced(project, capsys):
    """A manifest that is not JSON names no file: writing again replaces it and keeps the folder's other files."""
    (project / "snap" / MANIFEST).write_text("{oops", encoding="utf-8")
    assert run(capsys, *WRITE) == (0, "")
    assert check_snapshot("snap").differs is False
    assert (project / "snap" / "sums" / "tiny-chat.jsonl").is_file()  # named by no readable manifest: kept


def test_a_file_of_the_users_where_the_snapshot_needs_a_folder(project, capsys):
    """The user's file sits where the new snapshot puts a dataset folder: refused, nothing changed."""
    (project / "snap" / "sums_v2").write_text("mine\n", encoding="utf-8")
    before = tree(project / "snap")
    assert run(capsys, *WRITE) == (
        1,
        f"promptkit: error: {Path('snap') / 'sums_v2'} is not part of the snapshot, and the new snapshot needs a folder there: "
        "move it, then write the snapshot again (nothing was written)\n",
    )
    assert tree(project / "snap") == before and leftovers(project) == []
