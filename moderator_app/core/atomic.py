"""Writing a file so that a reader sees the old file or the whole new one, never a part.

Exports of the decision ledger and the public version of an agent log are written to a
temporary file beside the target, flushed to disk, renamed over the target, and the folder is
synced so that the rename itself survives a crash. On any error the temporary file is removed
and the target is untouched.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


@contextlib.contextmanager
def atomic_writer(out: str | os.PathLike) -> Iterator[BinaryIO]:
    """A binary file to write; it replaces `out` only if the `with` block ends normally.

    Only a regular file (or nothing) is ever replaced. A character device or a FIFO
    (`/dev/null`, `/dev/stdout`, a named pipe) is written in place, as a shell redirection
    would: renaming over it would destroy the device node. Anything else (a directory, a
    block device, a socket) is refused with an OSError and left untouched. A symbolic link
    keeps being a link and the file it points to is replaced, but only when that file is in
    the link's own folder (`latest.csv -> decisions-2026-12.csv`): a link planted to reach
    another folder (`out.csv -> ~/.bashrc`, `/etc/hostname`), dangling or not, is refused.
    A replaced file keeps its permission bits (a new one is private to its owner, 0600)."""
    out = Path(out)
    try:
        mode = os.stat(out).st_mode  # follows links: what a write would reach
    except FileNotFoundError:
        mode = None
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        # O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of blocking forever
        fd = os.open(out, os.O_WRONLY | os.O_NONBLOCK)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as fh:
            yield fh
        return
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise OSError(errno.EEXIST, f"{out} is {kind}: refusing to replace it")
    if out.is_symlink():
        target = Path(os.path.realpath(out))
        if target.parent != Path(os.path.realpath(out.parent if str(out.parent) else ".")):
            raise OSError(errno.EEXIST, f"{out} is a symbolic link to a file in another folder: "
                                        "refusing to write through it (give that file's path)")
        out = target
    if mode is not None and _is_database(out):
        raise OSError(errno.EEXIST, f"{out} is an SQLite database (a decision ledger?): "
                                    "refusing to replace it with an export; give another path")
    directory = out.parent if str(out.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:  # say what the user named, never our temporary file's name
        raise OSError(exc.errno, f"cannot write {out}: {exc.strerror}") from None
    try:
        if mode is not None:  # the file replaced keeps its permissions (mkstemp's are 0600)
            os.fchmod(fd, stat.S_IMODE(mode) & 0o777)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_dir(directory)


SQLITE_MAGIC = b"SQLite format 3\x00"


def _is_database(path: Path) -> bool:
    """Whether `path` begins as an SQLite database does. Nothing this app writes (CSV, JSONL,
    PNG, JSON, Markdown) is one, so replacing one is always a slip: `withhold -o` or `frame
    -o` aimed at `decisions.sqlite3` replaced the ledger, every decision gone (session 15)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def atomic_write(out: str | os.PathLike, data: bytes) -> None:
    with atomic_writer(out) as fh:
        fh.write(data)


def open_regular(path: str | os.PathLike) -> BinaryIO:
    """Open a file given on the command line (a seeds file, a store file, a JSONL export)
    for reading, refusing anything but a regular file. Opened without blocking: a FIFO
    nobody writes to hung `verify --seeds`, `--store-file` and `decisions verify --jsonl`,
    and /dev/zero was read until memory ran out (issue 15)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _sync_dir(directory: Path) -> None:
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
