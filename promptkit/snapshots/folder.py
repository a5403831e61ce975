"""A folder replaced as a whole: :func:`replace_folder` builds the new folder beside the old one and renames it into place.

What the caller's ``fill`` writes goes to a temporary folder in the target's
parent (``.<name>.<random>.tmp``, so the renames stay on one file system),
each file flushed and ``fsync``\\ ed (:func:`write_file`).  The old folder's
other entries — files its owner put there, that the new content neither
replaces nor drops — are carried into the new folder as hard links (copies
where the file system has none; symbolic links as links), so nothing of
theirs is lost.  The new folder gets the old one's permission bits.  Then
two renames swap them: the old folder aside (``.<name>.<random>.old``), the
new one into place; the old one is removed last.

Until the second rename the old folder is untouched; any failure before it
(an error, a full disk, SIGINT/SIGTERM raised as an exception) removes the
temporary folder and puts the old folder back where it was.  SIGINT and
SIGTERM are held back during the renames and the removal, so the swap is not
cut in two (the first one arriving is raised again once the swap is over).  A symbolic link to the folder is followed: the folder it leads
to is replaced, the link stays.  Only SIGKILL or a crash between the two
renames can leave the folder absent (the old one then waits in
``.<name>.*.old``, the new one in ``.<name>.*.tmp``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
import signal
import stat
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from pathlib import Path, PurePosixPath
from types import FrameType

from promptkit.errors import ConfigError

__all__ = ["replace_folder", "write_file"]

logger = logging.getLogger(__name__)

#: The signals held back while the folders are swapped (those the CLI turns into an orderly stop).
_HELD = {signal.SIGINT, signal.SIGTERM}


def write_file(path: Path, chunks: Iterable[str]) -> None:
    """A new UTF-8 file of ``chunks``, its folders made as needed, flushed and synced to the disk before it is closed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as file:
        for chunk in chunks:
            file.write(chunk)
        file.flush()
        os.fsync(file.fileno())  # a full disk that only shows when the blocks are allocated shows here


def replace_folder(target: Path, fill: Callable[[Path], None], dropped: Collection[str] = ()) -> None:
    """Replace the folder ``target`` (or create it) with the one ``fill(folder)`` writes, as a whole (see the module docstring).

    ``dropped`` are paths of the old folder (relative, ``/``-separated) that are not carried into the new one;
    any other entry is, unless ``fill`` wrote the same path. OS errors are raised as they are, after the clean-up.
    """
    real = Path(os.path.realpath(target))
    existed = real.is_dir()
    created = [] if existed else _missing_parents(real)
    temp: Path | None = None
    try:
        temp = _new_folder(real.parent, real.name, "tmp")
        fill(temp)
        if existed:
            _carry(real, temp, set(dropped), target)
            _keep_mode(real, temp)
        _sync_tree(temp)
        with _signals_held():
            _swap(real, temp, existed)
    except BaseException:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
        _remove_folders(created)
        raise


def _missing_parents(folder: Path) -> list[Path]:
    """The folders above ``folder`` that do not exist, made now (outermost first), so that they can be removed on failure."""
    made: list[Path] = []
    try:
        for parent in reversed([parent for parent in folder.parents if not parent.exists()]):
            parent.mkdir()
            made.append(parent)
    except BaseException:
        _remove_folders(made)
        raise
    return made


def _remove_folders(folders: list[Path]) -> None:
    """Empty folders this write made, innermost first."""
    for folder in reversed(folders):
        with contextlib.suppress(OSError):  # not empty: someone else put something there meanwhile
            folder.rmdir()


def _new_folder(parent: Path, name: str, kind: str) -> Path:
    """A new, empty folder ``.<name>.<random>.<kind>`` in ``parent`` (0o777 less the umask, as ``mkdir`` makes it)."""
    while True:
        folder = parent / f".{name}.{secrets.token_hex(4)}.{kind}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder


def _carry(old: Path, new: Path, dropped: set[str], shown: Path) -> None:
    """Every entry of ``old`` that is not ``dropped`` and not written in ``new`` already, linked (or copied) into ``new``."""
    modes: list[tuple[Path, int]] = []
    for here, folders, files in os.walk(old):  # symbolic links to folders are listed in `folders` and not entered
        relative = PurePosixPath(Path(here).relative_to(old).as_posix())
        for name in (*folders, *files):
            source = Path(here, name)
            path = (relative / name).as_posix()
            destination = new / path
            if source.is_dir() and not source.is_symlink():
                if os.path.lexists(destination) and not destination.is_dir():
                    raise _clash(shown, path, "a file")
                if not any(source.iterdir()):  # an empty folder of the owner's; one holding only dropped files is not carried
                    destination.mkdir(parents=True, exist_ok=True)
                modes.append((destination, stat.S_IMODE(source.lstat().st_mode)))
                continue
            if path in dropped:
                continue
            if destination.is_dir() and not destination.is_symlink():
                raise _clash(shown, path, "a folder")
            if os.path.lexists(destination):
                continue  # the new content writes this path: its file replaces the old one
            destination.parent.mkdir(parents=True, exist_ok=True)
            _link(source, destination)
    for folder, mode in reversed(modes):  # innermost first, once every entry is in: a read-only folder can be filled
        if folder.is_dir():
            os.chmod(folder, mode)


def _clash(folder: Path, path: str, needs: str) -> ConfigError:
    return ConfigError(
        f"{folder / path} is not part of the snapshot, and the new snapshot needs {needs} there: move it, then write the snapshot again "
        "(nothing was written)"
    )


def _link(source: Path, destination: Path) -> None:
    """``destination`` as a second name of ``source`` (a symbolic link is made anew; a file the file system cannot link is copied)."""
    if source.is_symlink():
        destination.symlink_to(os.readlink(source))
        return
    try:
        os.link(source, destination, follow_symlinks=False)
    except OSError:
        if not source.is_file():
            raise
        shutil.copy2(source, destination, follow_symlinks=False)


def _keep_mode(old: Path, new: Path) -> None:
    """The old folder's permission bits (and its group, where the writer may set it) on the new folder."""
    status = old.stat()
    with contextlib.suppress(OSError):  # another group than the writer's own: the new folder keeps the writer's
        os.chown(new, -1, status.st_gid)
    os.chmod(new, stat.S_IMODE(status.st_mode))


def _sync_tree(folder: Path) -> None:
    """Each folder of the tree synced, so that the names of the new files are on the disk before the rename."""
    for here, _, _ in os.walk(folder):
        _sync_folder(Path(here))


def _sync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _swap(real: Path, temp: Path, existed: bool) -> None:
    """The old folder aside, the new one into place, the old one removed; on failure the old folder back in place."""
    if not existed:
        os.rename(temp, real)
        _sync_folder(real.parent)
        return
    backup = _new_name(real.parent, real.name, "old")
    new_inode = temp.stat().st_ino
    try:
        os.rename(real, backup)
        os.rename(temp, real)
        _sync_folder(real.parent)
    except BaseException:
        # The folders as they are now say how far the swap went (a flag set after a rename could miss it).
        if os.path.lexists(real) and real.stat().st_ino == new_inode:
            os.rename(real, temp)
        if not os.path.lexists(real) and os.path.lexists(backup):
            os.rename(backup, real)
        raise
    try:
        shutil.rmtree(backup)
    except OSError as error:
        logger.warning("%s: the new snapshot is in place, but the old folder could not be removed (%s): remove %s", real, error.strerror, backup)


def _new_name(parent: Path, name: str, kind: str) -> Path:
    """A name ``.<name>.<random>.<kind>`` in ``parent`` that nothing has."""
    while True:
        path = parent / f".{name}.{secrets.token_hex(4)}.{kind}"
        if not os.path.lexists(path):
            return path


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back inside and raised again on the way out (to the handlers there were), so that no
    stop lands between two renames. Python runs signal handlers in the main thread only, whichever thread the signal
    reached, so swapping the handlers holds them back where blocking the signal in one thread would not."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        pending.append(signum)

    # A handler installed by other than Python (getsignal: None) cannot be put back: that signal is left alone.
    previous = {each: signal.signal(each, hold) for each in _HELD if signal.getsignal(each) is not None}
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)
        if pending:
            signal.raise_signal(pending[0])
